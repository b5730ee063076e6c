#pragma once
// Google's DP clustering in the catalog (catalog/catalog.cpp).
#include <vector>

#include "core/method.hpp"
#include "core/metric.hpp"

namespace dpclust {

std::vector<MethodInfo> lsh_clustering_methods();
// None of its own: the k-means measures (inertia of the released centres, ...) read MethodResult::centres.
std::vector<MetricInfo> lsh_clustering_metrics();

}  // namespace dpclust
