// The dynamic program on the HST; see tree_solution.hpp.
#include "hst_clustering/tree_solution.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>
#include <utility>

namespace dpclust::hst {

const char* to_string(Objective o) { return o == Objective::kmeans ? "kmeans" : "kmedian"; }

int exponent_of(Objective o) { return o == Objective::kmeans ? 2 : 1; }

TreeSolution solve_on_tree(const PrivateHst& tree, std::size_t k, Objective objective) {
  if (k < 1) throw std::invalid_argument("solve_on_tree: k must be >= 1");
  const std::size_t n = tree.nodes.size();
  // Leaves of nonzero weight under every node (a leaf of weight 0 -- an empty sibling, or a root whose count was
  // not released -- costs 0 at every budget, so budget given to it never lowers a cost); children come after
  // their parent, so one backward pass.
  std::vector<std::size_t> leaves(n, 0);
  for (std::size_t i = n; i-- > 0;) {
    const HstNode& v = tree.nodes[i];
    if (v.leaf() && v.weight != 0) leaves[i] = 1;
    for (std::int32_t c : {v.upper, v.lower})
      if (c >= 0) leaves[i] += leaves[static_cast<std::size_t>(c)];
  }
  // cost of node i at budget b >= cap[i] is its cost at cap[i].
  std::vector<std::size_t> cap(n), offset(n + 1, 0);
  for (std::size_t i = 0; i < n; ++i) {
    cap[i] = std::min(k, leaves[i]);
    offset[i + 1] = offset[i] + cap[i] + 1;
  }
  std::vector<double> cost(offset[n]);
  auto cost_at = [&](std::int32_t node, std::size_t b) {
    const auto i = static_cast<std::size_t>(node);
    return cost[offset[i] + std::min(b, cap[i])];
  };
  // The first minimiser over k1 (the upper child's budget) of the split of budget b at inner node v.
  auto best_split = [&](const HstNode& v, std::size_t b) {
    double best = std::numeric_limits<double>::infinity();
    std::size_t best_k1 = 0;
    const std::size_t last = std::min(b, cap[static_cast<std::size_t>(v.upper)]);
    for (std::size_t k1 = 0; k1 <= last; ++k1) {
      const double c = cost_at(v.upper, k1) + cost_at(v.lower, b - k1);
      if (c < best) {
        best = c;
        best_k1 = k1;
      }
    }
    return std::make_pair(best, best_k1);
  };
  const bool squared = objective == Objective::kmeans;
  for (std::size_t i = n; i-- > 0;) {
    const HstNode& v = tree.nodes[i];
    const double dp = squared ? v.diameter * v.diameter : v.diameter;
    double* c = cost.data() + offset[i];
    c[0] = 2 * dp * v.weight;
    if (v.leaf()) {
      for (std::size_t b = 1; b <= cap[i]; ++b) c[b] = dp * v.weight;
      continue;
    }
    if (v.upper < 0 || v.lower < 0) throw std::logic_error("solve_on_tree: an inner node without both children");
    for (std::size_t b = 1; b <= cap[i]; ++b) c[b] = best_split(v, b).first;
  }
  TreeSolution s;
  s.tree_cost = cost_at(0, k);
  s.cost_entries = cost.size();
  // recover_dp_solution: walk down with the same first minimisers; the lower subtree's centres first.
  std::vector<std::pair<std::int32_t, std::size_t>> stack{{0, k}};
  while (!stack.empty()) {
    const auto [node, b] = stack.back();
    stack.pop_back();
    if (b == 0) continue;
    const HstNode& v = tree.nodes[static_cast<std::size_t>(node)];
    if (v.leaf()) {
      s.centre_nodes.push_back(node);
      continue;
    }
    const std::size_t k1 = best_split(v, b).second;
    stack.push_back({v.upper, k1});
    stack.push_back({v.lower, b - k1});
  }
  return s;
}

}  // namespace dpclust::hst
