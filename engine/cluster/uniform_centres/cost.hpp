#pragma once
// The trivial baseline's cost (core/trial_cost.hpp): k centres drawn from the bounds, then every point's nearest
// centre: 16 n + 8 k d bytes, work n k d.
#include "core/trial_cost.hpp"

namespace dpclust {

TrialCost uniform_centres_trial_cost(const CostInputs& in);

}  // namespace dpclust
