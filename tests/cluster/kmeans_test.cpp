#include "cluster/kmeans/kmeans.hpp"
#include "cluster/kmeans/register.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <vector>

#include "core/rng.hpp"

namespace dpclust {
namespace {

// Three well-separated Gaussian blobs (sd 1, centres 20 apart), 100 points each, shuffled.
struct Blobs {
  std::vector<double> x;
  Labels truth;
};
Blobs three_blobs(std::uint64_t seed) {
  Rng rng(seed);
  const double centres[3][2] = {{0, 0}, {20, 0}, {0, 20}};
  std::vector<std::size_t> order(300);
  for (std::size_t i = 0; i < 300; ++i) order[i] = i;
  rng.shuffle(order.data(), order.size());
  Blobs b;
  for (std::size_t i : order) {
    const std::size_t c = i % 3;
    b.x.push_back(centres[c][0] + rng.normal());
    b.x.push_back(centres[c][1] + rng.normal());
    b.truth.push_back(static_cast<Label>(c));
  }
  return b;
}

// Labels equal up to a permutation of the ids.
bool same_partition(const Labels& a, const Labels& b) {
  if (a.size() != b.size()) return false;
  std::map<Label, Label> ab, ba;
  for (std::size_t i = 0; i < a.size(); ++i) {
    if (ab.emplace(a[i], b[i]).first->second != b[i]) return false;
    if (ba.emplace(b[i], a[i]).first->second != a[i]) return false;
  }
  return true;
}

TEST(KMeans, RecoversWellSeparatedBlobs) {
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    const Blobs b = three_blobs(seed);
    Rng rng(seed + 100);
    const KMeansResult r = kmeans(b.x.data(), 300, 2, 3, KMeansOptions{}, rng);
    EXPECT_TRUE(same_partition(r.labels, b.truth)) << "seed " << seed;
    ASSERT_EQ(r.centers.rows(), 3);
    ASSERT_EQ(r.centers.cols(), 2);
    // Every centre is within 0.5 of a true centre.
    for (Eigen::Index c = 0; c < 3; ++c) {
      const double dx =
          std::min({std::hypot(r.centers(c, 0), r.centers(c, 1)), std::hypot(r.centers(c, 0) - 20, r.centers(c, 1)),
                    std::hypot(r.centers(c, 0), r.centers(c, 1) - 20)});
      EXPECT_LT(dx, 0.5);
    }
    EXPECT_GE(r.n_iter, 1);
    EXPECT_LE(r.n_iter, 300);
  }
}

// kmeans_skip_draws leaves the generator where kmeans leaves it: k-means++'s draws depend on n, k and n_init
// only (with and without sample weights), for k from 1 to 12 (2 + floor(ln k) candidates: 2, 3 and 4).
TEST(KMeans, SkipDrawsLeavesTheGeneratorWhereKMeansDoes) {
  const Blobs b = three_blobs(17);
  std::vector<double> w(300);
  Rng wr(4);
  for (double& x : w) x = wr.uniform() + 0.1;
  for (std::size_t k : {1u, 2u, 3u, 7u, 8u, 12u})
    for (std::int64_t n_init : {1, 3})
      for (const double* weights : {static_cast<const double*>(nullptr), static_cast<const double*>(w.data())}) {
        KMeansOptions opt;
        opt.n_init = n_init;
        Rng a(100 + k), b2(100 + k);
        (void)kmeans(b.x.data(), 300, 2, k, opt, a, weights);
        kmeans_skip_draws(b.x.data(), 300, 2, k, opt, b2, weights);
        EXPECT_EQ(a.next_u64(), b2.next_u64()) << "k " << k << " n_init " << n_init << (weights ? " weighted" : "");
      }
  KMeansOptions opt;
  Rng r(1);
  EXPECT_THROW(kmeans_skip_draws(b.x.data(), 300, 2, 301, opt, r), std::invalid_argument);
}

TEST(KMeans, InertiaOfATinyCase) {
  // {(0,0), (2,0)} -> centre (1,0), cost 1 + 1; {(10,0), (10,4)} -> centre (10,2), cost 4 + 4.
  const std::vector<double> x{0, 0, 10, 0, 2, 0, 10, 4};
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    Rng rng(seed);
    const KMeansResult r = kmeans(x.data(), 4, 2, 2, KMeansOptions{}, rng);
    EXPECT_NEAR(r.inertia, 10.0, 1e-12) << seed;
    EXPECT_EQ(r.labels[0], r.labels[2]);
    EXPECT_EQ(r.labels[1], r.labels[3]);
    EXPECT_NE(r.labels[0], r.labels[1]);
    const Eigen::Index a = r.labels[0], b = r.labels[1];
    EXPECT_NEAR(r.centers(a, 0), 1.0, 1e-12);
    EXPECT_NEAR(r.centers(a, 1), 0.0, 1e-12);
    EXPECT_NEAR(r.centers(b, 0), 10.0, 1e-12);
    EXPECT_NEAR(r.centers(b, 1), 2.0, 1e-12);
  }
}

