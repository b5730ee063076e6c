#pragma once
// LSH clustering's cost (core/trial_cost.hpp): the centred, clipped copy of the data, the tree's index order and
// partition buffers; one projection per point and level, the leaf sums, weighted k-means on the coreset, the labels
// (lsh_clustering.hpp). The leaves: at most 2^max_depth, about 2 n / m with m the automatic min_points_in_node,
// min(10 sqrt(d) sigma/Delta, n / 2k), sigma/Delta taken as the classic Gaussian's sqrt(2 ln(1.25/delta)) / eps.
#include "core/trial_cost.hpp"

namespace dpclust::lsh {

TrialCost trial_cost(const CostInputs& in);

}  // namespace dpclust::lsh
