// The benchmark's part of the comparison (docs/benchmark.md): the spread of a cell (median, 10th and 90th
// percentiles by linear interpolation, numpy's default), its failure rate, the test of every private cell
// against the trivial baseline (a private method that does not beat it is flagged), the test against each row's
// non-private counterpart run on the same public inputs, the side information compared between rows (rows
// given other information are marked), oracle-tuned rows, and the win regions (the best private method of a
// column only where it is significantly best). Every expected number is computed by hand in the comments.
#include <gtest/gtest.h>

#include <cmath>

#include "report/comparison.hpp"
#include "report/comparison_markdown.hpp"
#include "report/comparison_stats.hpp"
#include "report/win_regions.hpp"
#include "report/win_regions_markdown.hpp"

using namespace dpclust::report;
using json = nlohmann::json;

namespace benchmark_comparison_test {  // named: the report tests are a unity build

// One trial's metrics: the ARI (absent when nullopt) and the number of clusters found.
struct Trial {
  std::optional<double> ari;
  double n_clusters = 3;
};

// A results cell as the runner writes it for a benchmark (role, counterpart, side information, tuning).
json bench_cell(const std::string& method, std::optional<double> eps, const std::vector<Trial>& trials,
                const std::string& role, json side = json::array(), json extra_params = json::object(),
                const std::string& dataset = "ds") {
  json params = extra_params;
  if (eps) params["epsilon"] = *eps;
  const bool priv = role != "non_private";
  json c{{"dataset", dataset}, {"series", method}, {"method", method},       {"params", params},
         {"private", priv},    {"role", role},     {"trials", json::array()}};
  c["privacy_spent"] = priv ? json{{"measure", "pure"}} : json{{"private", false}};
  if (role == "private") c["counterpart"] = "kmeans";
  if (!side.is_null()) c["side_information"] = side;
  c["tuning"] = {{"oracle", false}, {"search", "none"}};
  for (std::size_t i = 0; i < trials.size(); ++i) {
    json m{{"n_clusters", trials[i].n_clusters}};
    if (trials[i].ari) m["ari"] = *trials[i].ari;
    c["trials"].push_back({{"trial", i}, {"metrics", m}});
  }
  c["aggregates"] = {{"ari", {{"n", trials.size()}}}};
  return c;
}

std::vector<Trial> values(std::initializer_list<double> v) {
  std::vector<Trial> t;
  for (double x : v) t.push_back({x, 3});
  return t;
}

// Ten trials x, x + step, ..., x + 9 step.
std::vector<Trial> ten(double x, double step = 0.01) {
  std::vector<Trial> t;
  for (int i = 0; i < 10; ++i) t.push_back({x + step * i, 3});
  return t;
}

json k_given(int k) {
  return {{"input", "k"}, {"source", "public"}, {"value", k}, {"how", "given in the config"}, {"params", {"k"}}};
}
json bounds_public() { return {{"input", "bounds"}, {"source", "public"}, {"how", "a box given in the config"}}; }
json bounds_from_data() {
  return {{"input", "bounds"}, {"source", "data"}, {"how", "the data's bounding box (bounds: data, flagged)"}};
}

const ComparisonRow& row_of(const ComparisonTable& t, const std::string& label) {
  for (const auto& r : t.rows)
    if (r.label.rfind(label, 0) == 0) return r;
  throw std::runtime_error("no row " + label);
}

// A benchmark at one epsilon: three private methods, the trivial baseline, the non-private counterpart at the
// cell's k (3) and at another k (4), which must not be taken as the counterpart.
json benchmark_results() {
  json r{{"experiment", "bench"}, {"cells", json::array()}};
  auto& c = r["cells"];
  // dp_a: ARI 0.9, 0.8 (but no cluster found), 0.7, 0.3 and a trial without a value.
  c.push_back(bench_cell("dp_a", 1.0, {{0.9, 3}, {0.8, 0}, {0.7, 3}, {0.3, 3}, {std::nullopt, 0}}, "private",
                         json::array({bounds_public(), k_given(3)}), {{"k", 3}}));
  // dp_b: the baseline's own values (no better), and its bounds taken from the data (oracle-tuned).
  json b = bench_cell("dp_b", 1.0, ten(0.45), "private", json::array({bounds_from_data(), k_given(3)}), {{"k", 3}});
  b["tuning"] = {{"oracle", true}, {"search", "none"}, {"reasons", {"bounds: the data's bounding box"}}};
  c.push_back(b);
  c.push_back(
      bench_cell("dp_c", 1.0, ten(0.9, 0.001), "private", json::array({bounds_public(), k_given(3)}), {{"k", 3}}));
  c.push_back(bench_cell("kmeans", std::nullopt, values({0.6, 0.6, 0.6}), "non_private", nullptr, {{"k", 4}}));
  c.push_back(bench_cell("kmeans", std::nullopt, values({0.95, 0.95, 0.97}), "non_private", nullptr, {{"k", 3}}));
  c.push_back(bench_cell("uniform_centres", std::nullopt, ten(0.45), "trivial_baseline",
                         json::array({bounds_public(), k_given(3)}), {{"k", 3}}));
  return r;
}

}  // namespace benchmark_comparison_test

