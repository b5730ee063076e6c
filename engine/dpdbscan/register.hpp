#pragma once
// The config-facing methods of the DP-DBSCAN reproduction, in the catalog (engine/methods.cmake):
//   dp_dbscan           Algorithm 1 (spans over a DP histogram; naive or linear-time)
//   dp_kmeans           DPLloyd (Su et al.): eps-DP variant dplloyd, or diffprivlib's (the paper's baseline)
//   dp_dbscan_pairwise  the label-publishing baseline over a noisy distance matrix (replace-one neighbours)
// Each result carries its family's typed result in MethodResult::details (DpDbscanResult, DpKmeansResult,
// PairwiseResult); the exact statistics of the true data go to MethodResult::evaluation.
// Parameter names alpha, min_pts and k are those of the exact "dbscan" and "kmeans" methods, so one
// dataset-level `params:` block serves all of them.
#include <nlohmann/json.hpp>

#include "core/method_folder.hpp"
#include "dpdbscan/dp_dbscan.hpp"

namespace dpclust::dpdbscan {

const MethodInfo& dp_dbscan_method_info();
const MethodInfo& dp_kmeans_method_info();
const MethodInfo& pairwise_method_info();

// The release of a DP-DBSCAN run: the grid and, per span, its cells (integer coordinates) with their
// boxes and the span's bounding box.
nlohmann::json spans_release(const DpDbscanResult& r);

}  // namespace dpclust::dpdbscan

namespace dpclust {

// The catalog's entry for this folder: the three methods; ARI, AMI, n_clusters and noise_fraction (engine/metrics)
// cover the paper's evaluation, and the number of spans is the diagnostic "spans".
MethodFolder dpdbscan_folder();

}  // namespace dpclust
