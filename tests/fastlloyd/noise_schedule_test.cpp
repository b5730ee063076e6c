// FastLloyd's public rules against the authors' code: the radius of every iteration, the number of iterations, and
// the noise scales of the sums and counts that their server.py (dp_setup, with diffprivlib 0.6.6's GaussianAnalytic
// and Laplace) computes for the same k, d, n, eps and delta = 1 / (n ln n). The authors' values quoted below were
// printed by their Params and Server classes; dpclust's sampler: textbook calibrates the same continuous noise.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "core/error.hpp"
#include "fastlloyd/fastlloyd.hpp"
#include "fastlloyd/noise_schedule.hpp"
#include "privacy/gaussian_budget.hpp"

namespace dpclust::fastlloyd {
namespace {

double authors_delta(double n) { return 1.0 / (n * std::log(n)); }

FastLloydOptions public_n(Noise noise, RadiusRule rule, std::size_t k, double n, double epsilon) {
  FastLloydOptions o;
  o.k = k;
  o.epsilon = epsilon;
  o.noise = noise;
  o.delta = noise == Noise::gaussian ? authors_delta(n) : 0.0;
  o.radius_rule = rule;
  o.n_source = SizeSource::public_n;
  o.n_public = static_cast<std::uint64_t>(n);
  o.sampler = privacy::Sampler::textbook;
  return o;
}

TEST(FastLloydRadius, UpdateMaxdistByHand) {
  // d = 2, k = 5, alpha 0.8: D = 2 sqrt 2, frac = 0.8 / (2 sqrt 5) = 0.178885; r_0 = sqrt 2, r_i = D frac = 0.505964
  // (the authors' max_dist on their 2,000-point blobs: 1.4142135623730951, then 0.5059644256269408).
  EXPECT_DOUBLE_EQ(radius_of(RadiusRule::diagonal_then_frac, Noise::gaussian, 0, 0.8, 5, 2), std::sqrt(2.0));
  EXPECT_NEAR(radius_of(RadiusRule::diagonal_then_frac, Noise::gaussian, 1, 0.8, 5, 2), 0.5059644256269408, 1e-15);
  EXPECT_NEAR(radius_of(RadiusRule::diagonal_then_frac, Noise::gaussian, 6, 0.8, 5, 2), 0.5059644256269408, 1e-15);
  EXPECT_NEAR(radius_of(RadiusRule::frac_stay, Noise::gaussian, 0, 0.8, 5, 2), 0.5059644256269408, 1e-15);
  EXPECT_TRUE(std::isinf(radius_of(RadiusRule::none, Noise::gaussian, 0, 0.8, 5, 2)));
  // synth_10d (d = 10, k = 64): sqrt 10, then 2 sqrt 10 0.8 / (2 64^0.1) = 1.6690601554610298 (the authors' values).
  EXPECT_DOUBLE_EQ(radius_of(RadiusRule::diagonal_then_frac, Noise::gaussian, 0, 0.8, 64, 10), std::sqrt(10.0));
  EXPECT_NEAR(radius_of(RadiusRule::diagonal_then_frac, Noise::gaussian, 1, 0.8, 64, 10), 1.6690601554610298, 1e-14);
  // A radius at or above the "original sensitivity" becomes the diagonal: d = 1, Laplace (original d = 1): r_0 =
  // D / 2 = 1 -> D = 2; the Gaussian's original is D itself, so r_0 = 1 stays. alpha 10 makes D frac >= D.
  EXPECT_DOUBLE_EQ(radius_of(RadiusRule::diagonal_then_frac, Noise::laplace, 0, 0.8, 2, 1), 2.0);
  EXPECT_DOUBLE_EQ(radius_of(RadiusRule::diagonal_then_frac, Noise::gaussian, 0, 0.8, 2, 1), 1.0);
  EXPECT_DOUBLE_EQ(radius_of(RadiusRule::frac_stay, Noise::gaussian, 0, 10.0, 2, 1), 2.0);
}

TEST(FastLloydIterations, CalculateItersAsTheAuthorsCode) {
  // The authors' calculate_iters (delta = 1 / (n ln n), alpha 0.8, rho 0.225) on the same inputs:
  //   Gaussian, radius:  n 2000 d 2 k 5 eps 1 -> 7; n 5000 d 2 k 15 eps 0.75 -> 4; n 1000 d 2 k 5 eps 1 -> 3;
  //                      n 100000 d 10 k 64 eps 1 -> 2 (synth_10d); n 1797 d 64 k 10 eps 1 -> 2 (digits)
  //   Gaussian, none:    n 2000 d 2 k 5 eps 1 -> 2
  //   Laplace, none:     n 2000 d 2 k 5 eps 1 -> 2; n 4000 -> 3; n 100000 d 2 k 15 eps 0.5 -> 7
  struct Case {
    Noise noise;
    RadiusRule rule;
    double n;
    std::size_t d, k;
    double eps;
    std::int64_t t;
  };
  const Case cases[] = {
      {Noise::gaussian, RadiusRule::diagonal_then_frac, 2000, 2, 5, 1, 7},
      {Noise::gaussian, RadiusRule::diagonal_then_frac, 5000, 2, 15, 0.75, 4},
      {Noise::gaussian, RadiusRule::diagonal_then_frac, 1000, 2, 5, 1, 3},
      {Noise::gaussian, RadiusRule::diagonal_then_frac, 1e5, 10, 64, 1, 2},
      {Noise::gaussian, RadiusRule::diagonal_then_frac, 1797, 64, 10, 1, 2},
      {Noise::gaussian, RadiusRule::none, 2000, 2, 5, 1, 2},
      {Noise::laplace, RadiusRule::none, 2000, 2, 5, 1, 2},
      {Noise::laplace, RadiusRule::none, 4000, 2, 5, 1, 3},
      {Noise::laplace, RadiusRule::none, 1e5, 2, 15, 0.5, 7},
  };
  for (const Case& c : cases) {
    const double sigma0 =
        privacy::GaussianBudget::unit_sigma_for(privacy::Sampler::textbook, c.eps, authors_delta(c.n));
    EXPECT_EQ(iteration_rule(c.noise, c.rule, c.eps, sigma0, c.n, c.k, c.d, 0.8, 0.225), c.t)
        << c.n << " " << c.d << " " << c.k;
    EXPECT_EQ(planned_iterations(public_n(c.noise, c.rule, c.k, c.n, c.eps), c.d), c.t);
  }
  // diffprivlib's GaussianAnalytic(eps, 1 / (n ln n), 1)._scale, the sigma0 of the rule: 4.585429002841397 (n 5000,
  // eps 0.75) and 3.0924589339344277 (n 1000, eps 1).
  EXPECT_NEAR(privacy::GaussianBudget::unit_sigma_for(privacy::Sampler::textbook, 0.75, authors_delta(5000)),
              4.585429002841397, 1e-9);
  EXPECT_NEAR(privacy::GaussianBudget::unit_sigma_for(privacy::Sampler::textbook, 1.0, authors_delta(1000)),
              3.0924589339344277, 1e-9);
  // No data: N below 1 is 1 (the floor), and an infinite sigma gives the floor too.
  EXPECT_EQ(iteration_rule(Noise::gaussian, RadiusRule::diagonal_then_frac, 1, 3, -5, 5, 2, 0.8, 0.225),
            kMinIterations);
  EXPECT_EQ(iteration_rule(Noise::gaussian, RadiusRule::none, 1, std::numeric_limits<double>::infinity(), 1e9, 5, 2,
                           0.8, 0.225),
            kMinIterations);
}

TEST(FastLloydSplit, SharesAddUpToTheBudget) {
  // Laplace: eps / T per iteration, d : cbrt(4 d rho^2) between the sums and the counts. The authors' split for
  // eps 1, T 2, d 2: (0.3649816698397768, 0.13501833016022322).
  const LaplaceSplit l = laplace_split(1.0, 2, 2, 0.225);
  EXPECT_NEAR(l.sum, 0.3649816698397768, 1e-15);
  EXPECT_NEAR(l.count, 0.13501833016022322, 1e-15);
  EXPECT_NEAR(2 * (l.sum + l.count), 1.0, 1e-15);
  for (RadiusRule rule : {RadiusRule::diagonal_then_frac, RadiusRule::none})
    for (std::size_t d : {1u, 2u, 10u, 64u}) {
      const GaussianShares s = gaussian_shares(rule, 7, d, 0.225);
      EXPECT_NEAR(7 * (s.sum + s.count), 1.0, 1e-15);
      // With a radius, the sums get sqrt(4d) times the counts' share (the authors' sum_scale / count_scale).
      if (rule != RadiusRule::none) {
        EXPECT_NEAR(s.sum / s.count, std::sqrt(4.0 * static_cast<double>(d)), 1e-12);
      }
    }
}

// Each iteration's noise in [-1, 1]^d as the authors' Server.dp_setup sets it (sum_sigma / count_sigma, or the
// Laplace b of sums and counts), against plan_iterations' scales for the textbook sampler. The plan's sum scale
// includes the public grid's rounding share (offset_grid.hpp), which the comparison takes out.
void expect_authors_scales(const FastLloydOptions& o, std::size_t d, std::int64_t t, const double (&sums)[2],
                           double count) {
  ASSERT_EQ(planned_iterations(o, d), t);
  const std::vector<IterationPlan> plan = plan_iterations(o, d, t, o.epsilon);
  ASSERT_EQ(plan.size(), static_cast<std::size_t>(t));
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_NEAR(plan[i].sum_scale / (1 + plan[i].grid.rounding_share) / sums[i], 1.0, 1e-10) << "iteration " << i;
    EXPECT_NEAR(plan[i].count_scale / count, 1.0, 1e-10) << "iteration " << i;
    EXPECT_LT(plan[i].grid.rounding_share, 1e-4);
  }
}

TEST(FastLloydSplit, NoiseScalesAreTheAuthors) {
  // FastLloyd on 2,000 x 2 blobs, k 5, eps 1: T 7, sums 14.318436219618476 then 5.122719474969924,
  // counts 17.027586228082956.
  expect_authors_scales(public_n(Noise::gaussian, RadiusRule::diagonal_then_frac, 5, 2000, 1), 2, 7,
                        {14.318436219618476, 5.122719474969924}, 17.027586228082956);
  // GLloyd (no radius) on the same: T 2, sums 7.552908166634495, counts 9.467829937747718.
  expect_authors_scales(public_n(Noise::gaussian, RadiusRule::none, 5, 2000, 1), 2, 2,
                        {7.552908166634495, 7.552908166634495}, 9.467829937747718);
  // SuLloyd (Laplace, no radius): T 2, b 5.479727244598282 (sums) and 7.4064017738430215 (counts).
  expect_authors_scales(public_n(Noise::laplace, RadiusRule::none, 5, 2000, 1), 2, 2,
                        {5.479727244598282, 5.479727244598282}, 7.4064017738430215);
  // FastLloyd on synth_10d (100,000 x 10, k 64, eps 1): T 2, sums 20.470981515019535 then 10.804648820141585, counts
  // 16.279972388026412.
  expect_authors_scales(public_n(Noise::gaussian, RadiusRule::diagonal_then_frac, 64, 1e5, 1), 10, 2,
                        {20.470981515019535, 10.804648820141585}, 16.279972388026412);
}

TEST(FastLloydSplit, SecureSamplerCalibratesThroughZcdp) {
  // sampler: secure draws discrete Gaussians whose sigma0 comes from zCDP: a few percent above the analytic one.
  FastLloydOptions o = public_n(Noise::gaussian, RadiusRule::diagonal_then_frac, 64, 1e5, 1);
  const double textbook = plan_iterations(o, 10, 2, 1.0)[0].count_scale;
  o.sampler = privacy::Sampler::secure;
  const double secure = plan_iterations(o, 10, 2, 1.0)[0].count_scale;
  EXPECT_GT(secure / textbook, 1.02);
  EXPECT_LT(secure / textbook, 1.15);
}

TEST(FastLloydSplit, EpsilonBelowTheExactSamplersIsRefused) {
  // As eps -> 0 the Gaussian's sigma tends to about 1 / (delta sqrt(2 pi)) (delta alone bounds the loss): at
  // delta = 1e-10 the counts' sigma is about 4e10, beyond the exact sampler's 2^19.
  FastLloydOptions o = public_n(Noise::gaussian, RadiusRule::diagonal_then_frac, 5, 2000, 1e-9);
  o.delta = 1e-10;
  o.sampler = privacy::Sampler::secure;
  try {
    plan_iterations(o, 2, 7, o.epsilon);
    FAIL() << "an epsilon of 1e-9 passed";
  } catch (const InputError& e) {
    EXPECT_EQ(e.where(), "params.epsilon");
    EXPECT_NE(std::string(e.what()).find("raise epsilon"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace dpclust::fastlloyd
