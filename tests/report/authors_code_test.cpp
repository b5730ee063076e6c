// The report's section "The authors' own seeds" (authors_code: in the reference file) on fixture
// results: a value reproduced exactly at the published value's printed decimals, one that differs, a
// missing seed, a single-run protocol (seed 0), an authors' experiment that was not run, the
// compare: tolerance form; and `dpclust report --min-trials-for-variance`.
#include <gtest/gtest.h>
#include <unistd.h>

#include <fstream>

#include "core/error.hpp"
#include "report/report.hpp"
#include "test_support.hpp"

using namespace dpclust::report;
using json = nlohmann::json;
namespace fs = std::filesystem;

namespace {

// A cell as the runner writes it: one record per trial with its "seed", the metric in `part`
// ("metrics" or "diagnostics") and the aggregate (mean, n) in the matching aggregates block.
json seeded_cell(const std::string& dataset, const std::string& series, const std::string& metric,
                 const std::vector<std::uint64_t>& seeds, const std::vector<double>& values,
                 const std::string& part = "metrics") {
  double sum = 0;
  for (double x : values) sum += x;
  const std::string agg = part == "metrics" ? "aggregates" : "diagnostics_aggregates";
  json c{{"dataset", dataset}, {"series", series}, {"params", {{"epsilon", 1.0}}}, {"trials", json::array()}};
  c[agg] = {{metric, {{"n", values.size()}, {"mean", sum / static_cast<double>(values.size())}, {"ci95", nullptr}}}};
  for (std::size_t i = 0; i < values.size(); ++i)
    c["trials"].push_back({{"trial", i}, {"seed", seeds[i]}, {part, {{metric, values[i]}}}});
  return c;
}

json experiment(const std::string& name, std::size_t trials) {
  return {{"experiment", name},
          {"trials", trials},
          {"cells", json::array()},
          {"provenance", {{"config_file", "configs/paper/" + name + ".yaml"}, {"runs", json::array()}}}};
}

// dx: our default config (3 trials with derived seeds); ax: the authors' stream, seeds 0, 1, 2 (moons
// also has a seed 3, which a 3-seed mean must leave out; blobs lacks seed 1); wx: the authors' code
// options with our seeds.
std::map<std::string, json> fixture_experiments() {
  json dx = experiment("dx", 3);
  const std::vector<std::uint64_t> ours = {9017, 4412, 77};
  dx["cells"].push_back(seeded_cell("moons", "dp_dbscan", "ari", ours, {0.97, 0.98, 0.96}));
  dx["cells"].push_back(seeded_cell("cluto-t7", "dp_dbscan", "ari", ours, {0.40, 0.42, 0.44}));
  json ax = experiment("ax", 3);
  json moons =
      seeded_cell("moons", "dp_dbscan", "ari", {2, 0, 1, 3}, {0.992, 0.99, 0.985, 0.0});  // trials out of seed order
  moons["aggregates"]["ami"] = {{"n", 3}, {"mean", 0.46}};
  for (auto& t : moons["trials"]) t["metrics"]["ami"] = 0.46;
  ax["cells"].push_back(moons);
  ax["cells"].push_back(seeded_cell("cluto-t7", "dp_dbscan", "ari", {0, 1, 2}, {0.50, 0.47, 0.49}));
  ax["cells"].push_back(seeded_cell("blobs", "dp_dbscan", "ari", {0, 2}, {0.80, 0.82}));
  ax["cells"].push_back(seeded_cell("circles", "dp_dbscan", "ari", {0, 1, 2}, {0.94, 0.002, 0.001}));
  json wx = experiment("wx", 3);
  wx["cells"].push_back(seeded_cell("ds2", "privthr", "kprime", {5551, 5552, 5553}, {140, 145, 150}, "diagnostics"));
  return {{"dx", dx}, {"ax", ax}, {"wx", wx}};
}

const char* kReference = R"(papers: {p: "Paper P"}
tables:
  - id: t2
    paper: p
    source: "Table 2"
    experiment: dx
    tolerance: 0.05
    protocol: {statistic: mean, seeds: 3}
    authors_code: {experiment: ax, series: [dp_dbscan]}
    overrides:
      - {dataset: circles, series: dp_dbscan, protocol: {statistic: single}}
    values:
      ari:
        moons: {dp_dbscan: 0.99, dp_kmeans: 0.51}
        cluto-t7: {dp_dbscan: 0.52}
        blobs: {dp_dbscan: 0.81}
        circles: {dp_dbscan: 0.94}
      ami:
        moons: {dp_dbscan: 0.50}
values:
  - {id: kp, paper: p, source: "Sec. 7", value: 141.0, tolerance_relative: 0.06, protocol: {statistic: mean, seeds: 3},
     authors_code: {experiment: wx, compare: tolerance, label: "the authors' code options", note: "em_repeats is flagged non_private"},
     query: {experiment: dx, dataset: ds2, series: privthr, metric: kprime}}
  - {id: gone, paper: p, source: "Table 2", value: 0.99, tolerance: 0.05, protocol: {statistic: mean, seeds: 3},
     authors_code: {experiment: absent_authors}, query: {experiment: dx, dataset: moons, series: dp_dbscan, metric: ari}}
)";

