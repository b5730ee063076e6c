#include "eugkm/cost.hpp"

#include <algorithm>
#include <optional>

#include "cluster/kmeans/cost.hpp"
#include "eugkm/register.hpp"

namespace dpclust::eugkm {

TrialCost trial_cost(const CostInputs& in, bool hybrid) {
  const double n = in.n(), d = in.d();
  const EugkmOptions o = eugkm_options(in.params);
  HybridOptions h;
  double epsilon_histogram = planned_histogram_epsilon(o);
  if (hybrid) {
    // The hybrid's plan at the known size: EUGkM's share, or all of it when DPLloyd cannot follow; without a grid
    // (one cell a dimension at EUGkM's share: DPLloyd alone) only DPLloyd's iterations on the data.
    h = hybrid_options(in.params);
    const HybridSplit plan =
        plan_hybrid(h, n, epsilon_histogram, static_cast<std::size_t>(d), static_cast<std::size_t>(d));
    if (plan.plan == HybridPlan::dplloyd_only) {
      const TrialCost lloyd = kmeans_cost(n, d, static_cast<double>(o.k), 1,
                                          static_cast<double>(std::max<std::int64_t>(plan.iterations, 1)));
      return {lloyd.memory + 16 * n, lloyd.work};
    }
    epsilon_histogram = plan.epsilon_eugkm;
  }
  const std::optional<GridSize> g = expected_grid(o, epsilon_histogram > 0 ? epsilon_histogram : o.epsilon, in.shape);
  const double cells = g ? static_cast<double>(g->cells) : static_cast<double>(o.max_cells);
  const double positive = std::min(cells, cells / 2 + n);
  const TrialCost km = kmeans_cost(positive, d, static_cast<double>(o.k), static_cast<double>(o.kmeans.n_init),
                                   static_cast<double>(o.kmeans.max_iter));
  TrialCost s{16 * cells + kBytesPerDouble * positive * (d + 1) + km.memory + 16 * n, 40 * cells + n * d + km.work};
  if (hybrid) {
    const double t = h.iterations > 0 ? static_cast<double>(h.iterations) : static_cast<double>(kMaxHybridIterations);
    s.work += kmeans_cost(n, d, static_cast<double>(o.k), 1, t).work;
  }
  return s;
}

CostAdvice cost_advice(const CostInputs& /*in*/) {
  CostAdvice a;
  a.private_memory_fixes = {"a smaller grid_size or max_grid_cells (16 bytes a grid cell)"};
  return a;
}

}  // namespace dpclust::eugkm
