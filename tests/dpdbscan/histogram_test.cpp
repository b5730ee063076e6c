// The linear-time histogram (Alg. 2) against the naive one (Thm 2.8) in distribution: Theorem 6.1 says
// Alg. 2 releases exactly the naive histogram with entries below theta removed. Fixed seeds; counts of
// released cells compared by their means, released values by a two-sample Kolmogorov-Smirnov test.
#include "dpdbscan/histogram.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "dpdbscan/error_bounds.hpp"

namespace dpclust::dpdbscan {
namespace {

// Two-sample Kolmogorov-Smirnov statistic sup |F_a - F_b|.
double ks_statistic(std::vector<double> a, std::vector<double> b) {
  std::sort(a.begin(), a.end());
  std::sort(b.begin(), b.end());
  std::size_t i = 0, j = 0;
  double dmax = 0;
  while (i < a.size() && j < b.size()) {
    const double x = std::min(a[i], b[j]);
    while (i < a.size() && a[i] <= x) ++i;
    while (j < b.size() && b[j] <= x) ++j;
    dmax = std::max(dmax, std::fabs(static_cast<double>(i) / static_cast<double>(a.size()) - static_cast<double>(j) / static_cast<double>(b.size())));
  }
  return dmax;
}
// Critical value at level 0.001.
double ks_critical(std::size_t n, std::size_t m) {
  return 1.949 * std::sqrt(static_cast<double>(n + m) / (static_cast<double>(n) * static_cast<double>(m)));
}

CellCounts toy_counts(std::uint64_t universe, std::size_t occupied, std::uint64_t seed) {
  CellCounts c;
  c.dense = true;
  c.universe = universe;
  c.dense_counts.assign(universe, 0);
  Rng rng(seed);
  while (c.occupied < occupied) {
    const std::uint64_t j = rng.below(universe);
    if (c.dense_counts[j]) continue;
    c.dense_counts[j] = static_cast<std::uint32_t>(1 + rng.below(6));
    ++c.occupied;
  }
  return c;
}

struct Pooled {
  std::vector<double> released_counts;  // per trial
  std::vector<double> empty_values, occupied_values;
};

void pool(const CellCounts& c, const NoisyHistogram& h, double theta, Pooled& out) {
  std::size_t cnt = 0;
  for (std::uint64_t i = 0; i < c.universe; ++i) {
    const double v = h.dense_values[i];
    const bool released = h.linear ? v != 0 : v >= theta;
    if (!released) continue;
    ++cnt;
    (c.dense_counts[i] ? out.occupied_values : out.empty_values).push_back(v);
  }
  out.released_counts.push_back(static_cast<double>(cnt));
}

void compare(NoiseKind kind, double eps, double delta) {
  const std::uint64_t X = 4000;
  const CellCounts c = toy_counts(X, 150, 7);
  double n = 0;
  for (auto v : c.dense_counts) n += v;
  const Noise noise(kind, eps, delta, false);
  const double theta = default_theta(noise, static_cast<double>(X), n);
  ASSERT_GT(theta, 0);
  Pooled naive, linear;
  const int trials = 400;
  for (int t = 0; t < trials; ++t) {
    Rng r1(1000 + static_cast<std::uint64_t>(t)), r2(5000 + static_cast<std::uint64_t>(t));
    pool(c, naive_histogram(c, noise, r1), theta, naive);
    pool(c, linear_histogram(c, noise, theta, r2), theta, linear);
  }
  auto mean = [](const std::vector<double>& v) {
    double s = 0;
    for (double x : v) s += x;
    return s / static_cast<double>(v.size());
  };
  auto sd = [&](const std::vector<double>& v) {
    const double m = mean(v);
    double s = 0;
    for (double x : v) s += (x - m) * (x - m);
    return std::sqrt(s / static_cast<double>(v.size() - 1));
  };
  // Number of cells released (above theta): same mean within 4.5 standard errors of the difference.
  const double se = std::sqrt((sd(naive.released_counts) * sd(naive.released_counts) +
                               sd(linear.released_counts) * sd(linear.released_counts)) / trials);
  EXPECT_NEAR(mean(naive.released_counts), mean(linear.released_counts), 4.5 * se)
      << "naive " << mean(naive.released_counts) << " linear " << mean(linear.released_counts);
  // Expected released empty cells: M p.
  const double Mp = static_cast<double>(X - c.occupied) * noise.tail_probability(theta);
  EXPECT_NEAR(static_cast<double>(linear.empty_values.size()) / trials, Mp, 4.5 * std::sqrt(Mp / trials));
  // Released values of empty and of occupied cells: same distributions.
  EXPECT_LT(ks_statistic(naive.empty_values, linear.empty_values), ks_critical(naive.empty_values.size(), linear.empty_values.size()));
  EXPECT_LT(ks_statistic(naive.occupied_values, linear.occupied_values),
            ks_critical(naive.occupied_values.size(), linear.occupied_values.size()));
}

TEST(LinearHistogram, MatchesNaiveInDistributionLaplace) { compare(NoiseKind::laplace, 1.0, 0); }
TEST(LinearHistogram, MatchesNaiveInDistributionGeometric) { compare(NoiseKind::geometric, 1.0, 0); }
TEST(LinearHistogram, MatchesNaiveInDistributionGaussian) { compare(NoiseKind::gaussian, 0.9, 1e-3); }

TEST(LinearHistogram, DenseAndSparseStorageReleaseTheSameHistogram) {
  // Points on a 2-D domain; the two storages must consume the random stream identically.
  Rng gen(3);
  std::vector<double> pts;
  for (int i = 0; i < 3000; ++i) {
    pts.push_back(gen.uniform() < 0.7 ? 2 + 0.3 * gen.normal() : gen.uniform(0, 10));
    pts.push_back(gen.uniform() < 0.7 ? 5 + 0.3 * gen.normal() : gen.uniform(0, 10));
  }
  for (auto& x : pts) x = std::clamp(x, 0.0, 10.0);
  const CellGrid g = make_grid(Bounds{{0, 0}, {10, 10}}, 0.05, 4.0);
  const CellCounts dense = count_cells(g, pts.data(), 3000, true), sparse = count_cells(g, pts.data(), 3000, false);
  EXPECT_EQ(dense.occupied, sparse.occupied);
  const Noise noise(NoiseKind::laplace, 1.0, 0, false);
  const double theta = default_theta(noise, static_cast<double>(g.universe), 3000);
  Rng r1(11), r2(11);
  const NoisyHistogram hd = linear_histogram(dense, noise, theta, r1), hs = linear_histogram(sparse, noise, theta, r2);
  EXPECT_EQ(hd.released, hs.released);
  EXPECT_GT(hd.sampled_empty, 0u);
  std::size_t k = 0;
  for (std::uint64_t i = 0; i < g.universe; ++i) {
    if (hd.dense_values[i] == 0) continue;
    ASSERT_LT(k, hs.codes.size());
    EXPECT_EQ(hs.codes[k], i);
    EXPECT_EQ(hs.values[k], hd.dense_values[i]);
    ++k;
  }
  EXPECT_EQ(k, hs.codes.size());
}

TEST(Noise, TailDrawsMatchRejection) {
  // Z | Z >= theta by the closed-form / tail samplers vs by plain rejection from Z.
  struct Case {
    NoiseKind kind;
    double eps, delta, theta;
  };
  for (const Case& cs : {Case{NoiseKind::laplace, 1.0, 0, 1.5}, Case{NoiseKind::geometric, 0.7, 0, 2.3},
                         Case{NoiseKind::gaussian, 0.8, 1e-2, 2.0}, Case{NoiseKind::gaussian, 0.8, 1e-2, 9.0}}) {
    SCOPED_TRACE(to_string(cs.kind));
    const Noise z(cs.kind, cs.eps, cs.delta, false);
    Rng a(1), b(2);
    std::vector<double> tail, rej;
    while (rej.size() < 20000) {
      const double v = z.draw(b);
      if (v >= cs.theta) rej.push_back(v);
    }
    for (int i = 0; i < 20000; ++i) tail.push_back(z.draw_tail(a, cs.theta));
    EXPECT_GE(*std::min_element(tail.begin(), tail.end()), cs.theta);
    EXPECT_LT(ks_statistic(tail, rej), ks_critical(tail.size(), rej.size()));
    // Tail probability against the empirical frequency.
    Rng c(3);
    int hits = 0;
    const int N = 200000;
    for (int i = 0; i < N; ++i) hits += z.draw(c) >= cs.theta;
    const double p = z.tail_probability(cs.theta);
    EXPECT_NEAR(static_cast<double>(hits) / N, p, 5 * std::sqrt(p * (1 - p) / N) + 1e-12);
  }
}

TEST(LinearHistogram, HugeUniverseSparseRunsInOrderN) {
  // |X| = 2^60 cells (1-D), 1000 points: Alg. 2 touches O(n) cells; m ~ Bin(2^60, n/(2|X|)).
  std::vector<double> pts(1000);
  for (std::size_t i = 0; i < pts.size(); ++i) pts[i] = static_cast<double>(i % 10);
  const CellGrid g = make_grid(Bounds{{0.0}, {std::ldexp(1.0, 60)}}, 1.0, 4.0);  // w = 1
  ASSERT_EQ(g.universe, (std::uint64_t{1} << 60) + 1);
  const CellCounts c = count_cells(g, pts.data(), pts.size(), false);
  EXPECT_EQ(c.occupied, 10u);
  const Noise noise(NoiseKind::laplace, 1.0, 0, false);
  Rng rng(5);
  const NoisyHistogram h = linear_histogram(c, noise, default_theta(noise, static_cast<double>(g.universe), 1000), rng);
  EXPECT_LT(h.sampled_empty, 1000u);
  EXPECT_GT(h.sampled_empty, 300u);  // mean 500
  EXPECT_EQ(h.codes.size(), h.released);
  EXPECT_TRUE(std::is_sorted(h.codes.begin(), h.codes.end()));
}

}  // namespace
}  // namespace dpclust::dpdbscan
