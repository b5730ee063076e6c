// The report is split by step (engine/report/report.hpp): reading the reference, indexing results,
// judging, rendering. These tests keep the split honest: YAML is read in one file, and the judges
// give their verdicts without any Markdown being written.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "report/judge.hpp"

namespace fs = std::filesystem;
using namespace dpclust::report;
using json = nlohmann::json;

namespace {

std::string read_all(const fs::path& p) {
  std::ifstream in(p);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

}  // namespace

TEST(ReportLayering, OnlyTheReferenceReaderIncludesYamlCpp) {
  const fs::path dir = fs::path(DPCLUST_TEST_SOURCE_DIR) / "engine" / "report";
  std::vector<std::string> includers;
  std::size_t files = 0;
  for (const auto& e : fs::directory_iterator(dir)) {
    const std::string ext = e.path().extension().string();
    if (ext != ".cpp" && ext != ".hpp") continue;
    ++files;
    if (read_all(e.path()).find("yaml-cpp/") != std::string::npos) includers.push_back(e.path().filename().string());
  }
  EXPECT_GE(files, 10u);  // the split exists (reference, results_index, judge_*, markdown, format, seed_variance)
  EXPECT_EQ(includers, std::vector<std::string>{"reference.cpp"});
}

// A value judged from an in-memory results set: the judge needs neither a reference file nor Markdown.
TEST(ReportLayering, ValueJudgedWithoutRendering) {
  json cell = {{"dataset", "ds1"},
               {"series", "privthr"},
               {"params", {{"epsilon", 0.5}}},
               {"aggregates", {{"f_measure", {{"mean", 0.8}, {"n", 3}}}}},
               {"trials", json::array({{{"metrics", {{"f_measure", 0.7}}}},
                                       {{"metrics", {{"f_measure", 0.8}}}},
                                       {{"metrics", {{"f_measure", 0.9}}}}})}};
  Results results(std::map<std::string, json>{{"exp", json{{"cells", json::array({cell})}}}});
  PublishedValue v;
  v.value = 0.82;
  v.tolerance = 0.05;
  v.query.experiment = "exp";
  v.query.series = "privthr";
  v.query.metric = "f_measure";
  v.query.params["epsilon"] = 0.5;
  const ValueOutcome o = evaluate(v, results);
  ASSERT_TRUE(o.mean.has_value());
  EXPECT_DOUBLE_EQ(*o.mean, 0.8);
  EXPECT_EQ(o.trials, 3u);
  EXPECT_EQ(o.tolerance_verdict, Verdict::holds);  // |0.8 - 0.82| <= 0.05

  v.tolerance = 0.01;  // |0.8 - 0.82| > 0.01
  EXPECT_EQ(evaluate(v, results).tolerance_verdict, Verdict::differs);
}
