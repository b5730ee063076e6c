// Rows a reader can place, and verdicts that say when the tolerance rule and the k-seed band disagree
//: a table entry expanded into several values names what tells them apart,
// a table's source and setting can be one per dataset, every row of the real reference file is unique
// by (source, setting), its printed reasons never point at the tracker, and a value within tolerance
// whose published number lies outside our k-seed band reads "holds (within tolerance; ...)".
#include <gtest/gtest.h>

#include <algorithm>
#include <cctype>
#include <map>

#include "core/error.hpp"
#include "report/report.hpp"
#include "test_support.hpp"

using namespace dpclust::report;
using json = nlohmann::json;
namespace fs = std::filesystem;

namespace {

const PublishedValue& value_by_id(const Reference& ref, const std::string& id) {
  for (const auto& v : ref.values)
    if (v.id == id) return v;
  throw std::runtime_error("no published value '" + id + "'");
}

Reference load_rows_yaml(const std::string& name, const std::string& yaml) {
  const fs::path dir = dpclust::testing::temp_dir(name);
  return load_reference(dpclust::testing::write_file(dir / "pub.yaml", yaml));
}

std::string lower_case(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return s;
}

// A cell with one metric per trial, as the runner writes it.
json rows_trial_cell(const std::string& dataset, const std::string& series, const std::string& metric,
                     const std::vector<double>& values) {
  double sum = 0;
  for (double x : values) sum += x;
  json c{{"dataset", dataset},
         {"series", series},
         {"params", json::object()},
         {"trials", json::array()},
         {"aggregates",
          {{metric, {{"n", values.size()}, {"mean", sum / static_cast<double>(values.size())}, {"ci95", nullptr}}}}}};
  for (std::size_t i = 0; i < values.size(); ++i)
    c["trials"].push_back({{"trial", i}, {"metrics", {{metric, values[i]}}}});
  return c;
}

// ramp: 0.00, 0.05, ..., 0.95 (mean 0.475; the 3-trial means span [0.167, 0.783] centrally);
// narrow: 0.500, 0.501, ..., 0.519 (mean 0.5095; the 3-trial means span [0.503, 0.516] centrally).
Results band_fixture() {
  std::vector<double> ramp, narrow;
  for (int i = 0; i < 20; ++i) {
    ramp.push_back(0.05 * i);
    narrow.push_back(0.5 + 0.001 * i);
  }
  json exp{{"experiment", "bx"}, {"trials", 20}, {"cells", json::array()}, {"provenance", json::object()}};
  exp["cells"].push_back(rows_trial_cell("ramp", "a", "ari", ramp));
  exp["cells"].push_back(rows_trial_cell("narrow", "a", "ari", narrow));
  return Results(std::map<std::string, json>{{"bx", exp}});
}

}  // namespace

