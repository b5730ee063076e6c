#pragma once
// k-means' cost (core/trial_cost.hpp): the labels, the distances and the k-means++ candidates, about
// 8 n (4 + ln k) + 24 k d bytes; work n_init x max_iter x n k d.
#include "core/trial_cost.hpp"

namespace dpclust {

TrialCost kmeans_cost(double n, double d, double k, double n_init, double max_iter);
TrialCost kmeans_trial_cost(const CostInputs& in);

}  // namespace dpclust
