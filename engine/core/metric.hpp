#pragma once
// The one small interface for evaluation metrics: a function of the trial's output (and usually the
// ground-truth labels) to one number.
#include <any>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <stdexcept>
#include <string>
#include <typeinfo>
#include <vector>

#include "core/dataset.hpp"
#include "core/method.hpp"
#include "core/named_choice.hpp"

namespace dpclust {

// What the evaluation of one dataset reuses across the trials and cells of a run: across them the points
// and their coordinates are fixed, only the labels change, so what a metric derives from the points
// alone (sort orders, point-to-cell maps, fixed folds, the true result of a non-private method) is
// computed once per key and then shared read-only by every trial thread. The first caller of a key
// computes its value (others asking for it meanwhile wait); different keys are computed concurrently.
// A value must be a function of the dataset and its key only -- the key names every parameter it
// depends on -- so which trial computes it changes no number.
class DatasetCache {
 public:
  template <class T, class Make>
  std::shared_ptr<const T> get(const std::string& key, Make&& make) {
    Slot* slot = nullptr;
    {
      std::lock_guard<std::mutex> lock(mu_);
      std::unique_ptr<Slot>& s = slots_[key];
      if (!s) s = std::make_unique<Slot>();
      slot = s.get();
    }
    std::call_once(slot->once, [&] {  // an exception leaves the key uncomputed: the next caller retries
      slot->value = std::make_shared<const T>(make());
      slot->type = &typeid(T);
    });
    if (*slot->type != typeid(T)) throw std::logic_error("DatasetCache: key '" + key + "' holds another type");
    return std::static_pointer_cast<const T>(slot->value);
  }
  std::size_t size() const {
    std::lock_guard<std::mutex> lock(mu_);
    return slots_.size();
  }

 private:
  struct Slot {
    std::once_flag once;
    std::shared_ptr<const void> value;
    const std::type_info* type = nullptr;
  };
  mutable std::mutex mu_;
  std::map<std::string, std::unique_ptr<Slot>> slots_;
};

// The key of MetricInput::cache under which a metric that re-runs the method (the cross-validated OCM and
// 2CE of DP WaveCluster: the paper clusters each fold's training part with the mechanism, then classifies)
// records the seconds those mechanism runs took, a double. The trial record reports them as
// timing.mechanism_rerun_seconds, a part of metrics_seconds: mechanism work done for the evaluation, so that
// the evaluation's own cost (classifiers, matching, scores) can be told from the mechanism's.
inline constexpr const char* kMechanismRerunSecondsKey = "timing.mechanism_rerun_seconds";

// `silhouette_sampling:` how the silhouette of a dataset larger than the sample is estimated from about M of its
// points (metrics/silhouette.hpp): stratified = each cluster in proportion, a small one whole, weighted by its
// share of all points (unbiased but for curvature); subset = scikit-learn's silhouette_score(..., sample_size=M),
// the silhouette of M points alone (DPM's artifact; biased where a cluster has few sampled points). Both about
// M^2 d / 2 a trial.
enum class SilhouetteSampling { stratified, subset };
inline constexpr Named<SilhouetteSampling> kSilhouetteSamplings[] = {{"stratified", SilhouetteSampling::stratified},
                                                                     {"subset", SilhouetteSampling::subset}};

// The run's evaluation settings that metrics read (config keys at the top of an experiment; docs/config.md).
struct EvaluationSettings {
  // `silhouette_sample: M`: the silhouette of a larger dataset is estimated from M points drawn once per dataset
  // (metrics/kmeans_measures.hpp); 0 (`all`): on every point, n^2 d / 2 a trial.
  std::size_t silhouette_sample = 2000;
  SilhouetteSampling silhouette_sampling = SilhouetteSampling::stratified;
};

// What a metric computed on a sample of the points reports beside its value (MetricInput::sampled): the
// sample and the standard error of the value as an estimate of the value on every point. A metric on every
// point leaves it untouched.
struct SampledValue {
  std::size_t points = 0;      // the sample's configured size m (0: not sampled)
  std::size_t population = 0;  // the number of points n it was drawn from
  std::uint64_t seed = 0;      // the seed the sample was drawn with
  std::string design;          // how it was drawn (e.g. stratified, subset)
  double standard_error = 0.0;
};

struct MetricInput {
  const Dataset& data;
  const MethodResult& result;
  const ParamSet& params;
  // For metrics that re-run the method (the cross-validated OCM/2CE of DP WaveCluster): the method
  // and a seed for the metric's own randomness (folds, re-runs). The seed is derived from the trial
  // seed, so it is the same for every metric of a trial (OCM and 2CE see the same folds).
  const MethodInfo& method;
  std::uint64_t seed;
  // Scratch space shared by the metrics of one trial, so that metrics computed from one expensive
  // evaluation (OCM and 2CE from the same cross-validation) compute it once. Keyed by a name the
  // metrics agree on.
  std::map<std::string, std::any>& cache;
  // The run's cache for this dataset (shared by every trial on it), or nullptr: the metric then computes
  // what it would reuse for this trial alone, with the same result.
  DatasetCache* dataset_cache = nullptr;
  // The run's settings (null: the defaults).
  const EvaluationSettings* settings = nullptr;
  // Where a metric computed on a sample of the points describes its sample (null: nobody asks).
  SampledValue* sampled = nullptr;
};

struct MetricInfo {
  std::string name;         // config name, e.g. "ari"
  std::string summary;      // one line, with its reference
  bool needs_truth = true;  // needs ground-truth labels in the dataset
  std::function<double(const MetricInput&)> compute;
  // The methods it applies to (e.g. DSG_C only to the WaveCluster family); empty = every method.
  // A cell computes the listed (or, by default, all) metrics that apply to its method.
  std::vector<std::string> methods = {};
  // Reads MethodResult::centres: applies only to methods that declare MethodInfo::releases_centres.
  bool needs_centres = false;
  // Computed when the config lists no metrics (`metrics:` omitted). False for the measures that cost more
  // than the trial itself may (the k-means measures: a non-private k-means reference, O(m^2 d) silhouette):
  // they are computed only when named.
  bool by_default = true;
  // Reads the method's labels (MethodResult::labels). False for a metric of other outputs only (DRBT's stress):
  // a trial whose metrics all say false, and that saves no labels, lets the method skip label-only work.
  bool reads_labels = true;

  // By name alone (the `methods` list).
  bool applies_to(const std::string& method) const {
    if (methods.empty()) return true;
    for (const auto& m : methods)
      if (m == method) return true;
    return false;
  }
  // By name and by what the method releases.
  bool applies_to(const MethodInfo& method) const {
    return applies_to(method.name) && (!needs_centres || method.releases_centres);
  }
};

}  // namespace dpclust
