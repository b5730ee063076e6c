#pragma once
// The method "lsh_clustering": parameters in, LshClusteringOptions to lsh_clustering(), its result out as
// labels (evaluation only), the released centres, diagnostics (public: functions of the release and the
// parameters) and evaluation (exact statistics of the true data).
#include "core/method_folder.hpp"
#include "lsh_clustering/lsh_clustering.hpp"

namespace dpclust::lsh {

const MethodInfo& lsh_clustering_method_info();

// The options a parameter set describes (accountant auto resolved: rdp for the secure sampler, pld for the
// textbook one).
LshClusteringOptions options_of(const ParamSet& params);

}  // namespace dpclust::lsh

namespace dpclust {

// The catalog's entry for this folder (engine/methods.cmake): the method; the k-means measures (inertia of the
// released centres, ...) read its MethodResult::centres.
MethodFolder lsh_clustering_folder();

}  // namespace dpclust
