#pragma once
// The DP WaveCluster reproduction in the catalog: its five methods (wavecluster, wc_baseline, privqt, privthr,
// privthr_em) and the paper's measures (paper_metrics.hpp).
#include <vector>

#include "core/method_folder.hpp"

namespace dpclust {

std::vector<MethodInfo> wavecluster_methods();
// The catalog's entry for this folder (engine/methods.cmake): the methods and the paper's measures.
MethodFolder wavecluster_folder();

}  // namespace dpclust
