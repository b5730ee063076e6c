#pragma once
// HST clustering's entries in the catalog (catalog/catalog.cpp): the method `hst_clustering` (hst_clustering.hpp).
#include <vector>

#include "core/method.hpp"
#include "core/metric.hpp"
#include "hst_clustering/hst_clustering.hpp"

namespace dpclust {

std::vector<MethodInfo> hst_clustering_methods();
// None of its own: the k-means measures read MethodResult::centres.
std::vector<MetricInfo> hst_clustering_metrics();

namespace hst {
const MethodInfo& hst_clustering_method_info();
// The options from validated parameters.
HstClusteringOptions options_of(const ParamSet& p);
}  // namespace hst

}  // namespace dpclust
