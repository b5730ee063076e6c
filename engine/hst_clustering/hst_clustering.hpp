#pragma once
// HST clustering: Cohen-Addad, Epasto, Mirrokni, Narayanan & Zhong, "Scalable Differentially Private
// Clustering via Hierarchically Separated Trees", KDD 2022 (arXiv 2206.08646): a private hierarchically
// separated tree (HST) of the data and the k-median / k-means solution on it. The paper's text was not readable
// here (its abstract was); the steps below are named as the authors' code names them
// (google-research/google-research, folder hst_clustering, Apache-2.0; read, not copied), with the file that
// holds each. (eps, delta)-DP under add/remove neighbours.
//
// Step (authors' code)                                        here
// ----------------------------------------------------------- ------------------------------------------------------
// run_clustering.py flags: box [min, max]^d, layers 10,       HstClusteringOptions (below); the public box is the
//   epsilon 1, delta 1e-5, seed 0, k 10                       dataset's bounds, one interval per dimension
// dp_hst.layer_dimension_threshold: split fraction (1 + u)/3  draw_split_fractions (private_hst.hpp), one ChaCha20
//   per (layer, dimension), u from md5(seed|layer|dim)        cell stream per (layer, dimension)
// dp_hst.MapToCellId: 1 + L d cells per point (root, then    build_private_hst (private_hst.hpp), breadth first,
//   one per (layer, dimension) split)                         one pass of the points per level
// dp_hst.CombinePerKey(combine_diameter_center_count)        the sizes of the index ranges (exact counts)
// gaussian_thresholding.get_gaussian_thresholding_params,    privacy::GaussianThresholding (sigma by the analytic or
//   GaussianThresholdMechansimFn: N(0, sigma^2) per cell,     the zCDP calibration, tau from the noise's exact tail);
//   released when >= tau; delta/2 each                        calibrate_counts (below) for the variants
// io.DataFrameToTree: empty sibling of weight 0               build_private_hst (completion nodes)
// dynamic_program.HST.validate_tree(remove_unreachable)       build_private_hst: only released cells are expanded
// HST.solve_dp(k, exp), recover_dp_solution                   solve_on_tree (tree_solution.hpp)
// get_centers_from_hst (_get_center: a cell's midpoint; an    hst_clustering(): cell_midpoint (private_hst.hpp) of the
//   empty sibling takes its parent's)                         chosen nodes
// eval_clustering (the score: evaluation)                     labels and inertia by metrics/nearest_centre (evaluation)
//
// Variants (`variant`):
//   exact    the root's count is not released (nothing needs it; the root is the public box), so a record
//            changes exactly m = L d released counts: sigma for l2 sensitivity sqrt(L d), tau = 1 + q with the
//            noise's own tail Pr[Z >= q] <= (delta/2) / (L d). Private.
//   authors  as their code: the root's count is released and thresholded too, so a record changes 1 + L d
//            counts, while sigma is calibrated for L d (get_gaussian_thresholding_params with l0 = layers x
//            dimensions: sigma too small by sqrt(L d / (1 + L d)), 0.976 at d = 2, L = 10); and their threshold
//            1 + sqrt(2) sigma Phi^-1(1 - delta / (L d)) (gaussian_threshold: the normal quantile times
//            sqrt(2), which is higher than the tail needs). Flagged non-private; the epsilon the Gaussian
//            really gives for 1 + L d counts is recorded in the ledger as a declared excess.
// Both: the centres are cell midpoints (no noisy sum is taken: the authors' run_clustering.py runs no
// Lloyd step, LLOYD_ITERS = 0); a leaf yields one centre whatever its budget, so fewer than k can come out.
//
// Departures from the authors' code, and why:
//   - randomness: one ChaCha20 stream per use (the split fractions; each noised cell's count), from the
//     trial's key; the authors seed Python's `random` with md5(seed|layer|dimension) for the splits and draw
//     the noise from numpy's unseeded global generator;
//   - the box may differ per dimension (the authors take one [min, max] for every coordinate), and a point
//     outside it falls in the border cell, as if clamped (the authors' CreateVectorFromText raises);
//   - an empty sibling's diameter is its cell's own (the authors take 2/3 of its parent's); it has weight 0,
//     so no cost changes;
//   - in the authors variant a root below the threshold leaves the root alone as the tree (one centre, the
//     box's midpoint); the authors' code then has no tree and stops.
// The secure sampler draws the discrete Gaussian with the zCDP sigma (6-10% above the analytic one the
// authors use, privacy/gaussian_calibration.hpp); `sampler: textbook` draws their continuous Gaussian on
// doubles (flagged, as every textbook sampler).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/dataset.hpp"
#include "core/ledger.hpp"
#include "core/rng.hpp"
#include "hst_clustering/private_hst.hpp"
#include "hst_clustering/tree_solution.hpp"
#include "privacy/mechanism.hpp"