TEST(KMeans, DeterministicForAFixedSeed) {
  Rng data_rng(5);
  std::vector<double> x(2000 * 3);
  for (double& v : x) v = data_rng.uniform();
  Rng a(42), b(42);
  const KMeansOptions opt{3, 300, 1e-4};
  const KMeansResult ra = kmeans(x.data(), 2000, 3, 7, opt, a);
  const KMeansResult rb = kmeans(x.data(), 2000, 3, 7, opt, b);
  EXPECT_EQ(ra.labels, rb.labels);
  EXPECT_TRUE(ra.centers == rb.centers);
  EXPECT_EQ(ra.inertia, rb.inertia);
  EXPECT_EQ(ra.n_iter, rb.n_iter);
  // The generator was consumed identically.
  EXPECT_EQ(a.next_u64(), b.next_u64());
}

TEST(KMeans, NInitKeepsTheLowestInertia) {
  // Uniform data with k = 8 has many local optima: the single runs differ.
  Rng data_rng(9);
  std::vector<double> x(500 * 2);
  for (double& v : x) v = data_rng.uniform();
  const std::uint64_t seed = 77;
  // n_init runs draw from the generator in sequence, so ten single runs on one generator are the
  // ten runs of n_init = 10.
  Rng singles(seed);
  std::vector<double> inertias;
  KMeansResult best_single;
  for (int r = 0; r < 10; ++r) {
    KMeansResult one = kmeans(x.data(), 500, 2, 8, KMeansOptions{1, 300, 1e-4}, singles);
    if (inertias.empty() || one.inertia < *std::min_element(inertias.begin(), inertias.end())) best_single = one;
    inertias.push_back(one.inertia);
  }
  EXPECT_GT(*std::max_element(inertias.begin(), inertias.end()), *std::min_element(inertias.begin(), inertias.end()));
  Rng multi(seed);
  const KMeansResult best = kmeans(x.data(), 500, 2, 8, KMeansOptions{10, 300, 1e-4}, multi);
  EXPECT_EQ(best.inertia, *std::min_element(inertias.begin(), inertias.end()));
  EXPECT_EQ(best.labels, best_single.labels);
  EXPECT_TRUE(best.centers == best_single.centers);
}

TEST(KMeans, OneClusterIsTheMean) {
  const std::vector<double> x{1, 2, 3, 4, 5, 9, -1, 1};
  Rng rng(3);
  const KMeansResult r = kmeans(x.data(), 4, 2, 1, KMeansOptions{}, rng);
  EXPECT_EQ(r.labels, (Labels{0, 0, 0, 0}));
  EXPECT_NEAR(r.centers(0, 0), 2.0, 1e-12);
  EXPECT_NEAR(r.centers(0, 1), 4.0, 1e-12);
  // (1,4) + (1,0) + (9,25) + (9,9)
  EXPECT_NEAR(r.inertia, 58.0, 1e-12);
  EXPECT_LE(r.n_iter, 2);
}

