// Google's clustering demo data (data/ball_mixture.hpp) against the demo's formulas (learning/clustering/demo/
// data_generation.py): centres uniform in the ball of radius radius (1 - 1/ratio), Gaussians of sd
// sqrt(radius) / (ratio sqrt(d)), n // k points a cluster with the remainder in the last, every point clipped to
// the ball of `radius`. Statistical checks run on fixed seeds.
#include "data/ball_mixture.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/error.hpp"

namespace dpclust::ball_mixture_test {
namespace {

double norm_of(const double* x, std::size_t d) {
  double s = 0;
  for (std::size_t j = 0; j < d; ++j) s += x[j] * x[j];
  return std::sqrt(s);
}

// sup |F_n - F| of a sample against a continuous CDF.
double ks_statistic(std::vector<double> x, double (*cdf)(double)) {
  std::sort(x.begin(), x.end());
  const double n = static_cast<double>(x.size());
  double D = 0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    const double F = cdf(x[i]);
    D = std::max({D, F - static_cast<double>(i) / n, static_cast<double>(i + 1) / n - F});
  }
  return D;
}

std::vector<std::vector<double>> centres_of(const Dataset& ds) {
  return ds.provenance["generator"]["centre_coordinates"].get<std::vector<std::vector<double>>>();
}

TEST(BallMixture, TheDemoDefaultsGiveItsPrintedSetting) {
  // The demo's flags: 100,000 points, 100-D, 64 clusters, cluster_ratio 8, radius 1: "Cluster centers drawn from:
  // Uniform over ball of radius=0.875", "N(cluster_center, 0.0125 * I)".
  const BallMixtureOptions o;
  EXPECT_EQ(o.n_samples, 100'000u);
  EXPECT_EQ(o.n_features, 100u);
  EXPECT_EQ(o.centers, 64u);
  EXPECT_DOUBLE_EQ(o.cluster_ratio, 8.0);
  EXPECT_DOUBLE_EQ(o.radius, 1.0);
  EXPECT_DOUBLE_EQ(ball_mixture_sd(o), 0.0125);
  // The two readings of the sd differ away from radius 1: the code takes sqrt(radius), the printed text radius.
  BallMixtureOptions r4 = o;
  r4.radius = 4;
  EXPECT_DOUBLE_EQ(ball_mixture_sd(r4), 2.0 / 80.0);
  r4.sd_rule = BallSdRule::text;
  EXPECT_DOUBLE_EQ(ball_mixture_sd(r4), 4.0 / 80.0);
}

TEST(BallMixture, ClusterSizesPutTheRemainderInTheLastCluster) {
  // data_generation_test.py's shape: 1003 points over 10 clusters -> 100 each and 103 in the last (make_blobs would
  // give the extra 3 to the first three).
  const Dataset ds =
      ball_mixture({.n_samples = 1003, .n_features = 10, .centers = 10, .cluster_ratio = 20, .radius = 3, .seed = 1});
  ASSERT_EQ(ds.n, 1003u);
  ASSERT_EQ(ds.d, 10u);
  std::vector<std::size_t> count(10, 0);
  for (Label l : ds.labels) ++count[static_cast<std::size_t>(l)];
  for (std::size_t c = 0; c < 9; ++c) EXPECT_EQ(count[c], 100u) << "cluster " << c;
  EXPECT_EQ(count[9], 103u);
  // Unshuffled: in cluster order, as the demo returns them.
  EXPECT_TRUE(std::is_sorted(ds.labels.begin(), ds.labels.end()));
  EXPECT_EQ(ds.provenance["generator"]["cluster_sizes"].back(), 103);
}

TEST(BallMixture, CentreNormsFollowTheUniformBall) {
  // |c| / r_c has CDF t^d in the uniform ball: (|c| / r_c)^d is uniform on [0, 1). 4,000 centres in 5-D, KS test at
  // the 1% level (critical value 1.63 / sqrt(4000) = 0.0258); the directions average to the origin.
  const std::size_t k = 4000, d = 5;
  const Dataset ds =
      ball_mixture({.n_samples = k, .n_features = d, .centers = k, .cluster_ratio = 4, .radius = 2, .seed = 7});
  const double r_c = 2.0 * (1 - 1.0 / 4);
  EXPECT_DOUBLE_EQ(ds.provenance["generator"]["centre_radius"].get<double>(), r_c);
  std::vector<double> u;
  std::vector<double> mean(d, 0.0);
  for (const auto& c : centres_of(ds)) {
    const double r = norm_of(c.data(), d);
    EXPECT_LE(r, r_c * (1 + 1e-15));
    u.push_back(std::pow(r / r_c, static_cast<double>(d)));
    for (std::size_t j = 0; j < d; ++j) mean[j] += c[j] / static_cast<double>(k);
  }
  EXPECT_LT(ks_statistic(u, [](double t) { return std::clamp(t, 0.0, 1.0); }), 1.63 / std::sqrt(4000.0));
  // Each coordinate of a uniform point in the ball of radius r_c has variance r_c^2 / (d + 2): the mean of 4,000 is
  // within 4 standard errors of 0.
  const double se = r_c / std::sqrt((d + 2.0) * static_cast<double>(k));
  for (std::size_t j = 0; j < d; ++j) EXPECT_LT(std::fabs(mean[j]), 4 * se) << "coordinate " << j;
}

TEST(BallMixture, PointsAreTheirCentrePlusGaussiansOfTheDemosSd) {
  // The demo's setting at 20,000 points: each coordinate's deviation from its centre is N(0, 0.0125^2) (no point
  // reaches the ball's edge when it lies within 0.875 + a few sd of the origin in most directions; the clipped ones
  // are left out). The sample sd of ~2e6 deviations is within 1% of 0.0125 and their mean within 4 standard errors
  // of 0.
  const Dataset ds =
      ball_mixture({.n_samples = 20'000, .n_features = 100, .centers = 64, .cluster_ratio = 8, .radius = 1, .seed = 3});
  const auto centres = centres_of(ds);
  double sum = 0, sum2 = 0;
  std::size_t count = 0;
  for (std::size_t i = 0; i < ds.n; ++i) {
    const double* x = ds.point(i);
    if (norm_of(x, ds.d) >= 1.0 - 1e-12) continue;  // clipped onto the sphere
    const auto& c = centres[static_cast<std::size_t>(ds.labels[i])];
    for (std::size_t j = 0; j < ds.d; ++j) {
      const double e = x[j] - c[j];
      sum += e;
      sum2 += e * e;
      ++count;
    }
  }
  ASSERT_GT(count, 1'000'000u);
  const double n = static_cast<double>(count), mean = sum / n, sd = std::sqrt(sum2 / n - mean * mean);
  EXPECT_NEAR(sd, 0.0125, 0.0125 * 0.01);
  EXPECT_LT(std::fabs(mean), 4 * 0.0125 / std::sqrt(n));
}

TEST(BallMixture, EveryPointIsClippedToTheBall) {
  // A large sd pushes many points out of the ball: they are scaled onto its sphere, direction kept; the others stay
  // where their Gaussian put them. cluster_ratio 1.5, radius 2 in 3-D: centres within 2/3, sd sqrt(2) / (1.5 sqrt 3).
  const BallMixtureOptions o{
      .n_samples = 5000, .n_features = 3, .centers = 4, .cluster_ratio = 1.5, .radius = 2, .seed = 11};
  const Dataset ds = ball_mixture(o);
  std::size_t on_sphere = 0;
  for (std::size_t i = 0; i < ds.n; ++i) {
    const double r = norm_of(ds.point(i), ds.d);
    EXPECT_LE(r, 2.0 * (1 + 1e-15));
    on_sphere += std::fabs(r - 2.0) < 1e-12;
  }
  const std::size_t clipped = ds.provenance["generator"]["points_clipped"].get<std::size_t>();
  EXPECT_EQ(on_sphere, clipped);
  EXPECT_GT(clipped, 50u);
  EXPECT_LT(clipped, ds.n / 2);
  // Deterministic in the seed.
  EXPECT_EQ(ball_mixture(o).coords, ds.coords);
  BallMixtureOptions other = o;
  other.seed = 12;
  EXPECT_NE(ball_mixture(other).coords, ds.coords);
}

TEST(BallMixture, ParametersOutsideTheirRangesAreRefused) {
  EXPECT_THROW(ball_mixture({.n_samples = 10, .n_features = 2, .centers = 2, .cluster_ratio = 0.5}), InputError);
  EXPECT_THROW(ball_mixture({.n_samples = 10, .n_features = 2, .centers = 2, .radius = 0}), InputError);
  EXPECT_THROW(ball_mixture({.n_samples = 0, .n_features = 2, .centers = 2}), InputError);
  EXPECT_THROW(ball_mixture({.n_samples = 10, .n_features = 2, .centers = 0}), InputError);
  // cluster_ratio 1: every centre at the origin.
  const Dataset ds = ball_mixture({.n_samples = 10, .n_features = 2, .centers = 2, .cluster_ratio = 1, .seed = 0});
  for (const auto& c : centres_of(ds)) EXPECT_EQ(norm_of(c.data(), 2), 0.0);
}

}  // namespace
}  // namespace dpclust::ball_mixture_test