Reference load(const std::string& yaml, const std::string& tag) {
  return load_reference(dpclust::testing::write_file(dpclust::testing::temp_dir(tag) / "pub.yaml", yaml));
}

const PublishedValue& find(const Reference& ref, const std::string& id) {
  for (const auto& v : ref.values)
    if (v.id == id) return v;
  throw std::runtime_error("no published value " + id);
}

// The results directory `dpclust run` would leave: OUT/<experiment>/results.json.
fs::path write_results(const fs::path& dir) {
  for (const auto& [name, j] : fixture_experiments())
    dpclust::testing::write_file(dir / name / "results.json", j.dump(1));
  return dir;
}

// The dpclust binary of this build: <build>/experiments/dpclust beside <build>/tests/test_report.
fs::path dpclust_binary() {
  std::error_code ec;
  const fs::path self = fs::read_symlink("/proc/self/exe", ec);
  return ec ? fs::path() : self.parent_path().parent_path() / "experiments" / "dpclust";
}

}  // namespace

TEST(AuthorsCode, PrintedDecimalsCountTheNumberAsWritten) {
  EXPECT_EQ(printed_decimals("0.94"), 2);
  EXPECT_EQ(printed_decimals("0.50"), 2);
  EXPECT_EQ(printed_decimals("284"), 0);
  EXPECT_EQ(printed_decimals("141.0"), 1);
  EXPECT_EQ(printed_decimals("252.45"), 2);
  EXPECT_EQ(printed_decimals("-0.001"), 3);
  EXPECT_EQ(printed_decimals("1.5e-2"), 3);
  EXPECT_EQ(printed_decimals("2e3"), 0);
}

TEST(AuthorsCode, TableAndValueEntriesAreRead) {
  const Reference ref = load(kReference, "acread");
  ASSERT_EQ(ref.values.size(), 8u);
  const PublishedValue& moons = find(ref, "t2.ari.moons.dp_dbscan");
  ASSERT_TRUE(moons.authors_code.has_value());
  EXPECT_EQ(moons.authors_code->experiment, "ax");
  EXPECT_EQ(moons.authors_code->label, "the authors' own seeds");
  EXPECT_TRUE(moons.authors_code->by_seeds);
  EXPECT_EQ(moons.value_text, "0.99");
  EXPECT_EQ(find(ref, "t2.ami.moons.dp_dbscan").value_text, "0.50");           // the trailing zero is kept
  EXPECT_FALSE(find(ref, "t2.ari.moons.dp_kmeans").authors_code.has_value());  // not in the listed series
  EXPECT_EQ(find(ref, "t2.ari.circles.dp_dbscan").protocol.statistic, SeedStatistic::single);  // overrides apply
  const PublishedValue& kp = find(ref, "kp");
  ASSERT_TRUE(kp.authors_code.has_value());
  EXPECT_FALSE(kp.authors_code->by_seeds);
  EXPECT_EQ(kp.authors_code->label, "the authors' code options");
  EXPECT_EQ(kp.authors_code->note, "em_repeats is flagged non_private");
}

TEST(AuthorsCode, SchemaErrorsNameTheEntry) {
  const auto expect_error = [&](const std::string& yaml, const std::vector<std::string>& parts) {
    try {
      load(yaml, "acbad");
      ADD_FAILURE() << "accepted: " << yaml;
    } catch (const dpclust::InputError& e) {
      for (const auto& p : parts) EXPECT_NE(std::string(e.what()).find(p), std::string::npos) << e.what();
    }
  };
  const std::string table =
      "tables:\n  - {id: t2, experiment: e, tolerance: 0.1, protocol: {statistic: single}, values: {ari: {circles: {a: "
      "1.0}}},\n";
  expect_error(table + "     authors_code: {experiment: ax, series: [b]}}\n",
               {"table 't2'", "authors_code series 'b' is not a series"});
  expect_error(table + "     authors_code: {experiment: ax, seeds: [0, 1]}}\n",
               {"table 't2' authors_code", "unknown key 'seeds'"});
  expect_error(table + "     authors_code: {series: [a]}}\n", {"table 't2'", "authors_code needs 'experiment'"});
  expect_error(table + "     authors_code: {experiment: ax, compare: exact}}\n",
               {"'t2'", "compare 'exact' is not one of seeds, tolerance"});
  expect_error(
      "values:\n  - {id: v1, value: 1.0, tolerance: 0.1, protocol: {statistic: single}, query: {experiment: e, series: "
      "a},\n"
      "     authors_code: {experiment: ax, series: [b]}}\n",
      {"published value 'v1'", "do not include the value's series 'a'"});
}

