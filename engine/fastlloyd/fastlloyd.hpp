#pragma once
// FastLloyd: Diaa, Humphries & Kerschbaum, "FastLloyd: Federated, Accurate, Secure, and Tunable k-Means Clustering
// with Differential Privacy", USENIX Security 2025 (arXiv 2405.02437), the central-DP k-means at its core: Lloyd's
// iterations whose clusters are constrained to a radius around their centre and whose updates are released
// relative to the centre (the abstract's "radius constraint on clusters and relative updates"), with Laplace or
// analytic Gaussian noise. The federated protocol and its secure aggregation (the clients' masked sums, the
// computational-DP argument) are out of scope: one party holds the data, the noise is added centrally.
//
// The paper's text could not be read here (only its abstract); the steps below are named as the authors' code
// names them (D-Diaa/FastLloyd, read at commit a4f65f1; no code copied), with the file that implements each.
//
// Authors' code                                   here
// ----------------------------------------------- ------------------------------------------------------------------
// data_handler.normalize (each column by the      scale_to_domain (fastlloyd.cpp): each coordinate clamped into the
//   data's own min and max to [-1, 1])              PUBLIC bounds and mapped to [-1, 1] (a public per-record map)
// Params.init_centroids                           initial_centres (initial_centres.hpp), or public ones given
// Params.calculate_iters                          iteration_rule (noise_schedule.hpp) on N = a noisy count, n_public or
//                                                   (flagged) the true n; `iterations` > 0 fixes T
// Params.update_maxdist                           radius_of (noise_schedule.hpp)
// UnmaskedClient.step: nearest centre; a point    assign_and_sum (fastlloyd.cpp): NearestSearch (cluster/kmeans), the
//   farther than max_dist joins no cluster          radius test on the exact squared distance
// UnmaskedClient.step: sums "shifted to the       the offsets x - c rounded to the public grid and summed as integers
//   origin" (x - c), counts                         (offset_grid.hpp); without a radius the points themselves
// Server.dp_setup / randomize_masked              plan_iterations, build_mechanisms (fastlloyd.cpp): every mechanism
//                                                   built before the first draw, from the split (noise_schedule.hpp):
//                                                   Laplace -> privacy::CountMechanism::laplace (discrete Laplace or
//                                                   textbook); Gaussian -> privacy::GaussianBudget (discrete Gaussian
//                                                   through zCDP, or the analytic Gaussian's GDP composition)
// UnmaskedClient.update: c + S~ / N~, the move   update_centres (fastlloyd.cpp): the divisor max(N~, 1); the move
//   clipped to max_dist, then fold (or truncate)    clipped to r (`clip_moves`), then `post`
// local_proto's loop of T iterations              fastlloyd()
//
// Where this code departs from the authors' (each a `variant: authors` reading where it matters; docs/choices.md):
//   - public bounds, never the data's min and max; delta a public parameter (the authors: 1 / (n ln n) of the
//     true n); N of the iteration rule from `n_source` (the authors: the true n);
//   - every use of randomness has its own stream (core/cell_streams.hpp: the initial centres, the noisy N, and
//     per iteration the sums and the counts). variant authors seeds iteration i's sums AND counts with seed x i as
//     server.py does (iteration 0 draws the same noise for every seed, the counts' noise replays the sums'),
//     truncates the noise toward zero (sums onto 2^-16, counts to integers), counts an empty cluster as 1 with the
//     old centre as its sum, and divides by N~ + 1e-9: flagged non-private;
//   - the sums are exact integer sums on a public grid (offset_grid.hpp) with exact discrete noise by default
//     (`sampler: secure`); the Gaussian sigma then comes from zCDP, a few percent above the analytic sigma the
//     authors use (`sampler: textbook`, flagged);
//   - a noisy count N~ below 1 divides by 1 (the authors: by N~ + 1e-9, which can flip or blow up the move; the
//     move is clipped to r either way).
// Labels (evaluation only): each point's nearest released centre; inertia on the true points.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/dataset.hpp"
#include "core/ledger.hpp"
#include "core/rng.hpp"
#include "fastlloyd/noise_schedule.hpp"
#include "fastlloyd/offset_grid.hpp"
#include "privacy/mechanism.hpp"

