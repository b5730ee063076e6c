#pragma once
// Affinity Propagation's cost (core/trial_cost.hpp): the similarities, responsibilities and availabilities, 3 n^2
// doubles; work max_iter x 4 n^2.
#include "core/trial_cost.hpp"

namespace dpclust {

TrialCost affinity_cost(double n, double max_iter);
TrialCost affinity_trial_cost(const CostInputs& in);

}  // namespace dpclust
