// DP-k-means (diffprivlib's DPLloyd) and the noisy pairwise-distance baseline.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "cluster/dbscan/dbscan.hpp"
#include "core/error.hpp"
#include "dpdbscan/dp_kmeans.hpp"
#include "dpdbscan/pairwise.hpp"
#include "metrics/clustering_scores.hpp"

namespace dpclust::dpdbscan {
namespace {

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
  BudgetLedger ledger(20.0);
  Rng rng(7);
  DpKmeansOptions o;
  o.k = 2;
  o.epsilon = 20.0;
  const DpKmeansResult r = dp_kmeans(p.data(), 3000, b, o, rng, &ledger);
  EXPECT_NO_THROW(ledger.verify());
  EXPECT_EQ(static_cast<std::int64_t>(ledger.entries().size()), 2 * r.iterations);
  EXPECT_NEAR(static_cast<double>(r.iterations) * (r.epsilon_count + 2 * r.epsilon_sum), 20.0, 1e-12);
  EXPECT_NEAR(r.epsilon_count / r.epsilon_sum, std::cbrt(4 * 2 * 0.225 * 0.225), 1e-12);
  EXPECT_GT(adjusted_rand_score(truth, r.labels), 0.95);
  // Deterministic in the seed.
  Rng again(7);
  const DpKmeansResult r2 = dp_kmeans(p.data(), 3000, b, o, again, nullptr);
  EXPECT_EQ(r.labels, r2.labels);
  EXPECT_EQ(r.centers, r2.centers);
}

TEST(Pairwise, RefusesLargeN) {
  std::vector<double> p(2 * 50, 0.5);
  PairwiseOptions o;
  o.alpha = 0.1;
  o.min_pts = 3;
  o.max_n = 49;
  Rng rng(1);
  EXPECT_THROW(pairwise_noisy_dbscan(p.data(), 50, Bounds{{0, 0}, {1, 1}}, o, rng, nullptr), InputError);
}

TEST(Pairwise, HugeBudgetReproducesExactDbscanAndTheRealBudgetDestroysIt) {
  Labels truth;
  std::vector<double> p = blobs(600, truth);
  const Bounds b{{-10, -10}, {10, 10}};
  PairwiseOptions o;
  o.alpha = 0.6;
  o.min_pts = 8;
  o.epsilon = 1e13;  // noise scale (n-1) D / eps ~ 1e-9
  Rng rng(2);
  BudgetLedger ledger(o.epsilon);
  const PairwiseResult r = pairwise_noisy_dbscan(p.data(), 600, b, o, rng, &ledger);
  EXPECT_NO_THROW(ledger.verify());
  EXPECT_EQ(r.labels, dbscan(p.data(), 600, 2, o.alpha, o.min_pts));
  // eps = 1: scale ~ 600 * 28 -> half the noisy distances clamp to 0, every point is core, one cluster.
  o.epsilon = 1.0;
  Rng rng2(2);
  const PairwiseResult bad = pairwise_noisy_dbscan(p.data(), 600, b, o, rng2, nullptr);
  EXPECT_EQ(bad.clusters, 1u);
  EXPECT_NEAR(adjusted_rand_score(truth, bad.labels), 0.0, 1e-12);
}

}  // namespace
}  // namespace dpclust::dpdbscan
