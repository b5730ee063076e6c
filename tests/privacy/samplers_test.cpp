// The floating-point-safe samplers (engine/privacy/samplers.hpp): exact discrete Laplace / Gaussian
// (Canonne, Kamath & Steinke 2020, Alg. 1-3), their tails, the snapping mechanism (Mironov 2012, Sec. 5.2)
// and the full-precision uniform.
//
// Every statistical check uses a fixed seed and states its false-alarm rate, i.e. the probability that a
// CORRECT sampler fails it on a fresh seed: a 5-sigma band is 5.7e-7 (two-sided normal), a chi-square test
// at the 1 - 1e-6 quantile is 1e-6. Chi-square bins are pooled so that each expects >= 5 draws. The
// "Detects..." tests show that these checks have power: a 5% scale error fails them.
#include <gtest/gtest.h>

#include <bit>
#include <boost/math/distributions/chi_squared.hpp>
#include <cmath>
#include <cstdint>
#include <functional>
#include <limits>
#include <map>
#include <numbers>
#include <stdexcept>
#include <string>
#include <utility>
#include <vector>

#include "core/rng.hpp"
#include "privacy/samplers.hpp"

using namespace dpclust;
using namespace dpclust::privacy;

namespace {

double as_double(Rational r) { return static_cast<double>(r.num) / static_cast<double>(r.den); }

// Pr[Z = z] of the discrete Laplace with the given scale.
std::function<double(std::int64_t)> laplace_pmf(double scale) {
  const double q = std::exp(-1.0 / scale);
  return [=](std::int64_t z) { return (1 - q) / (1 + q) * std::pow(q, std::fabs(static_cast<double>(z))); };
}

// Pr[Z = z] of the discrete Gaussian, normalised by direct summation.
std::function<double(std::int64_t)> gaussian_pmf(double sigma2) {
  const auto reach = static_cast<std::int64_t>(40 * std::sqrt(sigma2)) + 40;
  double norm = 0;
  for (std::int64_t z = -reach; z <= reach; ++z) norm += std::exp(-static_cast<double>(z * z) / (2 * sigma2));
  return
      [=](std::int64_t z) { return std::exp(-static_cast<double>(z) * static_cast<double>(z) / (2 * sigma2)) / norm; };
}

// pmf conditioned on Z >= k (tail = Pr[Z >= k]).
std::function<double(std::int64_t)> conditional(std::function<double(std::int64_t)> pmf, std::int64_t k, double tail) {
  return [=](std::int64_t z) { return z < k ? 0.0 : pmf(z) / tail; };
}

double brute_tail(const std::function<double(std::int64_t)>& pmf, std::int64_t k, std::int64_t reach) {
  double s = 0;
  for (std::int64_t z = reach; z >= k; --z) s += pmf(z);  // small terms first
  return s;
}

struct Fit {
  double statistic = 0;
  int df = 0;
  double threshold = 0;  // the 1 - 1e-6 quantile of chi-square(df)
};

// Pearson's chi-square of integer draws against a pmf on [lo, hi] (mass outside negligible). Bins are
// built left to right until each expects >= 5; draws below lo / above hi join the first / last bin.
Fit chi_square(const std::map<std::int64_t, std::int64_t>& counts, std::int64_t n, std::int64_t lo, std::int64_t hi,
               const std::function<double(std::int64_t)>& pmf) {
  std::vector<double> expected, observed;
  double e = 0, o = 0;
  for (std::int64_t z = lo; z <= hi; ++z) {
    e += static_cast<double>(n) * pmf(z);
    auto it = counts.find(z);
    if (it != counts.end()) o += static_cast<double>(it->second);
    if (e >= 5) {
      expected.push_back(e);
      observed.push_back(o);
      e = o = 0;
    }
  }
  if (expected.empty()) ADD_FAILURE() << "no bin reached 5 expected draws";
  expected.back() += e;
  observed.back() += o;
  for (const auto& [z, c] : counts) {
    if (z < lo) observed.front() += static_cast<double>(c);
    if (z > hi) observed.back() += static_cast<double>(c);
  }
  Fit f;
  for (std::size_t i = 0; i < expected.size(); ++i)
    f.statistic += (observed[i] - expected[i]) * (observed[i] - expected[i]) / expected[i];
  f.df = static_cast<int>(expected.size()) - 1;
  f.threshold = f.df > 0 ? boost::math::quantile(boost::math::complement(boost::math::chi_squared(f.df), 1e-6))
                         : std::numeric_limits<double>::infinity();
  return f;
}

template <class Draw>
std::map<std::int64_t, std::int64_t> histogram(std::int64_t n, Draw draw) {
  std::map<std::int64_t, std::int64_t> counts;
  for (std::int64_t i = 0; i < n; ++i) ++counts[draw()];
  return counts;
}

// |count - n p| within 5 binomial standard deviations (false alarm 5.7e-7).
void expect_binomial_band(std::int64_t count, std::int64_t n, double p, const std::string& what) {
  const double sd = std::sqrt(static_cast<double>(n) * p * (1 - p));
  EXPECT_LE(std::fabs(static_cast<double>(count) - static_cast<double>(n) * p), 5 * sd + 1e-9)
      << what << ": " << count << " of " << n << ", expected p = " << p;
}

// Positives vs negatives of a symmetric law: given the non-zero draws, #positive ~ Binomial(m, 1/2).
void expect_symmetric(const std::map<std::int64_t, std::int64_t>& counts, const std::string& what) {
  std::int64_t pos = 0, neg = 0;
  for (const auto& [z, c] : counts) (z > 0 ? pos : neg) += z == 0 ? 0 : c;
  expect_binomial_band(pos, pos + neg, 0.5, what + " symmetry");
}

std::string message_of(const std::function<void()>& f) {
  try {
    f();
  } catch (const std::invalid_argument& e) {
    return e.what();
  }
  return "<no std::invalid_argument thrown>";
}

}  // namespace

