// The report's method comparison: its statistics against scipy's numbers, Holm's ordering,
// the best of a column by the metric's direction, the tables and section built from a small results
// fixture (references, local DP apart, skipped cells), and the metric ranges shared with the figures.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include "report/comparison.hpp"
#include "report/comparison_export.hpp"
#include "report/comparison_markdown.hpp"
#include "report/comparison_stats.hpp"
#include "report/report.hpp"
#include "report/results_index.hpp"

using namespace dpclust::report;
using json = nlohmann::json;

namespace {

// A results cell as the runner writes it (the fields the comparison reads).
json make_cell(const std::string& dataset, const std::string& series, std::optional<double> eps,
               const std::string& metric, const std::vector<double>& values, bool priv = true,
               const std::string& measure = "pure", json extra = json::object()) {
  json params = extra;
  if (eps) params["epsilon"] = *eps;
  json c{{"dataset", dataset}, {"series", series}, {"method", series},
         {"params", params},   {"private", priv},  {"trials", json::array()}};
  c["privacy_spent"] = priv ? json{{"measure", measure}} : json{{"private", false}};
  double sum = 0;
  for (std::size_t i = 0; i < values.size(); ++i) {
    sum += values[i];
    c["trials"].push_back({{"trial", i}, {"metrics", {{metric, values[i]}}}});
  }
  c["aggregates"] = {{metric, {{"n", values.size()}, {"mean", sum / static_cast<double>(values.size())}}}};
  return c;
}

const ComparisonRow& row(const ComparisonTable& t, const std::string& label) {
  for (const auto& r : t.rows)
    if (r.label == label) return r;
  throw std::runtime_error("no row " + label);
}

}  // namespace

TEST(ComparisonStats, IntervalIsStudentTAndCutToTheRange) {
  // mean 3, sd sqrt(2.5), t_{0.975, 4} = 2.7764451051977987 (scipy.stats.t.ppf): half-width 1.9632432...
  const Sample s = summarize({1, 2, 3, 4, 5});
  ASSERT_TRUE(s.ci95.has_value());
  EXPECT_DOUBLE_EQ(s.mean, 3.0);
  EXPECT_NEAR(s.sd, std::sqrt(2.5), 1e-14);
  EXPECT_NEAR(s.ci95->first, 3 - 2.7764451051977987 * std::sqrt(0.5), 1e-12);
  EXPECT_NEAR(s.ci95->second, 3 + 2.7764451051977987 * std::sqrt(0.5), 1e-12);
  MetricTraits r;
  r.lo = 1.5;
  r.hi = 4.5;
  const Sample cut = summarize({1, 2, 3, 4, 5}, r);
  EXPECT_EQ(cut.ci95->first, 1.5);
  EXPECT_EQ(cut.ci95->second, 4.5);
  EXPECT_FALSE(summarize({0.7}).ci95.has_value());
}

TEST(ComparisonStats, HolmStepDown) {
  // Sorted 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1: 0.02, 0.03, 0.06, 0.04 -> running max 0.06.
  const std::vector<double> adj = holm_adjust({0.01, 0.04, 0.03, 0.005});
  ASSERT_EQ(adj.size(), 4u);
  EXPECT_NEAR(adj[0], 0.03, 1e-15);
  EXPECT_NEAR(adj[1], 0.06, 1e-15);
  EXPECT_NEAR(adj[2], 0.06, 1e-15);
  EXPECT_NEAR(adj[3], 0.02, 1e-15);
  EXPECT_EQ(holm_adjust({0.5, 0.6}), (std::vector<double>{1.0, 1.0}));  // capped at 1
  EXPECT_TRUE(holm_adjust({}).empty());
}

TEST(ComparisonStats, MetricDirections) {
  EXPECT_EQ(metric_traits("ari").better, Better::higher);
  EXPECT_EQ(metric_traits("f_measure").better, Better::higher);
  EXPECT_EQ(metric_traits("ocm").better, Better::lower);
  EXPECT_EQ(metric_traits("stress").better, Better::lower);
  EXPECT_EQ(metric_traits("n_clusters").better, Better::none);
  EXPECT_EQ(metric_traits("no_such_metric").better, Better::none);
}

