#include <gtest/gtest.h>

#include <any>
#include <cmath>
#include <filesystem>
#include <map>
#include <string>

#include "core/error.hpp"
#include "data/generators.hpp"
#include "io/csv.hpp"
#include "ndlaplace/nd_laplace.hpp"
#include "ndlaplace/privacy.hpp"
#include "ndlaplace/register.hpp"
#include "privacy/mechanism.hpp"

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

// nd_laplace is a local (per-record, metric) mechanism: the runner builds it a local ledger.
BudgetLedger local_ledger(double epsilon) {
  return BudgetLedger(epsilon, 0.0, NeighbourRelation::add_remove, PrivacyMeasure::local);
}

const MetricInfo& metric(const std::string& name) {
  static const auto all = ndlaplace_folder().metrics;
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
  o.centers = {{0.9762700785464951, 4.30378732744839},
               {2.055267521432878, 0.8976636599379368},
               {-1.5269040132219054, 2.917882261333123},
               {-1.2482557747461502, 7.835460015641594}};
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
    BudgetLedger ledger = local_ledger(1.0);
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
    BudgetLedger ledger = local_ledger(1e9);
    Rng rng(4);
    MethodResult r = info.make()->run(ds, p, rng, ledger);
    std::map<std::string, std::any> cache;
    MetricInput in{ds, r, p, info, 5, cache};
    EXPECT_DOUBLE_EQ(metric("ari_vs_original").compute(in), 1.0) << algo;
    EXPECT_DOUBLE_EQ(metric("ami_vs_original").compute(in), 1.0) << algo;
    EXPECT_LT(metric("avg_distance").compute(in), 1e-7);
  }
}

// The original-data clustering of Affinity Propagation and DBSCAN (no random numbers) is computed once per
// dataset and parameters when the run's DatasetCache is given; K-Means (seeded per trial) stays per trial. Every
// metric value is the one without the cache, across trials with different metric seeds.
TEST(NdLaplaceMethod, SharedOriginalClusteringGivesTheSameScores) {
  const MethodInfo& info = nd_laplace_method_info();
  const Dataset ds = thesis_blobs();
  for (const char* algo : {"kmeans", "affinity", "dbscan"}) {
    DatasetCache shared;
    for (std::uint64_t trial = 0; trial < 3; ++trial) {
      const ParamSet p = params_for(info, {{"epsilon", 2.0}, {"cluster", std::string(algo)}, {"alpha", 0.3}});
      BudgetLedger ledger = local_ledger(2.0);
      Rng rng(30 + trial);
      const MethodResult r = info.make()->run(ds, p, rng, ledger);
      std::map<std::string, std::any> c1, c2;
      const MetricInput alone{ds, r, p, info, 100 + trial, c1}, with{ds, r, p, info, 100 + trial, c2, &shared};
      for (const char* m : {"ari_vs_original", "ami_vs_original"}) {
        const double a = metric(m).compute(alone), b = metric(m).compute(with);
        EXPECT_TRUE(a == b || (std::isnan(a) && std::isnan(b))) << algo << " " << m << " trial " << trial;
      }
    }
    EXPECT_EQ(shared.size(), std::string(algo) == "kmeans" ? 0u : 1u) << algo;
  }
}

// An Affinity Propagation run that does not converge labels everything -1; ARI against another such
// run would be a meaningless 1.0, so the metric is NaN (left out of the averages).
TEST(NdLaplaceMethod, UnconvergedAffinityGivesNaN) {
  const MethodInfo& info = nd_laplace_method_info();
  const Dataset ds = thesis_blobs();
  const ParamSet p =
      params_for(info, {{"epsilon", 1.0}, {"cluster", std::string("affinity")}, {"ap_max_iter", std::int64_t{3}}});
  BudgetLedger ledger = local_ledger(1.0);
  Rng rng(2);
  MethodResult r = info.make()->run(ds, p, rng, ledger);
  EXPECT_EQ(r.diagnostics["converged"].get<int>(), 0);
  EXPECT_FALSE(std::any_cast<NdLaplaceResult>(r.details).converged);
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
  BudgetLedger la = local_ledger(2.0), lb = local_ledger(0.5);
  Rng ra(3), rb(3);
  const MethodResult x = info.make()->run(ds, a, ra, la);
  const MethodResult y = info.make()->run(ds, b, rb, lb);
  EXPECT_EQ(x.release["points"], y.release["points"]);  // same rate 0.5, same noise
  EXPECT_DOUBLE_EQ(x.diagnostics["rate"].get<double>(), 0.5);
  EXPECT_NO_THROW(la.verify());
}

