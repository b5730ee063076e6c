// The Daubechies db2 (4-tap) wavelet (wavelet.hpp): its coefficients against Daubechies (1988), Table 1
// (N = 2), the orthonormality conditions, perfect reconstruction with periodic extension, hand-computed
// low-pass outputs on tiny grids, its sensitivity, the choice names, and PrivTHR / PrivTHR_EM with db2
// recording the filter-derived sensitivities in the ledger.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/ledger.hpp"
#include "core/rng.hpp"
#include "wavecluster/mechanism.hpp"
#include "wavecluster/privthr.hpp"
#include "wavecluster/privthr_em.hpp"
#include "wavecluster/wavecluster.hpp"
#include "wavecluster/wavelet.hpp"
#include "wavecluster/wc_test_util.hpp"

namespace dpclust::wavecluster {
namespace {

using dpclust::testing::blobs_dataset;
using dpclust::testing::make_dataset;
using dpclust::testing::wc_params;

// Daubechies (1988), Comm. Pure Appl. Math. 41, Table 1, N = 2 (12 decimals as printed there).
const std::vector<double> kPublishedDb2 = {0.482962913145, 0.836516303738, 0.224143868042, -0.129409522551};

TEST(WaveletDb2, CoefficientsMatchDaubechies1988) {
  const LowpassFilter f = lowpass_filter(Wavelet::db2);
  ASSERT_EQ(f.taps.size(), 4u);
  EXPECT_EQ(f.offset, 0);
  for (std::size_t t = 0; t < 4; ++t) EXPECT_NEAR(f.taps[t], kPublishedDb2[t], 5e-13) << "tap " << t;
  // Orthonormality (the conditions behind perfect reconstruction): sum h = sqrt 2, sum h^2 = 1,
  // sum h_t h_{t+2} = 0; two vanishing moments: sum (-1)^t h_t = 0 and sum (-1)^t t h_t = 0.
  double sum = 0, sq = 0, shift2 = 0, m0 = 0, m1 = 0;
  for (std::size_t t = 0; t < 4; ++t) {
    const double s = t % 2 ? -1.0 : 1.0;
    sum += f.taps[t];
    sq += f.taps[t] * f.taps[t];
    if (t + 2 < 4) shift2 += f.taps[t] * f.taps[t + 2];
    m0 += s * f.taps[t];
    m1 += s * static_cast<double>(t) * f.taps[t];
  }
  EXPECT_NEAR(sum, std::sqrt(2.0), 1e-15);
  EXPECT_NEAR(sq, 1.0, 1e-15);
  EXPECT_NEAR(shift2, 0.0, 1e-15);
  EXPECT_NEAR(m0, 0.0, 1e-15);
  EXPECT_NEAR(m1, 0.0, 1e-15);
}

// One periodic analysis level (our low-pass + the quadrature-mirror high-pass g_t = (-1)^t h_{3-t}),
// then synthesis x_n = sum_i h_{n-2i} a_i + g_{n-2i} d_i (indices mod n): the input comes back.
TEST(WaveletDb2, PerfectReconstructionWithPeriodicExtension) {
  const LowpassFilter h = lowpass_filter(Wavelet::db2);
  LowpassFilter g{{}, 0};
  for (std::size_t t = 0; t < 4; ++t) g.taps.push_back((t % 2 ? -1.0 : 1.0) * h.taps[3 - t]);
  for (const std::vector<double>& x :
       {std::vector<double>{3, 0, 0, 7, 1, 1, 4, 2}, std::vector<double>{5, 9, 2, 0, 0, 0, 0, 6, 8, 1},
        std::vector<double>{1, 2, 3, 4}}) {
    const std::size_t n = x.size(), m = n / 2;
    std::vector<double> a(m), d(m);
    lowpass_1d(x.data(), n, 1, a.data(), 1, h, Boundary::periodic);
    lowpass_1d(x.data(), n, 1, d.data(), 1, g, Boundary::periodic);
    // Energy is preserved (orthonormal transform).
    double ex = 0, ead = 0;
    for (double v : x) ex += v * v;
    for (std::size_t i = 0; i < m; ++i) ead += a[i] * a[i] + d[i] * d[i];
    EXPECT_NEAR(ead, ex, 1e-10);
    for (std::size_t k = 0; k < n; ++k) {
      double y = 0;
      for (std::size_t i = 0; i < m; ++i) {
        const std::size_t t = (k + n - (2 * i) % n) % n;  // n - 2i mod n
        if (t < 4) y += h.taps[t] * a[i] + g.taps[t] * d[i];
      }
      EXPECT_NEAR(y, x[k], 1e-12) << "n = " << n << ", sample " << k;
    }
  }
}

TEST(WaveletDb2, LowPassOfARampHandComputed) {
  // x_n = n: interior a_i = sum_t h_t (2i + t) = sqrt2 * 2i + sum_t t h_t = sqrt2 (2i + (3 - sqrt3) / 2).
  // The last value reads x_6, x_7 and two zeros (zero boundary): h0 * 6 + h1 * 7.
  const std::vector<double> x = {0, 1, 2, 3, 4, 5, 6, 7};
  const std::vector<double> a = approximation(x, GridShape{{8}}, WaveletSpec{Wavelet::db2, 1, Boundary::zero});
  ASSERT_EQ(a.size(), 4u);
  const double s2 = std::sqrt(2.0), c = (3.0 - std::sqrt(3.0)) / 2.0;
  for (std::size_t i = 0; i < 3; ++i) EXPECT_NEAR(a[i], s2 * (2.0 * static_cast<double>(i) + c), 1e-12) << i;
  EXPECT_NEAR(a[3], kPublishedDb2[0] * 6 + kPublishedDb2[1] * 7, 1e-11);
  // Symmetric extension: x_8 = 7, x_9 = 6.
  const std::vector<double> b = approximation(x, GridShape{{8}}, WaveletSpec{Wavelet::db2, 1, Boundary::symmetric});
  EXPECT_NEAR(b[3], kPublishedDb2[0] * 6 + kPublishedDb2[1] * 7 + kPublishedDb2[2] * 7 + kPublishedDb2[3] * 6, 1e-11);
  // Periodic extension: x_8 = 0, x_9 = 1.
  const std::vector<double> p = approximation(x, GridShape{{8}}, WaveletSpec{Wavelet::db2, 1, Boundary::periodic});
  EXPECT_NEAR(p[3], kPublishedDb2[0] * 6 + kPublishedDb2[1] * 7 + kPublishedDb2[3] * 1, 1e-11);
  // A constant signal c keeps c sqrt2 under periodic extension (sum h = sqrt2).
  const std::vector<double> k =
      approximation(std::vector<double>(6, 5.0), GridShape{{6}}, WaveletSpec{Wavelet::db2, 1, Boundary::periodic});
  for (double v : k) EXPECT_NEAR(v, 5.0 * s2, 1e-12);
}

TEST(WaveletDb2, SingleCountOnA4x4GridHandComputed) {
  // One count at (row 1, column 2) of a 4x4 grid: W[i][j] = h_{1-2i} h_{2-2j} (zero boundary), so
  // W = [[h1 h2, h1 h0], [0, 0]].
  std::vector<double> m(16, 0.0);
  m[1 * 4 + 2] = 1.0;
  const std::vector<double> w = approximation(m, GridShape{{4, 4}}, WaveletSpec{Wavelet::db2, 1, Boundary::zero});
  ASSERT_EQ(w.size(), 4u);
  const auto& h = kPublishedDb2;
  EXPECT_NEAR(w[0], h[1] * h[2], 1e-12);
  EXPECT_NEAR(w[1], h[1] * h[0], 1e-12);
  EXPECT_EQ(w[2], 0.0);
  EXPECT_EQ(w[3], 0.0);
  // Level 2 of the 4x4 grid: one value, the level-1 filter applied again to the 2-cell rows/columns.
  const std::vector<double> w2 = approximation(m, GridShape{{4, 4}}, WaveletSpec{Wavelet::db2, 2, Boundary::zero});
  ASSERT_EQ(w2.size(), 1u);
  EXPECT_NEAR(w2[0], h[0] * (h[0] * w[0] + h[1] * w[1]), 1e-12);
}

TEST(WaveletDb2, SensitivityFromTheFilter) {
  // A unit at an even cell reaches (h0, h2) > 0, at an odd cell (h1 > 0, h3 < 0): per axis (P, N) is
  // (2, 0) or (1, 1). 1-D: max(P, N) = 2, P + N = 2; 2-D: the (2,0) x (2,0) column has P = 4.
  const Sensitivity s1 = sensitivity(GridShape{{40}}, WaveletSpec{Wavelet::db2, 1, Boundary::zero});
  EXPECT_EQ(s1.nonpositive_count, 2.0);
  EXPECT_EQ(s1.rank_quality, 2.0);
  const Sensitivity s2 = sensitivity(GridShape{{40, 40}}, WaveletSpec{Wavelet::db2, 1, Boundary::zero});
  EXPECT_EQ(s2.nonpositive_count, 4.0);
  EXPECT_EQ(s2.rank_quality, 4.0);
  const Sensitivity s3 = sensitivity(GridShape{{12, 12, 12}}, WaveletSpec{Wavelet::db2, 1, Boundary::zero});
  EXPECT_EQ(s3.nonpositive_count, 8.0);
  EXPECT_EQ(s3.rank_quality, 8.0);
}

TEST(WaveletDb2, ChoiceNames) {
  EXPECT_EQ(parse_wavelet("db2"), Wavelet::db2);
  EXPECT_EQ(parse_wavelet("bior2.2"), Wavelet::bior2_2);
  EXPECT_STREQ(to_string(Wavelet::db2), "db2");
  EXPECT_STREQ(to_string(Wavelet::haar), "haar");
  EXPECT_STREQ(to_string(Boundary::periodic), "periodic");
  EXPECT_THROW(parse_wavelet("db4"), std::invalid_argument);
  EXPECT_THROW(parse_boundary("reflect"), std::invalid_argument);
  ParamSet ps = wc_params(20, 0.3);
  ps.set("wavelet", std::string("db2"));
  EXPECT_EQ(WcParams::from(ps, 2).wavelet.wavelet, Wavelet::db2);
}

// Non-private WaveCluster with db2 separates three well-apart blobs, as Haar does.
TEST(WaveletDb2, WaveClusterFindsTheBlobs) {
  const Dataset ds = blobs_dataset(31, 1500);
  for (const char* wavelet : {"haar", "db2"}) {
    ParamSet ps = wc_params(32, 0.5);
    ps.set("wavelet", std::string(wavelet));
    const WaveClusterOutput out = run_wavecluster(ds, WcParams::from(ps, 2));
    EXPECT_EQ(out.clustering.n_clusters, 3u) << wavelet;
  }
}

// PrivTHR's |Z| and PrivTHR_EM's quality record db2's sensitivities (4 in 2D), not Haar's 1.
TEST(WaveletDb2, PrivateMethodsRecordTheFilterSensitivity) {
  const Dataset ds = blobs_dataset(32, 500);
  ParamSet ps = wc_params(24, 0.4);
  ps.set("wavelet", std::string("db2"));
  const WcParams wp = WcParams::from(ps, 2);
  {
    BudgetLedger l(1.0);
    Rng rng(5);
    PrivThrOptions o;
    o.epsilon = 1.0;
    privthr(ds, wp, o, rng, l);
    EXPECT_NO_THROW(l.verify());
    bool found = false;
    for (const auto& e : l.entries())
      if (e.note.find("db2") != std::string::npos) {
        EXPECT_EQ(e.sensitivity, 4.0) << e.step;
        found = true;
      }
    EXPECT_TRUE(found);
  }
  {
    BudgetLedger l(1.0);
    Rng rng(5);
    PrivThrEmOptions o;
    o.epsilon = 1.0;
    privthr_em(ds, wp, o, rng, l);
    EXPECT_NO_THROW(l.verify());
    double max_sens = 0;
    for (const auto& e : l.entries()) max_sens = std::max(max_sens, e.sensitivity);
    EXPECT_EQ(max_sens, 4.0);  // the quality's; the counts' entry has sensitivity 1
  }
}

}  // namespace
}  // namespace dpclust::wavecluster
