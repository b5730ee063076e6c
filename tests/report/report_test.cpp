// The report's verdict logic on fixture numbers: holds / within seed variance / differs / not run for
// values, the three kinds of computed claims, the protocol schema, reasons and running times.
#include <gtest/gtest.h>
#include <cmath>

#include "core/error.hpp"
#include "report/report.hpp"
#include "test_support.hpp"

using namespace dpclust::report;
using json = nlohmann::json;

namespace {

json cell(const std::string& dataset, const std::string& series, double eps, const std::string& metric, double mean,
          std::vector<double> ci = {}) {
  json agg{{"n", 3}, {"mean", mean}};
  agg["ci95"] = ci.empty() ? json(nullptr) : json(ci);
  return {{"dataset", dataset},
          {"series", series},
          {"params", {{"epsilon", eps}, {"alpha", 0.2}}},
          {"aggregates", {{metric, agg}}},
          {"diagnostics_aggregates", {{"kprime", {{"n", 3}, {"mean", 141.0}}}}}};
}

Results fixture() {
  json exp{{"experiment", "fx"}, {"trials", 3}, {"cells", json::array()}, {"provenance", json::object()}};
  for (double eps : {0.5, 1.0}) {
    exp["cells"].push_back(cell("ds1", "privthr", eps, "dsg_c", 0.10 / eps));
    exp["cells"].push_back(cell("ds1", "privqt", eps, "dsg_c", 0.50 / eps));
    exp["cells"].push_back(cell("ds2", "privthr", eps, "dsg_c", 0.20));
    exp["cells"].push_back(cell("ds2", "privqt", eps, "dsg_c", eps < 1 ? 0.15 : 0.40));  // violates at eps 0.5
  }
  exp["cells"].push_back(cell("circles", "dbscan", 1.0, "ari", 0.998, {0.99, 1.0}));
  return Results(std::map<std::string, json>{{"fx", exp}});
}

PublishedValue value(double published, double tol, bool rel, Query q) {
  PublishedValue v;
  v.value = published;
  v.tolerance = tol;
  v.relative = rel;
  v.query = std::move(q);
  return v;
}

// A cell with per-trial values (metrics and timing), as the runner writes it.
json trial_cell(const std::string& dataset, const std::string& series, double eps, const std::string& metric,
                const std::vector<double>& values, const std::vector<double>& seconds = {}) {
  double sum = 0;
  for (double x : values) sum += x;
  json c{{"dataset", dataset},
         {"series", series},
         {"params", {{"epsilon", eps}}},
         {"trials", json::array()},
         {"aggregates",
          {{metric, {{"n", values.size()}, {"mean", sum / static_cast<double>(values.size())}, {"ci95", nullptr}}}}}};
  for (std::size_t i = 0; i < values.size(); ++i) {
    json t{{"trial", i}, {"metrics", {{metric, values[i]}}}};
    if (i < seconds.size()) t["timing"] = {{"method_seconds", seconds[i]}, {"metrics_seconds", 0.0}};
    c["trials"].push_back(t);
  }
  double secs = 0;
  for (double x : seconds) secs += x;
  if (!seconds.empty())
    c["timing"] = {{"method_seconds", {{"n", seconds.size()}, {"mean", secs / static_cast<double>(seconds.size())}}}};
  return c;
}

// 30 trials: 28 near 0 and 2 at 0.94 (Circles-like: the published 0.94 is one lucky seed).
std::vector<double> circles_like() {
  std::vector<double> v(28, 0.002);
  v.push_back(0.94);
  v.push_back(0.94);
  return v;
}

// 20 trials 0.00, 0.05, ..., 0.95 (mean 0.475).
std::vector<double> ramp() {
  std::vector<double> v;
  for (int i = 0; i < 20; ++i) v.push_back(0.05 * i);
  return v;
}

Results trial_fixture() {
  json exp{{"experiment", "tx"},
           {"trials", 30},
           {"cells", json::array()},
           {"provenance", {{"runs", json::array({json{{"host", "h"}, {"threads", 1}, {"wall_seconds", 1.0}}})}}}};
  exp["cells"].push_back(trial_cell("circles", "dp_dbscan", 1.0, "ari", circles_like()));
  exp["cells"].push_back(trial_cell("ramp", "a", 1.0, "ari", ramp()));
  std::vector<double> shifted = ramp();
  for (double& x : shifted) x += 0.1;  // mean 0.575: "b beats a" (higher) on the means
  exp["cells"].push_back(trial_cell("ramp", "b", 1.0, "ari", shifted));
  exp["cells"].push_back(trial_cell("ramp", "few", 1.0, "ari", {0.1, 0.2, 0.3, 0.4, 0.5}));
  exp["cells"].push_back(trial_cell("moons", "dp_dbscan_naive", 1.0, "n_clusters", {2, 2, 2}, {0.01, 0.03, 0.02}));
  exp["cells"].push_back(trial_cell("moons", "dp_dbscan_linear", 1.0, "n_clusters", {2, 2, 2}, {0.002, 0.004, 0.003}));
  return Results(std::map<std::string, json>{{"tx", exp}});
}

Protocol mean_of(std::size_t k) { return {SeedStatistic::mean, k, ""}; }

}  // namespace

