// DSG_C, OCM, 2CE, F-measure and the cross-validated classifiers on small hand-made cases, and the
// registered metrics end to end.
#include "wavecluster/measures.hpp"

#include <gtest/gtest.h>

#include <any>
#include <map>
#include <string>
#include <vector>

#include "core/ledger.hpp"
#include "wavecluster/register.hpp"
#include "wavecluster/wc_test_util.hpp"

namespace dpclust::wavecluster {
namespace {

// A clustering of a 1 x 10 grid from per-cell cluster ids.
Clustering line(const std::vector<std::int32_t>& ids) {
  Clustering c;
  c.shape.dims = {1, ids.size()};
  c.cell_cluster = ids;
  std::int32_t mx = -1;
  for (auto x : ids) {
    mx = std::max(mx, x);
    c.n_significant += x >= 0;
  }
  c.n_clusters = static_cast<std::size_t>(mx + 1);
  return c;
}

TEST(DsgC, HandComputed) {
  // Truth: A = {0,1,2}, B = {5,6}, C = {9}; private: P = {0,1,3}, Q = {5,6}.
  // Best matching A-P (max(|{2}|, |{3}|) = 1), B-Q (0), C unmatched (1): cost 2, |T| = 6.
  const Clustering truth = line({0, 0, 0, -1, -1, 1, 1, -1, -1, 2});
  const Clustering priv = line({0, 0, -1, 0, -1, 1, 1, -1, -1, -1});
  EXPECT_DOUBLE_EQ(dsg_c(truth, priv), 2.0 / 6.0);
  // More private than true clusters: the unmatched private cluster costs its size (our extension).
  EXPECT_DOUBLE_EQ(dsg_c(priv, truth), 2.0 / 5.0);
  EXPECT_DOUBLE_EQ(dsg_c(truth, truth), 0.0);
  // No private cluster at all: every true cell is unmatched.
  EXPECT_DOUBLE_EQ(dsg_c(truth, line(std::vector<std::int32_t>(10, -1))), 1.0);
  // One private cluster covering two true clusters: matched to the larger one.
  // Truth A={0,1,2}, B={5,6}, C={9}; private {0,1,2,5,6}: A: max(0, 2) = 2, + B + C unmatched = 2 + 2 + 1.
  EXPECT_DOUBLE_EQ(dsg_c(truth, line({0, 0, 0, -1, -1, 0, 0, -1, -1, -1})), 5.0 / 6.0);
}

TEST(Ocm, HandComputed) {
  // Classes: 0 = C0. C0-C0: 1 point. Non-C0 table: t1 -> p2 (2), t1 -> p1 (1), t2 -> p3 (2).
  // Hungarian: t1-p2 + t2-p3 = 4; matched 5 of 7.
  const std::vector<std::int32_t> t = {0, 0, 1, 1, 1, 2, 2};
  const std::vector<std::int32_t> p = {0, 1, 2, 2, 1, 3, 3};
  EXPECT_NEAR(ocm(t, p), 2.0 / 7.0, 1e-15);
  EXPECT_DOUBLE_EQ(ocm(t, t), 0.0);
  // C0 is only matched to C0: swapping C0 with a cluster is a full mismatch for those points.
  EXPECT_DOUBLE_EQ(ocm({0, 0, 1, 1}, {1, 1, 0, 0}), 1.0);
  EXPECT_DOUBLE_EQ(ocm({1, 1, 2, 2}, {2, 2, 1, 1}), 0.0);  // cluster ids are arbitrary
}

TEST(TwoCe, MatchesPairEnumeration) {
  Rng rng(5);
  for (int trial = 0; trial < 50; ++trial) {
    const std::size_t n = 2 + rng.below(40);
    std::vector<std::int32_t> t(n), p(n);
    for (std::size_t i = 0; i < n; ++i) {
      t[i] = static_cast<std::int32_t>(rng.below(4));
      p[i] = static_cast<std::int32_t>(rng.below(5));
    }
    double bad = 0, all = 0;
    for (std::size_t i = 0; i < n; ++i)
      for (std::size_t j = i + 1; j < n; ++j) {
        all += 1;
        bad += (t[i] == t[j]) != (p[i] == p[j]);
      }
    EXPECT_NEAR(two_ce(t, p), bad / all, 1e-12);
  }
  // Hand case: t = {0,0,1}, p = {0,1,1}: pairs (0,1) same/diff, (0,2) diff/diff, (1,2) diff/same -> 2/3.
  EXPECT_NEAR(two_ce({0, 0, 1}, {0, 1, 1}), 2.0 / 3.0, 1e-15);
  EXPECT_DOUBLE_EQ(two_ce({3}, {1}), 0.0);
}

TEST(FMeasure, HandComputed) {
  // True cluster 0 (3 points): best private 0 (P = 1, R = 2/3, F = 0.8); true 1 (2 points): private 1
  // (P = 2/3, R = 1, F = 0.8). F = 0.6 * 0.8 + 0.4 * 0.8.
  EXPECT_NEAR(f_measure({0, 0, 0, 1, 1, -1}, {0, 0, 1, 1, 1, -1}), 0.8, 1e-12);
  EXPECT_DOUBLE_EQ(f_measure({0, 0, 1, 1}, {5, 5, 2, 2}), 1.0);
  EXPECT_DOUBLE_EQ(f_measure({0, 0, 1, 1}, {-1, -1, -1, -1}), 0.0);
  // Merging two true clusters: each has R = 1, P = 1/2 -> F = 2/3.
  EXPECT_NEAR(f_measure({0, 0, 1, 1}, {0, 0, 0, 0}), 2.0 / 3.0, 1e-12);
  EXPECT_DOUBLE_EQ(f_measure({-1, -1}, {-1, -1}), 1.0);
}

TEST(CellClassifier, ReproducesRectangularClusters) {
  // 6 x 6 grid, two 2 x 3 blocks: an unpruned tree separates them exactly.
  WaveClusterOutput r;
  r.clustering.shape.dims = {6, 6};
  r.clustering.cell_cluster.assign(36, -1);
  for (std::size_t a = 0; a < 2; ++a)
    for (std::size_t b = 0; b < 3; ++b) {
      r.clustering.cell_cluster[a * 6 + b] = 0;
      r.clustering.cell_cluster[(a + 4) * 6 + b + 3] = 1;
    }
  r.clustering.n_clusters = 2;
  r.clustering.n_significant = 12;
  const std::vector<std::int32_t> table = cell_classifier(r, C45Options{}, C0Grids::all);
  for (std::size_t i = 0; i < 36; ++i) EXPECT_EQ(table[i], r.clustering.cell_cluster[i] + 1) << i;
  // No cluster: everything is C0.
  WaveClusterOutput none;
  none.clustering.shape.dims = {3, 3};
  none.clustering.cell_cluster.assign(9, -1);
  EXPECT_EQ(cell_classifier(none, C45Options{}, C0Grids::all), std::vector<std::int32_t>(9, 0));
}

TEST(CrossValidation, NonPrivateAgainstItselfIsZeroAndDeterministic) {
  const Dataset ds = dpclust::testing::blobs_dataset(11);
  ParamSet ps = dpclust::testing::wc_params(40, 0.1);
  const WcParams wp = WcParams::from(ps, 2);
  auto mech = make_mechanism("wavecluster");
  CvResult r = cross_validate(ds, wp, ps, *mech, false, 42, CvOptions::from(ps));
  EXPECT_EQ(r.folds, 10u);
  EXPECT_DOUBLE_EQ(r.ocm, 0.0);
  EXPECT_DOUBLE_EQ(r.two_ce, 0.0);
  ps.set("epsilon", 1.0);
  ps.set("rho", 0.9);
  auto thr = make_mechanism("privthr");
  CvResult a = cross_validate(ds, wp, ps, *thr, true, 42, CvOptions::from(ps));
  CvResult b = cross_validate(ds, wp, ps, *thr, true, 42, CvOptions::from(ps));
  EXPECT_EQ(a.ocm, b.ocm);
  EXPECT_EQ(a.two_ce, b.two_ce);
  EXPECT_GT(a.ocm, 0.0);
  EXPECT_LT(a.ocm, 0.5);
}

TEST(RegisteredMetrics, EndToEndOnOneTrial) {
  const Dataset ds = dpclust::testing::blobs_dataset(12);
  const std::vector<MethodInfo> methods = wavecluster_methods();
  const std::vector<MetricInfo> metrics = wavecluster_folder().metrics;
  ASSERT_EQ(methods.size(), 5u);
  for (const auto& info : methods) {
    ParamSet ps = dpclust::testing::wc_params(40, 0.6);
    for (const auto& spec : info.params)
      if (!ps.has(spec.name)) ps.set(spec.name, spec.required() ? ParamValue(1.0) : spec.default_value);
    BudgetLedger ledger = info.differentially_private ? BudgetLedger(1.0) : BudgetLedger();
    Rng rng(3);
    MethodResult res = info.make()->run(ds, ps, rng, ledger);
    ledger.verify();
    std::map<std::string, std::any> cache;
    MetricInput in{ds, res, ps, info, 77, cache};
    std::map<std::string, double> v;
    for (const auto& m : metrics) v[m.name] = m.compute(in);
    EXPECT_EQ(cache.count("wavecluster.cv"), 1u) << info.name;
    if (info.name == "wavecluster") {
      EXPECT_EQ(v["dsg_c"], 0.0);
      EXPECT_EQ(v["ocm"], 0.0);
      EXPECT_EQ(v["f_measure"], 1.0);
      EXPECT_EQ(v["kprime_rel_error"], 0.0);
      EXPECT_EQ(v["wc_clusters"], 3.0);
    }
    for (const auto& [name, x] : v) {
      EXPECT_TRUE(std::isfinite(x)) << info.name << " " << name;
      EXPECT_GE(x, 0.0) << info.name << " " << name;
    }
  }
}

}  // namespace
}  // namespace dpclust::wavecluster
