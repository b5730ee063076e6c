#include "metrics/kmeans_measures_cost.hpp"

#include <algorithm>

#include "cluster/kmeans/cost.hpp"
#include "cluster/kmeans/kmeans_reference.hpp"
#include "metrics/kmeans_measures.hpp"

namespace dpclust {

TrialCost kmeans_measures_cost(const CostInputs& in, bool releases_centres, std::int64_t trials) {
  TrialCost s;
  if (in.metrics.empty()) return s;  // not computed by default
  const double n = in.n(), d = in.d();
  const double k = in.number("k", 64);
  auto names = [&](const char* metric) { return in.computes(metric, false); };
  if (releases_centres && (names("inertia") || names("inertia_per_point") || names("normalized_kmeans_cost") ||
                           names("centre_distance") || names("silhouette") || names("accuracy") || names("purity"))) {
    s.memory += 12 * n + kBytesPerDouble * 3 * k * d;
    s.work += n * k * d;
  }
  if (releases_centres && (names("normalized_kmeans_cost") || names("centre_distance"))) {
    const TrialCost ref = kmeans_cost(n, d, k, static_cast<double>(kReferenceRestarts), 300);
    s.memory =
        std::max(s.memory, kBytesPerDouble * n * d + 6 * kBytesPerDouble * n + ref.memory);  // the centred copy, bounds
    s.work += ref.work / static_cast<double>(std::max<std::int64_t>(trials, 1));
  }
  if (names("silhouette")) {
    const double m = std::min(n, static_cast<double>(kSilhouetteSampleSize));
    s.memory += kBytesPerDouble * m * (2 * d + 2 + k + 128);
    s.work += m * m * d / 2;
  }
  return s;
}

}  // namespace dpclust
