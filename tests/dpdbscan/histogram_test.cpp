// The linear-time histogram (Alg. 2) against the naive one (Thm 2.8) in distribution: Theorem 6.1 says
// Alg. 2 releases exactly the naive histogram with entries below theta removed. Fixed seeds; counts of
// released cells compared by their means, released values by a two-sample Kolmogorov-Smirnov test
// (conservative for the integer-valued secure noise) and, for the secure sampler, by chi-square tests on
// the released integers. Every test below has a false-alarm rate of at most 1e-3 per comparison
// (stated where it is computed), with fixed seeds, so it either always passes or always fails.
#include <gtest/gtest.h>

#include <algorithm>
#include <boost/math/distributions/chi_squared.hpp>
#include <cmath>
#include <map>
#include <vector>

#include "dpdbscan/error_bounds.hpp"
#include "dpdbscan/histogram.hpp"
#include "dpdbscan/linear_histogram.hpp"
#include "dpdbscan/naive_histogram.hpp"

namespace dpclust::dpdbscan {
namespace {

using privacy::Sampler;

// The cell streams of a trial whose generator is `rng` (one word drawn, as dp_dbscan does).
CellStreams cell_noise(Rng& rng) { return CellStreams::for_trial(rng, kHistogramNoiseLane); }

privacy::CountMechanism mech(NoiseKind kind, Sampler sampler, double eps, double delta = 0) {
  BudgetLedger ledger(eps, delta);
  return histogram_mechanism(ledger, kind, sampler, eps, delta, false, "histogram", "");
}

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
    dmax = std::max(dmax, std::fabs(static_cast<double>(i) / static_cast<double>(a.size()) -
                                    static_cast<double>(j) / static_cast<double>(b.size())));
  }
  return dmax;
}
// Critical value at level 0.001 (continuous laws; conservative for discrete ones).
double ks_critical(std::size_t n, std::size_t m) {
  return 1.949 * std::sqrt(static_cast<double>(n + m) / (static_cast<double>(n) * static_cast<double>(m)));
}

// Integer samples binned as k0, k0+1, ..., with the last bin pooling the tail; bins merged from the top
// until every expected count is >= 5.
struct Bins {
  std::int64_t k0 = 0;
  std::size_t nbins = 0;
  std::size_t bin(double v) const {
    const auto k = static_cast<std::int64_t>(v) - k0;
    return std::min<std::size_t>(static_cast<std::size_t>(k), nbins - 1);
  }
};

// Two-sample chi-square homogeneity test on integer samples a, b >= k0: returns (statistic, critical
// value at level alpha, degrees of freedom).
struct ChiSquare {
  double statistic = 0, critical = 0;
  std::size_t df = 0;
};
ChiSquare chi_square_two_sample(const std::vector<double>& a, const std::vector<double>& b, std::int64_t k0,
                                double alpha) {
  std::map<std::int64_t, double> ca, cb;
  for (double v : a) ca[static_cast<std::int64_t>(v)] += 1;
  for (double v : b) cb[static_cast<std::int64_t>(v)] += 1;
  const double na = static_cast<double>(a.size()), nb = static_cast<double>(b.size());
  // Bins k0, k0+1, ... while both expected counts stay >= 5; the rest pooled.
  std::vector<std::pair<double, double>> cells;
  double ra = na, rb = nb;
  for (std::int64_t k = k0;; ++k) {
    const double xa = ca.count(k) ? ca[k] : 0, xb = cb.count(k) ? cb[k] : 0;
    const double tot = ra + rb, row = xa + xb, rest = tot - row;
    if (row * std::min(na, nb) / (na + nb) < 5 || rest * std::min(na, nb) / (na + nb) < 5) break;
    cells.emplace_back(xa, xb);
    ra -= xa;
    rb -= xb;
  }
  cells.emplace_back(ra, rb);
  ChiSquare r;
  for (const auto& [xa, xb] : cells) {
    const double row = xa + xb;
    const double ea = row * na / (na + nb), eb = row * nb / (na + nb);
    r.statistic += (xa - ea) * (xa - ea) / ea + (xb - eb) * (xb - eb) / eb;
  }
  r.df = cells.size() - 1;
  r.critical =
      boost::math::quantile(boost::math::complement(boost::math::chi_squared(static_cast<double>(r.df)), alpha));
  return r;
}

