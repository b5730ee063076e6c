#pragma once
// What the measures on released centres and labels share (kmeans_measures.cpp, paper_measures.cpp): the values
// reused per dataset (the run's DatasetCache) and per trial (MetricInput::cache), the nearest released centre of
// every point, the labels the measures read, and the two shapes of measure (on centres, on labels).
//
// Measure labels: for a method that released centres, the nearest released centre of every point (DPM's artifact
// labels every method's output so, metrics.py get_labels; Google's demo, ClusteringResult.labels; FastLloyd's
// evaluation, evaluations.py get_cluster_associations); otherwise the method's own labels.
#include <any>
#include <functional>
#include <limits>
#include <memory>
#include <string>
#include <utility>

#include "core/metric.hpp"
#include "metrics/nearest_centre.hpp"

namespace dpclust::measures {

inline constexpr double kUndefined = std::numeric_limits<double>::quiet_NaN();

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

// A fingerprint of the dataset's coordinates (once per dataset): the seed of what a measure draws.
std::uint64_t fingerprint(const MetricInput& in);

bool has_centres(const MetricInput& in);
// std::logic_error when the released centres' width is not the data's dimension.
void check_centres(const MetricInput& in, const char* metric);
// The nearest released centre of every point and the cost (once per trial).
const NearestCentres& nearest(const MetricInput& in, const char* metric);
// The labels a measure reads (above); std::invalid_argument when a method without centres returned too few.
const Labels& measure_labels(const MetricInput& in, const char* metric);
// std::invalid_argument naming the metric and the dataset when the dataset has no ground truth.
void require_true_labels(const MetricInput& in, const char* metric);

// A measure of the released centres: applies to methods that release centres, NaN for a trial that released
// none; never computed by default.
MetricInfo centre_measure(std::string name, std::string summary, std::function<double(const MetricInput&)> f);
// A measure of the measure labels (every method); never computed by default.
MetricInfo label_measure(std::string name, std::string summary, bool needs_truth,
                         std::function<double(const MetricInput&)> f);

}  // namespace dpclust::measures
