#pragma once
// The differentially private synopsis behind Baseline (arXiv Alg. Baseline line 2,
// DiffPrivPublishing): the adaptive grid (AG) of Qardaji, Yang, Li, "Differentially private grids
// for geospatial data", ICDE 2013, which the paper's experiments use (Sec. 7), or their uniform grid
// (UG) as a second option; then synthetic points placed uniformly inside the leaf cells, quantized
// into WaveCluster's g-grid (Alg. Baseline line 3).
//
// AG (Qardaji et al. Sec. IV-B), written for d dimensions (the paper's data is 2-D; for d != 2 the
// square roots become d-th roots, our generalisation):
//   m1 = max(10, ceil(sqrt(N eps / c) / 4)),  c = 10, first-level noisy counts with alpha eps (alpha = 1/2);
//   inside each first-level cell with noisy count N': m2 = ceil(sqrt(N' (1 - alpha) eps / c2)), c2 = c / 2,
//   second-level noisy counts with (1 - alpha) eps (each level: Laplace, sensitivity 1, parallel
//   composition over the disjoint cells of the level);
//   constrained inference (their Sec. IV-B): v' = (alpha^2 m^2 v + (1-alpha)^2 sum u) / (alpha^2 m^2 + (1-alpha)^2),
//   u'_i = u_i + (v' - sum u) / m^2 with m^2 = m2^d leaves in the cell;
//   negative counts set to 0 (the paper's Sec. 4.1 complaint about Baseline), each leaf's count rounded
//   to the nearest integer, that many points drawn uniformly in the leaf.
// UG: m = ceil(sqrt(N eps / c)) cells per dimension, noisy counts with the whole grid budget.
//
// N: both grid sizes need the number of records, which is private. We spend n_share * eps on a noisy
// count N' = n + Lap(1 / (n_share eps)) (ledger step "noisy N") and give the grids the rest,
// eps_grid = eps - n_share eps, which is also the eps inside the size formulas. n_share = 0 uses the
// true n instead; the release is then flagged non-private (kTrueNNote), the ledger declared unbounded (the
// grid sizes move with n deterministically) and the synopsis' noisy_n is null (it would be the true n).
//
// Every noisy count is a privacy::CountMechanism (discrete Laplace by default, the papers' continuous
// Laplace with `sampler: textbook`); Baseline (baseline.hpp) is this file's only user.
#include <array>
#include <cstddef>
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/dataset.hpp"
#include "core/ledger.hpp"
#include "core/rng.hpp"
#include "privacy/mechanism.hpp"
#include "wavecluster/choice.hpp"
#include "wavecluster/grid.hpp"

namespace dpclust::wavecluster {

// Which adaptive grid: the paper's reading of Qardaji et al. (this file), or the one the DP WaveCluster
// authors' code builds (flat_origin.hpp: their flat_origin.py).
enum class AgVariant { paper, flat_origin };
template <>
struct ChoiceNames<AgVariant> {
  static constexpr std::array<std::pair<AgVariant, std::string_view>, 2> names{
      {{AgVariant::paper, "paper"}, {AgVariant::flat_origin, "flat_origin"}}};
};

// The non_private note (and the ledger's unbounded reason) of n_share = 0.
extern const char* const kTrueNNote;

struct SynopsisOptions {
  std::string type = "adaptive";                        // "adaptive" (AG) or "uniform" (UG)
  AgVariant variant = AgVariant::paper;                 // AG only: flat_origin = the authors' code (flat_origin.hpp)
  double c = 10.0;                                      // Qardaji et al.'s constant c (c2 = c / 2)
  double alpha = 0.5;                                   // AG: share of the grid budget for the first level
  double n_share = 0.05;                                // share of eps for the noisy N (0: true N, non-private)
  privacy::Sampler sampler = privacy::Sampler::secure;  // noise of every count (privacy/mechanism.hpp)
  double sensitivity = 1.0;  // of every count: 1 for add/remove neighbours, 2 for replace-one
};

struct SyntheticCounts {
  std::vector<double> counts;  // count matrix of the synthetic points on WaveCluster's g-grid
  nlohmann::json info;         // the published synopsis sizes (noisy N, m1, leaves, synthetic points, ...)
  bool used_true_n = false;
};

// Caps that keep a schema-valid but extreme configuration (epsilon 1e300, ag_c 1e-300, n_share 1e-300,
// data of many dimensions) from exhausting memory or running forever: synthetic_counts throws
// dpclust::InputError naming the parameter before it allocates beyond them.
inline constexpr std::size_t kSynopsisMaxPerDim = std::size_t{1} << 12;  // m, m1, m2 per dimension
inline constexpr std::size_t kSynopsisMaxCells = std::size_t{1} << 26;   // cells of a level (leaves in all)
inline constexpr std::uint64_t kSynopsisMaxSyntheticPoints = std::uint64_t{1} << 27;
inline constexpr double kSynopsisMaxNoiseScale = 1e9;  // sensitivity / eps of one step

// Spends the whole `eps` in `ledger` (steps: noisy N, level 1, level 2 / grid), one
// privacy::CountMechanism entry per step.
// The inputs both synopses (synthetic_counts, flat_origin_counts) refuse before anything is spent:
// epsilon and ag_c finite and > 0 (InputError naming the wc_baseline parameter).
void check_synopsis_inputs(double eps, const SynopsisOptions& opt);

SyntheticCounts synthetic_counts(const Dataset& data, const Quantizer& q, double eps, const SynopsisOptions& opt,
                                 Rng& rng, BudgetLedger& ledger);

}  // namespace dpclust::wavecluster
