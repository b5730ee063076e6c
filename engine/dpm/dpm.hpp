#pragma once
// DPM: Liebenow, Schütt, Braun, Gehrke, Thaeter & Mohammadi, "DPM: Clustering Sensitive Data through
// Separation", ACM CCS 2024 (arXiv 2307.02969). Differentially private clustering by recursive splits at
// low-density separators chosen with the exponential mechanism; no k: up to 2^L leaves, one centre each.
// Its paper's body could not be read here; what follows is its reference implementation, class DPM of
// dpm.py in UzL-PrivSec/dp-mondrian-clustering (commit 321eef3, the one the artifact
// UzL-PrivSec/clustering-evaluation pins), with the abstract's facts (eps = 1, delta = 1e-5; the artifact's
// script uses delta = 1 / (n sqrt n)).
//
// From the reference to this code:
//   DPM.__init__ budget split             dpm_budget (below): eps shares 0.04 (interval size), 0.18 (counts),
//                                         0.18 (splits), 0.60 (centres); counts and splits spread over the
//                                         levels proportionally to sqrt(2^l) (l = 0..L for the counts,
//                                         0..L-1 for the splits); delta 0.8 to the centres, 0.2 to the counts'
//                                         lower bound (0.2 delta / (L + 1) per count level); L = 7, w_c = 1,
//                                         w_e = 5, t = 0.3, q = 1/12
//   perform_clustering: _laplace_mechanism(0, n)   dpm(): the root's noisy count N (Laplace, eps_c(0))
//   split_limit = N / 2^L                 split_tree.cpp, build_split_tree
//   _interval_size_estimation             interval_size.cpp, estimate_interval_size (w; the codebook without
//                                         Monte Carlo, the gap statistic's reading: gap_statistic)
//   num_intervals = int((hi - lo) / w)    separator_search.cpp, candidate_grid
//   _build_clustering                     split_tree.cpp, Builder::node
//   _split, _compute_scores, _emptiness,  separator_search.cpp, node_scores / centreness / score_sensitivity
//     _centerness                           (histogram_bins: the reference's bins or the candidates' own)
//   _exponential_mechanism,               separator_search.cpp, choose_candidate (exact or textbook)
//     _shifted_laplace_offset             split_tree.cpp, count_lower_bound
//   _averaging                            dpm.cpp, release_centres: per leaf the sum of its (clamped) points
//                                         plus Gaussian noise (L2 sensitivity max_norm = sqrt(sum_j M_j^2),
//                                         M_j = max(|lo_j|, |hi_j|), the reference's M sqrt(d) on a cube), divided
//                                         by the leaf's noisy count from the tree (no new count)
//
// Where this code departs from the reference, and why (docs/choices.md, "DPM"):
//   - every coordinate is clamped into the public box first: the sums' sensitivity assumes it, and the
//     reference's data (synth_10d: 2112 coordinates beyond +-100) break it;
//   - an empty leaf gets a noisy centre like any other (the reference releases 0 for it, without noise:
//     an atom revealing that the leaf is empty); a leaf's noisy count below 1 divides by 1;
//   - the codebook is computed, not simulated (interval_size.hpp), and the gap statistic is by default the
//     pooled per-dimension gaps, whose sensitivity is known (the reference's rank mean is flagged for d > 1,
//     its ledger declared unbounded);
//   - the split's score sensitivity takes the larger of the centreness ramp's two slopes (identical at the
//     defaults);
//   - secure sampler: discrete Laplace counts, the exact exponential mechanism on quantised scores, the
//     percentile on a public lattice, and the centres' sums on a public grid with discrete Gaussian noise
//     whose sigma comes from zCDP (6-10% above the analytic sigma the reference uses); textbook: the
//     reference's continuous samplers and analytic Gaussian (flagged, as every textbook sampler).
// Bounds may differ per dimension (the reference takes one (lo, hi) for all): candidate positions,
// histogram ranges and M_j are per dimension, the percentile's range is the widest side.
// Labels (evaluation only): every point's nearest released centre (the artifact's get_labels).
#include <cstddef>
#include <string>
#include <vector>

#include "core/dataset.hpp"
#include "core/ledger.hpp"
#include "core/rng.hpp"
#include "dpm/interval_size.hpp"
#include "dpm/separator_search.hpp"
#include "dpm/split_tree.hpp"
#include "privacy/mechanism.hpp"

namespace dpclust::dpm {

// The non_private note, and the ledger's unbounded reason, of gap_statistic: rank_mean in d > 1 dimensions.
inline constexpr const char* kRankMeanNote =
    "DPM gap_statistic: rank_mean (the reference's) charges the percentile with sensitivity 2, which holds for d = 1 "
    "only: "
    "one point shifts the ranks of each dimension at a different place and changes up to n - 1 of the averaged gaps";

struct DpmOptions {
  double epsilon = 1.0;
  double delta = 1e-5;
  int levels = 7;
  // Relative budget shares (normalised to sum to 1): interval size, counts, splits, centres.
  double share_interval = 0.04, share_counts = 0.18, share_splits = 0.18, share_centres = 0.6;
  double delta_share_centres = 0.8;  // the rest goes to the counts' lower bound
  ScoreWeights weights;
  GapStatistic gap_statistic = GapStatistic::pooled;
  HistogramBins histogram_bins = HistogramBins::reference;
  privacy::Sampler sampler = privacy::Sampler::secure;
};

// The budget of every step (the reference's __init__).
struct DpmBudget {
  double interval = 0, counts = 0, splits = 0, centres = 0;
  std::vector<double> count_per_level;  // L + 1, proportional to sqrt(2^l)
  std::vector<double> split_per_level;  // L, proportional to sqrt(2^l)
  double delta_centres = 0, delta_count_per_level = 0;
};
DpmBudget dpm_budget(const DpmOptions& o);

struct DpmResult {
  RowMatrix centres;                      // leaves x d, the release
  Labels labels;                          // nearest released centre (evaluation only)
  double root_noisy_count = 0;            // released
  IntervalSizeEstimate interval;          // released (w, p)
  std::vector<std::size_t> candidates;    // per dimension, m_j
  std::vector<Split> splits;              // released (the kept separators)
  std::vector<double> leaf_noisy_counts;  // released
  std::vector<int> leaf_levels;
  double split_limit = 0;
  double sum_sigma = 0;  // the Gaussian's sigma, in the data's units
  double sum_grid = 0;   // secure: the grid spacing of the sums (0: textbook)
  DpmBudget budget;
  std::vector<std::string> privacy_gaps;  // the non-private readings that apply
  // Exact statistics of the true data (evaluation only):
  double inertia = 0;  // of the released centres on the true points
  std::vector<std::size_t> leaf_sizes;
  std::size_t clamped_coordinates = 0;  // coordinates moved into the box
};

// Throws InputError for unusable parameters (with the parameter's key). Every release is recorded in `ledger`.
DpmResult dpm(const double* coords, std::size_t n, std::size_t d, const Bounds& bounds, const DpmOptions& options,
              Rng& rng, BudgetLedger& ledger);

// Checks of the options and the box that need no data (check_shape and dpm()): InputError with the key.
void check_dpm_options(const DpmOptions& o, const Bounds& bounds);

// Every point's nearest centre (ties: the lowest index); returns the sum of squared distances.
double nearest_centres(const double* coords, std::size_t n, std::size_t d, const RowMatrix& centres, Labels& labels);

}  // namespace dpclust::dpm
