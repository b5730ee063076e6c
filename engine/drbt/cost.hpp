#pragma once
// DRBT's cost (core/trial_cost.hpp): the original and projected matrices, n (d + 1 + k_dims) doubles, and K-means;
// work n d k_dims for the projection, K-means twice (the disguised data, and the original for the F-measure), and the
// stress over min(n^2 / 2, stress_pairs) pairs of d coordinates.
#include "core/trial_cost.hpp"

namespace dpclust::drbt {

TrialCost trial_cost(const CostInputs& in);

}  // namespace dpclust::drbt
