#pragma once
// The DP WaveCluster paper's measures (Sec. 6-7) as metrics: dsg_c, ocm, two_ce, f_measure, kprime, k_true,
// kprime_rel_error, significant_grids, wc_clusters; they apply to the five WaveCluster methods.
#include <vector>

#include "core/metric.hpp"

namespace dpclust {

std::vector<MetricInfo> wavecluster_metrics();

}  // namespace dpclust
