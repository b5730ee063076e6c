#include "cluster/kmeans/cost.hpp"

#include <algorithm>
#include <cmath>

namespace dpclust {

TrialCost kmeans_cost(double n, double d, double k, double n_init, double max_iter) {
  return {kBytesPerDouble * n * (4 + std::log(std::max(1.0, k))) + 3 * kBytesPerDouble * k * d,
          n_init * max_iter * n * k * d};
}

TrialCost kmeans_trial_cost(const CostInputs& in) {
  return kmeans_cost(in.n(), in.d(), in.number("k", 1), in.number("n_init", 1), in.number("max_iter", 300));
}

}  // namespace dpclust