using namespace benchmark_comparison_test;

// numpy.percentile(x, [50, 10, 90]) (method "linear"): h = (n - 1) q, x_floor(h) + frac(h) (next - x_floor(h)).
TEST(BenchmarkSpread, PercentilesInterpolateLinearly) {
  // 1..10 (given unsorted): h = 4.5 -> 5.5; h = 0.9 -> 1.9; h = 8.1 -> 9.1.
  const auto s = spread({10, 1, 9, 2, 8, 3, 7, 4, 6, 5});
  ASSERT_TRUE(s.has_value());
  EXPECT_NEAR(s->median, 5.5, 1e-12);
  EXPECT_NEAR(s->p10, 1.9, 1e-12);
  EXPECT_NEAR(s->p90, 9.1, 1e-12);
  // 0.3, 0.7, 0.8, 0.9: h = 1.5 -> 0.75; h = 0.3 -> 0.3 + 0.3 * 0.4 = 0.42; h = 2.7 -> 0.8 + 0.7 * 0.1 = 0.87.
  const auto t = spread({0.9, 0.8, 0.7, 0.3});
  EXPECT_NEAR(t->median, 0.75, 1e-12);
  EXPECT_NEAR(t->p10, 0.42, 1e-12);
  EXPECT_NEAR(t->p90, 0.87, 1e-12);
  // One value is every percentile; none has no spread; q is clamped to [0, 1].
  const auto one = spread({0.4});
  EXPECT_EQ(one->median, 0.4);
  EXPECT_EQ(one->p10, 0.4);
  EXPECT_EQ(one->p90, 0.4);
  EXPECT_FALSE(spread({}).has_value());
  EXPECT_EQ(quantile({3, 1, 2}, 1.5), 3.0);
  EXPECT_EQ(quantile({3, 1, 2}, -1), 1.0);
  EXPECT_TRUE(std::isnan(quantile({}, 0.5)));
}

TEST(BenchmarkSpread, NoBetterThanFollowsTheMetricsDirection) {
  EXPECT_TRUE(no_better_than(0.5, 0.5, Better::higher));  // equal is no better
  EXPECT_FALSE(no_better_than(0.51, 0.5, Better::higher));
  EXPECT_TRUE(no_better_than(0.49, 0.5, Better::higher));
  EXPECT_FALSE(no_better_than(0.49, 0.5, Better::lower));
  EXPECT_TRUE(no_better_than(0.5, 0.5, Better::lower));
  EXPECT_TRUE(no_better_than(std::nan(""), 0.5, Better::higher));  // a trial without a value
  EXPECT_FALSE(no_better_than(0.1, 0.5, Better::none));            // no direction: never a failure
}

