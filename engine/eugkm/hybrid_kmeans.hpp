#pragma once
// The hybrid approach of Su, Cao, Li, Bertino, Lin & Jin (VLDB Journal 2017; arXiv 1504.05998): EUGkM
// (eugkm.hpp) publishes its synopsis and finds k centres on it, and DPLloyd (dpdbscan/dp_kmeans.hpp,
// variant dplloyd) improves them from there with the rest of the budget. In the abstract's words: "one
// first uses a non-interactive mechanism to publish a synopsis of the input dataset, then applies the
// standard k-means clustering algorithm to learn k cluster centroids, and finally uses an interactive
// approach to further improve these cluster centroids. We analyze the error behavior of both ... and use
// such analysis to decide how to allocate privacy budget between the non-interactive step and the
// interactive step."
//
// The paper's text (its allocation rule and when it runs one step alone) could not be read where this was
// written; dpclust's reading, every part of it a parameter (docs/choices.md "EUGkM and the hybrid"):
//   N        as EUGkM: a noisy count with n_fraction of eps (default), n_public, or the true n (flagged):
//            estimate_size(); eps' = eps - eps_N is what the two steps share.
//   split    eps_E = eugkm_fraction eps' to EUGkM (default 1/2), eps_D = eps' - eps_E to DPLloyd.
//   T        DPLloyd's iterations: `iterations` when > 0; else floor(eps_D / eps_m), at most 7, with
//            eps_m = sqrt(500 k^3 / N^2 (d + cbrt(4 d rho^2))^3) (dplloyd_min_epsilon: Su et al.'s budget
//            below which one DPLloyd iteration does not pay for its noise, the quantity diffprivlib's
//            iteration rule divides by; 7 its upper clamp).
//   fallback (fallback: auto, the default) EUGkM alone with all of eps' when T = 0 (eps_D < eps_m: the
//            interactive step cannot improve the centres); DPLloyd alone with all of eps' (from its own
//            data-independent initial centres, T by diffprivlib's rule on N) when EUGkM's grid would have
//            fewer than 2 cells per dimension at eps_E (the synopsis is one cell: high d or small N eps);
//            the grid test first. fallback: none always runs both steps (T >= 1).
//   DPLloyd  dp_kmeans(variant dplloyd) from EUGkM's centres, epsilon eps_D, T iterations, the same
//            sampler; n_public passed on when n_source is public. Its ledger entries follow EUGkM's.
// The labels (evaluation only) are the nearest final centres. Every decision above uses only public values
// (parameters, k, d, the bounds) and N~, itself a DP release.
#include <cstdint>
#include <optional>

#include "dpdbscan/dp_kmeans.hpp"
#include "eugkm/eugkm.hpp"

namespace dpclust::eugkm {

inline constexpr double kDefaultEugkmFraction = 0.5;
inline constexpr std::int64_t kMaxHybridIterations = 7;

enum class HybridFallback { automatic, none };
enum class HybridPlan { both, eugkm_only, dplloyd_only };
const char* to_string(HybridFallback f);
const char* to_string(HybridPlan p);

struct HybridOptions {
  EugkmOptions eugkm;  // k, epsilon (the whole budget), N, the grid, the sampler, the synopsis' k-means
  double eugkm_fraction = kDefaultEugkmFraction;
  std::int64_t iterations = 0;  // DPLloyd's T; 0 = the rule
  HybridFallback fallback = HybridFallback::automatic;
};

struct HybridResult {
  HybridPlan plan = HybridPlan::both;
  SizeEstimate size;
  double epsilon_eugkm = 0, epsilon_dplloyd = 0;
  double epsilon_m = 0;           // DPLloyd's per-iteration minimum at N
  double grid_rule_at_share = 0;  // EUGkM's real-valued grid rule at eps_E (the grid test)
  std::int64_t iterations = 0;    // DPLloyd's T (0 when it does not run)
  std::optional<EugkmResult> eugkm;
  std::optional<dpdbscan::DpKmeansResult> dplloyd;
  RowMatrix centers;  // the release
  // Exact statistics of the true data (evaluation only):
  Labels labels;
  double inertia = 0;
  double eugkm_inertia = 0;  // of EUGkM's centres, before DPLloyd (0 when EUGkM does not run)
};

// The plan and the budget split for a given N (public: parameters and N~ only).
struct HybridSplit {
  HybridPlan plan = HybridPlan::both;
  double epsilon_eugkm = 0, epsilon_dplloyd = 0, epsilon_m = 0, grid_rule_at_share = 0;
  std::int64_t iterations = 0;
};
HybridSplit plan_hybrid(const HybridOptions& o, double n_estimate, double epsilon_shared, std::size_t d,
                        std::size_t informative);

// Throws InputError for unusable parameters; every noisy step is in `ledger`.
HybridResult hybrid_kmeans(const double* coords, std::size_t n, const Bounds& bounds, const HybridOptions& options,
                           Rng& rng, BudgetLedger& ledger);

}  // namespace dpclust::eugkm
