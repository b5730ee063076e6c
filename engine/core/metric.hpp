#pragma once
// The one small interface for evaluation metrics: a function of the trial's output (and usually the
// ground-truth labels) to one number.
#include <any>
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "core/dataset.hpp"
#include "core/method.hpp"

namespace dpclust {

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
};

struct MetricInfo {
  std::string name;     // config name, e.g. "ari"
  std::string summary;  // one line, with its reference
  bool needs_truth = true;  // needs ground-truth labels in the dataset
  std::function<double(const MetricInput&)> compute;
  // The methods it applies to (e.g. DSG_C only to the WaveCluster family); empty = every method.
  // A cell computes the listed (or, by default, all) metrics that apply to its method.
  std::vector<std::string> methods = {};

  bool applies_to(const std::string& method) const {
    if (methods.empty()) return true;
    for (const auto& m : methods)
      if (m == method) return true;
    return false;
  }
};

}  // namespace dpclust
