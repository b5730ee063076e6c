// The DP-DBSCAN reproduction's entries in the catalog (catalog/catalog.cpp).
#include "dpdbscan/register.hpp"

#include "dpdbscan/methods.hpp"

namespace dpclust {

std::vector<MethodInfo> dpdbscan_methods() {
  return {dpdbscan::dp_dbscan_method_info(), dpdbscan::dp_kmeans_method_info(), dpdbscan::pairwise_method_info()};
}

// ARI, AMI, n_clusters and noise_fraction (engine/metrics) cover the paper's evaluation; the number of
// spans is the diagnostic "spans".
std::vector<MetricInfo> dpdbscan_metrics() { return {}; }

}  // namespace dpclust
