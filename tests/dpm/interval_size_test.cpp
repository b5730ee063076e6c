// DPM's hyper-parameter estimation: the codebook (computed spacing quantile against its closed form for n = 2,
// scipy's value for n = 1e5 and a Monte Carlo as the reference fills it), the lookup rule by hand, the gap
// statistics by hand, the pooled statistic's rank sensitivity on random neighbours (and the rank mean's
// failure of the reference's claim), and the private percentile's ledger and output set.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/ledger.hpp"
#include "core/rng.hpp"
#include "dpm/interval_size.hpp"
#include "privacy/exponential.hpp"
#include "privacy/samplers.hpp"

namespace dpclust::dpm {
namespace {

TEST(DpmCodebook, SpacingSurvivalOfTwoPointsIsClosedForm) {
  // Two standard normals: |X1 - X2| ~ |N(0, 2)|, S(g) = 2 - 2 Phi(g / sqrt 2).
  for (double g : {0.1, 0.5, 1.0, 2.5}) EXPECT_NEAR(normal_spacing_survival(2, g), std::erfc(g / 2), 1e-8) << g;
}

TEST(DpmCodebook, SpacingQuantileMatchesAnIndependentComputation) {
  // scipy (trapezoid rule on 200001 points over [-12, 12], brentq): 4.135863e-5 for n = 1e5 (synth_10d's n).
  EXPECT_NEAR(normal_spacing_quantile(100000) / 4.135863e-5, 1.0, 1e-4);
}

// numpy's percentile (linear interpolation) of a sorted sample.
double percentile_linear(const std::vector<double>& sorted, double q) {
  const double pos = q * static_cast<double>(sorted.size() - 1);
  const auto i = static_cast<std::size_t>(std::floor(pos));
  const double frac = pos - static_cast<double>(i);
  return i + 1 < sorted.size() ? sorted[i] + frac * (sorted[i + 1] - sorted[i]) : sorted[i];
}

TEST(DpmCodebook, SpacingQuantileMatchesTheReferencesMonteCarlo) {
  // The reference's codebook entry for sigma = 1: the mean over 30 columns of the 65th percentile of the
  // spacings of n sorted normal samples.
  const std::size_t n = 2000, columns = 30;
  Rng rng(7);
  double mean = 0;
  std::vector<double> x(n), gaps(n - 1);
  for (std::size_t c = 0; c < columns; ++c) {
    for (double& v : x) v = privacy::gaussian_textbook(rng, 1.0);
    std::sort(x.begin(), x.end());
    for (std::size_t i = 1; i < n; ++i) gaps[i - 1] = x[i] - x[i - 1];
    std::sort(gaps.begin(), gaps.end());
    mean += percentile_linear(gaps, 0.65) / columns;
  }
  // The Monte Carlo's own spread at n = 2000 is about 0.5%.
  EXPECT_NEAR(mean / normal_spacing_quantile(n), 1.0, 0.02);
}

TEST(DpmCodebook, LookupRuleByHand) {
  // sigma in {0.5, ..., 29.5} nearest to p / g, then w = sigma / 2.
  EXPECT_EQ(codebook_sigma(10.2, 1.0), 10.0);
  EXPECT_EQ(codebook_sigma(10.3, 1.0), 10.5);
  EXPECT_EQ(codebook_sigma(10.25, 1.0), 10.0);  // a tie: the first, as numpy's argmin
  EXPECT_EQ(codebook_sigma(0.0, 1.0), 0.5);
  EXPECT_EQ(codebook_sigma(1e9, 1.0), 29.5);  // synth_10d's case: p / g = 37 is beyond the codebook
  EXPECT_EQ(codebook_sigma(0.0154, 0.001), 15.5);
}

TEST(DpmGaps, PooledAndRankMeanByHand) {
  // Two dimensions, three points; the second coordinate of the last point is clamped from 9 to 5.
  const std::vector<double> x = {0.0, 1.0, 2.0, 0.0, 3.0, 9.0};
  Bounds b{{0.0, 0.0}, {5.0, 5.0}};
  const std::vector<double> pooled = pooled_gaps(x.data(), 3, 2, b);
  EXPECT_EQ(pooled, (std::vector<double>{2.0, 1.0, 1.0, 4.0}));  // dim 0: 0, 2, 3; dim 1: 0, 1, 5
  const std::vector<double> rank = rank_mean_gaps(x.data(), 3, 2, b);
  EXPECT_EQ(rank, (std::vector<double>{1.5, 2.5}));
}

// Counts of values <= t for every t in `thresholds`.
std::vector<long> counts_below(std::vector<double> v, const std::vector<double>& thresholds) {
  std::sort(v.begin(), v.end());
  std::vector<long> out;
  for (double t : thresholds) out.push_back(static_cast<long>(std::upper_bound(v.begin(), v.end(), t) - v.begin()));
  return out;
}

TEST(DpmGaps, PooledRankSensitivityIsTwoPerDimensionAndRankMeanIsNot) {
  const std::size_t n = 300, d = 3;
  Rng rng(99);
  std::vector<double> x(n * d);
  for (double& v : x) v = rng.uniform(0, 10);
  Bounds b{{0, 0, 0}, {10, 10, 10}};
  std::vector<double> thresholds;
  for (int i = 0; i <= 400; ++i) thresholds.push_back(0.0002 * i);
  long worst_pooled = 0, worst_rank = 0;
  for (int trial = 0; trial < 50; ++trial) {
    std::vector<double> y = x;
    for (std::size_t j = 0; j < d; ++j) y.push_back(rng.uniform(0, 10));  // the neighbour with one more point
    const auto a = counts_below(pooled_gaps(x.data(), n, d, b), thresholds),
               c = counts_below(pooled_gaps(y.data(), n + 1, d, b), thresholds);
    const auto ra = counts_below(rank_mean_gaps(x.data(), n, d, b), thresholds),
               rc = counts_below(rank_mean_gaps(y.data(), n + 1, d, b), thresholds);
    for (std::size_t i = 0; i < thresholds.size(); ++i) {
      worst_pooled = std::max(worst_pooled, std::abs(c[i] - a[i]));
      worst_rank = std::max(worst_rank, std::abs(rc[i] - ra[i]));
    }
  }
  EXPECT_LE(worst_pooled, static_cast<long>(2 * d));  // the charged rank sensitivity 2d holds
  EXPECT_GT(worst_rank, 2);                           // the reference's sensitivity 2 does not, for d > 1
}

TEST(DpmPercentile, SecureOutputOnThePublicLatticeAndRecorded) {
  std::vector<double> v;
  for (int i = 1; i <= 1000; ++i) v.push_back(0.01 * i);  // 0.01 .. 10, the 65th percentile 6.5
  BudgetLedger ledger(0.5, 1e-6);
  Rng rng(3);
  std::vector<double> copy = v;
  const double p = private_quantile(copy, 0.65, 20.0, 2.0, 0.5, privacy::Sampler::secure, rng, ledger, "percentile");
  const double j = std::ldexp(p / 20.0, 40);
  EXPECT_EQ(j, std::floor(j));  // j 20 2^-40 for an integer j
  EXPECT_NEAR(p, 6.5, 0.5);     // rank error of a few tens at eps = 0.5 over 1000 values
  ASSERT_EQ(ledger.entries().size(), 1u);
  EXPECT_EQ(ledger.entries()[0].mechanism, "exponential_exact");
  EXPECT_EQ(ledger.entries()[0].sensitivity, 2.0 * kQualityUnits + 2);
  EXPECT_DOUBLE_EQ(ledger.spent_epsilon(), 0.5);
}

// Every point of the public lattice j B 2^-40, j = 0..2^40, is a possible output on any data: on all-identical
// data (every gap 0) the last interval holds all 2^40 + 1 points, one more than the exact mechanism takes in a
// block. Cutting it to 2^40 left j = 2^40 impossible there while a neighbour (one gap above 0) makes it
// possible: an outcome of infinite privacy loss. It is now a block of its own, at the same distance.
TEST(DpmPercentile, EveryLatticePointIsPossibleOnAllIdenticalData) {
  constexpr std::uint64_t kPoints = (std::uint64_t{1} << 40) + 1;
  auto covers_the_lattice = [&](const std::vector<double>& sorted, const char* what) {
    SCOPED_TRACE(what);
    const LatticeBlocks b = quantile_lattice_blocks(sorted, 0.65, 20.0);
    ASSERT_EQ(b.count.size(), b.distance.size());
    ASSERT_EQ(b.count.size(), b.first.size());
    std::uint64_t next = 0;  // the blocks tile 0..2^40 in order, every point once
    for (std::size_t i = 0; i < b.count.size(); ++i) {
      EXPECT_LE(b.count[i], std::uint64_t{1} << 40);
      if (b.count[i] == 0) continue;
      EXPECT_EQ(b.first[i], next) << i;
      next = b.first[i] + b.count[i];
    }
    EXPECT_EQ(next, kPoints);
  };
  covers_the_lattice(std::vector<double>(9, 0.0), "all gaps 0");
  covers_the_lattice({0, 0, 0, 0, 0, 0, 0, 0, 0, 0.5}, "a neighbour: one gap above 0");
  covers_the_lattice({0.01, 0.5, 3, 7.25, 19}, "spread gaps");
  // On all-identical data the last two blocks (2^40 and the last point) share the target distance's rank 9.
  const LatticeBlocks same = quantile_lattice_blocks(std::vector<double>(9, 0.0), 0.65, 20.0);
  ASSERT_EQ(same.count.size(), 11u);
  EXPECT_EQ(same.count[9], std::uint64_t{1} << 40);
  EXPECT_EQ(same.count[10], 1u);
  EXPECT_EQ(same.first[10], std::uint64_t{1} << 40);
  EXPECT_EQ(same.distance[9], same.distance[10]);
  // And the mechanism gives that point the probability of any other point of its block.
  const privacy::ExponentialMechanism em = privacy::ExponentialMechanism::unrecorded(1.0, 2.0 * kQualityUnits + 2);
  const std::vector<double> p = em.block_probabilities(same.count, same.distance);
  EXPECT_GT(p[10], 0.0);
  EXPECT_NEAR(p[10] * static_cast<double>(std::uint64_t{1} << 40), p[9], 1e-9 * p[9]);
}

TEST(DpmPercentile, TextbookDeclaresTheLedgerUnbounded) {
  std::vector<double> v = {1, 2, 3, 4};
  BudgetLedger ledger(1.0, 1e-6);
  Rng rng(3);
  const double p = private_quantile(v, 0.5, 10.0, 2.0, 1.0, privacy::Sampler::textbook, rng, ledger, "percentile");
  EXPECT_GE(p, 0.0);
  EXPECT_LE(p, 10.0);
  EXPECT_TRUE(ledger.unbounded());
}

TEST(DpmPercentile, NoiselessPicksTheTargetInterval) {
  std::vector<double> v;
  for (int i = 1; i <= 100; ++i) v.push_back(i);  // target 0.65 * 100 = 65: the interval [65, 66)
  for (privacy::Sampler s : {privacy::Sampler::secure, privacy::Sampler::textbook}) {
    BudgetLedger ledger(1.0, 1e-6);
    ledger.set_noise_scale(0);
    Rng rng(5);
    std::vector<double> copy = v;
    const double p = private_quantile(copy, 0.65, 200.0, 2.0, 1.0, s, rng, ledger, "percentile");
    EXPECT_GE(p, 65.0 - 1e-9) << privacy::to_string(s);
    EXPECT_LT(p, 66.0) << privacy::to_string(s);
  }
}

}  // namespace
}  // namespace dpclust::dpm