// The figures cut their bands with plots/plot_results.py METRIC_RANGE, the tables with metric_traits:
// the same ranges in both.
TEST(ComparisonStats, RangesAgreeWithThePlots) {
  std::ifstream in(std::filesystem::path(DPCLUST_TEST_SOURCE_DIR) / "plots" / "plot_results.py");
  std::stringstream ss;
  ss << in.rdbuf();
  const std::string src = ss.str();
  const auto start = src.find("METRIC_RANGE = {");
  ASSERT_NE(start, std::string::npos);
  const std::string table = src.substr(start, src.find('}', start) - start);
  const std::regex entry("\"(\\w+)\": \\((None|-?[0-9.]+), (None|-?[0-9.]+)\\)");
  std::size_t n = 0;
  for (auto it = std::sregex_iterator(table.begin(), table.end(), entry); it != std::sregex_iterator(); ++it, ++n) {
    const std::string metric = (*it)[1];
    const MetricTraits t = metric_traits(metric);
    const auto bound = [](const std::string& s) {
      return s == "None" ? std::optional<double>() : std::optional<double>(std::stod(s));
    };
    EXPECT_EQ(t.lo, bound((*it)[2])) << metric;
    EXPECT_EQ(t.hi, bound((*it)[3])) << metric;
  }
  EXPECT_GE(n, 15u);
}

// A small own sweep: two central methods at two epsilons, a local method, two references, a skipped cell.
class ComparisonFixture : public ::testing::Test {
 protected:
  json results() const {
    json r{{"experiment", "mine"}, {"description", "my sweep"}, {"cells", json::array()}};
    auto& c = r["cells"];
    c.push_back(make_cell("ds", "dp_a", 0.5, "ari", {0.20, 0.25, 0.30}));
    c.push_back(make_cell("ds", "dp_a", 2.0, "ari", {0.80, 0.82, 0.84}));
    c.push_back(make_cell("ds", "dp_b", 0.5, "ari", {0.50, 0.55, 0.60}));
    c.push_back(make_cell("ds", "dp_b", 2.0, "ari", {0.79, 0.83, 0.85}));
    c.push_back(make_cell("ds", "nd_laplace", 2.0, "ari", {0.40, 0.45}, true, "local", {{"radius", 0.5}}));
    c.push_back(make_cell("ds", "kmeans", std::nullopt, "ari", {0.90, 0.90, 0.90}, false));
    c.push_back(make_cell("ds", "dbscan", std::nullopt, "ari", {0.70, 0.72, 0.74}, false));
    r["skipped_cells"] = json::array({{{"dataset", "ds"},
                                       {"series", "dp_c"},
                                       {"params", {{"epsilon", 2.0}}},
                                       {"reason", "needs 3^13 cells"},
                                       {"fix", "select at most 12 columns"}}});
    return r;
  }
};

TEST_F(ComparisonFixture, CentralTable) {
  const auto tables = compare_methods("mine", results());
  ASSERT_EQ(tables.size(), 2u);  // ari central, ari local
  const ComparisonTable& t = tables[0];
  EXPECT_EQ(t.axis, PrivacyAxis::central);
  ASSERT_EQ(t.columns.size(), 3u);
  EXPECT_EQ(t.columns[0], 0.5);
  EXPECT_EQ(t.columns[1], 2.0);
  EXPECT_FALSE(t.columns[2].has_value());  // the non-private column
  // Private rows first (results order, the skipped series last among them), references after them.
  ASSERT_EQ(t.rows.size(), 5u);
  EXPECT_EQ(t.rows[0].label, "dp_a");
  EXPECT_EQ(t.rows[2].label, "dp_c");
  EXPECT_TRUE(t.rows[3].reference);

  // eps 0.5: dp_b best (0.55 > 0.25); dp_a tested against it.
  const auto& a05 = *row(t, "dp_a").cells[0];
  const auto& b05 = *row(t, "dp_b").cells[0];
  EXPECT_TRUE(b05.best);
  EXPECT_FALSE(a05.best);
  ASSERT_TRUE(a05.test.has_value());
  EXPECT_NEAR(a05.test->p, rank_sum_test({0.50, 0.55, 0.60}, {0.20, 0.25, 0.30})->p, 1e-15);
  EXPECT_DOUBLE_EQ(a05.test->p, 0.1);  // complete separation of 3 and 3: 2 / C(6, 3)
  // eps 2: dp_a 0.82 vs dp_b 0.8233: dp_b best again; the skipped cell shows its reason.
  EXPECT_TRUE(row(t, "dp_b").cells[1]->best);
  ASSERT_TRUE(row(t, "dp_c").cells[1]->skipped.has_value());
  EXPECT_EQ(*row(t, "dp_c").cells[1]->skipped, "needs 3^13 cells (fix: select at most 12 columns)");
  // References: kmeans best of its column, dbscan tested against it.
  EXPECT_TRUE(row(t, "kmeans").cells[2]->best);
  EXPECT_TRUE(row(t, "dbscan").cells[2]->test.has_value());
  // Holm over the table's three tests (dp_a at 0.5 and at 2, dbscan).
  EXPECT_EQ(t.tests, 3u);
  const std::vector<double> raw = {a05.test->p, row(t, "dp_a").cells[1]->test->p, row(t, "dbscan").cells[2]->test->p};
  const std::vector<double> adj = holm_adjust(raw);
  EXPECT_DOUBLE_EQ(*a05.p_holm, adj[0]);
  EXPECT_DOUBLE_EQ(*row(t, "dp_a").cells[1]->p_holm, adj[1]);
  // With 3 trials a side no rank test reaches 5% (its smallest two-sided p is 0.1): nothing is significant.
  EXPECT_FALSE(a05.significant);
  EXPECT_FALSE(row(t, "dp_a").cells[1]->significant);  // 0.82 vs 0.83
}

