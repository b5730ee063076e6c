// The report's results reader (engine/report/results_reader.hpp): it keeps every field the report reads
// and skips the trials' bulk, so the report of a results directory is the same whether each trial
// carries a 2 MB release, nothing but its numbers, or what the runner wrote.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <tuple>

#include "core/error.hpp"
#include "report/report.hpp"
#include "report/results_reader.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;
using namespace dpclust::report;
using json = nlohmann::json;

namespace {

json read_text(const std::string& text) {
  std::istringstream in(text);
  return read_report_results(in, "test");
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A results document with one cell of two trials whose releases hold what a skipper could trip on:
// escaped quotes and backslashes, brackets inside strings, nested arrays and objects.
const char* kTricky = R"({
  "experiment": "tricky", "trials": 2, "provenance": {"runs": [{"host": "h\"]}", "threads": 1}]},
  "cells": [
    {"dataset": "d", "series": "s", "params": {"epsilon": 0.5},
     "aggregates": {"ari": {"n": 2, "mean": 0.5, "ci95": [0.1, 0.9]}},
     "trials": [
       {"trial": 0, "seed": 18446744073709551615, "metrics": {"ari": 0.25, "nan_metric": null},
        "release": {"note": "a \"]}\" b \\", "spans": [[1, 2], [3, {"x": "}"}]], "empty": [], "e": {}},
        "labels": [0, -1, 2, 1e-300],
        "diagnostics": {"kappa": 21, "rng": "dpclust", "nested": {"deep": [1, [2, [3]]]}, "list": [1, 2]},
        "ledger": {"steps": [{"note": "[[[{{{"}]}, "timing": {"method_seconds": 0.5}},
       {"trial": 1, "seed": 7, "metrics": {"ari": 0.75}, "evaluation": {"occupied_cells": 4},
        "release": "\\\\\"", "private_release": false}
     ]},
    {"dataset": "d", "series": "empty", "params": {}, "trials": []}
  ],
  "\u0074ail": ["kept", {"as": "is"}]
})";

TEST(ReportResultsReader, KeepsWhatTheReportReadsAndSkipsTheRest) {
  const json full = json::parse(kTricky);
  const json got = read_text(kTricky);
  // Everything outside the trials, as json::parse reads it (an escaped member name included).
  for (const auto& [k, v] : full.items()) {
    if (k != "cells") {
      EXPECT_EQ(got.at(k), v) << k;
    }
  }
  ASSERT_EQ(got.at("cells").size(), 2u);
  for (std::size_t i = 0; i < 2; ++i)
    for (const auto& [k, v] : full["cells"][i].items()) {
      if (k != "trials") {
        EXPECT_EQ(got["cells"][i].at(k), v) << k;
      }
    }
  EXPECT_EQ(got["cells"][1]["trials"], json::array());
  // Each trial: its index, seed and the scalar members of the four parts; no release, labels, ledger.
  const json want0 =
      json::parse(R"({"trial": 0, "seed": 18446744073709551615, "metrics": {"ari": 0.25, "nan_metric": null},
      "diagnostics": {"kappa": 21, "rng": "dpclust"}, "timing": {"method_seconds": 0.5}})");
  const json want1 =
      json::parse(R"({"trial": 1, "seed": 7, "metrics": {"ari": 0.75}, "evaluation": {"occupied_cells": 4}})");
  EXPECT_EQ(got["cells"][0]["trials"][0], want0);
  EXPECT_EQ(got["cells"][0]["trials"][1], want1);
  EXPECT_TRUE(got["cells"][0]["trials"][0]["seed"].is_number_unsigned());
}

