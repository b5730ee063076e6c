// The thesis's Chapter 4 privacy evaluation (attacks.hpp, geo_check.hpp), the centroid relative error
// (centroid_error.hpp) and the parameter-selection helpers (parameter_selection.hpp): hand-computed
// values on tiny inputs, a fixed-seed statistical test that the geo-indistinguishability check passes
// for the calibrated mechanism and fails for under-noised ones (the ledger's noise_scale seam), and the
// new configs validated by the real `dpclust` binary.
#include <gtest/gtest.h>

#include <any>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <map>
#include <numbers>
#include <string>

#include "core/error.hpp"
#include "io/csv.hpp"
#include "ndlaplace/attacks.hpp"
#include "ndlaplace/centroid_error.hpp"
#include "ndlaplace/geo_check.hpp"
#include "ndlaplace/nd_laplace.hpp"
#include "ndlaplace/parameter_selection.hpp"
#include "ndlaplace/register.hpp"

namespace dpclust::ndlaplace {
namespace {

const std::filesystem::path kHere = std::filesystem::path(__FILE__).parent_path();

ParamSet params_for(const MethodInfo& info, std::map<std::string, ParamValue> set) {
  ParamSet p;
  for (const auto& spec : info.params)
    if (!spec.required()) p.set(spec.name, spec.default_value);
  for (auto& [k, v] : set) p.set(k, v);
  return p;
}

const MetricInfo& metric(const std::string& name) {
  static const auto all = ndlaplace_folder().metrics;
  for (const auto& m : all)
    if (m.name == name) return m;
  throw std::logic_error("no metric " + name);
}

Dataset thesis_blobs50() {
  CsvOptions c;
  c.label = "label";
  Dataset ds = load_csv(kHere / "thesis_blobs50.csv", c);
  ds.bounds = bounding_box(ds);
  return ds;
}

// Sec. 4.1 / 4.3. x = (0,0), (10,0); z = (1,0), (10,3). Member scores (nearest report of all):
// 1 and 3; non-member scores (nearest report but its own): ||(0,0)-(10,3)|| = sqrt(109) and
// ||(10,0)-(1,0)|| = 9.
TEST(MembershipInference, HandComputed) {
  const double x[] = {0, 0, 10, 0};
  const double z[] = {1, 0, 10, 3};
  const MembershipAttack a = membership_inference(x, z, 2, 2, 2.0);
  EXPECT_DOUBLE_EQ(a.tpr, 0.5);  // 1 <= 2, 3 > 2
  EXPECT_DOUBLE_EQ(a.fpr, 0.0);
  EXPECT_DOUBLE_EQ(a.advantage, 0.5);
  const MembershipAttack b = membership_inference(x, z, 2, 2, 9.5);
  EXPECT_DOUBLE_EQ(b.tpr, 1.0);
  EXPECT_DOUBLE_EQ(b.fpr, 0.5);  // 9 <= 9.5 < sqrt(109)
  EXPECT_DOUBLE_EQ(b.advantage, 0.5);
  const MembershipAttack best = membership_inference_best(x, z, 2, 2);
  EXPECT_DOUBLE_EQ(best.advantage, 1.0);
  EXPECT_DOUBLE_EQ(best.threshold, 3.0);  // the smallest tau reaching it
  // The public threshold: the mean of the Gamma(d, 1/e) noise radius.
  EXPECT_DOUBLE_EQ(expected_noise_distance(2, 0.5), 4.0);
  EXPECT_THROW(membership_inference(x, z, 1, 2, 1.0), std::invalid_argument);
}

// Sec. 4.2. z = (0,0), (1,0), rate ln 3: w_01 = 1/3, so x_hat_0 = (1/3) / (4/3) = 0.25 and x_hat_1 = 0.75.
TEST(Reconstruction, PosteriorMeanHandComputed) {
  const double z[] = {0, 0, 1, 0};
  const std::vector<double> est = reconstruct_posterior_mean(z, 2, 2, std::log(3.0));
  ASSERT_EQ(est.size(), 4u);
  EXPECT_NEAR(est[0], 0.25, 1e-15);
  EXPECT_NEAR(est[1], 0.0, 1e-15);
  EXPECT_NEAR(est[2], 0.75, 1e-15);
  const double x[] = {0, 0, 1, 0};
  EXPECT_NEAR(mean_distance(est.data(), x, 2, 2), 0.25, 1e-15);
}

// Eq. 3.1 on counts. d = 1, x = 0, x' = 1: s(z) = |z - 1| - |z| is 1 at z = -1 and -1 at z = 2. Reports for
// x: three at -1, one at 2; for x': one at -1, three at 2. With T = 2 the only threshold is t = 0:
// P[s >= 0 | x] / P[s >= 0 | x'] = (3/4) / (1/4) = 3, and the mirrored event gives 3 as well.
TEST(GeoCheck, HandComputedCounts) {
  const double x[] = {0}, xp[] = {1};
  const double zx[] = {-1, -1, -1, 2}, zxp[] = {-1, 2, 2, 2};
  GeoCheckOptions o;
  o.thresholds = 2;
  o.min_count = 1;
  o.z = 0.0;
  GeoCheck g = geo_indistinguishability_check(x, xp, 1, zx, 4, zxp, 4, 1.0, o);
  EXPECT_DOUBLE_EQ(g.distance, 1.0);
  EXPECT_DOUBLE_EQ(g.bound, 1.0);
  EXPECT_EQ(g.events, 2u);
  EXPECT_NEAR(g.max_log_ratio, std::log(3.0), 1e-15);
  EXPECT_NEAR(g.max_lower_bound, std::log(3.0), 1e-15);  // z = 0
  EXPECT_TRUE(g.violated);                               // ln 3 = 1.0986 > 1 * 1
  EXPECT_NEAR(g.ratio(), std::log(3.0), 1e-15);
  g = geo_indistinguishability_check(x, xp, 1, zx, 4, zxp, 4, 1.2, o);
  EXPECT_FALSE(g.violated);  // ln 3 < 1.2
  // With z = 1 the lower bound is ln 3 - sqrt(1/3 - 1/4 + 1 - 1/4).
  o.z = 1.0;
  g = geo_indistinguishability_check(x, xp, 1, zx, 4, zxp, 4, 1.0, o);
  EXPECT_NEAR(g.max_lower_bound, std::log(3.0) - std::sqrt(1.0 / 3 - 0.25 + 1 - 0.25), 1e-15);
  EXPECT_FALSE(g.violated);
}

// Eq. 3.4: x0 = (0, 0), reports (3, 4) and (1, 0): radius (5 + 1) / 2 = 3, area pi 9.
TEST(PArea, HandComputed) {
  const double x0[] = {0, 0};
  const double z[] = {3, 4, 1, 0};
  const PArea a = p_area(x0, z, 2, 2);
  EXPECT_EQ(a.center, (std::vector<double>{0, 0}));
  EXPECT_DOUBLE_EQ(a.radius, 3.0);
  EXPECT_NEAR(a.volume, 9 * std::numbers::pi, 1e-12);
  EXPECT_NEAR(ball_volume(3, 2.0), 4.0 / 3.0 * std::numbers::pi * 8, 1e-12);
  EXPECT_NEAR(ball_volume(1, 2.0), 4.0, 1e-12);
}

// Reference centroids (1, 0) and (0, 2); estimates (1, 1) and (0, 2.5): nearest distances 1 and 0.5,
// relative 1 / 1 and 0.5 / 2, mean 0.625.
TEST(CentroidError, HandComputed) {
  EXPECT_DOUBLE_EQ(centroid_relative_error({1, 0, 0, 2}, 2, {1, 1, 0, 2.5}, 2, 2), 0.625);
  EXPECT_TRUE(std::isnan(centroid_relative_error({1, 0}, 1, {}, 0, 2)));
  // Centroids from labels: noise (-1) is left out, clusters in increasing label order.
  const double pts[] = {0, 0, 2, 0, 10, 10, 5, 5};
  std::size_t k = 0;
  const auto c = cluster_centroids(pts, 4, 2, {3, 3, -1, 1}, &k);
  ASSERT_EQ(k, 2u);
  EXPECT_EQ(c, (std::vector<double>{5, 5, 1, 0}));
}

// Knee rule by hand: inertia 100, 40, 10, 8, 7 scaled to [0, 1] is 1, .355, .032, .011, 0 at x = 0, .25,
// .5, .75, 1; the distance to the chord x + y = 1 is largest at the third point: k = 3.
TEST(ParameterSelection, KneeAndKDistanceHandComputed) {
  EXPECT_EQ(knee_index({100, 40, 10, 8, 7}), 2u);
  EXPECT_EQ(elbow_k({100, 40, 10, 8, 7}), 3u);
  EXPECT_EQ(knee_index({5, 5, 5}), 0u);  // flat
  // Points 0, 1, 3, 7 on a line; k = 2 (the point itself and its nearest neighbour): 1, 1, 2, 4.
  const double line[] = {0, 1, 3, 7};
  EXPECT_EQ(k_distance(line, 4, 1, 2), (std::vector<double>{4, 2, 1, 1}));
  EXPECT_EQ(k_distance(line, 4, 1, 1), (std::vector<double>{0, 0, 0, 0}));
  // Knee of 4, 2, 1, 1 (scaled 1, 1/3, 0, 0 at x = 0, 1/3, 2/3, 1; chord x + y = 1): the second and the
  // third point tie at 1/3, the first of them wins: 2.
  EXPECT_DOUBLE_EQ(knee_radius({4, 2, 1, 1}), 2.0);
  // 4, 2, 1, 1, 1 (scaled 1, 1/3, 0, 0, 0 at x = 0, .25, .5, .75, 1): |x + y - 1| = 0, .417, .5, .25, 0.
  EXPECT_DOUBLE_EQ(knee_radius({4, 2, 1, 1, 1}), 1.0);
  EXPECT_THROW(k_distance(line, 4, 1, 5), std::invalid_argument);
}

// On the thesis's (50, 2) data set with 4 centres the elbow is at k = 4 (Table 5.1's "calculated based on
// an elbow plot"), and the k-distance knee gives a DBSCAN radius that finds the 4 blobs.
TEST(ParameterSelection, ThesisDataElbowIsFour) {
  const MethodInfo& info = nd_laplace_method_info();
  const Dataset ds = thesis_blobs50();
  const ParamSet p = params_for(info, {{"epsilon", 1.0}});
  BudgetLedger ledger(1.0, 0.0, NeighbourRelation::add_remove, PrivacyMeasure::local);
  Rng rng(3);
  const MethodResult r = info.make()->run(ds, p, rng, ledger);
  std::map<std::string, std::any> cache;
  MetricInput in{ds, r, p, info, 11, cache};
  EXPECT_EQ(metric("elbow_k_original").compute(in), 4.0);
  const double alpha = metric("kdistance_alpha_original").compute(in);
  EXPECT_GT(alpha, 0.1);
  EXPECT_LT(alpha, 1.0);
}

// The attacks as metrics of a run: a weak perturbation leaks membership and lets the adversary reconstruct;
// a strong one does not. Fixed seeds.
TEST(PrivacyMetrics, AttacksFollowEpsilon) {
  const MethodInfo& info = nd_laplace_method_info();
  const Dataset ds = thesis_blobs50();
  auto run = [&](double eps, const std::string& name) {
    const ParamSet p = params_for(info, {{"epsilon", eps}});
    BudgetLedger ledger(eps, 0.0, NeighbourRelation::add_remove, PrivacyMeasure::local);
    Rng rng(21);
    const MethodResult r = info.make()->run(ds, p, rng, ledger);
    std::map<std::string, std::any> cache;
    MetricInput in{ds, r, p, info, 5, cache};
    return metric(name).compute(in);
  };
  // eps = 1000 per unit (noise ~ 0.004): every member is found, no non-member (points are >= 0.05 apart).
  EXPECT_DOUBLE_EQ(run(1000.0, "mia_advantage_best"), 1.0);
  // At the public threshold tau = E r = d / e (draw rate e = 500), TPR = P[Gamma(2, 1/e) <= 2 / e] =
  // 1 - 3 e^{-2} = 0.594 and FPR = 0: the advantage is the TPR (50 points: +- 0.15).
  EXPECT_NEAR(run(1000.0, "mia_advantage"), 1.0 - 3.0 * std::exp(-2.0), 0.15);
  EXPECT_LT(run(0.05, "mia_advantage_best"), 0.3);
  EXPECT_LE(run(0.05, "mia_advantage"), run(0.05, "mia_advantage_best"));
  EXPECT_LT(run(1000.0, "reconstruction_error"), 0.01);
  // At small epsilon the posterior mean beats the report itself (the ML estimate, avg_distance).
  EXPECT_LT(run(0.3, "reconstruction_error"), run(0.3, "avg_distance"));
  EXPECT_LT(run(1000.0, "centroid_rel_error"), 1e-3);
  // Without probe draws the mechanism checks are NaN (left out of averages).
  EXPECT_TRUE(std::isnan(run(1.0, "gi_ratio")));
  EXPECT_TRUE(std::isnan(run(1.0, "p_area_radius")));
}

// The statistical test of Eq. 3.1: with 20,000 probe reports per input (fixed seeds), the calibrated
// mechanism passes the check in 2 and 3 dimensions, for both samplers; a mechanism drawing at 4 times
// the calibrated rate (ledger noise_scale 0.25: log-ratios up to 2 eps d) and one without noise fail it.
TEST(GeoCheck, PassesCalibratedFailsUnderNoised) {
  const MethodInfo& info = nd_laplace_method_info();
  for (std::size_t d : {2u, 3u}) {
    Dataset ds;
    ds.name = "box";
    ds.n = 4;
    ds.d = d;
    ds.coords.assign(ds.n * d, 0.0);
    for (std::size_t i = 0; i < ds.n; ++i) ds.coords[i * d] = static_cast<double>(i);
    ds.bounds.lo.assign(d, -30.0);
    ds.bounds.hi.assign(d, 30.0);
    for (const char* sampler : {"secure", "textbook"}) {
      auto check = [&](double noise_scale) {
        const ParamSet p = params_for(info, {{"epsilon", 1.0},
                                             {"sampler", std::string(sampler)},
                                             {"privacy_probe_draws", std::int64_t{20000}},
                                             {"gi_distance", 1.0}});
        BudgetLedger ledger(1.0, 0.0, NeighbourRelation::add_remove, PrivacyMeasure::local);
        if (noise_scale != 1.0) ledger.set_noise_scale(noise_scale);
        Rng rng(2024);
        const MethodResult r = info.make()->run(ds, p, rng, ledger);
        const auto& res = std::any_cast<const NdLaplaceResult&>(r.details);
        EXPECT_TRUE(res.probed);
        std::map<std::string, std::any> cache;
        MetricInput in{ds, r, p, info, 5, cache};
        EXPECT_EQ(metric("gi_violation").compute(in), res.gi.violated ? 1.0 : 0.0);
        return res;
      };
      const NdLaplaceResult ok = check(1.0);
      EXPECT_FALSE(ok.gi.violated) << "d " << d << " " << sampler << " lower " << ok.gi.max_lower_bound;
      EXPECT_LT(ok.gi.ratio(), 1.0) << "d " << d << " " << sampler;
      EXPECT_GT(ok.gi.events, 10u);
      // P_area of the calibrated mechanism (draw rate eps / 2 = 0.5): the mean Gamma(d, 2) radius 2 d.
      EXPECT_NEAR(ok.area.radius, 2.0 * static_cast<double>(d), 0.1 * static_cast<double>(d)) << sampler;
      const NdLaplaceResult under = check(0.25);
      EXPECT_TRUE(under.gi.violated) << "d " << d << " " << sampler << " lower " << under.gi.max_lower_bound;
      EXPECT_GT(under.gi.ratio(), 1.2) << "d " << d << " " << sampler;
      EXPECT_TRUE(check(0.0).gi.violated) << "d " << d << " " << sampler;
    }
  }
}

// The probe draws are evaluation only: they come from their own generator, after the release, so turning
// them on changes neither the released points nor the clustering, and nothing of them is released.
TEST(GeoCheck, ProbesLeaveTheReleaseUnchanged) {
  const MethodInfo& info = nd_laplace_method_info();
  const Dataset ds = thesis_blobs50();
  auto run = [&](std::int64_t draws) {
    const ParamSet p = params_for(info, {{"epsilon", 1.0}, {"privacy_probe_draws", draws}, {"gi_distance", 1.0}});
    BudgetLedger ledger(1.0, 0.0, NeighbourRelation::add_remove, PrivacyMeasure::local);
    Rng rng(8);
    MethodResult r = info.make()->run(ds, p, rng, ledger);
    EXPECT_EQ(ledger.entries().size(), 1u);  // the probes record nothing: they are not a release
    return r;
  };
  const MethodResult off = run(0), on = run(2000);
  EXPECT_EQ(off.labels, on.labels);
  EXPECT_EQ(off.release, on.release);
  EXPECT_EQ(std::any_cast<const NdLaplaceResult&>(off.details).released,
            std::any_cast<const NdLaplaceResult&>(on.details).released);
  EXPECT_FALSE(on.release.contains("gi_max_log_ratio"));
  EXPECT_TRUE(on.evaluation.contains("gi_max_log_ratio"));
  EXPECT_FALSE(on.diagnostics.contains("gi_max_log_ratio"));
  // A probe pair that leaves the box is a clear input error (thesis_blobs50's box is about 6 x 9).
  const ParamSet bad =
      params_for(info, {{"epsilon", 1.0}, {"privacy_probe_draws", std::int64_t{10}}, {"gi_distance", 50.0}});
  BudgetLedger ledger(1.0, 0.0, NeighbourRelation::add_remove, PrivacyMeasure::local);
  Rng rng(8);
  EXPECT_THROW(info.make()->run(ds, bad, rng, ledger), InputError);
}

TEST(PrivacyMetrics, Registered) {
  for (const char* name : {"mia_advantage", "mia_advantage_best", "reconstruction_error", "gi_ratio", "gi_violation",
                           "p_area_radius", "centroid_rel_error", "elbow_k_original", "kdistance_alpha_original"}) {
    const MetricInfo& m = metric(name);
    EXPECT_FALSE(m.needs_truth) << name;
    EXPECT_TRUE(m.applies_to("nd_laplace")) << name;
    EXPECT_FALSE(m.applies_to("kmeans")) << name;
  }
}

// The new paper configs validate with the real `dpclust` binary (next to this test's build directory);
// skipped when the binary has not been built.
TEST(NdLaplaceConfigs, Validate) {
  const std::filesystem::path exe = std::filesystem::read_symlink("/proc/self/exe");
  std::filesystem::path bin = exe.parent_path().parent_path() / "experiments" / "dpclust";
  if (!std::filesystem::exists(bin)) bin = exe.parent_path().parent_path() / "dpclust";
  if (!std::filesystem::exists(bin)) GTEST_SKIP() << "no dpclust binary next to " << exe;
  const std::filesystem::path root = kHere.parent_path().parent_path();
  for (const char* cfg : {"ndlaplace_privacy.yaml", "ndlaplace_rq2.yaml"}) {
    const std::string cmd = "'" + bin.string() + "' validate '" + (root / "configs" / "paper" / cfg).string() +
                            "' --load-data > /dev/null 2>&1";
    EXPECT_EQ(std::system(cmd.c_str()), 0) << cmd;
  }
}

}  // namespace
}  // namespace dpclust::ndlaplace