TEST_F(ComparisonFixture, LocalMethodsHaveTheirOwnTable) {
  const auto tables = compare_methods("mine", results());
  const ComparisonTable& l = tables[1];
  EXPECT_EQ(l.axis, PrivacyAxis::local);
  ASSERT_EQ(l.columns.size(), 2u);  // local eps 2, and the references' column
  EXPECT_EQ(l.columns[0], 2.0);
  EXPECT_EQ(l.radii, std::vector<double>{0.5});
  EXPECT_EQ(l.rows.size(), 3u);                                            // nd_laplace, kmeans, dbscan
  for (const auto& r : tables[0].rows) EXPECT_NE(r.series, "nd_laplace");  // never on the central axis
}

TEST_F(ComparisonFixture, LowerIsBetterPicksTheSmallest) {
  json r{{"cells", json::array()}};
  r["cells"].push_back(make_cell("ds", "x", 1.0, "ocm", {0.30, 0.31, 0.32}));
  r["cells"].push_back(make_cell("ds", "y", 1.0, "ocm", {0.10, 0.12, 0.14}));
  const auto t = compare_methods("e", r);
  ASSERT_EQ(t.size(), 1u);
  EXPECT_TRUE(row(t[0], "y").cells[0]->best);
  EXPECT_FALSE(row(t[0], "x").cells[0]->best);
  EXPECT_TRUE(row(t[0], "x").cells[0]->test.has_value());
}

TEST_F(ComparisonFixture, RowsOfOneSeriesAreToldApartByTheirParameters) {
  json r{{"cells", json::array()}};
  r["cells"].push_back(
      make_cell("ds", "dp_dbscan", 1.0, "ari", {0.5, 0.6}, true, "pure", {{"eta", 2}, {"alpha", 0.3}}));
  r["cells"].push_back(
      make_cell("ds", "dp_dbscan", 1.0, "ari", {0.7, 0.8}, true, "pure", {{"eta", 4}, {"alpha", 0.3}}));
  const auto t = compare_methods("e", r);
  ASSERT_EQ(t[0].rows.size(), 2u);
  EXPECT_EQ(t[0].rows[0].label, "dp_dbscan (eta=2)");
  EXPECT_EQ(t[0].rows[1].label, "dp_dbscan (eta=4)");
}

TEST_F(ComparisonFixture, Markdown) {
  const auto tables = compare_methods("mine", results());
  const std::string md = comparison_table_markdown(tables[0]);
  EXPECT_NE(md.find("#### ds · ari (higher is better)"), std::string::npos) << md;
  EXPECT_NE(md.find("| method | ε = 0.5 | ε = 2 | non-private (no ε) |"), std::string::npos) << md;
  // dp_b at 0.5: median 0.55; with 3 trials no order statistics reach 95%: the interval is [min, max].
  EXPECT_NE(md.find("| dp_b | **0.550** [0.500, 0.600] · mean 0.550 (3) |"), std::string::npos) << md;
  // The skip reason once under the table, the cell referring to it.
  EXPECT_NE(md.find("skipped (S1)"), std::string::npos) << md;
  EXPECT_NE(md.find("- S1: needs 3^13 cells (fix: select at most 12 columns)"), std::string::npos) << md;
  EXPECT_EQ(md.find("skipped: needs"), std::string::npos) << md;
  EXPECT_NE(md.find("| kmeans *(reference)* |  |  | **0.900** [0.900, 0.900] · mean 0.900 (3) |"), std::string::npos)
      << md;
  EXPECT_NE(md.find("3 tests against the column's best median"), std::string::npos) << md;
  const std::string local = comparison_table_markdown(tables[1]);
  EXPECT_NE(local.find("local ε = 2"), std::string::npos) << local;
  EXPECT_NE(local.find("r = 0.5"), std::string::npos) << local;
}

