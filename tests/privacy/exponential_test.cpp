// The exact exponential mechanism (engine/privacy/exponential.hpp): hand-computed probabilities, exact
// rounding of gamma, the lazy Bernoulli, and chi-square tests with fixed seeds.
#include "privacy/exponential.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/ledger.hpp"
#include "core/rng.hpp"

namespace dpclust::privacy {
namespace {

using detail::below128;
using detail::bernoulli_exp_ratio;
using detail::dyadic_at_most;
using detail::uint128;

TEST(ExactExponential, GammaIsRoundedDownToADyadic) {
  EXPECT_EQ(dyadic_at_most(1.5), 1.5);  // already num / 2^k with a short numerator
  EXPECT_EQ(dyadic_at_most(0x1p-70), 0.0);
  const double x = 0.15;
  const double g = dyadic_at_most(x);
  EXPECT_LE(g, x);
  EXPECT_GT(g, x * (1 - 0x1p-50));
  EXPECT_EQ(std::ldexp(g, 63), std::floor(std::ldexp(g, 63)));  // a multiple of 2^-63
  const double tiny = 3e-12;                                    // below 2^-11: bits under 2^-63 are cut
  EXPECT_EQ(std::ldexp(dyadic_at_most(tiny), 63), std::floor(std::ldexp(tiny, 63)));
  // gamma = eps / (2 Delta_q), never above it.
  const auto m = ExponentialMechanism::unrecorded(0.3, 1.0);
  EXPECT_LE(m.gamma(), 0.15);
  EXPECT_GT(m.gamma(), 0.15 * (1 - 0x1p-50));
  EXPECT_LE(ExponentialMechanism::unrecorded(1.0, 3.0).gamma() * 6.0, 1.0);
}

TEST(ExactExponential, BuildRecordsOneTypedEntry) {
  BudgetLedger ledger(0.3);
  const auto m = ExponentialMechanism::build(ledger, 0.3, 2.0, "threshold", "note");
  ASSERT_EQ(ledger.entries().size(), 1u);
  EXPECT_EQ(ledger.entries()[0].mechanism, "exponential_exact");
  EXPECT_EQ(ledger.entries()[0].sensitivity, 2.0);
  EXPECT_EQ(ledger.entries()[0].sensitivity_norm, "utility");
  EXPECT_EQ(ledger.entries()[0].epsilon, 0.3);
  EXPECT_NO_THROW(ledger.verify());
  EXPECT_LE(m.gamma(), 0.075);
  BudgetLedger quiet(0.3);
  quiet.set_noise_scale(0.0);
  EXPECT_TRUE(ExponentialMechanism::build(quiet, 0.3, 1.0, "t").noiseless());
}

TEST(ExactExponential, Below128IsInRangeAndUnbiasedInItsTopBit) {
  Rng rng(5);
  const uint128 n = (static_cast<uint128>(3) << 64) + 5;  // 3 * 2^64 + 5
  std::size_t upper_third = 0;
  const int draws = 60000;
  for (int i = 0; i < draws; ++i) {
    const uint128 v = below128(rng, n);
    ASSERT_LT(v, n);
    upper_third += (v >> 64) == 2;  // [2 * 2^64, 3 * 2^64): probability 2^64 / n, just under 1/3
  }
  const double p = 1.0 / 3.0;
  EXPECT_NEAR(static_cast<double>(upper_third) / draws, p, 4 * std::sqrt(p * (1 - p) / draws));
  for (int i = 0; i < 100; ++i) ASSERT_LT(below128(rng, 7), 7u);
}

TEST(ExactExponential, LazyBernoulliHasItsProbability) {
  Rng rng(11);
  // p = 2^40 * 3 * exp(-0.5 * 2) / q with q = 2^40 * 3 (delta 2, gamma 0.5): p = e^-1.
  const uint128 q = static_cast<uint128>(3) << 40;
  int yes = 0;
  const int draws = 100000;
  for (int i = 0; i < draws; ++i) yes += bernoulli_exp_ratio(rng, 0.5, 2, 3, q);
  const double p = std::exp(-1.0);
  EXPECT_NEAR(static_cast<double>(yes) / draws, p, 4 * std::sqrt(p * (1 - p) / draws));
  // p = 1 exactly (delta 0, q = 2^40 count): always true, and the comparison always resolves.
  for (int i = 0; i < 1000; ++i) ASSERT_TRUE(bernoulli_exp_ratio(rng, 0.5, 0, 3, q));
  // A proposal below its target is a bug that is caught, not a silent bias.
  EXPECT_THROW(bernoulli_exp_ratio(rng, 0.5, 0, 3, q / 2), std::logic_error);
}

TEST(ExactExponential, BlockFrequenciesMatchTheHandComputedLaw) {
  // counts {3, 0, 5, 1, 2}, distances {2, 0, 1, 0, 3}, gamma = eps / 2 = 0.5 (a dyadic, kept exactly):
  // weights 3 e^-1, 0, 5 e^-0.5, 1, 2 e^-1.5.
  const std::vector<std::uint64_t> counts{3, 0, 5, 1, 2}, distance{2, 0, 1, 0, 3};
  const auto m = ExponentialMechanism::unrecorded(1.0, 1.0);
  const std::vector<double> w{3 * std::exp(-1.0), 0, 5 * std::exp(-0.5), 1, 2 * std::exp(-1.5)};
  double total = 0;
  for (double x : w) total += x;
  const std::vector<double> p = m.block_probabilities(counts, distance);
  for (std::size_t b = 0; b < w.size(); ++b)
    EXPECT_NEAR(p[b], w[b] / total, 1e-6) << b;  // gamma = 0.5 - 2^-53 ulp effects
  Rng rng(20201109);
  const int draws = 200000;
  std::vector<double> seen(counts.size(), 0.0);
  std::vector<std::vector<double>> offsets(counts.size());
  for (std::size_t b = 0; b < counts.size(); ++b) offsets[b].assign(counts[b], 0.0);
  for (int i = 0; i < draws; ++i) {
    const auto c = m.choose(counts, distance, rng);
    ASSERT_LT(c.offset, counts[c.block]);
    seen[c.block] += 1;
    offsets[c.block][c.offset] += 1;
  }
  EXPECT_EQ(seen[1], 0.0) << "an empty block was chosen";
  double chi2 = 0;
  for (std::size_t b = 0; b < counts.size(); ++b) {
    if (p[b] == 0) continue;
    const double e = p[b] * draws;
    chi2 += (seen[b] - e) * (seen[b] - e) / e;
  }
  EXPECT_LT(chi2, 18.467);  // chi-square(3) 0.9995 quantile (4 non-empty blocks)
  // Uniform inside block 2 (5 points).
  double chi2_offsets = 0;
  for (double o : offsets[2]) chi2_offsets += (o - seen[2] / 5) * (o - seen[2] / 5) / (seen[2] / 5);
  EXPECT_LT(chi2_offsets, 20.0);  // chi-square(4) 0.9995 quantile
}

TEST(ExactExponential, NoiselessLimitAndExtremes) {
  Rng rng(3);
  const std::vector<std::uint64_t> counts{0, 4, 2, 4}, distance{0, 1, 1, 0};
  const auto quiet = ExponentialMechanism::unrecorded(1.0, 1.0, 0.0);
  for (int i = 0; i < 50; ++i) EXPECT_EQ(quiet.choose(counts, distance, rng).block, 3u);  // the non-empty nearest
  EXPECT_EQ(quiet.block_probabilities(counts, distance), (std::vector<double>{0, 0, 0, 1}));
  // A huge budget: always the nearest block; a far block of 2^40 points with weight exp(-5e5) is
  // enumerated without underflow trouble and never chosen.
  const auto sharp = ExponentialMechanism::unrecorded(1e6, 1.0);
  const std::vector<std::uint64_t> c2{1, std::uint64_t{1} << 40}, d2{0, 1};
  for (int i = 0; i < 200; ++i) EXPECT_EQ(sharp.choose(c2, d2, rng).block, 0u);
  // A tiny budget: probabilities ~ counts.
  const auto flat = ExponentialMechanism::unrecorded(1e-9, 1.0);
  const std::vector<double> p = flat.block_probabilities({1, 3}, {0, 1000});
  EXPECT_NEAR(p[1], 0.75, 1e-6);
  EXPECT_THROW(flat.choose({0, 0}, {0, 1}, rng), std::invalid_argument);
  EXPECT_THROW(flat.choose({1}, {0, 1}, rng), std::invalid_argument);
}

}  // namespace
}  // namespace dpclust::privacy