// Goodness of fit of integer samples >= k to the discrete Laplace of scale b conditioned on Z >= k:
// Pr[z] = (1 - q) q^(z - k), q = e^(-1/b).
ChiSquare chi_square_tail_fit(const std::vector<double>& a, std::int64_t k, double b, double alpha) {
  const double q = std::exp(-1.0 / b), n = static_cast<double>(a.size());
  std::map<std::int64_t, double> c;
  for (double v : a) c[static_cast<std::int64_t>(v)] += 1;
  ChiSquare r;
  double rest_obs = n, rest_p = 1;
  std::size_t cells = 0;
  for (std::int64_t z = k;; ++z) {
    const double p = (1 - q) * std::pow(q, static_cast<double>(z - k));
    if (n * p < 5 || n * (rest_p - p) < 5) break;
    const double x = c.count(z) ? c[z] : 0;
    r.statistic += (x - n * p) * (x - n * p) / (n * p);
    rest_obs -= x;
    rest_p -= p;
    ++cells;
  }
  r.statistic += (rest_obs - n * rest_p) * (rest_obs - n * rest_p) / (n * rest_p);
  r.df = cells;  // cells + 1 bins, no fitted parameter
  r.critical =
      boost::math::quantile(boost::math::complement(boost::math::chi_squared(static_cast<double>(r.df)), alpha));
  return r;
}

bool all_integers(const std::vector<double>& v) {
  return std::all_of(v.begin(), v.end(), [](double x) { return x == std::floor(x); });
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

void compare(NoiseKind kind, Sampler sampler, double eps, double delta) {
  const std::uint64_t X = 4000;
  const CellCounts c = toy_counts(X, 150, 7);
  double n = 0;
  for (auto v : c.dense_counts) n += v;
  const privacy::CountMechanism noise = mech(kind, sampler, eps, delta);
  const double theta = default_theta(kind, noise, 1.0, static_cast<double>(X), n);
  ASSERT_GT(theta, 0);
  Pooled naive, linear;
  const int trials = 400;
  for (int t = 0; t < trials; ++t) {
    Rng r1(1000 + static_cast<std::uint64_t>(t)), r2(5000 + static_cast<std::uint64_t>(t));
    pool(c, naive_histogram(c, noise, cell_noise(r1)), theta, naive);
    pool(c, linear_histogram(c, noise, theta, cell_noise(r2), r2), theta, linear);
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
                               sd(linear.released_counts) * sd(linear.released_counts)) /
                              trials);
  EXPECT_NEAR(mean(naive.released_counts), mean(linear.released_counts), 4.5 * se)
      << "naive " << mean(naive.released_counts) << " linear " << mean(linear.released_counts);
  // Expected released empty cells: M p.
  const double Mp = static_cast<double>(X - c.occupied) * noise.tail_probability(theta);
  EXPECT_NEAR(static_cast<double>(linear.empty_values.size()) / trials, Mp, 4.5 * std::sqrt(Mp / trials));
  // Released values of empty and of occupied cells: same distributions.
  EXPECT_LT(ks_statistic(naive.empty_values, linear.empty_values),
            ks_critical(naive.empty_values.size(), linear.empty_values.size()));
  EXPECT_LT(ks_statistic(naive.occupied_values, linear.occupied_values),
            ks_critical(naive.occupied_values.size(), linear.occupied_values.size()));
  if (sampler == Sampler::secure || kind == NoiseKind::geometric) {
    // Integers, and the same law of the released empty-cell values (chi-square, level 1e-3).
    EXPECT_TRUE(all_integers(naive.empty_values) && all_integers(linear.empty_values) &&
                all_integers(linear.occupied_values));
    const ChiSquare cs = chi_square_two_sample(naive.empty_values, linear.empty_values,
                                               static_cast<std::int64_t>(std::ceil(theta)), 1e-3);
    EXPECT_GE(cs.df, 2u);
    EXPECT_LT(cs.statistic, cs.critical) << "df " << cs.df;
  }
}

TEST(LinearHistogram, MatchesNaiveInDistributionLaplace) { compare(NoiseKind::laplace, Sampler::textbook, 1.0, 0); }
TEST(LinearHistogram, MatchesNaiveInDistributionDiscreteLaplace) {
  compare(NoiseKind::laplace, Sampler::secure, 1.0, 0);
}
TEST(LinearHistogram, MatchesNaiveInDistributionGeometric) { compare(NoiseKind::geometric, Sampler::textbook, 1.0, 0); }
TEST(LinearHistogram, MatchesNaiveInDistributionGaussian) {
  compare(NoiseKind::gaussian, Sampler::textbook, 0.9, 1e-3);
}
TEST(LinearHistogram, MatchesNaiveInDistributionDiscreteGaussian) {
  compare(NoiseKind::gaussian, Sampler::secure, 0.9, 1e-3);
}

