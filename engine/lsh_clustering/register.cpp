// Google's DP clustering in the catalog (catalog/catalog.cpp).
#include "lsh_clustering/register.hpp"

#include "lsh_clustering/method.hpp"

namespace dpclust {

std::vector<MethodInfo> lsh_clustering_methods() { return {lsh::lsh_clustering_method_info()}; }

std::vector<MetricInfo> lsh_clustering_metrics() { return {}; }

}  // namespace dpclust
