#pragma once
// The LSH prefix tree's thresholds, chosen automatically as the reference does
// (learning/clustering/default_clustering_params.py, default_tree_param; clustering_algorithm.py,
// private_lsh_clustering, for max_depth):
//   max_depth = 20 ("chosen experimentally over multiple datasets"; fixed before any count, since the
//     accountant charges max_depth + 1 levels of counts);
//   low_noise = int(10 sqrt(d) sigma / Delta): a node of that many points carries sum noise of norm about
//     sqrt(d) sigma, i.e. 0.1 r per point ("each point has noise roughly 0.1 * radius");
//   min_points_in_node = max(1, min(low_noise, floor(n~ / (2 k)))), n~ the root's private count (a node
//     per cluster should fit even when the noise is higher than wished; n~ may be negative, so the max
//     comes last);
//   min_points_in_branching_node = 3 min_points_in_node.
// Only public values (d, k, sigma / Delta) and the private root count enter: post-processing.
#include <cstddef>
#include <cstdint>

namespace dpclust::lsh {

inline constexpr int kDefaultMaxDepth = 20;

struct TreeParams {
  std::int64_t min_points_in_branching_node = 0;  // a node with a private count >= this branches
  std::int64_t min_points_in_node = 0;            // a child with a private count >= this joins the tree
  int max_depth = kDefaultMaxDepth;               // levels below the root
};

// The rule above: `noise_multiplier` = sigma / Delta of the sums, `root_private_count` = n~.
TreeParams default_tree_params(std::size_t k, std::size_t d, double noise_multiplier, std::int64_t root_private_count,
                               int max_depth);

// Python's floor division a // b (b > 0), which the reference applies to a possibly negative count.
std::int64_t floor_div(std::int64_t a, std::int64_t b);

}  // namespace dpclust::lsh
