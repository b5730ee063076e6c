// The runner's promises: identical numbers for any thread count, shard split and run order; atomic
// per-cell results; resume after an interruption giving the same final JSON.
#include <gtest/gtest.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <sstream>
#include <thread>

#include "config/config.hpp"
#include "core/files.hpp"
#include "run/runner.hpp"
#include "test_support.hpp"

using namespace dpclust;
namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

// Several datasets, two methods, a parameter sweep, three trials: 2 x (4 + 1) = 10 cells.
const std::string kConfig = R"(experiment: det
seed: 7
trials: 3
datasets:
  - name: moons
    generator: {type: moons, n_samples: 600, noise: 0.08, seed: 3, scale: standard}
    params: {k: 2}
  - name: blobs
    generator: {type: blobs, n_samples: 600, centers: 3, seed: 4}
    params: {k: 3}
methods:
  - method: dbscan
    params: {alpha: [0.15, 0.2, 0.25, 0.3], min_pts: 5}
  - method: kmeans
metrics: [ari, ami, nmi, n_clusters]
)";

ExperimentConfig config(const std::string& text = kConfig) {
  return parse_config(text, "det.yaml", fs::temp_directory_path(), "");
}

json run(const fs::path& out, int threads, std::size_t shard = 1, std::size_t shards = 1, bool resume = true) {
  RunOptions o;
  o.out_dir = out;
  o.threads = threads;
  o.shard = shard;
  o.shard_count = shards;
  o.progress = false;
  o.resume = resume;
  RunReport r = run_experiment(config(), o);
  if (!r.complete) return nullptr;
  return json::parse(read_text_file(r.results_file));
}

}  // namespace

TEST(Runner, ResultsAreIdenticalForOneAndTwoThreads) {
  fs::path dir = dpclust::testing::temp_dir("threads");
  json one = run(dir / "t1", 1), two = run(dir / "t2", 2);
  ASSERT_FALSE(one.is_null());
  ASSERT_EQ(one["cells"].size(), 10u);
  EXPECT_EQ(strip_nondeterministic(one).dump(), strip_nondeterministic(two).dump());
  // The numbers are real: DBSCAN separates the blobs at some radius and k-means finds 3 clusters.
  bool found = false;
  for (const auto& c : one["cells"])
    if (c["series"] == "kmeans" && c["dataset"] == "blobs") {
      found = true;
      EXPECT_EQ(c["aggregates"]["n_clusters"]["mean"].get<double>(), 3.0);
      EXPECT_EQ(c["trials"].size(), 3u);
    }
  EXPECT_TRUE(found);
}

TEST(Runner, ShardsMergeToTheUnshardedResult) {
  fs::path dir = dpclust::testing::temp_dir("shards");
  json whole = run(dir / "whole", 2);
  EXPECT_TRUE(run(dir / "s1", 1, 1, 3).is_null());  // a shard alone is incomplete
  EXPECT_TRUE(run(dir / "s2", 1, 2, 3).is_null());
  EXPECT_TRUE(run(dir / "s3", 1, 3, 3).is_null());
  std::ostringstream log;
  auto merged = merge_results(dir / "merged", {dir / "s3", dir / "s1", dir / "s2"}, log);
  ASSERT_EQ(merged.size(), 1u) << log.str();
  json m = json::parse(read_text_file(dir / "merged" / "det" / "results.json"));
  EXPECT_EQ(strip_nondeterministic(m).dump(), strip_nondeterministic(whole).dump());
  EXPECT_EQ(m["provenance"]["runs"].size(), 3u);  // one run record per shard
}

TEST(Runner, MergeRefusesShardsOfDifferentConfigs) {
  fs::path dir = dpclust::testing::temp_dir("mergecfg");
  run(dir / "s1", 1, 1, 2);
  RunOptions o;
  o.out_dir = dir / "s2";
  o.shard = 2;
  o.shard_count = 2;
  o.progress = false;
  std::string other = kConfig;
  other.replace(other.find("seed: 7"), 7, "seed: 8");
  run_experiment(config(other), o);
  std::ostringstream log;
  EXPECT_THROW(merge_results(dir / "merged", {dir / "s1", dir / "s2"}, log), InputError);
}

TEST(Runner, ResumeReusesCellsAndGivesTheSameResult) {
  fs::path dir = dpclust::testing::temp_dir("resume");
  json first = run(dir / "out", 2);
  // Simulate an interrupted run: some cells never written, one torn mid-write, no results.json.
  fs::path cells = dir / "out" / "det" / "cells";
  std::vector<fs::path> files;
  for (const auto& e : fs::directory_iterator(cells)) files.push_back(e.path());
  std::sort(files.begin(), files.end());
  ASSERT_EQ(files.size(), 10u);
  fs::remove(files[0]);
  fs::remove(files[1]);
  write_file_atomic(files[2], "{\"schema\": \"dpclust.cell/1\", \"trun");
  fs::remove(dir / "out" / "det" / "results.json");

  RunOptions o;
  o.out_dir = dir / "out";
  o.threads = 1;
  o.progress = false;
  RunReport r = run_experiment(config(), o);
  EXPECT_EQ(r.cells_reused, 7u);
  EXPECT_EQ(r.cells_run, 3u);
  ASSERT_TRUE(r.complete);
  json second = json::parse(read_text_file(r.results_file));
  EXPECT_EQ(strip_nondeterministic(second).dump(), strip_nondeterministic(first).dump());
}

