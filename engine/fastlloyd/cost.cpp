// The cost of one trial of `fastlloyd`; see cost.hpp.
#include "fastlloyd/cost.hpp"

#include <algorithm>

#include "fastlloyd/noise_schedule.hpp"

namespace dpclust::fastlloyd {

TrialCost trial_cost(const CostInputs& in) {
  const ParamSet& p = in.params;
  const double n = in.n(), d = in.d();
  const double k = p.has("k") ? p.real("k") : 1.0;
  const double t =
      p.has("iterations") && p.integer("iterations") > 0 ? p.real("iterations") : static_cast<double>(kMaxIterations);
  TrialCost c;
  // The data mapped to [-1, 1]^d (n d doubles), the labels (4 n), the nearest-centre search's blocks (2048 rows
  // of k + 2 doubles per thread) and the integer sums (k d per thread, a few threads at most).
  c.memory = 8 * n * d + 4 * n + 8 * 2048 * (k + 2) * 4 + 8 * k * d * 8;
  // Per iteration every point's distances to the k centres (n k d) and its offset (n d); the final labels.
  c.work = t * (n * k * d + 2 * n * d) + n * k * d;
  return c;
}

}  // namespace dpclust::fastlloyd