TEST(BenchmarkComparison, SpreadAndFailureRate) {
  const auto tables = compare_methods("bench", benchmark_results());
  ASSERT_EQ(tables.size(), 1u);
  const ComparisonTable& t = tables[0];
  ASSERT_TRUE(t.baseline_row.has_value());
  EXPECT_EQ(t.rows[*t.baseline_row].label, "uniform_centres");
  EXPECT_EQ(t.rows[*t.baseline_row].role, RowRole::trivial_baseline);
  // dp_a: the 4 values 0.9, 0.8, 0.7, 0.3 (see PercentilesInterpolateLinearly) out of 5 trials. Failed: the trial
  // that found no cluster (0.8), the one no better than the baseline's median 0.495 (0.3), the one without a value:
  // 3 of 5.
  const auto& a = *row_of(t, "dp_a").cells[0];
  EXPECT_EQ(a.trials, 5u);
  EXPECT_EQ(a.sample.n, 4u);
  ASSERT_TRUE(a.spread.has_value());
  EXPECT_NEAR(a.spread->median, 0.75, 1e-12);
  EXPECT_NEAR(a.spread->p10, 0.42, 1e-12);
  EXPECT_NEAR(a.spread->p90, 0.87, 1e-12);
  EXPECT_EQ(a.failures, 3u);
  EXPECT_TRUE(a.failure_against_baseline);
  // dp_b: 0.45 .. 0.49 are no better than 0.495; dp_c fails nowhere.
  EXPECT_EQ(row_of(t, "dp_b").cells[0]->failures, 5u);
  EXPECT_EQ(row_of(t, "dp_c").cells[0]->failures, 0u);
  const std::string md = comparison_table_markdown(t);
  EXPECT_NE(md.find("p10-p90 [0.420, 0.870], fail 60%"), std::string::npos) << md;
  EXPECT_NE(md.find("fail 50%"), std::string::npos) << md;  // dp_b: 5 of 10
}

TEST(BenchmarkComparison, PrivateMethodNotBeatingTheBaselineIsFlagged) {
  const auto tables = compare_methods("bench", benchmark_results());
  const ComparisonTable& t = tables[0];
  // The rank-sum test against the baseline (0.45, 0.46, ..., 0.54; median 0.495):
  //  dp_a: 0.9, 0.8, 0.7 above all ten, 0.3 below: U = 30 of 40, two-sided exact p = 2 * 94 / C(14, 4) = 0.1878
  //        (a better median, 0.75, not significant);
  //  dp_b: the same values, p = 1;  dp_c: 0.900 .. 0.909 above all ten: p = 2 / C(20, 10).
  const auto& a = *row_of(t, "dp_a").cells[0];
  const auto& b = *row_of(t, "dp_b").cells[0];
  const auto& c = *row_of(t, "dp_c").cells[0];
  ASSERT_TRUE(a.vs_baseline && b.vs_baseline && c.vs_baseline);
  EXPECT_EQ(a.vs_baseline->u, 30.0);
  EXPECT_NEAR(a.vs_baseline->p, 2 * 94.0 / 1001, 1e-15);
  EXPECT_EQ(b.vs_baseline->p, 1.0);
  EXPECT_NEAR(c.vs_baseline->p, 2.0 / 184756, 1e-18);
  // Holm over the 3 tests: the smallest p (dp_c) times 3, then dp_a's times 2 (kept at least that), dp_b's 1.
  EXPECT_EQ(t.baseline_tests, 3u);
  EXPECT_NEAR(*c.baseline_p_holm, 3 * c.vs_baseline->p, 1e-15);
  EXPECT_NEAR(*a.baseline_p_holm, std::max(2 * a.vs_baseline->p, 3 * c.vs_baseline->p), 1e-15);
  EXPECT_EQ(*b.baseline_p_holm, 1.0);
  EXPECT_LT(*c.baseline_p_holm, 0.05);
  EXPECT_GT(*a.baseline_p_holm, 0.05);
  EXPECT_TRUE(c.beats_baseline);
  EXPECT_FALSE(a.beats_baseline);  // a better median, not significantly
  EXPECT_FALSE(b.beats_baseline);  // not better at all
  EXPECT_EQ(t.baseline_compared, 3u);
  EXPECT_EQ(t.below_baseline, 2u);
  const std::string md = comparison_table_markdown(t);
  EXPECT_NE(md.find("1 of 3 private cells beat it"), std::string::npos) << md;
  // The flag is on dp_a's and dp_b's cells, not on dp_c's.
  for (const auto& [label, flagged] :
       std::vector<std::pair<std::string, bool>>{{"| dp_a", true}, {"| dp_b", true}, {"| dp_c", false}}) {
    const auto at = md.find(label);
    ASSERT_NE(at, std::string::npos);
    const std::string line = md.substr(at, md.find('\n', at) - at);
    EXPECT_EQ(line.find("▼") != std::string::npos, flagged) << line;
  }
}