// A private method in a non-private setting (n treated as public, the textbook sampler) is marked ‡ in its
// row and cells, with the reason once under the table; a private release is not marked.
TEST_F(ComparisonFixture, NonPrivateSettingsAreMarked) {
  json r{{"cells", json::array()}};
  json flagged = make_cell("ds", "dp_dbscan", 1.0, "ari", {0.5, 0.6}, true, "pure", {{"n_public", 0}});
  flagged["non_private"] = json::array({"the number of points n is treated as public"});
  r["cells"].push_back(flagged);
  json clean = make_cell("ds", "dp_dbscan", 1.0, "ari", {0.4, 0.5}, true, "pure", {{"n_public", 1000}});
  clean["non_private"] = json::array();
  r["cells"].push_back(clean);
  r["cells"].push_back(make_cell("ds", "kmeans", std::nullopt, "ari", {0.9, 0.9}, false));
  const auto t = compare_methods("e", r);
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(row(t[0], "dp_dbscan (n_public=0)").cells[0]->not_private.size(), 1u);
  EXPECT_TRUE(row(t[0], "dp_dbscan (n_public=1000)").cells[0]->not_private.empty());
  const std::string md = comparison_table_markdown(t[0]);
  EXPECT_NE(md.find("| dp_dbscan (n_public=0) ‡ |"), std::string::npos) << md;
  EXPECT_NE(md.find("‡1"), std::string::npos) << md;
  EXPECT_NE(md.find("- ‡1: the number of points n is treated as public"), std::string::npos) << md;
  EXPECT_NE(md.find("| dp_dbscan (n_public=1000) |"), std::string::npos) << md;
  EXPECT_NE(md.find("| kmeans *(reference)* |"), std::string::npos) << md;  // the reference rows are not marked
}

// A results directory of one's own sweeps (no experiment of the papers) opens with the comparison; the
// papers' published values are one line after it, not hundreds of "not run" rows before it.
TEST_F(ComparisonFixture, OwnSweepReportOpensWithTheComparison) {
  const Reference ref = load_reference(fs::path(DPCLUST_TEST_SOURCE_DIR) / "reference" / "published.yaml");
  ASSERT_GT(ref.values.size(), 10u);
  ReportSummary sum;
  json doc = results();
  doc["provenance"] = {{"config_file", "mine.yaml"}, {"config_crc32", "00000000"}, {"runs", json::array()}};
  doc["trials"] = 3;
  const std::string md = write_markdown(ref, Results(std::map<std::string, json>{{"mine", doc}}), {}, &sum);
  EXPECT_EQ(md.rfind("# dpclust report\n", 0), 0u) << md.substr(0, 200);
  const std::size_t comparison = md.find("## Comparison of methods"),
                    papers = md.find("## The papers' published values");
  ASSERT_NE(comparison, std::string::npos);
  ASSERT_NE(papers, std::string::npos);
  EXPECT_LT(comparison, papers);
  EXPECT_EQ(md.find("| published values |"), std::string::npos);
  EXPECT_EQ(sum.not_run, ref.values.size());
}

// An experiment whose every cell was skipped still says why in the comparison section, each reason once.
TEST_F(ComparisonFixture, ExperimentWithNoCellRunSaysWhy) {
  json doc{{"cells", json::array()}, {"skipped_cells", json::array()}};
  for (const char* series : {"kmeans", "dbscan"})
    doc["skipped_cells"].push_back({{"dataset", "labor"},
                                    {"series", series},
                                    {"params", json::object()},
                                    {"reason", "56 of 57 rows have a missing value"},
                                    {"fix", "set `missing: drop`"}});
  const std::string md = comparison_section(Results(std::map<std::string, json>{{"labor_sweep", doc}}), {});
  EXPECT_NE(md.find("### labor_sweep"), std::string::npos) << md;
  EXPECT_NE(md.find("No cell ran: all 2 were skipped."), std::string::npos) << md;
  EXPECT_NE(md.find("- 56 of 57 rows have a missing value (fix: set `missing: drop`) (kmeans, dbscan)"),
            std::string::npos)
      << md;
}

