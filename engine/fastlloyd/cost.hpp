#pragma once
// What one trial of `fastlloyd` costs, from the parameters and the dataset's shape (loading/cost_model.cpp calls
// it): memory in bytes and work in basic operations, as the cost model counts them for every method.
#include "core/params.hpp"

namespace dpclust::fastlloyd {

struct TrialCost {
  double memory = 0;
  double work = 0;
};

// n points of d coordinates. T is `iterations`, or the rule's largest value (7) when the rule chooses it.
TrialCost trial_cost(const ParamSet& params, double n, double d);

}  // namespace dpclust::fastlloyd