// The reader refills a 1 MiB buffer: a kept value, a member name or a skipped string cut by the
// block boundary at any byte must read the same.
TEST(ReportResultsReader, ValuesAcrossTheBufferBoundary) {
  const std::string tail =
      std::string(
          R"("aggregates": {"ari": {"n": 2, "mean": 0.123456789}}, "trials": [{"trial": 0, "metrics": {"ari": 0.5},)") +
      R"( "release": "x\"y\\"}]}]})";
  const json want_aggregates = json::parse(R"({"ari": {"n": 2, "mean": 0.123456789}})");
  for (std::size_t shift = 0; shift <= tail.size(); ++shift) {  // the boundary `shift` bytes into the tail
    std::string head = R"({"cells": [{"dataset": "d", )";
    head += std::string((1u << 20) - shift - head.size(), ' ');
    const json got = read_text(head + tail);
    EXPECT_EQ(got["cells"][0]["aggregates"], want_aggregates) << shift;
    EXPECT_EQ(got["cells"][0]["trials"][0], json::parse(R"({"trial": 0, "metrics": {"ari": 0.5}})")) << shift;
  }
  // A skipped release longer than the buffer, strings and brackets crossing block boundaries.
  std::string big = R"({"cells": [{"trials": [{"release": [)";
  for (int i = 0; i < 200000; ++i) big += R"("a\"]}[{", [0.1, 2e5], )";
  big += R"(null], "metrics": {"ari": 1}}], "aggregates": {}}]})";
  const json got = read_text(big);
  EXPECT_EQ(got["cells"][0]["trials"][0], json::parse(R"({"metrics": {"ari": 1}})"));
  EXPECT_EQ(got["cells"][0]["aggregates"], json::object());
}

TEST(ReportResultsReader, DamagedFilesAreInputErrors) {
  const std::string text = kTricky;
  // Cut inside a skipped release, inside a kept value, and after the last brace but one.
  for (const std::size_t cut : {text.find("spans") + 10, text.find("ci95") + 3, text.size() - 2}) {
    const std::string msg = dpclust::testing::input_error([&] { read_text(text.substr(0, cut)); });
    EXPECT_NE(msg.find("test: byte"), std::string::npos) << msg;
  }
  EXPECT_NE(dpclust::testing::input_error([&] { read_text(text + " {}"); }).find("text after the end"),
            std::string::npos);
  EXPECT_NE(dpclust::testing::input_error([&] {
              read_text(R"({"cells": [{"aggregates": {"a": 1,}}]})");
            }).find("not valid JSON"),
            std::string::npos);
}

// Results built from every results.json of `dir`, parsed whole (what the report read before).
Results parsed_whole(const fs::path& dir) {
  std::map<std::string, json> m;
  for (const auto& e : fs::directory_iterator(dir))
    if (fs::exists(e.path() / "results.json"))
      m[e.path().filename().string()] = json::parse(slurp(e.path() / "results.json"));
  return Results(std::move(m));
}

// Copies every results.json of the committed fixture into a new directory, each cell's trials repeated
// to 12 (seeds 0..11, numbers of the metrics part shifted by 0.01 a trial, so that the seed-variance
// and authors'-seed verdicts have per-trial values to read), then each trial passed through `edit`.
template <class F>
fs::path edited_fixture(const std::string& tag, F&& edit) {
  const fs::path src = fs::path(DPCLUST_TEST_SOURCE_DIR) / "tests" / "fixtures" / "results";
  const fs::path dst = dpclust::testing::temp_dir(tag);
  for (const auto& e : fs::directory_iterator(src)) {
    if (!fs::exists(e.path() / "results.json")) continue;
    json doc = json::parse(slurp(e.path() / "results.json"));
    for (auto& cell : doc["cells"]) {
      if (!cell.contains("trials") || cell["trials"].empty()) continue;
      json trials = json::array();
      for (int i = 0; i < 12; ++i) {
        json t = cell["trials"][static_cast<std::size_t>(i) % cell["trials"].size()];
        t["trial"] = i;
        t["seed"] = i;
        if (t.contains("metrics"))
          for (auto& [m, x] : t["metrics"].items())
            if (x.is_number()) x = x.template get<double>() + 0.01 * i;
        edit(t);
        trials.push_back(std::move(t));
      }
      cell["trials"] = std::move(trials);
    }
    dpclust::testing::write_file(dst / e.path().filename() / "results.json", doc.dump(1));
  }
  return dst;
}

