// The report's verdict logic on fixture numbers: holds / differs / not run for values, and the three
// kinds of computed claims.
#include <gtest/gtest.h>

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
  return {{"dataset", dataset}, {"series", series}, {"params", {{"epsilon", eps}, {"alpha", 0.2}}}, {"aggregates", {{metric, agg}}},
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

}  // namespace

TEST(Verdict, AbsoluteAndRelativeTolerances) {
  EXPECT_EQ(judge(0.98, 0.02, false, 0.998), Verdict::holds);   // 0.018 <= 0.02
  EXPECT_EQ(judge(0.98, 0.01, false, 0.998), Verdict::differs);
  EXPECT_EQ(judge(141.0, 0.06, true, 149.0), Verdict::holds);   // 8 <= 8.46
  EXPECT_EQ(judge(141.0, 0.06, true, 150.0), Verdict::differs); // 9 > 8.46
  EXPECT_EQ(judge(144, 0, false, 144.0), Verdict::holds);       // exact
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

TEST(Reference, TablesExpandToValuesAndMarkdownShowsVerdicts) {
  auto dir = dpclust::testing::temp_dir("ref");
  auto file = dpclust::testing::write_file(dir / "pub.yaml", R"(papers: {p: "Some et al., A paper"}
tables:
  - {id: t2, paper: p, source: "Table 2", experiment: fx, tolerance: 0.02,
     values: {ari: {circles: {dbscan: 0.98, kmeans: null}}}}
values:
  - {id: k, paper: p, source: "Sec. 7", value: 141.0, tolerance_relative: 0.06,
     query: {experiment: fx, dataset: ds1, series: privthr, metric: kprime, params: {epsilon: 1.0}}}
claims:
  - {id: c, paper: p, source: "Fig. 3", text: "PrivTHR beats PrivQT", kind: ordering, experiment: fx,
     metric: dsg_c, winners: [privthr], losers: [privqt], group_by: [dataset, epsilon]}
)");
  Reference ref = load_reference(file);
  ASSERT_EQ(ref.values.size(), 2u);  // the null entry is not a published value
  EXPECT_EQ(ref.values[1].id, "t2.ari.circles.dbscan");
  std::string md = write_markdown(ref, fixture(), {});
  EXPECT_NE(md.find("## Some et al., A paper"), std::string::npos);
  EXPECT_NE(md.find("| published values | 2 | 0 | 0 |"), std::string::npos) << md;
  EXPECT_NE(md.find("| claims | 0 | 1 | 0 |"), std::string::npos) << md;
  EXPECT_NE(md.find("**differs**"), std::string::npos);
}

TEST(Reference, BadFileNamesTheLine) {
  auto dir = dpclust::testing::temp_dir("badref");
  auto file = dpclust::testing::write_file(dir / "pub.yaml", "values:\n  - {id: x, value: 1.0, query: {experiment: e}}\n");
  try {
    load_reference(file);
    FAIL();
  } catch (const dpclust::InputError& e) {
    EXPECT_NE(std::string(e.what()).find("pub.yaml:2"), std::string::npos) << e.what();
    EXPECT_NE(std::string(e.what()).find("tolerance"), std::string::npos) << e.what();
  }
}
