// The cost estimate of one hst_clustering trial; see cost.hpp.
#include "hst_clustering/cost.hpp"

#include <algorithm>
#include <cmath>

namespace dpclust::hst {

TrialCostEstimate trial_cost(const ParamSet& p, double n, double d) {
  const double k = p.has("k") ? static_cast<double>(p.integer("k")) : 10.0;
  const double layers = p.has("layers") ? static_cast<double>(p.integer("layers")) : 10.0;
  const double eps = std::max(p.has("epsilon") ? p.real("epsilon") : 1.0, 1e-12);
  const double delta = std::clamp(p.has("delta") ? p.real("delta") : 1e-5, 1e-300, 0.5);
  const double levels = std::max(1.0, layers * d);
  // The classic Gaussian's sigma for sqrt(L d) (a little above the analytic one) and a tail bound of the
  // threshold: tau ~ 1 + sigma sqrt(2 ln(L d / (delta / 2))).
  const double sigma = std::sqrt(2 * std::log(1.25 / (delta / 2))) * std::sqrt(levels) / eps;
  const double tau = std::max(1.0, 1 + sigma * std::sqrt(2 * std::log(2 * levels / delta)));
  const double per_level = n / tau;  // released cells a level, at most
  double nodes = 1;
  if (per_level >= 1) {
    for (double t = 1; t <= levels; ++t) {
      if (std::exp2(t) >= per_level) {
        nodes += 2 * per_level * (levels - t + 1);  // released cells and their empty siblings, every further level
        break;
      }
      nodes += 2 * std::exp2(t);
    }
  }
  const double frontier = std::max(1.0, n / tau);
  TrialCostEstimate c;
  c.memory = 8 * n * d + 24 * n + nodes * (48 + 8 * (k + 1)) + 2 * frontier * 16 * d;
  c.work = n * levels + nodes * k * k + n * k * d;
  return c;
}

}  // namespace dpclust::hst