TEST(Verdict, AbsoluteAndRelativeTolerances) {
  EXPECT_EQ(judge(0.98, 0.02, false, 0.998), Verdict::holds);  // 0.018 <= 0.02
  EXPECT_EQ(judge(0.98, 0.01, false, 0.998), Verdict::differs);
  EXPECT_EQ(judge(141.0, 0.06, true, 149.0), Verdict::holds);    // 8 <= 8.46
  EXPECT_EQ(judge(141.0, 0.06, true, 150.0), Verdict::differs);  // 9 > 8.46
  EXPECT_EQ(judge(144, 0, false, 144.0), Verdict::holds);        // exact
  EXPECT_EQ(judge(144, 0, false, 145.0), Verdict::differs);
  EXPECT_EQ(judge(0.5, 0.1, false, std::nullopt), Verdict::not_run);
  EXPECT_EQ(judge(0.5, 0.1, false, std::nan("")), Verdict::not_run);
}

TEST(Verdict, ValueLookupHoldsDiffersAndMissing) {
  Results r = fixture();
  ValueOutcome o = evaluate(value(0.98, 0.02, false, {"fx", "circles", "dbscan", "ari", {}, {}}), r);
  EXPECT_EQ(o.verdict, Verdict::holds);
  EXPECT_DOUBLE_EQ(*o.mean, 0.998);
  ASSERT_TRUE(o.ci95.has_value());
  EXPECT_DOUBLE_EQ(o.ci95->first, 0.99);
  o = evaluate(value(0.90, 0.05, false, {"fx", "circles", "dbscan", "ari", {}, {}}), r);
  EXPECT_EQ(o.verdict, Verdict::differs);
  o = evaluate(value(0.90, 0.05, false, {"other_experiment", "circles", "dbscan", "ari", {}, {}}), r);
  EXPECT_EQ(o.verdict, Verdict::not_run);
  EXPECT_NE(o.note.find("not in the results"), std::string::npos);
  // Diagnostics are found too (k' is a diagnostic of the WaveCluster mechanisms).
  o = evaluate(value(141.0, 0.06, true, {"fx", "ds1", "privthr", "kprime", {{"epsilon", 1.0}}, {}}), r);
  EXPECT_EQ(o.verdict, Verdict::holds);
  // Without the epsilon filter two cells match: not silently averaged.
  o = evaluate(value(141.0, 0.06, true, {"fx", "ds1", "privthr", "kprime", {}, {}}), r);
  EXPECT_EQ(o.verdict, Verdict::not_run);
  EXPECT_NE(o.note.find("2 cells match"), std::string::npos);
}

TEST(Claims, OrderingIsCheckedPerGroup) {
  Claim c;
  c.kind = ClaimKind::ordering;
  c.query.experiment = "fx";
  c.query.metric = "dsg_c";
  c.winners = {"privthr"};
  c.losers = {"privqt"};
  c.group_by = {"dataset", "epsilon"};
  ClaimOutcome o = evaluate(c, fixture());
  EXPECT_EQ(o.checked, 4u);
  EXPECT_EQ(o.satisfied, 3u);  // ds2 at eps 0.5: privthr 0.20 vs privqt 0.15
  EXPECT_EQ(o.verdict, Verdict::differs);
  EXPECT_NE(o.detail.find("ds2, epsilon=0.5"), std::string::npos) << o.detail;
  c.query.where["epsilon"] = {0.9, 2.0};  // only eps = 1: every group satisfied
  o = evaluate(c, fixture());
  EXPECT_EQ(o.checked, 2u);
  EXPECT_EQ(o.verdict, Verdict::holds);
}

TEST(Claims, ThresholdAndBestAt) {
  Claim t;
  t.kind = ClaimKind::threshold;
  t.query.experiment = "fx";
  t.query.series = "privthr";
  t.query.metric = "dsg_c";
  t.op = "<";
  t.bound = 0.25;
  ClaimOutcome o = evaluate(t, fixture());
  EXPECT_EQ(o.checked, 4u);
  EXPECT_EQ(o.verdict, Verdict::holds);  // 0.2, 0.1, 0.2, 0.2
  t.bound = 0.15;
  EXPECT_EQ(evaluate(t, fixture()).verdict, Verdict::differs);

  Claim b;
  b.kind = ClaimKind::best_at;
  b.query.experiment = "fx";
  b.query.dataset = "ds1";
  b.query.series = "privqt";
  b.query.metric = "dsg_c";
  b.over = "epsilon";
  b.expected = 1.0;
  o = evaluate(b, fixture());
  EXPECT_EQ(o.verdict, Verdict::holds);  // 0.5 at eps 1 < 1.0 at eps 0.5
  EXPECT_NE(o.detail.find("epsilon = 1.00"), std::string::npos) << o.detail;
  // Averaged over the other cells with the same value: over "alpha" (0.2 everywhere) all four ds1 cells
  // form one group whose mean is (0.1 + 0.05 + 0.5 + 1.0 ... ) - here privthr+privqt of ds1 at two eps.
  Claim avg = b;
  avg.query.series.clear();
  avg.over = "epsilon";
  avg.expected = 1.0;
  o = evaluate(avg, fixture());  // eps 0.5: (0.2 + 1.0)/2 = 0.6; eps 1: (0.1 + 0.5)/2 = 0.3 -> best at 1
  EXPECT_EQ(o.verdict, Verdict::holds);
  EXPECT_NE(o.detail.find("best mean dsg_c 0.300"), std::string::npos) << o.detail;
  b.expected = 0.5;
  EXPECT_EQ(evaluate(b, fixture()).verdict, Verdict::differs);
  b.query.experiment = "none";
  EXPECT_EQ(evaluate(b, fixture()).verdict, Verdict::not_run);
}

