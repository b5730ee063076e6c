#pragma once
// The method `hst_clustering` (hst_clustering.hpp): its declared parameters, the adapter from them to
// hst_clustering(), and the folder's entry in the catalog.
#include "core/method_folder.hpp"
#include "hst_clustering/hst_clustering.hpp"

namespace dpclust {

namespace hst {
const MethodInfo& hst_clustering_method_info();
// The options from validated parameters.
HstClusteringOptions options_of(const ParamSet& p);
}  // namespace hst

// The catalog's entry for this folder (engine/methods.cmake): the method; the k-means measures read its
// MethodResult::centres.
MethodFolder hst_clustering_folder();

}  // namespace dpclust
