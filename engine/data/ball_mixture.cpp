// Google's clustering demo data (ball_mixture.hpp: the steps and where they come from).
#include "data/ball_mixture.hpp"

#include <cmath>
#include <string>
#include <vector>

#include "core/rng.hpp"
#include "data/generator_support.hpp"

namespace dpclust {
namespace {

constexpr const char* kName = "ball_mixture";

double norm(const double* x, std::size_t d) {
  double s = 0.0;
  for (std::size_t j = 0; j < d; ++j) s += x[j] * x[j];
  return std::sqrt(s);
}

void check(const BallMixtureOptions& o) {
  check_common(kName, o.n_samples, 0);
  require(o.n_features >= 1, kName, "n_features must be at least 1", "set n_features, e.g. 100 (the demo's dim)");
  require(o.centers >= 1, kName, "centers must be at least 1", "set centers, e.g. 64 (the demo's num_clusters)");
  check_size(kName, o.centers, o.n_features, "centers");
  require(std::isfinite(o.radius) && o.radius > 0, kName, "radius must be a finite number > 0",
          "e.g. radius: 1 (the demo's)");
  require(std::isfinite(o.cluster_ratio) && o.cluster_ratio >= 1, kName,
          "cluster_ratio must be a finite number >= 1 (the centres lie within radius (1 - 1 / cluster_ratio))",
          "e.g. cluster_ratio: 8 (the demo's)");
}

}  // namespace

double ball_mixture_sd(const BallMixtureOptions& o) {
  const double spread = o.sd_rule == BallSdRule::code ? std::sqrt(o.radius) : o.radius;
  return spread / (o.cluster_ratio * std::sqrt(static_cast<double>(o.n_features)));
}

Dataset ball_mixture(const BallMixtureOptions& o) {
  check(o);
  const std::size_t n = o.n_samples, d = o.n_features, k = o.centers;
  Dataset ds = empty_dataset(kName, n, d);
  Rng rng(o.seed);

  // Step 2: the directions (all k x d normals first, as numpy draws size=(k, d)), then the k radii.
  const double centre_radius = o.radius * (1.0 - 1.0 / o.cluster_ratio);
  std::vector<double> centres(k * d);
  for (double& x : centres) x = rng.normal();
  for (std::size_t c = 0; c < k; ++c) {
    double* g = centres.data() + c * d;
    const double length = norm(g, d);
    const double r = centre_radius * std::pow(rng.uniform(), 1.0 / static_cast<double>(d));
    const double scale = length > 0 ? r / length : 0.0;
    for (std::size_t j = 0; j < d; ++j) g[j] *= scale;
  }

  // Step 3: n // k points per cluster, the remainder in the last one.
  const double sd = ball_mixture_sd(o);
  std::vector<std::size_t> counts(k, n / k);
  counts.back() += n % k;
  for (std::size_t c = 0; c < k; ++c)
    for (std::size_t i = 0; i < counts[c]; ++i) {
      for (std::size_t j = 0; j < d; ++j) ds.coords.push_back(sd * rng.normal() + centres[c * d + j]);
      ds.labels.push_back(static_cast<Label>(c));
    }

  // Step 4: clip to the ball of `radius`.
  std::size_t clipped = 0;
  for (std::size_t i = 0; i < n; ++i) {
    double* x = ds.coords.data() + i * d;
    const double length = norm(x, d);
    if (length <= o.radius) continue;
    ++clipped;
    const double scale = o.radius / length;
    for (std::size_t j = 0; j < d; ++j) x[j] *= scale;
  }
  if (o.shuffle) shuffle_rows(ds, rng);

  std::vector<std::vector<double>> centre_rows(k);
  for (std::size_t c = 0; c < k; ++c)
    centre_rows[c].assign(centres.begin() + static_cast<std::ptrdiff_t>(c * d),
                          centres.begin() + static_cast<std::ptrdiff_t>((c + 1) * d));
  ds.provenance["generator"] = {{"name", kName},
                                {"n_samples", n},
                                {"n_features", d},
                                {"centers", k},
                                {"cluster_ratio", o.cluster_ratio},
                                {"radius", o.radius},
                                {"sd_rule", o.sd_rule == BallSdRule::code ? "code" : "text"},
                                {"sd", sd},
                                {"centre_radius", centre_radius},
                                {"cluster_sizes", counts},
                                {"centre_coordinates", centre_rows},
                                {"points_clipped", clipped},
                                {"shuffle", o.shuffle},
                                {"seed", o.seed}};
  return ds;
}

}  // namespace dpclust