// DPM's abstract: "reduces the inertia gap to KMeans++ by up to 50% against LSH-splits". Hand-computed: on ds1 the
// means are dpm 4, kmeans 1, lsh 7: 1 - (4 - 1) / (7 - 1) = 0.5; a bootstrap mean of dpm's two trials (3, 5) is 3, 4 or
// 5 (probabilities 1/4, 1/2, 1/4) and the others are constant, so the reductions are 2/3, 1/2, 1/3 and the central
// 95% interval is [1/3, 2/3]. On ds2: 1 - (2.5 - 1) / (3 - 1) = 0.25, constant.
TEST(Claims, GapReductionIsTheLargestGroupsWithItsBootstrapInterval) {
  const GapReduction r = gap_reduction({3, 5}, {1, 1}, {7, 7});
  EXPECT_DOUBLE_EQ(r.value, 0.5);
  ASSERT_TRUE(r.interval);
  EXPECT_NEAR(r.interval->first, 1.0 / 3, 1e-12);
  EXPECT_NEAR(r.interval->second, 2.0 / 3, 1e-12);
  EXPECT_DOUBLE_EQ(gap_reduction({7, 7}, {1, 1}, {7, 7}).value, 0.0);    // no better than LSH-splits
  EXPECT_DOUBLE_EQ(gap_reduction({1, 1}, {1, 1}, {7, 7}).value, 1.0);    // as good as k-means++
  EXPECT_TRUE(std::isnan(gap_reduction({2, 2}, {1, 1}, {1, 1}).value));  // no gap to close
  EXPECT_FALSE(gap_reduction({4}, {1}, {7}).interval);                   // one trial: no interval

  json exp{{"experiment", "gx"}, {"trials", 2}, {"cells", json::array()}, {"provenance", json::object()}};
  exp["cells"].push_back(trial_cell("ds1", "dpm", 1.0, "inertia", {3, 5}));
  exp["cells"].push_back(trial_cell("ds1", "kmeans", 1.0, "inertia", {1, 1}));
  exp["cells"].push_back(trial_cell("ds1", "lsh_splits", 1.0, "inertia", {7, 7}));
  exp["cells"].push_back(trial_cell("ds2", "dpm", 1.0, "inertia", {2.5, 2.5}));
  exp["cells"].push_back(trial_cell("ds2", "kmeans", 1.0, "inertia", {1, 1}));
  exp["cells"].push_back(trial_cell("ds2", "lsh_splits", 1.0, "inertia", {3, 3}));
  exp["cells"].push_back(trial_cell("ds3", "dpm", 1.0, "inertia", {2, 2}));  // no baseline: not checked
  const Results results(std::map<std::string, json>{{"gx", exp}});
  Claim c;
  c.kind = ClaimKind::gap_reduction;
  c.query.experiment = "gx";
  c.query.series = "dpm";
  c.query.metric = "inertia";
  c.baseline = "kmeans";
  c.against = "lsh_splits";
  c.group_by = {"dataset"};
  c.expected = 0.5;
  c.expected_tolerance = 0.05;
  ClaimOutcome o = evaluate(c, results);
  EXPECT_EQ(o.checked, 2u);
  EXPECT_EQ(o.verdict, Verdict::holds);
  EXPECT_NE(o.detail.find("50.0% (ds1"), std::string::npos) << o.detail;
  EXPECT_NE(o.detail.find("ds2: 25.0%"), std::string::npos) << o.detail;
  c.expected = 0.62;  // outside the tolerance, inside [1/3, 2/3]
  o = evaluate(c, results);
  EXPECT_EQ(o.verdict, Verdict::within_seed_variance);
  EXPECT_EQ(o.tolerance_verdict, Verdict::differs);
  c.expected = 0.9;
  EXPECT_EQ(evaluate(c, results).verdict, Verdict::differs);
  c.against = "none";
  EXPECT_EQ(evaluate(c, results).verdict, Verdict::not_run);
}

