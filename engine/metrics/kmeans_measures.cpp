// The k-means measures as metrics; what each computes, and what is reused, in kmeans_measures.hpp.
#include "metrics/kmeans_measures.hpp"

#include <any>
#include <cmath>
#include <limits>
#include <memory>
#include <stdexcept>
#include <string>

#include "core/rng.hpp"
#include "metrics/clustering_accuracy.hpp"
#include "cluster/kmeans/kmeans_reference.hpp"
#include "metrics/nearest_centre.hpp"
#include "metrics/silhouette.hpp"

namespace dpclust {
namespace {

constexpr double kUndefined = std::numeric_limits<double>::quiet_NaN();

// What does not change between the trials on a dataset: from the run's DatasetCache, or computed for this
// call alone when there is none (the same value either way).
template <class T, class Make>
std::shared_ptr<const T> per_dataset(const MetricInput& in, const std::string& key, Make&& make) {
  if (in.dataset_cache) return in.dataset_cache->get<T>(key, std::forward<Make>(make));
  return std::make_shared<const T>(make());
}

// Shared by the measures of one trial (MetricInput::cache), computed by the first that needs it.
template <class T, class Make>
const T& per_trial(const MetricInput& in, const std::string& key, Make&& make) {
  auto it = in.cache.find(key);
  if (it == in.cache.end()) it = in.cache.emplace(key, std::make_shared<const T>(make())).first;
  return *std::any_cast<const std::shared_ptr<const T>&>(it->second);
}

// The silhouette sample's seed: a function of the coordinates, the same for every trial and run on them.
std::uint32_t silhouette_sample_seed(std::uint64_t fingerprint) {
  return static_cast<std::uint32_t>(splitmix64(fingerprint ^ fnv1a64("silhouette_sample")) >> 32);
}

std::uint64_t fingerprint(const MetricInput& in) {
  return *per_dataset<std::uint64_t>(in, "measures.coordinates_fingerprint",
                                     [&] { return coordinates_fingerprint(in.data.coords.data(), in.data.n, in.data.d); });
}

bool has_centres(const MetricInput& in) { return in.result.centres.rows() > 0; }

void check_centres(const MetricInput& in, const char* metric) {
  if (static_cast<std::size_t>(in.result.centres.cols()) != in.data.d)
    throw std::logic_error(std::string("metric '") + metric + "': method '" + in.method.name + "' released centres with " +
                           std::to_string(in.result.centres.cols()) + " coordinates for data of dimension " + std::to_string(in.data.d));
}

const NearestCentres& nearest(const MetricInput& in, const char* metric) {
  check_centres(in, metric);
  return per_trial<NearestCentres>(in, "measures.nearest_centres",
                                   [&] { return nearest_centres(in.data.coords.data(), in.data.n, in.data.d, in.result.centres); });
}

// The labels silhouette, accuracy and purity read (kmeans_measures.hpp).
const Labels& measure_labels(const MetricInput& in, const char* metric) {
  if (has_centres(in)) return nearest(in, metric).labels;
  if (in.result.labels.size() != in.data.n)
    throw std::invalid_argument(std::string("metric '") + metric + "': the method returned " + std::to_string(in.result.labels.size()) +
                                " labels for " + std::to_string(in.data.n) + " points");
  return in.result.labels;
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
  const std::string key = "measures.kmeans_reference|k=" + std::to_string(k) + "|restarts=" + std::to_string(kReferenceRestarts);
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

MetricInfo centre_measure(std::string name, std::string summary, std::function<double(const MetricInput&)> f) {
  MetricInfo m;
  m.name = std::move(name);
  m.summary = std::move(summary);
  m.needs_truth = false;
  m.needs_centres = true;
  m.by_default = false;
  m.compute = [f = std::move(f)](const MetricInput& in) { return has_centres(in) ? f(in) : kUndefined; };
  return m;
}

MetricInfo label_measure(std::string name, std::string summary, bool needs_truth, std::function<double(const MetricInput&)> f) {
  MetricInfo m;
  m.name = std::move(name);
  m.summary = std::move(summary);
  m.needs_truth = needs_truth;
  m.by_default = false;
  m.compute = std::move(f);
  return m;
}

void require_true_labels(const MetricInput& in, const char* metric) {
  if (!in.data.has_labels())
    throw std::invalid_argument(std::string("metric '") + metric + "' needs ground-truth labels but dataset '" + in.data.name + "' has none");
}

}  // namespace

const std::vector<MetricInfo>& kmeans_measures() {
  static const std::vector<MetricInfo> measures = {
      centre_measure("inertia",
                     "k-means cost of the released centres on the true data: sum of squared distances to the nearest centre "
                     "(DPM's artifact j_score, Google's clustering loss)",
                     [](const MetricInput& in) { return nearest(in, "inertia").cost; }),
      centre_measure("inertia_per_point",
                     "inertia / n: Google's normalized k-means objective (average squared distance to the closest centre)",
                     [](const MetricInput& in) { return nearest(in, "inertia_per_point").cost / static_cast<double>(in.data.n); }),
      centre_measure("normalized_kmeans_cost",
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
      centre_measure("centre_distance",
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
                    "silhouette coefficient (scikit-learn silhouette_score) of the nearest-centre labels (else the method's labels); "
                    "above silhouette_sample points (2000 unless set), estimated from that many drawn once per dataset, with its standard "
                    "error (silhouette_sampling: stratified or subset); NaN unless 2 <= labels <= points - 1",
                    false,
                    [](const MetricInput& in) {
                      const Labels& labels = measure_labels(in, "silhouette");
                      const EvaluationSettings settings = in.settings ? *in.settings : EvaluationSettings{};
                      const std::size_t size = settings.silhouette_sample, n = in.data.n;
                      const double* X = in.data.coords.data();
                      if (size == 0 || n <= size) return silhouette_score(X, n, in.data.d, labels);
                      const std::uint32_t seed = silhouette_sample_seed(fingerprint(in));
                      SilhouetteEstimate e;
                      std::size_t points = size;
                      const bool subset = settings.silhouette_sampling == SilhouetteSampling::subset;
                      if (subset) {
                        const auto rows = per_dataset<std::vector<std::size_t>>(in, "measures.silhouette_sample|m=" + std::to_string(size),
                                                                                [&] { return silhouette_sample(n, size, seed); });
                        e = silhouette_estimate(X, n, in.data.d, labels, *rows);
                      } else {
                        const auto order = per_dataset<std::vector<std::size_t>>(in, "measures.silhouette_order",
                                                                                 [&] { return silhouette_order(n, seed); });
                        e = silhouette_stratified(X, n, in.data.d, labels, *order, size, &points);
                        if (points >= n) return e.score;  // every point: exact
                      }
                      if (in.sampled) *in.sampled = SampledValue{size, n, seed, subset ? "subset" : "stratified", e.standard_error};
                      return e.score;
                    }),
      label_measure("accuracy",
                    "clustering accuracy: Hungarian matching of the nearest-centre (else the method's) clusters to true classes, "
                    "fraction of points matched; noise counts as wrong",
                    true,
                    [](const MetricInput& in) {
                      require_true_labels(in, "accuracy");
                      return clustering_accuracy(in.data.labels, measure_labels(in, "accuracy"));
                    }),
      label_measure("purity",
                    "each cluster's most frequent true class, fraction of points agreeing (DPM's artifact's and Google's demo's "
                    "'accuracy'); noise counts as wrong",
                    true,
                    [](const MetricInput& in) {
                      require_true_labels(in, "purity");
                      return purity(in.data.labels, measure_labels(in, "purity"));
                    }),
  };
  return measures;
}

}  // namespace dpclust