TEST_F(ComparisonFixture, SectionFoldsPaperExperimentsOnly) {
  Results res(std::map<std::string, json>{{"mine", results()}, {"paper_exp", results()}});
  ComparisonSectionOptions opts;
  opts.folded = {"paper_exp"};
  const std::string md = comparison_section(res, opts);
  EXPECT_NE(md.find("## Comparison of methods"), std::string::npos);
  EXPECT_NE(md.find("Wilcoxon-Mann-Whitney rank-sum test"), std::string::npos);
  EXPECT_NE(md.find("rank by the median"), std::string::npos);
  EXPECT_NE(md.find("Holm-adjusted"), std::string::npos);
  const auto mine = md.find("### mine"), paper = md.find("### paper_exp");
  ASSERT_NE(mine, std::string::npos);
  ASSERT_NE(paper, std::string::npos);
  EXPECT_EQ(md.substr(mine, paper - mine).find("<details>"), std::string::npos);
  EXPECT_NE(md.substr(paper).find("<details>"), std::string::npos);
  // An experiment of a paper config is folded even when no published value names it (figure data).
  json fig = results();
  fig["provenance"] = {{"config_file", "/src/configs/paper/figures_x.yaml"}};
  const std::string md2 = comparison_section(Results(std::map<std::string, json>{{"figures_x", fig}}), {});
  EXPECT_NE(md2.find("<details>"), std::string::npos);
  // An experiment without cells gives no section at all.
  EXPECT_EQ(comparison_section(Results(std::map<std::string, json>{{"empty", json{{"cells", json::array()}}}}), {}),
            "");
}

// The median's distribution-free interval: order statistics [x_(k), x_(n+1-k)], k the largest with
// 2 P(B <= k-1) <= 0.05, B ~ Binomial(n, 1/2).
TEST(ComparisonStats, MedianIntervalIsOrderStatistics) {
  std::vector<double> ten;
  for (int i = 10; i >= 1; --i) ten.push_back(i);  // unsorted on purpose
  const auto m10 = median_interval(ten);
  ASSERT_TRUE(m10.has_value());
  EXPECT_EQ(m10->lo, 2.0);
  EXPECT_EQ(m10->hi, 9.0);
  EXPECT_DOUBLE_EQ(m10->coverage, 1 - 2 * 11.0 / 1024);  // 1 - 2 (C(10,0) + C(10,1)) / 2^10 = 0.978515625
  std::vector<double> thirty;
  for (int i = 1; i <= 30; ++i) thirty.push_back(i);
  const auto m30 = median_interval(thirty);
  EXPECT_EQ(m30->lo, 10.0);
  EXPECT_EQ(m30->hi, 21.0);
  EXPECT_NEAR(m30->coverage, 0.9572260547429323, 1e-12);
  const auto m5 = median_interval({3, 1, 2, 5, 4});  // no pair reaches 95%: [min, max], coverage 1 - 2^-4
  EXPECT_EQ(m5->lo, 1.0);
  EXPECT_EQ(m5->hi, 5.0);
  EXPECT_DOUBLE_EQ(m5->coverage, 0.9375);
  EXPECT_FALSE(median_interval({}).has_value());
  const Sample s = summarize({1, 2, 3, 4, 1000});
  EXPECT_EQ(s.median, 3.0);  // one wild value moves the mean (202), not the median
  EXPECT_DOUBLE_EQ(s.mean, 202.0);
}