// FastLloyd's "up to 88% lower clustering error than SuLloyd": 1 - area under the series' mean NICV over eps /
// SuLloyd's, trapezoids. Hand-computed on ds1: eps 0.5, 1 with fastlloyd's means 1, 1 and sulloyd's 4, 2 (trials 3, 5
// and 2, 2): areas 0.5 * (1 + 1) / 2 = 0.5 and 0.5 * (4 + 2) / 2 = 1.5, reduction 1 - 0.5 / 1.5 = 2/3. A bootstrap mean
// of sulloyd's trials at eps 0.5 is 3, 4 or 5 (1/4, 1/2, 1/4), the others constant: areas 1.25, 1.5, 1.75, reductions
// 0.6, 2/3, 5/7, central 95% interval [0.6, 5/7]. On ds2 (fastlloyd 1, 1 against 2, 2): 0.5.
TEST(Claims, AucReductionIsOneMinusTheRatioOfTrapezoidAreas) {
  const GapReduction r = auc_reduction({0.5, 1.0}, {{1, 1}, {1, 1}}, {{3, 5}, {2, 2}});
  EXPECT_NEAR(r.value, 2.0 / 3, 1e-12);
  ASSERT_TRUE(r.interval);
  EXPECT_NEAR(r.interval->first, 0.6, 1e-12);
  EXPECT_NEAR(r.interval->second, 5.0 / 7, 1e-12);
  EXPECT_NEAR(auc_reduction({0.1, 0.5, 1.0}, {{2}, {2}, {2}}, {{2}, {2}, {2}}).value, 0.0, 1e-12);  // the same curve
  EXPECT_NEAR(auc_reduction({0.0, 1.0, 3.0}, {{0}, {0}, {0}}, {{1}, {3}, {1}}).value, 1.0, 1e-12);  // no error left
  EXPECT_TRUE(std::isnan(auc_reduction({1.0}, {{1, 1}}, {{2, 2}}).value));           // one point: no area
  EXPECT_TRUE(std::isnan(auc_reduction({0.5, 1.0}, {{1}, {1}}, {{0}, {0}}).value));  // against's area 0
  EXPECT_FALSE(auc_reduction({0.5, 1.0}, {{1}, {1}}, {{2}, {2}}).interval);          // one trial: no interval

  json exp{{"experiment", "ax"}, {"trials", 2}, {"cells", json::array()}, {"provenance", json::object()}};
  exp["cells"].push_back(trial_cell("ds1", "fastlloyd", 0.5, "nicv", {1, 1}));
  exp["cells"].push_back(trial_cell("ds1", "fastlloyd", 1.0, "nicv", {1, 1}));
  exp["cells"].push_back(trial_cell("ds1", "sulloyd", 0.5, "nicv", {3, 5}));
  exp["cells"].push_back(trial_cell("ds1", "sulloyd", 1.0, "nicv", {2, 2}));
  exp["cells"].push_back(trial_cell("ds2", "fastlloyd", 0.5, "nicv", {1, 1}));
  exp["cells"].push_back(trial_cell("ds2", "fastlloyd", 1.0, "nicv", {1, 1}));
  exp["cells"].push_back(trial_cell("ds2", "sulloyd", 0.5, "nicv", {2, 2}));
  exp["cells"].push_back(trial_cell("ds2", "sulloyd", 1.0, "nicv", {2, 2}));
  exp["cells"].push_back(trial_cell("ds2", "glloyd", 1.0, "nicv", {0.1, 0.1}));  // another series: not read
  exp["cells"].push_back(trial_cell("ds3", "fastlloyd", 1.0, "nicv", {1, 1}));   // one eps: not checked
  exp["cells"].push_back(trial_cell("ds3", "sulloyd", 1.0, "nicv", {9, 9}));
  const Results results(std::map<std::string, json>{{"ax", exp}});
  Claim c;
  c.kind = ClaimKind::auc_reduction;
  c.query.experiment = "ax";
  c.query.series = "fastlloyd";
  c.query.metric = "nicv";
  c.against = "sulloyd";
  c.over = "epsilon";
  c.group_by = {"dataset"};
  c.expected = 0.67;
  c.expected_tolerance = 0.05;
  ClaimOutcome o = evaluate(c, results);
  EXPECT_EQ(o.checked, 2u);
  EXPECT_EQ(o.verdict, Verdict::holds);
  EXPECT_NE(o.detail.find("66.7% (ds1"), std::string::npos) << o.detail;
  EXPECT_NE(o.detail.find("ds2: 50.0%"), std::string::npos) << o.detail;
  c.expected = 0.61;  // outside the tolerance, inside [0.6, 5/7]
  o = evaluate(c, results);
  EXPECT_EQ(o.verdict, Verdict::within_seed_variance);
  EXPECT_EQ(o.tolerance_verdict, Verdict::differs);
  c.expected = 0.88;
  EXPECT_EQ(evaluate(c, results).verdict, Verdict::differs);
  c.against = "none";
  EXPECT_EQ(evaluate(c, results).verdict, Verdict::not_run);
}