TEST(BenchmarkComparison, EachPrivateRowIsTestedAgainstItsCounterpartOnTheSameInputs) {
  const auto tables = compare_methods("bench", benchmark_results());
  const ComparisonTable& t = tables[0];
  // kmeans at k = 4 comes first in the results but was given another k: the counterpart is kmeans at k = 3,
  // median 0.95. The gaps are of the medians: dp_a 0.75 - 0.95 = -0.2; dp_c 0.9045 - 0.95 = -0.0455.
  const auto& a_row = row_of(t, "dp_a");
  EXPECT_NE(a_row.counterpart_label.find("k=3"), std::string::npos) << a_row.counterpart_label;
  EXPECT_NEAR(*a_row.cells[0]->counterpart_gap, -0.2, 1e-12);
  EXPECT_NEAR(*row_of(t, "dp_c").cells[0]->counterpart_gap, -0.0455, 1e-12);
  EXPECT_EQ(t.counterpart_tests, 3u);
}

TEST(BenchmarkComparison, RowsGivenOtherSideInformationAreMarked) {
  const auto tables = compare_methods("bench", benchmark_results());
  const ComparisonTable& t = tables[0];
  // bounds: public for dp_a, dp_c and the baseline; taken from the data for dp_b. k: 3 for all (no difference).
  ASSERT_EQ(t.side_differences.size(), 1u);
  const auto& d = t.side_differences[0];
  EXPECT_EQ(d.input, "bounds");
  ASSERT_EQ(d.groups.size(), 2u);
  EXPECT_EQ(d.groups[0].rows, (std::vector<std::string>{"dp_a", "dp_c", "uniform_centres"}));
  EXPECT_EQ(d.groups[1].description, "taken from the data: the data's bounding box (bounds: data, flagged)");
  EXPECT_EQ(d.marked, std::vector<std::string>{"dp_b"});
  EXPECT_TRUE(row_of(t, "dp_b").side_differs);
  EXPECT_FALSE(row_of(t, "dp_a").side_differs);
  EXPECT_FALSE(row_of(t, "uniform_centres").side_differs);
  // dp_b is also oracle-tuned, and says why.
  EXPECT_EQ(row_of(t, "dp_b").oracle, std::vector<std::string>{"bounds: the data's bounding box"});
  EXPECT_TRUE(row_of(t, "dp_a").oracle.empty());
  const std::string md = comparison_table_markdown(t);
  EXPECT_NE(md.find("| dp_b ° ◇ |"), std::string::npos) << md;
  EXPECT_NE(md.find("- bounds: given (a box given in the config) (dp_a, dp_c, uniform_centres); taken from the data"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("- dp_b: bounds: the data's bounding box"), std::string::npos) << md;
}

TEST(BenchmarkComparison, WithoutAMajorityEveryRowOfTheInputIsMarked) {
  // Two private methods, one given k = 3, the other not using k (a privately estimated n is no information
  // about the data either, so both are "not given"); no group is the largest: both rows are marked.
  json r{{"experiment", "bench"}, {"cells", json::array()}};
  r["cells"].push_back(bench_cell("dp_a", 1.0, values({0.5, 0.6}), "private", json::array({k_given(3)})));
  r["cells"].push_back(
      bench_cell("dp_m", 1.0, values({0.5, 0.6}), "private",
                 json::array({{{"input", "k"}, {"source", "none"}, {"how", "chooses its leaves itself"}},
                              {{"input", "n"}, {"source", "private"}, {"how", "a noisy count"}}})));
  const auto t = compare_methods("bench", r)[0];
  ASSERT_EQ(t.side_differences.size(), 1u);  // n: "not given" for both (estimated privately = no information)
  EXPECT_EQ(t.side_differences[0].input, "k");
  EXPECT_EQ(t.side_differences[0].groups[1].description, "not given (not used: dp_m)");
  EXPECT_TRUE(row_of(t, "dp_a").side_differs);
  EXPECT_TRUE(row_of(t, "dp_m").side_differs);
  // Results written before side information was recorded: listed as such, not compared.
  r["cells"][1].erase("side_information");
  const auto old = compare_methods("bench", r)[0];
  EXPECT_TRUE(old.side_differences.empty());
  EXPECT_EQ(old.side_not_recorded, std::vector<std::string>{"dp_m"});
}

// The win regions: per column, the best median's row only where the rank-sum test (Holm over the table's tests)
// rejects against every other private row; the baseline and the references never compete.
TEST(WinRegions, BestOnlyWhereSignificantlyBest) {
  json r{{"experiment", "bench"}, {"cells", json::array()}};
  auto& c = r["cells"];
  // eps 0.5: A clearly best. eps 1: A has the best median (0.965 vs 0.9595) but its spread hides it. eps 2: A alone.
  c.push_back(bench_cell("A", 0.5, ten(0.90, 0.001), "private"));
  c.push_back(bench_cell("B", 0.5, ten(0.50), "private"));
  c.push_back(bench_cell("A", 1.0, values({0.70, 0.75, 0.80, 0.85, 0.96, 0.97, 0.98, 0.99, 0.995, 0.999}), "private"));
  c.push_back(bench_cell("B", 1.0, ten(0.955, 0.001), "private"));
  c.push_back(bench_cell("A", 2.0, values({0.95, 0.96}), "private"));
  c.push_back(bench_cell("uniform_centres", std::nullopt, ten(0.99, 0.0), "trivial_baseline"));
  const auto tables = compare_methods("bench", r);
  const auto w = column_winners(tables[0]);
  ASSERT_EQ(w.size(), 4u);  // 0.5, 1, 2, no epsilon
  ASSERT_TRUE(w[0] && w[1] && w[2]);
  EXPECT_EQ(w[0]->best, "A");
  EXPECT_TRUE(w[0]->significant);
  EXPECT_EQ(w[1]->best, "A");
  EXPECT_FALSE(w[1]->significant);
  EXPECT_EQ(w[2]->competitors, 1u);
  EXPECT_FALSE(w[2]->significant);
  EXPECT_FALSE(w[3].has_value());  // the baseline's column: nobody competes
}

TEST(WinRegions, LowerIsBetterAndTablesPerFamilyOverN) {
  json r{{"experiment", "bench"}, {"cells", json::array()}};
  r["datasets"] = {{"small", {{"n", 1000}, {"d", 2}, {"family", "gmix"}}},
                   {"large", {{"n", 10000}, {"d", 2}, {"family", "gmix"}}}};
  auto cost = [](const std::string& m, const std::string& ds, std::initializer_list<double> v) {
    json cell = bench_cell(m, 1.0, values({}), "private", json::array(), json::object(), ds);
    cell["trials"] = json::array();
    std::size_t i = 0;
    for (double x : v) cell["trials"].push_back({{"trial", i++}, {"metrics", {{"inertia", x}}}});
    cell["aggregates"] = {{"inertia", {{"n", v.size()}}}};
    return cell;
  };
  // Listed large first: the table is sorted by n. Inertia: lower is better, so B wins at n = 10^4.
  r["cells"].push_back(cost("A", "large", {5.0, 5.1, 5.2, 5.3, 5.4, 5.5}));
  r["cells"].push_back(cost("B", "large", {1.0, 1.1, 1.2, 1.3, 1.4, 1.5}));
  r["cells"].push_back(cost("A", "small", {1.0, 1.1, 1.2, 1.3, 1.4, 1.5}));
  r["cells"].push_back(cost("B", "small", {5.0, 5.1, 5.2, 5.3, 5.4, 5.5}));
  const auto tables = compare_methods("bench", r);
  const auto wins = win_regions(r, tables);
  ASSERT_EQ(wins.size(), 1u);  // one family, two sizes n, one dimension: an (n, eps) table only
  const WinTable& w = wins[0];
  EXPECT_EQ(w.family, "gmix");
  EXPECT_EQ(w.axis, "n");
  EXPECT_EQ(w.metric, "inertia");
  ASSERT_EQ(w.rows.size(), 2u);
  EXPECT_EQ(w.rows[0].n, 1000u);
  EXPECT_EQ(w.rows[0].cells[0]->best, "A");
  EXPECT_EQ(w.rows[1].cells[0]->best, "B");
  EXPECT_TRUE(w.rows[0].cells[0]->significant && w.rows[1].cells[0]->significant);
  const std::string md = win_table_markdown(w);
  EXPECT_NE(md.find("| 10^3 (d = 2) | **A** |"), std::string::npos) << md;
  EXPECT_NE(md.find("| 10^4 (d = 2) | **B** |"), std::string::npos) << md;
  EXPECT_NE(md.find("Significant winners in 2 of 2 cells (A 1, B 1)"), std::string::npos) << md;
}
