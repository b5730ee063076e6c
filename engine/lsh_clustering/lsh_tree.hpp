#pragma once
// The LSH prefix tree of Google's DP clustering (learning/clustering/lsh.py, lsh_tree.py), built with
// private counts.
//
//   lsh.py SimHash               simhash_projections: max_depth vectors v_0 .. v_{max_depth-1} in R^d with
//                                N(0, 1) entries (data-independent, public randomness); a point's hash
//                                character at prefix length l is '0' when <x, v_l> >= 0, '1' when < 0
//                                (random hyperplanes through the origin: only directions matter, so the
//                                data should be centred on the origin, lsh_clustering's `centre`)
//   lsh_tree.py LshTreeNode      LshNode: a hash prefix, its points (a range of `order`), its private count
//   lsh_tree.py root_node        levels[0] = {root}; its private count is the one default_tree_param drew,
//                                raised to >= 1 (clustering_algorithm.get_private_coreset)
//   LshTree.__init__             level by level while level < max_depth: the nodes whose private count is
//                                >= min_points_in_branching_node branch (filter_branching_nodes); each gets
//                                its two children, '0' then '1', each with a fresh private count (count +
//                                discrete Laplace); the children whose private count is >= min_points_in_node
//                                form the next level (get_next_level); an empty next level ends the tree
//   LshTree.is_leaf / leaves     a node without a child in the next level (or on the last level) is a leaf;
//                                leaves are listed level by level, in node order
// A record is in at most one node of each level, so each level's counts have l1 sensitivity 1 under
// add/remove; the tree's shape is a function of the noisy counts and the public projections only. Points
// of a child that did not join the tree are in no leaf (they reach the coreset through no sum).
//
// Cost: every point's max_depth dot products in one sequential pass (its whole hash as bits), then a stable
// partition of each branching node's range on one bit (O(n) a level, no allocation per point): O(n d
// max_depth) time, O(n) memory besides the data.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/dataset.hpp"
#include "core/rng.hpp"
#include "lsh_clustering/tree_params.hpp"
#include "privacy/joint_account.hpp"

namespace dpclust::lsh {

struct LshNode {
  std::uint64_t prefix = 0;        // the hash characters, the one at prefix length l in bit l ('1' = 1)
  int level = 0;                   // prefix length
  std::size_t begin = 0, end = 0;  // the node's points: LshTree::order[begin, end)
  std::int64_t private_count = 0;  // true count + discrete Laplace noise (the root: raised to >= 1)
  std::size_t children = 0;        // children that joined the tree
  std::size_t size() const { return end - begin; }
};

struct LshTree {
  std::vector<std::vector<LshNode>> levels;  // levels[0] holds the root; no level is empty
  std::vector<std::size_t> order;            // point indices; each node's points are contiguous, in index order
  std::vector<LshNode> leaves;               // level by level, in node order
  std::size_t count_draws = 0;               // noisy counts drawn for children (the root's excluded)
  int depth() const { return static_cast<int>(levels.size()) - 1; }
};

// max_depth x d projection vectors with N(0, 1) entries (Rng::normal, Boost's ziggurat).
RowMatrix simhash_projections(std::size_t d, int max_depth, Rng& rng);

// The tree over n x d row-major `points` (clipped and centred), with `params`' thresholds, the root's
// private count, and `counts` for every child's count (one draw per child, '0' before '1', nodes in level
// order). Throws std::invalid_argument when projections is not max_depth x d.
LshTree build_lsh_tree(const double* points, std::size_t n, std::size_t d, const RowMatrix& projections,
                       const TreeParams& params, std::int64_t root_private_count,
                       const privacy::JointCountNoise& counts, Rng& rng);

}  // namespace dpclust::lsh