TEST(AuthorsCode, SeedsAreMatchedByTheTrialRecordsSeed) {
  const Reference ref = load(kReference, "acseeds");
  const Results results(fixture_experiments());

  // Exact at 2 decimals: mean of seeds 0, 1, 2 = (0.99 + 0.985 + 0.992) / 3 = 0.989 -> 0.99 (seed 3 left out).
  AuthorsOutcome o = evaluate_authors(find(ref, "t2.ari.moons.dp_dbscan"), results);
  ASSERT_TRUE(o.reproduced.has_value());
  EXPECT_NEAR(*o.reproduced, 0.989, 1e-12);
  ASSERT_TRUE(o.exact.has_value());
  EXPECT_TRUE(*o.exact);
  EXPECT_EQ(o.status, "exact");
  ASSERT_EQ(o.per_seed.size(), 4u);  // every seeded trial, by seed
  EXPECT_EQ(o.per_seed[0].first, 0u);
  EXPECT_DOUBLE_EQ(o.per_seed[0].second, 0.99);
  EXPECT_EQ(o.per_seed[3].first, 3u);
  EXPECT_DOUBLE_EQ(o.per_seed[3].second, 0.0);

  // Differs: (0.50 + 0.47 + 0.49) / 3 = 0.48667 -> 0.49, published 0.52.
  o = evaluate_authors(find(ref, "t2.ari.cluto-t7.dp_dbscan"), results);
  ASSERT_TRUE(o.exact.has_value());
  EXPECT_FALSE(*o.exact);
  EXPECT_NEAR(o.difference, 1.46 / 3 - 0.52, 1e-12);
  EXPECT_EQ(o.status, "differs by -0.033");

  // Printed precision comes from the text: 0.46 against "0.50" differs at 2 decimals (at 1 it would not).
  o = evaluate_authors(find(ref, "t2.ami.moons.dp_dbscan"), results);
  EXPECT_EQ(o.status, "differs by -0.040");

  // A missing seed: no reproduction.
  o = evaluate_authors(find(ref, "t2.ari.blobs.dp_dbscan"), results);
  EXPECT_FALSE(o.reproduced.has_value());
  EXPECT_EQ(o.missing_seeds, std::vector<std::uint64_t>{1});
  EXPECT_EQ(o.status, "missing seeds 1");

  // Single-run protocol: seed 0 alone (the 3-seed mean would be 0.314).
  o = evaluate_authors(find(ref, "t2.ari.circles.dp_dbscan"), results);
  ASSERT_TRUE(o.reproduced.has_value());
  EXPECT_DOUBLE_EQ(*o.reproduced, 0.94);
  EXPECT_EQ(o.status, "exact");
  PublishedValue as_mean = find(ref, "t2.ari.circles.dp_dbscan");
  as_mean.protocol = {SeedStatistic::mean, 3, ""};
  o = evaluate_authors(as_mean, results);
  EXPECT_NEAR(*o.reproduced, 0.943 / 3, 1e-12);
  EXPECT_EQ(o.status, "differs by -0.626");
  as_mean.protocol = {SeedStatistic::mean, 5, ""};
  EXPECT_EQ(evaluate_authors(as_mean, results).status, "missing seeds 3, 4");

  // Not run: the authors' experiment has no results.
  o = evaluate_authors(find(ref, "gone"), results);
  EXPECT_FALSE(o.run);
  EXPECT_EQ(o.status, "not run (configs/paper/absent_authors.yaml)");

  // compare: tolerance - the mean over the authors' experiment's trials, judged by the tolerance:
  // 145 vs 141 +- 6% (8.46).
  o = evaluate_authors(find(ref, "kp"), results);
  ASSERT_TRUE(o.reproduced.has_value());
  EXPECT_DOUBLE_EQ(*o.reproduced, 145.0);
  EXPECT_FALSE(o.exact.has_value());
  EXPECT_EQ(o.tolerance.verdict, Verdict::holds);
  EXPECT_EQ(o.status, "holds");
  PublishedValue tight = find(ref, "kp");
  tight.tolerance = 0.01;  // 4 > 1.41: differs; 3 trials are too few for a variance verdict
  o = evaluate_authors(tight, results);
  EXPECT_EQ(o.tolerance.verdict, Verdict::differs);
  EXPECT_EQ(o.status, "differs (too few trials for a variance verdict (n < 10); tolerance verdict)");
}

