// The DRBT reproduction's entries in the catalog (catalog/catalog.cpp).
#include "drbt/register.hpp"

#include "drbt/drbt.hpp"

namespace dpclust {

std::vector<MethodInfo> drbt_methods() { return {drbt::drbt_method_info()}; }

// stress (Eq. 6) and of (overall F-measure, Eq. 14); the min/avg/max/std over trials of Tables 8-11
// are the runner's per-metric summary.
std::vector<MetricInfo> drbt_metrics() { return drbt::drbt_metric_list(); }

}  // namespace dpclust
