// The private mechanisms: budget ledgers, determinism, PrivQT's k' excess, PrivTHR / PrivTHR_EM k'
// near k, Baseline's synopsis, and the exponential mechanism against its exact distribution.
#include "wavecluster/mechanism.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "core/ledger.hpp"
#include "test_support.hpp"
#include "wavecluster/exp_mech.hpp"
#include "wavecluster/privqt.hpp"
#include "wavecluster/privthr.hpp"
#include "wavecluster/synopsis.hpp"
#include "wavecluster/uniform_points.hpp"
#include "wavecluster/wc_test_util.hpp"

namespace dpclust::wavecluster {
namespace {

using dpclust::testing::blobs_dataset;
using dpclust::testing::wc_params;

ParamSet private_params(const std::string& method, double g, double p, double eps) {
  ParamSet ps = wc_params(g, p);
  ps.set("epsilon", eps);
  if (method == "privthr") ps.set("rho", 0.9);
  if (method == "privthr_em") {
    ps.set("rho", 0.7);
    ps.set("em_upper", 0.0);
  }
  if (method == "wc_baseline") {
    ps.set("synopsis", std::string("adaptive"));
    ps.set("ag_c", 10.0);
    ps.set("ag_alpha", 0.5);
    ps.set("n_share", 0.05);
  }
  return ps;
}

MethodResult run(const std::string& method, const Dataset& ds, const ParamSet& ps, std::uint64_t seed,
                 BudgetLedger& ledger) {
  Rng rng(seed);
  return make_mechanism(method)->run(ds, ps, rng, ledger);
}

TEST(Mechanisms, LedgerSumsToEpsilonAndRunsAreDeterministic) {
  const Dataset ds = blobs_dataset(1);
  for (const char* m : {"privqt", "privthr", "privthr_em", "wc_baseline"}) {
    for (double eps : {0.1, 0.7, 2.0}) {
      ParamSet ps = private_params(m, 40, 0.1, eps);
      BudgetLedger a(eps), b(eps);
      MethodResult ra = run(m, ds, ps, 99, a), rb = run(m, ds, ps, 99, b);
      EXPECT_NO_THROW(a.verify()) << m;
      EXPECT_GE(a.entries().size(), m == std::string("privqt") ? 1u : 2u) << m;
      EXPECT_EQ(ra.labels, rb.labels) << m;
      EXPECT_EQ(ra.release, rb.release) << m;
      EXPECT_EQ(ra.labels.size(), ds.n);
      EXPECT_FALSE(ra.labels_are_release);
      EXPECT_TRUE(ra.release.contains("significant_cells"));
      EXPECT_EQ(ra.release["significant_cells"].size(), ra.diagnostics["significant_grids"].get<std::size_t>());
    }
  }
  // Baseline publishes its synopsis sizes, not the points.
  BudgetLedger l(1.0);
  MethodResult r = run("wc_baseline", ds, private_params("wc_baseline", 40, 0.1, 1.0), 3, l);
  ASSERT_TRUE(r.release.contains("synopsis"));
  EXPECT_EQ(r.release["synopsis"]["m1"].get<int>(), 10);  // max(10, ceil(sqrt(9060 * 0.95 / 10) / 4)) = max(10, 8)
  EXPECT_EQ(l.entries().size(), 3u);                      // noisy N, level 1, level 2
}

TEST(Mechanisms, NonPrivateWaveClusterSpendsNothing) {
  const Dataset ds = blobs_dataset(2);
  BudgetLedger ledger;
  MethodResult r = run("wavecluster", ds, wc_params(40, 0.6), 1, ledger);
  EXPECT_NO_THROW(ledger.verify());
  EXPECT_EQ(r.diagnostics["clusters"].get<int>(), 3);
  EXPECT_EQ(r.evaluation["k"], r.evaluation["k_prime"]);  // not private: every number is of the true data
}

// Sec. 5.2.1: about half of the |Z| zero values become positive, so E[k' - k] ~ (1-p)|Z|/2 (minus the
// few true positives that turn non-positive, small for a large budget). The paper's argument is about
// its continuous Laplace noise: sampler textbook.
TEST(Mechanisms, PrivQtExcessOverKIsHalfOfZ) {
  const Dataset ds = blobs_dataset(3);
  const double p = 0.1;
  ParamSet ps = private_params("privqt", 40, p, 4.0);
  ps.set("sampler", std::string("textbook"));
  double sum = 0, k = 0;
  const int runs = 200;
  for (int s = 0; s < runs; ++s) {
    BudgetLedger l(4.0);
    MethodResult r = run("privqt", ds, ps, 1000 + static_cast<std::uint64_t>(s), l);
    k = r.evaluation["k"].get<double>();
    sum += r.diagnostics["k_prime"].get<double>() - k;
  }
  BudgetLedger none;
  const double z_true = run("wavecluster", ds, wc_params(40, p), 1, none).evaluation["Z"].get<double>();
  const double expected = (1 - p) * z_true / 2;
  const double se = (1 - p) * std::sqrt(z_true / 4) / std::sqrt(static_cast<double>(runs));
  EXPECT_GT(z_true, 150);
  EXPECT_NEAR(sum / runs, expected, 4 * se + 1.0) << "k = " << k << ", |Z| = " << z_true;
}

// The same count under the secure sampler: a discrete Laplace count can be exactly 0, so only a share r
// = zero_turns_positive < 1/2 of the zero values of W turn positive (privthr.hpp). Measured directly:
// the share of cells with W = 0 and W' > 0, for the calibrated noise and for half of it.
TEST(Mechanisms, ShareOfZerosTurningPositiveMatchesTheSampler) {
  const Dataset ds = blobs_dataset(3);
  const WcParams wp = WcParams::from(wc_params(40, 0.1), 2);
  const std::vector<double> w = run_wavecluster(ds, wp).transformed;
  for (double eps : {1.0, 4.0})
    for (double scale : {1.0, 0.5}) {
      double zeros = 0, turned = 0, r = 0;
      for (int s = 0; s < 100; ++s) {
        BudgetLedger l(eps);
        l.set_noise_scale(scale);
        Rng rng(500 + static_cast<std::uint64_t>(s));
        const WaveClusterOutput out = privqt(ds, wp, eps, privacy::Sampler::secure, rng, l);
        BudgetLedger probe(eps);
        probe.set_noise_scale(scale);
        r = zero_turns_positive(privacy::CountMechanism::laplace(probe, privacy::Sampler::secure, 1.0, eps, "probe"),
                                scale, wp.wavelet, 2);
        for (std::size_t i = 0; i < w.size(); ++i)
          if (w[i] == 0) {
            zeros += 1;
            turned += out.transformed[i] > 0;
          }
      }
      EXPECT_LT(r, 0.5);
      const double se = std::sqrt(r * (1 - r) / zeros);
      EXPECT_NEAR(turned / zeros, r, 4 * se + 1e-3)
          << "eps " << eps << ", noise scale " << scale << ", zeros " << zeros;
    }
}

// p = 0.6 puts the threshold inside the blobs, where few cells tie with the k-th value (with ties the
// exponential mechanism can only land on a boundary between distinct values, so k' jumps over them).
TEST(Mechanisms, PrivThrAndEmKPrimeNearKForLargeBudgets) {
  const Dataset ds = blobs_dataset(4);
  for (const char* m : {"privthr", "privthr_em"}) {
    const ParamSet ps = private_params(m, 40, 0.6, 20.0);
    double sum = 0, k = 0;
    const int runs = 40;
    for (int s = 0; s < runs; ++s) {
      BudgetLedger l(20.0);
      MethodResult r = run(m, ds, ps, 50 + static_cast<std::uint64_t>(s), l);
      k = r.evaluation["k"].get<double>();
      // PrivTHR's k' counts noisy values (a diagnostic); PrivTHR_EM's is a rank among the true ones (evaluation).
      sum += (m == std::string("privthr_em") ? r.evaluation : r.diagnostics)["k_prime"].get<double>();
    }
    EXPECT_NEAR(sum / runs, k, 0.03 * k) << m;
  }
}

// PrivQT's k' overshoots k by about (1-p)|Z| r (r = 1/2 for the paper's continuous noise, ~0.41 for
// the discrete Laplace at eps 1, minus the true positives the noise turns non-positive); PrivTHR brings
// k' back within 25% of k under either sampler.
TEST(Mechanisms, PrivQtIsFarFromKWhilePrivThrIsNot) {
  const Dataset ds = blobs_dataset(5);
  for (const char* sampler : {"textbook", "secure"}) {
    BudgetLedger a(1.0), b(1.0);
    ParamSet pq = private_params("privqt", 40, 0.1, 1.0), pt = private_params("privthr", 40, 0.1, 1.0);
    pq.set("sampler", std::string(sampler));
    pt.set("sampler", std::string(sampler));
    MethodResult q = run("privqt", ds, pq, 7, a);
    MethodResult t = run("privthr", ds, pt, 7, b);
    const double k = q.evaluation["k"].get<double>();
    const double excess = q.diagnostics["k_prime"].get<double>() - k;
    EXPECT_GT(excess, (sampler == std::string("textbook") ? 0.25 : 0.15) * k) << sampler;  // textbook: ~ 0.45 * 190
    EXPECT_LT(std::fabs(t.diagnostics["k_prime"].get<double>() - k), 0.25 * k)
        << sampler << " k " << k << " privqt " << q.diagnostics.dump() << " privthr " << t.diagnostics.dump();
  }
}

TEST(Mechanisms, UniformSynopsisAndTrueN) {
  const Dataset ds = blobs_dataset(6);
  const Quantizer q({40, 40}, ds.bounds);
  SynopsisOptions opt;
  opt.type = "uniform";
  opt.n_share = 0;
  BudgetLedger l(1.0);
  Rng rng(1);
  SyntheticCounts s = synthetic_counts(ds, q, 1.0, opt, rng, l);
  EXPECT_NO_THROW(l.verify());
  EXPECT_TRUE(s.used_true_n);
  EXPECT_EQ(s.info["m"].get<int>(), 31);  // ceil(sqrt(9060 / 10))
  double total = 0;
  for (double c : s.counts) total += c;
  EXPECT_EQ(total, s.info["synthetic_points"].get<double>());
  EXPECT_NEAR(total, static_cast<double>(ds.n), 0.1 * static_cast<double>(ds.n));
}

// The one-cell shortcut of place_uniform_points (a box inside one grid cell: its count grows at once and
// the words are skipped) gives the counts and leaves the generator where drawing point by point does.
// Boxes of every kind on a 7 x 5 grid over [0, 3] x [-1, 2]: deep inside a cell, straddling cell borders,
// reaching past the domain (clamped into the edge cells), of zero width, and a negative width (a box
// given by its upper corner, so the coordinate falls with u).
TEST(Synopsis, UniformPointsShortcutEqualsPointByPoint) {
  Bounds b;
  b.lo = {0.0, -1.0};
  b.hi = {3.0, 2.0};
  const Quantizer q({7, 5}, b);
  Rng boxes(77);
  std::size_t shortcut_boxes = 0;
  for (int trial = 0; trial < 400; ++trial) {
    std::vector<double> lo(2), w(2);
    for (std::size_t j = 0; j < 2; ++j) {
      const double span = b.hi[j] - b.lo[j];
      lo[j] = b.lo[j] - 0.2 * span + 1.4 * span * boxes.uniform();
      const int kind = static_cast<int>(boxes.below(4));
      w[j] = kind == 0   ? 0.0
             : kind == 1 ? 1e-3 * span * boxes.uniform()
             : kind == 2 ? -0.05 * span * boxes.uniform()
                         : 0.5 * span * boxes.uniform();
    }
    auto coord = [&](std::size_t j, double u) { return lo[j] + u * w[j]; };
    const std::uint64_t count = boxes.below(50);
    const std::uint64_t seed = 1000 + static_cast<std::uint64_t>(trial);
    Rng fast(seed), slow(seed);
    std::vector<double> fast_counts(35, 0.0), slow_counts(35, 0.0), scratch;
    place_uniform_points(q, fast_counts, count, fast, coord);
    place_uniform_points_one_by_one(q, slow_counts, count, slow, coord, scratch);
    ASSERT_EQ(fast_counts, slow_counts) << "box " << trial;
    ASSERT_EQ(fast.next_u64(), slow.next_u64()) << "box " << trial << ": the generators part ways";
    std::size_t filled = 0;
    for (double c : fast_counts) filled += c > 0 ? 1 : 0;
    shortcut_boxes += count > 0 && filled == 1 ? 1 : 0;
  }
  EXPECT_GT(shortcut_boxes, 100u);  // both paths ran: many boxes fall into one cell, the others spread
}

// The straddling boxes' path of place_uniform_points (each point's cell from its draw's position among the
// bracketed steps of the cell along each dimension) against the definition, point by point: boxes over 1 to
// 12 cells per dimension on a 300 x 200 grid (more than 8 steps take the definition's loop), rising and
// falling coordinates, and coordinates far from affine in u (u^8: the steps' estimates miss, the brackets
// widen until draws fall inside them and are quantized one by one), with up to 3,000 points a box.
TEST(Synopsis, UniformPointsStepsEqualPointByPoint) {
  Bounds b;
  b.lo = {-5.0, 0.0};
  b.hi = {5.0, 1.0};
  const Quantizer q({300, 200}, b);
  Rng boxes(78);
  for (int trial = 0; trial < 300; ++trial) {
    std::vector<double> lo(2), w(2);
    for (std::size_t j = 0; j < 2; ++j) {
      const double span = b.hi[j] - b.lo[j], cell = span / static_cast<double>(q.shape().dims[j]);
      lo[j] = b.lo[j] - 0.1 * span + 1.2 * span * boxes.uniform();
      w[j] = cell * (0.2 + 12.0 * boxes.uniform()) * (boxes.below(4) == 0 ? -1.0 : 1.0);
    }
    const bool curved = trial % 3 == 0;
    auto coord = [&](std::size_t j, double u) {
      const double v = curved ? u * u * u * u * u * u * u * u : u;
      return lo[j] + v * w[j];
    };
    const std::uint64_t count = boxes.below(3000);
    const std::uint64_t seed = 5000 + static_cast<std::uint64_t>(trial);
    Rng fast(seed), slow(seed);
    std::vector<double> fast_counts(q.shape().size(), 0.0), slow_counts(q.shape().size(), 0.0), scratch;
    place_uniform_points(q, fast_counts, count, fast, coord);
    place_uniform_points_one_by_one(q, slow_counts, count, slow, coord, scratch);
    ASSERT_EQ(fast_counts, slow_counts) << "box " << trial;
    ASSERT_EQ(fast.next_u64(), slow.next_u64()) << "box " << trial << ": the generators part ways";
  }
}

// --- exponential mechanism -----------------------------------------------------------------------

TEST(ExponentialMechanism, ExactProbabilitiesByHand) {
  // Descending W = 4, 2, 1: partitions (2,4] rank 1, (1,2] rank 2, (0,1] rank 3; k = 2, eps2 = 2, Dq = 1:
  // weights 2 e^-1, 1, 1 e^-1.
  const std::vector<double> asc = {1, 2, 4};
  std::vector<double> p = em_probabilities(asc, 2, 2.0, 1.0);
  const double w1 = 2 * std::exp(-1.0), w2 = 1, w3 = std::exp(-1.0), t = w1 + w2 + w3;
  EXPECT_NEAR(p[0], w1 / t, 1e-15);
  EXPECT_NEAR(p[1], w2 / t, 1e-15);
  EXPECT_NEAR(p[2], w3 / t, 1e-15);
}

TEST(ExponentialMechanism, EmpiricalFrequenciesMatchChiSquare) {
  // Eight values with a tie (an empty partition that must never be chosen).
  const std::vector<double> asc = {0.5, 1, 1, 2.5, 4, 7, 7.5, 10};
  const std::size_t k = 4;
  const double eps2 = 0.8, dq = 1;
  const std::vector<double> p = em_probabilities(asc, k, eps2, dq);
  Rng rng(20150810);
  const int draws = 200000;
  std::vector<double> count(asc.size(), 0);
  for (int i = 0; i < draws; ++i) {
    const EmThreshold t = em_threshold_continuous(asc, k, eps2, dq, rng);
    count[t.rank - 1] += 1;
    // The threshold lies in its partition (W_{i+1}, W_i].
    const double hi = asc[asc.size() - t.rank], lo = t.rank < asc.size() ? asc[asc.size() - t.rank - 1] : 0.0;
    ASSERT_GT(t.threshold, lo);
    ASSERT_LE(t.threshold, hi);
  }
  double chi2 = 0;
  int df = -1;
  for (std::size_t i = 0; i < p.size(); ++i) {
    if (p[i] == 0) {
      EXPECT_EQ(count[i], 0) << "empty partition chosen";
      continue;
    }
    const double e = p[i] * draws;
    chi2 += (count[i] - e) * (count[i] - e) / e;
    ++df;
  }
  ASSERT_EQ(df, 6);
  EXPECT_LT(chi2, 22.458);  // chi-square(6) 0.999 quantile
}

TEST(ExponentialMechanism, NoOverflowOrUnderflowAtExtremes) {
  std::vector<double> asc;
  for (int i = 1; i <= 2000; ++i) asc.push_back(1e6 * i * i);  // huge range
  Rng rng(1);
  // Huge budget: essentially always rank k (exp(-eps |i-k| / 2) would underflow without the log shift).
  for (int i = 0; i < 50; ++i) EXPECT_EQ(em_threshold_continuous(asc, 700, 1e6, 1, rng).rank, 700u);
  // Tiny budget: probabilities ~ widths; all finite, summing to 1.
  std::vector<double> p = em_probabilities(asc, 700, 1e-12, 1);
  double s = 0;
  for (double x : p) {
    ASSERT_TRUE(std::isfinite(x));
    s += x;
  }
  EXPECT_NEAR(s, 1.0, 1e-12);
  std::vector<double> lw = em_log_weights(asc, 700, 1e300, 1);
  for (double x : lw) EXPECT_FALSE(std::isnan(x));
  EXPECT_EQ(sample_log_weights(lw, rng), 699u);
}

}  // namespace
}  // namespace dpclust::wavecluster

