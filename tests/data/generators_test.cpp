#include "data/generators.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>

#include "core/error.hpp"

namespace dpclust {
namespace {

std::size_t count_label(const Dataset& ds, Label l) {
  return static_cast<std::size_t>(std::count(ds.labels.begin(), ds.labels.end(), l));
}

void expect_shape(const Dataset& ds, std::size_t n, std::size_t d) {
  EXPECT_EQ(ds.n, n);
  EXPECT_EQ(ds.d, d);
  EXPECT_EQ(ds.coords.size(), n * d);
  EXPECT_EQ(ds.labels.size(), n);
  EXPECT_NO_THROW(ds.check_invariants());
}

TEST(Moons, ShapeAndSklearnSplit) {
  Dataset ds = make_moons(7, 0.1, 1);
  expect_shape(ds, 7, 2);
  EXPECT_EQ(count_label(ds, 0), 3u);  // n_out = 7 // 2
  EXPECT_EQ(count_label(ds, 1), 4u);
  EXPECT_EQ(ds.provenance["generator"]["name"], "make_moons");
  EXPECT_EQ(ds.provenance["generator"]["seed"], 1);
  EXPECT_EQ(ds.provenance["generator"]["noise"], 0.1);
}

TEST(Moons, NoiselessPointsLieOnTheHalfCircles) {
  Dataset ds = make_moons(MoonsOptions{.n_samples = 101, .noise = 0.0, .shuffle = true, .seed = 3});
  bool has_end_outer = false;
  for (std::size_t i = 0; i < ds.n; ++i) {
    const double x = ds.point(i)[0], y = ds.point(i)[1];
    if (ds.labels[i] == 0) {  // upper unit half circle
      EXPECT_NEAR(x * x + y * y, 1.0, 1e-14);
      EXPECT_GE(y, 0.0);
      has_end_outer |= (x == -1.0);
    } else {  // lower half circle centred at (1, 0.5)
      EXPECT_NEAR((x - 1) * (x - 1) + (y - 0.5) * (y - 0.5), 1.0, 1e-14);
      EXPECT_LE(y, 0.5 + 1e-15);
    }
  }
  EXPECT_TRUE(has_end_outer);  // linspace includes the endpoint pi
}

TEST(Moons, UnshuffledOrderIsSklearns) {
  Dataset ds = make_moons(MoonsOptions{.n_samples = 4, .noise = 0.0, .shuffle = false, .seed = 0});
  EXPECT_EQ(ds.labels, (Labels{0, 0, 1, 1}));
  EXPECT_DOUBLE_EQ(ds.point(0)[0], 1.0);   // cos(0)
  EXPECT_DOUBLE_EQ(ds.point(1)[0], -1.0);  // cos(pi)
  EXPECT_DOUBLE_EQ(ds.point(2)[0], 0.0);   // 1 - cos(0)
  EXPECT_DOUBLE_EQ(ds.point(2)[1], 0.5);   // 1 - sin(0) - 0.5
}

TEST(Moons, DeterministicInSeed) {
  Dataset a = make_moons(500, 0.05, 42), b = make_moons(500, 0.05, 42), c = make_moons(500, 0.05, 43);
  EXPECT_EQ(a.coords, b.coords);
  EXPECT_EQ(a.labels, b.labels);
  EXPECT_NE(a.coords, c.coords);
}

TEST(Circles, RadiiAndSplit) {
  Dataset ds = make_circles(CirclesOptions{.n_samples = 9, .noise = 0.0, .factor = 0.3, .shuffle = true, .seed = 5});
  expect_shape(ds, 9, 2);
  EXPECT_EQ(count_label(ds, 0), 4u);
  EXPECT_EQ(count_label(ds, 1), 5u);
  for (std::size_t i = 0; i < ds.n; ++i)
    EXPECT_NEAR(std::hypot(ds.point(i)[0], ds.point(i)[1]), ds.labels[i] == 0 ? 1.0 : 0.3, 1e-14);
}

TEST(Circles, NoDuplicatePointAtTwoPi) {
  Dataset ds = make_circles(CirclesOptions{.n_samples = 8, .noise = 0.0, .factor = 0.8, .shuffle = false, .seed = 0});
  // endpoint=False: 4 points per circle at angles 0, pi/2, pi, 3pi/2.
  EXPECT_DOUBLE_EQ(ds.point(0)[0], 1.0);
  EXPECT_NEAR(ds.point(1)[1], 1.0, 1e-15);
  EXPECT_NEAR(ds.point(3)[1], -1.0, 1e-15);
  EXPECT_DOUBLE_EQ(ds.point(4)[0], 0.8);
}

TEST(Circles, DeterminismAndFactorValidation) {
  EXPECT_EQ(make_circles(300, 0.05, 0.5, 9).coords, make_circles(300, 0.05, 0.5, 9).coords);
  EXPECT_NE(make_circles(300, 0.05, 0.5, 9).coords, make_circles(300, 0.05, 0.5, 10).coords);
  EXPECT_THROW(make_circles(10, 0.0, 1.0, 1), InputError);
  EXPECT_THROW(make_moons(10, -0.1, 1), InputError);
}

TEST(Blobs, SklearnSplitAndDimension) {
  Dataset ds = make_blobs(BlobsOptions{.n_samples = 11, .n_features = 5, .n_centers = 3});
  expect_shape(ds, 11, 5);
  EXPECT_EQ(count_label(ds, 0), 4u);
  EXPECT_EQ(count_label(ds, 1), 4u);
  EXPECT_EQ(count_label(ds, 2), 3u);
  const auto& centers = ds.provenance["generator"]["centers"];
  ASSERT_EQ(centers.size(), 3u);
  for (const auto& c : centers) {
    ASSERT_EQ(c.size(), 5u);
    for (double x : c) {
      EXPECT_GE(x, -10.0);
      EXPECT_LT(x, 10.0);
    }
  }
}

TEST(Blobs, SampleMeansNearGivenCenters) {
  const std::vector<std::vector<double>> centers = {{0, 0}, {10, -5}, {-20, 30}};
  Dataset ds =
      make_blobs(BlobsOptions{.n_samples = 30000, .centers = centers, .cluster_std = {0.5, 1.0, 2.0}, .seed = 7});
  expect_shape(ds, 30000, 2);
  std::vector<std::vector<double>> sum(3, std::vector<double>(2, 0.0));
  std::vector<double> sq(3, 0.0);
  for (std::size_t i = 0; i < ds.n; ++i) {
    const auto c = static_cast<std::size_t>(ds.labels[i]);
    for (std::size_t j = 0; j < 2; ++j) sum[c][j] += ds.point(i)[j];
  }
  const double sd[] = {0.5, 1.0, 2.0};
  for (std::size_t c = 0; c < 3; ++c) {
    EXPECT_EQ(count_label(ds, static_cast<Label>(c)), 10000u);
    for (std::size_t j = 0; j < 2; ++j)  // 5 standard errors of the mean
      EXPECT_NEAR(sum[c][j] / 10000.0, centers[c][j], 5 * sd[c] / 100.0);
  }
  for (std::size_t i = 0; i < ds.n; ++i) {
    const auto c = static_cast<std::size_t>(ds.labels[i]);
    const double dx = ds.point(i)[0] - centers[c][0];
    sq[c] += dx * dx;
  }
  for (std::size_t c = 0; c < 3; ++c) EXPECT_NEAR(std::sqrt(sq[c] / 10000.0), sd[c], 0.05 * sd[c]);
}

TEST(Blobs, DeterministicAndValidated) {
  BlobsOptions o{.n_samples = 200, .n_centers = 4, .seed = 11};
  EXPECT_EQ(make_blobs(o).coords, make_blobs(o).coords);
  BlobsOptions other = o;
  other.seed = 12;
  EXPECT_NE(make_blobs(o).coords, make_blobs(other).coords);
  BlobsOptions bad = o;
  bad.cluster_std = {1.0, 2.0};  // 2 values for 4 centers
  EXPECT_THROW(make_blobs(bad), InputError);
}

// Both streams draw the centres by one rule (data/blobs.hpp): a box must be finite with low <= high, and
// so wide that high - low overflows is not finite either (the dpclust stream drew infinite centres from
// it; the numpy stream took a reversed box, whose draws numpy leaves undefined).
TEST(Blobs, BothStreamsRefuseTheSameCenterBoxes) {
  for (const RandomStream stream : {RandomStream::dpclust, RandomStream::numpy}) {
    BlobsOptions o{.n_samples = 50, .n_centers = 2, .seed = 3, .stream = stream};
    o.center_box = {-1e308, 1e308};
    EXPECT_THROW(make_blobs(o), InputError);
    o.center_box = {5, 1};
    EXPECT_THROW(make_blobs(o), InputError);
    o.center_box = {1, 1};  // a single point: every centre there
    const Dataset ds = make_blobs(o);
    EXPECT_EQ(ds.provenance["generator"]["centers"], nlohmann::json::parse("[[1, 1], [1, 1]]"));
  }
}

TEST(GaussianMixture, WeightsCovarianceAndLabels) {
  GaussianMixtureOptions o;
  o.n_samples = 40000;
  o.means = {{0, 0}, {5, 5}};
  o.covariances = {{1.0, 0.8, 0.8, 1.0}, {0.25, 0.0, 0.0, 0.25}};
  o.weights = {3, 1};
  o.seed = 2;
  Dataset ds = gaussian_mixture(o);
  expect_shape(ds, 40000, 2);
  EXPECT_NEAR(static_cast<double>(count_label(ds, 0)) / 40000.0, 0.75, 0.01);
  double sxy = 0, sxx = 0, syy = 0;
  std::size_t n0 = 0;
  for (std::size_t i = 0; i < ds.n; ++i) {
    if (ds.labels[i] != 0) continue;
    const double x = ds.point(i)[0], y = ds.point(i)[1];
    sxy += x * y;
    sxx += x * x;
    syy += y * y;
    ++n0;
  }
  EXPECT_NEAR(sxy / std::sqrt(sxx * syy), 0.8, 0.02);  // correlation of component 0
  EXPECT_EQ(gaussian_mixture(o).coords, ds.coords);
  o.covariances = {{1.0, 2.0, 2.0, 1.0}, {1, 0, 0, 1}};  // not positive definite
  EXPECT_THROW(gaussian_mixture(o), InputError);
}

TEST(GaussianMixture, PerComponentSd) {
  GaussianMixtureOptions o{.n_samples = 1000, .means = {{0}, {100}}, .sd = {0.0, 1.0}, .seed = 4};
  Dataset ds = gaussian_mixture(o);
  expect_shape(ds, 1000, 1);
  for (std::size_t i = 0; i < ds.n; ++i)
    if (ds.labels[i] == 0) {
      EXPECT_EQ(ds.point(i)[0], 0.0);
    }
}

TEST(Spirals, ArmsSplitAndRadius) {
  Dataset ds = spirals(SpiralsOptions{.n_samples = 301, .n_arms = 3, .noise = 0.0, .turns = 1.5, .seed = 8});
  expect_shape(ds, 301, 2);
  EXPECT_EQ(count_label(ds, 0), 101u);
  EXPECT_EQ(count_label(ds, 1), 100u);
  EXPECT_EQ(count_label(ds, 2), 100u);
  for (std::size_t i = 0; i < ds.n; ++i) EXPECT_LT(std::hypot(ds.point(i)[0], ds.point(i)[1]), 1.0);
  EXPECT_NE(ds.coords, spirals(SpiralsOptions{.n_samples = 301, .n_arms = 3, .turns = 1.5, .seed = 9}).coords);
}

TEST(UniformNoise, InsideBoundsAllNoise) {
  Bounds b{{-1, 10}, {1, 20}};
  Dataset ds = uniform_noise(1000, b, 3);
  expect_shape(ds, 1000, 2);
  EXPECT_EQ(count_label(ds, kNoise), 1000u);
  for (std::size_t i = 0; i < ds.n; ++i) EXPECT_TRUE(b.contains(ds.point(i)));
  EXPECT_EQ(uniform_noise(1000, b, 3).coords, ds.coords);
  EXPECT_THROW(uniform_noise(10, Bounds{}, 1), InputError);
}

}  // namespace
}  // namespace dpclust

