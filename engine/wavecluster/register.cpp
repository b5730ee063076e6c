#include "wavecluster/register.hpp"

namespace dpclust {

std::vector<MethodInfo> wavecluster_methods() { return {}; }
std::vector<MetricInfo> wavecluster_metrics() { return {}; }

}  // namespace dpclust