// The Wilcoxon-Mann-Whitney test: exact without ties (hand-counted null distributions), the normal
// approximation with tie correction and continuity correction otherwise (scipy.stats.mannwhitneyu's
// method="asymptotic" formula, evaluated by hand below).
TEST(ComparisonStats, RankSumTestExactAndAsymptotic) {
  // 3 and 3 completely separated: U = 0, P(U <= 0) = 1 / C(6, 3) = 0.05.
  const auto sep = rank_sum_test({1, 2, 3}, {4, 5, 6});
  ASSERT_TRUE(sep.has_value());
  EXPECT_TRUE(sep->exact);
  EXPECT_EQ(sep->u, 0.0);
  EXPECT_DOUBLE_EQ(sep->p, 0.1);
  EXPECT_DOUBLE_EQ(rank_sum_test({1, 2, 3}, {4, 5, 6}, Alternative::less)->p, 0.05);
  EXPECT_DOUBLE_EQ(rank_sum_test({1, 2, 3}, {4, 5, 6}, Alternative::greater)->p, 1.0);
  // Interleaved: U = 3; the null distribution of U for (3, 3) has counts 1 1 2 3 3 3 3 2 1 1: P(U <= 3) = 7/20.
  EXPECT_DOUBLE_EQ(rank_sum_test({1, 3, 5}, {2, 4, 6})->p, 0.7);
  // Ten against ten, separated: 2 / C(20, 10).
  std::vector<double> lo, hi;
  for (int i = 0; i < 10; ++i) lo.push_back(i), hi.push_back(100 + i);
  EXPECT_NEAR(rank_sum_test(hi, lo)->p, 2.0 / 184756, 1e-18);
  // Ties: a = {1, 1, 2}, b = {2, 3, 3}: mid-ranks give U_a = 0.5, mean 4.5, variance 9/12 (7 - 18/30) = 4.8;
  // two-sided p = erfc(3.5 / sqrt(4.8) / sqrt 2), one-sided (less) Phi((0.5 - 4.5 + 0.5) / sqrt 4.8).
  const auto tied = rank_sum_test({1, 1, 2}, {2, 3, 3});
  EXPECT_FALSE(tied->exact);
  EXPECT_DOUBLE_EQ(tied->u, 0.5);
  EXPECT_NEAR(tied->p, 0.11014892418594698, 1e-12);
  EXPECT_NEAR(rank_sum_test({1, 1, 2}, {2, 3, 3}, Alternative::less)->p, 0.05507446209297349, 1e-12);
  EXPECT_DOUBLE_EQ(rank_sum_test({0.5, 0.5}, {0.5, 0.5, 0.5})->p, 1.0);  // nothing to rank
  EXPECT_FALSE(rank_sum_test({}, {1.0}).has_value());
}

// A wild trial does not decide the ranking: the median ranks, the mean is shown beside it.
TEST_F(ComparisonFixture, OneWildTrialDoesNotWinOrLose) {
  json r{{"cells", json::array()}};
  r["cells"].push_back(make_cell("ds", "steady", 0.1, "normalized_kmeans_cost",
                                 {1.9, 2.0, 2.1, 2.0, 1.95, 2.05, 2.0, 2.02, 1.98, 2.01}));
  r["cells"].push_back(make_cell("ds", "wild", 0.1, "normalized_kmeans_cost",
                                 {1.2, 1.3, 1.25, 1.22, 1.28, 1.3, 1.21, 1.27, 1.24, 9369525.0}));
  const auto t = compare_methods("e", r);
  ASSERT_EQ(t.size(), 1u);
  const auto& wild = *row(t[0], "wild").cells[0];
  EXPECT_TRUE(wild.best);  // median 1.26 against 2.0, whatever its mean (936,953.6)
  EXPECT_GT(wild.sample.mean, 900000.0);
  EXPECT_TRUE(row(t[0], "steady").cells[0]->significant);  // 9 of its 10 trials are above all of wild's but one
  const std::string md = comparison_table_markdown(t[0]);
  EXPECT_NE(md.find("| wild | **1.260** [1.210, 1.300] · mean 936953.627 (10) |"), std::string::npos) << md;
}

