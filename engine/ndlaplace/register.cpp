#include "ndlaplace/register.hpp"

namespace dpclust {

std::vector<MethodInfo> ndlaplace_methods() { return {}; }
std::vector<MetricInfo> ndlaplace_metrics() { return {}; }

}  // namespace dpclust
