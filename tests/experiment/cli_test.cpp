// The `dpclust` binary end to end: exit codes and messages for bad input, score, dry-run, and a run
// killed with SIGKILL that resumes to the same result as an uninterrupted one.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <chrono>
#include <cstdio>
#include <thread>

#include "catalog/catalog.hpp"
#include "core/files.hpp"
#include "run/runner.hpp"
#include "test_support.hpp"

using namespace dpclust;
namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

std::string binary() {
  const char* b = std::getenv("DPCLUST_BINARY");  // override, e.g. to test an installed binary
  return b ? b : DPCLUST_BINARY_PATH;
}

using Result = dpclust::testing::CommandResult;

Result sh(const std::string& args) { return dpclust::testing::run_command(binary() + " " + args); }

}  // namespace

TEST(Cli, VersionNamesTheCommit) {
  Result r = sh("--version");
  EXPECT_EQ(r.code, 0);
  EXPECT_NE(r.output.find("dpclust 0."), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("git "), std::string::npos) << r.output;
}

TEST(Cli, EverySubcommandHasHelp) {
  for (const char* c : {"run", "validate", "list", "score", "merge", "report"}) {
    Result r = sh(std::string(c) + " --help");
    EXPECT_EQ(r.code, 0) << c;
    EXPECT_NE(r.output.find("usage: dpclust"), std::string::npos) << c << ": " << r.output;
  }
}

// `dpclust list` prints a method's parameters as columns: a name longer than the column (release_coreset,
// initial_centers) ran into its default ("release_coresetfalse"). Every parameter of every method must be followed by
// at least two spaces on its line.
TEST(Cli, ListKeepsEveryParameterNameApartFromItsDefault) {
  Result r = sh("list");
  ASSERT_EQ(r.code, 0) << r.output;
  std::size_t checked = 0;
  for (const auto& m : all_methods())
    for (const auto& p : m.params) {
      const std::string line_start = "\n      " + p.name;
      const auto at = r.output.find(line_start + " ");
      ASSERT_NE(r.output.find(line_start), std::string::npos) << m.name << "." << p.name;
      EXPECT_NE(at, std::string::npos) << m.name << "." << p.name << " runs into the next column";
      if (at != std::string::npos) {
        EXPECT_EQ(r.output.compare(at + line_start.size(), 2, "  "), 0) << m.name << "." << p.name;
      }
      ++checked;
    }
  EXPECT_GT(checked, 100u);
}

TEST(Cli, BadConfigExitsWithCodeTwoAndNamesTheKey) {
  fs::path dir = dpclust::testing::temp_dir("badcfg");
  fs::path cfg = dpclust::testing::write_file(
      dir / "bad.yaml",
      "experiment: bad\ndatasets:\n  - name: m\n    generator: {type: moons}\n    params: {alpha: 0.2, min_pts: 5}\n"
      "methods:\n  - method: dbscan\ntrails: 3\n");
  Result r = sh("validate " + cfg.string());
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.output.find("bad.yaml:8:1 trails: unknown key 'trails'"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("fix: did you mean 'trials'?"), std::string::npos) << r.output;
}

// A misspelt option gets the nearest declared option, as a misspelt subcommand or config key does.
TEST(Cli, MisspeltOptionSuggestsTheNearestOption) {
  const std::string cfg = std::string(DPCLUST_TEST_SOURCE_DIR) + "/configs/builtin/shapes.yaml";
  Result r = sh("run " + cfg + " --trails 3");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.output.find("error: --trails: unknown option"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("fix: did you mean '--trials'? --help lists the options"), std::string::npos) << r.output;
  r = sh("validate " + cfg + " --data-rot=/tmp");  // --name=value: the name is compared
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.output.find("did you mean '--data-root'?"), std::string::npos) << r.output;
  r = sh("data list --mirorr x");  // `data` parses its options with the same helper
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.output.find("did you mean '--mirror'?"), std::string::npos) << r.output;
  r = sh("run " + cfg + " --zzzzzzzzzz");  // nothing close: no guess, still the pointer to --help
  EXPECT_EQ(r.code, 2);
  EXPECT_EQ(r.output.find("did you mean"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("--zzzzzzzzzz: unknown option"), std::string::npos) << r.output;
}