// REPORT.md without its "Generated <time>" line.
std::string report_of(const Reference& ref, const Results& results) {
  std::string md = write_markdown(ref, results, {});
  const std::size_t at = md.find("Generated ");
  return at == std::string::npos ? md : md.erase(at, md.find('\n', at) - at);
}

// The same judgements and the same REPORT.md from the committed results fixture, read whole, read by
// the streaming reader, with each trial carrying a large release (skipped), and with each trial reduced
// to what the reader keeps (so no verdict depends on anything it drops).
TEST(ReportResultsReader, SameReportWhateverTheTrialsCarry) {
  Reference ref = load_reference(fs::path(DPCLUST_TEST_SOURCE_DIR) / "reference" / "published.yaml");
  // k-seed bands from at most 2,000 k-subsets (exact enumeration below that, random subsets above it, so both
  // paths run) instead of the report's 200,000 / 100,000: the test compares the reports the readers give, not
  // the bands' precision, and it builds the report five times (half a minute under the sanitizers otherwise).
  ref.verdicts.resample.max_exact = 2000;
  ref.verdicts.resample.resamples = 2000;
  const fs::path plain = edited_fixture("reader_plain", [](json&) {});
  const Results whole = parsed_whole(plain);
  const std::string want = report_of(ref, whole);
  std::size_t per_trial = 0;  // verdicts from per-trial values (a k-seed band), so the test covers them
  ReportSummary want_sum;     // and the counts `dpclust report` prints, judged once (write_markdown's own)
  want_sum.values = ref.values.size();
  want_sum.claims = ref.claims.size();
  for (const auto& v : ref.values) {
    const ValueOutcome o = evaluate(v, whole, ref.verdicts);
    per_trial += o.band.has_value();
    want_sum.holds += o.verdict == Verdict::holds;
    want_sum.within += o.verdict == Verdict::within_seed_variance;
    want_sum.differs += o.verdict == Verdict::differs;
    want_sum.not_run += o.verdict == Verdict::not_run;
    if (v.authors_code) {
      ++want_sum.authors;
      const AuthorsOutcome a = evaluate_authors(v, whole, ref.verdicts);
      want_sum.authors_exact += a.exact && *a.exact;
    }
  }
  EXPECT_GT(per_trial, 0u);
  ReportSummary sum;
  write_markdown(ref, whole, {}, &sum);
  EXPECT_EQ(
      std::tie(sum.values, sum.holds, sum.within, sum.differs, sum.not_run, sum.claims, sum.authors, sum.authors_exact),
      std::tie(want_sum.values, want_sum.holds, want_sum.within, want_sum.differs, want_sum.not_run, want_sum.claims,
               want_sum.authors, want_sum.authors_exact));
  EXPECT_GT(sum.authors, 0u);
  EXPECT_EQ(report_of(ref, Results(plain)), want);

  // Each trial with a release and labels the reader skips (200 entries each; a skipped value across the
  // buffer's boundary is ValuesAcrossTheBufferBoundary's case).
  const fs::path bulky = edited_fixture("reader_bulky", [](json& t) {
    json spans = json::array();
    for (int i = 0; i < 200; ++i) spans.push_back({i * 0.5, -i, "s\"]" + std::to_string(i)});
    t["release"] = {{"spans", spans}, {"note", "{[\\\"}"}};
    t["labels"] = std::vector<int>(200, -1);
  });
  EXPECT_EQ(report_of(ref, Results(bulky)), want);

  const fs::path stripped = edited_fixture("reader_stripped", [](json& t) {
    json keep = json::object();
    for (const char* k : kReportTrialFields)
      if (t.contains(k)) keep[k] = t[k];
    for (const char* k : kReportTrialParts)
      if (t.contains(k) && t[k].is_object()) {
        keep[k] = json::object();
        for (const auto& [m, x] : t[k].items())
          if (!x.is_structured()) keep[k][m] = x;
      }
    t = keep;
  });
  EXPECT_EQ(report_of(ref, parsed_whole(stripped)), want);
}

}  // namespace
