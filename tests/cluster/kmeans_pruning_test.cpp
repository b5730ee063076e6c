// KMeansOptions::triangle_pruning (k-means++ pruning and Hamerly's bounds) changes the work, never the
// result: every field of the result and the generator's state are compared double for double with the
// exhaustive search, on data chosen to reach every branch (separated and overlapping clusters, duplicate
// points and ties, empty clusters, weights, k = 1 and k = n, high dimension, non-convergence).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <vector>

#include "cluster/kmeans/hamerly.hpp"
#include "cluster/kmeans/kmeans.hpp"
#include "cluster/kmeans/nearest_search.hpp"
#include "cluster/kmeans/plusplus_candidates.hpp"
#include "core/rng.hpp"

namespace dpclust {
namespace {

// n points in d dimensions around `clusters` centres spread `spread` apart (sd 1), in random order.
std::vector<double> gaussian_clusters(std::size_t n, std::size_t d, std::size_t clusters, double spread,
                                      std::uint64_t seed) {
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
    expect_same_run(gaussian_clusters(2000, 2, 8, 50.0, seed), 2, 8, KMeansOptions{}, seed);      // separated
    expect_same_run(gaussian_clusters(2000, 2, 8, 2.0, seed), 2, 8, KMeansOptions{}, seed);       // overlapping
    expect_same_run(gaussian_clusters(1500, 30, 16, 20.0, seed), 30, 16, KMeansOptions{}, seed);  // higher d
    expect_same_run(gaussian_clusters(1000, 5, 4, 1.0, seed), 5, 12, KMeansOptions{3, 300, 1e-4},
                    seed);  // k above the clusters
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
        for (std::size_t j = 0; j < d; ++j)
          s += (x[i * d + j] - centres[c * d + j]) * (x[i * d + j] - centres[c * d + j]);
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

// The filtered search against the exhaustive one: same labels and squared distances, double for double, and a
// lower bound at most the exact second distance; on lattice points (exact ties, which must go to the lower
// index), far from the origin (where ||x||^2 - 2 x.c + ||c||^2 cancels), and in 50 dimensions.
TEST(NearestSearch, TheExhaustiveSearchsResults) {
  struct SearchCase {
    std::size_t n, d, k;
    double offset;
    bool lattice;
  };
  for (const SearchCase& cs :
       {SearchCase{500, 2, 7, 0.0, true}, SearchCase{500, 3, 9, 1e6, true}, SearchCase{400, 50, 12, 0.0, false},
        SearchCase{300, 5, 1, 0.0, false}, SearchCase{700, 4, 33, 1e3, false}}) {
    Rng rng(cs.n + cs.d);
    std::vector<double> x(cs.n * cs.d), c(cs.k * cs.d);
    for (double& v : x) v = cs.offset + (cs.lattice ? static_cast<double>(rng.below(5)) : rng.normal());
    for (double& v : c) v = cs.offset + (cs.lattice ? static_cast<double>(rng.below(5)) : rng.normal());
    const NearestSearch search(c.data(), cs.k, cs.d);
    Labels labels(cs.n);
    std::vector<double> best(cs.n), second(cs.n), scratch;
    search.search(x.data(), cs.n, labels.data(), best.data(), second.data(), scratch);
    for (std::size_t i = 0; i < cs.n; ++i) {
      double want = 0, want_second = std::numeric_limits<double>::infinity();
      Label arg = 0;
      for (std::size_t j = 0; j < cs.k; ++j) {
        double s = 0;
        for (std::size_t t = 0; t < cs.d; ++t)
          s += (x[i * cs.d + t] - c[j * cs.d + t]) * (x[i * cs.d + t] - c[j * cs.d + t]);
        if (j == 0 || s < want) {
          if (j > 0) want_second = std::min(want_second, want);
          want = s;
          arg = static_cast<Label>(j);
        } else {
          want_second = std::min(want_second, s);
        }
      }
      ASSERT_EQ(labels[i], arg) << "d " << cs.d << " point " << i;
      ASSERT_EQ(best[i], want);
      ASSERT_LE(second[i], want_second);
    }
  }
}

// The candidates' distances of k-means++ with the skips: min(closest, squared distance) for every point and
// candidate, double for double, including candidates that are themselves points and duplicated points.
TEST(PlusPlusCandidates, TheMinimaOfThePlainLoop) {
  const std::size_t n = 1500, d = 6;
  std::vector<double> x = gaussian_clusters(n, d, 5, 15.0, 21);
  std::copy_n(x.data(), 10 * d, x.data() + 100 * d);  // ten duplicated points
  double scale = 0;
  for (std::size_t i = 0; i < n; ++i) {
    double s = 0;
    for (std::size_t j = 0; j < d; ++j) s += x[i * d + j] * x[i * d + j];
    scale = std::max(scale, std::sqrt(s));
  }
  auto sq = [&](std::size_t a, const double* y) {
    double s = 0;
    for (std::size_t j = 0; j < d; ++j) s += (x[a * d + j] - y[j]) * (x[a * d + j] - y[j]);
    return s;
  };
  PlusPlusCandidates pruned(x.data(), n, d, scale);
  std::vector<double> centres(x.begin(), x.begin() + static_cast<std::ptrdiff_t>(d));  // point 0 first
  std::vector<double> closest(n);
  for (std::size_t i = 0; i < n; ++i) closest[i] = sq(i, centres.data());
  pruned.start(0, closest);
  Rng rng(8);
  for (std::size_t placed = 1; placed < 12; ++placed) {
    std::vector<std::size_t> ids = {static_cast<std::size_t>(rng.below(n)), static_cast<std::size_t>(rng.below(n)), 100,
                                    3, 0};
    std::vector<double> dist(ids.size() * n);
    pruned.evaluate(centres.data(), placed, ids, closest, dist.data());
    for (std::size_t t = 0; t < ids.size(); ++t)
      for (std::size_t i = 0; i < n; ++i)
        ASSERT_EQ(dist[t * n + i], std::min(closest[i], sq(i, x.data() + ids[t] * d)))
            << "round " << placed << " candidate " << t;
    const std::size_t best = placed % ids.size();
    pruned.accept(placed, dist.data() + best * n, closest);
    std::copy_n(dist.data() + best * n, n, closest.begin());
    centres.insert(centres.end(), x.begin() + static_cast<std::ptrdiff_t>(ids[best] * d),
                   x.begin() + static_cast<std::ptrdiff_t>(ids[best] * d + d));
  }
}

TEST(KMeansRuns, EachRunIsKMeansWithOneInit) {
  const std::vector<double> x = gaussian_clusters(600, 3, 5, 6.0, 2);
  std::vector<Rng> rngs;
  for (std::uint64_t s = 0; s < 3; ++s) rngs.emplace_back(s + 40);
  for (bool prune : {false, true}) {
    KMeansOptions opt;
    opt.triangle_pruning = prune;
    std::vector<Rng> copies;
    for (std::uint64_t s = 0; s < 3; ++s) copies.emplace_back(s + 40);
    const std::vector<KMeansResult> runs = kmeans_runs(x.data(), 600, 3, 5, opt, copies);
    ASSERT_EQ(runs.size(), 3u);
    for (std::uint64_t s = 0; s < 3; ++s) {
      Rng rng(s + 40);
      const KMeansResult one = kmeans(x.data(), 600, 3, 5, opt, rng);
      EXPECT_EQ(runs[s].labels, one.labels);
      EXPECT_TRUE(runs[s].centers == one.centers);
      EXPECT_EQ(runs[s].inertia, one.inertia);
    }
  }
}

}  // namespace
}  // namespace dpclust
