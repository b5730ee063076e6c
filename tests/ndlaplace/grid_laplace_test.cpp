// The secure (discretised, exactly sampled) nD-Laplace of ndlaplace/grid_laplace.hpp.
#include "ndlaplace/grid_laplace.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <map>
#include <vector>

#include "core/rng.hpp"
#include "ndlaplace/mechanism.hpp"

namespace dpclust::ndlaplace {
namespace {

// |observed - expected| within z binomial standard deviations.
void expect_frequency(std::size_t hits, std::size_t n, double p, double z, const std::string& what) {
  const double nd = static_cast<double>(n);
  const double sd = std::sqrt(nd * p * (1 - p));
  EXPECT_NEAR(static_cast<double>(hits), nd * p, z * sd + 1.0) << what;
}

// Bernoulli(exp(-T)) with an irrational T = eps ||a - b|| - l1 / t + c, through the double-precision
// pre-check and through the exact (big rational) path alone.
TEST(GridLaplace, BernoulliExpMinusDistanceIsExact) {
  struct Case {
    double eps;
    std::vector<double> a, b;
    std::uint64_t l1, t;
    double c;
  };
  const std::vector<Case> cases = {
      {0.7, {1.0, 0.0}, {0.0, 1.0}, 0, 1, 0.0},              // T = 0.7 sqrt(2) ~ 0.99
      {1.3, {0.25, 2.0, -1.0}, {0.0, 0.5, 0.0}, 3, 7, 0.1},  // T ~ 1.3 * 1.82 - 3/7 + 0.1 ~ 2.04
      {0.05, {3.0}, {0.0}, 0, 1, 0.0},                       // T = 0.15, a one-dimensional distance
      {2.0, {0.0, 0.0}, {0.0, 0.0}, 0, 1, 0.3},              // T = c: zero distance
  };
  for (const Case& k : cases) {
    double dist2 = 0;
    for (std::size_t j = 0; j < k.a.size(); ++j) dist2 += (k.a[j] - k.b[j]) * (k.a[j] - k.b[j]);
    const double T = k.eps * std::sqrt(dist2) - static_cast<double>(k.l1) / static_cast<double>(k.t) + k.c;
    for (bool fast : {true, false}) {
      const std::size_t n = fast ? 200000 : 20000;
      Rng rng(fast ? 17 : 18);
      std::size_t hits = 0;
      for (std::size_t i = 0; i < n; ++i)
        hits +=
            bernoulli_exp_minus_distance(rng, k.eps, k.a.data(), k.b.data(), k.a.size(), k.l1, k.t, k.c, fast) ? 1 : 0;
      expect_frequency(hits, n, std::exp(-T), 5.0, "T = " + std::to_string(T) + (fast ? " fast" : " exact"));
    }
  }
  // A negative exponent means a violated proposal bound: an error, never a clamped probability.
  const double a[] = {0.0}, b[] = {0.0};
  Rng rng(1);
  EXPECT_THROW(bernoulli_exp_minus_distance(rng, 1.0, a, b, 1, 5, 1, 0.0), std::logic_error);
  EXPECT_THROW(bernoulli_exp_minus_distance(rng, 1.0, a, b, 1, 5, 1, 0.0, false), std::logic_error);
}

// The whole sampler against its formula: P[g | x] proportional to exp(-e ||g - x||) over the grid
// points of the box (truncation resample), by a chi-square test, in 2 and 3 dimensions.
TEST(GridLaplace, TruncatedDistributionMatchesTheFormula) {
  struct Case {
    std::size_t d;
    double eps, u;
    std::vector<double> x;
  };
  for (const Case& k :
       {Case{2, 2.0, 0.25, {0.3, 0.55}}, Case{3, 1.5, 0.5, {0.1, 0.8, 0.45}}, Case{1, 0.8, 0.2, {0.93}}}) {
    const std::size_t d = k.d;
    const Bounds box{std::vector<double>(d, 0.0), std::vector<double>(d, 1.0)};
    const auto per_axis = static_cast<std::size_t>(std::llround(1.0 / k.u)) + 1;
    // Expected probabilities over every grid point of the box.
    std::map<std::vector<std::int64_t>, double> expected;
    double total = 0;
    std::vector<std::int64_t> idx(d, 0);
    for (;;) {
      double s = 0;
      for (std::size_t j = 0; j < d; ++j) s += std::pow(k.u * static_cast<double>(idx[j]) - k.x[j], 2);
      const double w = std::exp(-k.eps * std::sqrt(s));
      expected[idx] = w;
      total += w;
      std::size_t j = 0;
      while (j < d && ++idx[j] == static_cast<std::int64_t>(per_axis)) idx[j++] = 0;
      if (j == d) break;
    }
    PerturbOptions o;
    o.sampler = privacy::Sampler::secure;
    o.eps = k.eps;
    o.grid_step = k.u;
    o.truncation = Truncation::resample;
    const std::size_t n = 60000;
    std::vector<double> xs;
    for (std::size_t i = 0; i < n; ++i) xs.insert(xs.end(), k.x.begin(), k.x.end());
    Rng rng(2024 + d);
    PerturbStats st;
    const std::vector<double> z = perturb(xs.data(), n, d, box, o, rng, &st);
    std::map<std::vector<std::int64_t>, std::size_t> seen;
    for (std::size_t i = 0; i < n; ++i) {
      std::vector<std::int64_t> g(d);
      for (std::size_t j = 0; j < d; ++j) {
        const double q = z[i * d + j] / k.u;
        g[j] = std::llround(q);
        ASSERT_EQ(z[i * d + j], k.u * static_cast<double>(g[j])) << "not a grid point";  // on the grid, exactly
      }
      ASSERT_TRUE(expected.count(g)) << "outside the box";
      ++seen[g];
    }
    double chi2 = 0;
    for (const auto& [g, w] : expected) {
      const double e = static_cast<double>(n) * w / total;
      const double o2 = static_cast<double>(seen.count(g) ? seen[g] : 0);
      chi2 += (o2 - e) * (o2 - e) / e;
    }
    // Upper 0.001 quantile of chi^2 with m - 1 degrees of freedom (Wilson-Hilferty).
    const double m = static_cast<double>(expected.size()) - 1;
    const double z001 = 3.09;
    const double crit = m * std::pow(1 - 2 / (9 * m) + z001 * std::sqrt(2 / (9 * m)), 3);
    EXPECT_LT(chi2, crit) << "d = " << d << ", " << expected.size() << " grid points";
    EXPECT_GE(st.draws, n);
  }
}

// Without truncation (1-D, unbounded grid): the frequencies of the central grid points follow
// exp(-e |g - x|) / sum over all of Z (the normaliser summed to convergence).
TEST(GridLaplace, UntruncatedDistributionMatchesTheFormula) {
  const double eps = 1.1, u = 0.3, x = 0.47;
  GridLaplaceSampler s(1, eps, {0.0}, u);
  double Z = 0;
  for (std::int64_t k = -2000; k <= 2000; ++k) Z += std::exp(-eps * std::fabs(u * static_cast<double>(k) - x));
  const std::size_t n = 100000;
  Rng rng(5);
  std::map<std::int64_t, std::size_t> seen;
  for (std::size_t i = 0; i < n; ++i) {
    double z;
    s.draw(&x, rng, &z);
    ++seen[std::llround(z / u)];
  }
  for (std::int64_t k = -3; k <= 6; ++k) {
    const double p = std::exp(-eps * std::fabs(u * static_cast<double>(k) - x)) / Z;
    expect_frequency(seen[k], n, p, 5.0, "grid index " + std::to_string(k));
  }
}

// The release is a function of the grid alone: inputs one ulp apart share every possible output, and
// an output never carries the input's low-order bits.
TEST(GridLaplace, OutputsAreGridPointsWhateverTheInput) {
  const double eps = 0.9;
  const std::vector<double> lo = {-3.0, 2.0};
  const double u = auto_grid_step(eps, lo, {5.0, 4.0});
  EXPECT_DOUBLE_EQ(u, 2.0 / 1000.0);  // min(1/(100 eps), narrowest side / 1000)
  GridLaplaceSampler s(2, eps, lo, u);
  Rng rng(9);
  for (double x0 : {0.1, std::nextafter(0.1, 1.0), 1.0 / 3.0}) {
    const double x[] = {x0, 3.0 + x0};
    for (int i = 0; i < 2000; ++i) {
      double z[2];
      s.draw(x, rng, z);
      for (std::size_t j = 0; j < 2; ++j) {
        const auto k = std::llround((z[j] - lo[j]) / u);
        EXPECT_EQ(z[j], s.coordinate(j, k));
      }
    }
  }
  // The grid must be resolvable by doubles.
  EXPECT_GT(finest_grid_step(1e6), 0.0);
  const GridLaplaceSampler fine(2, 1e3, {0.0, 0.0}, 1e-10);  // 1e-10 < 2^-40 * 2e6
  const std::vector<double> far = {1e6, 1e6};
  std::vector<double> out(2);
  EXPECT_THROW(fine.draw(far.data(), rng, out.data()), std::invalid_argument);
  // Too fine against the noise scale: sqrt(d) / (e u) >= 2^40.
  EXPECT_THROW(GridLaplaceSampler(2, 1.0, {0.0, 0.0}, 1e-20), std::invalid_argument);
}

// The cost model's expected proposals per draw against the sampler's own count (fixed seed): the L1
// envelope of the L2 target accepts pi/4 at d = 2 and falls like (pi e / (2 d))^(d/2), which is why
// 60 columns never finished (10^7 proposals a point) while 22 took a second.
TEST(GridLaplace, ExpectedProposalsMatchTheSamplersCount) {
  const double eps = 0.8;
  for (std::size_t d : {1u, 2u, 5u, 8u}) {
    const double u = auto_grid_step(eps, {}, {});
    GridLaplaceSampler s(d, eps, std::vector<double>(d, 0.0), u);
    Rng rng(11 + d);
    std::vector<double> x(d, 0.37), z(d);
    std::uint64_t proposals = 0;
    const std::size_t draws = 4000;
    for (std::size_t i = 0; i < draws; ++i) s.draw(x.data(), rng, z.data(), &proposals);
    const double mean = static_cast<double>(proposals) / static_cast<double>(draws);
    const double expected = expected_proposals(d, eps, u);
    // Geometric number of proposals: sd of the mean sqrt(expected (expected - 1) / draws); 5 sd.
    const double sd = std::sqrt(expected * (expected - 1) / static_cast<double>(draws));
    EXPECT_NEAR(mean, expected, 5 * sd + 0.02 * expected) << "d = " << d;
  }
  EXPECT_NEAR(expected_proposals(2, 1.0, 0.01), 4 / M_PI, 0.02);
  EXPECT_GT(expected_proposals(60, 1.0, 0.01), 5e6);
  EXPECT_LT(expected_proposals(60, 1.0, 0.01), 5e7);
  EXPECT_GT(expected_proposals(262, 1.0, 0.01), 1e30);
  // The largest dimension within a budget of proposals is monotone and consistent with the estimate.
  const std::size_t d = largest_dimension_within(1e4);
  EXPECT_LE(expected_proposals(d, 1.0, 0.01), 1e4);
  EXPECT_GT(expected_proposals(d + 1, 1.0, 0.01), 1e4);
  EXPECT_GE(d, 25u);
  EXPECT_LE(d, 40u);
}

}  // namespace
}  // namespace dpclust::ndlaplace
