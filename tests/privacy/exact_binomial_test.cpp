// The exact binomial count of draws above a threshold (privacy/exact_binomial.hpp), DP-DBSCAN's Alg. 2
// line 9: the MPFR bounds of Pr[Z >= k] bracket the closed forms, the candidate rate never falls below
// p, the geometric skips have their law, and the count has exactly the law of Bin(M, p) (every value of a
// small M against the binomial pmf; M = 2^60 and 2^64 - 1 against M p), for the discrete Laplace and the
// discrete Gaussian, on both thinning paths (skips, and every trial a candidate when p > 1/2). Fixed seeds.
#include "privacy/exact_binomial.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

#include "privacy/mechanism.hpp"
#include "privacy/samplers.hpp"

using namespace dpclust;
using namespace dpclust::privacy;

namespace {

// Pr[Z >= k] for the discrete Laplace of scale s, in long double (the closed form).
long double laplace_tail_ld(long double s, std::int64_t k) {
  const long double q = std::exp(-1.0L / s);
  if (k >= 0) return std::pow(q, static_cast<long double>(k)) / (1 + q);
  return 1 - std::pow(q, static_cast<long double>(1 - k)) / (1 + q);
}

// |observed - expected| within 5 standard deviations of a binomial count (false alarm 5.7e-7 each).
void expect_count_band(std::uint64_t observed, std::uint64_t n, double p, const std::string& what) {
  const double mean = static_cast<double>(n) * p, sd = std::sqrt(static_cast<double>(n) * p * (1 - p));
  EXPECT_NEAR(static_cast<double>(observed), mean, 5 * sd + 1e-9) << what;
}

double binomial_pmf(std::uint64_t n, std::uint64_t j, double p) {
  const auto nd = static_cast<double>(n), jd = static_cast<double>(j);  // exact: the tests' n are far below 2^53
  return std::exp(std::lgamma(nd + 1.0) - std::lgamma(jd + 1.0) - std::lgamma(nd - jd + 1.0) + jd * std::log(p) +
                  (nd - jd) * std::log1p(-p));
}

// Draws `runs` counts of Bin(M, Pr[Z >= k]) and checks every value's frequency against the pmf.
void expect_binomial_law(ExactNoise noise, Rational param, std::int64_t k, std::uint64_t M, const std::string& what) {
  double lo = 0, hi = 0;
  detail::tail_probability_bounds(noise, param, k, 128, lo, hi);
  const double p = 0.5 * (lo + hi);
  const int runs = 40000;
  std::vector<std::uint64_t> freq(M + 1, 0);
  Rng rng(12345);
  for (int r = 0; r < runs; ++r) {
    const std::uint64_t m = binomial_tail_count(rng, M, noise, param, k);
    ASSERT_LE(m, M);
    ++freq[m];
  }
  for (std::uint64_t j = 0; j <= M; ++j)
    expect_count_band(freq[j], runs, binomial_pmf(M, j, p),
                      what + ", count " + std::to_string(j) + " (p " + std::to_string(p) + ")");
}

}  // namespace