TEST(ExpMech, PublicUpperBoundAddsTheTopPartitionAndClamps) {
  using dpclust::wavecluster::em_threshold_continuous;
  // Values 1, 2, 4 (ascending); k = 1. With a public range (0, 10] the top partition (4, 10] has rank 0.
  const std::vector<double> asc{1.0, 2.0, 4.0};
  dpclust::Rng rng(7);
  std::size_t rank0 = 0;
  const std::size_t n = 20000;
  const double nd = 20000.0;
  for (std::size_t i = 0; i < n; ++i) {
    auto t = em_threshold_continuous(asc, 1, 1.0, 1.0, rng, 10.0);
    ASSERT_GT(t.threshold, 0.0);
    ASSERT_LE(t.threshold, 10.0);
    if (t.rank == 0) {
      ++rank0;
      ASSERT_GT(t.threshold, 4.0);
    }
  }
  // Exact: weights |Pt_i| exp(-|i-1|/2): rank0 6 e^-0.5, rank1 2, rank2 1 e^-0.5, rank3 1 e^-1.
  const double w0 = 6 * std::exp(-0.5), total = w0 + 2 + std::exp(-0.5) + std::exp(-1.0);
  EXPECT_NEAR(static_cast<double>(rank0) / nd, w0 / total, 4 * std::sqrt(w0 / total * (1 - w0 / total) / nd));
  // Values above the public bound are clamped: with upper = 3, the value 4 becomes 3 and no top partition remains.
  for (int i = 0; i < 100; ++i) ASSERT_LE(em_threshold_continuous(asc, 1, 1.0, 1.0, rng, 3.0).threshold, 3.0);
}

