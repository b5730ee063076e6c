#pragma once
// What the k-means measures (kmeans_measures.hpp and paper_measures.hpp) add to a trial's cost (core/trial_cost.hpp);
// they are computed only when a config names them. The nearest released centres (n k d); Davies-Bouldin and
// Calinski-Harabasz two passes (2 n d), Dunn every pair (n^2 d / 2); the silhouette on every point or on about
// `silhouette_sample` (0: every point; a stratified sample adds at most 50 points per cluster): m^2 d / 2 pairs,
// m x (2 d + k) memory and the jackknife's m x k x 17 sums, at most 2^22 (metrics/silhouette.hpp); the non-private
// reference (10 k-means runs, once per dataset and k: its work spread over the cell's trials). k: the method's `k`,
// else 64 (the number of true classes is not known before the data are read).
#include <cstddef>
#include <cstdint>

#include "core/trial_cost.hpp"

namespace dpclust {

TrialCost kmeans_measures_cost(const CostInputs& in, bool releases_centres, std::int64_t trials,
                               std::size_t silhouette_sample);

}  // namespace dpclust