// --------------------------------------------------------------------------------------------------
TEST(SamplersRational, ExactForDyadicInputs) {
  auto eq = [](double x, std::uint64_t num, std::uint64_t den) {
    const Rational r = rational_at_least(x);
    EXPECT_EQ(r.num, num) << x;
    EXPECT_EQ(r.den, den) << x;
  };
  eq(0.5, 1, 2);
  eq(3, 3, 1);
  eq(1, 1, 1);
  eq(0.75, 3, 4);
  eq(0x1p-20, 1, std::uint64_t{1} << 20);
  eq(0x1p52 + 2, (std::uint64_t{1} << 52) + 2, 1);
  eq(0x1p63, std::uint64_t{1} << 63, 1);
}

TEST(SamplersRational, OneThirdRoundsUp) {
  const Rational r = rational_at_least(1.0 / 3);
  EXPECT_EQ(r.den, std::uint64_t{1} << 53);
  EXPECT_EQ(r.num, 3002399751580331ULL);
  EXPECT_GT(3 * r.num, r.den);  // above the real 1/3, not only above the double 1/3
}

TEST(SamplersRational, NeverBelowXAndTheSmallestSuch) {
  // Log-uniform x over 2^-70 .. 2^63: num / den >= x exactly, (num - 1) / den < x, num < 2^52 when den > 1.
  Rng rng(11);
  for (int i = 0; i < 100000; ++i) {
    const double x = std::ldexp(1 + rng.uniform(), static_cast<int>(rng.below(133)) - 70);
    const Rational r = rational_at_least(x);
    ASSERT_GE(r.den, 1u);
    const int k = std::countr_zero(r.den);
    ASSERT_EQ(r.den, std::uint64_t{1} << k);
    const double scaled = std::ldexp(x, k);  // x den, exact
    if (r.den > 1) {
      ASSERT_LT(r.num, std::uint64_t{1} << 52) << x;
      ASSERT_GE(static_cast<double>(r.num), scaled) << x;
      ASSERT_LT(static_cast<double>(r.num - 1), scaled) << x;
      ASSERT_TRUE(r.num % 2 == 1) << "not in lowest terms: " << x;
      if (x >= 0x1p-11) {
        ASSERT_LT((as_double(r) - x) / x, 0x1p-51) << x;
      }
    } else {
      ASSERT_EQ(r.num, static_cast<std::uint64_t>(std::ceil(x))) << x;
    }
  }
}

