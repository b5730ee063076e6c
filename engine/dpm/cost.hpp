#pragma once
// DPM's cost (core/trial_cost.hpp): the clamped copy (n d doubles), the gaps of the interval-size percentile (pooled:
// d (n - 1) doubles, sorted, plus the exponential mechanism's weights: 16 bytes and 8 + 8 per interval), the index
// order (4 n); work: d sorts of n, then L levels of one pass per dimension plus one partition.
#include "core/trial_cost.hpp"

namespace dpclust::dpm {

TrialCost trial_cost(const CostInputs& in);

}  // namespace dpclust::dpm