// A paper that prints figures only is compared with its authors' code run here: such a value says how it was run
// (authors_run), the report marks its row and lists the run once under the paper's table.
TEST(Reference, AuthorsRunValuesAreMarkedAndTheirRunListedOnce) {
  auto dir = dpclust::testing::temp_dir("authorsrun");
  auto file = dpclust::testing::write_file(dir / "pub.yaml", R"yaml(papers: {p: "Some et al., A demo"}
tables:
  - {id: t, paper: p, source: "README plot", experiment: fx, tolerance: 0.02, protocol: {statistic: mean, seeds: 20},
     authors_run: "bench/demo.py --trials 20 (their code at abc123)", values: {ari: {circles: {dbscan: 0.99}}}}
values:
  - {id: k, paper: p, source: "README plot", value: 141.0, tolerance_relative: 0.06, protocol: {statistic: mean, seeds: 10},
     authors_run: "bench/demo.py --trials 20 (their code at abc123)",
     query: {experiment: fx, dataset: ds1, series: privthr, metric: kprime, params: {epsilon: 1.0}}}
  - {id: p2, paper: p, source: "Sec. 2", value: 0.2, tolerance: 0.01, protocol: {statistic: mean, seeds: 3},
     query: {experiment: fx, dataset: ds2, series: privthr, metric: dsg_c, params: {epsilon: 1.0}}}
)yaml");
  const Reference ref = load_reference(file);
  ASSERT_EQ(ref.values.size(), 3u);
  for (const auto& v : ref.values) {
    if (v.id == "p2") EXPECT_TRUE(v.authors_run.empty());
    else EXPECT_EQ(v.authors_run, "bench/demo.py --trials 20 (their code at abc123)") << v.id;
  }
  const std::string md = write_markdown(ref, fixture(), {});
  EXPECT_NE(md.find("| README plot (authors' code) |"), std::string::npos) << md;
  EXPECT_NE(md.find("| Sec. 2 |"), std::string::npos) << md;  // a printed number is not marked
  const std::string listed = "- bench/demo.py --trials 20 (their code at abc123)\n";
  const auto first = md.find(listed);
  ASSERT_NE(first, std::string::npos) << md;
  EXPECT_EQ(md.find(listed, first + 1), std::string::npos) << md;  // once, though two values name it
}

TEST(Reference, TablesExpandToValuesAndMarkdownShowsVerdicts) {
  auto dir = dpclust::testing::temp_dir("ref");
  auto file = dpclust::testing::write_file(dir / "pub.yaml", R"(papers: {p: "Some et al., A paper"}
tables:
  - {id: t2, paper: p, source: "Table 2", experiment: fx, tolerance: 0.02, protocol: {statistic: mean, seeds: 3},
     values: {ari: {circles: {dbscan: 0.98, kmeans: null}}}}
values:
  - {id: k, paper: p, source: "Sec. 7", value: 141.0, tolerance_relative: 0.06, protocol: {statistic: mean, seeds: 10},
     query: {experiment: fx, dataset: ds1, series: privthr, metric: kprime, params: {epsilon: 1.0}}}
claims:
  - {id: c, paper: p, source: "Fig. 3", text: "PrivTHR beats PrivQT", kind: ordering, experiment: fx, protocol: {statistic: mean, seeds: 10},
     metric: dsg_c, winners: [privthr], losers: [privqt], group_by: [dataset, epsilon]}
)");
  Reference ref = load_reference(file);
  ASSERT_EQ(ref.values.size(), 2u);  // the null entry is not a published value
  EXPECT_EQ(ref.values[1].id, "t2.ari.circles.dbscan");
  std::string md = write_markdown(ref, fixture(), {});
  EXPECT_NE(md.find("## Some et al., A paper"), std::string::npos);
  EXPECT_NE(md.find("| published values | 2 | 0 | 0 | 0 | 2 / 0 |"), std::string::npos) << md;
  EXPECT_NE(md.find("| claims | 0 | 0 | 1 | 0 | 0 / 1 |"), std::string::npos) << md;
  EXPECT_NE(md.find("**differs**"), std::string::npos);
}

TEST(Reference, BadFileNamesTheLine) {
  auto dir = dpclust::testing::temp_dir("badref");
  auto file =
      dpclust::testing::write_file(dir / "pub.yaml", "values:\n  - {id: x, value: 1.0, query: {experiment: e}}\n");
  try {
    load_reference(file);
    FAIL();
  } catch (const dpclust::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("pub.yaml:2"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("tolerance"), std::string::npos) << e.what();
  }
}

TEST(SeedVerdict, InsideOutsideAndOnTheEdgeOfTheBand) {
  const std::vector<double> t = ramp();
  const VerdictSettings s;
  const SeedDistribution d = k_seed_distribution(t, mean_of(3));
  const auto [lo, hi] = central_interval(d);
  ASSERT_LT(lo, 0.3);
  ASSERT_GT(hi, 0.65);
  ValueOutcome o;
  // Tolerance holds: holds, whatever the band (the percentile is still reported).
  EXPECT_EQ(judge_seed_variance(Verdict::holds, 0.47, t, mean_of(3), s, o), Verdict::holds);
  ASSERT_TRUE(o.percentile.has_value());
  EXPECT_NEAR(*o.percentile, 50, 5);
  // Inside the band.
  o = {};
  EXPECT_EQ(judge_seed_variance(Verdict::differs, 0.65, t, mean_of(3), s, o), Verdict::within_seed_variance);
  EXPECT_GT(*o.percentile, 80);
  EXPECT_DOUBLE_EQ(o.band->first, lo);
  // Exactly on the edges: inside.
  EXPECT_EQ(judge_seed_variance(Verdict::differs, lo, t, mean_of(3), s, o), Verdict::within_seed_variance);
  EXPECT_EQ(judge_seed_variance(Verdict::differs, hi, t, mean_of(3), s, o), Verdict::within_seed_variance);
  // Outside.
  EXPECT_EQ(judge_seed_variance(Verdict::differs, hi + 0.01, t, mean_of(3), s, o), Verdict::differs);
  EXPECT_EQ(judge_seed_variance(Verdict::differs, lo - 0.01, t, mean_of(3), s, o), Verdict::differs);
  // Not run stays not run.
  EXPECT_EQ(judge_seed_variance(Verdict::not_run, 0.5, t, mean_of(3), s, o), Verdict::not_run);
}

