#pragma once
// The C4.5 builder's buffers (c45_fit.cpp), kept per thread.
#include <cstddef>
#include <cstdint>
#include <vector>

namespace dpclust::wavecluster {

// The builder's buffers, kept per thread from tree to tree: a cross-validation fits thousands of trees on
// grids of the same size, and each would otherwise allocate its sorted orders, its flags and a class count
// array per node. A fit does not start another one on its thread, so one set per thread suffices.
struct C45Scratch {
  std::vector<std::vector<std::uint32_t>> ord;  // see C45Builder::ord
  std::vector<std::uint8_t> goes_left;          // per instance: the current split sends it left
  std::vector<std::uint32_t> right_part;        // the right side of a partition, before it is copied back
  std::vector<std::uint32_t> class_count;       // per class, the current node's count; all 0 between nodes
  std::vector<std::uint32_t> bag0;              // per class, the left bag of a candidate cut; all 0 between scans
  std::vector<std::uint32_t> present;           // the current node's classes, ascending
  std::vector<std::uint32_t> best_left;         // per attribute and present class, bag 0 of its best cut
  std::vector<std::uint32_t> child_counts;      // stack of (class, count) lists of nodes still to build
  std::vector<std::uint32_t> lo, hi;            // per node, its range of the orders (see C45Builder::build)
  std::vector<double> subtree_errors;
};
inline C45Scratch& scratch() {
  thread_local C45Scratch s;
  return s;
}
// Trees on more instances than this give their buffers back when done, so that a thread does not keep
// a large grid's orders (4 bytes per instance and attribute) for the rest of the run; the evaluation's
// lattices (a few thousand cells) stay well below it.
inline constexpr std::size_t kKeepScratchUpTo = std::size_t{1} << 16;
inline void release_if_large(C45Scratch& s, std::size_t n) {
  if (n > kKeepScratchUpTo) s = C45Scratch{};
}

}  // namespace dpclust::wavecluster
