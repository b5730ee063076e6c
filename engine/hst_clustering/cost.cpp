// The cost estimate of one hst_clustering trial; see cost.hpp.
#include "hst_clustering/cost.hpp"

#include <algorithm>
#include <cmath>
#include <exception>

#include "core/ledger.hpp"
#include "hst_clustering/private_hst.hpp"
#include "privacy/gaussian_thresholding.hpp"
#include "privacy/mechanism.hpp"

namespace dpclust::hst {
namespace {

double real_or(const ParamSet& p, const char* name, double fallback) { return p.has(name) ? p.real(name) : fallback; }
double int_or(const ParamSet& p, const char* name, double fallback) {
  return p.has(name) ? static_cast<double>(p.integer(name)) : fallback;
}

// tau and sigma of the exact variant's calibration (the authors variant's tau is higher, so fewer cells pass:
// the exact one bounds both). {1, 0} (every occupied cell released, no noise) when the calibration is refused:
// check_options refuses such parameters before a trial, and the bound stays an upper one.
std::pair<double, double> calibration(const ParamSet& p, double levels) {
  try {
    const double epsilon = real_or(p, "epsilon", 1.0), delta = real_or(p, "delta", 1e-5);
    BudgetLedger scratch(epsilon, delta);
    const auto counts = privacy::GaussianThresholding::build(
        scratch, p.has("sampler") ? privacy::sampler_of(p) : privacy::Sampler::secure,
        static_cast<std::uint64_t>(levels), epsilon, delta, real_or(p, "threshold_share", 0.5), "cost estimate", "");
    return {counts.threshold(), counts.sigma()};
  } catch (const std::exception&) {
    return {1.0, 0.0};
  }
}

}  // namespace

TrialCostEstimate trial_cost_bound(const ParamSet& p, double n, double d) {
  const double k = int_or(p, "k", 10), layers = int_or(p, "layers", 10);
  const double levels = std::max(1.0, layers * d);
  TrialCostEstimate c;
  const auto [tau, sigma] = calibration(p, levels);
  c.threshold = tau;
  // Pr[Z >= tau / 2] for the Gaussian of standard deviation sigma (the discrete one's tail is within a hair of it).
  const double p_low = sigma > 0 ? 0.5 * std::erfc(tau / 2 / (sigma * std::sqrt(2.0))) : (tau / 2 > 0 ? 0.0 : 1.0);
  c.cells_per_level = 2 * p_low >= 1 ? n : std::min(n, 2 * n / (tau * (1 - 2 * p_low)));
  double released = 0;
  for (double t = 1; t <= levels; ++t) {
    if (std::exp2(t) >= c.cells_per_level) {
      released += c.cells_per_level * (levels - t + 1);
      break;
    }
    released += std::exp2(t);
  }
  c.tree_nodes = 1 + 2 * released;
  c.cost_entries = c.tree_nodes + std::min(k * c.tree_nodes, c.cells_per_level * (1 + levels));
  const double frontier = c.cells_per_level;
  c.memory = 8 * n * d + 24 * n + 3 * c.tree_nodes * static_cast<double>(sizeof(HstNode)) +
             8 * (3 * c.tree_nodes + c.cost_entries) + 2 * 2 * frontier * (24 + 16 * d) + 8 * k * d;
  c.work = n * levels + c.tree_nodes * k * k + n * k * d;
  return c;
}

TrialCost trial_cost(const CostInputs& in) {
  const TrialCostEstimate b = trial_cost_bound(in.params, in.n(), in.d());
  return {b.memory, b.work};
}

}  // namespace dpclust::hst