TEST(SeedVerdict, TooFewTrialsKeepsTheToleranceVerdict) {
  VerdictSettings s;
  ValueOutcome o;
  EXPECT_EQ(judge_seed_variance(Verdict::differs, 0.3, {0.1, 0.2, 0.3, 0.4, 0.5}, mean_of(3), s, o), Verdict::differs);
  EXPECT_NE(o.note.find("too few trials for a variance verdict (n < 10)"), std::string::npos) << o.note;
  EXPECT_FALSE(o.band.has_value());
  // The minimum is configurable, and never below 2k (k = 10 needs 20 trials).
  s.min_trials_for_variance = 4;
  o = {};
  EXPECT_EQ(judge_seed_variance(Verdict::differs, 0.3, {0.1, 0.2, 0.3, 0.4, 0.5}, mean_of(2), s, o),
            Verdict::within_seed_variance);
  EXPECT_EQ(min_trials_for(mean_of(10), VerdictSettings{}), 20u);
  EXPECT_EQ(min_trials_for({SeedStatistic::single, 1, ""}, VerdictSettings{}), 10u);
}

TEST(SeedVerdict, ProtocolDecidesCirclesLikeValues) {
  // The published 0.94 is far from our mean (0.064): as a 3-seed mean it differs, as one run it is
  // within seed variance (2 of 30 single runs reach it).
  Results r = trial_fixture();
  PublishedValue v = value(0.94, 0.05, false, {"tx", "circles", "dp_dbscan", "ari", {}, {}});
  v.protocol = mean_of(3);
  ValueOutcome o = evaluate(v, r);
  EXPECT_EQ(o.tolerance_verdict, Verdict::differs);
  EXPECT_EQ(o.verdict, Verdict::differs);
  EXPECT_EQ(o.trials, 30u);
  v.protocol = {SeedStatistic::single, 1, ""};
  o = evaluate(v, r);
  EXPECT_EQ(o.tolerance_verdict, Verdict::differs);
  EXPECT_EQ(o.verdict, Verdict::within_seed_variance);
  EXPECT_NEAR(*o.percentile, 100.0 * 29 / 30, 1e-9);  // 28 below, 2 equal
  // The same value with only 5 trials: tolerance verdict, said so.
  v = value(0.9, 0.05, false, {"tx", "ramp", "few", "ari", {}, {}});
  v.protocol = mean_of(3);
  o = evaluate(v, r);
  EXPECT_EQ(o.verdict, Verdict::differs);
  EXPECT_NE(o.note.find("too few trials"), std::string::npos);
}

TEST(SeedVerdict, ClaimsUseTheBands) {
  Results r = trial_fixture();
  Claim t;
  t.kind = ClaimKind::threshold;
  t.query = {"tx", "ramp", "a", "ari", {}, {}};
  t.protocol = mean_of(3);
  t.op = ">";
  t.bound = 0.6;  // mean 0.475 violates; 0.6 lies inside the 3-seed band
  ClaimOutcome o = evaluate(t, r);
  EXPECT_EQ(o.tolerance_verdict, Verdict::differs);
  EXPECT_EQ(o.verdict, Verdict::within_seed_variance) << o.detail;
  EXPECT_NE(o.detail.find("within seed variance"), std::string::npos) << o.detail;
  t.bound = 0.95;  // no 3-trial mean reaches it
  o = evaluate(t, r);
  EXPECT_EQ(o.verdict, Verdict::differs) << o.detail;
  t.bound = 0.4;
  EXPECT_EQ(evaluate(t, r).verdict, Verdict::holds);

  Claim ord;
  ord.kind = ClaimKind::ordering;
  ord.query = {"tx", "ramp", "", "ari", {}, {}};
  ord.protocol = mean_of(3);
  ord.lower_is_better = false;
  ord.winners = {"a"};  // a (0.475) above b (0.575) is false on the means,
  ord.losers = {"b"};   // but 0 is inside the 3-seed difference band
  ord.group_by = {"dataset"};
  o = evaluate(ord, r);
  EXPECT_EQ(o.checked, 1u);
  EXPECT_EQ(o.tolerance_verdict, Verdict::differs);
  EXPECT_EQ(o.verdict, Verdict::within_seed_variance) << o.detail;
  ord.winners = {"b"};
  ord.losers = {"a"};
  EXPECT_EQ(evaluate(ord, r).verdict, Verdict::holds);
  ord.winners = {"few"};  // too few trials: the means decide
  ord.losers = {"b"};
  o = evaluate(ord, r);
  EXPECT_EQ(o.verdict, Verdict::differs);
  EXPECT_NE(o.detail.find("too few trials"), std::string::npos) << o.detail;
}

