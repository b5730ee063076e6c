#pragma once
// The "nd_laplace" method and its metrics: perturb every point with nD-Laplace noise (mechanism.hpp),
// standard-scale the perturbed data (thesis Sec. 5.3.3: scaling only for clustering, after all
// perturbation), cluster it with K-Means, Affinity Propagation or DBSCAN (thesis Sec. 5.3.1), and
// compare with the same algorithm on the unperturbed data by ARI and AMI (thesis Sec. 2.2.2 "existing
// literature" and 5.3.2: the non-private clustering serves as the ground truth).
//
// What a run reveals (core/method.hpp): the release is the perturbed points; diagnostics hold only public
// numbers (the clustering of the release, the rates, the grid step, points released outside the public
// box); evaluation holds the exact statistics of the true points (draws per point, the most draws of one
// point, remapped points, average distance to the true points, average p_e); the metrics read the typed
// NdLaplaceResult in MethodResult::details. No message names a point by its coordinates. The method is registered
// in register.cpp, its metrics in paper_metrics.cpp.
#include <cstddef>
#include <nlohmann/json.hpp>
#include <vector>

#include "core/method.hpp"
#include "core/metric.hpp"
#include "ndlaplace/geo_check.hpp"
#include "ndlaplace/mechanism.hpp"
#include "ndlaplace/privacy.hpp"

namespace dpclust::ndlaplace {

// The method's name (register.cpp); its metrics apply to it alone (paper_metrics.cpp).
inline constexpr const char* kNdLaplaceMethod = "nd_laplace";

struct EvalClustering {
  Labels labels;
  bool converged = true;  // false when Affinity Propagation did not converge (every label -1)
  nlohmann::json diagnostics = nlohmann::json::object();
};

// MethodResult::details of nd_laplace: what its metrics read (std::any_cast), split like the result.
struct NdLaplaceResult {
  // Public: functions of the parameters, the public domain and the release.
  double rate = 0;        // epsilon / radius, the recorded rate per unit distance
  double draw_rate = 0;   // the rate the noise was drawn at (rate / 2 when the normaliser depends on x)
  double grid_step = 0;   // secure sampler's grid step u (0 for textbook)
  bool converged = true;  // Affinity Propagation converged on the perturbed data
  // Exact statistics of the true points (the result's `evaluation`, never published).
  PerturbStats perturbation;  // draws, max draws per point, remapped points, average distance
  PeEstimate pe;              // average p_e of Table 5.4
  // The released points z (n x d), what the Chapter 4 attacks (attacks.hpp) and the centroid error read.
  std::vector<double> released;
  // Evaluation of the mechanism itself (param privacy_probe_draws > 0; never released): reports drawn for
  // the probe inputs c (the public box's centre) and c + gi_distance e_1 with the trial's mechanism (its
  // ledger's noise_scale included), checked against Eq. 3.1, and P_area (Eq. 3.4) of c.
  bool probed = false;
  GeoCheck gi;
  PArea area;
};

// The clustering step shared by the method (on the perturbed points) and the *_vs_original metrics
// (on the original points): optional standard scaling (param scale_after), then the algorithm named by
// param cluster (kmeans: k, n_init; affinity: damping, preference; dbscan: alpha, min_pts).
EvalClustering cluster_for_evaluation(std::vector<double> coords, std::size_t n, std::size_t d, const ParamSet& params,
                                      Rng& rng);

}  // namespace dpclust::ndlaplace
