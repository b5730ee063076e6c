#pragma once
#include <nlohmann/json.hpp>
#include <vector>

namespace dpclust {

// Summary of one metric over trials: n, mean, std (sample, ddof = 1), 95% confidence interval of the
// mean (Student t with n-1 degrees of freedom), min, max. Non-finite values are left out and counted
// in "missing". n = 1 gives std 0 and no interval (null).
nlohmann::json summarize(const std::vector<double>& values);

}  // namespace dpclust
