// The k-means measures as metrics; what each computes, and what is reused, in kmeans_measures.hpp.
#include "metrics/kmeans_measures.hpp"

#include <any>
#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>

#include "cluster/kmeans/kmeans_reference.hpp"
#include "core/rng.hpp"
#include "metrics/clustering_accuracy.hpp"
#include "metrics/measure_support.hpp"
#include "metrics/nearest_centre.hpp"
#include "metrics/silhouette.hpp"

namespace dpclust {
namespace {

using measures::centre_measure;
using measures::check_centres;
using measures::fingerprint;
using measures::has_centres;
using measures::kUndefined;
using measures::label_measure;
using measures::measure_labels;
using measures::nearest;
using measures::per_dataset;
using measures::require_true_labels;

// The silhouette sample's seed: a function of the coordinates, the same for every trial and run on them.
std::uint32_t silhouette_sample_seed(std::uint64_t fingerprint) {
  return static_cast<std::uint32_t>(splitmix64(fingerprint ^ fnv1a64("silhouette_sample")) >> 32);
}

std::size_t reference_k(const MetricInput& in) {
  if (in.params.has("k")) return static_cast<std::size_t>(in.params.integer("k"));
  if (in.data.has_labels()) {
    const std::size_t classes = count_clusters(in.data.labels);
    if (classes > 0) return classes;
  }
  return static_cast<std::size_t>(in.result.centres.rows());
}

// The reference for this trial's k, or null when no k-means with that k exists (k = 0 or k > n).
std::shared_ptr<const KMeansReference> reference(const MetricInput& in) {
  const std::size_t k = reference_k(in);
  if (k < 1 || k > in.data.n) return nullptr;
  const std::string key =
      "measures.kmeans_reference|k=" + std::to_string(k) + "|restarts=" + std::to_string(kReferenceRestarts);
  return per_dataset<KMeansReference>(in, key, [&] {
    return kmeans_reference(in.data.coords.data(), in.data.n, in.data.d, k, reference_seed(fingerprint(in), k));
  });
}

// The diagonal of the public domain, or of the data's bounding box without one.
double diagonal(const Dataset& data) {
  const Bounds box = data.bounds.empty() ? bounding_box(data) : data.bounds;
  double s = 0.0;
  for (std::size_t j = 0; j < box.dims(); ++j) s += (box.hi[j] - box.lo[j]) * (box.hi[j] - box.lo[j]);
  return std::sqrt(s);
}

}  // namespace

const std::vector<MetricInfo>& kmeans_measures() {
  static const std::vector<MetricInfo> list = {
      centre_measure(
          "inertia",
          "k-means cost of the released centres on the true data: sum of squared distances to the nearest centre "
          "(DPM's artifact j_score, Google's clustering loss)",
          [](const MetricInput& in) { return nearest(in, "inertia").cost; }),
      centre_measure(
          "inertia_per_point",
          "inertia / n: Google's normalized k-means objective (average squared distance to the closest centre)",
          [](const MetricInput& in) { return nearest(in, "inertia_per_point").cost / static_cast<double>(in.data.n); }),
      centre_measure(
          "normalized_kmeans_cost",
          "inertia / cost of non-private k-means++ (best of 10 restarts, seed from the data) with the method's k "
          "(else the number of true classes); 1 = as good as k-means",
          [](const MetricInput& in) {
            const double cost = nearest(in, "normalized_kmeans_cost").cost;
            const auto ref = reference(in);
            if (!ref) return kUndefined;
            const double base = ref->best_cost();
            if (base == 0.0) return cost == 0.0 ? 1.0 : std::numeric_limits<double>::infinity();
            return cost / base;
          }),
      centre_measure(
          "centre_distance",
          "DPM's normalised k-means distance: mean distance of the released centres to the nearest k-means++ centre, "
          "averaged over the 10 reference restarts, / diagonal of the domain",
          [](const MetricInput& in) {
            check_centres(in, "centre_distance");
            const auto ref = reference(in);
            if (!ref) return kUndefined;
            double sum = 0.0;
            for (const RowMatrix& c : ref->centres) sum += mean_nearest_distance(in.result.centres, c);
            const double mean = sum / static_cast<double>(ref->centres.size()), diag = diagonal(in.data);
            return diag > 0.0 ? mean / diag : kUndefined;
          }),
      label_measure("silhouette",
                    "silhouette coefficient (scikit-learn silhouette_score) of the nearest-centre labels (else the "
                    "method's labels); "
                    "above silhouette_sample points (2000 unless set), estimated from that many drawn once per "
                    "dataset, with its standard "
                    "error (silhouette_sampling: stratified or subset); NaN unless 2 <= labels <= points - 1",
                    false,
                    [](const MetricInput& in) {
                      const Labels& labels = measure_labels(in, "silhouette");
                      const EvaluationSettings settings = in.settings ? *in.settings : EvaluationSettings{};
                      const std::size_t size = settings.silhouette_sample, n = in.data.n;
                      const double* X = in.data.coords.data();
                      if (size == 0 || n <= size) {
                        // On every point: from the dataset's distances, computed by the first trial, when they fit.
                        if (in.dataset_cache && n * n <= kSilhouetteCachedDistances) {
                          const auto distances =
                              per_dataset<SilhouetteDistances>(in, "measures.silhouette_distances",
                                                               [&] { return silhouette_distances(X, n, in.data.d); });
                          return silhouette_score(*distances, labels);
                        }
                        return silhouette_score(X, n, in.data.d, labels);
                      }
                      const std::uint32_t seed = silhouette_sample_seed(fingerprint(in));
                      SilhouetteEstimate e;
                      std::size_t points = size;
                      const bool subset = settings.silhouette_sampling == SilhouetteSampling::subset;
                      if (subset) {
                        const auto rows = per_dataset<std::vector<std::size_t>>(
                            in, "measures.silhouette_sample|m=" + std::to_string(size),
                            [&] { return silhouette_sample(n, size, seed); });
                        e = silhouette_estimate(X, n, in.data.d, labels, *rows);
                      } else {
                        const auto order = per_dataset<std::vector<std::size_t>>(
                            in, "measures.silhouette_order", [&] { return silhouette_order(n, seed); });
                        e = silhouette_stratified(X, n, in.data.d, labels, *order, size, &points);
                        if (points >= n) return e.score;  // every point: exact
                      }
                      if (in.sampled)
                        *in.sampled = SampledValue{size, n, seed, subset ? "subset" : "stratified", e.standard_error};
                      return e.score;
                    }),
      label_measure(
          "accuracy",
          "clustering accuracy: Hungarian matching of the nearest-centre (else the method's) clusters to true classes, "
          "fraction of points matched; noise counts as wrong",
          true,
          [](const MetricInput& in) {
            require_true_labels(in, "accuracy");
            return clustering_accuracy(in.data.labels, measure_labels(in, "accuracy"));
          }),
      label_measure(
          "purity",
          "each cluster's most frequent true class, fraction of points agreeing (DPM's artifact's and Google's demo's "
          "'accuracy'); noise counts as wrong",
          true,
          [](const MetricInput& in) {
            require_true_labels(in, "purity");
            return purity(in.data.labels, measure_labels(in, "purity"));
          }),
  };
  return list;
}

}  // namespace dpclust