TEST(SamplersRational, InvalidInputsThrow) {
  for (double x : {0.0, -0.0, -1.0, std::nan(""), std::numeric_limits<double>::infinity(), 0x1p64, 1e300})
    EXPECT_THROW(rational_at_least(x), std::invalid_argument) << x;
}

// --------------------------------------------------------------------------------------------------
TEST(SamplersBernoulliExp, FrequencyIsExpOfMinusGamma) {
  // 200k draws per gamma, 5-sigma binomial band (false alarm 5.7e-7 each; gamma = 0 must be always true).
  Rng rng(21);
  const std::int64_t n = 200000;
  for (Rational g : {Rational{0, 1}, Rational{1, 3}, Rational{1, 1}, Rational{5, 2}, Rational{7, 1}}) {
    std::int64_t hits = 0;
    for (std::int64_t i = 0; i < n; ++i) hits += bernoulli_exp(rng, g) ? 1 : 0;
    const double p = std::exp(-as_double(g));
    if (g.num == 0) EXPECT_EQ(hits, n);
    else expect_binomial_band(hits, n, p, "gamma = " + std::to_string(g.num) + "/" + std::to_string(g.den));
  }
}

TEST(SamplersBernoulliExp, WideAndExtremeParameters) {
  Rng rng(22);
  // gamma = 1 + 2^-63: the 64-bit denominator path; 5-sigma band around exp(-1) (false alarm 5.7e-7).
  const Rational near_one{(std::uint64_t{1} << 63) + 1, std::uint64_t{1} << 63};
  std::int64_t hits = 0;
  for (int i = 0; i < 200000; ++i) hits += bernoulli_exp(rng, near_one) ? 1 : 0;
  expect_binomial_band(hits, 200000, std::exp(-1.0), "gamma = 1 + 2^-63");
  // gamma = 2^64 - 1 is never true (probability exp(-1.8e19)); gamma = 2^-64 essentially always
  // (a false each with probability 5.4e-20): neither may spin.
  for (int i = 0; i < 10000; ++i) {
    ASSERT_FALSE(bernoulli_exp(rng, Rational{~std::uint64_t{0}, 1}));
    ASSERT_TRUE(bernoulli_exp(rng, Rational{1, ~std::uint64_t{0}}));
  }
  EXPECT_THROW(bernoulli_exp(rng, Rational{1, 0}), std::invalid_argument);
}

TEST(SamplersBernoulliExp, BernoulliRatioNarrowPathEqualsTheWideOne) {
  // The same rational with a denominator below 2^63 (64-bit long division) and scaled by 2^61 so that the
  // denominator is above 2^63 (the 256-bit path): the binary expansions of num/den are equal, so both must
  // consume the same random words and give the same outcomes, draw for draw.
  for (const auto& [num, den] :
       {std::pair<std::uint64_t, std::uint64_t>{3, 7}, {11, 10}, {1, 3}, {5, 5}, {999, 1000}}) {
    int shift = 0;  // the smallest with den 2^shift >= 2^63
    while (((den << shift) >> 63) == 0) ++shift;
    ASSERT_EQ((num << shift) >> shift, num) << "num 2^shift must fit 64 bits";
    const Rational narrow{num, den}, wide{num << shift, den << shift};
    Rng a(77), b(77);
    std::int64_t hits = 0;
    for (int i = 0; i < 50000; ++i) {
      const bool x = bernoulli_exp(a, narrow);
      ASSERT_EQ(x, bernoulli_exp(b, wide)) << num << "/" << den << " draw " << i;
      hits += x ? 1 : 0;
    }
    EXPECT_EQ(a.next_u64(), b.next_u64()) << num << "/" << den << ": different numbers of words read";
    expect_binomial_band(hits, 50000, std::exp(-static_cast<double>(num) / static_cast<double>(den)),
                         std::to_string(num) + "/" + std::to_string(den));
  }
}

