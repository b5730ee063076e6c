#pragma once
// DPM's entries in the catalog (catalog/catalog.cpp): the method `dpm` (dpm.hpp).
#include <vector>

#include "core/method.hpp"
#include "core/metric.hpp"

namespace dpclust {

std::vector<MethodInfo> dpm_methods();
// None of its own: the k-means measures read MethodResult::centres.
std::vector<MetricInfo> dpm_metrics();

namespace dpm {
const MethodInfo& dpm_method_info();
// The options from validated parameters (the epsilon, delta and sampler included).
struct DpmOptions;
DpmOptions options_of(const ParamSet& p);
}  // namespace dpm

}  // namespace dpclust