// nD-Laplace is a local, metric guarantee: the method asks for a local ledger, its one entry is typed
// (measure local, sensitivity 1 per unit distance in the "metric" norm), and a central ledger refuses it.
TEST(NdLaplaceMethod, RecordsALocalMetricEntry) {
  const MethodInfo& info = nd_laplace_method_info();
  EXPECT_TRUE(info.local_privacy);
  const Dataset ds = thesis_blobs();
  const ParamSet p = params_for(info, {{"epsilon", 1.0}});
  BudgetLedger ledger = local_ledger(1.0);
  Rng rng(1);
  info.make()->run(ds, p, rng, ledger);
  EXPECT_NO_THROW(ledger.verify());
  ASSERT_EQ(ledger.entries().size(), 1u);
  const BudgetEntry& e = ledger.entries()[0];
  EXPECT_EQ(e.measure, PrivacyMeasure::local);
  EXPECT_EQ(e.mechanism, "planar_laplace (grid, exact)");
  EXPECT_EQ(e.sensitivity, 1.0);
  EXPECT_EQ(e.sensitivity_norm, "metric");
  EXPECT_DOUBLE_EQ(e.epsilon, 1.0);
  // The local ledger refuses a central entry (it cannot be composed with the metric guarantee) ...
  EXPECT_THROW(privacy::CountMechanism::laplace(ledger, privacy::Sampler::secure, 1.0, 0.5, "a central count"),
               std::logic_error);
  BudgetEntry central_entry;
  central_entry.step = "a central entry";
  central_entry.epsilon = 0.5;
  central_entry.measure = PrivacyMeasure::pure;
  EXPECT_THROW(ledger.charge(central_entry), std::logic_error);
  EXPECT_EQ(ledger.entries().size(), 1u);
}

TEST(NdLaplaceMethod, CentralLedgerIsRefused) {
  const MethodInfo& info = nd_laplace_method_info();
  const Dataset ds = thesis_blobs();
  const ParamSet p = params_for(info, {{"epsilon", 1.0}});
  Rng rng(1);
  // ... and the mechanism refuses a central ledger: its guarantee is not central eps-DP.
  BudgetLedger central(1.0);
  EXPECT_THROW(info.make()->run(ds, p, rng, central), std::logic_error);
  EXPECT_TRUE(central.entries().empty());
  // The nD name for d != 2.
  const Dataset ds3 = thesis_blobs(3);
  BudgetLedger l3 = local_ledger(1.0);
  info.make()->run(ds3, p, rng, l3);
  EXPECT_EQ(l3.entries()[0].mechanism, "nd_laplace (grid, exact)");
}