TEST(Reference, ProtocolSchemaErrorsNameTheEntry) {
  auto dir = dpclust::testing::temp_dir("protoref");
  const auto expect_error = [&](const std::string& yaml, const std::vector<std::string>& parts) {
    auto file = dpclust::testing::write_file(dir / "pub.yaml", yaml);
    try {
      load_reference(file);
      ADD_FAILURE() << "accepted: " << yaml;
    } catch (const dpclust::InputError& e) {
      for (const auto& p : parts) EXPECT_NE(std::string(e.what()).find(p), std::string::npos) << e.what();
    }
  };
  const std::string head = "values:\n  - {id: v1, value: 1.0, tolerance: 0.1, query: {experiment: e}";
  expect_error(head + "}\n", {"published value 'v1'", "needs a 'protocol'", "pub.yaml:2"});
  expect_error(head + ", protocol: {statistic: average, seeds: 3}}\n",
               {"'v1'", "'average' is not one of mean, median, single"});
  expect_error(head + ", protocol: {statistic: mean}}\n", {"'v1'", "needs 'seeds'"});
  expect_error(head + ", protocol: {statistic: single, seeds: 3}}\n", {"'v1'", "single-run protocol has no 'seeds'"});
  expect_error(head + ", protocol: {statistic: mean, seed: 3}}\n",
               {"'v1'", "unknown key 'seed'", "did you mean 'seeds'"});
  expect_error(head + ", protocol: {statistic: mean, seeds: 0}}\n", {"'v1'", "seeds must be in [1, 10000]"});
  expect_error(head + ", protocol: {statistic: single}, resaon: x}\n", {"'v1'", "unknown key 'resaon'", "reason"});
  expect_error("tables:\n  - {id: t2, experiment: e, tolerance: 0.1, values: {ari: {circles: {a: 1.0}}}}\n",
               {"table 't2'", "needs a 'protocol'"});
  expect_error(
      "tables:\n  - {id: t2, experiment: e, tolerance: 0.1, protocol: {statistic: single}, values: {ari: {circles: {a: "
      "1.0}}},\n"
      "     overrides: [{dataset: moons, reason: x}]}\n",
      {"table 't2' override", "matches no published value"});
  expect_error("claims:\n  - {id: c1, kind: threshold, experiment: e, metric: m, op: '<', bound: 1}\n",
               {"claim 'c1'", "needs a 'protocol'"});
  expect_error("verdicts: {min_trial_for_variance: 5}\n",
               {"verdicts", "unknown key 'min_trial_for_variance'", "min_trials_for_variance"});
  expect_error("timings:\n  - {id: t3, experiment: e, metric: ari, seconds: {a: {b: 1.0}}}\n",
               {"timing table 't3'", "not a timing field"});
}

TEST(Reference, OverridesReasonsAndSettingsAreRead) {
  auto dir = dpclust::testing::temp_dir("overref");
  auto file = dpclust::testing::write_file(dir / "pub.yaml", R"(verdicts: {min_trials_for_variance: 20, coverage: 0.9}
tables:
  - id: t2
    experiment: tx
    tolerance: 0.05
    protocol: {statistic: mean, seeds: 3}
    reason: "table reason"
    values: {ari: {circles: {dp_dbscan: 0.94, other: 0.1}}, ami: {circles: {dp_dbscan: 0.92}}}
    overrides:
      - {dataset: circles, series: dp_dbscan, protocol: {statistic: single, note: "seed 0 alone"}, reason: "one lucky seed", see: "#circles"}
)");
  Reference ref = load_reference(file);
  EXPECT_EQ(ref.verdicts.min_trials_for_variance, 20u);
  EXPECT_DOUBLE_EQ(ref.verdicts.coverage, 0.9);
  ASSERT_EQ(ref.values.size(), 3u);
  for (const auto& v : ref.values) {
    const bool circles_dp = v.query.series == "dp_dbscan";
    EXPECT_EQ(v.protocol.statistic, circles_dp ? SeedStatistic::single : SeedStatistic::mean) << v.id;
    EXPECT_EQ(v.reason, circles_dp ? "one lucky seed" : "table reason") << v.id;
    EXPECT_EQ(v.protocol.note, circles_dp ? "seed 0 alone" : "") << v.id;
  }
}

