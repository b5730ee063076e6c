// The pure statistics behind "within seed variance": k-subset distributions checked by hand, the
// percentile and the central interval, resampling determinism.
#include <gtest/gtest.h>

#include <cmath>

#include "report/seed_variance.hpp"

using namespace dpclust::report;

namespace {
Protocol mean_of(std::size_t k) { return {SeedStatistic::mean, k, ""}; }
}  // namespace

TEST(SeedVariance, Choose) {
  EXPECT_EQ(choose(4, 2), 6u);
  EXPECT_EQ(choose(30, 3), 4060u);
  EXPECT_EQ(choose(30, 10), 30045015u);
  EXPECT_EQ(choose(5, 0), 1u);
  EXPECT_EQ(choose(3, 4), 0u);
  EXPECT_EQ(choose(1000, 500), SIZE_MAX);  // saturates
}

// Four trials, k = 2: the six subset means by hand.
//   {0,1} 0.5  {0,2} 1.0  {0,3} 1.5  {1,2} 1.5  {1,3} 2.0  {2,3} 2.5
TEST(SeedVariance, ExactSubsetMeansByHand) {
  const SeedDistribution d = k_seed_distribution({3.0, 0.0, 2.0, 1.0}, mean_of(2));
  EXPECT_TRUE(d.exact);
  EXPECT_EQ(d.values, (std::vector<double>{0.5, 1.0, 1.5, 1.5, 2.0, 2.5}));
  // Mid-rank percentile: 1.5 has 2 below and 2 equal of 6 -> (2 + 1) / 6.
  EXPECT_DOUBLE_EQ(percentile(d, 1.5), 50.0);
  EXPECT_DOUBLE_EQ(percentile(d, 1.0), 100.0 * 1.5 / 6);
  EXPECT_DOUBLE_EQ(percentile(d, 0.0), 0.0);
  EXPECT_DOUBLE_EQ(percentile(d, 3.0), 100.0);
  // Central 95%: Q(0.025) = values[ceil(0.15) - 1] = 0.5, Q(0.975) = values[ceil(5.85) - 1] = 2.5.
  auto [lo, hi] = central_interval(d, 0.95);
  EXPECT_DOUBLE_EQ(lo, 0.5);
  EXPECT_DOUBLE_EQ(hi, 2.5);
  // Central 50%: Q(0.25) = values[ceil(1.5) - 1] = 1.0, Q(0.75) = values[ceil(4.5) - 1] = 2.0.
  std::tie(lo, hi) = central_interval(d, 0.5);
  EXPECT_DOUBLE_EQ(lo, 1.0);
  EXPECT_DOUBLE_EQ(hi, 2.0);
}

TEST(SeedVariance, InsideOutsideAndExactlyOnTheEdge) {
  const SeedDistribution d = k_seed_distribution({0.0, 1.0, 2.0, 3.0}, mean_of(2));
  EXPECT_TRUE(inside_central(d, 1.7));    // inside the band
  EXPECT_TRUE(inside_central(d, 0.5));    // exactly on the lower edge: inside
  EXPECT_TRUE(inside_central(d, 2.5));    // exactly on the upper edge: inside
  EXPECT_FALSE(inside_central(d, 0.49));  // just outside
  EXPECT_FALSE(inside_central(d, 2.51));
  EXPECT_TRUE(inside_central(d, 1.0, 0.5));
  EXPECT_FALSE(inside_central(d, 0.5, 0.5));
  EXPECT_FALSE(inside_central(d, std::nan("")));
}

TEST(SeedVariance, QuantileIndexIsExactAtIntegerPositions) {
  // 40 values 0..39: Q(0.025) is the 1st (0.025 * 40 = 1, not rounded up to 2), Q(0.975) the 39th.
  std::vector<double> t;
  for (int i = 0; i < 40; ++i) t.push_back(i);
  const SeedDistribution d = k_seed_distribution(t, {SeedStatistic::single, 1, ""});
  auto [lo, hi] = central_interval(d, 0.95);
  EXPECT_DOUBLE_EQ(lo, 0.0);
  EXPECT_DOUBLE_EQ(hi, 38.0);
}

TEST(SeedVariance, SingleIsTheTrialsAndMedianOfSubsets) {
  SeedDistribution d = k_seed_distribution({0.9, 0.0, 0.1}, {SeedStatistic::single, 1, ""});
  EXPECT_EQ(d.values, (std::vector<double>{0.0, 0.1, 0.9}));
  // Median of 3 of {0, 1, 2, 10}: {0,1,2} 1, {0,1,10} 1, {0,2,10} 2, {1,2,10} 2.
  d = k_seed_distribution({10.0, 0.0, 2.0, 1.0}, {SeedStatistic::median, 3, ""});
  EXPECT_EQ(d.values, (std::vector<double>{1.0, 1.0, 2.0, 2.0}));
  // Even k: the mean of the two middle values. {0,1} .5 {0,2} 1 {0,3} 1.5 {1,2} 1.5 {1,3} 2 {2,3} 2.5.
  d = k_seed_distribution({0.0, 1.0, 2.0, 3.0}, {SeedStatistic::median, 2, ""});
  EXPECT_EQ(d.values, (std::vector<double>{0.5, 1.0, 1.5, 1.5, 2.0, 2.5}));
  // Fewer trials than seeds: no distribution.
  EXPECT_TRUE(k_seed_distribution({1.0, 2.0}, mean_of(3)).values.empty());
}

TEST(SeedVariance, ResamplingIsDeterministicAndCloseToExact) {
  std::vector<double> t;
  for (int i = 0; i < 30; ++i) t.push_back(std::sin(1.0 + i) * 10);
  ResampleSettings exact;
  ResampleSettings sampled;
  sampled.max_exact = 100;  // C(30, 3) = 4060 > 100: resample
  sampled.resamples = 20000;
  const SeedDistribution e = k_seed_distribution(t, mean_of(3), exact);
  const SeedDistribution s1 = k_seed_distribution(t, mean_of(3), sampled);
  const SeedDistribution s2 = k_seed_distribution(t, mean_of(3), sampled);
  EXPECT_TRUE(e.exact);
  EXPECT_FALSE(s1.exact);
  EXPECT_EQ(e.values.size(), 4060u);
  EXPECT_EQ(s1.values.size(), 20000u);
  EXPECT_EQ(s1.values, s2.values);  // same seed, same subsets
  const auto [elo, ehi] = central_interval(e);
  const auto [slo, shi] = central_interval(s1);
  EXPECT_NEAR(slo, elo, 0.5);
  EXPECT_NEAR(shi, ehi, 0.5);
  EXPECT_NEAR(percentile(s1, 0.0), percentile(e, 0.0), 1.5);
}

TEST(SeedVariance, DifferenceOfTwoDistributions) {
  // Every pair: {0, 1} - {0, 2} = {-2, -1, 0, 1} (sorted).
  SeedDistribution a{{0.0, 1.0}, true}, b{{0.0, 2.0}, true};
  SeedDistribution d = difference_distribution(a, b);
  EXPECT_EQ(d.values, (std::vector<double>{-2.0, -1.0, 0.0, 1.0}));
  EXPECT_DOUBLE_EQ(percentile(d, 0.0), 62.5);  // 2 below, 1 equal of 4
  EXPECT_TRUE(inside_central(d, 0.0));
}

TEST(SeedVariance, Describe) {
  EXPECT_EQ(describe(mean_of(3)), "mean of 3 seeds");
  EXPECT_EQ(describe({SeedStatistic::single, 1, ""}), "single run");
  EXPECT_EQ(describe({SeedStatistic::median, 5, ""}), "median of 5 seeds");
}
