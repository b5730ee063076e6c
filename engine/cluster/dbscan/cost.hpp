#pragma once
// Exact DBSCAN's cost (core/trial_cost.hpp): the grid index and the labels, about 48 bytes a point; work about 32 n d
// (the grid's neighbour cells, each point's distance checks).
#include "core/trial_cost.hpp"

namespace dpclust {

TrialCost dbscan_cost(double n, double d);
TrialCost dbscan_trial_cost(const CostInputs& in);

}  // namespace dpclust