// --------------------------------------------------------------------------------------------------
TEST(SamplersDiscreteLaplace, MatchesTheExactPmf) {
  // 200k draws per scale, chi-square at 1e-6 (false alarm 1e-6) and a 5-sigma symmetry band (5.7e-7).
  Rng rng(31);
  const std::int64_t n = 200000;
  for (double scale : {0.5, 1.0, 3.7}) {
    const Rational r = rational_at_least(scale);
    const auto counts = histogram(n, [&] { return discrete_laplace(rng, r); });
    const auto reach = static_cast<std::int64_t>(60 * scale) + 20;
    const Fit f = chi_square(counts, n, -reach, reach, laplace_pmf(as_double(r)));
    EXPECT_LT(f.statistic, f.threshold) << "scale " << scale << ", df " << f.df;
    expect_symmetric(counts, "scale " + std::to_string(scale));
  }
}

TEST(SamplersDiscreteLaplace, ChiSquareDetectsAFivePercentScaleError) {
  // Draws at scale 3.7 against the pmf of 3.885: the noncentrality is ~460 against a threshold ~90, so
  // the test below fails (a miss) with probability far below 1e-6.
  Rng rng(32);
  const std::int64_t n = 200000;
  const auto counts = histogram(n, [&] { return discrete_laplace(rng, rational_at_least(3.7)); });
  const Fit f = chi_square(counts, n, -300, 300, laplace_pmf(3.7 * 1.05));
  EXPECT_GT(f.statistic, f.threshold);
}

TEST(SamplersDiscreteLaplace, RejectsInvalidScales) {
  Rng rng(33);
  EXPECT_THROW(discrete_laplace(rng, Rational{0, 1}), std::invalid_argument);
  EXPECT_THROW(discrete_laplace(rng, Rational{1, 0}), std::invalid_argument);
  EXPECT_NE(message_of([&] {
              discrete_laplace(rng, Rational{(std::uint64_t{1} << 40) + 1, 1});
            }).find("2^40"),
            std::string::npos);
  EXPECT_NO_THROW(discrete_laplace(rng, Rational{std::uint64_t{1} << 40, 1}));
  EXPECT_NO_THROW(discrete_laplace(rng, Rational{1, ~std::uint64_t{0}}));  // tiny scales are fine (mostly 0)
}

// --------------------------------------------------------------------------------------------------
TEST(SamplersDiscreteGaussian, MatchesTheExactPmf) {
  // 200k draws per sigma^2, chi-square at 1e-6 (false alarm 1e-6) and a 5-sigma symmetry band (5.7e-7).
  // 3.7 and 1/3 round to denominators 2^50 and 2^53, which exercise the 256-bit exponent arithmetic.
  Rng rng(41);
  const std::int64_t n = 200000;
  for (double sigma2 : {0.5, 2.0, 10.0, 3.7, 1.0 / 3}) {
    const Rational r = rational_at_least(sigma2);
    const auto counts = histogram(n, [&] { return discrete_gaussian(rng, r); });
    const auto reach = static_cast<std::int64_t>(12 * std::sqrt(sigma2)) + 10;
    const Fit f = chi_square(counts, n, -reach, reach, gaussian_pmf(as_double(r)));
    EXPECT_LT(f.statistic, f.threshold) << "sigma2 " << sigma2 << ", df " << f.df;
    expect_symmetric(counts, "sigma2 " + std::to_string(sigma2));
  }
}

TEST(SamplersDiscreteGaussian, ChiSquareDetectsAFivePercentSigmaError) {
  // Draws at sigma^2 = 10 against the pmf of (1.05 sigma)^2: noncentrality ~870, threshold ~70.
  Rng rng(42);
  const std::int64_t n = 200000;
  const auto counts = histogram(n, [&] { return discrete_gaussian(rng, Rational{10, 1}); });
  const Fit f = chi_square(counts, n, -60, 60, gaussian_pmf(10 * 1.05 * 1.05));
  EXPECT_GT(f.statistic, f.threshold);
}

