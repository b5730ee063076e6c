// FastLloyd end to end: a hand-computed noiseless run (radius constraint, relative updates, a point left out), the
// noiseless run without a radius equal to Lloyd's algorithm, the ledger adding up to (eps, delta), the noise of the
// counts and of the sums calibrated (a fixed-seed test that a halved noise fails), every move within its radius,
// reproducibility over seeds and thread counts, the authors' variant's shared streams, and bad input.
#include <gtest/gtest.h>
#include <omp.h>

#include <cmath>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/ledger.hpp"
#include "core/rng.hpp"
#include "fastlloyd/fastlloyd.hpp"
#include "fastlloyd/register.hpp"
#include "privacy/samplers.hpp"

namespace dpclust::fastlloyd {
namespace {

using Idx = Eigen::Index;

Bounds cube(std::size_t d, double lo, double hi) {
  return Bounds{std::vector<double>(d, lo), std::vector<double>(d, hi)};
}

std::vector<double> blobs(const std::vector<std::vector<double>>& centres, std::size_t per, double sd,
                          std::uint64_t seed) {
  Rng rng(seed);
  std::vector<double> x;
  for (std::size_t i = 0; i < per; ++i)
    for (const auto& c : centres)
      for (double m : c) x.push_back(m + privacy::gaussian_textbook(rng, sd));
  return x;
}

RowMatrix rows(std::initializer_list<std::initializer_list<double>> r) {
  RowMatrix m(static_cast<Idx>(r.size()), static_cast<Idx>(r.begin()->size()));
  Idx i = 0;
  for (const auto& row : r) {
    Idx j = 0;
    for (double v : row) m(i, j++) = v;
    ++i;
  }
  return m;
}

BudgetLedger ledger_for(const FastLloydOptions& o, double noise_scale = 1.0) {
  BudgetLedger ledger(o.epsilon, o.noise == Noise::gaussian ? o.delta : 0.0);
  if (noise_scale != 1.0) ledger.set_noise_scale(noise_scale);
  return ledger;
}

TEST(FastLloydRun, HandComputedNoiselessRun) {
  // d = 1, bounds [-1, 1] (the domain is the data), k = 2, initial centres -0.2 and 0.6, T = 2; radius rule
  // diagonal_then_frac: r_0 = D / 2 = 1, r_1 = D frac = 2 * 0.8 / (2 * 2) = 0.4.
  // Iteration 1: -0.9, -0.7, -0.6, 0.0 -> c0 (offsets -0.7, -0.5, -0.4, 0.2: mean -0.35), 0.5, 0.8 -> c1 (offsets
  //   -0.1, 0.2: mean 0.05): c0 = -0.55, c1 = 0.65.
  // Iteration 2: 0.0 is nearest c0 but 0.55 > r_1 = 0.4 away: left out. c0: -0.35, -0.15, -0.05 (mean -0.55 / 3),
  //   c1: -0.15, 0.15 (mean 0): c0 = -0.55 - 0.183333 = -0.733333, c1 = 0.65.
  const std::vector<double> x = {-0.9, -0.7, -0.6, 0.0, 0.5, 0.8};
  for (Noise noise : {Noise::gaussian, Noise::laplace})
    for (privacy::Sampler s : {privacy::Sampler::secure, privacy::Sampler::textbook}) {
      FastLloydOptions o;
      o.k = 2;
      o.noise = noise;
      o.delta = noise == Noise::gaussian ? 1e-6 : 0.0;
      o.sampler = s;
      o.epsilon = 1e4;  // the finest grid: rounding below 2^-29
      o.iterations = 2;
      o.initial_centres = rows({{-0.2}, {0.6}});
      BudgetLedger ledger = ledger_for(o, 0.0);
      Rng rng(3);
      const FastLloydResult r = fastlloyd(x.data(), 6, 1, cube(1, -1, 1), o, rng, ledger);
      ASSERT_EQ(r.iterations, 2);
      EXPECT_DOUBLE_EQ(r.plan[0].radius, noise == Noise::gaussian ? 1.0 : 2.0);  // Laplace: r_0 = 1 >= d = 1 -> D
      EXPECT_DOUBLE_EQ(r.plan[1].radius, 0.4);
      EXPECT_NEAR(r.centres(0, 0), -0.55 - 0.55 / 3, 1e-8);
      EXPECT_NEAR(r.centres(1, 0), 0.65, 1e-8);
      EXPECT_EQ(r.unassigned, (std::vector<std::int64_t>{0, 1}));
      EXPECT_EQ(r.cluster_sizes, (std::vector<std::vector<std::int64_t>>{{4, 2}, {3, 2}}));
      // Noiseless: the released counts are the true ones.
      EXPECT_EQ(r.noisy_counts, (std::vector<std::vector<double>>{{4, 2}, {3, 2}}));
      // Labels (evaluation): the nearest final centre; 0.0 is now nearer c1 (0.65 away) than c0 (0.733).
      EXPECT_EQ(r.labels, (Labels{0, 0, 0, 1, 1, 1}));
    }
}

// Plain Lloyd from given centres for T iterations (every point to its nearest centre, centres to the means).
RowMatrix lloyd(const std::vector<double>& x, std::size_t d, RowMatrix c, int iterations) {
  const std::size_t n = x.size() / d, k = static_cast<std::size_t>(c.rows());
  for (int it = 0; it < iterations; ++it) {
    RowMatrix sum = RowMatrix::Zero(c.rows(), c.cols());
    std::vector<double> count(k, 0);
    for (std::size_t i = 0; i < n; ++i) {
      std::size_t best = 0;
      double best_d = 1e300;
      for (std::size_t a = 0; a < k; ++a) {
        double s = 0;
        for (std::size_t j = 0; j < d; ++j)
          s += (x[i * d + j] - c(static_cast<Idx>(a), static_cast<Idx>(j))) *
               (x[i * d + j] - c(static_cast<Idx>(a), static_cast<Idx>(j)));
        if (s < best_d) best_d = s, best = a;
      }
      for (std::size_t j = 0; j < d; ++j) sum(static_cast<Idx>(best), static_cast<Idx>(j)) += x[i * d + j];
      ++count[best];
    }
    for (std::size_t a = 0; a < k; ++a) c.row(static_cast<Idx>(a)) = sum.row(static_cast<Idx>(a)) / count[a];
  }
  return c;
}

TEST(FastLloydRun, NoiselessWithoutRadiusIsLloyd) {
  // radius_rule none and post none at zero noise: the authors' "Lloyd" baseline, Lloyd's algorithm itself.
  const auto x = blobs({{-40, -40, 10}, {40, 30, -20}, {-30, 40, 30}}, 200, 8.0, 11);
  const RowMatrix init = rows({{-10, -10, 0}, {10, 0, 0}, {0, 10, 10}});
  for (Noise noise : {Noise::gaussian, Noise::laplace}) {
    FastLloydOptions o;
    o.k = 3;
    o.noise = noise;
    o.delta = noise == Noise::gaussian ? 1e-6 : 0.0;
    o.radius_rule = RadiusRule::none;
    o.post = Post::none;
    o.epsilon = 1e4;
    o.iterations = 4;
    o.initial_centres = init;
    BudgetLedger ledger = ledger_for(o, 0.0);
    Rng rng(5);
    const FastLloydResult r = fastlloyd(x.data(), 600, 3, cube(3, -128, 128), o, rng, ledger);
    ASSERT_EQ(r.clamped_points, 0u);
    const RowMatrix expected = lloyd(x, 3, init, 4);
    // The sums are on the public grid (2^-18 of the calibrated sigma, or 2^-29 of a record's bound when that is
    // coarser; here at most 2^-23 of the domain's half-width 128): a mean is off by at most half its spacing.
    double spacing = 0;
    for (const IterationPlan& p : r.plan) spacing = std::max(spacing, p.grid.spacing);
    EXPECT_LE(spacing, 0x1p-23);
    EXPECT_LE((r.centres - expected).cwiseAbs().maxCoeff(), 128 * spacing / 2) << to_string(noise);
    EXPECT_EQ(r.unassigned, (std::vector<std::int64_t>(4, 0)));
  }
}

TEST(FastLloydRun, LedgerAddsUpToEpsilonAndDelta) {
  const auto x = blobs({{-5, -5}, {5, 5}, {5, -5}}, 300, 1.0, 1);
  for (Noise noise : {Noise::gaussian, Noise::laplace})
    for (privacy::Sampler s : {privacy::Sampler::secure, privacy::Sampler::textbook})
      for (std::int64_t fixed : {0, 3}) {
        FastLloydOptions o;
        o.k = 3;
        o.epsilon = 0.7;
        o.noise = noise;
        o.delta = noise == Noise::gaussian ? 1e-6 : 0.0;
        o.sampler = s;
        o.iterations = fixed;
        BudgetLedger ledger = ledger_for(o);
        Rng rng(4);
        const FastLloydResult r = fastlloyd(x.data(), 900, 2, cube(2, -10, 10), o, rng, ledger);
        EXPECT_NO_THROW(ledger.verify());
        EXPECT_NEAR(ledger.spent_epsilon(), 0.7, 1e-12);
        EXPECT_NEAR(ledger.spent_delta(), o.delta, 1e-18);
        // The noisy N (when the rule runs on it), per iteration sums and counts, and the Gaussian budget's account.
        const std::size_t entries =
            (fixed == 0 ? 1 : 0) + 2 * static_cast<std::size_t>(r.iterations) + (noise == Noise::gaussian ? 1 : 0);
        EXPECT_EQ(ledger.entries().size(), entries);
        EXPECT_EQ(r.iteration_source, fixed == 0 ? IterationSource::noisy_n : IterationSource::fixed);
        EXPECT_NEAR(r.epsilon_n, fixed == 0 ? 0.035 : 0.0, 1e-15);
        for (const BudgetEntry& e : ledger.entries()) {
          if (e.joint_total) continue;
          if (s == privacy::Sampler::secure) {
            EXPECT_TRUE(e.mechanism == "discrete_laplace" || e.mechanism == "discrete_gaussian") << e.mechanism;
          }
          EXPECT_EQ(e.relation, NeighbourRelation::add_remove);
          if (e.step.rfind("noisy sums", 0) == 0) {
            EXPECT_EQ(e.sensitivity_norm, noise == Noise::gaussian ? "l2" : "l1");
          }
        }
        EXPECT_EQ(r.non_private_notes.size(), s == privacy::Sampler::textbook ? 1u : 0u);
      }
}

// The noise, recovered exactly. Counts: a released count less the true size of its cluster (evaluation) is the
// count noise. Sums: every point at the origin, no radius, no post-processing and T = 1, so the released centre is
// (0 + noise) / max(N~, 1) in the domain and centre * max(N~, 1) is the sums' noise. Over 200 seeded runs of k = 4
// clusters in 2-D their variances must match the plan's scales; a run whose noise is halved must not.
struct VarianceRatios {
  double counts = 0, sums = 0;
};

VarianceRatios variance_ratios(Noise noise, privacy::Sampler s, double noise_scale) {
  const std::vector<double> x(2 * 400, 0.0);
  FastLloydOptions o;
  o.k = 4;
  o.noise = noise;
  o.delta = noise == Noise::gaussian ? 1e-6 : 0.0;
  o.sampler = s;
  o.radius_rule = RadiusRule::none;
  o.post = Post::none;
  o.iterations = 1;
  o.initial_centres = rows({{-0.5, -0.5}, {0.5, 0.5}, {-0.5, 0.5}, {0.5, -0.5}});
  double count_sq = 0, sum_sq = 0, count_var = 0, sum_var = 0;
  int counts = 0, sums = 0;
  for (int trial = 0; trial < 200; ++trial) {
    BudgetLedger ledger = ledger_for(o, noise_scale);
    Rng rng(2000 + trial);
    const FastLloydResult r = fastlloyd(x.data(), 400, 2, cube(2, -1, 1), o, rng, ledger);
    const double b = r.plan[0].count_scale, t = r.plan[0].sum_scale;
    count_var = noise == Noise::gaussian ? b * b : 2 * b * b;
    sum_var = noise == Noise::gaussian ? t * t : 2 * t * t;
    for (std::size_t c = 0; c < 4; ++c) {
      const double z = r.noisy_counts[0][c] - static_cast<double>(r.cluster_sizes[0][c]);
      count_sq += z * z;
      ++counts;
      const double n = std::max(r.noisy_counts[0][c], 1.0);
      for (Idx j = 0; j < 2; ++j) {
        const double y = r.trajectory[1](static_cast<Idx>(c), j) * n;
        sum_sq += y * y;
        ++sums;
      }
    }
  }
  return {count_sq / counts / count_var, sum_sq / sums / sum_var};
}

TEST(FastLloydRun, NoiseIsCalibratedAndAHalvedNoiseFails) {
  for (Noise noise : {Noise::gaussian, Noise::laplace})
    for (privacy::Sampler s : {privacy::Sampler::secure, privacy::Sampler::textbook}) {
      // 800 count draws, 1600 sum draws: the ratio's standard error is at most sqrt(5 / 800) = 0.08 (Laplace's
      // fourth moment); a halved noise gives 0.25.
      const VarianceRatios calibrated = variance_ratios(noise, s, 1.0);
      EXPECT_NEAR(calibrated.counts, 1.0, 0.3) << to_string(noise) << " " << privacy::to_string(s);
      EXPECT_NEAR(calibrated.sums, 1.0, 0.3) << to_string(noise) << " " << privacy::to_string(s);
      const VarianceRatios halved = variance_ratios(noise, s, 0.5);
      EXPECT_LT(halved.counts, 0.5) << to_string(noise) << ": half the count noise passed as calibrated";
      EXPECT_LT(halved.sums, 0.5) << to_string(noise) << ": half the sum noise passed as calibrated";
    }
}

TEST(FastLloydRun, EveryMoveStaysWithinItsRadius) {
  // With noise a released mean can land anywhere; clip_moves keeps every move within r_i (folding into the domain
  // only shortens it), so the centres follow the radius constraint whatever the noise.
  const auto x = blobs({{-0.5, -0.5}, {0.5, 0.5}}, 100, 0.1, 3);
  for (Post post : {Post::none, Post::fold}) {
    FastLloydOptions o;
    o.k = 5;
    o.epsilon = 0.05;
    o.post = post;
    o.iterations = 6;
    BudgetLedger ledger = ledger_for(o);
    Rng rng(9);
    const FastLloydResult r = fastlloyd(x.data(), 200, 2, cube(2, -1, 1), o, rng, ledger);
    ASSERT_EQ(r.trajectory.size(), 7u);
    double largest = 0;
    for (std::size_t i = 0; i < 6; ++i)
      for (Idx c = 0; c < 5; ++c) {
        const double move = (r.trajectory[i + 1].row(c) - r.trajectory[i].row(c)).norm();
        EXPECT_LE(move, r.plan[i].radius * (1 + 1e-12)) << "iteration " << i;
        largest = std::max(largest, move / r.plan[i].radius);
      }
    EXPECT_GT(largest, 0.99);  // at eps 0.05 some move is clipped to the radius itself
  }
}

TEST(FastLloydRun, SeededRunsRepeatAndThreadCountsDoNotMatter) {
  const auto x = blobs({{-30, -30, 0}, {30, 30, 0}, {30, -30, 10}}, 3000, 3.0, 5);
  FastLloydOptions o;
  o.k = 3;
  auto run = [&](std::uint64_t seed, int threads, privacy::Sampler s) {
    omp_set_num_threads(threads);
    FastLloydOptions oo = o;
    oo.sampler = s;
    BudgetLedger ledger = ledger_for(oo);
    Rng rng(seed);
    return fastlloyd(x.data(), 9000, 3, cube(3, -50, 50), oo, rng, ledger);
  };
  const int before = omp_get_max_threads();
  for (privacy::Sampler s : {privacy::Sampler::secure, privacy::Sampler::textbook}) {
    const FastLloydResult a = run(17, 1, s), c = run(17, 3, s), other = run(18, 1, s);
    EXPECT_EQ((a.centres - c.centres).cwiseAbs().maxCoeff(), 0.0);
    EXPECT_EQ(a.labels, c.labels);
    EXPECT_EQ(a.noisy_counts, c.noisy_counts);
    EXPECT_EQ(a.noisy_n, c.noisy_n);
    EXPECT_GT((other.centres - a.centres).cwiseAbs().maxCoeff(), 0.0);
  }
  omp_set_num_threads(before);
}

TEST(FastLloydRun, LabelsAreEvaluationOnly) {
  // Without the labels (nobody reads them) the release is the same, the labels are all noise and the inertia NaN.
  const auto x = blobs({{-3, -3}, {3, 3}}, 500, 1.0, 8);
  FastLloydOptions o;
  auto run = [&](bool labels) {
    FastLloydOptions oo = o;
    oo.labels = labels;
    BudgetLedger ledger = ledger_for(oo);
    Rng rng(12);
    return fastlloyd(x.data(), 1000, 2, cube(2, -6, 6), oo, rng, ledger);
  };
  const FastLloydResult with = run(true), without = run(false);
  EXPECT_EQ((with.centres - without.centres).cwiseAbs().maxCoeff(), 0.0);
  EXPECT_EQ(with.noisy_counts, without.noisy_counts);
  EXPECT_EQ(without.labels, Labels(1000, kNoise));
  EXPECT_TRUE(std::isnan(without.inertia));
  EXPECT_GT(with.inertia, 0.0);
}

TEST(FastLloydRun, StreamsAreIndependentButTheAuthorsVariantSharesThem) {
  // Every point at one place, no radius, T = 2: the released counts are 400 + noise in the cluster holding the
  // points and noise alone elsewhere. The authors' server.py seeds iteration i's sums and counts with seed x i:
  // iteration 1 draws the same noise for every seed. dpclust's streams do not.
  const std::vector<double> x(2 * 400, 0.25);
  FastLloydOptions o;
  o.k = 3;
  o.radius_rule = RadiusRule::none;
  o.iterations = 2;
  o.initial_centres = rows({{0.25, 0.25}, {-0.5, -0.5}, {0.5, -0.5}});
  auto counts = [&](Variant v, std::uint64_t seed) {
    FastLloydOptions oo = o;
    oo.variant = v;
    oo.sampler = privacy::Sampler::textbook;
    BudgetLedger ledger = ledger_for(oo);
    Rng rng(seed);
    return fastlloyd(x.data(), 400, 2, cube(2, -1, 1), oo, rng, ledger);
  };
  const FastLloydResult a7 = counts(Variant::authors, 7), a123 = counts(Variant::authors, 123);
  EXPECT_EQ(a7.noisy_counts[0], a123.noisy_counts[0]);
  EXPECT_NE(a7.noisy_counts[1], a123.noisy_counts[1]);
  ASSERT_EQ(a7.non_private_notes.size(), 2u);  // the textbook sampler and the shared streams
  EXPECT_NE(a7.non_private_notes[1].find("seed x i"), std::string::npos);
  // The counts' noise is truncated toward zero to an integer, as the authors' to_int.
  for (double c : a7.noisy_counts[0]) EXPECT_EQ(c, std::trunc(c));
  const FastLloydResult f7 = counts(Variant::fastlloyd, 7), f123 = counts(Variant::fastlloyd, 123);
  EXPECT_NE(f7.noisy_counts[0], f123.noisy_counts[0]);
  // variant authors needs a seed: a secure generator is refused before anything is drawn.
  FastLloydOptions oo = o;
  oo.variant = Variant::authors;
  oo.sampler = privacy::Sampler::textbook;
  BudgetLedger ledger = ledger_for(oo);
  Rng secure = Rng::secure();
  try {
    fastlloyd(x.data(), 400, 2, cube(2, -1, 1), oo, secure, ledger);
    FAIL() << "variant authors ran on a secure generator";
  } catch (const InputError& e) {
    EXPECT_EQ(e.where(), "params.variant");
  }
  EXPECT_TRUE(ledger.entries().empty());
}

TEST(FastLloydRun, TheTrueSizeIsFlagged) {
  const auto x = blobs({{0, 0}}, 100, 1.0, 2);
  FastLloydOptions o;
  o.n_source = SizeSource::data;
  BudgetLedger ledger = ledger_for(o);
  Rng rng(1);
  const FastLloydResult r = fastlloyd(x.data(), 100, 2, cube(2, -5, 5), o, rng, ledger);
  EXPECT_EQ(r.iteration_source, IterationSource::true_n);
  ASSERT_EQ(r.non_private_notes.size(), 1u);
  EXPECT_NE(r.non_private_notes[0].find("true number of points"), std::string::npos);
  EXPECT_NO_THROW(ledger.verify());
  EXPECT_EQ(r.epsilon_n, 0.0);
}

TEST(FastLloydRun, BadInputIsAnInputErrorNamingTheParameter) {
  const auto x = blobs({{0, 0}}, 50, 1.0, 3);
  auto where = [&](FastLloydOptions o, Bounds b, std::size_t n = 50) -> std::string {
    BudgetLedger ledger(1.0, 1e-6);
    Rng rng(1);
    try {
      fastlloyd(x.data(), n, 2, b, o, rng, ledger);
    } catch (const InputError& e) {
      EXPECT_FALSE(e.fix().empty()) << e.what();
      return e.where();
    }
    return "";
  };
  const FastLloydOptions o;
  EXPECT_EQ(where(o, Bounds{}), "bounds");
  EXPECT_EQ(where(o, cube(3, -1, 1)), "bounds");
  FastLloydOptions bad = o;
  bad.delta = 0;
  EXPECT_EQ(where(bad, cube(2, -5, 5)), "params.delta");
  bad = o;
  bad.noise = Noise::laplace;  // delta 1e-6 left over
  EXPECT_EQ(where(bad, cube(2, -5, 5)), "params.delta");
  bad = o;
  bad.n_source = SizeSource::public_n;
  EXPECT_EQ(where(bad, cube(2, -5, 5)), "params.n_public");
  bad = o;
  bad.variant = Variant::authors;  // with the secure sampler
  EXPECT_EQ(where(bad, cube(2, -5, 5)), "params.sampler");
  bad = o;
  bad.k = 51;
  EXPECT_EQ(where(bad, cube(2, -5, 5)), "params.k");
  bad = o;
  bad.initial_centres = rows({{0, 0}, {9, 0}});
  EXPECT_EQ(where(bad, cube(2, -5, 5)), "params.initial_centers");
  bad.initial_centres = rows({{0}, {1}});
  EXPECT_EQ(where(bad, cube(2, -5, 5)), "params.initial_centers");
  bad = o;
  bad.epsilon = 1e-9;
  EXPECT_EQ(where(bad, cube(2, -5, 5)), "params.epsilon");
}

TEST(FastLloydCatalog, DeclaredParametersAndShapeCheck) {
  const MethodInfo& info = fastlloyd_method_info();
  EXPECT_EQ(info.name, "fastlloyd");
  EXPECT_TRUE(info.differentially_private);
  EXPECT_TRUE(info.needs_bounds);
  EXPECT_TRUE(info.releases_centres);
  EXPECT_EQ(info.non_private_counterpart, "kmeans");
  ParamSet p;
  for (const ParamSpec& s : info.params) p.set(s.name, s.default_value);
  p.set("k", std::int64_t{64});
  const DataShape synth{100000, true, 10, cube(10, -100, 100), "synth_10d", 100000, true};
  EXPECT_NO_THROW(info.check_shape(p, synth));
  auto where = [&](const std::string& key, ParamValue v) {
    ParamSet q = p;
    q.set(key, std::move(v));
    try {
      info.check_shape(q, synth);
    } catch (const InputError& e) {
      EXPECT_FALSE(e.fix().empty()) << e.what();
      return e.where();
    }
    return std::string();
  };
  EXPECT_EQ(where("delta", 0.0), "params.delta");
  // Laplace noise is pure eps-DP: a delta set for the dataset or experiment (here the default) is left unused, as
  // dp_dbscan leaves it, so that one dataset-level delta serves a config's SuLloyd and FastLloyd alike.
  EXPECT_EQ(where("noise", std::string("laplace")), "");
  {
    ParamSet q = p;
    q.set("noise", std::string("laplace"));
    q.set("delta", 1e-3);
    EXPECT_EQ(options_of(q).delta, 0.0);
    q.set("noise", std::string("gaussian"));
    EXPECT_EQ(options_of(q).delta, 1e-3);
  }
  EXPECT_EQ(where("variant", std::string("authors")), "params.sampler");
  EXPECT_EQ(where("n_source", std::string("public")), "params.n_public");
  EXPECT_EQ(where("initial_centers", RealVector(64 * 3, 0.0)), "params.initial_centers");
  EXPECT_EQ(where("epsilon", 1e-6), "params.epsilon");  // below the exact samplers at T = 7, k = 64, d = 10
  EXPECT_EQ(where("k", std::int64_t{100001}), "params.k");
  // The options a parameter set describes.
  p.set("noise", std::string("laplace"));
  p.set("delta", 0.0);
  p.set("radius_rule", std::string("frac_stay"));
  const FastLloydOptions o = options_of(p);
  EXPECT_EQ(o.noise, Noise::laplace);
  EXPECT_EQ(o.radius_rule, RadiusRule::frac_stay);
  EXPECT_EQ(o.k, 64u);
  EXPECT_EQ(o.post, Post::fold);
  EXPECT_DOUBLE_EQ(o.alpha, 0.8);
  EXPECT_DOUBLE_EQ(o.rho, 0.225);
}

}  // namespace
}  // namespace dpclust::fastlloyd