TEST(Report, ReasonsArePrintedWhenAValueDiffersOrIsWithinVariance) {
  auto dir = dpclust::testing::temp_dir("reasonref");
  auto file = dpclust::testing::write_file(dir / "pub.yaml", R"(papers: {p: "Paper P"}
values:
  - {id: lucky, paper: p, source: "Table 2", value: 0.94, tolerance: 0.05, protocol: {statistic: single, note: "seed 0 alone"},
     reason: "the published value is one lucky seed", see: "https://example.org/circles",
     query: {experiment: tx, dataset: circles, series: dp_dbscan, metric: ari}}
  - {id: far, paper: p, source: "Table 2", value: 0.99, tolerance: 0.05, protocol: {statistic: mean, seeds: 3},
     reason: "structurally different", query: {experiment: tx, dataset: ramp, series: a, metric: ari}}
  - {id: fine, paper: p, source: "Table 2", value: 0.5, tolerance: 0.05, protocol: {statistic: mean, seeds: 3},
     reason: "never printed: it holds", query: {experiment: tx, dataset: ramp, series: a, metric: ari}}
)");
  const std::string md = write_markdown(load_reference(file), trial_fixture(), {});
  EXPECT_NE(md.find("| published values | 1 | 1 | 1 | 0 | 1 / 2 |"), std::string::npos) << md;
  EXPECT_NE(md.find("| tolerance | k-seed band | percentile | verdict |"), std::string::npos) << md;
  EXPECT_NE(md.find("*within seed variance* (outside tolerance; the published value lies inside our k-seed band, "
                    "percentile 96.7) ([why](#why-lucky))"),
            std::string::npos)
      << md;
  EXPECT_NE(
      md.find(
          "`lucky` (within seed variance): the published value is one lucky seed (see <https://example.org/circles>)"),
      std::string::npos)
      << md;
  EXPECT_NE(md.find("`far` (differs): structurally different"), std::string::npos) << md;
  EXPECT_NE(md.find("`lucky` (protocol single run): seed 0 alone"), std::string::npos) << md;
  EXPECT_EQ(md.find("never printed"), std::string::npos) << md;
  EXPECT_NE(
      md.find(
          "| single run | 0.940 | 0.065 | - | 30 | 0.05 | differs | [0.002, 0.940] | 96.7 | *within seed variance*"),
      std::string::npos)
      << md;
}

TEST(Report, RunningTimesCompareMediansWithThePaper) {
  auto dir = dpclust::testing::temp_dir("timeref");
  auto file = dpclust::testing::write_file(dir / "pub.yaml", R"yaml(papers: {p: "Paper P"}
timings:
  - id: t3
    paper: p
    source: "Table 3"
    machine: "i7-13700KF, Python"
    experiment: tx
    seconds:
      moons: {dp_dbscan_naive: 0.04, dp_dbscan_linear: 0.0149, dbscan: "-"}
      cabs: {dp_dbscan_naive: "- (out of memory)"}
claims:
  - {id: faster, paper: p, source: "Sec. 8.5", kind: ordering, text: "linear histogram faster than naive",
     protocol: {statistic: single}, experiment: tx, metric: method_seconds, better: lower,
     winners: [dp_dbscan_linear], losers: [dp_dbscan_naive], group_by: [dataset]}
)yaml");
  Reference ref = load_reference(file);
  ASSERT_EQ(ref.timings.size(), 4u);
  EXPECT_EQ(ref.timings[0].id, "t3.moons.dp_dbscan_naive");  // in the file's order
  EXPECT_EQ(ref.timings[3].note, "- (out of memory)");
  EXPECT_FALSE(ref.timings[3].seconds.has_value());
  TimingOutcome o = evaluate(ref.timings[0], trial_fixture());
  ASSERT_TRUE(o.median_seconds.has_value());
  EXPECT_DOUBLE_EQ(*o.median_seconds, 0.02);  // median of 0.01, 0.03, 0.02
  EXPECT_EQ(o.trials, 3u);
  const std::string md = write_markdown(ref, trial_fixture(), {});
  EXPECT_NE(md.find("## Running times"), std::string::npos) << md;
  EXPECT_NE(md.find("Published: Table 3 of Paper P: i7-13700KF, Python."), std::string::npos) << md;
  EXPECT_NE(md.find("tx: 1;"), std::string::npos) << md;  // threads from the provenance
  EXPECT_NE(md.find("| Table 3 | moons | dp_dbscan_naive | dp_dbscan_naive | 20 ms | 3 | 40 ms | 0.500 |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| Table 3 | moons | dp_dbscan_linear | dp_dbscan_linear | 3 ms | 3 | 14.9 ms | 0.201 |"),
            std::string::npos)
      << md;
  EXPECT_NE(
      md.find(
          "| Table 3 | cabs | dp_dbscan_naive | dp_dbscan_naive | - (no matching cell) | - | - (out of memory) | - |"),
      std::string::npos)
      << md;
  EXPECT_NE(md.find("| linear histogram faster than naive | Sec. 8.5 | single run | 1/1 | holds | holds |"),
            std::string::npos)
      << md;
  // Reversed, the claim fails on the means; 3 trials are too few for a variance verdict.
  ref.claims[0].winners = {"dp_dbscan_naive"};
  ref.claims[0].losers = {"dp_dbscan_linear"};
  ClaimOutcome c = evaluate(ref.claims[0], trial_fixture());
  EXPECT_EQ(c.verdict, Verdict::differs);
  EXPECT_NE(c.detail.find("dp_dbscan_naive 20 ms vs dp_dbscan_linear 3 ms"), std::string::npos) << c.detail;
}