// Resampling conditions the noise on the domain, whose normalising constant depends on x: noise drawn at
// rate e is only 2e-geo-indistinguishable. Default (resampling_budget: halve): the draws run at
// epsilon / 2 and the ledger records epsilon, which then holds. So epsilon = 2 under `halve` releases
// exactly what epsilon = 1 under the thesis's reading releases (same draw rate, same stream), while the
// ledgers record 2 and 1, and only the thesis reading is flagged.
TEST(NdLaplaceMethod, ResamplingDrawsAtHalfTheRecordedEpsilon) {
  const MethodInfo& info = nd_laplace_method_info();
  const Dataset ds = thesis_blobs();
  for (const char* sampler : {"textbook", "secure"}) {
    const ParamSet halve = params_for(info, {{"epsilon", 2.0}, {"sampler", std::string(sampler)}, {"grid_step", 0.01}});
    const ParamSet thesis = params_for(info, {{"epsilon", 1.0},
                                              {"sampler", std::string(sampler)},
                                              {"grid_step", 0.01},
                                              {"resampling_budget", std::string("thesis")}});
    BudgetLedger lh = local_ledger(2.0), lt = local_ledger(1.0);
    Rng rh(21), rt(21);
    const MethodResult h = info.make()->run(ds, halve, rh, lh);
    const MethodResult t = info.make()->run(ds, thesis, rt, lt);
    EXPECT_NO_THROW(lh.verify());
    EXPECT_NO_THROW(lt.verify());
    EXPECT_DOUBLE_EQ(lh.entries()[0].epsilon, 2.0);
    EXPECT_DOUBLE_EQ(lt.entries()[0].epsilon, 1.0);
    EXPECT_DOUBLE_EQ(std::any_cast<NdLaplaceResult>(h.details).draw_rate, 1.0);  // 2 / 2
    EXPECT_DOUBLE_EQ(std::any_cast<NdLaplaceResult>(t.details).draw_rate, 1.0);  // the thesis: eps per draw
    EXPECT_EQ(h.release["points"], t.release["points"]) << sampler;
    EXPECT_NE(lh.entries()[0].note.find("normalising constant"), std::string::npos);
    auto flagged = [](const MethodResult& r) {
      for (const auto& n : r.non_private_notes)
        if (n.find("resampling_budget: thesis") != std::string::npos && n.find("2 epsilon") != std::string::npos)
          return true;
      return false;
    };
    EXPECT_FALSE(flagged(h));
    EXPECT_TRUE(flagged(t));
  }
  // Remapping is post-processing: the textbook sampler keeps the full rate there.
  const ParamSet remap =
      params_for(info, {{"epsilon", 2.0}, {"sampler", std::string("textbook")}, {"truncation", std::string("remap")}});
  BudgetLedger lr = local_ledger(2.0);
  Rng rr(3);
  const MethodResult r = info.make()->run(ds, remap, rr, lr);
  EXPECT_DOUBLE_EQ(std::any_cast<NdLaplaceResult>(r.details).draw_rate, 2.0);
}

// sampler: secure (the default) releases grid points sampled exactly, in every dimension, unflagged;
// sampler: textbook is the thesis's continuous sampler, flagged with the shared note.
TEST(NdLaplaceMethod, SecureSamplerByDefaultTextbookFlagged) {
  const MethodInfo& info = nd_laplace_method_info();
  bool declared = false;
  for (const auto& spec : info.params)
    if (spec.name == "sampler") {
      declared = true;
      EXPECT_EQ(spec.default_value, ParamValue(std::string("secure")));
    }
  EXPECT_TRUE(declared);
  for (std::size_t d : {2u, 3u, 5u}) {
    const Dataset ds = thesis_blobs(d);
    const ParamSet p = params_for(info, {{"epsilon", 1.0}});
    BudgetLedger ledger = local_ledger(1.0);
    Rng rng(8);
    const MethodResult r = info.make()->run(ds, p, rng, ledger);
    const auto& res = std::any_cast<const NdLaplaceResult&>(r.details);
    ASSERT_GT(res.grid_step, 0.0);
    for (const auto& pt : r.release["points"]) {
      const auto z = pt.get<std::vector<double>>();
      for (std::size_t j = 0; j < d; ++j) {
        const auto k = std::llround((z[j] - ds.bounds.lo[j]) / res.grid_step);
        EXPECT_EQ(z[j], ds.bounds.lo[j] + res.grid_step * static_cast<double>(k)) << "d = " << d;  // a grid point
      }
      EXPECT_TRUE(ds.bounds.contains(z.data()));
    }
    for (const auto& n : r.non_private_notes) EXPECT_NE(n, privacy::kTextbookSamplerNote);
  }
  const Dataset ds = thesis_blobs();
  BudgetLedger ledger = local_ledger(1.0);
  Rng rng(8);
  const MethodResult r =
      info.make()->run(ds, params_for(info, {{"epsilon", 1.0}, {"sampler", std::string("textbook")}}), rng, ledger);
  EXPECT_EQ(ledger.entries()[0].mechanism, "planar_laplace (textbook)");
  bool noted = false;
  for (const auto& n : r.non_private_notes) noted = noted || n == privacy::kTextbookSamplerNote;
  EXPECT_TRUE(noted);
}