TEST(KMeans, MoreClustersThanDistinctPoints) {
  // Two distinct locations, k = 3: the seeding repeats a point, one cluster goes empty and is relocated;
  // the result still has zero inertia and valid labels.
  const std::vector<double> x{0, 0, 0, 0, 0, 0, 5, 5, 5, 5, 5, 5};
  Rng rng(11);
  const KMeansResult r = kmeans(x.data(), 6, 2, 3, KMeansOptions{}, rng);
  EXPECT_EQ(r.inertia, 0.0);
  for (Label l : r.labels) {
    EXPECT_GE(l, 0);
    EXPECT_LT(l, 3);
  }
  EXPECT_NE(r.labels[0], r.labels[5]);
}

TEST(KMeans, KMeansPlusPlusPicksDataPoints) {
  const Blobs b = three_blobs(3);
  Rng rng(4);
  const RowMatrix c = kmeans_plusplus(b.x.data(), 300, 2, 3, rng);
  std::vector<int> blob_hit(3, 0);
  for (Eigen::Index r = 0; r < 3; ++r) {
    bool found = false;
    for (std::size_t i = 0; i < 300 && !found; ++i)
      if (b.x[2 * i] == c(r, 0) && b.x[2 * i + 1] == c(r, 1)) {
        found = true;
        ++blob_hit[static_cast<std::size_t>(b.truth[i])];
      }
    EXPECT_TRUE(found);
  }
  // The greedy D^2 seeding puts one seed in each of three far-apart blobs.
  EXPECT_EQ(blob_hit, (std::vector<int>{1, 1, 1}));
}

TEST(KMeans, InvalidArguments) {
  const std::vector<double> x{0, 1, 2};
  Rng rng(1);
  EXPECT_THROW(kmeans(x.data(), 3, 1, 0, KMeansOptions{}, rng), std::invalid_argument);
  EXPECT_THROW(kmeans(x.data(), 3, 1, 4, KMeansOptions{}, rng), std::invalid_argument);
  EXPECT_THROW(kmeans(x.data(), 3, 1, 2, KMeansOptions{0, 300, 1e-4}, rng), std::invalid_argument);
}

TEST(KMeans, WeightedOneClusterIsTheWeightedMean) {
  // 1-D points 0 and 10 with weights 3 and 1: centre (3*0 + 1*10) / 4 = 2.5, inertia 3*2.5^2 + 7.5^2 = 75.
  const std::vector<double> x = {0.0, 10.0}, w = {3.0, 1.0};
  Rng rng(1);
  KMeansResult r = kmeans(x.data(), 2, 1, 1, KMeansOptions{}, rng, w.data());
  EXPECT_DOUBLE_EQ(r.centers(0, 0), 2.5);
  EXPECT_DOUBLE_EQ(r.inertia, 75.0);
}

TEST(KMeans, IntegerWeightsGiveTheCentresOfTheRepeatedPoints) {
  // Weight m on a point is m copies of it: on three separated blobs, weights 1..4 and the points repeated
  // that often give the same centres (up to order and rounding) and the same inertia.
  Blobs b = three_blobs(5);
  const std::size_t n = b.x.size() / 2;
  std::vector<double> w(n), repeated;
  for (std::size_t i = 0; i < n; ++i) {
    w[i] = static_cast<double>(1 + i % 4);
    for (std::size_t m = 0; m < 1 + i % 4; ++m) repeated.insert(repeated.end(), {b.x[2 * i], b.x[2 * i + 1]});
  }
  Rng r1(3), r2(3);
  KMeansResult weighted = kmeans(b.x.data(), n, 2, 3, KMeansOptions{}, r1, w.data());
  KMeansResult copies = kmeans(repeated.data(), repeated.size() / 2, 2, 3, KMeansOptions{}, r2);
  auto sorted_rows = [](const RowMatrix& c) {
    std::vector<std::pair<double, double>> v;
    for (Eigen::Index i = 0; i < c.rows(); ++i) v.emplace_back(c(i, 0), c(i, 1));
    std::sort(v.begin(), v.end());
    return v;
  };
  const auto a = sorted_rows(weighted.centers), c = sorted_rows(copies.centers);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_NEAR(a[i].first, c[i].first, 1e-9);
    EXPECT_NEAR(a[i].second, c[i].second, 1e-9);
  }
  EXPECT_NEAR(weighted.inertia, copies.inertia, 1e-9 * copies.inertia);
}