TEST(ExpMechLattice, ThePublicLatticeIsAPowerOfTwoGrid) {
  using dpclust::wavecluster::threshold_lattice;
  const auto l = threshold_lattice(10.0, 4);  // 8 <= 10 < 16 = 2^4: spacing 2^(4 - 4) = 1, points 1..10
  EXPECT_EQ(l.spacing(), 1.0);
  EXPECT_EQ(l.points, 10u);
  EXPECT_EQ(l.points_up_to(4.0), 4u);
  EXPECT_EQ(l.points_up_to(4.5), 4u);
  EXPECT_EQ(l.points_up_to(99.0), 10u);
  EXPECT_EQ(l.points_up_to(0.0), 0u);
  const auto f = threshold_lattice(0.3, 20);  // 0.25 <= 0.3 < 0.5: spacing 2^(-1 - 20)
  EXPECT_EQ(f.spacing(), std::ldexp(1.0, -21));
  EXPECT_EQ(f.points, static_cast<std::uint64_t>(std::floor(0.3 * std::ldexp(1.0, 21))));
  EXPECT_THROW(threshold_lattice(0.0, 20), std::invalid_argument);
  EXPECT_THROW(threshold_lattice(1.0, 41), std::invalid_argument);
}

TEST(ExpMechLattice, APowerOfTwoRangeHasTheDocumentedSpacing) {
  // threshold_grid = 2^(ceil(log2 U) - lattice_bits) (docs/choices.md, exp_mech.hpp). At U = 2^k,
  // ceil(log2 U) = k: spacing 2^(k - bits) and 2^bits points (the code took frexp's exponent, k + 1,
  // and gave twice the spacing and half the points).
  using dpclust::wavecluster::threshold_lattice;
  for (int k : {-3, 0, 1, 4, 10}) {
    for (int bits : {1, 4, 20, 40}) {
      const double u = std::ldexp(1.0, k);
      const auto l = threshold_lattice(u, bits);
      EXPECT_EQ(l.spacing(), std::ldexp(1.0, k - bits)) << "U = 2^" << k << ", bits " << bits;
      EXPECT_EQ(l.points, std::uint64_t{1} << bits);
      EXPECT_EQ(l.point(l.points), u);  // the top of the range is a lattice point
      // Just above 2^k, ceil(log2 U) = k + 1: the spacing doubles and about 2^(bits-1) points remain.
      const auto above = threshold_lattice(std::nextafter(u, 1e300), bits);
      EXPECT_EQ(above.spacing(), std::ldexp(1.0, k + 1 - bits));
      EXPECT_EQ(above.points, std::uint64_t{1} << (bits - 1));
    }
  }
}

