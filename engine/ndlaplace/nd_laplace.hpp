#pragma once
// The "nd_laplace" method and its metrics: perturb every point with nD-Laplace noise (mechanism.hpp),
// standard-scale the perturbed data (thesis Sec. 5.3.3: scaling only for clustering, after all
// perturbation), cluster it with K-Means, Affinity Propagation or DBSCAN (thesis Sec. 5.3.1), and
// compare with the same algorithm on the unperturbed data by ARI and AMI (thesis Sec. 2.2.2 "existing
// literature" and 5.3.2: the non-private clustering serves as the ground truth).
#include <cstddef>
#include <nlohmann/json.hpp>
#include <vector>

#include "core/method.hpp"
#include "core/metric.hpp"

namespace dpclust::ndlaplace {

struct EvalClustering {
  Labels labels;
  nlohmann::json diagnostics = nlohmann::json::object();
};

// The clustering step shared by the method (on the perturbed points) and the *_vs_original metrics
// (on the original points): optional standard scaling (param scale_after), then the algorithm named by
// param cluster (kmeans: k, n_init; affinity: damping, preference; dbscan: alpha, min_pts).
EvalClustering cluster_for_evaluation(std::vector<double> coords, std::size_t n, std::size_t d, const ParamSet& params,
                                      Rng& rng);

const MethodInfo& nd_laplace_method_info();
// ari_vs_original, ami_vs_original, avg_pe, avg_distance (apply to nd_laplace only).
std::vector<MetricInfo> nd_laplace_metrics();

}  // namespace dpclust::ndlaplace
