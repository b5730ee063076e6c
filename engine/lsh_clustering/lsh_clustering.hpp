#pragma once
// Google's practical DP clustering ("LSH clustering"): Chang & Kamath 2021 (Google AI blog, "Practical
// differentially private clustering"), on Chang, Ghazi, Kumar & Manurangsi, "Locally Private k-Means in
// One Round", ICML 2021; the central algorithm of google/differential-privacy, learning/clustering
// (read at commit b5b0286e; no code copied). (eps, delta)-DP under add/remove neighbours.
//
// Reference function                                    here
// ----------------------------------------------------- ---------------------------------------------------
// clustering_params.Data.clip_by_radius                  clip_to_radius (private_coreset.hpp): x r / max(||x||, r),
//                                                        after centring on `centre` (the reference leaves the
//                                                        centring to the caller: "centering the data around the
//                                                        origin beforehand may provide performance improvements")
// privacy_calculator.PrivacyCalculator                   calibrate (noise_calibration.hpp): alpha from (eps, delta)
//   make_clustering_event, calibrate_dp_mechanism        by bisection; accountant pld (exact, continuous Gaussian)
//   (dp_accounting PLDAccountant)                        or rdp (discrete Gaussian); validate_accounting: the
//                                                        certified delta is rechecked at the scales drawn
// clustering_algorithm.private_lsh_clustering: max_depth max_depth = 20 (kDefaultMaxDepth)
// default_clustering_params.default_tree_param           default_tree_params (tree_params.hpp), on the root's
//                                                        private count n~ = n + discrete Laplace (level 0)
// central_privacy_utils.get_private_count (scipy dlaplace) privacy::JointCountNoise: exact discrete Laplace (CKS20
//                                                        Alg. 2) of scale dlaplace_multiplier * alpha
// lsh.SimHash, lsh_tree.root_node / LshTree              simhash_projections, build_lsh_tree (lsh_tree.hpp)
// clustering_algorithm.get_private_coreset,              private_coreset (private_coreset.hpp): per leaf
//   central_privacy_utils.get_private_average            (sum + Gaussian) / private count, clipped to r
// sklearn KMeans(n_clusters=min(k, leaves),              kmeans (cluster/kmeans) with sample_weight = the leaf
//   init="k-means++").fit(sample_weight=weights)         counts, n_init 10 (scikit-learn < 1.4's default, which
//                                                        the reference relied on), 300
//                                                        iterations, tol 1e-4; k-means++ seeded with the weights
//                                                        as scikit-learn >= 1.3 seeds (1.2.1 seeded unweighted:
//                                                        bench/reference_lsh_clustering.py shows the difference)
// ClusteringResult (labels, loss: "nonprivate")          labels = nearest released centre, inertia on the true
//                                                        points: evaluation only
// The released centres are the k-means centres of the coreset shifted back by the centre: no private
// average per final cluster is taken (the reference releases kmeans.cluster_centers_ as they are), so the
// whole budget goes to the tree's counts and the leaves' sums. When the coreset has fewer than k points,
// fewer than k centres are released (as the reference does).
//
// Public inputs: k, eps, delta, the radius r and the centre (from the public bounds, or given), max_depth
// and the multipliers. Taken from the data, each flagged in non_private_notes: `radius_from_data` (the
// largest norm of the centred data, as the reference README's benchmarks did) and `centre: data` (the
// true mean: "this dataset was (non-privately) centered"); each also declares the ledger data-derived
// (BudgetLedger::declare_data_derived: unbounded, no epsilon is stated for the trial, and a release withholds
// the entries' sensitivities and notes, which are in units of that radius), and the method keeps the radius,
// the centre and the sums' noise diagnostics (sigma and the grid, functions of r) out of its public diagnostics.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "cluster/kmeans/kmeans.hpp"
#include "core/dataset.hpp"
#include "core/ledger.hpp"
#include "core/rng.hpp"
#include "lsh_clustering/lsh_tree.hpp"
#include "lsh_clustering/noise_calibration.hpp"
#include "lsh_clustering/private_coreset.hpp"
#include "lsh_clustering/tree_params.hpp"
#include "privacy/mechanism.hpp"

namespace dpclust::lsh {

// Where the ball of radius r is centred (the origin the SimHash hyperplanes pass through).
enum class Centre { bounds, origin, data };
const char* to_string(Centre c);

struct LshClusteringOptions {
  std::size_t k = 2;
  double epsilon = 1.0;
  double delta = 1e-6;            // DifferentialPrivacyParam's default
  double radius = 0;              // > 0: the public radius r; 0: from the public bounds (see radius_of)
  bool radius_from_data = false;  // r = the largest norm of the centred data (flagged)
  Centre centre = Centre::bounds;
  int max_depth = kDefaultMaxDepth;
  std::int64_t min_points_in_node = 0;            // 0: automatic (default_tree_params)
  std::int64_t min_points_in_branching_node = 0;  // 0: 3 min_points_in_node
  NoiseMultipliers multipliers;
  Accountant accountant = Accountant::rdp;
  privacy::Sampler sampler = privacy::Sampler::secure;
  KMeansOptions kmeans{10, 300, 1e-4};
};

struct LshClusteringResult {
  RowMatrix centres;           // k' x d (k' = min(k, coreset points)), in the data's coordinates: the release
  Labels labels;               // nearest released centre of every point (evaluation only)
  double inertia = 0;          // of the labels on the true points (evaluation only)
  std::vector<double> centre;  // the centre subtracted before clipping
  double radius = 0;           // r
  Calibration calibration;
  TreeParams tree;
  bool automatic_tree = true;
  std::int64_t root_private_count = 0;  // n~, before the raise to >= 1
  int depth = 0;                        // levels below the root the tree reached
  std::size_t count_draws = 0;          // private counts drawn (the root's included)
  PrivateCoreset coreset;               // centred coordinates
  bool on_grid = false;                 // secure sampler: the sums on `grid`
  SumGrid grid;
  double sum_sigma = 0;        // the sums' noise standard deviation, in the data's units (as drawn)
  double count_scale = 0;      // the counts' discrete Laplace scale (as drawn)
  double certified_delta = 0;  // the accountant's delta at epsilon at the drawn scales
  std::int64_t kmeans_iterations = 0;
  std::size_t points_clipped = 0;  // points rescaled to the radius (evaluation only)
  std::vector<std::string> non_private_notes;
};

// The ball's centre and radius from the options, the public bounds and (flagged options only) the data.
// Throws InputError naming the parameter when what they need is missing.
void centre_and_radius(const LshClusteringOptions& o, const double* coords, std::size_t n, std::size_t d,
                       const Bounds& bounds, std::vector<double>& centre, double& radius,
                       std::vector<std::string>& notes);

// One trial. Throws InputError for unusable parameters; every noisy step is recorded in `ledger` (one
// joint account, its two steps).
LshClusteringResult lsh_clustering(const double* coords, std::size_t n, std::size_t d, const Bounds& bounds,
                                   const LshClusteringOptions& options, Rng& rng, BudgetLedger& ledger);

// The parameter checks that need no data (also run by the method's check_shape): the accountant against the
// sampler, the tree thresholds, and (secure, d > 0) that the calibrated noise fits the exact sampler's grid.
// Returns the calibration (calibrate_cached).
Calibration check_options(const LshClusteringOptions& o, std::size_t d);

}  // namespace dpclust::lsh