TEST(ReferenceRows, ExpandedTableRowsNameWhatTellsThemApart) {
  const Reference ref = load_rows_yaml("rows_expand", R"(papers: {p: "Paper P"}
tables:
  # Two series of one d_r: each row names its series by its label (or its name when it has none).
  - {id: t12, paper: p, source: "Table 12", setting: "chess d_o = 37, d_r = 34", experiment: e, tolerance: 0.01,
     protocol: {statistic: mean, seeds: 5}, labels: &rp {rp1: "RP1", rp1_orthonormal: "RP1, orthonormal", unused: "X"},
     values: {stress: {chess: {rp1: 0.015, rp1_orthonormal: 0.0, rp9: 0.02}}}}
  # One entry over four datasets, one paper table and setting each.
  - {id: of, paper: p, source: {chess: "Table 17", mushroom: "Table 18"}, experiment: e, tolerance: 0.05,
     setting: {chess: "chess d_o = 37, d_r = 25, RP2, k = 2", mushroom: "mushroom d_o = 23, d_r = 15, RP2, k = 2"},
     protocol: {statistic: mean, seeds: 10}, labels: *rp, values: {of: {chess: {rp2: 0.805}, mushroom: {rp2: 0.974}}}}
  # Datasets and metrics that vary under one plain setting are named; one row keeps its setting as written.
  - {id: t7, paper: p, source: "Table 7", setting: "number of attributes", experiment: e, tolerance: 0, protocol: {statistic: single},
     values: {d_original: {chess: {rp2: 37}, connect: {rp2: 43}}}}
  - {id: t10, paper: p, source: "Table 10", setting: "Pumsb, 2 parties", experiment: e, tolerance: 0, protocol: {statistic: single},
     values: {party_dims_max: {pumsb: {rp2: 19}}, d_reduced: {pumsb: {rp2: 38}}}}
  - {id: t8, paper: p, source: "Table 8", setting: "Accidents RP2, 18 -> 12, k = 2", experiment: e, tolerance: 0.05,
     protocol: {statistic: mean, seeds: 10}, values: {of: {accidents: {rp2: 0.941}}}}
  # No setting: the report names the query, the series by its label.
  - {id: t2, paper: p, source: "Table 2", experiment: e, tolerance: 0.05, protocol: {statistic: mean, seeds: 3},
     labels: {dp_dbscan: "DP-DBSCAN"}, values: {ari: {moons: {dp_dbscan: 0.99, kmeans: 0.47}}}}
)");
  const auto row = [&](const std::string& id) {
    const PublishedValue& v = value_by_id(ref, id);
    return v.source + " | " + row_setting(v);
  };
  EXPECT_EQ(row("t12.stress.chess.rp1"), "Table 12 | chess d_o = 37, d_r = 34, RP1");
  EXPECT_EQ(row("t12.stress.chess.rp1_orthonormal"), "Table 12 | chess d_o = 37, d_r = 34, RP1, orthonormal");
  EXPECT_EQ(row("t12.stress.chess.rp9"), "Table 12 | chess d_o = 37, d_r = 34, rp9");
  EXPECT_EQ(row("of.of.chess.rp2"), "Table 17 | chess d_o = 37, d_r = 25, RP2, k = 2");
  EXPECT_EQ(row("of.of.mushroom.rp2"), "Table 18 | mushroom d_o = 23, d_r = 15, RP2, k = 2");
  EXPECT_EQ(row("t7.d_original.chess.rp2"), "Table 7 | chess, number of attributes");
  EXPECT_EQ(row("t7.d_original.connect.rp2"), "Table 7 | connect, number of attributes");
  EXPECT_EQ(row("t10.party_dims_max.pumsb.rp2"), "Table 10 | Pumsb, 2 parties, party_dims_max");
  EXPECT_EQ(row("t10.d_reduced.pumsb.rp2"), "Table 10 | Pumsb, 2 parties, d_reduced");
  EXPECT_EQ(row("t8.of.accidents.rp2"), "Table 8 | Accidents RP2, 18 -> 12, k = 2");
  EXPECT_EQ(row("t2.ari.moons.dp_dbscan"), "Table 2 | moons, DP-DBSCAN, ari");
  EXPECT_EQ(row("t2.ari.moons.kmeans"), "Table 2 | moons, kmeans, ari");

  // The rows as the report prints them.
  const std::string md = write_markdown(ref, Results(std::map<std::string, json>{}), {});
  EXPECT_NE(md.find("| Table 12 | chess d_o = 37, d_r = 34, RP1, orthonormal | mean of 5 seeds | 0.000 |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| Table 18 | mushroom d_o = 23, d_r = 15, RP2, k = 2 | mean of 10 seeds | 0.974 |"),
            std::string::npos)
      << md;
}

TEST(ReferenceRows, PerDatasetSourceAndSettingMustNameEveryDataset) {
  const auto error_of = [](const std::string& yaml) -> std::string {
    try {
      load_rows_yaml("rows_bad", yaml);
    } catch (const dpclust::InputError& e) {
      return e.what();
    }
    return "accepted";
  };
  const std::string head =
      "tables:\n  - {id: of, experiment: e, tolerance: 0.05, protocol: {statistic: single},\n     ";
  const std::string values = ", values: {of: {chess: {rp2: 0.805}, mushroom: {rp2: 0.974}, pumsb: {rp2: null}}}}\n";
  std::string e = error_of(head + "source: {chess: \"Table 17\"}" + values);
  EXPECT_NE(e.find("pub.yaml:3"), std::string::npos) << e;
  EXPECT_NE(e.find("table 'of': source has no entry for dataset 'mushroom'"), std::string::npos) << e;
  e = error_of(head + "setting: {chess: a, mushrom: b}" + values);
  EXPECT_NE(e.find("setting names dataset 'mushrom', which has no value in the table"), std::string::npos) << e;
  EXPECT_NE(e.find("did you mean 'mushroom'?"), std::string::npos) << e;
  e = error_of(head + "setting: {chess: a, mushroom: [b]}" + values);
  EXPECT_NE(e.find("setting of dataset 'mushroom' must be a string"), std::string::npos) << e;
  e = error_of(head + "source: [Table 17]" + values);
  EXPECT_NE(e.find("'source' must be a string or a map from dataset to string"), std::string::npos) << e;
  e = error_of(head + "labels: [RP1]" + values);
  EXPECT_NE(e.find("'labels' must be a map from series to its name in the report"), std::string::npos) << e;
  // A dataset whose values are all null needs no entry.
  EXPECT_EQ(error_of(head + "source: {chess: \"Table 17\", mushroom: \"Table 18\"}" + values), "accepted");
}

