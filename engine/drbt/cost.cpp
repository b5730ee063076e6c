#include "drbt/cost.hpp"

#include <algorithm>

#include "cluster/kmeans/cost.hpp"

namespace dpclust::drbt {

TrialCost trial_cost(const CostInputs& in) {
  const double n = in.n(), d = in.d();
  const double k_dims = in.number("k_dims", 1);
  const TrialCost c = kmeans_cost(n, k_dims, in.number("k", 1), in.number("n_init", 1), 300);
  TrialCost s;
  s.memory = kBytesPerDouble * n * (d + 1 + k_dims) + c.memory;
  s.work = n * d * k_dims + 2 * c.work + std::min(n * n / 2, in.number("stress_pairs", 2e6)) * d;
  return s;
}

}  // namespace dpclust::drbt
