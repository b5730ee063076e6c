#pragma once
// The one small interface for evaluation metrics: a function of the trial's output (and usually the
// ground-truth labels) to one number.
#include <functional>
#include <string>

#include "core/dataset.hpp"
#include "core/method.hpp"

namespace dpclust {

struct MetricInput {
  const Dataset& data;
  const MethodResult& result;
  const ParamSet& params;
};

struct MetricInfo {
  std::string name;     // config name, e.g. "ari"
  std::string summary;  // one line, with its reference
  bool needs_truth = true;  // needs ground-truth labels in the dataset
  std::function<double(const MetricInput&)> compute;
};

}  // namespace dpclust