TEST(SamplersDiscreteGaussian, RejectsInvalidAndHandlesExtremeSigma) {
  Rng rng(43);
  EXPECT_THROW(discrete_gaussian(rng, Rational{0, 1}), std::invalid_argument);
  EXPECT_THROW(discrete_gaussian(rng, Rational{1, 0}), std::invalid_argument);
  EXPECT_NE(message_of([&] {
              discrete_gaussian(rng, Rational{(std::uint64_t{1} << 40) + 1, 1});
            }).find("2^40"),
            std::string::npos);
  // sigma = 2^20: |Z| > 10 sigma has probability ~1e-23; sigma^2 = 2^-63: Z = 0 except with prob ~e^-(2^62).
  for (int i = 0; i < 1000; ++i) {
    ASSERT_LT(std::llabs(discrete_gaussian(rng, Rational{std::uint64_t{1} << 40, 1})), 10LL << 20);
    ASSERT_EQ(discrete_gaussian(rng, Rational{1, std::uint64_t{1} << 63}), 0);
  }
}

// --------------------------------------------------------------------------------------------------
TEST(SamplersTails, DiscreteLaplaceTailMatchesTheConditionalPmf) {
  // 100k draws per (scale, k): all >= k, chi-square at 1e-6 (false alarm 1e-6). k = -2 takes the
  // rejection path, k >= 0 the geometric one.
  Rng rng(51);
  const std::int64_t n = 100000;
  const std::vector<std::pair<double, std::int64_t>> cases = {{3.7, 5}, {0.5, 1}, {1.0, 0}, {1.0, -2}, {2.0, 1000}};
  for (const auto& [scale, k] : cases) {
    const Rational r = rational_at_least(scale);
    const auto counts = histogram(n, [&, k = k] { return discrete_laplace_tail(rng, r, k); });
    EXPECT_GE(counts.begin()->first, k) << scale << " " << k;
    const auto pmf = laplace_pmf(as_double(r));
    const auto reach = static_cast<std::int64_t>(60 * scale) + 20;
    const double tail = brute_tail(pmf, k, k + 2 * reach);
    const Fit f = chi_square(counts, n, k, k + reach, conditional(pmf, k, tail));
    EXPECT_LT(f.statistic, f.threshold) << "scale " << scale << ", k " << k << ", df " << f.df;
  }
}

TEST(SamplersTails, DiscreteGaussianTailMatchesTheConditionalPmf) {
  // 100k draws per (sigma^2, k): all >= k, chi-square at 1e-6 (false alarm 1e-6). Paths: k <= 0 and
  // k <= sigma reject from the plain sampler; k > sigma use the geometric proposal (k = 3 for sigma^2 = 0.5
  // is a 1e-4 tail, k = 40 for sigma^2 = 2 a 1e-175 one, out of reach of plain rejection).
  Rng rng(52);
  const std::int64_t n = 100000;
  const std::vector<std::pair<double, std::int64_t>> cases = {{10.0, 2}, {10.0, 6}, {0.5, 3}, {2.0, 40}, {10.0, -3},
                                                              {10.0, 3}, {10.0, 4}, {3.7, 1}, {3.7, 4}};
  for (const auto& [sigma2, k] : cases) {
    const Rational r = rational_at_least(sigma2);
    const auto counts = histogram(n, [&, k = k] { return discrete_gaussian_tail(rng, r, k); });
    EXPECT_GE(counts.begin()->first, k) << sigma2 << " " << k;
    // The conditional pmf written relative to z = k, so far tails do not underflow.
    const double s2 = as_double(r);
    const auto reach = static_cast<std::int64_t>(12 * std::sqrt(s2)) + 10;
    std::function<double(std::int64_t)> rel;
    if (k > 0) {
      double norm = 0;
      for (std::int64_t j = 0; j <= 4 * reach; ++j)
        norm += std::exp(-static_cast<double>(2 * k * j + j * j) / (2 * s2));
      rel = [=, k = k](std::int64_t z) {
        const auto j = static_cast<double>(z - k);
        return z < k ? 0.0 : std::exp(-(2 * static_cast<double>(k) * j + j * j) / (2 * s2)) / norm;
      };
    } else {
      const auto pmf = gaussian_pmf(s2);
      rel = conditional(pmf, k, brute_tail(pmf, k, 4 * reach));
    }
    const Fit f = chi_square(counts, n, k, k + 2 * reach, rel);
    EXPECT_LT(f.statistic, f.threshold) << "sigma2 " << sigma2 << ", k " << k << ", df " << f.df;
  }
}