// An undefined value (a silhouette of one cluster: null in the trial) counts as a failure, and a cell with
// fewer than half of its trials valid is not ranked: never the best, never tested.
TEST_F(ComparisonFixture, CellWithFewerThanHalfValidIsNotRanked) {
  json r{{"cells", json::array()}};
  json one = make_cell("ds", "dp_kmeans", 2.0, "silhouette", {0.094});
  for (int i = 1; i < 10; ++i) one["trials"].push_back({{"trial", i}, {"metrics", {{"silhouette", nullptr}}}});
  r["cells"].push_back(one);
  r["cells"].push_back(
      make_cell("ds", "dpm", 2.0, "silhouette", {0.05, 0.06, 0.04, 0.05, 0.07, 0.05, 0.06, 0.05, 0.04, 0.05}));
  const auto t = compare_methods("e", r);
  ASSERT_EQ(t.size(), 1u);
  const auto& c = *row(t[0], "dp_kmeans").cells[0];
  EXPECT_FALSE(c.ranked);
  EXPECT_FALSE(c.best);
  EXPECT_FALSE(c.test.has_value());
  EXPECT_EQ(c.failures, 9u);  // the nine undefined values
  EXPECT_TRUE(row(t[0], "dpm").cells[0]->best);
  EXPECT_EQ(t[0].unranked_cells, 1u);
  const std::string md = comparison_table_markdown(t[0]);
  EXPECT_NE(md.find("0.094 [-] · mean 0.094 (1 of 10), not ranked (fewer than half of the trials valid)"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("fail 90%"), std::string::npos) << md;
}

// A private row significantly worse with more epsilon is marked, with its pairs; a row that only improves is not.
TEST_F(ComparisonFixture, RowWorseWithMoreEpsilonIsMarked) {
  json r{{"cells", json::array()}};
  auto around = [](double x) {
    std::vector<double> v;
    for (int i = 0; i < 10; ++i) v.push_back(x + 0.001 * i);
    return v;
  };
  r["cells"].push_back(make_cell("ds", "dp_dbscan", 0.2, "ari", around(0.78)));
  r["cells"].push_back(make_cell("ds", "dp_dbscan", 1.0, "ari", around(0.21)));
  r["cells"].push_back(make_cell("ds", "dp_dbscan", 5.0, "ari", around(0.0)));
  r["cells"].push_back(make_cell("ds", "eugkm", 0.2, "ari", around(0.90)));
  r["cells"].push_back(make_cell("ds", "eugkm", 1.0, "ari", around(0.95)));
  r["cells"].push_back(make_cell("ds", "eugkm", 5.0, "ari", around(0.99)));
  const auto t = compare_methods("e", r);
  ASSERT_EQ(t.size(), 1u);
  EXPECT_EQ(t[0].decline_tests, 6u);  // 3 pairs a row
  EXPECT_EQ(t[0].declining_rows, 1u);
  EXPECT_EQ(row(t[0], "dp_dbscan").declines.size(), 3u);  // 1 < 0.2, 5 < 0.2, 5 < 1: p = 1/C(20,10) each, Holm 6x
  EXPECT_TRUE(row(t[0], "eugkm").declines.empty());
  const std::string md = comparison_table_markdown(t[0]);
  EXPECT_NE(md.find("| dp_dbscan ⤓ |"), std::string::npos) << md;
  EXPECT_NE(md.find("- dp_dbscan: ε = 1 (median 0.21"), std::string::npos)
      << md;  // 0.2145 and 0.7845: the medians shown
  EXPECT_NE(md.find(") worse than ε = 0.2 (0.78"), std::string::npos) << md;
  EXPECT_NE(md.find("), p < 0.001"), std::string::npos) << md;
}

// The (eps, delta) rows of a table at different deltas: flagged above the table; one delta: nothing said.
TEST_F(ComparisonFixture, DeltaThatDiffersBetweenRowsIsFlagged) {
  auto with_delta = [](json c, double delta) {
    c["side_information"] =
        json::array({{{"input", "delta"}, {"source", "public"}, {"value", delta}, {"how", "given in the config"}}});
    return c;
  };
  json r{{"cells", json::array()}};
  r["cells"].push_back(with_delta(make_cell("ds", "lsh_clustering", 1.0, "ari", {0.7, 0.8}), 1e-6));
  r["cells"].push_back(with_delta(make_cell("ds", "dpm", 1.0, "ari", {0.6, 0.7}), 1e-5));
  const auto t = compare_methods("e", r);
  ASSERT_EQ(t[0].delta_groups.size(), 2u);
  EXPECT_NE(comparison_table_markdown(t[0]).find(
                "**δ differs between the (ε, δ) rows of this table:** δ = 1e-06 (lsh_clustering); δ = 1e-05 (dpm)"),
            std::string::npos);
  json same{{"cells", json::array()}};
  same["cells"].push_back(with_delta(make_cell("ds", "lsh_clustering", 1.0, "ari", {0.7, 0.8}), 1e-6));
  same["cells"].push_back(with_delta(make_cell("ds", "dpm", 1.0, "ari", {0.6, 0.7}), 1e-6));
  const auto u = compare_methods("e", same);
  EXPECT_TRUE(u[0].delta_groups.empty());
  EXPECT_EQ(comparison_table_markdown(u[0]).find("δ differs"), std::string::npos);
}

// The comparison as files for a paper: one CSV line per cell with every statistic at full precision, a LaTeX
// booktabs table with the best median in bold and the names escaped, both written per (dataset, metric).
TEST_F(ComparisonFixture, TablesAsCsvAndLatex) {
  const auto tables = compare_methods("mine", results());
  const std::string csv = comparison_csv({&tables[0], &tables[1]});
  std::istringstream lines(csv);
  std::string header, line;
  std::getline(lines, header);
  EXPECT_EQ(header.rfind("experiment,dataset,metric,direction,axis,series,label,role,epsilon,trials,valid,ranked,"
                         "median,median_lo,median_hi,",
                         0),
            0u)
      << header;
  std::size_t n = 0;
  bool found = false;
  while (std::getline(lines, line)) {
    ++n;
    if (line.rfind("mine,ds,ari,higher is "
                   "better,central,dp_b,dp_b,private,0.5,3,3,true,0.55000000000000004,0.5,0.59999999999999998,",
                   0) == 0)
      found = true;
  }
  EXPECT_TRUE(found) << csv;
  EXPECT_EQ(n, 10u);  // central: dp_a x2, dp_b x2, dp_c (skipped), kmeans, dbscan; local: nd_laplace, kmeans, dbscan
  const std::string tex = comparison_latex({&tables[0], &tables[1]});
  for (const char* part : {"\\toprule", "\\midrule", "\\bottomrule", "\\textbf{0.550}", "nd\\_laplace",
                           "\\label{tab:mine:ds:ari}", "$\\varepsilon = 0.5$", "local $\\varepsilon = 2$"})
    EXPECT_NE(tex.find(part), std::string::npos) << part << "\n" << tex;
  EXPECT_EQ(tex.find("$$"), std::string::npos) << tex;  // a cell's marks in one superscript, never display math
  const auto dir = std::filesystem::temp_directory_path() / "dpclust_tables_test";
  std::filesystem::remove_all(dir);
  const Results res(std::map<std::string, json>{{"mine", results()}});
  const auto written = write_comparison_tables(res, dir);
  ASSERT_EQ(written.size(), 2u);  // one (dataset, metric): its CSV and its LaTeX
  EXPECT_TRUE(std::filesystem::is_regular_file(dir / "mine" / "ds__ari.csv"));
  EXPECT_TRUE(std::filesystem::is_regular_file(dir / "mine" / "ds__ari.tex"));
  std::filesystem::remove_all(dir);
}

// Papers none of whose values the results cover: one line naming them all, no section of "not run" rows each.
TEST(ReportPapers, PapersWithoutResultsAreOneLine) {
  const Reference ref = load_reference(std::filesystem::path(DPCLUST_TEST_SOURCE_DIR) / "reference" / "published.yaml");
  const Results res(std::filesystem::path(DPCLUST_TEST_SOURCE_DIR) / "tests" / "fixtures" /
                    "results");  // DP-DBSCAN's only
  const std::string md = write_markdown(ref, res, ReportOptions{});
  EXPECT_NE(md.find("## Papers without results\n\nNot run here"), std::string::npos);
  const auto pos = md.find("## Papers without results");
  const std::string line = md.substr(pos, md.find('\n', md.find("Not run here", pos)) - pos);
  EXPECT_NE(line.find("DPM"), std::string::npos) << line;
  EXPECT_NE(line.find("DRBT"), std::string::npos) << line;
  EXPECT_EQ(md.find("\n## " + ref.papers.at("dpm") + "\n"), std::string::npos);  // no section of its own
  EXPECT_NE(md.find("\n## " + ref.papers.at("dpdbscan") + "\n"),
            std::string::npos);  // the paper with results keeps its
}

// A LaTeX cell with several marks puts them in one superscript: "$^{\dagger}$$^{\ddagger}$" would open display math.
TEST_F(ComparisonFixture, LatexMarksShareOneSuperscript) {
  json r{{"experiment", "e"}, {"cells", json::array()}};
  std::vector<double> high, low;
  for (int i = 0; i < 10; ++i) high.push_back(0.9 + 0.001 * i), low.push_back(0.1 + 0.001 * i);
  r["cells"].push_back(make_cell("ds", "good", 1.0, "ari", high));
  json flagged = make_cell("ds", "textbook", 1.0, "ari", low);
  flagged["non_private"] = json::array({"the textbook sampler"});
  r["cells"].push_back(flagged);
  const auto t = compare_methods("e", r);
  const std::string tex = comparison_latex({&t[0]});
  EXPECT_NE(tex.find("$^{\\dagger,\\ddagger}$"), std::string::npos) << tex;
  EXPECT_EQ(tex.find("$$"), std::string::npos) << tex;
}
