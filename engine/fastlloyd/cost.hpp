#pragma once
// What one trial of `fastlloyd` costs (core/trial_cost.hpp, MethodInfo::cost): memory in bytes and work in basic
// operations. T is `iterations`, or the rule's largest value (7) when the rule chooses it.
#include "core/trial_cost.hpp"

namespace dpclust::fastlloyd {

TrialCost trial_cost(const CostInputs& in);

}  // namespace dpclust::fastlloyd
