// DP-k-means (DPLloyd: the eps-DP variant and diffprivlib's) and the noisy pairwise-distance baseline.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "cluster/dbscan/dbscan.hpp"
#include "core/error.hpp"
#include "dpdbscan/diffprivlib_samplers.hpp"
#include "dpdbscan/dp_kmeans.hpp"
#include "dpdbscan/pairwise.hpp"
#include "metrics/clustering_scores.hpp"

namespace dpclust::dpdbscan {
namespace {

bool mentions(const std::vector<std::string>& notes, const std::string& what) {
  for (const auto& s : notes)
    if (s.find(what) != std::string::npos) return true;
  return false;
}

TEST(DpKmeans, DiffprivlibIterationRule) {
  // eps_m = sqrt(500 k^3 / n^2 (d + cbrt(4 d 0.225^2))^3): k = 2, n = 2000, d = 2 gives eps_m = 0.1434,
  // eps / eps_m = 6.97 -> 6 iterations; tiny data or budget clamp to 2, plenty of both to 7.
  EXPECT_EQ(diffprivlib_iterations(1.0, 2, 2000, 2), 6);
  EXPECT_EQ(diffprivlib_iterations(1.0, 6, 8000, 2), 5);  // eps_m = 0.186
  EXPECT_EQ(diffprivlib_iterations(0.01, 3, 2000, 2), 2);
  EXPECT_EQ(diffprivlib_iterations(10.0, 2, 1000000, 2), 7);
}

TEST(DpKmeans, BoundedLaplaceStaysInsideAndScalesUp) {
  // One point (width = sensitivity): the plain Laplace scale. Otherwise the fixed point
  // b = Delta / (eps - ln dC(b)) of Holohan et al., above Delta / eps.
  EXPECT_NEAR(bounded_laplace_scale(0.5, 2.0, 2.0), 4.0, 1e-9);
  const double b = bounded_laplace_scale(0.5, 2.0, 200.0);
  EXPECT_GT(b, 4.0);
  const double dc = (2 - std::exp(-2.0 / b) - std::exp(-198.0 / b)) / (1 - std::exp(-200.0 / b));
  EXPECT_NEAR(b, 2.0 / (0.5 - std::log(dc)), 1e-9 * b);
  Rng rng(1);
  for (int i = 0; i < 10000; ++i) {
    const double v = bounded_laplace(rng, 99.0, 0.0, 100.0, b);
    ASSERT_GE(v, 0.0);
    ASSERT_LE(v, 100.0);
  }
}

std::vector<double> blobs(std::size_t n, Labels& truth, int k = 3) {
  Rng r(3);
  std::vector<double> p;
  const double c[3][2] = {{-5, -5}, {5, -5}, {0, 5}};
  for (std::size_t i = 0; i < n; ++i) {
    const int b = static_cast<int>(i % static_cast<std::size_t>(k));
    p.push_back(c[b][0] + 0.5 * r.normal());
    p.push_back(c[b][1] + 0.5 * r.normal());
    truth.push_back(b);
  }
  return p;
}

TEST(DpKmeans, LedgerAddsUpAndLargeBudgetFindsBlobs) {
  Labels truth;
  // Two blobs: Lloyd from any two distinct centres separates them (three can hit a local optimum).
  const std::vector<double> p = blobs(3000, truth, 2);
  const Bounds b{{-10, -10}, {10, 10}};
  for (KmeansVariant v : {KmeansVariant::dplloyd, KmeansVariant::diffprivlib})
    for (privacy::Sampler s : {privacy::Sampler::secure, privacy::Sampler::textbook}) {
      SCOPED_TRACE(std::string(to_string(v)) + " " + privacy::to_string(s));
      BudgetLedger ledger(20.0);
      Rng rng(7);
      DpKmeansOptions o;
      o.k = 2;
      o.epsilon = 20.0;
      o.variant = v;
      o.sampler = s;
      const DpKmeansResult r = dp_kmeans(p.data(), 3000, b, o, rng, ledger);
      EXPECT_NO_THROW(ledger.verify());
      const double e0 = std::cbrt(4 * 2 * 0.225 * 0.225);
      if (v == KmeansVariant::dplloyd) {
        // Per iteration: one entry for the k counts, one per dimension for the k sums.
        EXPECT_EQ(static_cast<std::int64_t>(ledger.entries().size()), 3 * r.iterations);
        EXPECT_NEAR(static_cast<double>(r.iterations) * (r.epsilon_count + 2 * r.epsilon_sum), 20.0, 1e-12);
        EXPECT_NEAR(r.epsilon_count / r.epsilon_sum, e0, 1e-12);
      } else {
        // diffprivlib as it runs: the shares exchanged, 0.905 of epsilon drawn in d = 2, the rest unspent.
        EXPECT_EQ(static_cast<std::int64_t>(ledger.entries().size()), 3 * r.iterations + 1);
        EXPECT_NEAR(r.epsilon_sum / r.epsilon_count, e0, 1e-12);
        EXPECT_NEAR(static_cast<double>(r.iterations) * (r.epsilon_count + 2 * r.epsilon_sum), 20.0 * 0.90505499048067,
                    1e-9);
        EXPECT_NEAR(r.epsilon_unspent, 20.0 * (1 - 0.90505499048067), 1e-9);
        EXPECT_EQ(ledger.entries().back().mechanism, "unspent");
      }
      EXPECT_GT(adjusted_rand_score(truth, r.labels), 0.95);
      // Deterministic in the seed.
      Rng again(7);
      BudgetLedger l2(20.0);
      const DpKmeansResult r2 = dp_kmeans(p.data(), 3000, b, o, again, l2);
      EXPECT_EQ(r.labels, r2.labels);
      EXPECT_EQ(r.centers, r2.centers);
    }
}

TEST(DpKmeans, DiffprivlibVariantIsTheOldCodeBitForBit) {
  // Centres of the pre-port dp_kmeans (diffprivlib's KMeans) on these blobs, seed 7, eps = 1, k = 3,
  // printed with %.17g by the old code: the variant must reproduce them exactly.
  Labels truth;
  const std::vector<double> p = blobs(900, truth, 3);
  BudgetLedger ledger(1.0);
  Rng rng(7);
  DpKmeansOptions o;
  o.k = 3;
  o.epsilon = 1.0;
  o.variant = KmeansVariant::diffprivlib;
  o.diffprivlib_split = DiffprivlibSplit::as_documented;  // the split the old code drew with
  const DpKmeansResult r = dp_kmeans(p.data(), 900, Bounds{{-10, -10}, {10, 10}}, o, rng, ledger);
  EXPECT_EQ(r.iterations, 2);
  const double old[3][2] = {{0.072255091813303834, 4.1716578652355505},
                            {0.10252287374371565, -5.733329664665642},
                            {-7.4866788205047463, 6.3747074257336571}};
  for (int c = 0; c < 3; ++c)
    for (int j = 0; j < 2; ++j) EXPECT_EQ(r.centers(c, j), old[c][j]) << c << " " << j;
  EXPECT_EQ(r.inertia, 16125.983846496045);
}

// diffprivlib 0.6.6 (models/k_means.py): _split_epsilon returns (epsilon_i * normaliser, epsilon_0 * normaliser)
// and _update_centers unpacks `epsilon_0, epsilon_i = ...`: the count's GeometricFolded gets the sums' share
// and every LaplaceBoundedDomain the count's. By hand for eps = 1, T = 2, d = 2: e0 = cbrt(4 * 2 * 0.225^2) =
// cbrt(0.405) = 0.7398636, norm = 1 / (2 (2 + e0)) = 0.1824908; the count draws at 0.1824908, each sum at
// e0 norm = 0.1350183; per iteration 0.4525275, in all 0.9050550; 0.0949450 is left unspent.
TEST(DpKmeans, DiffprivlibSplitAsItRunsByHand) {
  Labels truth;
  const std::vector<double> p = blobs(900, truth, 3);
  const Bounds box{{-10, -10}, {10, 10}};
  DpKmeansOptions o;
  o.k = 1;  // one cluster: its initial centre is the midpoint (no draw), every point is in it
  o.epsilon = 1.0;
  o.iterations = 2;
  o.variant = KmeansVariant::diffprivlib;
  BudgetLedger ledger(1.0);
  Rng rng(7);
  const DpKmeansResult r = dp_kmeans(p.data(), 900, box, o, rng, ledger);
  EXPECT_NEAR(r.epsilon_count, 0.1824908349198884, 1e-15);
  EXPECT_NEAR(r.epsilon_sum, 0.13501833016022322, 1e-15);
  EXPECT_NEAR(r.epsilon_unspent, 0.09494500951933027, 1e-14);
  ASSERT_EQ(ledger.entries().size(), 7u);  // 2 x (count, sum x, sum y) + unspent
  EXPECT_NEAR(ledger.entries()[0].epsilon, 0.1824908349198884, 1e-15);
  EXPECT_NEAR(ledger.entries()[1].epsilon, 0.13501833016022322, 1e-15);
  EXPECT_EQ(ledger.entries()[6].mechanism, "unspent");
  EXPECT_NO_THROW(ledger.verify());
  // The draws, replayed from the same generator with those epsilons (as computed: the literals above are
  // their decimal roundings): diffprivlib's order (the count, then each dimension's sum), bit for bit.
  Rng replay(7);
  double sum[2] = {0, 0};
  for (std::size_t i = 0; i < 900; ++i) sum[0] += p[2 * i], sum[1] += p[2 * i + 1];
  double centre[2] = {0, 0};
  for (int it = 0; it < 2; ++it) {
    double nc = static_cast<double>(900 + two_sided_geometric(replay, r.epsilon_count));
    while (nc < 0.5) nc = 1.0 - nc;
    for (int j = 0; j < 2; ++j) {
      const double b = bounded_laplace_scale(r.epsilon_sum, 20.0, nc * 20.0);
      centre[j] = bounded_laplace(replay, sum[j], nc * -10.0, nc * 10.0, b) / nc;
    }
  }
  EXPECT_EQ(r.centers(0, 0), centre[0]);
  EXPECT_EQ(r.centers(0, 1), centre[1]);
  // The documented split draws otherwise: the count at e0 norm.
  o.diffprivlib_split = DiffprivlibSplit::as_documented;
  BudgetLedger documented(1.0);
  Rng again(7);
  const DpKmeansResult d = dp_kmeans(p.data(), 900, box, o, again, documented);
  EXPECT_NEAR(d.epsilon_count, 0.13501833016022322, 1e-15);
  EXPECT_NEAR(d.epsilon_sum, 0.1824908349198884, 1e-15);
  EXPECT_EQ(d.epsilon_unspent, 0.0);
  EXPECT_EQ(documented.entries().size(), 6u);
  EXPECT_NE(d.centers, r.centers);
}

TEST(DpKmeans, DiffprivlibSplitOverspendsFromFiveDimensionsOn) {
  // d = 16 (UCI Letter's columns): e0 = cbrt(3.24) = 1.4797, and diffprivlib draws 1 + 16 e0 shares of
  // norm = eps / (T (16 + e0)) per iteration: 1.41167 eps in all, the excess declared in the ledger.
  std::vector<double> p;
  Rng g(2);
  for (int i = 0; i < 200 * 16; ++i) p.push_back(g.uniform());
  const Bounds cube{std::vector<double>(16, 0.0), std::vector<double>(16, 1.0)};
  DpKmeansOptions o;
  o.k = 2;
  o.epsilon = 1.0;
  o.iterations = 2;
  o.variant = KmeansVariant::diffprivlib;
  BudgetLedger ledger(1.0);
  Rng rng(1);
  const DpKmeansResult r = dp_kmeans(p.data(), 200, cube, o, rng, ledger);
  EXPECT_NEAR(r.epsilon_unspent, -0.4116716793277173, 1e-12);
  EXPECT_NEAR(ledger.excess_epsilon(), 0.4116716793277173, 1e-12);
  EXPECT_EQ(ledger.entries().size(), 2u * 17);
  EXPECT_NO_THROW(ledger.verify());
}

// The sensitivity of the coordinate sums (defect: diffprivlib calibrates them to hi - lo although a record
// moves its cluster's sum by the record itself). The domain [1000, 1010] x [-5, 5] is far from 0 in x.
TEST(DpKmeans, SumSensitivityCoversARecordFarFromZero) {
  const Bounds b{{1000, -5}, {1010, 5}};
  std::vector<double> p;
  Rng g(1);
  for (int i = 0; i < 200; ++i) {
    p.push_back(1004 + g.uniform());
    p.push_back(g.uniform(-1, 1));
  }
  std::vector<double> q = p;  // a neighbour: one more record, at the far corner of the domain
  q.push_back(1010);
  q.push_back(5);
  RowMatrix init(1, 2);
  init << 1005, 0;
  for (KmeansVariant v : {KmeansVariant::dplloyd, KmeansVariant::diffprivlib}) {
    SCOPED_TRACE(to_string(v));
    DpKmeansOptions o;
    o.k = 1;
    o.epsilon = 1.0;
    o.iterations = 1;
    o.variant = v;
    o.initial_centers = init;
    // The calibrated sensitivity, as the mechanism recorded it in the ledger.
    BudgetLedger ledger(1.0);
    Rng rng(3);
    const DpKmeansResult r = dp_kmeans(p.data(), 200, b, o, rng, ledger);
    std::vector<double> recorded;
    for (const BudgetEntry& e : ledger.entries())
      if (e.step.find("sums") != std::string::npos) {
        recorded.push_back(e.sensitivity);
        EXPECT_EQ(e.sensitivity_norm, "l1");
        EXPECT_EQ(e.mechanism, v == KmeansVariant::dplloyd
                                   ? "snapping_laplace"
                                   : "bounded_laplace (Holohan et al. 2018; diffprivlib, floating point)");
      }
    ASSERT_EQ(recorded.size(), 2u);
    // The change of the released sums between the neighbours without noise: the true sensitivity.
    BudgetLedger z1(1.0), z2(1.0);
    z1.set_noise_scale(0);
    z2.set_noise_scale(0);
    Rng a(3), c(3);
    const DpKmeansResult rp = dp_kmeans(p.data(), 200, b, o, a, z1), rq = dp_kmeans(q.data(), 201, b, o, c, z2);
    for (int j = 0; j < 2; ++j) {
      const double moved = std::fabs(rq.noisy_sums(0, j) - rp.noisy_sums(0, j));
      if (v == KmeansVariant::dplloyd) {
        // Centred on the midpoint: half the width, 5 in both dimensions, and the far record moves the
        // released sum by exactly that (the clamp of the record into the domain keeps it so).
        EXPECT_EQ(recorded[static_cast<std::size_t>(j)], 5.0);
        EXPECT_LE(moved, recorded[static_cast<std::size_t>(j)] + 1e-9);
        EXPECT_NEAR(moved, 5.0, 1e-9);
      } else if (j == 0) {
        // diffprivlib: calibrated to 10, moved by ~1010 (the sum is uncentred): the flagged gap (a).
        EXPECT_EQ(recorded[0], 10.0);
        EXPECT_GT(moved, 100 * recorded[0]);
      }
    }
    EXPECT_EQ(mentions(r.privacy_gaps, "calibrated sensitivity"), v == KmeansVariant::diffprivlib);
  }
}

TEST(DpKmeans, IdenticalPointsRunWithEveryCentreAtThePoint) {
  // Bounds: data on identical points gives lo_j = hi_j in every dimension; the initial
  // placement found no margin and threw std::logic_error (exit 1). The domain is one point: every centre
  // is that point, and the run spends its budget on the counts as usual.
  const std::vector<double> same = [] {
    std::vector<double> v;
    for (int i = 0; i < 50; ++i) v.insert(v.end(), {1.0, 2.0});
    return v;
  }();
  const Bounds point{{1.0, 2.0}, {1.0, 2.0}};
  for (KmeansVariant v : {KmeansVariant::dplloyd, KmeansVariant::diffprivlib}) {
    SCOPED_TRACE(to_string(v));
    DpKmeansOptions o;
    o.k = 2;
    o.epsilon = 1.0;
    o.variant = v;
    BudgetLedger ledger(1.0);
    Rng rng(4);
    const DpKmeansResult r = dp_kmeans(same.data(), 50, point, o, rng, ledger);
    ASSERT_EQ(r.centers.rows(), 2);
    for (int c = 0; c < 2; ++c) {
      EXPECT_EQ(r.centers(c, 0), 1.0);
      EXPECT_EQ(r.centers(c, 1), 2.0);
    }
    EXPECT_EQ(r.labels, Labels(50, 0));  // ties go to the lowest index
    EXPECT_NO_THROW(ledger.verify());
  }
  // One constant column (y = 2) among varying ones: centres placed in x, every y at 2.
  std::vector<double> line;
  for (int i = 0; i < 60; ++i) line.insert(line.end(), {i < 30 ? 1.0 + 0.01 * i : 8.0 + 0.01 * i, 2.0});
  const Bounds flat{{0.0, 2.0}, {10.0, 2.0}};
  DpKmeansOptions o;
  o.k = 3;
  o.epsilon = 5.0;
  BudgetLedger ledger(5.0);
  Rng rng(9);
  const DpKmeansResult r = dp_kmeans(line.data(), 60, flat, o, rng, ledger);
  for (int c = 0; c < 3; ++c) {
    EXPECT_EQ(r.initial_centers(c, 1), 2.0);
    EXPECT_EQ(r.centers(c, 1), 2.0);
    EXPECT_GE(r.initial_centers(c, 0), 0.0);
    EXPECT_LE(r.initial_centers(c, 0), 10.0);
  }
  EXPECT_NE(r.initial_centers(0, 0), r.initial_centers(1, 0));
}

TEST(DpKmeans, CentredSumsAreExactOnThePublicGrid) {
  // Casacuberta et al. (CCS 2022): values clamped to [-B, B] and added up in doubles round at every
  // addition, so adding one record can move the sum by more than B. Here B = 1 (bounds [-1, 1], centred
  // on 0): D is 2^20 records at eps = 2^-53 + 2^-60, D' is D with one record at 1 placed first. In doubles,
  // 1 + eps rounds up to 1 + 2^-52 at every step, so sum(D') - sum(D) = 1 + 2^20 (2^-52 - eps) > 1.
  const Bounds b{{-1.0}, {1.0}};
  const std::size_t m = std::size_t{1} << 20;
  const double eps = std::ldexp(1.0, -53) + std::ldexp(1.0, -60);
  std::vector<double> d(m, eps), d_prime;
  d_prime.push_back(1.0);
  d_prime.insert(d_prime.end(), d.begin(), d.end());
  double naive = 0, naive_prime = 0;  // what the sum in doubles gives
  for (double x : d) naive += x;
  for (double x : d_prime) naive_prime += x;
  ASSERT_GT(naive_prime - naive, 1.0) << "the counterexample must show the defect of a double accumulation";
  std::vector<double> s, s_prime;
  std::vector<std::int64_t> c, c_prime;
  centred_cluster_sums(d.data(), m, b, Labels(m, 0), 1, kCountBound, s, c);
  centred_cluster_sums(d_prime.data(), m + 1, b, Labels(m + 1, 0), 1, kCountBound, s_prime, c_prime);
  EXPECT_EQ(c[0], static_cast<std::int64_t>(m));
  EXPECT_EQ(c_prime[0], static_cast<std::int64_t>(m + 1));
  EXPECT_LE(std::fabs(s_prime[0] - s[0]), 1.0);  // at most B, no slack: the sums are exact
  EXPECT_EQ(s_prime[0] - s[0], 1.0);
  // n records at the edge sum to exactly n B (and never beyond); random records stay within n B, and
  // each added record moves the sum by at most B.
  const Bounds wide{{-3.0, 100.0}, {7.0, 100.5}};  // h = 5 and 0.25, centres 2 and 100.25
  Rng g(5);
  std::vector<double> p;
  const std::size_t n = 20000;
  for (std::size_t i = 0; i < n; ++i) {
    p.push_back(i % 3 == 0 ? 7.0 : g.uniform(-10.0, 12.0));  // some outside the domain: clamped
    p.push_back(g.uniform(99.0, 101.0));
  }
  std::vector<double> prev;
  std::vector<std::int64_t> cnt;
  for (std::size_t upto : {std::size_t{1}, std::size_t{2}, std::size_t{1000}, std::size_t{1001}, n - 1, n}) {
    std::vector<double> cur;
    centred_cluster_sums(p.data(), upto, wide, Labels(upto, 0), 1, kCountBound, cur, cnt);
    EXPECT_LE(std::fabs(cur[0]), static_cast<double>(upto) * 5.0);
    EXPECT_LE(std::fabs(cur[1]), static_cast<double>(upto) * 0.25);
    if (!prev.empty() && (upto == 2 || upto == 1001 || upto == n)) {  // one record more than the previous
      EXPECT_LE(std::fabs(cur[0] - prev[0]), 5.0);
      EXPECT_LE(std::fabs(cur[1] - prev[1]), 0.25);
    }
    prev = cur;
  }
  std::vector<double> edge(2 * 1000);
  for (std::size_t i = 0; i < 1000; ++i) edge[2 * i] = 7.0, edge[2 * i + 1] = 100.5;
  centred_cluster_sums(edge.data(), 1000, wide, Labels(1000, 0), 1, kCountBound, prev, cnt);
  EXPECT_EQ(prev[0], 5000.0);
  EXPECT_EQ(prev[1], 250.0);
  // The grid: K = 53 - ceil(log2 N_bound), spacing 2^(ceil(log2 h) - K).
  EXPECT_EQ(sum_grid_bits(kCountBound), 21);
  EXPECT_EQ(sum_grid_bits(8000), 40);
  EXPECT_EQ(sum_grid_spacing(5.0, kCountBound), std::ldexp(1.0, 3 - 21));
  EXPECT_EQ(sum_grid_spacing(4.0, kCountBound), std::ldexp(1.0, 2 - 21));
  // A count bound caps the sum: 3 records at the edge with N_bound = 2 sum to 2 B.
  const std::vector<double> three{1.0, 1.0, 1.0};
  centred_cluster_sums(three.data(), 3, b, Labels(3, 0), 1, 2.0, prev, cnt);
  EXPECT_EQ(prev[0], 2.0);
}

TEST(DpKmeans, EmptyClusterCentreIsNoised) {
  // All points near (1, 1); the second initial centre at (9, 9) gets no point: its released centre must
  // be noised (different for different seeds, from the same initial centres), not kept.
  const Bounds b{{0, 0}, {10, 10}};
  std::vector<double> p;
  Rng g(2);
  for (int i = 0; i < 300; ++i) {
    p.push_back(1 + 0.1 * g.normal());
    p.push_back(1 + 0.1 * g.normal());
  }
  RowMatrix init(2, 2);
  init << 1, 1, 9, 9;
  for (KmeansVariant v : {KmeansVariant::dplloyd, KmeansVariant::diffprivlib}) {
    SCOPED_TRACE(to_string(v));
    DpKmeansOptions o;
    o.k = 2;
    o.epsilon = 1.0;
    o.iterations = 1;
    o.variant = v;
    o.initial_centers = init;
    std::vector<RowMatrix> released;
    for (std::uint64_t seed : {1u, 2u, 3u}) {
      BudgetLedger ledger(1.0);
      Rng rng(seed);
      const DpKmeansResult r = dp_kmeans(p.data(), 300, b, o, rng, ledger);
      ASSERT_EQ(r.cluster_sizes[1], 0);  // empty
      released.push_back(r.centers.row(1));
      if (v == KmeansVariant::diffprivlib) EXPECT_TRUE(mentions(r.privacy_gaps, "empty cluster"));
      else EXPECT_TRUE(r.privacy_gaps.empty());
    }
    if (v == KmeansVariant::dplloyd) {
      EXPECT_NE(released[0], released[1]);
      EXPECT_NE(released[1], released[2]);
      EXPECT_NE(released[0], init.row(1));
    } else {
      // diffprivlib keeps it: the atom the note flags.
      EXPECT_EQ(released[0], init.row(1));
      EXPECT_EQ(released[1], init.row(1));
    }
  }
}

TEST(DpKmeans, IterationsNeverComeFromTheTrueN) {
  Labels truth;
  const std::vector<double> big = blobs(2000, truth, 2);
  const Bounds b{{-10, -10}, {10, 10}};
  auto T = [&](KmeansVariant v, std::size_t n, std::uint64_t n_public, std::vector<std::string>* gaps = nullptr) {
    DpKmeansOptions o;
    o.k = 2;
    o.epsilon = 1.0;
    o.variant = v;
    o.n_public = n_public;
    BudgetLedger ledger(1.0);
    Rng rng(1);
    const DpKmeansResult r = dp_kmeans(big.data(), n, b, o, rng, ledger);
    if (gaps) *gaps = r.privacy_gaps;
    return r.iterations;
  };
  // dplloyd: only the true n changes -> T does not.
  EXPECT_EQ(T(KmeansVariant::dplloyd, 200, 0), kDefaultIterations);
  EXPECT_EQ(T(KmeansVariant::dplloyd, 2000, 0), kDefaultIterations);
  // A public n drives the rule, whatever the true n.
  EXPECT_EQ(T(KmeansVariant::dplloyd, 200, 2000), 6);
  EXPECT_EQ(T(KmeansVariant::dplloyd, 2000, 2000), 6);
  // diffprivlib: the rule on the true n (2 vs 6 iterations), flagged.
  std::vector<std::string> gaps;
  EXPECT_EQ(T(KmeansVariant::diffprivlib, 200, 0, &gaps), 2);
  EXPECT_TRUE(mentions(gaps, "true number of points"));
  EXPECT_EQ(T(KmeansVariant::diffprivlib, 2000, 0, &gaps), 6);
  EXPECT_TRUE(mentions(gaps, "true number of points"));
  EXPECT_EQ(T(KmeansVariant::diffprivlib, 200, 2000, &gaps), 6);
  EXPECT_FALSE(mentions(gaps, "true number of points"));
}

TEST(DpKmeans, ZeroNoiseDplloydIsPlainLloyd) {
  // noise_scale 0: exact counts and sums, so DPLloyd is Lloyd's algorithm from the same initial centres.
  Labels truth;
  const std::size_t n = 1500;
  const std::vector<double> p = blobs(n, truth, 3);
  const Bounds b{{-10, -10}, {10, 10}};
  for (privacy::Sampler s : {privacy::Sampler::secure, privacy::Sampler::textbook}) {
    SCOPED_TRACE(privacy::to_string(s));
    DpKmeansOptions o;
    o.k = 3;
    o.epsilon = 1.0;
    o.sampler = s;
    BudgetLedger ledger(1.0);
    ledger.set_noise_scale(0);
    Rng rng(11);
    const DpKmeansResult r = dp_kmeans(p.data(), n, b, o, rng, ledger);
    EXPECT_NO_THROW(ledger.verify());
    // Plain Lloyd: assign to the nearest centre (lowest index on ties), then move to the cluster mean.
    RowMatrix c = r.initial_centers;
    Labels lab(n, 0);
    auto assign = [&] {
      for (std::size_t i = 0; i < n; ++i) {
        double best = 1e300;
        for (int a = 0; a < 3; ++a) {
          const double dx = p[2 * i] - c(a, 0), dy = p[2 * i + 1] - c(a, 1), d2 = dx * dx + dy * dy;
          if (d2 < best) {
            best = d2;
            lab[i] = a;
          }
        }
      }
    };
    assign();
    for (std::int64_t it = 0; it < r.iterations; ++it) {
      RowMatrix sum = RowMatrix::Zero(3, 2);
      std::vector<double> cnt(3, 0);
      for (std::size_t i = 0; i < n; ++i) {
        sum(lab[i], 0) += p[2 * i];
        sum(lab[i], 1) += p[2 * i + 1];
        cnt[static_cast<std::size_t>(lab[i])] += 1;
      }
      for (int a = 0; a < 3; ++a) {
        ASSERT_GT(cnt[static_cast<std::size_t>(a)], 0) << "the test data must not leave a cluster empty";
        c.row(a) = sum.row(a) / cnt[static_cast<std::size_t>(a)];
      }
      assign();
    }
    EXPECT_EQ(r.labels, lab);
    // The sums are exact on the public grid (CentredSumsAreExactOnThePublicGrid), each record rounded by
    // at most half its spacing: the mean moves by no more than that.
    const double grid = sum_grid_spacing(10.0, kCountBound);
    for (int a = 0; a < 3; ++a)
      for (int j = 0; j < 2; ++j) EXPECT_NEAR(r.centers(a, j), c(a, j), grid / 2 + 1e-12);
  }
}

TEST(Pairwise, RefusesLargeN) {
  std::vector<double> p(2 * 50, 0.5);
  PairwiseOptions o;
  o.alpha = 0.1;
  o.min_pts = 3;
  o.max_n = 49;
  Rng rng(1);
  BudgetLedger ledger(1.0, 0.0, NeighbourRelation::replace_one);
  EXPECT_THROW(pairwise_noisy_dbscan(p.data(), 50, Bounds{{0, 0}, {1, 1}}, o, rng, ledger), InputError);
}

TEST(Pairwise, HugeBudgetReproducesExactDbscanAndTheRealBudgetDestroysIt) {
  Labels truth;
  std::vector<double> p = blobs(600, truth);
  const Bounds b{{-10, -10}, {10, 10}};
  for (privacy::Sampler s : {privacy::Sampler::secure, privacy::Sampler::textbook}) {
    SCOPED_TRACE(privacy::to_string(s));
    PairwiseOptions o;
    o.alpha = 0.6;
    o.min_pts = 8;
    o.sampler = s;
    o.epsilon = 1e13;  // noise scale (n-1) D / eps ~ 1e-9
    Rng rng(2);
    BudgetLedger ledger(o.epsilon, 0.0, NeighbourRelation::replace_one);
    const PairwiseResult r = pairwise_noisy_dbscan(p.data(), 600, b, o, rng, ledger);
    EXPECT_NO_THROW(ledger.verify());
    EXPECT_EQ(r.labels, dbscan(p.data(), 600, 2, o.alpha, o.min_pts));
    // eps = 1: scale ~ 600 * 28 -> half the noisy distances clamp to 0, every point is core, one cluster.
    o.epsilon = 1.0;
    Rng rng2(2);
    BudgetLedger l2(1.0, 0.0, NeighbourRelation::replace_one);
    const PairwiseResult bad = pairwise_noisy_dbscan(p.data(), 600, b, o, rng2, l2);
    EXPECT_EQ(bad.clusters, 1u);
    EXPECT_NEAR(adjusted_rand_score(truth, bad.labels), 0.0, 1e-12);
  }
}

TEST(Pairwise, SensitivityIsThatOfReplacingOnePoint) {
  // (n - 1) D under replace-one, recorded with that relation; an add/remove ledger is refused.
  Labels truth;
  std::vector<double> p = blobs(100, truth);
  const Bounds b{{-10, -10}, {10, 10}};
  PairwiseOptions o;
  o.alpha = 0.6;
  o.min_pts = 4;
  Rng rng(1);
  BudgetLedger ledger(1.0, 0.0, NeighbourRelation::replace_one);
  const PairwiseResult r = pairwise_noisy_dbscan(p.data(), 100, b, o, rng, ledger);
  ASSERT_EQ(ledger.entries().size(), 1u);
  const BudgetEntry& e = ledger.entries()[0];
  EXPECT_EQ(e.relation, NeighbourRelation::replace_one);
  EXPECT_NEAR(e.sensitivity, 99 * std::sqrt(800.0), 1e-9);
  EXPECT_EQ(e.sensitivity, r.sensitivity);
  EXPECT_EQ(e.mechanism, "snapping_laplace");
  BudgetLedger add_remove(1.0);
  Rng rng2(1);
  EXPECT_THROW(pairwise_noisy_dbscan(p.data(), 100, b, o, rng2, add_remove), std::logic_error);
}

// The plain per-pair loop (the reference the blocked one must equal): clamp both points for every pair, one draw per
// pair in row-major order, then scikit-learn's expansion. The hoisted loop of pairwise.cpp must give the
// same labels and core points and consume the generator identically.
PairwiseResult reference_pairwise(const double* coords, std::size_t n, const Bounds& bounds, const PairwiseOptions& o,
                                  Rng& rng, BudgetLedger& ledger) {
  const std::size_t d = bounds.dims();
  PairwiseResult r;
  double diam2 = 0;
  for (std::size_t j = 0; j < d; ++j) diam2 += (bounds.hi[j] - bounds.lo[j]) * (bounds.hi[j] - bounds.lo[j]);
  r.diameter = std::sqrt(diam2);
  r.sensitivity = o.per_entry_sensitivity ? r.diameter : static_cast<double>(n - 1) * r.diameter;
  const double bound_units = std::min(std::max(r.diameter / r.sensitivity, 4.0 / o.epsilon), 0x1p45 / o.epsilon);
  const privacy::RealMechanism mech = privacy::RealMechanism::laplace(ledger, o.sampler, r.sensitivity, o.epsilon,
                                                                      bound_units * r.sensitivity, "reference");
  std::vector<std::vector<char>> adj(n, std::vector<char>(n, 0));
  for (std::size_t i = 0; i < n; ++i) {
    adj[i][i] = 1;
    for (std::size_t j = i + 1; j < n; ++j) {
      double s = 0;
      for (std::size_t k = 0; k < d; ++k) {
        const double t = std::clamp(coords[i * d + k], bounds.lo[k], bounds.hi[k]) -
                         std::clamp(coords[j * d + k], bounds.lo[k], bounds.hi[k]);
        s += t * t;
      }
      if (std::clamp(mech.noisy(rng, std::sqrt(s)), 0.0, r.diameter) <= o.alpha) adj[i][j] = adj[j][i] = 1;
    }
  }
  std::vector<char> core(n);
  for (std::size_t i = 0; i < n; ++i) {
    core[i] = std::count(adj[i].begin(), adj[i].end(), 1) >= o.min_pts;
    r.core_points += static_cast<std::size_t>(core[i]);
  }
  r.labels.assign(n, kNoise);
  for (std::size_t s = 0; s < n; ++s) {
    if (!core[s] || r.labels[s] != kNoise) continue;
    const auto id = static_cast<Label>(r.clusters++);
    r.labels[s] = id;
    std::vector<std::size_t> queue{s};
    for (std::size_t q = 0; q < queue.size(); ++q)
      for (std::size_t j = 0; j < n; ++j)
        if (adj[queue[q]][j] && r.labels[j] == kNoise) {
          r.labels[j] = id;
          if (core[j]) queue.push_back(j);
        }
  }
  return r;
}

// Same labels, core points and generator state as the original loop, on blobs with points outside the
// domain (clamped), at budgets where the noisy decisions are mixed, for both samplers and sensitivities.
TEST(Pairwise, HoistedLoopEqualsOriginalPerPairLoop) {
  Labels truth;
  std::vector<double> p = blobs(300, truth);
  for (std::size_t i = 0; i < 20; ++i) p[2 * i] = 12.0 + static_cast<double>(i);  // outside the domain
  const Bounds b{{-10, -10}, {10, 10}};
  int mixed = 0;
  for (privacy::Sampler s : {privacy::Sampler::secure, privacy::Sampler::textbook})
    for (const bool entry : {false, true})
      for (const double eps : {1.0, 3e3, 1e4, 1e13}) {
        SCOPED_TRACE(std::string(privacy::to_string(s)) + (entry ? " entry" : " matrix") +
                     " eps=" + std::to_string(eps));
        PairwiseOptions o;
        o.alpha = 0.6;
        o.min_pts = 5;
        o.sampler = s;
        o.epsilon = eps;
        o.per_entry_sensitivity = entry;
        Rng rng(9), rng2(9);
        BudgetLedger l1(eps, 0.0, NeighbourRelation::replace_one), l2(eps, 0.0, NeighbourRelation::replace_one);
        const PairwiseResult got = pairwise_noisy_dbscan(p.data(), 300, b, o, rng, l1);
        const PairwiseResult want = reference_pairwise(p.data(), 300, b, o, rng2, l2);
        EXPECT_EQ(got.labels, want.labels);
        EXPECT_EQ(got.core_points, want.core_points);
        EXPECT_EQ(got.clusters, want.clusters);
        EXPECT_EQ(rng.next_u64(), rng2.next_u64());  // the same number of words drawn
        mixed += got.core_points > 0 && got.core_points < 300 && got.clusters > 1;
      }
  EXPECT_GE(mixed, 2);  // some budgets leave real structure, not only all-noise or one cluster
}

}  // namespace
}  // namespace dpclust::dpdbscan