TEST(Runner, ChangedConfigInvalidatesOnlyAffectedCells) {
  fs::path dir = dpclust::testing::temp_dir("invalidate");
  run(dir / "out", 2);
  std::string changed = kConfig;
  changed.replace(changed.find("n_samples: 600, centers"), 14, "n_samples: 700");  // blobs data changes
  RunOptions o;
  o.out_dir = dir / "out";
  o.progress = false;
  RunReport r = run_experiment(config(changed), o);
  EXPECT_EQ(r.cells_reused, 5u);  // the moons cells
  EXPECT_EQ(r.cells_run, 5u);     // every blobs cell
}

TEST(Runner, ForceRecomputesEverything) {
  fs::path dir = dpclust::testing::temp_dir("force");
  run(dir / "out", 2);
  RunOptions o;
  o.out_dir = dir / "out";
  o.resume = false;
  o.progress = false;
  RunReport r = run_experiment(config(), o);
  EXPECT_EQ(r.cells_reused, 0u);
  EXPECT_EQ(r.cells_run, 10u);
}

TEST(Runner, CellsCarryLedgerSeedsAndNonPrivateFlags) {
  fs::path dir = dpclust::testing::temp_dir("cells");
  json r = run(dir / "out", 2);
  const json& cell = r["cells"][0];
  EXPECT_EQ(cell["private"], false);
  EXPECT_EQ(cell["non_private"][0], "method is not differentially private");
  EXPECT_EQ(cell["trials"][0]["ledger"]["private"], false);
  EXPECT_NE(cell["trials"][0]["seed"], cell["trials"][1]["seed"]);
  EXPECT_EQ(r["datasets"]["moons"]["n"], 600);
  EXPECT_EQ(r["provenance"]["config_text"], kConfig);
  EXPECT_FALSE(r["provenance"]["runs"][0]["git_commit"].get<std::string>().empty());
  const json& agg = cell["aggregates"]["ari"];
  EXPECT_EQ(agg["n"], 3);
  EXPECT_LE(agg["min"].get<double>(), agg["mean"].get<double>());
}

TEST(Runner, DataDerivedBoundsAreFlaggedNonPrivate) {
  fs::path dir = dpclust::testing::temp_dir("bounds");
  std::string text = kConfig;
  text.replace(text.find("    params: {k: 2}"), 18, "    bounds: data\n    params: {k: 2}");
  RunOptions o;
  o.out_dir = dir;
  o.progress = false;
  RunReport r = run_experiment(config(text), o);
  json j = json::parse(read_text_file(r.results_file));
  EXPECT_EQ(j["datasets"]["moons"]["bounds_source"], "data");
  bool flagged = false;
  for (const auto& note : j["cells"][0]["non_private"])
    flagged = flagged || note == "domain bounds derived from the data (bounds: data)";
  EXPECT_TRUE(flagged);
}

TEST(Runner, MissingDataRootGivesAClearMessageBeforeAnyWork) {
  fs::path dir = dpclust::testing::temp_dir("noroot");
  ExperimentConfig cfg =
      parse_config("experiment: x\ndatasets: [{name: cluto-t4, params: {k: 6}}]\nmethods: [kmeans]\n", "x.yaml",
                   fs::temp_directory_path(), "");
  RunOptions o;
  o.out_dir = dir;
  o.progress = false;
  try {
    run_experiment(cfg, o);
    FAIL() << "expected an InputError";
  } catch (const InputError& e) {
    std::string msg = e.what();
    EXPECT_NE(msg.find("needs the file 'benchmark/cluto-t4-8k.arff' under the data root"), std::string::npos) << msg;
    EXPECT_NE(msg.find("DPCLUST_DATA_ROOT"), std::string::npos) << msg;
  }
  EXPECT_FALSE(fs::exists(dir / "x" / "cells"));
}

TEST(Runner, RegistryFallsBackToTheBuiltInGenerator) {
  // Without a data root, Moons is generated by the registry fallback (the published definition).
  ExperimentConfig cfg = parse_config("experiment: fb\ndatasets: [{name: moons, params: {k: 2}}]\nmethods: [kmeans]\n",
                                      "fb.yaml", fs::temp_directory_path(), "");
  RunOptions o;
  o.out_dir = dpclust::testing::temp_dir("fallback");
  o.progress = false;
  RunReport r = run_experiment(cfg, o);
  json j = json::parse(read_text_file(r.results_file));
  EXPECT_EQ(j["datasets"]["moons"]["n"], 2000);
  EXPECT_NE(j["datasets"]["moons"]["provenance"]["fallback"].get<std::string>().find("absent"), std::string::npos);
}