TEST(ExpMechLattice, ThresholdsAreLatticePointsWithTheHandComputedLaw) {
  using namespace dpclust::wavecluster;
  // Values 1, 2, 4; k = 1; public range (0, 10] with spacing 1: the blocks hold 6 (rank 0: 5..10),
  // 2 (rank 1: 3, 4), 1 (rank 2: 2) and 1 (rank 3: 1) lattice points, the widths of the continuous
  // form; eps2 = 1, Dq = 1: weights 6 e^-0.5, 2, e^-0.5, e^-1 (gamma rounded down by < 2^-52).
  const std::vector<double> asc{1.0, 2.0, 4.0};
  const auto lattice = threshold_lattice(10.0, 4);
  const auto em = dpclust::privacy::ExponentialMechanism::unrecorded(1.0, 1.0);
  dpclust::Rng rng(7);
  std::vector<double> seen(4, 0.0);
  const int n = 40000;
  for (int i = 0; i < n; ++i) {
    const EmThreshold t = em_threshold_lattice(asc, 1, em, lattice, true, rng);
    ASSERT_EQ(t.grid, 1.0);
    ASSERT_EQ(t.threshold, std::floor(t.threshold));  // a lattice point
    const double hi = t.rank == 0 ? 10.0 : asc[asc.size() - t.rank],
                 lo = t.rank < asc.size() ? asc[asc.size() - t.rank - 1] : 0.0;
    ASSERT_GT(t.threshold, lo);
    ASSERT_LE(t.threshold, hi);
    seen[t.rank] += 1;
  }
  const std::vector<double> w{6 * std::exp(-0.5), 2, std::exp(-0.5), std::exp(-1.0)};
  const double total = w[0] + w[1] + w[2] + w[3];
  double chi2 = 0;
  for (std::size_t r = 0; r < 4; ++r)
    chi2 += (seen[r] - n * w[r] / total) * (seen[r] - n * w[r] / total) / (n * w[r] / total);
  EXPECT_LT(chi2, 17.73);  // chi-square(3) 0.9995 quantile
  // The paper's range (0, Max]: no rank 0, ranks 1..3 on the lattice of Max = 4 (spacing 2^(2 - 4)).
  const auto paper = threshold_lattice(4.0, 4);
  for (int i = 0; i < 200; ++i) {
    const EmThreshold t = em_threshold_lattice(asc, 1, em, paper, false, rng);
    ASSERT_GE(t.rank, 1u);
    ASSERT_EQ(t.threshold / paper.spacing(), std::floor(t.threshold / paper.spacing()));
    ASSERT_LE(t.threshold, 4.0);
  }
}