// truncation: auto (the default) resamples (thesis Alg. 1) where the public numbers say it finishes and
// remaps in many dimensions, where resampling stops every trial: the thesis's 2-d data resample as before,
// bit for bit; 12-d data (2^12 draws at least for a point in a corner, over max_retries / 10) are remapped.
TEST(NdLaplaceMethod, DefaultTruncationIsTheOneThatRuns) {
  const MethodInfo& info = nd_laplace_method_info();
  for (const auto& spec : info.params) {
    if (spec.name == "truncation") {
      EXPECT_EQ(spec.default_value, ParamValue(std::string("auto")));
    }
  }
  const Dataset ds = thesis_blobs();
  const auto run = [&](const Dataset& data, std::map<std::string, ParamValue> set) {
    BudgetLedger ledger = local_ledger(1.0);
    Rng rng(21);
    return info.make()->run(data, params_for(info, std::move(set)), rng, ledger);
  };
  const MethodResult automatic = run(ds, {{"epsilon", 1.0}});
  const MethodResult resample = run(ds, {{"epsilon", 1.0}, {"truncation", std::string("resample")}});
  EXPECT_EQ(automatic.release["truncation"], "resample");
  EXPECT_EQ(automatic.release["points"], resample.release["points"]);
  EXPECT_EQ(automatic.release["truncation_auto"]["chosen"], "resample");
  EXPECT_EQ(automatic.release["truncation_auto"]["corner_draws"], 4.0);
  EXPECT_EQ(automatic.release["truncation_auto"]["limit"], 1000.0);
  EXPECT_FALSE(resample.release.contains("truncation_auto"));

  Dataset wide = thesis_blobs(12);
  const std::string fails = [&] {
    try {
      run(wide, {{"epsilon", 1.0},
                 {"truncation", std::string("resample")},
                 {"sampler", std::string("textbook")},
                 {"max_retries", std::int64_t{200}}});
    } catch (const InputError& e) {
      return std::string(e.what());
    }
    return std::string();
  }();
  EXPECT_NE(fails.find("did not bring point"), std::string::npos) << fails;
  const MethodResult remapped =
      run(wide, {{"epsilon", 1.0}, {"sampler", std::string("textbook")}, {"max_retries", std::int64_t{200}}});
  EXPECT_EQ(remapped.release["truncation"], "remap");
  EXPECT_EQ(remapped.release["truncation_auto"]["corner_draws"], 4096.0);
  EXPECT_NE(
      remapped.release["truncation_auto"]["reason"].get<std::string>().find("not both at most max_retries / 10 = 20"),
      std::string::npos)
      << remapped.release["truncation_auto"];
  for (const auto& pt : remapped.release["points"])
    EXPECT_TRUE(wide.bounds.contains(pt.get<std::vector<double>>().data()));
  // The thesis's reading of resampling keeps it, whatever the shape.
  EXPECT_EQ(choose_truncation("auto", 1.0, 1.0, ResamplingBudget::thesis, 10000, 12, wide.bounds).truncation,
            Truncation::resample);
}

TEST(NdLaplaceMechanism, ExpectedResampleDrawsByHand) {
  // Box 4 x 2, d = 2, rate 1: mean noise length 2, so (1 + 2 / 4) (1 + 2 / 2) = 3 draws.
  Bounds b;
  b.lo = {0, 0};
  b.hi = {4, 2};
  EXPECT_DOUBLE_EQ(expected_resample_draws(2, 1.0, b), 3.0);
  EXPECT_EQ(expected_resample_draws(3, 1.0, b), 0.0);  // bounds of another dimension: unknown
  // auto: epsilon 2 draws at rate 1 (halved for resampling): 3 <= 1000 and 2^2 = 4 <= 1000.
  const TruncationChoice c = choose_truncation("auto", 2.0, 1.0, ResamplingBudget::halve, 10000, 2, b);
  EXPECT_EQ(c.truncation, Truncation::resample);
  EXPECT_DOUBLE_EQ(c.expected_draws, 3.0);
  // A radius 1000 times larger: the noise's mean length 2000 against sides 4 and 2, about 5e5 draws: remap.
  EXPECT_EQ(choose_truncation("auto", 2.0, 1000.0, ResamplingBudget::halve, 10000, 2, b).truncation, Truncation::remap);
  EXPECT_EQ(choose_truncation("remap", 2.0, 1.0, ResamplingBudget::halve, 10000, 2, b).truncation, Truncation::remap);
  EXPECT_FALSE(choose_truncation("none", 2.0, 1.0, ResamplingBudget::halve, 10000, 2, b).automatic);
}

