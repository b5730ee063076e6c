#include <gtest/gtest.h>

#include <any>
#include <filesystem>
#include <cmath>
#include <map>
#include <string>

#include "core/error.hpp"
#include "io/csv.hpp"
#include "data/generators.hpp"
#include "ndlaplace/nd_laplace.hpp"
#include "ndlaplace/privacy.hpp"
#include "ndlaplace/register.hpp"

namespace dpclust::ndlaplace {
namespace {

// The thesis's dataset 1 (Sec. 5.1): 50 points, 4 centres, 2 dimensions, sd 0.6; bounds = bounding box.
Dataset thesis_blobs(std::size_t d = 2) {
  BlobsOptions o;
  o.n_samples = 50;
  o.n_centers = 4;
  o.n_features = d;
  o.cluster_std = {0.6};
  o.seed = 0;
  Dataset ds = make_blobs(o);
  ds.bounds = bounding_box(ds);
  return ds;
}

ParamSet params_for(const MethodInfo& info, std::map<std::string, ParamValue> set) {
  ParamSet p;
  for (const auto& spec : info.params)
    if (!spec.required()) p.set(spec.name, spec.default_value);
  for (auto& [k, v] : set) p.set(k, v);
  return p;
}

const MetricInfo& metric(const std::string& name) {
  static const auto all = ndlaplace_metrics();
  for (const auto& m : all)
    if (m.name == name) return m;
  throw std::logic_error("no metric " + name);
}

// tests/ndlaplace/thesis_blobs50.csv (used by configs/paper/ndlaplace_table54.yaml) is dpclust's
// make_blobs(50, cluster_std 0.6, seed 0) around the four centres scikit-learn's
// make_blobs(centers=4, random_state=0) draws, np.random.RandomState(0).uniform(-10, 10, (4, 2)); the
// points differ from numpy's (dpclust::Rng), the layout and the domain are the thesis's likely ones.
TEST(ThesisData, FileIsReproducibleFromTheGenerator) {
  BlobsOptions o;
  o.n_samples = 50;
  o.centers = {{0.9762700785464951, 4.30378732744839}, {2.055267521432878, 0.8976636599379368},
               {-1.5269040132219054, 2.917882261333123}, {-1.2482557747461502, 7.835460015641594}};
  o.cluster_std = {0.6};
  o.seed = 0;
  const Dataset gen = make_blobs(o);
  CsvOptions c;
  c.label = "label";
  const Dataset file = load_csv(std::filesystem::path(__FILE__).parent_path() / "thesis_blobs50.csv", c);
  EXPECT_EQ(file.coords, gen.coords);
  EXPECT_EQ(file.labels, gen.labels);
}

TEST(PE, FormulaAndAverages) {
  EXPECT_DOUBLE_EQ(pe(1.0, 0.0), 0.5);
  EXPECT_NEAR(pe(2.0, 1.5), 1.0 / (1.0 + std::exp(3.0)), 1e-15);
  // Two original points at distance 2, released exactly (z = x).
  const double x[] = {0, 0, 2, 0};
  Rng rng(1);
  const double full = (2 * 0.5 + 2 * pe(0.5, 2.0)) / 4;  // the n x n matrix, diagonal included
  EXPECT_NEAR(average_pe(x, x, 2, 2, 0.5, PePairs::original, 100, rng).value, full, 1e-15);
  EXPECT_NEAR(average_pe(x, x, 2, 2, 0.5, PePairs::perturbed, 100, rng).value, full, 1e-15);
  EXPECT_NEAR(average_pe(x, x, 2, 2, 0.5, PePairs::self, 100, rng).value, 0.5, 1e-15);
  // Sampled estimate of the same mean.
  const PeEstimate est = average_pe(x, x, 2, 2, 0.5, PePairs::cross, 3, rng);
  EXPECT_TRUE(est.estimated);
  EXPECT_EQ(est.pairs, 3u);
}

TEST(NdLaplaceMethod, LedgerReleaseAndMetrics) {
  const MethodInfo& info = nd_laplace_method_info();
  EXPECT_TRUE(info.differentially_private);
  EXPECT_TRUE(info.needs_bounds);
  const Dataset ds = thesis_blobs();
  for (const char* algo : {"kmeans", "affinity", "dbscan"}) {
    const ParamSet p = params_for(info, {{"epsilon", 1.0}, {"cluster", std::string(algo)}});
    BudgetLedger ledger(1.0);
    Rng rng(9);
    MethodResult r = info.make()->run(ds, p, rng, ledger);
    EXPECT_NO_THROW(ledger.verify());
    ASSERT_EQ(ledger.entries().size(), 1u);
    EXPECT_NE(ledger.entries()[0].note.find("not central"), std::string::npos);
    ASSERT_EQ(r.labels.size(), ds.n);
    EXPECT_TRUE(r.labels_are_release);
    ASSERT_TRUE(r.release.contains("points"));
    ASSERT_EQ(r.release["points"].size(), ds.n);
    for (const auto& pt : r.release["points"]) {
      const std::vector<double> z = pt.get<std::vector<double>>();
      EXPECT_TRUE(ds.bounds.contains(z.data()));  // resample (default) truncation
    }
    std::map<std::string, std::any> cache;
    MetricInput in{ds, r, p, info, 77, cache};
    const double ari = metric("ari_vs_original").compute(in);
    const double ami = metric("ami_vs_original").compute(in);
    EXPECT_EQ(cache.size(), 1u);  // the original-data clustering is computed once for both
    EXPECT_LE(ari, 1.0);
    EXPECT_LE(ami, 1.0);
    EXPECT_GT(metric("avg_pe").compute(in), 0.0);
    EXPECT_LT(metric("avg_pe").compute(in), 0.5);
    EXPECT_GT(metric("avg_distance").compute(in), 0.0);
  }
}

// With a negligible perturbation the clustering of the perturbed data equals the original one.
TEST(NdLaplaceMethod, TinyNoiseReproducesTheOriginalClustering) {
  const MethodInfo& info = nd_laplace_method_info();
  const Dataset ds = thesis_blobs();
  for (const char* algo : {"kmeans", "affinity", "dbscan"}) {
    const ParamSet p = params_for(info, {{"epsilon", 1e9}, {"cluster", std::string(algo)}, {"alpha", 0.3}});
    BudgetLedger ledger(1e9);
    Rng rng(4);
    MethodResult r = info.make()->run(ds, p, rng, ledger);
    std::map<std::string, std::any> cache;
    MetricInput in{ds, r, p, info, 5, cache};
    EXPECT_DOUBLE_EQ(metric("ari_vs_original").compute(in), 1.0) << algo;
    EXPECT_DOUBLE_EQ(metric("ami_vs_original").compute(in), 1.0) << algo;
    EXPECT_LT(metric("avg_distance").compute(in), 1e-7);
  }
}

// An Affinity Propagation run that does not converge labels everything -1; ARI against another such
// run would be a meaningless 1.0, so the metric is NaN (left out of the averages).
TEST(NdLaplaceMethod, UnconvergedAffinityGivesNaN) {
  const MethodInfo& info = nd_laplace_method_info();
  const Dataset ds = thesis_blobs();
  const ParamSet p = params_for(info, {{"epsilon", 1.0}, {"cluster", std::string("affinity")}, {"ap_max_iter", std::int64_t{3}}});
  BudgetLedger ledger(1.0);
  Rng rng(2);
  MethodResult r = info.make()->run(ds, p, rng, ledger);
  EXPECT_EQ(r.diagnostics["converged"].get<int>(), 0);
  std::map<std::string, std::any> cache;
  MetricInput in{ds, r, p, info, 5, cache};
  EXPECT_TRUE(std::isnan(metric("ari_vs_original").compute(in)));
  EXPECT_TRUE(std::isnan(metric("ami_vs_original").compute(in)));
}

// radius r: epsilon is the level l at distance r, the rate is l / r (thesis Sec. 3.1.3).
TEST(NdLaplaceMethod, EpsilonFromLevelAndRadius) {
  const MethodInfo& info = nd_laplace_method_info();
  const Dataset ds = thesis_blobs(3);
  const ParamSet a = params_for(info, {{"epsilon", 2.0}, {"radius", 4.0}});
  const ParamSet b = params_for(info, {{"epsilon", 0.5}});
  BudgetLedger la(2.0), lb(0.5);
  Rng ra(3), rb(3);
  const MethodResult x = info.make()->run(ds, a, ra, la);
  const MethodResult y = info.make()->run(ds, b, rb, lb);
  EXPECT_EQ(x.release["points"], y.release["points"]);  // same rate 0.5, same noise
  EXPECT_DOUBLE_EQ(x.diagnostics["rate"].get<double>(), 0.5);
  EXPECT_NO_THROW(la.verify());
}

TEST(NdLaplaceMethod, Registered) {
  bool nd = false, ap = false;
  for (const auto& m : ndlaplace_methods()) {
    nd = nd || m.name == "nd_laplace";
    ap = ap || m.name == "affinity_propagation";
  }
  EXPECT_TRUE(nd);
  EXPECT_TRUE(ap);
  for (const auto& m : ndlaplace_metrics()) {
    EXPECT_TRUE(m.applies_to("nd_laplace")) << m.name;
    EXPECT_FALSE(m.applies_to("kmeans")) << m.name;
  }
}

}  // namespace
}  // namespace dpclust::ndlaplace
