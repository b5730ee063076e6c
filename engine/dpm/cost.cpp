#include "dpm/cost.hpp"

#include <algorithm>
#include <cmath>

namespace dpclust::dpm {

TrialCost trial_cost(const CostInputs& in) {
  const double n = in.n(), d = in.d();
  const double levels = in.number("levels", 7);
  const bool pooled = in.choice("gap_statistic", "pooled") == "pooled";
  const double gaps = pooled ? n * d : n;
  TrialCost s;
  s.memory = kBytesPerDouble * n * d + 40 * gaps + 4 * n + 16 * n;
  s.work =
      d * n * std::log2(std::max(n, 2.0)) + 4 * gaps + levels * n * (d + 2) + n * d * std::exp2(std::min(levels, 16.0));
  return s;
}

}  // namespace dpclust::dpm