namespace dpclust {
namespace {

// Regression: n_samples 1e11 or centers 1e9 passed validation and then exhausted memory; the
// generators now refuse them (InputError naming the parameter) before allocating.
template <class F>
void expect_size_error(F&& f, const std::string& needle) {
  try {
    f();
    ADD_FAILURE() << "expected InputError naming " << needle;
  } catch (const InputError& e) {
    EXPECT_NE(std::string(e.what()).find(needle), std::string::npos) << e.what();
  }
}

TEST(GeneratorSizeCaps, HugeSizesAreRefusedBeforeAllocating) {
  const std::size_t huge = 100'000'000'000;  // 1e11
  expect_size_error([&] { make_moons(huge, 0.0, 1); }, "n_samples");
  for (RandomStream st : {RandomStream::dpclust, RandomStream::numpy}) {
    MoonsOptions mo;
    mo.n_samples = huge;
    mo.stream = st;
    expect_size_error([&] { make_moons(mo); }, "n_samples");
    CirclesOptions co;
    co.n_samples = huge;
    co.stream = st;
    expect_size_error([&] { make_circles(co); }, "n_samples");
    BlobsOptions bo;
    bo.n_samples = 100;
    bo.n_centers = 1'000'000'000;
    bo.n_features = 1000;
    bo.stream = st;
    expect_size_error([&] { make_blobs(bo); }, "centers");
    bo.n_centers = 3;
    bo.n_samples = 10'000'000;  // 1e7 x 1000 = 1e10 coordinates
    expect_size_error([&] { make_blobs(bo); }, "n_features");
  }
  Bounds b;
  b.lo.assign(1000, 0.0);
  b.hi.assign(1000, 1.0);
  expect_size_error([&] { uniform_noise(10'000'000, b, 1); }, "n_features");
  // The sizes at the caps' scale that fit still work.
  EXPECT_EQ(make_moons(1000, 0.0, 1).n, 1000u);
}

}  // namespace
}  // namespace dpclust