TEST(ExpMechLattice, NeighbouringDataShareTheOutputSetButNotTheContinuousOne) {
  // The defect the lattice removes (Mironov 2012 / Ilvento 2020 on the exponential mechanism): with the
  // continuous form the set of doubles d' = hi - u (hi - lo) that can occur depends on the private ends
  // hi, lo. One value changed by 1/4 (a Haar coefficient after one record is removed) changes hi; every
  // continuous output has an exact preimage only under its own (hi, lo), while every lattice output is
  // a multiple of the same public spacing on both sides.
  using namespace dpclust::wavecluster;
  const std::vector<double> d{0.75, 3.25, 5.5, 9.0}, d_prime{0.75, 3.0, 5.5, 9.0};
  const auto lattice = threshold_lattice(16.0, 12);
  const auto em = dpclust::privacy::ExponentialMechanism::unrecorded(0.3, 1.0);
  dpclust::Rng rng(1);
  for (int i = 0; i < 2000; ++i) {
    const double a = em_threshold_lattice(d, 2, em, lattice, true, rng).threshold;
    const double b = em_threshold_lattice(d_prime, 2, em, lattice, true, rng).threshold;
    ASSERT_EQ(std::fmod(a, lattice.spacing()), 0.0);
    ASSERT_EQ(std::fmod(b, lattice.spacing()), 0.0);
  }
  // The continuous form on a pair whose smallest value differs by 1/4 (D: 0.75, D': 0.5): the bottom
  // partition (0, W_m] gives d' = hi - u hi. On D' (hi = 0.5) the step 0.5 2^-53 of u hi equals the
  // spacing of the doubles in [0.25, 0.5), so every one of them occurs; on D (hi = 0.75) the step is 1.5
  // spacings and about a third of those doubles cannot occur: such an output of D' is impossible under D.
  const std::vector<double> c{0.75, 3.25, 5.5, 9.0}, c_prime{0.5, 3.25, 5.5, 9.0};
  int impossible = 0, total = 0;
  for (int i = 0; i < 20000; ++i) {
    const EmThreshold t = em_threshold_continuous(c_prime, 4, 2.0, 1.0, rng, 16.0);
    if (t.rank != 4 || t.threshold < 0.25) continue;
    ++total;
    const double u0 = (0.75 - t.threshold) / 0.75;  // the candidate u under D, and its 53-bit neighbours
    bool reachable = false;
    for (int s = -4; s <= 4 && !reachable; ++s) {
      const double u = std::ldexp(std::round(std::ldexp(u0, 53)) + s, -53);
      reachable = u >= 0 && u < 1 && 0.75 - u * 0.75 == t.threshold;
    }
    impossible += !reachable;
  }
  ASSERT_GT(total, 100);
  EXPECT_GT(impossible, total / 5) << "the continuous form leaks through the set of reachable doubles (" << impossible
                                   << " of " << total << ")";
}
