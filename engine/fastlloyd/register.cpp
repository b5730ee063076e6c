// FastLloyd in the catalog (catalog/catalog.cpp).
#include "fastlloyd/register.hpp"

#include "fastlloyd/method.hpp"

namespace dpclust {

std::vector<MethodInfo> fastlloyd_methods() { return {fastlloyd::fastlloyd_method_info()}; }

std::vector<MetricInfo> fastlloyd_metrics() { return {}; }

}  // namespace dpclust
