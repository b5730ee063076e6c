#pragma once
// What one trial of hst_clustering costs, from its parameters and the dataset's shape (never the data): the
// central cost model (loading/cost_model.cpp) asks here.
#include "core/params.hpp"

namespace dpclust::hst {

struct TrialCostEstimate {
  double memory = 0;  // bytes
  double work = 0;    // basic operations
};

// n points of d dimensions. Memory: the points' working copy (n d doubles, reordered cell by cell), the labels and
// their distances, the tree, estimated from the threshold the parameters give (a released cell holds about tau
// points or more, so at most n / tau cells a level, and 2^t at level t), each node keeping min(k, leaves) + 1
// costs, and two levels' boxes. Work: one pass of the points a level, the dynamic program (nodes x k^2 at most)
// and every point's nearest centre (n k d).
TrialCostEstimate trial_cost(const ParamSet& p, double n, double d);

}  // namespace dpclust::hst