TEST(KMeans, ZeroWeightPointsAreNeverSeeds) {
  // Two points of weight 0 far away from the rest: k-means++ never draws them (probability 0).
  std::vector<double> x = {0, 0, 1, 0, 0, 1, 100, 100, -100, 100};
  std::vector<double> w = {1, 1, 1, 0, 0};
  for (std::uint64_t seed = 0; seed < 50; ++seed) {
    Rng rng(seed);
    KMeansResult r = kmeans(x.data(), 5, 2, 2, KMeansOptions{.n_init = 1, .max_iter = 1, .tol = 0}, rng, w.data());
    for (Eigen::Index c = 0; c < 2; ++c) EXPECT_LT(std::abs(r.centers(c, 0)) + std::abs(r.centers(c, 1)), 60.0) << seed;
  }
  Rng rng(0);
  std::vector<double> zero(5, 0.0), negative = {1, 1, -1, 1, 1};
  EXPECT_THROW(kmeans(x.data(), 5, 2, 2, KMeansOptions{}, rng, zero.data()), std::invalid_argument);
  EXPECT_THROW(kmeans(x.data(), 5, 2, 2, KMeansOptions{}, rng, negative.data()), std::invalid_argument);
}

TEST(KMeansMethod, InfoAndRun) {
  const MethodInfo& info = kmeans_method_info();
  EXPECT_EQ(info.name, "kmeans");
  EXPECT_FALSE(info.differentially_private);
  ASSERT_EQ(info.params.size(), 5u);
  EXPECT_EQ(info.params[0].name, "k");
  EXPECT_TRUE(info.params[0].required());
  EXPECT_EQ(info.params[1].name, "n_init");
  EXPECT_EQ(std::get<std::int64_t>(info.params[1].default_value), 1);
  EXPECT_EQ(info.params[2].name, "max_iter");
  EXPECT_EQ(std::get<std::int64_t>(info.params[2].default_value), 300);
  EXPECT_EQ(info.params[3].name, "tol");
  EXPECT_EQ(std::get<double>(info.params[3].default_value), 1e-4);
  EXPECT_EQ(info.params[4].name, "seeding");  // trial: the trial's generator; reference: the measures' best of ten
  EXPECT_EQ(std::get<std::string>(info.params[4].default_value), "trial");

  const Blobs b = three_blobs(8);
  Dataset data;
  data.n = 300;
  data.d = 2;
  data.coords = b.x;
  ParamSet ps;
  ps.set("k", std::int64_t{3});
  ps.set("n_init", std::int64_t{2});
  ps.set("max_iter", std::int64_t{300});
  ps.set("tol", 1e-4);
  ps.set("seeding", std::string("trial"));
  Rng rng(1);
  BudgetLedger ledger;
  const MethodResult r = info.make()->run(data, ps, rng, ledger);
  EXPECT_TRUE(same_partition(r.labels, b.truth));
  ASSERT_EQ(r.release.at("centers").size(), 3u);
  EXPECT_EQ(r.release.at("centers")[0].size(), 2u);
  EXPECT_GT(r.diagnostics.at("inertia").get<double>(), 0.0);
  EXPECT_GE(r.diagnostics.at("iterations").get<std::int64_t>(), 1);
  EXPECT_TRUE(ledger.entries().empty());

  ps.set("k", std::int64_t{301});
  EXPECT_ANY_THROW(info.make()->run(data, ps, rng, ledger));
}

}  // namespace
}  // namespace dpclust