TEST(SamplersTails, TailProbabilitiesMatchSumsOfThePmf) {
  for (double scale : {0.5, 1.0, 3.7}) {
    const auto pmf = laplace_pmf(scale);
    for (std::int64_t k = -6; k <= 15; ++k) {
      const double brute = brute_tail(pmf, k, 2000);
      EXPECT_NEAR(discrete_laplace_tail_probability(scale, k), brute, 1e-12 + 1e-10 * brute) << scale << " " << k;
    }
  }
  for (double sigma2 : {0.5, 2.0, 3.99, 4.0, 10.0, 100.0}) {
    const auto pmf = gaussian_pmf(sigma2);
    for (std::int64_t k = -6; k <= 40; ++k) {
      const double brute = brute_tail(pmf, k, 400);
      EXPECT_NEAR(discrete_gaussian_tail_probability(sigma2, k), brute, 1e-12 + 1e-10 * brute) << sigma2 << " " << k;
    }
  }
  // sigma = 1000: the discrete tail at k = sigma is the normal one beyond k - 1/2 up to O(1/sigma^2).
  EXPECT_NEAR(discrete_gaussian_tail_probability(1e6, 1000), 0.5 * std::erfc(999.5 / (1000 * std::sqrt(2.0))), 1e-6);
  // Far tails keep their relative accuracy: Pr[Z >= 30] for sigma^2 = 2 is e^-225 (1 + e^-15.25 + ...) / norm.
  const double far = discrete_gaussian_tail_probability(2.0, 30);
  EXPECT_NEAR(far / (std::exp(-225.0) / std::sqrt(4 * std::numbers::pi)), 1.0, 1e-6);
  EXPECT_THROW(discrete_laplace_tail_probability(0.0, 1), std::invalid_argument);
  EXPECT_THROW(discrete_gaussian_tail_probability(-1.0, 1), std::invalid_argument);
  EXPECT_THROW(discrete_gaussian_tail_probability(0x1p41, 1), std::invalid_argument);
}

// --------------------------------------------------------------------------------------------------
TEST(SamplersSnapping, OutputsAreGridMultiplesInsideTheBound) {
  Rng rng(61);
  struct Case {
    double epsilon, sensitivity, bound;
  };
  const double inf = std::numeric_limits<double>::infinity();
  for (const Case& c : {Case{0.3, 1, 1000}, Case{0.9, 3, 50}, Case{2, 0.1, 1}, Case{0.01, 0.25, 1e6}}) {
    const SnappingLaplace mech(c.epsilon, c.sensitivity, c.bound);
    EXPECT_GE(mech.lambda(), c.sensitivity / c.epsilon);  // never less noise than Laplace(sensitivity / eps)
    EXPECT_GE(mech.Lambda(), mech.lambda());
    EXPECT_LT(mech.Lambda(), 2 * mech.lambda() * (1 + 1e-12));
    for (double v : {0.0, 0.3 * c.bound, -c.bound, c.bound * 0.999, 5 * c.bound, -inf, inf}) {
      for (int i = 0; i < 2000; ++i) {
        const double out = mech.release(rng, v);
        ASSERT_LE(std::fabs(out), c.bound);
        const double m = out / mech.Lambda();
        ASSERT_LE(std::fabs(m - std::round(m)), 1e-9) << out << " is not a multiple of " << mech.Lambda();
        if (c.sensitivity == 1 || c.sensitivity == 0.25) {
          ASSERT_EQ(m, std::round(m));  // exact for power-of-2 units
        }
      }
    }
  }
}

