// EUGkM's and the hybrid's entries in the catalog (catalog/catalog.cpp).
#include "eugkm/register.hpp"

#include "eugkm/methods.hpp"

namespace dpclust {

std::vector<MethodInfo> eugkm_methods() { return {eugkm::eugkm_method_info(), eugkm::hybrid_kmeans_method_info()}; }

// The k-means measures (inertia and the others the field reports) read MethodResult::centres; nothing
// specific to these methods.
std::vector<MetricInfo> eugkm_metrics() { return {}; }

}  // namespace dpclust
