#pragma once
// The method "kmeans" (non-private): params k, n_init, max_iter, tol, seeding; release = centres;
// diagnostics inertia, iterations.
#include "core/method_folder.hpp"

namespace dpclust {

const MethodInfo& kmeans_method_info();
// The catalog's entry for this folder (engine/methods.cmake).
MethodFolder cluster_kmeans_folder();

}  // namespace dpclust
