#pragma once
// FastLloyd's entries in the catalog (catalog/catalog.cpp): the method `fastlloyd` (fastlloyd.hpp).
#include <vector>

#include "core/method.hpp"
#include "core/metric.hpp"

namespace dpclust {

std::vector<MethodInfo> fastlloyd_methods();
// None of its own: the k-means measures read MethodResult::centres.
std::vector<MetricInfo> fastlloyd_metrics();

}  // namespace dpclust