TEST(SamplersSnapping, MeanAndSpreadMatchTheSnappedLaplace) {
  // epsilon 0.3, sensitivity 1, bound 1000, value 10.3: Laplace(lambda) rounded to multiples of Lambda = 4.
  // The exact law of the output is Pr[m Lambda] = F((m + 1/2) Lambda - x) - F((m - 1/2) Lambda - x); mean and
  // variance of 100k draws within 5 standard errors of it (false alarm ~1.1e-6 for the two).
  Rng rng(62);
  const SnappingLaplace mech(0.3, 1, 1000);
  const double lambda = mech.lambda(), grid = mech.Lambda(), x = 10.3;
  EXPECT_EQ(grid, 4.0);
  auto cdf = [&](double t) { return t < 0 ? 0.5 * std::exp(t / lambda) : 1 - 0.5 * std::exp(-t / lambda); };
  double mu = 0, m2 = 0;
  std::vector<std::pair<double, double>> law;
  for (int m = -200; m <= 200; ++m) {
    const double p = cdf((m + 0.5) * grid - x) - cdf((m - 0.5) * grid - x);
    law.emplace_back(m * grid, p);
    mu += p * m * grid;
  }
  double m4 = 0;
  for (const auto& [v, p] : law) {
    m2 += p * (v - mu) * (v - mu);
    m4 += p * std::pow(v - mu, 4);
  }
  const int n = 100000;
  double s = 0, ss = 0;
  std::vector<double> draws(n);
  for (double& d : draws) {
    d = mech.release(rng, x);
    s += d;
  }
  const double mean = s / n;
  for (double d : draws) ss += (d - mean) * (d - mean);
  const double var = ss / (n - 1);
  EXPECT_NEAR(mean, mu, 5 * std::sqrt(m2 / n));
  EXPECT_NEAR(var, m2, 5 * std::sqrt((m4 - m2 * m2) / n));
  // The snapped law is the Laplace's up to the rounding: variance 2 lambda^2 plus about Lambda^2 / 12.
  EXPECT_NEAR(m2, 2 * lambda * lambda + grid * grid / 12, 0.05 * m2);
}

TEST(SamplersSnapping, ClampedReleaseMatchesItsExactLaw) {
  // epsilon 0.9, sensitivity 3 (not a power of two: the unit is inflated by ~1e-14), bound 50, value 40:
  // grid ~6, so the output takes 17 values m Lambda, |m| <= 8, with a ~11% atom at the upper clamp.
  // Chi-square of 100k draws against the exact law (false alarm 1e-6).
  Rng rng(63);
  const SnappingLaplace mech(0.9, 3, 50);
  const double lambda = mech.lambda(), grid = mech.Lambda(), x = 40;
  EXPECT_NEAR(grid, 6.0, 1e-9);
  const auto top = static_cast<std::int64_t>(std::floor(50 / grid));
  auto cdf = [&](double t) { return t < 0 ? 0.5 * std::exp(t / lambda) : 1 - 0.5 * std::exp(-t / lambda); };
  auto pmf = [&](std::int64_t m) {
    const double lo = m == -top ? -std::numeric_limits<double>::infinity() : (static_cast<double>(m) - 0.5) * grid;
    const double hi = m == top ? std::numeric_limits<double>::infinity() : (static_cast<double>(m) + 0.5) * grid;
    return cdf(hi - x) - cdf(lo - x);
  };
  const std::int64_t n = 100000;
  const auto counts = histogram(n, [&] { return std::llround(mech.release(rng, x) / grid); });
  EXPECT_GE(counts.begin()->first, -top);
  EXPECT_LE(counts.rbegin()->first, top);
  const Fit f = chi_square(counts, n, -top, top, pmf);
  EXPECT_LT(f.statistic, f.threshold) << "df " << f.df;
}

TEST(SamplersSnapping, InvalidParametersThrowSayingWhy) {
  const double nan = std::nan(""), inf = std::numeric_limits<double>::infinity();
  for (double e : {0.0, -1.0, nan, inf}) EXPECT_THROW(SnappingLaplace(e, 1, 100), std::invalid_argument) << e;
  for (double s : {0.0, -1.0, nan, inf}) EXPECT_THROW(SnappingLaplace(1, s, 100), std::invalid_argument) << s;
  for (double b : {0.0, -1.0, nan, inf}) EXPECT_THROW(SnappingLaplace(1, 1, b), std::invalid_argument) << b;
  EXPECT_NE(message_of([] { SnappingLaplace(0.1, 1, 5); }).find("lambda < B"), std::string::npos);
  EXPECT_NE(message_of([] { SnappingLaplace(1, 1, 0x1p47); }).find("B < 2^46 lambda"), std::string::npos);
  EXPECT_NE(message_of([] { SnappingLaplace(1e-9, 1, 0x1p49); }).find("2^48"), std::string::npos);
  EXPECT_NE(message_of([] { SnappingLaplace(1, 1, 1.5); }).find("every release would be 0"), std::string::npos);
  Rng rng(64);
  const SnappingLaplace mech(1, 1, 100);
  EXPECT_THROW(mech.release(rng, nan), std::invalid_argument);
}

