#pragma once
// The k-median / k-means solution on the private HST: the authors' dynamic program over the tree
// (google-research hst_clustering, dynamic_program.py HST.solve_dp and recover_dp_solution), which places at
// most k centres at cells of the tree so as to minimise the tree's cost of the points.
//
// Costs, with D the cell's diameter raised to p (p = 1 for k-median, 2 for k-means: the code's `exp`) and w
// its weight (noisy count):
//   cost[0]       = 2 D^p w           a cell without a centre: each of its points pays twice its diameter
//   leaf, k' >= 1 = D^p w             one centre at the cell serves all its points
//   inner, k' >= 1 = min over k1 + k2 = k' of upper.cost[k1] + lower.cost[k2]
// The minimum is the first one found scanning the upper child's budget k1 = 0, 1, ..., k' (the code's strict
// `<`, k1 being its right child's budget); extra budget is therefore never moved to the upper child unless it
// lowers the cost, and a leaf given k' > 1 still yields one centre, so fewer than k centres can come out.
// recover_dp_solution's order is kept: a cell's lower subtree's centres before its upper subtree's.
//
// The same solution with less work and memory: a subtree with a leaves of nonzero weight costs the same for
// every budget >= a (each such leaf is served by one centre; a leaf of weight 0, an empty sibling, costs 0 at
// every budget), so only min(k, a) + 1 costs are kept per node and k1 is scanned up to the upper child's
// min(k', a_upper). A chain of released cells, each with an empty sibling, thus keeps 2 costs a node, not
// k + 1. Those limits never change the result: a budget beyond a_upper has the cost of a_upper, and the lower
// child's cost can only fall with the budget left to it, so the first minimiser is within them (for the
// doubles as well: rounding a sum is monotone).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "hst_clustering/private_hst.hpp"

namespace dpclust::hst {

enum class Objective { kmedian, kmeans };
const char* to_string(Objective o);
// The exponent p of the diameters (1 or 2).
int exponent_of(Objective o);

struct TreeSolution {
  // The nodes that receive a centre, in recover_dp_solution's order: leaves and completion nodes (a completion
  // node's centre is its parent's midpoint, dynamic_program._get_center). At most k, at least 1.
  std::vector<std::int32_t> centre_nodes;
  double tree_cost = 0;  // the optimum at the root with budget k (public: from the noisy weights and the diameters)
  std::size_t cost_entries =
      0;  // doubles in the program's table: the sum over nodes of min(k, leaves of nonzero weight) + 1
};

// k >= 1 (std::invalid_argument otherwise).
TreeSolution solve_on_tree(const PrivateHst& tree, std::size_t k, Objective objective);

}  // namespace dpclust::hst