// The real reference file: no two rows of the report share a source and a setting (DRBT Tables 12-16
// printed RP1 and RP2 of a d_r as two identical rows; Tables 17-20 one setting for four datasets).
TEST(ReferenceRows, EveryRowOfThePublishedFileIsUnique) {
  const Reference ref = load_reference(fs::path(DPCLUST_TEST_SOURCE_DIR) / "reference" / "published.yaml");
  ASSERT_GT(ref.values.size(), 100u);
  std::map<std::pair<std::string, std::string>, std::vector<std::string>> rows;
  for (const auto& v : ref.values) rows[{v.source, row_setting(v)}].push_back(v.id);
  std::string shared;
  for (const auto& [key, ids] : rows)
    if (ids.size() > 1) {
      shared += "\n  " + key.first + " | " + key.second + ":";
      for (const auto& id : ids) shared += " " + id;
    }
  EXPECT_EQ(shared, "") << "rows sharing source and setting";
  // Tables 17-20 each name their own dataset and d_r (DRBT Appendix B).
  EXPECT_EQ(value_by_id(ref, "drbt.of_fimi.k2.of.chess.rp2").source, "Table 17");
  EXPECT_EQ(value_by_id(ref, "drbt.of_fimi.k3.of.mushroom.rp2").source, "Table 18");
  EXPECT_EQ(value_by_id(ref, "drbt.of_fimi.k4.of.pumsb.rp2").source, "Table 19");
  EXPECT_EQ(value_by_id(ref, "drbt.of_fimi.k5.of.connect.rp2").source, "Table 20");
  EXPECT_NE(row_setting(value_by_id(ref, "drbt.of_fimi.k2.of.connect.rp2")).find("d_r = 28"), std::string::npos);
  EXPECT_NE(row_setting(value_by_id(ref, "drbt.t13.mushroom.dr21.stress.mushroom.rp2")).find("RP2"), std::string::npos);
}

// What the report prints from the reference file links only to the project's docs/ and configs/, never
// to the tracker (an issue's number, "see issue ...").
TEST(ReferenceRows, PrintedReasonsNeverPointAtTheTracker) {
  const Reference ref = load_reference(fs::path(DPCLUST_TEST_SOURCE_DIR) / "reference" / "published.yaml");
  std::string found;
  const auto check = [&](const std::string& id, const char* field, const std::string& text) {
    const std::string t = lower_case(text);
    if (t.find("issue ") != std::string::npos || t.find("issues/") != std::string::npos)
      found += "\n  " + id + " " + field + ": " + text;
  };
  const auto check_see = [&](const std::string& id, const std::string& see) {
    check(id, "see", see);
    if (!see.empty() && see.rfind("docs/", 0) != 0 && see.rfind("configs/", 0) != 0)
      found += "\n  " + id + " see outside docs/ and configs/: " + see;
  };
  for (const auto& v : ref.values) {
    check(v.id, "reason", v.reason);
    check_see(v.id, v.see);
    check(v.id, "protocol note", v.protocol.note);
    if (v.authors_code) check(v.id, "authors_code note", v.authors_code->note);
  }
  for (const auto& c : ref.claims) {
    check(c.id, "reason", c.reason);
    check_see(c.id, c.see);
    check(c.id, "protocol note", c.protocol.note);
  }
  EXPECT_EQ(found, "");
}

