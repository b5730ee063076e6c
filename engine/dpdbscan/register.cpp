#include "dpdbscan/register.hpp"

namespace dpclust {

std::vector<MethodInfo> dpdbscan_methods() { return {}; }
std::vector<MetricInfo> dpdbscan_metrics() { return {}; }

}  // namespace dpclust