TEST(AuthorsCode, MarkdownSectionListsEveryValue) {
  const Reference ref = load(kReference, "acmd");
  const std::string md = write_markdown(ref, Results(fixture_experiments()), {});
  const auto section = md.find("\n## The authors' own seeds\n");
  ASSERT_NE(section, std::string::npos) << md;
  EXPECT_LT(section, md.find("\n## Provenance")) << md;
  EXPECT_NE(md.find("7 values: 2 differ, 2 exact, 1 judged by tolerance: holds, 1 missing seeds, 1 not run."),
            std::string::npos)
      << md;
  const std::vector<std::string> rows = {
      "| p | Table 2 | moons | dp_dbscan | ari | 0.99 | mean of 3 seeds | 0.970 | holds | the authors' own seeds "
      "(`ax`) | "
      "0.989 (mean of seeds 0..2) | 0: 0.990, 1: 0.985, 2: 0.992, 3: 0.000 | exact |",
      "| p | Table 2 | cluto-t7 | dp_dbscan | ari | 0.52 | mean of 3 seeds | 0.420 | **differs** | the authors' own "
      "seeds (`ax`) | "
      "0.487 (mean of seeds 0..2) | 0: 0.500, 1: 0.470, 2: 0.490 | **differs by -0.033** |",
      "| p | Table 2 | blobs | dp_dbscan | ari | 0.81 | mean of 3 seeds | - | not run | the authors' own seeds (`ax`) "
      "| - | "
      "0: 0.800, 2: 0.820 | missing seeds 1 |",
      "| p | Table 2 | circles | dp_dbscan | ari | 0.94 | single run | - | not run | the authors' own seeds (`ax`) | "
      "0.940 (seed 0) | "
      "0: 0.940, 1: 0.002, 2: 0.001 | exact |",
      "| p | Table 2 | moons | dp_dbscan | ami | 0.50 | mean of 3 seeds | - | not run | the authors' own seeds (`ax`) "
      "| "
      "0.460 (mean of seeds 0..2) | 0: 0.460, 1: 0.460, 2: 0.460, 3: 0.460 | **differs by -0.040** |",
      "| p | Sec. 7 | ds2 | privthr | kprime | 141.0 | mean of 3 seeds | - | not run | the authors' code options "
      "(`wx`) | "
      "145.000 (mean of 3 trials) | - | holds |",
      "| p | Table 2 | moons | dp_dbscan | ari | 0.99 | mean of 3 seeds | 0.970 | holds | the authors' own seeds "
      "(`absent_authors`) | - | - | "
      "not run (configs/paper/absent_authors.yaml) |",
  };
  for (const auto& row : rows) EXPECT_NE(md.find(row), std::string::npos) << row << "\n" << md;
  EXPECT_EQ(md.find("| dp_kmeans | ari | 0.51"), std::string::npos) << md;  // not covered by authors_code
  EXPECT_NE(md.find("- `wx`: em_repeats is flagged non_private"), std::string::npos) << md;
  // No authors_code anywhere: no section.
  const Reference plain = load(
      "values:\n  - {id: v, value: 0.5, tolerance: 0.1, protocol: {statistic: single}, "
      "query: {experiment: dx, dataset: moons, series: dp_dbscan, metric: ari}}\n",
      "acplain");
  EXPECT_EQ(write_markdown(plain, Results(fixture_experiments()), {}).find("The authors' own seeds"),
            std::string::npos);
}

TEST(AuthorsCode, ResultsDirectoryOnDisk) {
  // The same fixture read back from RESULTS_DIR/<experiment>/results.json, as `dpclust report` reads it.
  const fs::path dir = write_results(dpclust::testing::temp_dir("acdisk") / "results");
  const Reference ref = load(kReference, "acdiskref");
  const Results results(dir);
  EXPECT_EQ(evaluate_authors(find(ref, "t2.ari.moons.dp_dbscan"), results).status, "exact");
  EXPECT_EQ(evaluate_authors(find(ref, "t2.ari.cluto-t7.dp_dbscan"), results).status, "differs by -0.033");
  EXPECT_EQ(evaluate_authors(find(ref, "t2.ari.blobs.dp_dbscan"), results).status, "missing seeds 1");
  EXPECT_EQ(evaluate_authors(find(ref, "t2.ari.circles.dp_dbscan"), results).status, "exact");
}

