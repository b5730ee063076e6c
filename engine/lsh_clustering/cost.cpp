#include "lsh_clustering/cost.hpp"

#include <algorithm>
#include <cmath>

#include "cluster/kmeans/cost.hpp"

namespace dpclust::lsh {

TrialCost trial_cost(const CostInputs& in) {
  const double n = in.n(), d = in.d();
  const double k = in.number("k", 1), depth = in.number("max_depth", 20);
  const double eps = std::max(in.number("epsilon", 1), 1e-12),
               delta = std::clamp(in.number("delta", 1e-6), 1e-300, 0.5);
  double per_leaf = in.number("min_points_in_node", 0);
  if (per_leaf <= 0)
    per_leaf = std::max(1.0, std::min(10 * std::sqrt(d) * std::sqrt(2 * std::log(1.25 / delta)) / eps, n / (2 * k)));
  const double leaves = std::max(1.0, std::min({std::exp2(depth), 2 * n / per_leaf, n}));
  const TrialCost c = kmeans_cost(leaves, d, std::min(k, leaves), in.number("n_init", 10), in.number("max_iter", 300));
  TrialCost s;
  s.memory = kBytesPerDouble * n * (d + 4) + 2 * kBytesPerDouble * leaves * d + c.memory;
  s.work = n * d * (depth + 2) + c.work + n * k * d;
  return s;
}

}  // namespace dpclust::lsh