TEST(ExactBinomial, TailBoundsBracketTheClosedForms) {
  for (const Rational s :
       {Rational{1, 1}, Rational{3, 2}, Rational{1000, 1}, Rational{3002399751580331, std::uint64_t{1} << 53}}) {
    const long double scale = static_cast<long double>(s.num) / static_cast<long double>(s.den);
    for (std::int64_t k : {-3, 0, 1, 5, 40}) {
      double lo = 0, hi = 0;
      detail::tail_probability_bounds(ExactNoise::discrete_laplace, s, k, 128, lo, hi);
      const long double exact = laplace_tail_ld(scale, k);
      EXPECT_LE(lo, hi);
      EXPECT_NEAR(lo, static_cast<double>(exact), 1e-15 * static_cast<double>(exact))
          << s.num << "/" << s.den << " k " << k;
      EXPECT_NEAR(hi, static_cast<double>(exact), 1e-15 * static_cast<double>(exact))
          << s.num << "/" << s.den << " k " << k;
    }
  }
  // The Gaussian against the double-valued planning formula (samplers.hpp), small and large sigma^2, both
  // forms of the tail (direct sum and complement) and both normalisers (direct, Poisson summation).
  for (const Rational s2 : {Rational{1, 4}, Rational{1, 1}, Rational{25, 1}, Rational{10000, 1}}) {
    const double sigma2 = static_cast<double>(s2.num) / static_cast<double>(s2.den);
    for (std::int64_t k : {-2, 0, 1, 3, 10, 100, 400}) {
      double lo = 0, hi = 0;
      detail::tail_probability_bounds(ExactNoise::discrete_gaussian, s2, k, 128, lo, hi);
      const double p = discrete_gaussian_tail_probability(sigma2, k);
      EXPECT_LE(lo, hi);
      if (p < 1e-300) continue;
      EXPECT_NEAR(lo, p, 1e-12 * p) << "sigma2 " << sigma2 << " k " << k;
      EXPECT_NEAR(hi, p, 1e-12 * p) << "sigma2 " << sigma2 << " k " << k;
    }
  }
  // Symmetry is exact: Pr[Z >= k] + Pr[Z >= 1 - k] = 1 (Laplace, at 128 bits).
  double a_lo, a_hi, b_lo, b_hi;
  detail::tail_probability_bounds(ExactNoise::discrete_laplace, {3, 2}, 2, 128, a_lo, a_hi);
  detail::tail_probability_bounds(ExactNoise::discrete_laplace, {3, 2}, -1, 128, b_lo, b_hi);
  EXPECT_NEAR(a_lo + b_lo, 1.0, 1e-15);
}

TEST(ExactBinomial, CandidateRateIsNeverBelowPAndCloseAboveIt) {
  for (double p = 0.5; p > 1e-300; p *= 0.37) {
    const std::uint64_t t = detail::candidate_t(p);
    ASSERT_GE(t, 1u);
    const double c = -std::expm1(-1.0 / static_cast<double>(t));
    EXPECT_GE(c, p) << "p " << p;
    if (t < (std::uint64_t{1} << 62)) {
      EXPECT_LE(c, 1.3 * p) << "p " << p;  // M c <= 1.3 M p (+ 4 at the cap)
    }
  }
  EXPECT_EQ(detail::candidate_t(0.7), 0u);  // p > 1/2: every trial is a candidate
}

TEST(ExactBinomial, GeometricSkipsHaveTheirLaw) {
  // Pr[G = g] = (1 - e^(-1/t)) e^(-g/t); t = 3: each of g = 0..9 and g >= 10 within a 5-sigma band.
  const std::uint64_t t = 3;
  const double r = std::exp(-1.0 / 3.0);
  const int n = 200000;
  std::vector<std::uint64_t> freq(11, 0);
  Rng rng(99);
  for (int i = 0; i < n; ++i) ++freq[std::min<std::uint64_t>(geometric_failures(rng, t), 10)];
  for (int g = 0; g < 10; ++g) expect_count_band(freq[g], n, (1 - r) * std::pow(r, g), "g = " + std::to_string(g));
  expect_count_band(freq[10], n, std::pow(r, 10), "g >= 10");
  EXPECT_THROW(geometric_failures(rng, 0), std::invalid_argument);
  // Huge t: the mean is about t (e^(1/t) - 1)^-1 ~ t - 1/2.
  double sum = 0;
  for (int i = 0; i < 20000; ++i) sum += static_cast<double>(geometric_failures(rng, std::uint64_t{1} << 50));
  EXPECT_NEAR(sum / 20000 / 0x1p50, 1.0, 0.05);
}