TEST(Cli, BadCsvNamesFileAndLine) {
  fs::path dir = dpclust::testing::temp_dir("badcsv");
  // "7" above numbers could be a record's value: header: auto's names are not confirmed by the data.
  dpclust::testing::write_file(dir / "pts.csv", "7,y,label\n0.1,0.2,0\n0.3,oops,1\n");
  fs::path cfg = dpclust::testing::write_file(dir / "c.yaml",
                                              "experiment: c\ndatasets:\n  - {name: pts, file: pts.csv, label: label, "
                                              "columns: [\"0\", \"1\"], params: {k: 2}}\nmethods: [kmeans]\n");
  Result r = sh("run " + cfg.string() + " --out " + (dir / "out").string() + " --no-progress");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.output.find("pts.csv:3"), std::string::npos) << r.output;
  // header: auto guessed the names and the config typed only the label's: the column is named by its index.
  EXPECT_NE(r.output.find("record 1 (0-based), column #1 (0-based; header: auto, names not shown; `header: true` shows "
                          "them): the value is not a number"),
            std::string::npos)
      << r.output;
  EXPECT_EQ(r.output.find("oops"), std::string::npos) << r.output;  // never a record's value
}

TEST(Cli, DryRunListsCellsAndShardMembership) {
  fs::path dir = dpclust::testing::temp_dir("dry");
  fs::path cfg = dpclust::testing::write_file(
      dir / "d.yaml",
      "experiment: d\ntrials: 4\ndatasets:\n  - {name: m, generator: {type: moons}, params: {min_pts: 5}}\n"
      "methods:\n  - {method: dbscan, params: {alpha: [0.1, 0.2, 0.3]}}\n");
  Result r = sh("run " + cfg.string() + " --dry-run --shard 2/2 --shard-by index");
  EXPECT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("3 cells x 4 trials"), std::string::npos) << r.output;
  EXPECT_NE(r.output.find("this shard (2/2, by index): 1 cells, 4 trials"), std::string::npos) << r.output;
  // By cost (the default) the three cells cost the same, so LPT deals them round robin too.
  r = sh("run " + cfg.string() + " --dry-run --shard 2/2");
  EXPECT_NE(r.output.find("this shard (2/2, by cost): 1 cells, 4 trials"), std::string::npos) << r.output;
  r = sh("run " + cfg.string() + " --dry-run --shard 2/2 --shard-by size");
  EXPECT_EQ(r.code, 2) << r.output;
  EXPECT_NE(r.output.find("--shard-by"), std::string::npos) << r.output;
  EXPECT_FALSE(fs::exists(dir / "results"));
}

TEST(Cli, BadShardSpecIsRejected) {
  Result r = sh("run x.yaml --shard 3/2");
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.output.find("expected K/N with 1 <= K <= N"), std::string::npos) << r.output;
}

TEST(Cli, ScoreComputesAriAmiNmiFromLabelFiles) {
  fs::path dir = dpclust::testing::temp_dir("score");
  dpclust::testing::write_file(dir / "t.txt", "0\n0\n1\n1\n");
  dpclust::testing::write_file(dir / "p.txt", "0\n0\n1\n2\n");
  Result r = sh("score --json --truth " + (dir / "t.txt").string() + " --pred " + (dir / "p.txt").string());
  ASSERT_EQ(r.code, 0) << r.output;
  json j = json::parse(r.output);
  EXPECT_NEAR(j["ari"].get<double>(), 4.0 / 7.0, 1e-12);  // hand-computed in tests/metrics
  EXPECT_NEAR(j["nmi"].get<double>(), 0.8, 1e-12);
  EXPECT_EQ(j["clusters_pred"], 3);
  dpclust::testing::write_file(dir / "bad.txt", "0\n1\nx\n");
  r = sh("score --truth " + (dir / "t.txt").string() + " --pred " + (dir / "bad.txt").string());
  EXPECT_EQ(r.code, 2);
  EXPECT_NE(r.output.find("bad.txt:3"), std::string::npos) << r.output;
}

