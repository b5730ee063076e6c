// The nD-Laplace reproduction's entries in the catalog (catalog/catalog.cpp).
#include "ndlaplace/register.hpp"

#include "cluster/affinity/affinity_propagation.hpp"
#include "ndlaplace/nd_laplace.hpp"

namespace dpclust {

// nd_laplace, plus plain Affinity Propagation (the thesis's second clustering algorithm) as a
// non-private baseline next to the catalog's kmeans and dbscan.
std::vector<MethodInfo> ndlaplace_methods() {
  return {ndlaplace::nd_laplace_method_info(), affinity_propagation_method_info()};
}

// ari_vs_original, ami_vs_original (the thesis's utility), avg_pe and avg_distance (Table 5.4), the
// Chapter 4 privacy evaluation (mia_advantage, mia_advantage_best, reconstruction_error, gi_ratio,
// gi_violation, p_area_radius), centroid_rel_error, and the parameter-selection diagnostics
// elbow_k_original and kdistance_alpha_original.
std::vector<MetricInfo> ndlaplace_metrics() { return ndlaplace::nd_laplace_metrics(); }

}  // namespace dpclust
