#pragma once
// The method "dbscan" (non-private): params alpha (> 0), min_pts (>= 1), border; diagnostics core_points,
// clusters, noise_points; empty release.
#include "core/method_folder.hpp"

namespace dpclust {

const MethodInfo& dbscan_method_info();
// The catalog's entry for this folder (engine/methods.cmake).
MethodFolder cluster_dbscan_folder();

}  // namespace dpclust
