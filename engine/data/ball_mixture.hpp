#pragma once
// The synthetic data of Google's DP clustering demo (google/differential-privacy, learning/clustering/demo,
// data_generation.py generate_synthetic_dataset, read at commit 8f867aee): a mixture of isotropic Gaussians whose
// centres are uniform in a ball, every point clipped to a larger ball. The steps, in the demo's order:
//   1. centre radius r_c = radius (1 - 1 / cluster_ratio);
//   2. the centres (sample_uniform_sphere): k x d standard normals (row-major, all drawn first), then k uniforms
//      u_c on [0, 1); centre c = g_c / |g_c| x r_c u_c^(1/d) -- uniform in the L2 ball of radius r_c, since
//      P(|c| <= t) = (t / r_c)^d;
//   3. the points: n x d normals N(0, s^2), s = sqrt(radius) / (cluster_ratio sqrt(d)) as the code computes it
//      (sd_rule: code; the demo's printed description says radius / cluster_ratio / sqrt(d): sd_rule: text; the two
//      agree at radius 1, the demo's value); cluster c gets n // k points in cluster order, the LAST cluster also
//      the n % k left over (make_blobs gives them to the first ones instead); point = its centre + its normal;
//   4. every point of norm above `radius` scaled onto that sphere (clustering_params.Data.clip_by_radius:
//      x radius / max(|x|, radius)), so that every point lies in the ball and is the data the demo clusters;
//   5. labels = the cluster index; the rows stay in cluster order unless `shuffle`.
// The demo's flag defaults (what it runs; the README's "Synthetic" benchmark): n 100,000, d 100, k 64,
// cluster_ratio 8, radius 1 -> centres within 0.875 of the origin, s = 0.0125 per coordinate. The function's own
// defaults (1,000,000 points, cluster_ratio 100) are not what the demo or the README used.
// The demo draws from numpy's global generator without seeding it; here the draws come from dpclust's stream
// (core/rng.hpp), so the points have the demo's distribution, not numpy's values. provenance["generator"] records
// every parameter, the centres and the number of points clipped.
#include <cstddef>
#include <cstdint>

#include "core/dataset.hpp"

namespace dpclust {

// Which reading of the per-coordinate sd (step 3 above).
enum class BallSdRule { code, text };

struct BallMixtureOptions {
  std::size_t n_samples = 100'000;
  std::size_t n_features = 100;
  std::size_t centers = 64;
  double cluster_ratio = 8.0;  // >= 1: the centre radius radius (1 - 1/ratio) is >= 0
  double radius = 1.0;         // > 0
  BallSdRule sd_rule = BallSdRule::code;
  bool shuffle = false;
  std::uint64_t seed = 0;
};

// The per-coordinate sd of the Gaussians under the rule.
double ball_mixture_sd(const BallMixtureOptions& options);

// Throws InputError (generator "ball_mixture") for parameters outside their ranges.
Dataset ball_mixture(const BallMixtureOptions& options);

}  // namespace dpclust
