#pragma once
// The methods and metrics of this paper reproduction, as listed by the catalog (catalog/catalog.cpp).
#include <vector>

#include "core/method.hpp"
#include "core/metric.hpp"

namespace dpclust {

std::vector<MethodInfo> ndlaplace_methods();
std::vector<MetricInfo> ndlaplace_metrics();

}  // namespace dpclust
