// The hybrid: EUGkM's centres improved by DPLloyd; see hybrid_kmeans.hpp.
#include "eugkm/hybrid_kmeans.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "core/error.hpp"

namespace dpclust::eugkm {

const char* to_string(HybridFallback f) { return f == HybridFallback::automatic ? "auto" : "none"; }

const char* to_string(HybridPlan p) {
  switch (p) {
    case HybridPlan::both: return "eugkm+dplloyd";
    case HybridPlan::eugkm_only: return "eugkm";
    case HybridPlan::dplloyd_only: return "dplloyd";
  }
  return "?";
}

HybridSplit plan_hybrid(const HybridOptions& o, double n_estimate, double epsilon_shared, std::size_t d,
                        std::size_t informative) {
  HybridSplit s;
  const double n = n_estimate < 1 ? 1.0 : n_estimate;
  s.epsilon_eugkm = o.eugkm_fraction * epsilon_shared;
  s.epsilon_dplloyd = epsilon_shared - s.epsilon_eugkm;
  s.epsilon_m = dpdbscan::dplloyd_min_epsilon(o.eugkm.k, n, d);
  s.grid_rule_at_share = o.eugkm.grid_size > 0 ? static_cast<double>(o.eugkm.grid_size)
                                               : grid_rule(n, s.epsilon_eugkm, informative, o.eugkm.grid_constant);
  const double by_rule = std::floor(s.epsilon_dplloyd / s.epsilon_m);
  s.iterations = o.iterations > 0
                     ? o.iterations
                     : static_cast<std::int64_t>(std::min(by_rule, static_cast<double>(kMaxHybridIterations)));
  if (o.fallback == HybridFallback::none) {
    s.iterations = std::max<std::int64_t>(s.iterations, 1);
    return s;
  }
  if (informative > 0 && s.grid_rule_at_share < 2) {
    // One cell per dimension at EUGkM's share: its synopsis is a single count. DPLloyd alone, with T by
    // Su et al.'s / diffprivlib's rule at the whole shared budget (dp_kmeans.hpp).
    s.plan = HybridPlan::dplloyd_only;
    s.epsilon_eugkm = 0;
    s.epsilon_dplloyd = epsilon_shared;
    s.iterations = o.iterations > 0
                       ? o.iterations
                       : static_cast<std::int64_t>(std::max(std::min(epsilon_shared / s.epsilon_m, 7.0), 2.0));
    return s;
  }
  if (s.iterations == 0) {
    // DPLloyd's share is below one iteration's minimum: EUGkM alone.
    s.plan = HybridPlan::eugkm_only;
    s.epsilon_eugkm = epsilon_shared;
    s.epsilon_dplloyd = 0;
  }
  return s;
}

HybridResult hybrid_kmeans(const double* coords, std::size_t n, const Bounds& bounds, const HybridOptions& o, Rng& rng,
                           BudgetLedger& ledger) {
  if (bounds.empty())
    throw InputError("dataset bounds", "the hybrid k-means needs the public domain bounds of the data",
                     "add bounds: [[lo, hi], ...]");
  if (n == 0) throw InputError("dataset", "the hybrid k-means needs at least one point");
  std::size_t informative = 0;
  for (std::size_t j = 0; j < bounds.dims(); ++j) informative += bounds.hi[j] > bounds.lo[j];
  check_parameters(o.eugkm, informative);
  if (!(o.eugkm_fraction > 0 && o.eugkm_fraction < 1))
    throw InputError("params.eugkm_fraction", "eugkm_fraction must be in (0, 1): EUGkM's share of the budget after N",
                     "use the default 0.5, or run eugkm or dp_kmeans alone");
  if (o.iterations < 0) throw InputError("params.iterations", "iterations must be >= 0 (0 = the rule)");

  HybridResult r;
  const double eps_n = o.eugkm.n_source == SizeSource::noisy ? o.eugkm.n_fraction * o.eugkm.epsilon : 0.0;
  r.size = estimate_size(n, o.eugkm.n_source, eps_n, o.eugkm.n_public, o.eugkm.sampler, rng, ledger);
  const HybridSplit split = plan_hybrid(o, r.size.value, o.eugkm.epsilon - eps_n, bounds.dims(), informative);
  r.plan = split.plan;
  r.epsilon_eugkm = split.epsilon_eugkm;
  r.epsilon_dplloyd = split.epsilon_dplloyd;
  r.epsilon_m = split.epsilon_m;
  r.grid_rule_at_share = split.grid_rule_at_share;

  if (r.plan != HybridPlan::dplloyd_only) {
    check_grid_hosts_k(o.eugkm, informative);
    r.eugkm = eugkm_on_grid(coords, n, bounds, o.eugkm, r.size, r.epsilon_eugkm, rng, ledger);
    r.centers = r.eugkm->centers;
    r.labels = r.eugkm->labels;
    r.inertia = r.eugkm_inertia = r.eugkm->inertia;
  }
  if (r.plan != HybridPlan::eugkm_only) {
    r.iterations = split.iterations;
    dpdbscan::DpKmeansOptions d;
    d.k = o.eugkm.k;
    d.epsilon = r.epsilon_dplloyd;
    d.variant = dpdbscan::KmeansVariant::dplloyd;
    d.iterations = r.iterations;
    d.n_public = o.eugkm.n_source == SizeSource::public_n ? o.eugkm.n_public : 0;
    d.sampler = o.eugkm.sampler;
    if (r.eugkm) d.initial_centers = r.eugkm->centers;  // inside the bounds: weighted means of cell centres
    r.dplloyd = dpdbscan::dp_kmeans(coords, n, bounds, d, rng, ledger);
    r.centers = r.dplloyd->centers;
    r.labels = r.dplloyd->labels;
    r.inertia = r.dplloyd->inertia;
  }
  return r;
}

}  // namespace dpclust::eugkm