TEST(LinearHistogram, SecureBranchesReleaseTheSameIntegersAboveTheta) {
  // Alg. 2's two branches under the secure sampler: an occupied cell of count 0 (listed in F with x = 0,
  // lines 4-7: released when Z >= theta) and a sampled empty cell (lines 11-13: Z | Z >= theta). Both
  // must release integers >= ceil(theta) with Pr[z] = Pr[Z = z | Z >= ceil(theta)] = (1 - q) q^(z - k).
  // Checked by a two-sample chi-square test between the branches and a goodness-of-fit test of each
  // branch to the exact law, each at level 1e-3 (false-alarm rate <= 3e-3 in all; fixed seeds).
  const std::size_t K = 4000;     // listed cells of count 0
  const std::uint64_t X = 44000;  // universe: 40000 empty cells
  CellCounts c;
  c.dense = false;
  c.universe = X;
  for (std::size_t i = 0; i < K; ++i) {
    c.codes.push_back(10 * i);  // ascending, spread over the universe
    c.counts.push_back(0);
  }
  c.occupied = K;
  const double eps = 0.8, theta = 2.5;  // b = 1.25, released from k = 3 on
  const privacy::CountMechanism m = mech(NoiseKind::laplace, Sampler::secure, eps);
  const std::int64_t k = 3;
  std::vector<double> from_occupied, from_empty;
  std::vector<char> listed(X, 0);
  for (std::uint64_t code : c.codes) listed[code] = 1;
  for (int t = 0; t < 150; ++t) {
    Rng rng(77 + static_cast<std::uint64_t>(t));
    const NoisyHistogram h = linear_histogram(c, m, theta, cell_noise(rng), rng);
    for (std::size_t i = 0; i < h.codes.size(); ++i)
      (listed[h.codes[i]] ? from_occupied : from_empty).push_back(h.values[i]);
  }
  ASSERT_GT(from_occupied.size(), 3000u);
  ASSERT_GT(from_empty.size(), 30000u);
  EXPECT_TRUE(all_integers(from_occupied));
  EXPECT_TRUE(all_integers(from_empty));
  EXPECT_GE(*std::min_element(from_occupied.begin(), from_occupied.end()), static_cast<double>(k));
  EXPECT_GE(*std::min_element(from_empty.begin(), from_empty.end()), static_cast<double>(k));
  const ChiSquare two = chi_square_two_sample(from_occupied, from_empty, k, 1e-3);
  EXPECT_GE(two.df, 4u);
  EXPECT_LT(two.statistic, two.critical) << "df " << two.df;
  for (const auto* v : {&from_occupied, &from_empty}) {
    const ChiSquare fit = chi_square_tail_fit(*v, k, m.scale(), 1e-3);
    EXPECT_GE(fit.df, 4u);
    EXPECT_LT(fit.statistic, fit.critical) << "df " << fit.df;
  }
  // The same number of releases per cell in both branches: Pr[Z >= k] (4.5 standard errors).
  const double p = m.tail_probability(theta);
  EXPECT_NEAR(p, std::exp(-k / m.scale()) / (1 + std::exp(-1 / m.scale())), 1e-12);
  const double per_occ = static_cast<double>(from_occupied.size()) / (150.0 * K);
  const double per_empty = static_cast<double>(from_empty.size()) / (150.0 * static_cast<double>(X - K));
  EXPECT_NEAR(per_occ, p, 4.5 * std::sqrt(p * (1 - p) / (150.0 * K)));
  EXPECT_NEAR(per_empty, p, 4.5 * std::sqrt(p / (150.0 * static_cast<double>(X - K))));
}

