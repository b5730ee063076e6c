// Each paper algorithm through its own header (privqt.hpp, privthr.hpp = Algorithm 1, privthr_em.hpp =
// Algorithm 2, baseline.hpp), line by line where a line can be observed, and the zero-noise runs: with
// the ledger's noise_scale 0, PrivQT and PrivTHR are WaveCluster on the same grid (the paper: at
// infinite eps they reduce to WaveCluster).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/ledger.hpp"
#include "privacy/mechanism.hpp"
#include "wavecluster/baseline.hpp"
#include "wavecluster/mechanism.hpp"
#include "wavecluster/privqt.hpp"
#include "wavecluster/privthr.hpp"
#include "wavecluster/privthr_em.hpp"
#include "wavecluster/wc_test_util.hpp"

namespace dpclust::wavecluster {
namespace {

using dpclust::testing::blobs_dataset;
using dpclust::testing::wc_params;

BudgetLedger noiseless(double eps) {
  BudgetLedger l(eps);
  l.set_noise_scale(0);
  return l;
}

Labels labels_of(const Dataset& ds, const WcParams& wp, const WaveClusterOutput& out) {
  return label_points(ds, make_quantizer(ds, wp), wp.wavelet.level, out.clustering);
}

// --- zero noise (defect 5) ------------------------------------------------------------------------

TEST(ZeroNoise, PrivQtAndPrivThrEqualWaveCluster) {
  const Dataset ds = blobs_dataset(21, 400);  // 1,260 points
  for (double p : {0.1, 0.4, 0.6})
    for (const char* ties : {"include", "exclude", "index"})
      for (auto sampler : {privacy::Sampler::secure, privacy::Sampler::textbook}) {
        ParamSet ps = wc_params(24, p);
        ps.set("ties", std::string(ties));
        const WcParams wp = WcParams::from(ps, 2);
        const WaveClusterOutput truth = run_wavecluster(ds, wp);
        const Labels expected = labels_of(ds, wp, truth);
        ASSERT_GT(truth.clustering.n_clusters, 0u);
        ASSERT_GT(truth.z, 0u);  // zeros to (not) remove: PrivTHR's line 6 is exercised
        const std::string what =
            std::string("p ") + std::to_string(p) + " ties " + ties + " " + privacy::to_string(sampler);

        BudgetLedger a = noiseless(1.0);
        Rng ra(1);
        const WaveClusterOutput q = privqt(ds, wp, 1.0, sampler, ra, a);
        EXPECT_NO_THROW(a.verify());
        EXPECT_EQ(labels_of(ds, wp, q), expected) << "PrivQT " << what;
        EXPECT_EQ(q.clustering.cell_cluster, truth.clustering.cell_cluster) << "PrivQT " << what;
        EXPECT_EQ(q.k_prime, truth.k) << "PrivQT " << what;

        BudgetLedger b = noiseless(1.0);
        Rng rb(1);
        PrivThrOptions o;
        o.epsilon = 1.0;
        o.sampler = sampler;
        const WaveClusterOutput t = privthr(ds, wp, o, rb, b);
        EXPECT_NO_THROW(b.verify());
        EXPECT_EQ(labels_of(ds, wp, t), expected) << "PrivTHR " << what;
        EXPECT_EQ(t.clustering.cell_cluster, truth.clustering.cell_cluster) << "PrivTHR " << what;
        EXPECT_EQ(t.k_prime, truth.k) << "PrivTHR " << what;
        EXPECT_EQ(t.public_extra["Z_noisy"].get<double>(), static_cast<double>(truth.z))
            << what;                                                          // line 5 without noise
        EXPECT_EQ(t.public_extra["removed"].get<std::size_t>(), 0u) << what;  // line 6: no zero turned positive
      }
}

// The same through the Method interface (the labels the runner evaluates).
TEST(ZeroNoise, MethodLabelsEqualWaveClusterLabels) {
  const Dataset ds = blobs_dataset(22, 300);
  ParamSet base = wc_params(20, 0.3);
  BudgetLedger none;
  Rng r0(1);
  const Labels expected = make_mechanism("wavecluster")->run(ds, base, r0, none).labels;
  for (const char* m : {"privqt", "privthr"}) {
    ParamSet ps = base;
    ps.set("epsilon", 0.5);
    ps.set("rho", 0.9);
    BudgetLedger l = noiseless(0.5);
    Rng rng(7);
    EXPECT_EQ(make_mechanism(m)->run(ds, ps, rng, l).labels, expected) << m;
  }
}

// PrivTHR_EM's exponential mechanism, run noiselessly, picks the partition of rank k: the same cells as
// WaveCluster whenever the k-th value is not tied with the (k+1)-th.
TEST(ZeroNoise, PrivThrEmEqualsWaveClusterWhenTheKthValueIsUntied) {
  const Dataset ds = blobs_dataset(23, 400);
  int compared = 0;
  for (double p = 0.05; p < 0.95; p += 0.05) {
    const WcParams wp = WcParams::from(wc_params(24, p), 2);
    const WaveClusterOutput truth = run_wavecluster(ds, wp);
    const std::vector<double> l = positive_sorted(truth.transformed);
    if (truth.k == 0 || truth.k >= l.size() || l[l.size() - truth.k] == l[l.size() - truth.k - 1]) continue;
    BudgetLedger led = noiseless(1.0);
    Rng rng(3);
    PrivThrEmOptions o;
    o.epsilon = 1.0;
    const WaveClusterOutput e = privthr_em(ds, wp, o, rng, led);
    EXPECT_NO_THROW(led.verify());
    EXPECT_EQ(e.k_prime, truth.k) << "p " << p;
    EXPECT_EQ(e.clustering.cell_cluster, truth.clustering.cell_cluster) << "p " << p;
    ++compared;
  }
  EXPECT_GE(compared, 3);
}

// --- the algorithms line by line (defect 3) -------------------------------------------------------

TEST(PrivQt, Line2NoisesEveryCellOnceAndNothingElse) {
  const std::vector<double> m = {0, 3, 0, 0, 7, 1};
  BudgetLedger l(0.5);
  Rng rng(1);
  const PrivQuantization q = private_quantization(m, 0.5, privacy::Sampler::secure, rng, l, "step");
  ASSERT_EQ(l.entries().size(), 1u);
  EXPECT_EQ(l.entries()[0].mechanism, "discrete_laplace");
  EXPECT_EQ(l.entries()[0].sensitivity, 1.0);
  EXPECT_EQ(q.mechanism.scale(), 2.0);
  ASSERT_EQ(q.noisy.size(), m.size());
  for (double x : q.noisy) EXPECT_EQ(x, std::round(x));  // integer counts
  BudgetLedger z = noiseless(0.5);
  EXPECT_EQ(private_quantization(m, 0.5, privacy::Sampler::secure, rng, z, "step").noisy, m);
  // Replace-one neighbours change two cells: the sensitivity doubles.
  BudgetLedger r(0.5, 0.0, NeighbourRelation::replace_one);
  EXPECT_EQ(private_quantization(m, 0.5, privacy::Sampler::secure, rng, r, "step").mechanism.sensitivity(), 2.0);
}

TEST(PrivThr, NoisyZeroCountsNonPositiveValues) {
  const std::vector<double> w = {0, 2.5, -1, 0, 4, 0.5};
  BudgetLedger l = noiseless(0.2);
  Rng rng(1);
  EXPECT_EQ(noisy_zero(w, 1.0, 0.2, privacy::Sampler::secure, rng, l, ""), 3.0);  // lines 14-15
  ASSERT_EQ(l.entries().size(), 1u);
  EXPECT_EQ(l.entries()[0].epsilon, 0.2);
}

// Line 6's r: exactly 1/2 for the paper's continuous noise, 0 without noise, and for the discrete
// Laplace (1 - Pr[S = 0]) / 2 with S the noise behind one value of W', checked against a direct
// convolution of the pmfs (Haar: four noises; bior2.2: 25 integer weights [-1, 2, 6, 2, -1]^2).
TEST(PrivThr, ZeroTurnsPositiveAgainstDirectConvolution) {
  const WaveletSpec haar{Wavelet::haar, 1, Boundary::zero}, bior{Wavelet::bior2_2, 1, Boundary::zero};
  auto mech = [](privacy::Sampler s, double eps, double scale) {
    BudgetLedger l(eps);
    l.set_noise_scale(scale);
    return privacy::CountMechanism::laplace(l, s, 1.0, eps, "probe");
  };
  EXPECT_EQ(zero_turns_positive(mech(privacy::Sampler::textbook, 1.0, 1.0), 1.0, haar, 2), 0.5);
  EXPECT_EQ(zero_turns_positive(mech(privacy::Sampler::textbook, 1.0, 0.0), 0.0, haar, 2), 0.0);
  EXPECT_EQ(zero_turns_positive(mech(privacy::Sampler::secure, 1.0, 0.0), 0.0, haar, 2), 0.0);
  for (double eps : {0.3, 1.0, 3.0}) {
    const double a = std::exp(-eps);
    const int cut = static_cast<int>(40 / eps) + 2;  // Pr[|X| > cut] < e^-40
    std::vector<double> dl(2 * static_cast<std::size_t>(cut) + 1);
    for (int x = -cut; x <= cut; ++x)
      dl[static_cast<std::size_t>(x + cut)] = (1 - a) / (1 + a) * std::pow(a, std::abs(x));
    auto convolve_zero = [&](const std::vector<int>& weights) {
      // pmf of sum w X on the integers, by successive convolution.
      int span = 0;
      for (int w : weights) span += std::abs(w) * cut;
      std::vector<double> pmf(2 * span + 1, 0.0);
      pmf[span] = 1.0;
      for (int w : weights) {
        std::vector<double> next(pmf.size(), 0.0);
        for (std::size_t i = 0; i < pmf.size(); ++i) {
          if (pmf[i] == 0) continue;
          for (int x = -cut; x <= cut; ++x) {
            const long j = static_cast<long>(i) + static_cast<long>(w) * x;
            if (j < 0 || j >= static_cast<long>(pmf.size())) continue;
            next[static_cast<std::size_t>(j)] += pmf[i] * dl[static_cast<std::size_t>(x + cut)];
          }
        }
        pmf = std::move(next);
      }
      return pmf[span];
    };
    const double haar_expected = (1 - convolve_zero({1, 1, 1, 1})) / 2;
    EXPECT_NEAR(zero_turns_positive(mech(privacy::Sampler::secure, eps, 1.0), 1.0, haar, 2), haar_expected, 1e-9)
        << eps;
    EXPECT_LT(haar_expected, 0.5);
    if (eps < 1) continue;  // the bior2.2 convolution is long at small eps
    std::vector<int> w25;
    for (int x : {-1, 2, 6, 2, -1})
      for (int y : {-1, 2, 6, 2, -1}) w25.push_back(x * y);
    const double bior_expected = (1 - convolve_zero(w25)) / 2;
    EXPECT_NEAR(zero_turns_positive(mech(privacy::Sampler::secure, eps, 1.0), 1.0, bior, 2), bior_expected, 1e-9)
        << eps;
  }
}

TEST(PrivThrEm, NoisyThresholdByEmRecordsTheExponentialMechanism) {
  const std::vector<double> w = {0, 1, 2, 4, 0, 3};
  BudgetLedger l(0.3);
  Rng rng(2);
  std::size_t k = 0;
  const EmThreshold t = noisy_threshold_by_em(w, 0.5, 0.3, 1.0, EmSettings{}, rng, l, k);
  EXPECT_EQ(k, 2u);  // line 11: ceil(0.5 * 4)
  ASSERT_EQ(l.entries().size(), 1u);
  EXPECT_EQ(l.entries()[0].mechanism, "exponential_exact");
  EXPECT_EQ(l.entries()[0].sensitivity_norm, "utility");
  EXPECT_GT(t.threshold, 0.0);
  EXPECT_LE(t.threshold, 4.0);
  BudgetLedger z = noiseless(0.3);
  const EmThreshold n = noisy_threshold_by_em(w, 0.5, 0.3, 1.0, EmSettings{}, rng, z, k);
  EXPECT_EQ(n.rank, 2u);  // noiseless: the partition (W_3, W_2] = (2, 3]
  EXPECT_GT(n.threshold, 2.0);
  EXPECT_LE(n.threshold, 3.0);
}

TEST(PrivThrEm, NoPositiveValueStillGivesALatticeThreshold) {
  // With no positive W the threshold was 0, off the lattice (and nothing was selected,
  // a decision on the true W even with a public range). Now the exponential mechanism runs on its one
  // block of rank 0: d' is uniform on the lattice of (0, em_upper], or of (0, 1] in the paper's reading.
  const std::vector<double> w = {0, -1, 0, -0.5};
  for (double upper : {40.0, 0.0}) {
    SCOPED_TRACE(upper);
    EmSettings s;
    s.em_upper = upper;
    const ThresholdLattice lattice = threshold_lattice(upper > 0 ? upper : 1.0, s.lattice_bits);
    Rng rng(3);
    std::vector<double> seen;
    for (int i = 0; i < 200; ++i) {
      BudgetLedger l(0.3);
      std::size_t k = 7;
      const EmThreshold t = noisy_threshold_by_em(w, 0.5, 0.3, 1.0, s, rng, l, k);
      ASSERT_EQ(l.entries().size(), 1u);  // the budget is recorded as before
      EXPECT_EQ(k, 0u);
      EXPECT_EQ(t.rank, 0u);
      EXPECT_EQ(t.grid, lattice.spacing());
      ASSERT_GT(t.threshold, 0.0);
      ASSERT_LE(t.threshold, lattice.upper);
      ASSERT_EQ(std::fmod(t.threshold, lattice.spacing()), 0.0) << "a lattice point";
      seen.push_back(t.threshold);
    }
    // Uniform on 2^20-odd points: 200 draws, all different with overwhelming probability, mean near U/2.
    std::sort(seen.begin(), seen.end());
    EXPECT_EQ(std::unique(seen.begin(), seen.end()), seen.end());
    double mean = 0;
    for (double x : seen) mean += x / 200;
    EXPECT_NEAR(mean, lattice.upper / 2, 0.15 * lattice.upper);  // sd of the mean: U / sqrt(12 * 200) = 0.02 U
  }
}

TEST(Baseline, SpendsItsBudgetInTheSynopsisAndPublishesItsSizes) {
  const Dataset ds = blobs_dataset(24, 500);
  const WcParams wp = WcParams::from(wc_params(24, 0.3), 2);
  BaselineOptions o;
  o.epsilon = 1.0;
  BudgetLedger l(1.0);
  Rng rng(5);
  const WaveClusterOutput out = baseline(ds, wp, o, rng, l);
  EXPECT_NO_THROW(l.verify());
  ASSERT_EQ(l.entries().size(), 3u);  // noisy N, AG level 1, AG level 2
  for (const auto& e : l.entries()) EXPECT_EQ(e.mechanism, "discrete_laplace") << e.step;
  ASSERT_TRUE(out.release_extra.contains("synopsis"));
  EXPECT_FALSE(out.release_extra["synopsis"]["true_n_used"].get<bool>());
  EXPECT_EQ(out.public_extra["synthetic_points"], out.release_extra["synopsis"]["synthetic_points"]);
  EXPECT_EQ(out.k, run_wavecluster(ds, wp).k);  // evaluation: the true k of the same grid
}

}  // namespace
}  // namespace dpclust::wavecluster
