// WaveCluster building blocks: quantization, wavelet transforms on hand-computed arrays, significant
// grids, connected components, and the DS1-DS3 facts of SPEC.md.
#include "wavecluster/wavecluster.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <cmath>
#include <iostream>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/rng.hpp"
#include "test_support.hpp"
#include "wavecluster/grid.hpp"
#include "wavecluster/wavelet.hpp"
#include "wavecluster/wc_test_util.hpp"

namespace dpclust::wavecluster {
namespace {

using dpclust::testing::make_dataset;

TEST(Quantizer, FloorFormulaAndClamp) {
  Bounds b{{0.0, 10.0}, {4.0, 20.0}};
  Quantizer q({4, 5}, b);
  EXPECT_EQ(q.cell_1d(0, 0.0), 0u);
  EXPECT_EQ(q.cell_1d(0, 0.999), 0u);
  EXPECT_EQ(q.cell_1d(0, 1.0), 1u);
  EXPECT_EQ(q.cell_1d(0, 4.0), 3u);   // x = hi is clamped into the last cell
  EXPECT_EQ(q.cell_1d(1, 12.0), 1u);  // (12-10)/10*5 = 1
  Dataset ds = make_dataset({0.5, 10.0, 3.9, 19.9, 4.0, 20.0, 1.5, 11.0}, 2, b);
  std::vector<double> m = q.counts(ds);
  ASSERT_EQ(m.size(), 20u);
  EXPECT_EQ(m[0 * 5 + 0], 1.0);
  EXPECT_EQ(m[3 * 5 + 4], 2.0);
  EXPECT_EQ(m[1 * 5 + 0], 1.0);
  EXPECT_EQ(q.cell_of(ds.point(1), 1), 1u * 3 + 2);  // coarse shape 2 x 3: (3>>1, 4>>1)
}

// Performance target: quantizing 1M points takes < 50 ms (one linear pass). Measured
// here and printed; the assertion is 5x looser so that a loaded shared machine does not fail it.
TEST(Quantizer, MillionPointsInOneLinearPass) {
  Rng rng(1);
  std::vector<double> c(2000000);
  for (double& x : c) x = rng.uniform(-180, 180);
  Dataset ds = make_dataset(std::move(c), 2, Bounds{{-180, -180}, {180, 180}});
  Quantizer q({80, 80}, ds.bounds);
  double best = 1e9;
  std::vector<double> m;
  for (int rep = 0; rep < 5; ++rep) {
    const auto t0 = std::chrono::steady_clock::now();
    m = q.counts(ds);
    best = std::min(best, std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  double total = 0;
  for (double x : m) total += x;
  EXPECT_EQ(total, 1e6);
  std::cout << "quantization of 1,000,000 points into 80 x 80 cells: " << best << " ms (best of 5)\n";
  EXPECT_LT(best, 250.0);
}

TEST(Wavelet, FilterCoefficients) {
  const double s = std::sqrt(2.0);
  LowpassFilter h = lowpass_filter(Wavelet::haar);
  ASSERT_EQ(h.taps.size(), 2u);
  EXPECT_DOUBLE_EQ(h.taps[0], 1 / s);
  EXPECT_DOUBLE_EQ(h.taps[1], 1 / s);
  // pywt.Wavelet('bior2.2').dec_lo = [0, -0.1767766952966369, 0.3535533905932738, 1.0606601717798214,
  // 0.3535533905932738, -0.1767766952966369]
  LowpassFilter b = lowpass_filter(Wavelet::bior2_2);
  const std::vector<double> ref = {-0.1767766952966369, 0.3535533905932738, 1.0606601717798214, 0.3535533905932738,
                                   -0.1767766952966369};
  ASSERT_EQ(b.taps.size(), ref.size());
  double sum = 0;
  for (std::size_t i = 0; i < ref.size(); ++i) {
    EXPECT_NEAR(b.taps[i], ref[i], 1e-15);
    sum += b.taps[i];
  }
  EXPECT_NEAR(sum, s, 1e-15);
  EXPECT_EQ(b.offset, 2);
}

TEST(Wavelet, HaarLevel1And2In2D) {
  // 4 x 4 counts; level 1 = block sums / 2, level 2 = total / 4.
  const std::vector<double> m = {1, 2, 0, 0,  //
                                 3, 4, 0, 1,  //
                                 0, 0, 5, 5,  //
                                 2, 0, 5, 5};
  GridShape sh{{4, 4}};
  WaveletSpec spec;
  std::vector<double> w = approximation(m, sh, spec);
  ASSERT_EQ(w.size(), 4u);
  EXPECT_NEAR(w[0], 10.0 / 2, 1e-12);
  EXPECT_NEAR(w[1], 1.0 / 2, 1e-12);
  EXPECT_NEAR(w[2], 2.0 / 2, 1e-12);
  EXPECT_NEAR(w[3], 20.0 / 2, 1e-12);
  spec.level = 2;
  std::vector<double> w2 = approximation(m, sh, spec);
  ASSERT_EQ(w2.size(), 1u);
  EXPECT_NEAR(w2[0], 33.0 / 4, 1e-12);
}

TEST(Wavelet, HaarOddLengthBoundaries) {
  const std::vector<double> x = {1, 3, 5};
  GridShape sh{{3}};
  WaveletSpec spec;
  const double s = std::sqrt(2.0);
  std::vector<double> z = approximation(x, sh, spec);
  ASSERT_EQ(z.size(), 2u);
  EXPECT_NEAR(z[0], 4 / s, 1e-12);
  EXPECT_NEAR(z[1], 5 / s, 1e-12);  // zero beyond the domain
  spec.boundary = Boundary::symmetric;
  std::vector<double> y = approximation(x, sh, spec);
  EXPECT_NEAR(y[1], 10 / s, 1e-12);  // x_3 = x_2
}

TEST(Wavelet, HaarTiesAreExact) {
  // Equal block sums must give bit-identical values (they decide ties at the significance threshold).
  std::vector<double> m(64 * 64);
  for (std::size_t i = 0; i < m.size(); ++i) m[i] = static_cast<double>((i * 7919) % 13);
  std::vector<double> w = approximation(m, GridShape{{64, 64}}, WaveletSpec{});
  for (std::size_t a = 0; a < 32; ++a)
    for (std::size_t b = 0; b < 32; ++b) {
      const double sum = m[(2 * a) * 64 + 2 * b] + m[(2 * a) * 64 + 2 * b + 1] + m[(2 * a + 1) * 64 + 2 * b] +
                         m[(2 * a + 1) * 64 + 2 * b + 1];
      EXPECT_EQ(w[a * 32 + b], sum / 2);
    }
}

TEST(Wavelet, Bior22OneDimensionHandComputed) {
  // x = [8, 0, 0, 0, 0, 4]: a_i = sqrt2 (-x[2i-2]/8 + x[2i-1]/4 + 3x[2i]/4 + x[2i+1]/4 - x[2i+2]/8).
  const std::vector<double> x = {8, 0, 0, 0, 0, 4};
  GridShape sh{{6}};
  WaveletSpec spec{Wavelet::bior2_2, 1, Boundary::zero};
  const double s = std::sqrt(2.0);
  std::vector<double> a = approximation(x, sh, spec);
  ASSERT_EQ(a.size(), 3u);
  EXPECT_NEAR(a[0], s * 6.0, 1e-12);     // 3/4 * 8
  EXPECT_NEAR(a[1], s * (-1.0), 1e-12);  // -1/8 * 8
  EXPECT_NEAR(a[2], s * (1.0), 1e-12);   // x5/4 = 1
  spec.boundary = Boundary::symmetric;   // x_{-1} = x_0 = 8, x_{-2} = x_1 = 0, x_6 = x_5 = 4
  std::vector<double> b = approximation(x, sh, spec);
  EXPECT_NEAR(b[0], s * (6.0 + 2.0), 1e-12);  // + x_{-1}/4
  EXPECT_NEAR(b[2], s * (1.0 - 0.5), 1e-12);  // - x_6/8
  spec.boundary = Boundary::periodic;         // x_{-1} = x_5 = 4, x_{-2} = x_4 = 0, x_6 = x_0 = 8
  std::vector<double> c = approximation(x, sh, spec);
  EXPECT_NEAR(c[0], s * (6.0 + 1.0), 1e-12);
  EXPECT_NEAR(c[2], s * (1.0 - 1.0), 1e-12);
}

TEST(Wavelet, Bior22SeparableLevel2In3D) {
  // Separable: the 3-D transform of an outer product is the outer product of the 1-D transforms.
  const std::vector<double> u = {1, 2, 0, 5, 3, 1, 0, 2}, v = {0, 4, 1, 1}, t = {2, 0, 1, 3, 1, 1};
  std::vector<double> m;
  for (double a : u)
    for (double b : v)
      for (double c : t) m.push_back(a * b * c);
  WaveletSpec spec{Wavelet::bior2_2, 2, Boundary::symmetric};
  auto one = [&](const std::vector<double>& x) { return approximation(x, GridShape{{x.size()}}, spec); };
  const std::vector<double> au = one(u), av = one(v), at = one(t);
  std::vector<double> w = approximation(m, GridShape{{8, 4, 6}}, spec);
  ASSERT_EQ(au.size(), 2u);
  ASSERT_EQ(av.size(), 1u);
  ASSERT_EQ(at.size(), 2u);
  ASSERT_EQ(w.size(), 4u);
  for (std::size_t i = 0; i < 2; ++i)
    for (std::size_t k = 0; k < 2; ++k) EXPECT_NEAR(w[i * 2 + k], au[i] * av[0] * at[k], 1e-9);
  // And the Haar level-2 value of a 2^d block in d = 3 is its sum / 2^(3 * 2 / 2) = sum / 8.
  WaveletSpec haar{Wavelet::haar, 2, Boundary::zero};
  std::vector<double> ones(64, 1.0);
  std::vector<double> h = approximation(ones, GridShape{{4, 4, 4}}, haar);
  ASSERT_EQ(h.size(), 1u);
  EXPECT_NEAR(h[0], 64.0 / 8.0, 1e-12);
}

TEST(Wavelet, SensitivityFromFilter) {
  Sensitivity h = sensitivity(GridShape{{40, 40}}, WaveletSpec{Wavelet::haar, 1, Boundary::zero});
  EXPECT_EQ(h.nonpositive_count, 1.0);
  EXPECT_EQ(h.rank_quality, 1.0);
  Sensitivity h3 = sensitivity(GridShape{{9, 8, 7}}, WaveletSpec{Wavelet::haar, 3, Boundary::symmetric});
  EXPECT_EQ(h3.nonpositive_count, 1.0);
  Sensitivity b1 = sensitivity(GridShape{{40}}, WaveletSpec{Wavelet::bior2_2, 1, Boundary::zero});
  EXPECT_EQ(b1.nonpositive_count, 2.0);  // [-1/8, 3/4, -1/8]: P = 1, N = 2
  EXPECT_EQ(b1.rank_quality, 3.0);
  Sensitivity b2 = sensitivity(GridShape{{40, 40}}, WaveletSpec{Wavelet::bior2_2, 1, Boundary::zero});
  EXPECT_EQ(b2.nonpositive_count, 5.0);  // 3x3 outer product: P = 1 + 4, N = 2 + 2
  EXPECT_EQ(b2.rank_quality, 9.0);
}

TEST(WaveCluster, TopKAndTies) {
  EXPECT_EQ(top_k_count(0.1, 159), 144u);
  EXPECT_EQ(top_k_count(0.6, 100), 40u);
  EXPECT_EQ(top_k_count(0.0, 7), 7u);
  std::vector<std::uint8_t> sig;
  const std::vector<double> w = {0.5, -1, 2, 2, 0, 3};
  EXPECT_EQ(select_top_k(w, 2, sig), 2.0);  // 3 and the two tied 2s
  EXPECT_EQ(sig, (std::vector<std::uint8_t>{0, 0, 1, 1, 0, 1}));
  EXPECT_EQ(select_top_k(w, 2, sig, Ties::exclude), 2.0);  // only 3
  EXPECT_EQ(sig, (std::vector<std::uint8_t>{0, 0, 0, 0, 0, 1}));
  select_top_k(w, 2, sig, Ties::index);  // 3 and the first 2
  EXPECT_EQ(sig, (std::vector<std::uint8_t>{0, 0, 1, 0, 0, 1}));
  select_above(w, 0.5, sig);
  EXPECT_EQ(sig, (std::vector<std::uint8_t>{0, 0, 1, 1, 0, 1}));
}

TEST(WaveCluster, ConnectivityFullVersusFace) {
  // Two diagonal touching cells and one separate: full -> 2 clusters, face -> 3.
  const std::vector<std::uint8_t> sig = {1, 0, 0, 0,  //
                                         0, 1, 0, 1,  //
                                         0, 0, 0, 1};
  GridShape sh{{3, 4}};
  Clustering f = connected_components(sig, sh, true);
  EXPECT_EQ(f.n_clusters, 2u);
  EXPECT_EQ(f.n_significant, 4u);
  EXPECT_EQ(f.cell_cluster, (std::vector<std::int32_t>{0, -1, -1, -1, -1, 0, -1, 1, -1, -1, -1, 1}));
  EXPECT_EQ(connected_components(sig, sh, false).n_clusters, 3u);
  // 3-D: corner-touching cells (1,1,1) and (0,0,0) are adjacent with full connectivity.
  std::vector<std::uint8_t> s3(8, 0);
  s3[0] = s3[7] = 1;
  EXPECT_EQ(connected_components(s3, GridShape{{2, 2, 2}}, true).n_clusters, 1u);
  EXPECT_EQ(connected_components(s3, GridShape{{2, 2, 2}}, false).n_clusters, 2u);
}

// The components against a reference written here (all pairs, union by flooding), on masks where
// connected_components lists neighbour offsets (dense, few dimensions) and where it compares pairs
// (sparse, many dimensions): the same ids either way.
TEST(WaveCluster, ConnectedComponentsEqualAReferenceInEveryDimension) {
  Rng rng(21);
  for (std::size_t d : {1u, 2u, 3u, 5u, 8u, 11u}) {
    for (double density : {0.02, 0.3}) {
      for (bool full : {true, false}) {
        std::vector<std::size_t> dims(d, d <= 3 ? 5 : 2);
        GridShape sh{dims};
        std::vector<std::uint8_t> sig(sh.size());
        for (auto& v : sig) v = rng.uniform(0, 1) < density ? 1 : 0;
        // Reference: cells in index order, each unlabelled one floods its component over all pairs.
        std::vector<std::int32_t> ref(sig.size(), -1);
        std::vector<std::size_t> a(d), b(d);
        std::int32_t next = 0;
        for (std::size_t s = 0; s < sig.size(); ++s) {
          if (!sig[s] || ref[s] >= 0) continue;
          std::vector<std::size_t> todo{s};
          ref[s] = next;
          while (!todo.empty()) {
            const std::size_t x = todo.back();
            todo.pop_back();
            unravel(x, sh, a.data());
            for (std::size_t y = 0; y < sig.size(); ++y) {
              if (!sig[y] || ref[y] >= 0) continue;
              unravel(y, sh, b.data());
              std::size_t off = 0, far = 0;
              for (std::size_t j = 0; j < d; ++j) {
                const std::size_t diff = a[j] > b[j] ? a[j] - b[j] : b[j] - a[j];
                off += diff;
                far += diff > 1;
              }
              if (far == 0 && (full || off == 1)) {
                ref[y] = next;
                todo.push_back(y);
              }
            }
          }
          ++next;
        }
        const Clustering c = connected_components(sig, sh, full);
        EXPECT_EQ(c.cell_cluster, ref) << "d = " << d << ", density " << density << ", full " << full;
        EXPECT_EQ(c.n_clusters, static_cast<std::size_t>(next));
      }
    }
  }
}

// 22 dimensions at g = 2 (4 million cells): full connectivity has 3^22 - 1 = 3.1e10 neighbour offsets,
// which the labelling once listed (4 GB and more); a few significant cells are compared pairwise.
TEST(WaveCluster, ConnectedComponentsIn22DimensionsDoNotListTheOffsets) {
  GridShape sh{std::vector<std::size_t>(22, 2)};
  std::vector<std::uint8_t> sig(sh.size(), 0);
  sig[0] = 1;              // (0, ..., 0)
  sig[sh.size() - 1] = 1;  // (1, ..., 1): corner-adjacent to the first
  sig[1] = 1;              // adjacent to the first by a face
  const Clustering full = connected_components(sig, sh, true);
  EXPECT_EQ(full.n_clusters, 1u);
  EXPECT_EQ(full.n_significant, 3u);
  const Clustering face = connected_components(sig, sh, false);
  EXPECT_EQ(face.n_clusters, 2u);
  EXPECT_LT(connected_components_memory(22, true, 3), 1024.0);
  // No significant cell at all (a private release that found nothing): nothing listed either.
  const Clustering none = connected_components(std::vector<std::uint8_t>(sh.size(), 0), sh, true);
  EXPECT_EQ(none.n_clusters, 0u);
  EXPECT_EQ(connected_components_memory(22, true, 0), 0.0);
  EXPECT_GT(connected_components_memory(12, true, 1e6), 1e6);  // 3^12 offsets of 12 ints
}

TEST(WaveCluster, ReleaseRoundTrip) {
  const std::vector<std::uint8_t> sig = {1, 1, 0, 0, 0, 1};
  Clustering c = connected_components(sig, GridShape{{2, 3}}, false);
  Clustering r = clustering_from_release(clustering_release(c));
  EXPECT_EQ(r.cell_cluster, c.cell_cluster);
  EXPECT_EQ(r.n_clusters, c.n_clusters);
  EXPECT_EQ(r.n_significant, c.n_significant);
}

TEST(WaveCluster, OneAndThreeDimensions) {
  // Two separated groups in 1-D and in 3-D: two clusters, every point labelled.
  Rng rng(4);
  std::vector<double> c1, c3;
  for (int i = 0; i < 400; ++i) {
    const double base = i % 2 ? 70.0 : 20.0;
    c1.push_back(base + rng.uniform(-5, 5));
    for (int j = 0; j < 3; ++j) c3.push_back(base + rng.uniform(-5, 5));
  }
  Dataset d1 = make_dataset(c1, 1, Bounds{{0}, {100}});
  Dataset d3 = make_dataset(c3, 3, Bounds{{0, 0, 0}, {100, 100, 100}});
  ParamSet ps = dpclust::testing::wc_params(20, 0.0);
  for (const Dataset* ds : {&d1, &d3}) {
    const WcParams wp = WcParams::from(ps, ds->d);
    WaveClusterOutput out = run_wavecluster(*ds, wp);
    EXPECT_EQ(out.clustering.n_clusters, 2u) << ds->d;
    Labels l = label_points(*ds, make_quantizer(*ds, wp), 1, out.clustering);
    EXPECT_EQ(count_clusters(l), 2u);
    for (std::size_t i = 2; i < l.size(); ++i) EXPECT_EQ(l[i], l[i % 2]);
  }
  // Per-dimension grid sizes.
  ps.set("g", RealVector{20, 10, 8});
  EXPECT_EQ(WcParams::from(ps, 3).g, (std::vector<std::size_t>{20, 10, 8}));
  ps.set("g", 12.5);
  EXPECT_THROW(WcParams::from(ps, 2), InputError);
}

struct PaperSet {
  const char* file;
  double g, p;
  std::size_t clusters;
};

// SPEC.md: DS2 g=40 p=10% -> |L| = 159, |Z| = 241, k = 144, 3 clusters; DS3 5 clusters (g=50, p=15%
// and g=36, p=23%); DS1 (g=48, p=60%) 14 clusters.
TEST(WaveCluster, Ds2TrueKAndZ) {
  DPCLUST_REQUIRE_DATA("wavecluster/spiral-30k.arff");
  Dataset ds = dpclust::testing::read_numeric_arff(dpclust::testing::data_root() / "wavecluster/spiral-30k.arff", 2);
  ASSERT_EQ(ds.n, 31200u);
  WaveClusterOutput out = run_wavecluster(ds, WcParams::from(dpclust::testing::wc_params(40, 0.10), 2));
  EXPECT_EQ(out.l, 159u);
  EXPECT_EQ(out.z, 241u);
  EXPECT_EQ(out.k, 144u);
  EXPECT_EQ(out.k_prime, 144u);
  EXPECT_EQ(out.clustering.n_clusters, 3u);
  ParamSet face = dpclust::testing::wc_params(40, 0.10);
  face.set("connectivity", std::string("face"));
  EXPECT_EQ(run_wavecluster(ds, WcParams::from(face, 2)).clustering.n_clusters, 17u);
}

TEST(WaveCluster, PaperClusterCounts) {
  const PaperSet sets[] = {{"wavecluster/15-clusters-30k.arff", 48, 0.60, 14},
                           {"wavecluster/spiral-30k.arff", 40, 0.10, 3},
                           {"wavecluster/aggregation-30k.arff", 50, 0.15, 5},
                           {"wavecluster/aggregation-30k.arff", 36, 0.23, 5}};
  for (const auto& s : sets) {
    DPCLUST_REQUIRE_DATA(s.file);
    Dataset ds = dpclust::testing::read_numeric_arff(dpclust::testing::data_root() / s.file, 2);
    WaveClusterOutput out = run_wavecluster(ds, WcParams::from(dpclust::testing::wc_params(s.g, s.p), 2));
    EXPECT_EQ(out.clustering.n_clusters, s.clusters)
        << s.file << " g=" << s.g << " p=" << s.p << " " << out.evaluation().dump();
    for (const char* ties : {"exclude", "index"}) {  // the paper's cluster counts hold under every tie rule
      ParamSet ps = dpclust::testing::wc_params(s.g, s.p);
      ps.set("ties", std::string(ties));
      EXPECT_EQ(run_wavecluster(ds, WcParams::from(ps, 2)).clustering.n_clusters, s.clusters)
          << s.file << " ties=" << ties;
    }
  }
  // DS3 (g=50, p=15%): k = 290, but 50 more cells tie with the 290th value (20.0).
  DPCLUST_REQUIRE_DATA("wavecluster/aggregation-30k.arff");
  Dataset ds3 =
      dpclust::testing::read_numeric_arff(dpclust::testing::data_root() / "wavecluster/aggregation-30k.arff", 2);
  ParamSet ps = dpclust::testing::wc_params(50, 0.15);
  EXPECT_EQ(run_wavecluster(ds3, WcParams::from(ps, 2)).clustering.n_significant, 340u);
  ps.set("ties", std::string("exclude"));
  EXPECT_EQ(run_wavecluster(ds3, WcParams::from(ps, 2)).clustering.n_significant, 265u);
  ps.set("ties", std::string("index"));
  EXPECT_EQ(run_wavecluster(ds3, WcParams::from(ps, 2)).clustering.n_significant, 290u);
}

}  // namespace
}  // namespace dpclust::wavecluster