TEST(ReferenceRows, VerdictSaysWhenToleranceAndBandDisagree) {
  const Reference ref = load_rows_yaml("rows_band", R"(papers: {p: "Paper P"}
values:
  # Within tolerance, but no 3 of our trials average as low: holds, with the band's word.
  - {id: low, paper: p, source: "T", setting: "low", value: 0.48, tolerance: 0.05, protocol: {statistic: mean, seeds: 3},
     query: {experiment: bx, dataset: narrow, series: a, metric: ari}}
  - {id: high, paper: p, source: "T", setting: "high", value: 0.54, tolerance: 0.05, protocol: {statistic: mean, seeds: 3},
     query: {experiment: bx, dataset: narrow, series: a, metric: ari}}
  # Outside tolerance, inside the band: within seed variance, with the tolerance's word.
  - {id: wide, paper: p, source: "T", setting: "wide", value: 0.61, tolerance: 0.05, protocol: {statistic: mean, seeds: 3},
     query: {experiment: bx, dataset: ramp, series: a, metric: ari}}
  # As printed, 0.52 stands for [0.515, 0.525], which meets the band: no note (percentile 100).
  - {id: rounded, paper: p, source: "T", setting: "rounded", value: 0.52, tolerance: 0.05, protocol: {statistic: mean, seeds: 3},
     query: {experiment: bx, dataset: narrow, series: a, metric: ari}}
  # The two rules agree: no note.
  - {id: agree_holds, paper: p, source: "T", setting: "agree holds", value: 0.47, tolerance: 0.05, protocol: {statistic: mean, seeds: 3},
     query: {experiment: bx, dataset: ramp, series: a, metric: ari}}
  - {id: agree_differs, paper: p, source: "T", setting: "agree differs", value: 0.99, tolerance: 0.05, protocol: {statistic: mean, seeds: 3},
     query: {experiment: bx, dataset: ramp, series: a, metric: ari}}
  # Too few trials for a band (mean of 10 needs 20; 20 trials here, so ask for 11): the tolerance verdict alone.
  - {id: no_band, paper: p, source: "T", setting: "no band", value: 0.48, tolerance: 0.05, protocol: {statistic: mean, seeds: 11},
     query: {experiment: bx, dataset: narrow, series: a, metric: ari}}
)");
  const Results results = band_fixture();
  const auto text = [&](const std::string& id) {
    return value_verdict_text(evaluate(value_by_id(ref, id), results, ref.verdicts));
  };
  EXPECT_EQ(text("low"), "holds (within tolerance; the published value lies outside our k-seed band, percentile 0.0)");
  EXPECT_EQ(text("high"),
            "holds (within tolerance; the published value lies outside our k-seed band, percentile 100.0)");
  EXPECT_EQ(
      text("wide"),
      "*within seed variance* (outside tolerance; the published value lies inside our k-seed band, percentile 79.2)");
  EXPECT_EQ(text("rounded"), "holds");
  EXPECT_EQ(text("agree_holds"), "holds");
  EXPECT_EQ(text("agree_differs"), "**differs**");
  EXPECT_EQ(text("no_band"), "holds");
  EXPECT_EQ(evaluate(value_by_id(ref, "low"), results, ref.verdicts).disagreement,
            BandDisagreement::holds_outside_band);
  EXPECT_EQ(evaluate(value_by_id(ref, "wide"), results, ref.verdicts).disagreement,
            BandDisagreement::differs_inside_band);
  EXPECT_EQ(evaluate(value_by_id(ref, "agree_differs"), results, ref.verdicts).disagreement, BandDisagreement::none);

  ReportSummary sum;
  const std::string md = write_markdown(ref, results, {}, &sum);
  EXPECT_EQ(sum.holds_outside_band, 2u);
  EXPECT_NE(md.find("| holds | within seed variance | differs | not run | tolerance alone: holds / differs | holds, "
                    "outside the k-seed band |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| published values | 5 | 1 | 1 | 0 | 5 / 2 | 2 |"), std::string::npos) << md;
  EXPECT_NE(md.find("| claims | 0 | 0 | 0 | 0 | 0 / 0 | - |"), std::string::npos) << md;
  EXPECT_NE(md.find("| T | low | mean of 3 seeds | 0.480 | 0.509 | - | 20 | 0.05 | holds | [0.503, 0.516] | 0.0 | "
                    "holds (within tolerance; the "
                    "published value lies outside our k-seed band, percentile 0.0) |"),
            std::string::npos)
      << md;
  EXPECT_NE(md.find("| T | agree holds | mean of 3 seeds | 0.470 | 0.475 | - | 20 | 0.05 | holds | [0.167, 0.783] | "
                    "50.0 | holds |"),
            std::string::npos)
      << md;
}
