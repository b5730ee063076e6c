#pragma once
// DP-k-means: DPLloyd of Su, Cao, Li, Bertino & Jin ("Differentially Private k-Means Clustering",
// CODASPY 2016), in two variants.
//
// variant diffprivlib -- the DP-DBSCAN paper's baseline (the DP-Kmeans column of Table 2, Fig. 10,
// Table 3) IS IBM diffprivlib's models.KMeans, reproduced bit for bit (same draws, same order):
//   T = int(max(min(eps / eps_m, 7), 2)), eps_m = sqrt(500 k^3 / n^2 (d + cbrt(4 d rho^2))^3), rho = 0.225
//       (diffprivlib's rule from Su et al.'s analysis), n the data's TRUE size unless n_public is given;
//   per iteration eps / T, split cbrt(4 d rho^2) : 1 : ... : 1 between the counts and the d sums, as
//       documented (Su et al.; diffprivlib's _split_epsilon docstring) -- but see "as diffprivlib runs it";
//   count~ = count + two-sided geometric (eps_count, sensitivity 1), folded into [0.5, inf) (a value
//       v < 0.5 is reflected to 1 - v);
//   sum~_j = bounded-domain Laplace (Holohan et al. 2018) of sum_j on [count~ lo_j, count~ hi_j],
//       eps_sum, sensitivity hi_j - lo_j; centre = sum~ / count~; an empty cluster keeps its centre.
//   The split as diffprivlib runs it (diffprivlib_split: as_run, the default): diffprivlib's
//       KMeans._split_epsilon returns (epsilon_i * normaliser, epsilon_0 * normaliser), the share of each
//       dimension's sum first, but _update_centers unpacks it as `epsilon_0, epsilon_i = ...` (diffprivlib
//       0.2.0 to 0.6.6, diffprivlib/models/k_means.py), so the COUNT is drawn at the sums' share and every
//       SUM at the count's: per iteration, with norm = eps / (T (d + e0)),
//         count  eps_count = norm,   each of the d sums  eps_sum = e0 norm,
//       together norm (1 + d e0) = eps / T * (1 + d e0) / (d + e0): less than eps / T when d < 5 (e0 < 1;
//       d = 2: 0.905 eps in all), more when d >= 5 (d = 16: 1.412 eps). The ledger records these and the
//       difference: an "unspent" entry, or a declared excess (ledger.hpp). diffprivlib_split:
//       as_documented draws at the split its docstring states (eps_count = e0 norm, eps_sum = norm;
//       what dpclust drew before, for comparison).
// Its samplers (diffprivlib_samplers.hpp) draw on doubles. Three privacy gaps, each flagged in
// non_private_notes when it applies (the variant stays runnable for the reproduction):
//   (a) the sum sensitivity: adding or removing a record x changes its cluster's sum_j by x_j, up to
//       max(|lo_j|, |hi_j|), not hi_j - lo_j; under-calibrated whenever the domain of a dimension does
//       not contain 0 (e.g. ~1000x for Cabs-tiny in projected km);
//   (b) an empty cluster's centre is released unchanged, without noise: an atom that reveals count = 0
//       exactly, covered by no epsilon;
//   (c) T is chosen from the true n (diffprivlib's rule), which add/remove DP does not make public.
//
// variant dplloyd (the default) -- the same algorithm made eps-DP, every release from engine/privacy:
//   centring   each coordinate is clamped into the public domain and centred on its midpoint,
//              x'_j = clamp(x_j, lo_j, hi_j) - c_j, c_j = (lo_j + hi_j) / 2, |x'_j| <= h_j = (hi_j - lo_j) / 2.
//              Su et al. normalise every dimension to [-r, r] and calibrate the sum to r; centring on the
//              midpoint is that normalisation for any box, and gives the smallest sensitivity a box
//              allows (half the width; max(|lo_j|, |hi_j|) without centring is never smaller).
//   T          `iterations` when > 0; else Su et al.'s / diffprivlib's rule above with the public
//              `n_public`; else kDefaultIterations = 5, fixed: the middle of the rule's range [2, 7] and
//              what the rule gives for the paper's Cluto-t4/t5 (k = 6, n = 8000, eps = 1). Never the true n.
//   counts     per iteration one privacy::CountMechanism::laplace, sensitivity 1, eps_count, for all k
//              clusters (each record is in one cluster: parallel composition). Every cluster, empty or
//              not, gets its noisy count N~.
//   sums       per iteration and non-constant dimension one privacy::RealMechanism::laplace, sensitivity
//              h_j, eps_sum, bound B_j = N_bound h_j, for the centred sums S_j of all k clusters.
//              The clamps, and why they keep eps-DP:
//                1. the per-record clamp into the domain makes |x'_j| <= h_j for every record, so adding
//                   or removing one changes one cluster's S_j by at most h_j, the others by 0;
//                2. the secure (snapping) mechanism clamps S_j into [-B_j, B_j]: a 1-Lipschitz map,
//                   so the clamped value still has sensitivity h_j, for ANY bound fixed before the
//                   data are seen. B_j is public: N_bound = n_public, or kCountBound = 2^32 without it
//                   (no cluster of a dataset the harness loads is larger); |S_j| <= |C| h_j <= B_j, so
//                   with a true bound the clamp never binds, and a wrong one only biases the sum;
//                3. the snapping output lies on a grid inside [-B_j, B_j] (post-processing).
//              textbook: S_j + continuous Laplace(h_j / eps_sum), unclamped (flagged).
//              The sum itself is exact (Casacuberta, Jayaraman, Zeng, Tschantz & Heller, "Widespread
//              underestimation of sensitivity in differentially private libraries", CCS 2022: a sum of
//              clamped values accumulated in doubles rounds at every addition, so one record can move
//              it by more than h_j, growing with n; centred_cluster_sums below): every centred value is
//              rounded to the public grid of spacing g_j = 2^(ceil(log2 h_j) - K), K = 53 -
//              ceil(log2 N_bound) (21 without n_public), clamped to +-floor(h_j / g_j) units (so |q g_j|
//              <= h_j), and the units are added as integers; the integer sum is clamped to +-N_bound
//              floor(h_j / g_j) <= 2^53 units (1-Lipschitz, as clamp 2) and scaled by g_j, a power of
//              two: the double S_j is exactly that sum. One record moves it by at most h_j, with no
//              rounding slack; n records keep it within n h_j. The grid rounds each record by at most
//              g_j / 2 <= h_j 2^-K (public, per record: part of the per-record map, like the clamp).
//   centre     c_j + clamp(S~_j / max(N~, 1), -h_j, h_j): a function of this iteration's noisy values only
//              (post-processing). N~ < 1 -- a cluster the noisy count calls empty -- divides by 1, so an
//              empty cluster's centre is c + clamp(S~, -h, h): noise around the midpoint, never an atom.
//   budget     per iteration eps / T, split cbrt(4 d rho^2) : 1 : ... : 1 between the counts and the d'
//              non-constant dimensions (a constant dimension, h_j = 0, carries no information: its centre
//              coordinate is c_j and it spends nothing); T iterations add up to eps.
//
// Both: initial centres are data-independent (uniform in the bounds shrunk by a margin m on every side,
// each new centre at least 2m from the ones placed, up to 100 failed draws in a row; then m is halved
// and the placement restarts, m starting at half the smallest side), or given. A constant dimension
// (lo_j = hi_j: bounds: data on a column with one value) puts every centre at lo_j and is left out of the
// margin and the distances, so data whose every column is constant (identical points) runs: the domain
// is one point, every centre is that point (never an internal error). The labels (evaluation
// only) are those of the nearest final centre. The ledger's noise_scale multiplies every noise scale
// (0 = plain Lloyd from the same initial centres; tests/dpdbscan/baselines_test.cpp).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/dataset.hpp"
#include "core/ledger.hpp"
#include "core/rng.hpp"
#include "privacy/mechanism.hpp"

