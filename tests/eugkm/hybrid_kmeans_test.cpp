// The hybrid (engine/eugkm/hybrid_kmeans.hpp): its plan and split by hand, the ledger of each plan, DPLloyd
// from EUGkM's centres, accuracy, determinism, and the refusals.
#include <gtest/gtest.h>
#include <omp.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "eugkm/hybrid_kmeans.hpp"
#include "eugkm/register.hpp"

namespace dpclust::eugkm {
namespace hybrid_test {

const double kCentres[3][2] = {{-5, -5}, {5, -5}, {0, 5}};
const Bounds kBox{{-10, -10}, {10, 10}};

std::vector<double> blobs(std::size_t n) {
  Rng r(8);
  std::vector<double> p;
  for (std::size_t i = 0; i < n; ++i) {
    p.push_back(std::clamp(kCentres[i % 3][0] + 0.5 * r.normal(), -10.0, 10.0));
    p.push_back(std::clamp(kCentres[i % 3][1] + 0.5 * r.normal(), -10.0, 10.0));
  }
  return p;
}

HybridOptions options(std::size_t k, double epsilon) {
  HybridOptions o;
  o.eugkm.k = k;
  o.eugkm.epsilon = epsilon;
  return o;
}

TEST(HybridPlan, SplitAndIterationsByHand) {
  // N = 10^4, k = 3, d = 2: eps_m = sqrt(500 * 27 / 10^8 * (2 + cbrt(0.405))^3) = sqrt(1.35e-4 * 2.739864^3) =
  // 0.052694.
  HybridOptions o = options(3, 1.0);
  HybridSplit s = plan_hybrid(o, 10000, 1.0, 2, 2);
  EXPECT_NEAR(s.epsilon_m, 0.0526939, 1e-6);
  EXPECT_EQ(s.plan, HybridPlan::both);
  EXPECT_DOUBLE_EQ(s.epsilon_eugkm, 0.5);
  EXPECT_DOUBLE_EQ(s.epsilon_dplloyd, 0.5);
  EXPECT_EQ(s.iterations, 7);  // floor(0.5 / 0.0527) = 9, at most 7
  EXPECT_NEAR(s.grid_rule_at_share, std::sqrt(500.0), 1e-9);
  // eps' = 0.2: floor(0.1 / 0.0527) = 1 iteration.
  s = plan_hybrid(o, 10000, 0.2, 2, 2);
  EXPECT_EQ(s.plan, HybridPlan::both);
  EXPECT_EQ(s.iterations, 1);
  // eps' = 0.1: DPLloyd's share 0.05 < eps_m -> EUGkM alone with all of it.
  s = plan_hybrid(o, 10000, 0.1, 2, 2);
  EXPECT_EQ(s.plan, HybridPlan::eugkm_only);
  EXPECT_DOUBLE_EQ(s.epsilon_eugkm, 0.1);
  EXPECT_EQ(s.epsilon_dplloyd, 0.0);
  // ... unless the fallback is off: both, T >= 1.
  o.fallback = HybridFallback::none;
  s = plan_hybrid(o, 10000, 0.1, 2, 2);
  EXPECT_EQ(s.plan, HybridPlan::both);
  EXPECT_EQ(s.iterations, 1);
  // UCI Letter's shape (N = 2 * 10^4, d = 16, k = 26) at eps' = 0.095: EUGkM's share 0.0475 gives
  // (95)^(1/9) = 1.66 < 2 cells per dimension -> DPLloyd alone, T by diffprivlib's rule (at least 2).
  o = options(26, 0.1);
  s = plan_hybrid(o, 20000, 0.095, 16, 16);
  EXPECT_NEAR(s.grid_rule_at_share, 1.6586206, 1e-6);
  EXPECT_EQ(s.plan, HybridPlan::dplloyd_only);
  EXPECT_DOUBLE_EQ(s.epsilon_dplloyd, 0.095);
  EXPECT_EQ(s.iterations, 2);
  // At eps' = 0.95 the share gives 2.14 cells per dimension: EUGkM runs; eps_m at k = 26, d = 16 is large
  // (sqrt(500 * 17576 / 4e8 * (16 + 1.48)^3) = 10.83), so DPLloyd cannot follow: EUGkM alone.
  s = plan_hybrid(o, 20000, 0.95, 16, 16);
  EXPECT_NEAR(s.grid_rule_at_share, std::pow(950.0, 1.0 / 9), 1e-9);
  EXPECT_NEAR(s.epsilon_m, 10.832, 0.001);
  EXPECT_EQ(s.plan, HybridPlan::eugkm_only);
  // Fixed iterations are taken as given.
  o = options(3, 1.0);
  o.iterations = 3;
  EXPECT_EQ(plan_hybrid(o, 10000, 1.0, 2, 2).iterations, 3);
  o.eugkm_fraction = 0.8;
  EXPECT_NEAR(plan_hybrid(o, 10000, 1.0, 2, 2).epsilon_dplloyd, 0.2, 1e-15);
}

TEST(Hybrid, EveryPlanSpendsEpsilonAndDplloydStartsFromEugkm) {
  const std::vector<double> p = blobs(3000);
  struct Case {
    double epsilon;
    HybridPlan plan;
  };
  // N = 3000, k = 3, d = 2: eps_m = 0.1756; eps = 2 -> eps_D = 0.95 -> T = 5; eps = 0.3 -> eps_D = 0.1425 < eps_m.
  for (const Case& c : {Case{2.0, HybridPlan::both}, Case{0.3, HybridPlan::eugkm_only}}) {
    SCOPED_TRACE(c.epsilon);
    BudgetLedger ledger(c.epsilon);
    Rng rng(4);
    const HybridResult r = hybrid_kmeans(p.data(), 3000, kBox, options(3, c.epsilon), rng, ledger);
    EXPECT_NO_THROW(ledger.verify());
    EXPECT_EQ(r.plan, c.plan);
    EXPECT_NEAR(r.epsilon_eugkm + r.epsilon_dplloyd + r.size.epsilon, c.epsilon, 1e-12);
    ASSERT_TRUE(r.eugkm.has_value());
    if (c.plan == HybridPlan::both) {
      ASSERT_TRUE(r.dplloyd.has_value());
      EXPECT_EQ(r.dplloyd->initial_centers, r.eugkm->centers);
      EXPECT_EQ(r.dplloyd->iterations, r.iterations);
      EXPECT_EQ(r.centers, r.dplloyd->centers);
      // N, the histogram, then per iteration one count entry and two sum entries.
      EXPECT_EQ(ledger.entries().size(), 2 + 3 * static_cast<std::size_t>(r.iterations));
    } else {
      EXPECT_FALSE(r.dplloyd.has_value());
      EXPECT_EQ(r.centers, r.eugkm->centers);
      EXPECT_EQ(ledger.entries().size(), 2u);
    }
  }
  // DPLloyd alone: one cell per dimension at EUGkM's share (N eps_E / 10 < 4 in 2-D).
  BudgetLedger ledger(0.02);
  Rng rng(4);
  HybridOptions o = options(3, 0.02);
  o.eugkm.n_source = SizeSource::public_n;
  o.eugkm.n_public = 3000;
  const HybridResult r = hybrid_kmeans(p.data(), 3000, kBox, o, rng, ledger);
  EXPECT_EQ(r.plan, HybridPlan::dplloyd_only);
  EXPECT_FALSE(r.eugkm.has_value());
  EXPECT_NO_THROW(ledger.verify());
  EXPECT_EQ(ledger.entries().size(), 3 * static_cast<std::size_t>(r.iterations));
}

TEST(Hybrid, RunsDplloydAloneWhereNoGridHoldsK) {
  // Google's demo's 100 dimensions: EUGkM's grid rule gives one cell per dimension and no grid within max_grid_cells
  // holds k = 8 cells (2^100 > 2^22). The hybrid runs DPLloyd alone, at check time and at run time; EUGkM alone is
  // refused, saying it is a method for few dimensions.
  const std::size_t n = 2000, d = 100;
  Rng g(3);
  std::vector<double> p(n * d);
  for (double& x : p) x = std::clamp(0.3 * g.normal(), -1.0, 1.0);
  const Bounds box{std::vector<double>(d, -1.0), std::vector<double>(d, 1.0)};
  BudgetLedger ledger(1.0);
  Rng rng(5);
  const HybridResult r = hybrid_kmeans(p.data(), n, box, options(8, 1.0), rng, ledger);
  EXPECT_EQ(r.plan, HybridPlan::dplloyd_only);
  EXPECT_FALSE(r.eugkm.has_value());
  EXPECT_EQ(r.centers.rows(), 8);
  EXPECT_NO_THROW(ledger.verify());

  DataShape shape;
  shape.n = n;
  shape.n_exact = true;
  shape.d = d;
  shape.bounds = box;
  shape.dataset = "demo";
  ParamSet ps;
  for (const ParamSpec& s : hybrid_kmeans_method_info().params)
    if (!s.required()) ps.set(s.name, s.default_value);
  ps.set("k", std::int64_t{8});
  EXPECT_NO_THROW(hybrid_kmeans_method_info().check_shape(ps, shape));
  ParamSet pe;
  for (const ParamSpec& s : eugkm_method_info().params)
    if (!s.required()) pe.set(s.name, s.default_value);
  pe.set("k", std::int64_t{8});
  try {
    eugkm_method_info().check_shape(pe, shape);
    ADD_FAILURE() << "EUGkM ran a grid in 100 dimensions";
  } catch (const InputError& e) {
    EXPECT_EQ(e.where(), "params.max_grid_cells");
    EXPECT_NE(e.problem().find("cannot hold k = 8 centres in d = 100 dimensions"), std::string::npos) << e.problem();
    EXPECT_NE(e.fix().find("hybrid_kmeans"), std::string::npos) << e.fix();
  }
}

TEST(Hybrid, NoiselessDplloydDoesNotRaiseEugkmsCost) {
  // noise_scale 0: EUGkM's exact synopsis, then plain Lloyd from its centres; Lloyd never raises the cost.
  const std::vector<double> p = blobs(1500);
  BudgetLedger ledger(2.0);
  ledger.set_noise_scale(0.0);
  Rng rng(6);
  HybridOptions o = options(3, 2.0);
  o.iterations = 3;
  const HybridResult r = hybrid_kmeans(p.data(), 1500, kBox, o, rng, ledger);
  ASSERT_EQ(r.plan, HybridPlan::both);
  EXPECT_LE(r.inertia, r.eugkm_inertia * (1 + 1e-9));
  EXPECT_EQ(r.size.value, 1500.0);
}

TEST(Hybrid, FindsSeparatedBlobsAndIsTheSameOnAnyThreadCount) {
  const std::vector<double> p = blobs(6000);
  auto run = [&](int threads) {
    omp_set_num_threads(threads);
    BudgetLedger ledger(5.0);
    Rng rng(21);
    return hybrid_kmeans(p.data(), 6000, kBox, options(3, 5.0), rng, ledger);
  };
  const int before = omp_get_max_threads();
  const HybridResult one = run(1), four = run(3);
  omp_set_num_threads(before);
  EXPECT_EQ(one.centers, four.centers);
  EXPECT_EQ(one.labels, four.labels);
  ASSERT_EQ(one.plan, HybridPlan::both);
  for (const auto& c : kCentres) {
    double best = 1e300;
    for (Eigen::Index a = 0; a < 3; ++a)
      best = std::min(best, std::hypot(one.centers(a, 0) - c[0], one.centers(a, 1) - c[1]));
    EXPECT_LT(best, 0.3);
  }
}

TEST(Hybrid, BadParametersAreInputErrors) {
  const std::vector<double> p = blobs(300);
  auto key = [&](HybridOptions o) -> std::string {
    try {
      BudgetLedger ledger(1.0);
      Rng rng(1);
      hybrid_kmeans(p.data(), 300, kBox, o, rng, ledger);
    } catch (const InputError& e) {
      return e.where();
    }
    return "(no error)";
  };
  HybridOptions o = options(3, 1.0);
  o.eugkm_fraction = 1.0;
  EXPECT_EQ(key(o), "params.eugkm_fraction");
  o = options(3, 1.0);
  o.eugkm_fraction = 0.0;
  EXPECT_EQ(key(o), "params.eugkm_fraction");
  o = options(3, 1.0);
  o.iterations = -1;
  EXPECT_EQ(key(o), "params.iterations");
  EXPECT_EQ(key(options(0, 1.0)), "params.k");
  o = options(3, 1.0);
  o.eugkm.n_source = SizeSource::public_n;
  EXPECT_EQ(key(o), "params.n_public");
}

TEST(HybridMethod, ReleaseNamesThePlanAndBothCentreSets) {
  const MethodInfo& m = hybrid_kmeans_method_info();
  Dataset data;
  data.name = "blobs";
  data.d = 2;
  data.coords = blobs(3000);
  data.n = 3000;
  data.bounds = kBox;
  ParamSet ps;
  for (const ParamSpec& s : m.params)
    if (!s.required()) ps.set(s.name, s.default_value);
  ps.set("k", std::int64_t{3});
  ps.set("epsilon", 2.0);
  BudgetLedger ledger(2.0);
  Rng rng(2);
  const MethodResult r = m.make()->run(data, ps, rng, ledger);
  EXPECT_EQ(r.diagnostics["plan"], "eugkm+dplloyd");
  EXPECT_EQ(r.release["centers"].size(), 3u);
  EXPECT_EQ(r.release["eugkm_centers"].size(), 3u);
  EXPECT_EQ(r.centres.rows(), 3);
  EXPECT_TRUE(r.non_private_notes.empty());
  EXPECT_NO_THROW(ledger.verify());
  EXPECT_FALSE(ledger.unbounded());
  // n_source: data: the plan, the split and T are functions of the true n. The ledger is data-derived (no
  // epsilon is stated for the trial) and those numbers leave the public diagnostics for the evaluation.
  ps.set("n_source", std::string("data"));
  BudgetLedger l2(2.0);
  const MethodResult t = m.make()->run(data, ps, rng, l2);
  EXPECT_NO_THROW(l2.verify());
  EXPECT_TRUE(l2.unbounded());
  EXPECT_TRUE(l2.data_derived());
  EXPECT_EQ(t.diagnostics, nlohmann::json({{"n_source", "data"}}));
  for (const char* key : {"plan", "epsilon_eugkm", "dplloyd_iterations", "cells_per_dim"})
    EXPECT_TRUE(t.evaluation.contains(key)) << key;
}

}  // namespace hybrid_test
}  // namespace dpclust::eugkm