// --------------------------------------------------------------------------------------------------
TEST(SamplersUniformFullPrecision, UniformOnTheHalfOpenIntervalWithFullMantissas) {
  // 1e6 draws: in (0, 1]; mean and Pr[U < 2^-10] in 5-sigma bands; and among the ~980 draws below 2^-10
  // the last mantissa bit is 1 about half the time (5-sigma band): all 52 bits stay random in small
  // binades, where Rng::uniform() would leave its last 10 bits 0. False alarm 3 x 5.7e-7.
  Rng rng(71);
  const int n = 1000000;
  double sum = 0;
  std::int64_t small = 0, small_odd = 0;
  for (int i = 0; i < n; ++i) {
    const double u = uniform_full_precision(rng);
    ASSERT_GT(u, 0.0);
    ASSERT_LE(u, 1.0);
    sum += u;
    if (u < 0x1p-10) {
      ++small;
      int e = 0;
      const double mant = std::frexp(u, &e);                             // in [1/2, 1)
      small_odd += static_cast<std::int64_t>(std::ldexp(mant, 53)) & 1;  // the 53rd significant bit
    }
  }
  EXPECT_NEAR(sum / n, 0.5, 5 * std::sqrt(1.0 / 12 / n));
  expect_binomial_band(small, n, 0x1p-10, "Pr[U < 2^-10]");
  expect_binomial_band(small_odd, small, 0.5, "last mantissa bit below 2^-10");
}

// --------------------------------------------------------------------------------------------------
TEST(SamplersTextbook, LaplaceIsFiniteEvenAtExtremeWords) {
  // The words 0 and 2^64 - 1 map to 2^-53 and 1 - 2^-53 (never 0 or 1), whose Laplace quantiles are
  // -+ ln(2^52) scale.
  const double lo = detail::open_unit_from_word(0), hi = detail::open_unit_from_word(~std::uint64_t{0});
  EXPECT_EQ(lo, 0x1p-53);
  EXPECT_EQ(hi, 1 - 0x1p-53);
  EXPECT_DOUBLE_EQ(detail::laplace_inverse_cdf(lo, 2.0), -2.0 * 52 * std::log(2.0));
  EXPECT_DOUBLE_EQ(detail::laplace_inverse_cdf(hi, 2.0), 2.0 * 52 * std::log(2.0));
  // 1e6 draws: all finite, mean 0 and E|X| = scale within 5 standard errors (false alarm 1.1e-6).
  Rng rng(81);
  const int n = 1000000;
  const double scale = 2.5;
  double s = 0, s_abs = 0;
  for (int i = 0; i < n; ++i) {
    const double x = laplace_textbook(rng, scale);
    ASSERT_TRUE(std::isfinite(x));
    s += x;
    s_abs += std::fabs(x);
  }
  EXPECT_NEAR(s / n, 0.0, 5 * std::sqrt(2.0) * scale / std::sqrt(n));
  EXPECT_NEAR(s_abs / n, scale, 5 * scale / std::sqrt(n));
}

TEST(SamplersTextbook, GaussianHasTheRightMeanAndVariance) {
  // 200k draws: mean 0 and variance sigma^2 within 5 standard errors (Var of X^2 is 2 sigma^4); false
  // alarm 1.1e-6.
  Rng rng(82);
  const int n = 200000;
  const double sigma = 1.7;
  double s = 0, s2 = 0;
  for (int i = 0; i < n; ++i) {
    const double x = gaussian_textbook(rng, sigma);
    ASSERT_TRUE(std::isfinite(x));
    s += x;
    s2 += x * x;
  }
  EXPECT_NEAR(s / n, 0.0, 5 * sigma / std::sqrt(n));
  EXPECT_NEAR(s2 / n, sigma * sigma, 5 * std::sqrt(2.0) * sigma * sigma / std::sqrt(n));
}