namespace dpclust::dpdbscan {

enum class KmeansVariant { dplloyd, diffprivlib };
// Variant diffprivlib's budget split (see the header): as diffprivlib 0.6.6 draws it (its return values
// unpacked the other way round) or as it documents it.
enum class DiffprivlibSplit { as_run, as_documented };
// How T was chosen: `iterations`, the rule on n_public, the fixed default, or the rule on the true n.
enum class IterationRule { fixed, n_public, fixed_default, true_n };
const char* to_string(KmeansVariant v);
const char* to_string(IterationRule r);
const char* to_string(DiffprivlibSplit s);

inline constexpr std::int64_t kDefaultIterations = 5;
inline constexpr double kCountBound = 4294967296.0;  // 2^32

struct DpKmeansOptions {
  std::size_t k = 2;
  double epsilon = 1.0;
  KmeansVariant variant = KmeansVariant::dplloyd;
  std::int64_t iterations = 0;  // > 0 fixes T
  std::uint64_t n_public = 0;   // > 0: T by the rule on this public n, and N_bound of the sums (dplloyd)
  privacy::Sampler sampler = privacy::Sampler::secure;            // dplloyd; diffprivlib always uses its own samplers
  DiffprivlibSplit diffprivlib_split = DiffprivlibSplit::as_run;  // diffprivlib only
  RowMatrix initial_centers;  // k x d, inside the bounds; empty = the data-independent draw
};

struct DpKmeansResult {
  RowMatrix initial_centers;  // k x d
  RowMatrix centers;          // k x d, the release
  Labels labels;              // nearest final centre (evaluation only)
  std::int64_t iterations = 0;
  IterationRule iteration_rule = IterationRule::fixed;
  double epsilon_count = 0;  // per iteration, as drawn
  double epsilon_sum = 0;    // per iteration and (non-constant) dimension, as drawn
  // diffprivlib as_run: eps - T (eps_count + d' eps_sum), the budget its split leaves unspent (> 0, d' < 5)
  // or overspends (< 0, d' >= 5); 0 otherwise.
  double epsilon_unspent = 0;
  std::vector<double> sum_sensitivity;    // per dimension, as calibrated (0 for a constant dimension)
  std::vector<double> noisy_counts;       // the last iteration's released counts (k)
  RowMatrix noisy_sums;                   // the last iteration's released sums (k x d; dplloyd: centred)
  std::vector<std::string> privacy_gaps;  // diffprivlib: the gaps (a)-(c) that apply, one note each
  // Exact statistics of the true data (evaluation only):
  double inertia = 0;                       // of the final labels and centres, on the true points
  std::vector<std::int64_t> cluster_sizes;  // the last iteration's true counts
};

// eps_m = sqrt(500 k^3 / n^2 (d + cbrt(4 d rho^2))^3), rho = 0.225: the budget below which, by Su et al.'s
// error analysis of DPLloyd (as diffprivlib applies it), one iteration's noise outweighs what it improves;
// the iteration rule divides eps by it. n may be any positive real (a noisy count).
double dplloyd_min_epsilon(std::size_t k, double n, std::size_t d);
std::int64_t diffprivlib_iterations(double epsilon, std::size_t k, std::size_t n, std::size_t d);

// Nearest centre of every point (ties: the lowest index), the labels a run gives its points; returns the
// inertia. Post-processing of released centres: the Python DPKMeans.predict labels new points with it.
double assign_nearest(const double* x, std::size_t n, std::size_t d, const RowMatrix& centers, Labels& labels);

// The secure samplers' limits, checked before any noise is drawn. Variant dplloyd with
// the secure sampler draws, per iteration, discrete Laplace counts of scale 1 / eps_count
// (engine/privacy/samplers.hpp: scale <= 2^40) and snapping-Laplace sums (Mironov's Theorem 1 needs
// lambda < B < 2^46 lambda, and a grid Lambda <= B). With the budget split of dp_kmeans
//   eps_sum = eps / (T (d' + e0)),  eps_count = e0 eps_sum,  e0 = cbrt(4 d rho^2), rho = 0.225,
// d' the non-constant dimensions, and per dimension the sensitivity h_j = (hi_j - lo_j) / 2 and bound
// N h_j (N = n_public, else 2^32), the limits are, in the sampler's units (B = N when h_j is a power of
// two; otherwise B = N / (1 + 2^-50 N), the inflated unit of samplers.cpp):
//   counts  1 / eps_count <= 2^40                    <=>  eps >= T (d' + e0) / (e0 2^40)
//   sums    lambda = (1 + 2^-49 B) / eps_sum must be < B, and its grid Lambda = 2^ceil(log2 lambda) <= B
//           (else every release is 0), i.e. lambda <= 2^floor(log2 B) (strictly below B when B is itself a
//           power of two)                        <=>  eps >= T (d' + e0) (1 + 2^-49 B) / 2^floor(log2 B)
//           and B < 2^46 lambda                  <=>  eps <  T (d' + e0) 2^46 (1 + 2^-49 B) / B   (an upper limit)
// The sums bind: for d = 2, T = 5 and N = 2^32 (no n_public), B = 2^32 and the smallest epsilon is
// 13.70 (1 + 2^-17) / 2^32 = 3.19e-9, the counts allow 1.7e-11; the largest
// is 13.70 * 2^14 = 2.2e5. The closed forms ignore the samplers' upward roundings (a few ulps), so the
// check below applies the samplers' own conditions (secure_scales_supported) and finds the exact limits
// by bisection over the doubles. The textbook sampler and the diffprivlib variant have no such limit.
struct EpsilonLimits {
  double min_epsilon = 0;  // the smallest accepted epsilon (a double), 0 when there is no lower limit
  double max_epsilon = 0;  // the largest, +inf when there is no upper limit
};
// The budget split of dp_kmeans: per iteration and non-constant dimension (eps_sum) and for the counts.
void kmeans_budget_split(double epsilon, std::int64_t iterations, std::size_t d, std::size_t informative,
                         double& epsilon_sum, double& epsilon_count);
// diffprivlib's split as it runs (variant diffprivlib, as_run): the two shares of kmeans_budget_split
// exchanged, eps_count = eps / (T (d' + e0)), eps_sum = e0 eps / (T (d' + e0)).
void diffprivlib_budget_split_as_run(double epsilon, std::int64_t iterations, std::size_t d, std::size_t informative,
                                     double& epsilon_sum, double& epsilon_count);
// True when the secure samplers accept every noise scale of variant dplloyd at this epsilon.
bool secure_scales_supported(double epsilon, std::int64_t iterations, const Bounds& bounds, std::uint64_t n_public);
EpsilonLimits secure_epsilon_limits(std::int64_t iterations, const Bounds& bounds, std::uint64_t n_public);
// The number of iterations dp_kmeans will run without the data: `iterations`, the rule on n_public, or
// kDefaultIterations (dplloyd). Not defined for diffprivlib without n_public (the rule on the true n).
std::int64_t planned_iterations(const DpKmeansOptions& o, std::size_t d);
// Throws InputError("params.epsilon", ...) naming the limit and the fix when variant dplloyd with the secure
// sampler cannot draw its noise at o.epsilon on this domain; a no-op otherwise.
void check_secure_epsilon(const DpKmeansOptions& o, const Bounds& bounds);

// The exact centred sums of variant dplloyd (see "sums" above). K of the grid for a count bound N (an
// integer in [1, 2^52]): 53 - ceil(log2 N), so that N 2^K <= 2^53.
int sum_grid_bits(double count_bound);
// The grid spacing g_j = 2^(ceil(log2 h) - K) of a dimension of half-width h > 0.
double sum_grid_spacing(double half_width, double count_bound);
// counts[c] = the size of cluster c (labels in [0, k)); sums[c d + j] = the sum over its records of
// clamp(x_j, lo_j, hi_j) - (lo_j + hi_j) / 2 on the grid, exactly (0 for a constant dimension).
void centred_cluster_sums(const double* coords, std::size_t n, const Bounds& bounds, const Labels& labels,
                          std::size_t k, double count_bound, std::vector<double>& sums,
                          std::vector<std::int64_t>& counts);

// Throws InputError for unusable parameters. Every release is recorded in `ledger`.
DpKmeansResult dp_kmeans(const double* coords, std::size_t n, const Bounds& bounds, const DpKmeansOptions& options,
                         Rng& rng, BudgetLedger& ledger);

}  // namespace dpclust::dpdbscan
