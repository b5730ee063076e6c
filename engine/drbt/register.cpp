#include "drbt/register.hpp"

namespace dpclust {

std::vector<MethodInfo> drbt_methods() { return {}; }
std::vector<MetricInfo> drbt_metrics() { return {}; }

}  // namespace dpclust