// Statistics of the true points (draw counts, distances to the true points, p_e) are evaluation, not
// diagnostics; the metrics read the typed NdLaplaceResult, not string keys.
TEST(NdLaplaceMethod, TrueDataStatisticsAreEvaluationOnly) {
  const MethodInfo& info = nd_laplace_method_info();
  const Dataset ds = thesis_blobs();
  for (const char* truncation : {"resample", "remap"}) {
    const ParamSet p = params_for(info, {{"epsilon", 0.3}, {"truncation", std::string(truncation)}});
    BudgetLedger ledger = local_ledger(0.3);
    Rng rng(12);
    MethodResult r = info.make()->run(ds, p, rng, ledger);
    for (const char* key : {"draws_per_point", "max_draws_point", "remapped_points", "avg_pe", "avg_distance",
                            "pe_pairs_evaluated", "pe_estimated"}) {
      EXPECT_FALSE(r.diagnostics.contains(key)) << key;
      EXPECT_TRUE(r.evaluation.contains(key)) << key;
    }
    const auto& res = std::any_cast<const NdLaplaceResult&>(r.details);
    // Metrics from the typed result: clearing the JSON maps changes nothing.
    std::map<std::string, std::any> cache;
    MetricInput in{ds, r, p, info, 3, cache};
    const double pe = metric("avg_pe").compute(in), dist = metric("avg_distance").compute(in);
    EXPECT_EQ(pe, res.pe.value);
    EXPECT_EQ(dist, res.perturbation.avg_distance);
    r.diagnostics = nlohmann::json::object();
    r.evaluation = nlohmann::json::object();
    EXPECT_EQ(metric("avg_pe").compute(in), pe);
    EXPECT_EQ(metric("avg_distance").compute(in), dist);
    EXPECT_FALSE(std::isnan(metric("ari_vs_original").compute(in)));
    // Without the typed result the metrics refuse instead of guessing.
    r.details.reset();
    EXPECT_THROW(metric("avg_pe").compute(in), std::logic_error);
  }
}

// Testable noise: a zero-noise run releases the input itself, and its clustering is the non-private one.
TEST(NdLaplaceMethod, ZeroNoiseReleasesTheInput) {
  const MethodInfo& info = nd_laplace_method_info();
  const Dataset ds = thesis_blobs();
  for (const char* sampler : {"secure", "textbook"}) {
    for (const char* algo : {"kmeans", "affinity", "dbscan"}) {
      const ParamSet p =
          params_for(info, {{"epsilon", 0.5}, {"cluster", std::string(algo)}, {"sampler", std::string(sampler)}});
      BudgetLedger ledger = local_ledger(0.5);
      ledger.set_noise_scale(0.0);
      Rng rng(4);
      MethodResult r = info.make()->run(ds, p, rng, ledger);
      EXPECT_NO_THROW(ledger.verify());
      for (std::size_t i = 0; i < ds.n; ++i)
        EXPECT_EQ(r.release["points"][i].get<std::vector<double>>(),
                  std::vector<double>(ds.point(i), ds.point(i) + ds.d));
      std::map<std::string, std::any> cache;
      MetricInput in{ds, r, p, info, 5, cache};
      EXPECT_DOUBLE_EQ(metric("ari_vs_original").compute(in), 1.0) << algo;
      EXPECT_DOUBLE_EQ(metric("avg_distance").compute(in), 0.0) << algo;
    }
  }
}

TEST(NdLaplaceMethod, Registered) {
  // The folder registers its own method; the clusterings it runs are registered by theirs (cluster/*).
  ASSERT_EQ(ndlaplace_folder().methods.size(), 1u);
  EXPECT_EQ(ndlaplace_folder().methods[0].name, "nd_laplace");
  for (const auto& m : ndlaplace_folder().metrics) {
    EXPECT_TRUE(m.applies_to("nd_laplace")) << m.name;
    EXPECT_FALSE(m.applies_to("kmeans")) << m.name;
  }
}

}  // namespace
}  // namespace dpclust::ndlaplace
