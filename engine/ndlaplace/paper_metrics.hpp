#pragma once
// The nD-Laplace thesis's measures as metrics of `nd_laplace`: ari_vs_original, ami_vs_original, avg_pe, avg_distance
// (Sec. 5.3.2, Table 5.4), the Chapter 4 privacy evaluation (mia_advantage, mia_advantage_best, reconstruction_error,
// gi_ratio, gi_violation, p_area_radius), centroid_rel_error and the parameter-selection diagnostics
// elbow_k_original, kdistance_alpha_original. They read the typed NdLaplaceResult of the trial.
#include <vector>

#include "core/metric.hpp"

namespace dpclust::ndlaplace {

std::vector<MetricInfo> nd_laplace_metrics();

}  // namespace dpclust::ndlaplace