TEST(LinearHistogram, SecureValuesAreIntegersAndTheSameInBothStorages) {
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
  for (Sampler s : {Sampler::secure, Sampler::textbook}) {
    SCOPED_TRACE(privacy::to_string(s));
    const privacy::CountMechanism noise = mech(NoiseKind::laplace, s, 1.0);
    const double theta = default_theta(NoiseKind::laplace, noise, 1.0, static_cast<double>(g.universe), 3000);
    Rng r1(11), r2(11);
    const NoisyHistogram hd = linear_histogram(dense, noise, theta, cell_noise(r1), r1),
                         hs = linear_histogram(sparse, noise, theta, cell_noise(r2), r2);
    EXPECT_EQ(hd.released, hs.released);
    EXPECT_GT(hd.sampled_empty, 0u);
    EXPECT_EQ(all_integers(hs.values), s == Sampler::secure);
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
}

TEST(LinearHistogram, ThetaZeroIsTheSmallestPositiveTheta) {
  // theta = 0 (n >= |X|): a released 0 is no release, so Alg. 2 runs with the smallest positive theta.
  const CellCounts c = toy_counts(200, 150, 3);
  for (Sampler s : {Sampler::secure, Sampler::textbook}) {
    const privacy::CountMechanism m = mech(NoiseKind::laplace, s, 1.0);
    Rng rng(2);
    const NoisyHistogram h = linear_histogram(c, m, 0.0, cell_noise(rng), rng);
    for (double v : h.dense_values) EXPECT_GE(v, 0.0);
    EXPECT_GT(h.sampled_empty, 0u);
  }
}

TEST(Noise, TailDrawsMatchRejection) {
  // Z | Z >= theta by the mechanism's tail samplers vs by plain rejection from Z.
  struct Case {
    NoiseKind kind;
    Sampler sampler;
    double eps, delta, theta;
  };
  for (const Case& cs : {Case{NoiseKind::laplace, Sampler::textbook, 1.0, 0, 1.5},
                         Case{NoiseKind::laplace, Sampler::secure, 1.0, 0, 1.5},
                         Case{NoiseKind::geometric, Sampler::textbook, 0.7, 0, 2.3},
                         Case{NoiseKind::gaussian, Sampler::textbook, 0.8, 1e-2, 2.0},
                         Case{NoiseKind::gaussian, Sampler::secure, 0.8, 1e-2, 9.0}}) {
    SCOPED_TRACE(std::string(to_string(cs.kind)) + " " + privacy::to_string(cs.sampler));
    const privacy::CountMechanism z = mech(cs.kind, cs.sampler, cs.eps, cs.delta);
    Rng a(1), b(2);
    std::vector<double> tail, rej;
    while (rej.size() < 20000) {
      const double v = z.noise(b);
      if (v >= cs.theta) rej.push_back(v);
    }
    for (int i = 0; i < 20000; ++i) tail.push_back(z.draw_tail(a, cs.theta));
    EXPECT_GE(*std::min_element(tail.begin(), tail.end()), cs.theta);
    EXPECT_LT(ks_statistic(tail, rej), ks_critical(tail.size(), rej.size()));
    // Tail probability against the empirical frequency.
    Rng c(3);
    int hits = 0;
    const int N = 200000;
    for (int i = 0; i < N; ++i) hits += z.noise(c) >= cs.theta;
    const double p = z.tail_probability(cs.theta);
    EXPECT_NEAR(static_cast<double>(hits) / N, p, 5 * std::sqrt(p * (1 - p) / N) + 1e-12);
  }
}

TEST(LinearHistogram, HugeUniverseSparseRunsInOrderN) {
  // |X| = 2^60 cells (1-D), 1000 points: Alg. 2 touches O(n) cells; m ~ Bin(2^60, p), p ~ n/(2|X|).
  std::vector<double> pts(1000);
  for (std::size_t i = 0; i < pts.size(); ++i) pts[i] = static_cast<double>(i % 10);
  const CellGrid g = make_grid(Bounds{{0.0}, {std::ldexp(1.0, 60)}}, 1.0, 4.0);  // w = 1
  ASSERT_EQ(g.universe, (std::uint64_t{1} << 60) + 1);
  const CellCounts c = count_cells(g, pts.data(), pts.size(), false);
  EXPECT_EQ(c.occupied, 10u);
  for (Sampler s : {Sampler::secure, Sampler::textbook}) {
    const privacy::CountMechanism noise = mech(NoiseKind::laplace, s, 1.0);
    Rng rng(5);
    const NoisyHistogram h =
        linear_histogram(c, noise, default_theta(NoiseKind::laplace, noise, 1.0, static_cast<double>(g.universe), 1000),
                         cell_noise(rng), rng);
    EXPECT_LT(h.sampled_empty, 1000u);
    EXPECT_GT(h.sampled_empty, 300u);  // mean 500 (textbook), 532 (secure: Pr[Z >= 35])
    EXPECT_EQ(h.codes.size(), h.released);
    EXPECT_TRUE(std::is_sorted(h.codes.begin(), h.codes.end()));
  }
}

}  // namespace
}  // namespace dpclust::dpdbscan
