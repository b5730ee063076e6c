#include "metrics/kmeans_measures_cost.hpp"

#include <algorithm>

#include "cluster/kmeans/cost.hpp"
#include "cluster/kmeans/kmeans_reference.hpp"
#include "metrics/kmeans_measures.hpp"
#include "metrics/silhouette.hpp"

namespace dpclust {

TrialCost kmeans_measures_cost(const CostInputs& in, bool releases_centres, std::int64_t trials,
                               std::size_t silhouette_sample) {
  TrialCost s;
  if (in.metrics.empty()) return s;  // not computed by default
  const double n = in.n(), d = in.d();
  const double k = in.number("k", 64);
  auto names = [&](const char* metric) { return in.computes(metric, false); };
  bool nearest = false;
  for (const char* m : {"inertia", "inertia_per_point", "normalized_kmeans_cost", "centre_distance", "silhouette",
                        "accuracy", "purity", "false_match_fraction", "true_non_match_fraction", "nicv", "bcss",
                        "davies_bouldin", "calinski_harabasz", "dunn"})
    nearest = nearest || names(m);
  if (releases_centres && nearest) {
    s.memory += 12 * n + kBytesPerDouble * 3 * k * d;
    s.work += n * k * d;
  }
  if (releases_centres && (names("normalized_kmeans_cost") || names("centre_distance"))) {
    const TrialCost ref = kmeans_cost(n, d, k, static_cast<double>(kReferenceRestarts), 300);
    s.memory =
        std::max(s.memory, kBytesPerDouble * n * d + 6 * kBytesPerDouble * n + ref.memory);  // the centred copy, bounds
    s.work += ref.work / static_cast<double>(std::max<std::int64_t>(trials, 1));
  }
  // Davies-Bouldin and Calinski-Harabasz: two passes over the points; Dunn: every pair once (validity_indices.hpp).
  if (names("davies_bouldin") || names("calinski_harabasz")) s.work += 2 * n * d;
  if (names("dunn")) s.work += n * n * d / 2;
  if (names("silhouette")) {
    const auto sample = static_cast<double>(silhouette_sample);
    const double m = sample == 0 || n <= sample ? n : std::min(n, sample + 50 * k);
    s.memory +=
        kBytesPerDouble * m * (2 * d + 2 + k + 128) + (m < n ? kBytesPerDouble * std::min(m * k * 17, 4194304.0) : 0);
    // On every point of a small dataset: its n x n distances, kept for the run (kSilhouetteCachedDistances).
    if (m == n && n * n <= static_cast<double>(kSilhouetteCachedDistances)) s.memory += kBytesPerDouble * n * n;
    s.work += m * m * d / 2;
  }
  return s;
}

}  // namespace dpclust
