#pragma once
// EUGkM and the hybrid (Su et al., VLDB Journal 2017) as listed by the catalog (catalog/catalog.cpp).
#include <vector>

#include "core/method.hpp"
#include "core/metric.hpp"

namespace dpclust {

std::vector<MethodInfo> eugkm_methods();
std::vector<MetricInfo> eugkm_metrics();

}  // namespace dpclust
