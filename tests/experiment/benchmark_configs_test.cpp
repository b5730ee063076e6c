// The shipped benchmark (configs/benchmark/) keeps its own rules: in every dataset, the (eps, delta) methods run
// at one delta (set once for the dataset), so that an epsilon column compares like with like.
#include <gtest/gtest.h>

#include <filesystem>
#include <map>
#include <set>
#include <string>

#include "catalog/catalog.hpp"
#include "config/config.hpp"
#include "config/grid.hpp"
#include "core/files.hpp"
#include "core/side_information.hpp"
#include "run/runner.hpp"
#include "test_support.hpp"

namespace dpclust {
namespace {

namespace fs = std::filesystem;

// The delta each cell's method uses (its side-information record: a public value), by dataset.
std::map<std::string, std::map<std::string, std::set<std::string>>> deltas_by_dataset(const ExperimentConfig& cfg) {
  std::map<std::string, std::map<std::string, std::set<std::string>>> out;  // dataset -> delta -> method labels
  for (const Cell& cell : expand_grid(cfg)) {
    const MethodInfo& info = *find_method(cell.method);
    for (const SideInputRecord& r : side_information(info, cell.params, DatasetSideInputs{}))
      if (r.input == "delta" && r.source == InputSource::public_value && !r.value.is_null())
        out[cell.dataset][r.value.dump()].insert(cell.method_label);
  }
  return out;
}

TEST(BenchmarkConfigs, EveryDatasetGivesItsApproximateDpMethodsOneDelta) {
  const fs::path dir = fs::path(DPCLUST_TEST_SOURCE_DIR) / "configs" / "benchmark";
  std::size_t checked = 0;
  for (const auto& entry : fs::directory_iterator(dir)) {
    if (entry.path().extension() != ".yaml") continue;
    const ExperimentConfig cfg = load_config(entry.path(), "");
    for (const auto& [dataset, deltas] : deltas_by_dataset(cfg)) {
      std::string found;
      for (const auto& [delta, methods] : deltas) {
        found += " delta " + delta + " (";
        for (const auto& m : methods) found += m + " ";
        found += ")";
      }
      EXPECT_EQ(deltas.size(), 1u) << entry.path().filename().string() << ", dataset " << dataset << ":" << found;
      ++checked;
    }
  }
  EXPECT_GE(checked, 20u);  // every dataset of the seven parts has lsh_clustering and dpm
}

TEST(BenchmarkConfigs, DpDbscanLeavesADatasetDeltaUnusedWithPureNoise) {
  // A dataset-level delta reaches dp_dbscan too: with Laplace noise it is accepted and recorded as not used.
  const ExperimentConfig cfg = parse_config(R"(experiment: d
trials: 1
datasets:
  - name: m
    generator: {type: moons, n_samples: 100, seed: 1}
    bounds: [[-2, 3], [-2, 2]]
    params: {delta: 1.0e-6, alpha: 0.3, min_pts: 5}
methods:
  - {method: dp_dbscan, params: {epsilon: 1}}
  - {method: lsh_clustering, params: {epsilon: 1, k: 2}}
)",
                                            "d.yaml", fs::temp_directory_path(), "");
  const auto deltas = deltas_by_dataset(cfg);
  ASSERT_EQ(deltas.at("m").size(), 1u);
  EXPECT_EQ(deltas.at("m").begin()->second, std::set<std::string>{"lsh_clustering"});
  // And it runs: the ledger of a dp_dbscan trial expects no delta (run/runner.cpp trial_ledger), lsh_clustering's the
  // dataset's.
  RunOptions o;
  o.out_dir = dpclust::testing::temp_dir("bench_delta_run");
  o.threads = 1;
  o.progress = false;
  const RunReport r = run_experiment(cfg, o);
  ASSERT_TRUE(r.complete);
  const nlohmann::json results = nlohmann::json::parse(read_text_file(r.results_file));
  for (const auto& c : results["cells"]) {
    const double delta = c["trials"][0]["ledger"].value("delta_total", 0.0);
    EXPECT_EQ(delta, c["method"] == "lsh_clustering" ? 1e-6 : 0.0)
        << c["method"] << " " << c["trials"][0]["ledger"].dump();
  }
  for (const Cell& cell : expand_grid(cfg)) {
    if (cell.method != "dp_dbscan") continue;
    for (const SideInputRecord& rec : side_information(*find_method("dp_dbscan"), cell.params, DatasetSideInputs{})) {
      if (rec.input == "delta") {
        EXPECT_EQ(rec.source, InputSource::none) << rec.how;
      }
    }
  }
}

TEST(BenchmarkConfigs, FastLloydsLaplaceNoiseLeavesADatasetDeltaUnused) {
  // FastLloyd's evaluation sets one delta per dataset (1 / (n ln n)) for its Gaussian series; its SuLloyd series
  // (noise: laplace) is pure eps-DP: the delta is accepted, recorded as not used, and its ledger expects none.
  const ExperimentConfig cfg = parse_config(R"(experiment: f
trials: 1
datasets:
  - name: b
    generator: {type: blobs, n_samples: 300, centers: 3, seed: 2}
    bounds: [[-15, 15], [-15, 15]]
    params: {k: 3, delta: 1.0e-4, n_public: 300}
methods:
  - {method: fastlloyd, as: sulloyd, params: {epsilon: 1, noise: laplace, radius_rule: none, post: none, n_source: public}}
  - {method: fastlloyd, params: {epsilon: 1, n_source: public}}
)",
                                            "f.yaml", fs::temp_directory_path(), "");
  RunOptions o;
  o.out_dir = dpclust::testing::temp_dir("fastlloyd_delta_run");
  o.threads = 1;
  o.progress = false;
  const RunReport r = run_experiment(cfg, o);
  ASSERT_TRUE(r.complete);
  const nlohmann::json results = nlohmann::json::parse(read_text_file(r.results_file));
  for (const auto& c : results["cells"]) {
    const double delta = c["trials"][0]["ledger"].value("delta_total", 0.0);
    EXPECT_EQ(delta, c["series"] == "sulloyd" ? 0.0 : 1e-4) << c["series"] << " " << c["trials"][0]["ledger"].dump();
  }
  for (const Cell& cell : expand_grid(cfg)) {
    if (cell.method_label != "sulloyd") continue;
    bool recorded = false;
    for (const SideInputRecord& rec : side_information(*find_method("fastlloyd"), cell.params, DatasetSideInputs{}))
      if (rec.input == "delta") {
        EXPECT_EQ(rec.source, InputSource::none) << rec.how;
        recorded = true;
      }
    EXPECT_TRUE(recorded);
  }
}

}  // namespace
}  // namespace dpclust