TEST(ExactBinomial, SmallCountsHaveExactlyTheBinomialLaw) {
  // Laplace scale 1, k = 1: p = e^-1 / (1 + e^-1) = 0.269 (skips). k = 0: p = 0.731 (every trial a candidate).
  expect_binomial_law(ExactNoise::discrete_laplace, {1, 1}, 1, 12, "laplace k=1");
  expect_binomial_law(ExactNoise::discrete_laplace, {1, 1}, 0, 12, "laplace k=0");
  // A scale that is not a whole number, k = 3: p = 0.0936.
  expect_binomial_law(ExactNoise::discrete_laplace, {5, 4}, 3, 20, "laplace 5/4 k=3");
  // Discrete Gaussian sigma^2 = 4: k = 2 (p = 0.31), k = -1 (p = 0.81, the complement).
  expect_binomial_law(ExactNoise::discrete_gaussian, {4, 1}, 2, 15, "gaussian k=2");
  expect_binomial_law(ExactNoise::discrete_gaussian, {4, 1}, -1, 15, "gaussian k=-1");
}

TEST(ExactBinomial, HugeTrialCountsInTimeLinearInTheCount) {
  // M = 2^60 empty cells, Laplace scale 1, k = 40: M p = 2^60 e^-40 / (1 + e^-1) = 3.57; 2,000 draws.
  const std::uint64_t M = std::uint64_t{1} << 60;
  double lo, hi;
  detail::tail_probability_bounds(ExactNoise::discrete_laplace, {1, 1}, 40, 128, lo, hi);
  const double mp = static_cast<double>(M) * lo;
  Rng rng(4);
  double sum = 0;
  for (int i = 0; i < 2000; ++i)
    sum += static_cast<double>(binomial_tail_count(rng, M, ExactNoise::discrete_laplace, {1, 1}, 40));
  EXPECT_NEAR(sum / 2000, mp, 5 * std::sqrt(mp / 2000));
  // The largest M and a p below 2^-62 (the skips' cap): M p = 2^64 e^-44 / (1 + e^-1) = 1.04.
  const std::uint64_t top = std::numeric_limits<std::uint64_t>::max();
  detail::tail_probability_bounds(ExactNoise::discrete_laplace, {1, 1}, 44, 128, lo, hi);
  const double mp2 = static_cast<double>(top) * lo;
  sum = 0;
  for (int i = 0; i < 2000; ++i)
    sum += static_cast<double>(binomial_tail_count(rng, top, ExactNoise::discrete_laplace, {1, 1}, 44));
  EXPECT_NEAR(sum / 2000, mp2, 5 * std::sqrt(mp2 / 2000));
  EXPECT_EQ(binomial_tail_count(rng, 0, ExactNoise::discrete_laplace, {1, 1}, 1), 0u);
}

TEST(ExactBinomial, SameStreamSameCountAndParametersChecked) {
  Rng a(17), b(17);
  for (int i = 0; i < 100; ++i)
    EXPECT_EQ(binomial_tail_count(a, 100000, ExactNoise::discrete_gaussian, {9, 1}, 4),
              binomial_tail_count(b, 100000, ExactNoise::discrete_gaussian, {9, 1}, 4));
  EXPECT_THROW(binomial_tail_count(a, 10, ExactNoise::discrete_laplace, {0, 1}, 1), std::invalid_argument);
  EXPECT_THROW(binomial_tail_count(a, 10, ExactNoise::discrete_laplace, {(std::uint64_t{1} << 41), 1}, 1),
               std::invalid_argument);
}

// The mechanism's count is drawn from the same rational parameter as its draws, exactly, and without noise
// (noise scale 0) no draw reaches theta > 0.
TEST(ExactBinomial, CountMechanismCountsWithItsOwnParameter) {
  BudgetLedger ledger(1.0);
  const auto m = CountMechanism::laplace(ledger, Sampler::secure, 1.0, 0.8, "counts");
  const Rational s = m.exact_parameter();
  Rng r1(8), r2(8);
  for (int i = 0; i < 50; ++i)
    EXPECT_EQ(m.count_at_least(r1, 5000, 2.5), binomial_tail_count(r2, 5000, ExactNoise::discrete_laplace, s, 3));
  BudgetLedger silent(1.0);
  silent.set_noise_scale(0.0);
  const auto z = CountMechanism::laplace(silent, Sampler::secure, 1.0, 0.8, "counts");
  EXPECT_EQ(z.count_at_least(r1, 5000, 0.5), 0u);
  EXPECT_THROW(m.count_at_least(r1, 10, 0.0), std::invalid_argument);
}
