// KMeansOptions::triangle_pruning (k-means++ pruning and Hamerly's bounds) changes the work, never the
// result: every field of the result and the generator's state are compared double for double with the
// exhaustive search, on data chosen to reach every branch (separated and overlapping clusters, duplicate
// points and ties, empty clusters, weights, k = 1 and k = n, high dimension, non-convergence).
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "cluster/kmeans/hamerly.hpp"
#include "cluster/kmeans/kmeans.hpp"
#include "core/rng.hpp"

namespace dpclust {
namespace {

// n points in d dimensions around `clusters` centres spread `spread` apart (sd 1), in random order.
std::vector<double> gaussian_clusters(std::size_t n, std::size_t d, std::size_t clusters, double spread, std::uint64_t seed) {
  Rng rng(seed);
  std::vector<double> centres(clusters * d), x(n * d);
  for (double& c : centres) c = rng.uniform(-spread, spread);
  for (std::size_t i = 0; i < n; ++i) {
    const std::size_t c = static_cast<std::size_t>(rng.below(clusters));
    for (std::size_t j = 0; j < d; ++j) x[i * d + j] = centres[c * d + j] + rng.normal();
  }
  return x;
}

void expect_same_run(const std::vector<double>& x, std::size_t d, std::size_t k, KMeansOptions opt, std::uint64_t seed,
                     const std::vector<double>* w = nullptr) {
  const std::size_t n = x.size() / d;
  Rng plain_rng(seed), pruned_rng(seed);
  opt.triangle_pruning = false;
  const KMeansResult plain = kmeans(x.data(), n, d, k, opt, plain_rng, w ? w->data() : nullptr);
  opt.triangle_pruning = true;
  const KMeansResult pruned = kmeans(x.data(), n, d, k, opt, pruned_rng, w ? w->data() : nullptr);
  EXPECT_EQ(plain.labels, pruned.labels) << "n " << n << " d " << d << " k " << k << " seed " << seed;
  EXPECT_TRUE(plain.centers == pruned.centers) << "n " << n << " d " << d << " k " << k << " seed " << seed;
  EXPECT_EQ(plain.inertia, pruned.inertia);
  EXPECT_EQ(plain.n_iter, pruned.n_iter);
  EXPECT_EQ(plain_rng.next_u64(), pruned_rng.next_u64());
}

TEST(KMeansPruning, SameResultOnSeparatedAndOverlappingClusters) {
  for (std::uint64_t seed = 1; seed <= 6; ++seed) {
    expect_same_run(gaussian_clusters(2000, 2, 8, 50.0, seed), 2, 8, KMeansOptions{}, seed);   // separated
    expect_same_run(gaussian_clusters(2000, 2, 8, 2.0, seed), 2, 8, KMeansOptions{}, seed);    // overlapping
    expect_same_run(gaussian_clusters(1500, 30, 16, 20.0, seed), 30, 16, KMeansOptions{}, seed);  // higher d
    expect_same_run(gaussian_clusters(1000, 5, 4, 1.0, seed), 5, 12, KMeansOptions{3, 300, 1e-4}, seed);  // k above the clusters
  }
}

TEST(KMeansPruning, SameResultWithTiesDuplicatesAndEmptyClusters) {
  // Points on an integer lattice: many exactly equal distances (ties go to the lowest index).
  std::vector<double> lattice;
  for (int a = 0; a < 12; ++a)
    for (int b = 0; b < 12; ++b) lattice.insert(lattice.end(), {static_cast<double>(a), static_cast<double>(b)});
  for (std::uint64_t seed = 0; seed < 10; ++seed) expect_same_run(lattice, 2, 9, KMeansOptions{2, 300, 0.0}, seed);
  // Two locations, k = 3: a seed repeats, a cluster goes empty and is relocated.
  const std::vector<double> two{0, 0, 0, 0, 0, 0, 5, 5, 5, 5, 5, 5};
  for (std::uint64_t seed = 0; seed < 10; ++seed) expect_same_run(two, 2, 3, KMeansOptions{}, seed);
  // Every point identical: S = 0, no margin, nothing can be skipped.
  const std::vector<double> same(40, 3.0);
  expect_same_run(same, 2, 4, KMeansOptions{}, 5);
  // k = 1 and k = n.
  const std::vector<double> few = gaussian_clusters(30, 3, 3, 10.0, 7);
  expect_same_run(few, 3, 1, KMeansOptions{}, 1);
  expect_same_run(few, 3, 30, KMeansOptions{}, 1);
}

TEST(KMeansPruning, SameResultWithWeightsAndWithoutConvergence) {
  const std::vector<double> x = gaussian_clusters(800, 4, 6, 8.0, 3);
  std::vector<double> w(800);
  Rng rng(4);
  for (double& v : w) v = rng.below(4) == 0 ? 0.0 : rng.uniform(0.5, 3.0);
  for (std::uint64_t seed = 0; seed < 5; ++seed) {
    expect_same_run(x, 4, 6, KMeansOptions{}, seed, &w);
    expect_same_run(x, 4, 6, KMeansOptions{1, 2, 0.0}, seed);  // stops after 2 iterations: labels recomputed
  }
}

// The bounds on their own: for centres that move as Lloyd moves them (and jump, as a relocation does), the
// labels equal the exhaustive search's, and on separated clusters most distances are skipped.
TEST(HamerlyAssignment, LabelsOfTheExhaustiveSearchWithFewerDistances) {
  const std::size_t n = 3000, d = 8, k = 10;
  const std::vector<double> x = gaussian_clusters(n, d, k, 40.0, 11);
  double scale = 0;
  for (std::size_t i = 0; i < n; ++i) {
    double s = 0;
    for (std::size_t j = 0; j < d; ++j) s += x[i * d + j] * x[i * d + j];
    scale = std::max(scale, std::sqrt(s));
  }
  Rng rng(2);
  std::vector<double> centres(k * d);
  for (std::size_t c = 0; c < k; ++c) {
    const std::size_t i = static_cast<std::size_t>(rng.below(n));
    std::copy_n(x.data() + i * d, d, centres.data() + c * d);
  }
  HamerlyAssignment bounds(x.data(), n, d, k, scale);
  Labels got(n), want(n);
  for (int step = 0; step < 12; ++step) {
    bounds.assign(centres.data(), got.data());
    for (std::size_t i = 0; i < n; ++i) {  // the exhaustive rule
      double best = 0;
      for (std::size_t c = 0; c < k; ++c) {
        double s = 0;
        for (std::size_t j = 0; j < d; ++j) s += (x[i * d + j] - centres[c * d + j]) * (x[i * d + j] - centres[c * d + j]);
        if (c == 0 || s < best) {
          best = s;
          want[i] = static_cast<Label>(c);
        }
      }
    }
    ASSERT_EQ(got, want) << "step " << step;
    // Lloyd's move (to the means), and at step 5 one centre jumps onto a random point.
    std::vector<double> sums(k * d, 0.0), counts(k, 0.0);
    for (std::size_t i = 0; i < n; ++i) {
      counts[static_cast<std::size_t>(got[i])] += 1;
      for (std::size_t j = 0; j < d; ++j) sums[static_cast<std::size_t>(got[i]) * d + j] += x[i * d + j];
    }
    for (std::size_t c = 0; c < k; ++c)
      if (counts[c] > 0)
        for (std::size_t j = 0; j < d; ++j) centres[c * d + j] = sums[c * d + j] / counts[c];
    if (step == 5) std::copy_n(x.data() + rng.below(n) * d, d, centres.data());
  }
  // 12 exhaustive searches would compute 12 n k distances; the bounds skip most after the first.
  EXPECT_LT(bounds.distances_computed(), 4 * n * k);
}

}  // namespace
}  // namespace dpclust