TEST(Runner, FigureOutputsStorePointsAndLabels) {
  std::string text = kConfig;
  text.insert(text.find("datasets:"), "output: {points: true, labels: true, release: false}\n");
  RunOptions o;
  o.out_dir = dpclust::testing::temp_dir("figout");
  o.progress = false;
  RunReport r = run_experiment(config(text), o);
  json j = json::parse(read_text_file(r.results_file));
  EXPECT_EQ(j["datasets"]["moons"]["points"].size(), 600u * 2u);
  EXPECT_EQ(j["datasets"]["moons"]["true_labels"].size(), 600u);
  EXPECT_EQ(j["cells"][0]["trials"][0]["labels"].size(), 600u);
  EXPECT_FALSE(j["cells"].back()["trials"][0].contains("release"));  // k-means centres not kept
}

TEST(Runner, ClipToBoundsDropsOutOfDomainPointsInsteadOfFailing) {
  fs::path dir = dpclust::testing::temp_dir("clip");
  dpclust::testing::write_file(dir / "p.csv", "x,y\n0.1,0.1\n0.2,0.2\n5.0,0.3\n0.3,0.9\n");
  const std::string head =
      "experiment: clip\ndatasets:\n  - {name: p, file: " + (dir / "p.csv").string() + ", bounds: [[0, 1], [0, 1]]";
  const std::string tail = ", params: {k: 1}}\nmethods: [kmeans]\nmetrics: [n_clusters]\n";
  RunOptions o;
  o.out_dir = dir / "out";
  o.progress = false;
  EXPECT_THROW(run_experiment(parse_config(head + tail, "c.yaml", dir, ""), o), InputError);  // point 2 is outside
  RunReport r = run_experiment(parse_config(head + ", clip_to_bounds: true" + tail, "c.yaml", dir, ""), o);
  json j = json::parse(read_text_file(r.results_file));
  EXPECT_EQ(j["datasets"]["p"]["n"], 3);
  EXPECT_EQ(j["datasets"]["p"]["provenance"]["clipped_to_bounds"], 1);
}

TEST(Runner, ClipToBoundsClampMovesOutOfDomainCoordinatesToTheBounds) {
  fs::path dir = dpclust::testing::temp_dir("clamp");
  dpclust::testing::write_file(dir / "p.csv", "x,y\n0.1,0.1\n0.2,-0.5\n5.0,0.3\n0.3,0.9\n");
  const std::string head =
      "experiment: clamp\ndatasets:\n  - {name: p, file: " + (dir / "p.csv").string() + ", bounds: [[0, 1], [0, 1]]";
  const std::string tail = ", params: {k: 1}}\nmethods: [kmeans]\nmetrics: [n_clusters]\noutput: {points: true}\n";
  RunOptions o;
  o.out_dir = dir / "out";
  o.progress = false;
  RunReport r = run_experiment(parse_config(head + ", clip_to_bounds: clamp" + tail, "c.yaml", dir, ""), o);
  json j = json::parse(read_text_file(r.results_file));
  EXPECT_EQ(j["datasets"]["p"]["n"], 4);  // nothing dropped
  EXPECT_EQ(j["datasets"]["p"]["provenance"]["clamped_to_bounds"], 2);
  const json& pts = j["datasets"]["p"]["points"];
  ASSERT_EQ(pts.size(), 8u);
  EXPECT_EQ(pts[3].get<double>(), 0.0);  // -0.5 -> 0
  EXPECT_EQ(pts[4].get<double>(), 1.0);  // 5.0 -> 1
  EXPECT_EQ(pts[5].get<double>(), 0.3);
  // Any other word is refused at its line.
  EXPECT_THROW(parse_config(head + ", clip_to_bounds: squash" + tail, "c.yaml", dir, ""), InputError);
}

TEST(Runner, AnotherConfigWithTheSameExperimentNameIsRefused) {
  fs::path dir = dpclust::testing::temp_dir("samename");
  RunOptions o;
  o.out_dir = dir / "out";
  o.progress = false;
  run_experiment(parse_config(kConfig, (dir / "a.yaml").string(), dir, ""), o);
  std::string other = kConfig;
  other.replace(other.find("seed: 7"), 7, "seed: 9");
  EXPECT_THROW(run_experiment(parse_config(other, (dir / "b.yaml").string(), dir, ""), o), InputError);
  // The same file edited (a new seed) is a legitimate rerun.
  EXPECT_NO_THROW(run_experiment(parse_config(other, (dir / "a.yaml").string(), dir, ""), o));
}