namespace dpclust::fastlloyd {

enum class Post { fold, truncate, none };
inline constexpr Named<Post> kPosts[] = {{"fold", Post::fold}, {"truncate", Post::truncate}, {"none", Post::none}};
enum class Variant { fastlloyd, authors };
inline constexpr Named<Variant> kVariants[] = {{"fastlloyd", Variant::fastlloyd}, {"authors", Variant::authors}};
// Where N of the iteration rule comes from.
enum class SizeSource { noisy, public_n, data };
inline constexpr Named<SizeSource> kSizeSources[] = {
    {"noisy", SizeSource::noisy}, {"public", SizeSource::public_n}, {"data", SizeSource::data}};
inline const char* to_string(Post p) { return name_in(kPosts, p); }
inline const char* to_string(Variant v) { return name_in(kVariants, v); }
inline const char* to_string(SizeSource s) { return name_in(kSizeSources, s); }
// How T was chosen.
enum class IterationSource { fixed, noisy_n, public_n, true_n };
const char* to_string(IterationSource s);

inline constexpr double kDefaultSizeFraction = 0.05;  // of epsilon, for the noisy N (as EUGkM's)

struct FastLloydOptions {
  std::size_t k = 2;
  double epsilon = 1.0;
  double delta = 1e-6;  // Gaussian only (0 for Laplace)
  Noise noise = Noise::gaussian;
  RadiusRule radius_rule = RadiusRule::diagonal_then_frac;
  double alpha = kDefaultAlpha;
  double rho = kDefaultRho;
  Post post = Post::fold;
  bool clip_moves = true;
  std::int64_t iterations = 0;  // > 0 fixes T; 0 = the rule on N
  SizeSource n_source = SizeSource::noisy;
  double n_fraction = kDefaultSizeFraction;
  std::uint64_t n_public = 0;
  Variant variant = Variant::fastlloyd;
  privacy::Sampler sampler = privacy::Sampler::secure;
  RowMatrix initial_centres;  // k x d inside the bounds (public); empty = the data-independent draw
  // The evaluation's labels and inertia (a pass over the data after the release); false when nobody reads them
  // (Method::labels_needed): the labels are then all kNoise and the inertia NaN. The release is the same.
  bool labels = true;
};

// One iteration, as planned before the data are read: public.
struct IterationPlan {
  double radius = 0;              // r_i in the domain's units (+inf: no radius)
  double contribution_bound = 0;  // a record's contribution: L2 bound (Gaussian), per-coordinate bound (Laplace)
  OffsetGrid grid;                // the sums' grid and sensitivity (grid units)
  double sum_scale = 0;           // the sums' noise in the domain's units: Laplace b, Gaussian sigma (as calibrated)
  double count_scale = 0;         // the counts' noise: Laplace b, Gaussian sigma
  double epsilon_sum = 0, epsilon_count = 0;  // Laplace
  double share_sum = 0, share_count = 0;      // Gaussian: shares of the budget's precision
};

struct FastLloydResult {
  RowMatrix centres;          // k x d in the data's coordinates: the release
  RowMatrix initial_centres;  // k x d in the data's coordinates (data-independent)
  std::int64_t iterations = 0;
  IterationSource iteration_source = IterationSource::fixed;
  double noisy_n = 0;             // released when the rule ran on a noisy count (n_source: noisy)
  double epsilon_n = 0;           // its budget
  double epsilon_iterations = 0;  // what the iterations spend (epsilon - epsilon_n)
  double unit_sigma = 0;          // Gaussian: sigma0 of the iterations' (eps, delta)
  std::vector<IterationPlan> plan;
  std::vector<std::vector<double>> noisy_counts;  // per iteration, the released counts (k)
  std::vector<RowMatrix> trajectory;              // the centres in [-1, 1]^d before and after every iteration (T + 1)
  std::vector<std::string> non_private_notes;
  // Exact statistics of the true data (evaluation only):
  Labels labels;                         // nearest released centre
  double inertia = 0;                    // of the labels, on the true points
  std::vector<std::int64_t> unassigned;  // per iteration: points outside every radius (or the grid's norm cap)
  std::vector<std::vector<std::int64_t>> cluster_sizes;  // per iteration, the true counts of the sums
  std::size_t clamped_points = 0;                        // points with a coordinate moved into the bounds
};

// The checks that need no data (check_shape and fastlloyd()): InputError naming the parameter and the fix.
void check_options(const FastLloydOptions& o);

// The budget and the iterations' mechanisms' scales for T iterations in dimension d, without the ledger: what
// fastlloyd() will draw (throws InputError("params.epsilon", ...) when the exact samplers cannot). epsilon_iterations
// is what the iterations get (epsilon less the noisy N's share when there is one).
std::vector<IterationPlan> plan_iterations(const FastLloydOptions& o, std::size_t d, std::int64_t iterations,
                                           double epsilon_iterations);
// The budget the iterations get: epsilon, less n_fraction of it when the rule runs on a noisy count.
double iterations_epsilon(const FastLloydOptions& o);
// T when it does not depend on the data (iterations > 0, or the rule on n_public); 0 otherwise.
std::int64_t planned_iterations(const FastLloydOptions& o, std::size_t d);

// One trial. Throws InputError for unusable parameters; every noisy release is recorded in `ledger`.
FastLloydResult fastlloyd(const double* coords, std::size_t n, std::size_t d, const Bounds& bounds,
                          const FastLloydOptions& options, Rng& rng, BudgetLedger& ledger);

}  // namespace dpclust::fastlloyd