namespace dpclust::hst {

enum class Variant { exact, authors };
const char* to_string(Variant v);

// The ledger's largest layers x d (binary levels); a record changes one count per level.
inline constexpr std::size_t kMaxLevels = std::size_t{1} << 20;

struct HstClusteringOptions {
  std::size_t k = 10;  // run_clustering.py k_params
  double epsilon = 1.0;
  double delta = 1e-5;                       // run_clustering.py's default
  double threshold_share = 0.5;              // share of delta for the threshold (the authors' delta / 2)
  std::size_t layers = 10;                   // L
  Objective objective = Objective::kmedian;  // run_clustering.py's exp = 1
  Variant variant = Variant::exact;
  privacy::Sampler sampler = privacy::Sampler::secure;
};

// What the counts are calibrated for and with (public: functions of the options and d).
struct CountCalibration {
  std::uint64_t cells_calibrated = 0;  // the l0 bound the noise is calibrated for: L d
  std::uint64_t cells_per_record = 0;  // counts a record changes: L d (exact) or 1 + L d (authors)
  double sigma = 0;                    // as calibrated
  double drawn_sigma = 0;              // as drawn (times the ledger's noise scale)
  double threshold = 0;                // tau
  double true_epsilon = 0;  // what the Gaussian gives for cells_per_record counts at its delta (= epsilon for exact)
};

struct HstClusteringResult {
  RowMatrix centres;      // at most k x d, cell midpoints in the data's coordinates: the release
  Labels labels;          // nearest released centre (evaluation only)
  double inertia = 0;     // of the centres on the true points (evaluation only)
  SplitFractions splits;  // public
  PrivateHst tree;        // released cells and completion nodes (weights: noisy counts)
  TreeSolution solution;
  CountCalibration calibration;
  std::size_t points_outside_bounds = 0;  // evaluation only
  std::vector<std::string> non_private_notes;
};

// The checks that need no data (also the method's check_shape); d = 0 when not known. Throws InputError with
// the parameter's key and the fix.
void check_options(const HstClusteringOptions& o, std::size_t d);

// One trial: every noisy step is recorded in `ledger` (the thresholded Gaussian's two entries, and the
// authors variant's excess). Throws InputError for unusable input (no bounds, non-finite coordinates, ...).
HstClusteringResult hst_clustering(const double* coords, std::size_t n, std::size_t d, const Bounds& bounds,
                                   const HstClusteringOptions& options, Rng& rng, BudgetLedger& ledger);

// The epsilon at which the Gaussian of standard deviation sigma on a query of l2 sensitivity `l2` is
// (epsilon, delta)-DP: Balle & Wang's exact curve for the continuous Gaussian (textbook), the zCDP conversion
// for the discrete one (secure); found by bisection, rounded up. For the authors variant's excess.
double gaussian_epsilon(privacy::Sampler sampler, double sigma, double l2, double delta);

}  // namespace dpclust::hst
