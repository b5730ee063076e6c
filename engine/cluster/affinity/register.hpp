#pragma once
// The method "affinity_propagation" (non-private): params damping, preference, max_iter, convergence_iter;
// release = exemplar indices; diagnostics clusters, iterations, converged.
#include "core/method_folder.hpp"

namespace dpclust {

const MethodInfo& affinity_propagation_method_info();
// The catalog's entry for this folder (engine/methods.cmake).
MethodFolder cluster_affinity_folder();

}  // namespace dpclust
