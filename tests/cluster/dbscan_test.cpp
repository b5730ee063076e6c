#include "cluster/dbscan/dbscan.hpp"
#include "cluster/dbscan/register.hpp"

#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <iostream>
#include <set>
#include <string>
#include <vector>

#include "cluster_test_util.hpp"
#include "core/error.hpp"
#include "core/rng.hpp"
#include "test_support.hpp"

namespace dpclust {
namespace {

using testing::reference_dbscan;

Labels run1d(const std::vector<double>& x, double alpha, std::int64_t min_pts, DbscanStats* st = nullptr) {
  return dbscan(x.data(), x.size(), 1, alpha, min_pts, st);
}

// Consistency every DBSCAN labelling in sklearn order must satisfy, checkable without neighbourhoods:
// ids are 0..k-1 and first appear in increasing order among the core points.
void expect_canonical(const Labels& labels, const DbscanStats& st) {
  Label max_label = -1;
  std::size_t noise = 0;
  for (Label l : labels) {
    max_label = std::max(max_label, l);
    noise += l == kNoise ? 1 : 0;
  }
  EXPECT_EQ(static_cast<std::size_t>(max_label + 1), st.clusters);
  EXPECT_EQ(noise, st.noise_points);
  EXPECT_LE(st.core_points + st.noise_points, labels.size());
}

TEST(Dbscan, InclusiveBoundaryOnALine) {
  // Spacing exactly alpha (0.25 and all the coordinates are exact binary fractions).
  std::vector<double> x{0.0, 0.25, 0.5, 0.75, 1.0};
  DbscanStats st;
  EXPECT_EQ(run1d(x, 0.25, 3, &st), (Labels{0, 0, 0, 0, 0}));
  EXPECT_EQ(st.core_points, 3u);  // the two ends have only one neighbour besides themselves
  EXPECT_EQ(st.clusters, 1u);
  EXPECT_EQ(st.noise_points, 0u);
  // A hair smaller: nobody has a neighbour, so nobody is core.
  EXPECT_EQ(run1d(x, 0.2499999, 3), (Labels{-1, -1, -1, -1, -1}));
  EXPECT_EQ(run1d(x, 0.2499999, 1), (Labels{0, 1, 2, 3, 4}));
}

TEST(Dbscan, InclusiveBoundaryFarFromTheOriginIn2D) {
  // 1000 + k/4 is exact, so consecutive points are exactly alpha apart; also a 3-4-5 diagonal.
  std::vector<double> x;
  for (int k = 0; k < 6; ++k) {
    x.push_back(1000.0 + 0.25 * k);
    x.push_back(-500.0);
  }
  EXPECT_EQ(dbscan(x.data(), 6, 2, 0.25, 3), (Labels{0, 0, 0, 0, 0, 0}));
  std::vector<double> diag{0, 0, 3, 4, 6, 8, 100, 100};
  DbscanStats st;
  EXPECT_EQ(dbscan(diag.data(), 4, 2, 5.0, 3, &st), (Labels{0, 0, 0, -1}));
  EXPECT_EQ(st.core_points, 1u);
  EXPECT_EQ(dbscan(diag.data(), 4, 2, 4.999999, 3), (Labels{-1, -1, -1, -1}));
}

TEST(Dbscan, RoundingAtACellBoundary) {
  // 0.05 + 11 * 0.7 and 0.05 + 12 * 0.7 are 0.7 apart in real arithmetic but their computed distance
  // exceeds 0.7, while (x - 0.05) / 0.7 puts both in cell 11 of a grid of side exactly alpha = 0.7. A
  // grid without a rounding margin would call them neighbours (and, with min_pts = 2, a cluster).
  const std::vector<double> x{0.05, 0.05 + 11 * 0.7, 0.05 + 12 * 0.7};
  ASSERT_GT((x[2] - x[1]) * (x[2] - x[1]), 0.7 * 0.7);
  ASSERT_EQ(std::floor((x[1] - x[0]) / 0.7), std::floor((x[2] - x[0]) / 0.7));
  EXPECT_EQ(run1d(x, 0.7, 2), (Labels{-1, -1, -1}));
  EXPECT_EQ(run1d(x, 0.7, 2), reference_dbscan(x.data(), 3, 1, 0.7, 2));
}

TEST(Dbscan, MinPtsCountsThePointItself) {
  // min_pts = 1: every point is core; points within alpha are joined, ids in index order.
  std::vector<double> x{5.0, 0.0, 10.0, 0.5};
  DbscanStats st;
  EXPECT_EQ(run1d(x, 1.0, 1, &st), (Labels{0, 1, 2, 1}));
  EXPECT_EQ(st.core_points, 4u);
  EXPECT_EQ(st.clusters, 3u);
  // min_pts = 2: a pair within alpha is two core points; singletons are noise.
  EXPECT_EQ(run1d(x, 1.0, 2), (Labels{-1, 0, -1, 0}));
  // min_pts = 3: the pair is not enough.
  EXPECT_EQ(run1d(x, 1.0, 3), (Labels{-1, -1, -1, -1}));
}

// Cluster A = 0.0, 0.25, ..., 2.0 (all core), cluster B = 3.9, 4.1, ..., 4.9 (all core), border point
// b = 3.0, within alpha = 1 of A's 2.0 (distance exactly 1) and of B's 3.9 (distance 0.9); min_pts = 4.
// `a_first`: A's point 0.0 gets index 0 (so A is cluster 0); otherwise B's 4.9 does. Index 1 is always
// B's 3.9 and index 2 the border point, so the border point's nearest core point and lowest-index core
// neighbour are both in B: a naive rule ("nearest core", "lowest-index core neighbour", "last cluster to
// reach it") would put it in B even when sklearn puts it in A.
std::vector<double> border_case(bool a_first) {
  std::vector<double> x;
  x.push_back(a_first ? 0.0 : 4.9);
  x.push_back(3.9);
  x.push_back(3.0);
  for (int k = a_first ? 1 : 0; k <= 8; ++k) x.push_back(0.25 * k);
  for (double v : {4.1, 4.3, 4.5, 4.7}) x.push_back(v);
  if (a_first) x.push_back(4.9);
  return x;
}

TEST(Dbscan, BorderPointGoesToTheLowestClusterId) {
  for (bool a_first : {true, false}) {
    const auto x = border_case(a_first);
    DbscanStats st;
    const Labels got = run1d(x, 1.0, 4, &st);
    ASSERT_EQ(got.size(), x.size());
    EXPECT_EQ(st.clusters, 2u);
    EXPECT_EQ(st.core_points, x.size() - 1);
    EXPECT_EQ(st.noise_points, 0u);
    const Label a = a_first ? 0 : 1, b = a_first ? 1 : 0;
    for (std::size_t i = 0; i < x.size(); ++i) {
      if (i == 2) continue;
      EXPECT_EQ(got[i], x[i] < 2.5 ? a : b) << "point " << i << " at " << x[i];
    }
    EXPECT_EQ(got[2], 0) << "a_first=" << a_first;  // the cluster discovered first, whichever it is
    EXPECT_EQ(got, reference_dbscan(x.data(), x.size(), 1, 1.0, 4));
  }
}

TEST(Dbscan, BorderBetweenTwoClustersIn2D) {
  // Same situation in 2D (alpha = 1, min_pts = 4, every coordinate exact): the border point (0, 0) is
  // within alpha of core (-1, 0) of the left cluster (cluster 0, via index 0) and of core (0.75, 0) of
  // the right cluster, which is nearer and has the lower index (1).
  std::vector<double> x{-2.5, 0, 0.75, 0, 0, 0, -2, 0, -1, 0, -3, 0, -1.5, 0, 1.25, 0, 1.75, 0, 2.25, 0};
  const std::size_t n = x.size() / 2;
  DbscanStats st;
  const Labels got = dbscan(x.data(), n, 2, 1.0, 4, &st);
  EXPECT_EQ(got, (Labels{0, 1, 0, 0, 0, 0, 0, 1, 1, 1}));
  EXPECT_EQ(st.core_points, 7u);  // all but (0, 0), (-3, 0) and (2.25, 0)
  EXPECT_EQ(got, reference_dbscan(x.data(), n, 2, 1.0, 4));
}

TEST(Dbscan, NoiseAndClusterNumberingOrder) {
  // Index 0 noise, index 1 a border point of the right cluster, index 2 the first core point (left
  // cluster): cluster 0 is the left one although a right-cluster point has a lower index.
  std::vector<double> x{100.0, 10.0, 0.0, 11.0, 0.5, 11.5, 1.0, 12.0};
  DbscanStats st;
  EXPECT_EQ(run1d(x, 1.0, 3, &st), (Labels{-1, 1, 0, 1, 0, 1, 0, 1}));
  EXPECT_EQ(st.core_points, 6u);
  EXPECT_EQ(st.clusters, 2u);
  EXPECT_EQ(st.noise_points, 1u);
}

TEST(Dbscan, DuplicatePointsCount) {
  // Five copies of one point reach min_pts = 5, four copies of another do not.
  std::vector<double> x;
  for (int k = 0; k < 9; ++k) {
    const bool first = k % 2 == 0 && k < 9;  // indices 0, 2, 4, 6, 8 at (1, 1); 1, 3, 5, 7 at (5, 5)
    x.push_back(first ? 1.0 : 5.0);
    x.push_back(first ? 1.0 : 5.0);
  }
  DbscanStats st;
  EXPECT_EQ(dbscan(x.data(), 9, 2, 0.5, 5, &st), (Labels{0, -1, 0, -1, 0, -1, 0, -1, 0}));
  EXPECT_EQ(st.core_points, 5u);
  EXPECT_EQ(dbscan(x.data(), 9, 2, 0.5, 4), (Labels{0, 1, 0, 1, 0, 1, 0, 1, 0}));
  // alpha larger than the gap: one cluster.
  EXPECT_EQ(dbscan(x.data(), 9, 2, 6.0, 5), Labels(9, 0));
}

TEST(Dbscan, ThreeDimensionalLatticeCubes) {
  // Two 3x3x3 unit lattices; alpha = 1, min_pts = 7: only the centre (itself + 6 face neighbours) is
  // core, the 6 face centres are its border points, edges (sqrt 2) and corners (sqrt 3) are noise.
  std::vector<double> x;
  std::vector<Label> want;
  for (int cube = 0; cube < 2; ++cube)
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        for (int k = 0; k < 3; ++k) {
          x.push_back(10.0 * cube + i);
          x.push_back(10.0 * cube + j);
          x.push_back(10.0 * cube + k);
          const int off = std::abs(i - 1) + std::abs(j - 1) + std::abs(k - 1);
          want.push_back(off <= 1 ? cube : kNoise);
        }
  DbscanStats st;
  EXPECT_EQ(dbscan(x.data(), 54, 3, 1.0, 7, &st), want);
  EXPECT_EQ(st.core_points, 2u);
  EXPECT_EQ(st.clusters, 2u);
  EXPECT_EQ(st.noise_points, 40u);
  EXPECT_EQ(st.index, "grid-fine-dense");
  // min_pts = 6: face centres become core too; every edge point is within 1 of a face centre.
  const Labels six = dbscan(x.data(), 54, 3, 1.0, 6);
  for (std::size_t i = 0; i < 54; ++i) {
    const int off =
        std::abs(int(x[3 * i]) % 10 - 1) + std::abs(int(x[3 * i + 1]) % 10 - 1) + std::abs(int(x[3 * i + 2]) % 10 - 1);
    EXPECT_EQ(six[i], off <= 2 ? Label(i / 27) : kNoise) << i;
  }
}

TEST(Dbscan, BorderNoiseKeepsTheCorePointsOnly) {
  // The lattice cubes above under the paper's rule (Qiu & Yi, Sec. 2): the centre is each cluster, its six
  // face centres (border points under scikit-learn's rule) are noise; the cluster ids do not change.
  std::vector<double> x;
  std::vector<Label> want;
  for (int cube = 0; cube < 2; ++cube)
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        for (int k = 0; k < 3; ++k) {
          x.insert(x.end(), {10.0 * cube + i, 10.0 * cube + j, 10.0 * cube + k});
          want.push_back(i == 1 && j == 1 && k == 1 ? cube : kNoise);
        }
  DbscanStats st;
  EXPECT_EQ(dbscan(x.data(), 54, 3, 1.0, 7, &st, BorderRule::noise), want);
  EXPECT_EQ(st.core_points, 2u);
  EXPECT_EQ(st.clusters, 2u);
  EXPECT_EQ(st.noise_points, 52u);
}

TEST(Dbscan, EmptyAndInvalidInput) {
  EXPECT_TRUE(dbscan(nullptr, 0, 2, 1.0, 3).empty());
  std::vector<double> x{0, 0, 1, 1};
  EXPECT_THROW(dbscan(x.data(), 2, 2, 0.0, 3), std::invalid_argument);
  EXPECT_THROW(dbscan(x.data(), 2, 2, -1.0, 3), std::invalid_argument);
  EXPECT_THROW(dbscan(x.data(), 2, 2, std::nan(""), 3), std::invalid_argument);
  EXPECT_THROW(dbscan(x.data(), 2, 2, 1.0, 0), std::invalid_argument);
  x[1] = std::nan("");
  EXPECT_THROW(dbscan(x.data(), 2, 2, 1.0, 3), std::invalid_argument);
  // min_pts larger than n: nothing is core.
  std::vector<double> y{0, 0, 0};
  EXPECT_EQ(dbscan(y.data(), 3, 1, 1.0, 1000000000000LL), (Labels{-1, -1, -1}));
}

// ---- randomized cross-check against the sklearn transcription ---------------------------------------

enum class Shape { blobs, lattice, offset_lattice, sparse, far_lattice };

std::vector<double> make_points(Shape shape, std::size_t n, std::size_t d, Rng& rng) {
  std::vector<double> x;
  x.reserve(n * d);
  std::vector<double> centres;
  const std::size_t nc = 4;
  const double span = shape == Shape::sparse ? 1e7 : 10.0;
  for (std::size_t c = 0; c < nc * d; ++c) centres.push_back(rng.uniform(0.0, span));
  for (std::size_t i = 0; i < n; ++i) {
    const double u = rng.uniform();
    if (i > 0 && u < 0.05) {  // duplicate of an earlier point
      const std::size_t k = rng.below(i);
      for (std::size_t j = 0; j < d; ++j) x.push_back(x[k * d + j]);
      continue;
    }
    switch (shape) {
      case Shape::blobs:
      case Shape::sparse: {
        if (u < 0.25) {
          for (std::size_t j = 0; j < d; ++j) x.push_back(rng.uniform(0.0, span));
        } else {
          const std::size_t c = rng.below(nc);
          const double sd = shape == Shape::sparse ? 0.7 : 0.4 + 0.3 * static_cast<double>(c);
          for (std::size_t j = 0; j < d; ++j) x.push_back(centres[c * d + j] + rng.normal(0.0, sd));
        }
        break;
      }
      case Shape::lattice:  // multiples of 0.1 (inexact): distances straddle alpha = 0.1 by an ulp
        for (std::size_t j = 0; j < d; ++j) x.push_back(static_cast<double>(rng.below(12)) * 0.1);
        break;
      case Shape::offset_lattice:  // exact quarter steps far from the origin: distances exactly alpha
        for (std::size_t j = 0; j < d; ++j)
          x.push_back(1e6 + static_cast<double>(rng.below(10)) * 0.25 - 3e6 * static_cast<double>(j));
        break;
      case Shape::far_lattice:  // steps of 0.001 (inexact) at 1e9, where an ulp is 1.2e-7
        for (std::size_t j = 0; j < d; ++j)
          x.push_back(1e9 * static_cast<double>(j + 1) + static_cast<double>(rng.below(12)) * 0.001);
        break;
    }
  }
  return x;
}

struct Case {
  Shape shape;
  double alpha;
  std::int64_t min_pts;
};

TEST(Dbscan, MatchesSklearnTranscriptionOnRandomData) {
  const std::vector<Case> cases{
      {Shape::blobs, 0.3, 3},          {Shape::blobs, 0.7, 5},         {Shape::blobs, 1.5, 10},
      {Shape::blobs, 0.5, 1},          {Shape::blobs, 3.0, 20},        {Shape::lattice, 0.1, 3},
      {Shape::lattice, 0.2, 6},        {Shape::lattice, 0.3, 12},      {Shape::offset_lattice, 0.25, 3},
      {Shape::offset_lattice, 0.5, 8}, {Shape::sparse, 1.0, 4},        {Shape::sparse, 2.5, 8},
      {Shape::far_lattice, 0.001, 3},  {Shape::far_lattice, 0.002, 7}, {Shape::far_lattice, 0.0015, 12}};
  std::set<std::string> indexes;
  std::size_t compared = 0, with_clusters = 0;
  for (std::size_t d : {1u, 2u, 3u, 5u, 10u}) {
    for (std::uint64_t seed = 1; seed <= 4; ++seed) {
      for (std::size_t ci = 0; ci < cases.size(); ++ci) {
        const Case& c = cases[ci];
        Rng rng(seed * 1000 + d * 37 + ci);
        const std::size_t n = 250 + rng.below(200);
        const auto x = make_points(c.shape, n, d, rng);
        // Higher dimensions spread the points: scale alpha so that clusters still form.
        const double alpha =
            c.alpha *
            (d >= 5 && (c.shape == Shape::blobs || c.shape == Shape::sparse) ? std::sqrt(double(d) / 2.0) : 1.0);
        DbscanStats st;
        const Labels got = dbscan(x.data(), n, d, alpha, c.min_pts, &st);
        const Labels want = reference_dbscan(x.data(), n, d, alpha, c.min_pts);
        ASSERT_EQ(got, want) << "d=" << d << " seed=" << seed << " case=" << ci << " index=" << st.index;
        expect_canonical(got, st);
        indexes.insert(st.index);
        ++compared;
        with_clusters += st.clusters > 1 ? 1 : 0;
      }
    }
  }
  // Every index path was exercised, and the cases are not trivial.
  for (const char* name : {"grid-fine-dense", "grid-fine-hash", "grid-coarse-dense", "grid-coarse-hash", "brute"})
    EXPECT_TRUE(indexes.count(name)) << name;
  EXPECT_GT(with_clusters, compared / 2);
}

TEST(Dbscan, BorderNoiseIsAssignWithNonCorePointsAsNoise) {
  // On every index path: labels under border: noise equal scikit-learn's labels with each non-core point
  // (fewer than min_pts points within alpha, counted here by brute force) set to noise.
  std::set<std::string> indexes;
  std::size_t borders = 0;
  for (std::size_t d : {1u, 2u, 3u, 5u, 10u}) {
    for (const Case& c : {Case{Shape::blobs, 0.7, 5}, Case{Shape::lattice, 0.2, 6}, Case{Shape::sparse, 2.5, 8}}) {
      Rng rng(d * 11 + static_cast<std::uint64_t>(c.min_pts));
      const std::size_t n = 300;
      const auto x = make_points(c.shape, n, d, rng);
      const double alpha = c.alpha * (d >= 5 && c.shape != Shape::lattice ? std::sqrt(double(d) / 2.0) : 1.0);
      DbscanStats st;
      const Labels noise = dbscan(x.data(), n, d, alpha, c.min_pts, &st, BorderRule::noise);
      Labels want = dbscan(x.data(), n, d, alpha, c.min_pts);
      for (std::size_t i = 0; i < n; ++i) {
        std::int64_t within = 0;
        for (std::size_t j = 0; j < n; ++j) {
          double s = 0;
          for (std::size_t k = 0; k < d; ++k) s += (x[i * d + k] - x[j * d + k]) * (x[i * d + k] - x[j * d + k]);
          within += s <= alpha * alpha;
        }
        if (within < c.min_pts && want[i] != kNoise) {
          want[i] = kNoise;
          ++borders;
        }
      }
      ASSERT_EQ(noise, want) << "d=" << d << " min_pts=" << c.min_pts << " index=" << st.index;
      expect_canonical(noise, st);
      indexes.insert(st.index);
    }
  }
  EXPECT_GT(borders, 100u);  // the two rules really differ on these inputs
  EXPECT_GE(indexes.size(), 3u);
}

TEST(Dbscan, ResultDoesNotDependOnThreadCount) {
  Rng rng(7);
  const std::size_t n = 60000;
  const auto x = make_points(Shape::blobs, n, 2, rng);
  const int saved = omp_get_max_threads();
  omp_set_num_threads(1);
  DbscanStats s1, s2;
  const Labels one = dbscan(x.data(), n, 2, 0.05, 8, &s1);
  omp_set_num_threads(std::max(2, saved));
  const Labels many = dbscan(x.data(), n, 2, 0.05, 8, &s2);
  omp_set_num_threads(saved);
  EXPECT_EQ(one, many);
  EXPECT_GT(s1.clusters, 1u);
}

// ---- real data --------------------------------------------------------------------------------------

TEST(DbscanData, ClutoT4) {
  DPCLUST_REQUIRE_DATA("benchmark/cluto-t4-8k.arff");
  const auto p = testing::read_arff_xy(testing::data_root() / "benchmark/cluto-t4-8k.arff");
  ASSERT_EQ(p.n, 8000u);
  DbscanStats st;
  const auto t0 = std::chrono::steady_clock::now();
  const Labels got = dbscan(p.x.data(), p.n, 2, 9.0, 11, &st);
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count();
  std::cout << "[ cluto-t4 ] alpha=9 min_pts=11: " << st.clusters << " clusters, " << st.core_points << " core, "
            << st.noise_points << " noise, " << ms << " ms (" << st.index << ")\n";
  EXPECT_EQ(got, reference_dbscan(p.x.data(), p.n, 2, 9.0, 11));
  expect_canonical(got, st);
}

TEST(DbscanData, CabsTinySubsampleMatchesTranscription) {
  DPCLUST_REQUIRE_DATA("geo/cabs_tiny.csv");
  const auto p = testing::read_cabs_km(testing::data_root() / "geo/cabs_tiny.csv");
  // Every 80th point (~10.6k), with min_pts scaled down accordingly.
  std::vector<double> sub;
  for (std::size_t i = 0; i < p.n; i += 80)
    sub.insert(sub.end(), p.x.begin() + long(2 * i), p.x.begin() + long(2 * i + 2));
  const std::size_t n = sub.size() / 2;
  for (std::int64_t min_pts : {5, 13}) {
    DbscanStats st;
    const Labels got = dbscan(sub.data(), n, 2, 0.05, min_pts, &st);
    EXPECT_EQ(got, reference_dbscan(sub.data(), n, 2, 0.05, min_pts)) << min_pts;
    EXPECT_GT(st.clusters, 1u);
  }
}

TEST(DbscanData, CabsTiny) {
  DPCLUST_REQUIRE_DATA("geo/cabs_tiny.csv");
  const auto p = testing::read_cabs_km(testing::data_root() / "geo/cabs_tiny.csv");
  ASSERT_EQ(p.n, 845685u);
  DbscanStats st;
  const auto t0 = std::chrono::steady_clock::now();
  const Labels got = dbscan(p.x.data(), p.n, 2, 0.05, 1000, &st);
  const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
  std::cout << "[ cabs-tiny ] alpha=0.05 km min_pts=1000: " << st.clusters << " clusters, " << st.core_points
            << " core, " << st.noise_points << " noise, " << s << " s (" << st.index << ", " << st.cells << " cells, "
            << omp_get_max_threads() << " threads)\n";
  expect_canonical(got, st);
  EXPECT_GT(st.clusters, 0u);
}

// ---- the method ---------------------------------------------------------------------------------------

TEST(DbscanMethod, InfoAndRun) {
  const MethodInfo& info = dbscan_method_info();
  EXPECT_EQ(info.name, "dbscan");
  EXPECT_FALSE(info.differentially_private);
  ASSERT_EQ(info.params.size(), 3u);
  EXPECT_EQ(info.params[0].name, "alpha");
  EXPECT_TRUE(info.params[0].required());
  EXPECT_NE(info.params[0].check(0.0), "");
  EXPECT_EQ(info.params[0].check(0.5), "");
  EXPECT_EQ(info.params[1].name, "min_pts");
  EXPECT_NE(info.params[1].check(std::int64_t{0}), "");
  EXPECT_EQ(info.params[1].check(std::int64_t{1}), "");

  Dataset data;
  data.n = 8;
  data.d = 1;
  data.coords = {100.0, 10.0, 0.0, 11.0, 0.5, 11.5, 1.0, 12.0};
  ParamSet ps;
  ps.set("alpha", 1.0);
  ps.set("min_pts", std::int64_t{3});
  Rng rng(1);
  BudgetLedger ledger;
  const MethodResult r = info.make()->run(data, ps, rng, ledger);
  EXPECT_EQ(r.labels, (Labels{-1, 1, 0, 1, 0, 1, 0, 1}));
  EXPECT_EQ(r.diagnostics.at("core_points"), 6);
  EXPECT_EQ(r.diagnostics.at("clusters"), 2);
  EXPECT_EQ(r.diagnostics.at("noise_points"), 1);
  EXPECT_TRUE(r.release.empty());
  EXPECT_TRUE(ledger.entries().empty());

  // border: the scikit-learn default, the paper's noise rule, and an unknown name refused by name.
  EXPECT_EQ(info.params[2].name, "border");
  EXPECT_EQ(info.params[2].choices, (std::vector<std::string>{"assign", "noise"}));
  EXPECT_EQ(std::get<std::string>(info.params[2].default_value), "assign");
  EXPECT_NE(info.params[2].check(std::string("core_only")), "");
  ps.set("border", std::string("noise"));
  const MethodResult rn = info.make()->run(data, ps, rng, ledger);
  // 10 has only 11 within 1 (2 points with itself < 3): the one border point, now noise.
  EXPECT_EQ(rn.labels, (Labels{-1, -1, 0, 1, 0, 1, 0, 1}));
  EXPECT_EQ(rn.diagnostics.at("core_points"), 6);
  EXPECT_EQ(rn.diagnostics.at("noise_points"), 2);
  ps.set("border", std::string("core_only"));
  try {
    (void)info.make()->run(data, ps, rng, ledger);
    ADD_FAILURE() << "an unknown border rule was accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.where(), "params.border");
  }
}

}  // namespace
}  // namespace dpclust