TEST(MinTrialsOption, ParsesIntegersOfAtLeastTwo) {
  EXPECT_EQ(parse_min_trials_for_variance("2"), 2u);
  EXPECT_EQ(parse_min_trials_for_variance("10"), 10u);
  EXPECT_EQ(parse_min_trials_for_variance("1000000"), 1000000u);
  for (const std::string bad :
       {"1", "0", "-3", "", "abc", "2.5", "1e3", " 4", "4x", "1000001", "99999999999999999999"}) {
    try {
      parse_min_trials_for_variance(bad);
      ADD_FAILURE() << "accepted '" << bad << "'";
    } catch (const dpclust::InputError& e) {
      EXPECT_EQ(e.where(), "--min-trials-for-variance") << bad;
      EXPECT_NE(e.problem().find("integer >= 2"), std::string::npos) << e.what();
      EXPECT_NE(e.problem().find("'" + bad + "'"), std::string::npos) << e.what();
    }
  }
}

TEST(MinTrialsOption, OverridesTheReferenceFileInTheReport) {
  // 5 trials: below the file's 10, a 2-seed protocol gets no band; with the override 4 it does.
  json tx = experiment("tx", 5);
  tx["cells"].push_back(seeded_cell("ramp", "few", "ari", {0, 1, 2, 3, 4}, {0.1, 0.2, 0.3, 0.4, 0.5}));
  const Results results(std::map<std::string, json>{{"tx", tx}});
  const Reference ref = load(
      "verdicts: {min_trials_for_variance: 10}\npapers: {p: P}\nvalues:\n"
      "  - {id: v, paper: p, source: S, value: 0.2, tolerance: 0.01, protocol: {statistic: mean, seeds: 2},\n"
      "     query: {experiment: tx, dataset: ramp, series: few, metric: ari}}\n",
      "acmin");
  std::string md = write_markdown(ref, results, {});
  EXPECT_NE(md.find("With fewer than max(10, 2k) trials"), std::string::npos) << md;
  EXPECT_NE(md.find("**differs** (too few trials for a variance verdict (n < 10); tolerance verdict)"),
            std::string::npos)
      << md;
  ReportOptions opts;
  opts.min_trials_for_variance = 4;
  md = write_markdown(ref, results, opts);
  EXPECT_NE(md.find("With fewer than max(4, 2k) trials"), std::string::npos) << md;
  // The 2-subset means of 0.1..0.5 span [0.15, 0.45]: 0.2 is inside.
  EXPECT_NE(md.find("| [0.150, 0.450] |"), std::string::npos) << md;
  EXPECT_NE(md.find("*within seed variance*"), std::string::npos) << md;
}

TEST(MinTrialsOption, CommandLine) {
  const fs::path bin = dpclust_binary();
  if (bin.empty() || !fs::exists(bin))
    GTEST_SKIP() << "dpclust binary not built at " << bin << " (build the dpclust target)";
  const fs::path dir = dpclust::testing::temp_dir("accli");
  write_results(dir / "results");
  const fs::path pub = dpclust::testing::write_file(dir / "pub.yaml", kReference);
  const std::string base = bin.string() + " report " + (dir / "results").string() + " --published " + pub.string() +
                           " --figures " + (dir / "nofigures").string() + " --out " + (dir / "REPORT.md").string();
  for (const std::string bad : {"1", "0", "-2", "abc", "3.5"}) {
    const auto r = dpclust::testing::run_command(base + " --min-trials-for-variance=" + bad);
    EXPECT_EQ(r.code, 2) << bad << ": " << r.output;
    EXPECT_NE(r.output.find("--min-trials-for-variance"), std::string::npos) << r.output;
    EXPECT_NE(r.output.find("integer >= 2"), std::string::npos) << r.output;
  }
  EXPECT_FALSE(fs::exists(dir / "REPORT.md"));  // nothing written on bad input
  auto r = dpclust::testing::run_command(base + " --min-trials-for-variance 4");
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("8 published values"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("7 against the authors' code (2 exact)"), std::string::npos) << r.output;
  std::ifstream in(dir / "REPORT.md");
  const std::string md((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_NE(md.find("With fewer than max(4, 2k) trials"), std::string::npos) << md;
  EXPECT_NE(md.find("## The authors' own seeds"), std::string::npos) << md;
  r = dpclust::testing::run_command(bin.string() + " report --help");
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.output.find("--min-trials-for-variance N"), std::string::npos) << r.output;
}