TEST(Cli, KilledRunResumesToTheSameResult) {
  fs::path dir = dpclust::testing::temp_dir("kill");
  // 40 cells of DBSCAN on 80k points, one thread: long enough to be killed midway.
  fs::path cfg = dpclust::testing::write_file(
      dir / "k.yaml",
      "experiment: k\nseed: 1\ndatasets:\n  - {name: m, generator: {type: moons, n_samples: 80000, noise: 0.1, seed: "
      "2}, params: {min_pts: 5}}\n"
      "methods:\n  - {method: dbscan, params: {alpha: {from: 0.01, to: 0.4, step: 0.01}}}\n");
  const fs::path cells = dir / "killed" / "k" / "cells";
  pid_t pid = fork();
  if (pid == 0) {
    execl(binary().c_str(), binary().c_str(), "run", cfg.c_str(), "--out", (dir / "killed").c_str(), "--threads", "1",
          "--no-progress", static_cast<char*>(nullptr));
    _exit(127);
  }
  // Wait until a few cells are on disk, then kill without warning.
  std::size_t written = 0;
  for (int i = 0; i < 2000 && written < 3; ++i) {
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
    written = 0;
    if (fs::exists(cells))
      for (const auto& e : fs::directory_iterator(cells)) written += e.path().extension() == ".json";
  }
  kill(pid, SIGKILL);
  int status = 0;
  waitpid(pid, &status, 0);
  ASSERT_GE(written, 3u);
  ASSERT_FALSE(fs::exists(dir / "killed" / "k" / "results.json")) << "the run finished before it could be killed";

  Result resumed = sh("run " + cfg.string() + " --out " + (dir / "killed").string() + " --no-progress");
  ASSERT_EQ(resumed.code, 0) << resumed.output;
  EXPECT_NE(resumed.output.find("reused"), std::string::npos);
  Result fresh = sh("run " + cfg.string() + " --out " + (dir / "fresh").string() + " --no-progress");
  ASSERT_EQ(fresh.code, 0) << fresh.output;
  json a = json::parse(read_text_file(dir / "killed" / "k" / "results.json"));
  json b = json::parse(read_text_file(dir / "fresh" / "k" / "results.json"));
  EXPECT_EQ(strip_nondeterministic(a).dump(), strip_nondeterministic(b).dump());
}

// --skip-missing-data: an experiment with some of its datasets runs on those and says which
// are missing (skipped.json: partial), so one missing file does not hide the reproductions of the others;
// the report names the missing dataset for the values it cannot check. With none of its data it is skipped.
TEST(Cli, SkipMissingDataRunsTheDatasetsThatArePresent) {
  const fs::path dir = dpclust::testing::temp_dir("skip_partial");
  dpclust::testing::write_file(dir / "present.csv", "x,y\n0.1,0.2\n0.3,0.1\n0.2,0.4\n0.9,0.8\n0.8,0.9\n0.85,0.95\n");
  const fs::path cfg =
      dpclust::testing::write_file(dir / "part.yaml",
                                   "experiment: part\nseed: 0\ntrials: 1\n"
                                   "datasets:\n"
                                   "  - {name: here, file: present.csv, label: none, bounds: [[0, 1], [0, 1]]}\n"
                                   "  - {name: gone, file: absent.csv, label: none, bounds: [[0, 1], [0, 1]]}\n"
                                   "methods:\n  - {method: kmeans, params: {k: 2}}\n");
  const fs::path out = dir / "out";
  Result r = sh("run " + cfg.string() + " --out " + out.string() + " --skip-missing-data --no-progress");
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_NE(r.output.find("running without dataset(s) gone"), std::string::npos) << r.output;
  const json results = json::parse(read_text_file(out / "part" / "results.json"));
  ASSERT_EQ(results["cells"].size(), 1u);
  EXPECT_EQ(results["cells"][0]["dataset"], "here");
  const json skipped = json::parse(read_text_file(out / "part" / "skipped.json"));
  EXPECT_EQ(skipped["partial"], true);
  EXPECT_EQ(skipped["datasets"], json::array({"gone"}));
  // With the file present, the next run covers both datasets and the note is gone.
  dpclust::testing::write_file(dir / "absent.csv", "x,y\n0.1,0.1\n0.2,0.2\n0.9,0.9\n0.8,0.8\n");
  r = sh("run " + cfg.string() + " --out " + out.string() + " --skip-missing-data --no-progress");
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_EQ(json::parse(read_text_file(out / "part" / "results.json"))["cells"].size(), 2u);
  EXPECT_FALSE(fs::exists(out / "part" / "skipped.json"));
}
