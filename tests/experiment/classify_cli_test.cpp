// `dpclust classify` end to end: a small DP-DBSCAN run, then its released spans label the
// dataset's own points, from the release alone, exactly as the trial labelled them; selection errors
// exit 2 and name the fix.
#include <gtest/gtest.h>

#include <algorithm>
#include <fstream>
#include <sstream>

#include "core/files.hpp"
#include "test_support.hpp"

namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

std::string binary() {
  const char* b = std::getenv("DPCLUST_BINARY");
  return b ? b : DPCLUST_BINARY_PATH;
}

dpclust::testing::CommandResult sh(const std::string& args) {
  return dpclust::testing::run_command(binary() + " " + args);
}

std::vector<int> read_labels(const fs::path& p) {
  std::ifstream in(p);
  std::vector<int> out;
  for (int v; in >> v;) out.push_back(v);
  return out;
}

struct SmallRun {
  fs::path dir, out;
  json results;
};

// Moons (600 points, unscaled, public box [-2, 3] x [-1.5, 2]), DP-DBSCAN at two budgets, exact DBSCAN.
const SmallRun& small_run() {
  static const SmallRun run = [] {
    SmallRun r;
    r.dir = dpclust::testing::temp_dir("classify");
    r.out = r.dir / "results";
    const fs::path cfg = dpclust::testing::write_file(
        r.dir / "c.yaml",
        "experiment: cls\nseed: 3\ntrials: 2\noutput: {release: true, points: true, labels: true}\n"
        "datasets:\n  - name: m\n    generator: {type: moons, n_samples: 600, noise: 0.05, seed: 1}\n"
        "    bounds: [[-2, 3], [-1.5, 2]]\n    params: {alpha: 0.2, min_pts: 8}\n"
        "methods:\n  - method: dp_dbscan\n    params: {epsilon: [0.5, 1.0]}\n  - dbscan\n");
    const auto res = sh("run " + cfg.string() + " --out " + r.out.string() + " --no-progress");
    EXPECT_EQ(res.code, 0) << res.output;
    r.results = json::parse(dpclust::read_text_file(r.out / "cls" / "results.json"));
    return r;
  }();
  return run;
}

}  // namespace

TEST(ClassifyCli, ReleasedSpansRelabelTheDataExactlyAsTheTrial) {
  const SmallRun& r = small_run();
  const json& ds = r.results["datasets"]["m"];
  const auto pts = ds["points"].get<std::vector<double>>();
  ASSERT_EQ(pts.size(), 1200u);
  std::ostringstream csv;
  csv.precision(17);
  csv << "x,y\n";
  for (std::size_t i = 0; i < 600; ++i) csv << pts[2 * i] << "," << pts[2 * i + 1] << "\n";
  const fs::path points = dpclust::testing::write_file(r.dir / "points.csv", csv.str());
  for (const json& cell : r.results["cells"]) {
    if (cell["method"] != "dp_dbscan") continue;
    for (int t = 0; t < 2; ++t) {
      const fs::path out = r.dir / ("labels_" + cell["id"].get<std::string>() + std::to_string(t) + ".txt");
      const auto res =
          sh("classify --results " + r.out.string() + " --experiment cls --cell " + cell["id"].get<std::string>() +
             " --trial " + std::to_string(t) + " --points " + points.string() + " --out " + out.string());
      ASSERT_EQ(res.code, 0) << res.output;
      const auto want = cell["trials"][t]["labels"].get<std::vector<int>>();
      EXPECT_EQ(read_labels(out), want);
      // Not a vacuous match: at eps = 1 the spans hold most of the points.
      if (cell["params"]["epsilon"] == 1.0) {
        EXPECT_GT(std::count_if(want.begin(), want.end(), [](int l) { return l >= 0; }), 300);
      }
      EXPECT_NE(res.output.find("classified 600 points with " +
                                std::to_string(cell["trials"][t]["diagnostics"]["spans"].get<int>()) + " spans"),
                std::string::npos)
          << res.output;
    }
  }
}

TEST(ClassifyCli, SelectByDatasetSeriesAndParameterValue) {
  const SmallRun& r = small_run();
  // Two points: the first point of the data (in a span or not, as the trial said) and one far outside.
  const json& ds = r.results["datasets"]["m"];
  const fs::path points = dpclust::testing::write_file(
      r.dir / "two.csv", "a,b\n" + ds["points"][0].dump() + "," + ds["points"][1].dump() + "\n50,50\n");
  const auto res = sh("classify --results " + r.out.string() +
                      " --experiment cls --dataset m --series dp_dbscan --param epsilon=1 "
                      "--points " +
                      points.string());
  ASSERT_EQ(res.code, 0) << res.output;
  int expected = -2;
  for (const json& c : r.results["cells"])
    if (c["method"] == "dp_dbscan" && c["params"]["epsilon"] == 1.0) expected = c["trials"][0]["labels"][0].get<int>();
  EXPECT_EQ(res.output.rfind(std::to_string(expected) + "\n-1\n", 0), 0u) << res.output;
}

TEST(ClassifyCli, AmbiguousOrWrongSelectionsExitTwoWithTheFix) {
  const SmallRun& r = small_run();
  const fs::path points = dpclust::testing::write_file(r.dir / "p.csv", "x,y\n0,0\n");
  const std::string base = "classify --results " + r.out.string() + " --experiment cls --points " + points.string();
  auto res = sh(base + " --dataset m --series dp_dbscan");
  EXPECT_EQ(res.code, 2);
  EXPECT_NE(res.output.find("2 cells match"), std::string::npos) << res.output;
  EXPECT_NE(res.output.find("--param"), std::string::npos) << res.output;
  res = sh(base + " --dataset m --series dbscan");
  EXPECT_EQ(res.code, 2);
  EXPECT_NE(res.output.find("only dp_dbscan releases spans"), std::string::npos) << res.output;
  res = sh(base + " --dataset m --series dp_dbscan --param epsilon=1 --trial 5");
  EXPECT_EQ(res.code, 2);
  EXPECT_NE(res.output.find("has 2 trials"), std::string::npos) << res.output;
  res = sh("classify --results " + r.out.string() + " --experiment nope --dataset m --points " + points.string());
  EXPECT_EQ(res.code, 2);
  EXPECT_NE(res.output.find("dpclust run"), std::string::npos) << res.output;
  const fs::path three = dpclust::testing::write_file(r.dir / "p3.csv", "x,y,z\n0,0,0\n");
  res = sh("classify --results " + r.out.string() + " --experiment cls --dataset m --param epsilon=0.5 --points " +
           three.string());
  EXPECT_EQ(res.code, 2);
  EXPECT_NE(res.output.find("--columns"), std::string::npos) << res.output;
}
