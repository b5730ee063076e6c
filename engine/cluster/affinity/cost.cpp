#include "cluster/affinity/cost.hpp"

namespace dpclust {

TrialCost affinity_cost(double n, double max_iter) { return {3 * kBytesPerDouble * n * n, max_iter * 4 * n * n}; }

TrialCost affinity_trial_cost(const CostInputs& in) { return affinity_cost(in.n(), in.number("max_iter", 200)); }

}  // namespace dpclust
