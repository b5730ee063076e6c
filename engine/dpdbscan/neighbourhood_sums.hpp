#pragma once
// Alg. 1 line 6 (Sec. 5.2, eq. 2) on a sparse released histogram, in bounded memory: the noisy
// neighbourhood sums S(X) = sum of the released x~_i over X_i in NB(X), for every cell X that some released
// cell reaches, keeping the cells with S(X) >= threshold.
//
// Each released cell s contributes its value to the kappa cells X = s - o (o in NB). Summing all
// released x kappa pairs in one hash map needs memory for every cell touched -- up to released x kappa
// cells, 1.3 million per released cell in 8-D -- more than the memory of a machine on 8-column data. Here the targets
// are split by their leading grid coordinates until a group's pairs fit the budget:
//
//   group (prefix t_0..t_{L-1}) holds, for each released cell s (ascending), the run of offsets whose first
//   L coordinates are s_0 - t_0, .., s_{L-1} - t_{L-1} (a contiguous run of the lexicographic offsets);
//   when its pairs exceed `max_pairs`, it is split by t_L = s_L - o_L (the runs of equal o_L inside the
//   run, again contiguous), the sub-groups visited in ascending t_L; otherwise its targets are summed in
//   one hash map, which is then emptied. Before that, a group whose targets fit a small box (kMaxBoxCells) is
//   summed in an array instead, by NB's rows (the dense storage's row additions): the fast path in high
//   dimensions, where the groups split down to a few coordinates crowd small boxes.
//
// Memory: the map of one group (<= max_pairs targets), the group lists (O(released) per level) and the
// run ends of the offsets (d x kappa integers), i.e. O(n + kappa) beyond the points. Work: every (released
// cell, offset) pair once, as before. Every target receives its contributions in ascending order of the
// released cell (groups keep that order), the order of the dense row sums, so the sums are bit-identical
// to the dense storage's and to one unsplit map; the cells come out in ascending code order.
#include <cstddef>
#include <cstdint>

#include "dpdbscan/grid.hpp"
#include "dpdbscan/histogram.hpp"
#include "dpdbscan/spans.hpp"

namespace dpclust::dpdbscan {

// Pairs summed in one hash map at most (2^16 pairs: a map of at most 2 MiB, sized once, in cache).
inline constexpr std::uint64_t kMaxPairsPerGroup = std::uint64_t{1} << 16;
// A group whose reachable targets fit a box of at most this many cells is summed in an array (9 bytes a
// cell: 2.3 MiB), by NB's rows -- contiguous additions along the last axis instead of a hash insertion
// per (released cell, offset) pair.
inline constexpr std::uint64_t kMaxBoxCells = std::uint64_t{1} << 18;

// The core cells of a sparse (linear-time) histogram: S(X) >= threshold; evaluated = the cells whose sum
// was formed. max_pairs > 0.
CoreCells sparse_core_cells(const CellGrid& grid, const Neighbourhood& nb, const NoisyHistogram& hist, double threshold,
                            std::uint64_t max_pairs = kMaxPairsPerGroup, std::uint64_t max_box_cells = kMaxBoxCells);

}  // namespace dpclust::dpdbscan
