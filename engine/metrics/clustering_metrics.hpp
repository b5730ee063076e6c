#pragma once
// The clustering metrics a config can name: "ari", "ami", "nmi" (predicted labels against the
// dataset's ground truth), "n_clusters" and "noise_fraction" (of the predicted labels alone).
#include <vector>

#include "core/metric.hpp"

namespace dpclust {

const std::vector<MetricInfo>& clustering_metrics();

}  // namespace dpclust
