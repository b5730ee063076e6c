// Privacy accounting across trials and cells (issue 22, item 5; store/accounting.hpp): the
// per-dataset totals of results.json by sequential composition, hand-computed on small configs, the same
// after a merge of shards as after one run, and the per-trial reading of a ledger (declared excess,
// scaled noise, ledgers written before measure and relation were recorded).
#include <gtest/gtest.h>

#include <sstream>

#include "core/files.hpp"
#include "core/ledger.hpp"
#include "store/accounting.hpp"
#include "config/config.hpp"
#include "run/runner.hpp"
#include "test_support.hpp"

using namespace dpclust;
namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

// Two cells (epsilon 0.25 and 1) of three trials each on one dataset. Hand-computed: cell 0 spends
// 3 x 0.25 = 0.75, cell 1 spends 3 x 1 = 3, the dataset 0.75 + 3 = 3.75 (every number exact in binary).
const std::string kTwoCells = R"(experiment: acct
seed: 3
trials: 3
datasets:
  - name: blobs
    generator: {type: blobs, n_samples: 200, centers: 3, seed: 4}
    bounds: [[-15, 15], [-15, 15]]
    params: {k: 3}
methods:
  - method: dp_kmeans
    params: {epsilon: [0.25, 1.0]}
metrics: [n_clusters]
)";

// Every kind of entry, two trials each, on two datasets whose epsilon is set per dataset (0.5 and 0.25):
// pure (dp_kmeans), approximate (DP-DBSCAN with Gaussian noise, delta 1e-5), local (nD-Laplace, epsilon
// per unit distance) and a non-private baseline (k-means). Hand-computed for `blobs`: pure 2 x 0.5 = 1,
// approximate (1, 2e-5), central (1 + 1, 2e-5) = (2, 2e-5), local 2 x 0.5 = 1 (not added to central),
// k-means listed apart. For `moons`: pure 0.5, approximate (0.5, 2e-5), central (1, 2e-5), local 0.5.
const std::string kMixed = R"(experiment: acct_mixed
seed: 5
trials: 2
params: {n_init: 1}
datasets:
  - name: blobs
    generator: {type: blobs, n_samples: 200, centers: 3, seed: 4}
    bounds: [[-15, 15], [-15, 15]]
    params: {epsilon: 0.5, k: 3, alpha: 1.0, min_pts: 5}
  - name: moons
    generator: {type: moons, n_samples: 200, noise: 0.05, seed: 2}
    bounds: [[-2, 3], [-2, 2]]
    params: {epsilon: 0.25, k: 2, alpha: 0.2, min_pts: 5}
methods:
  - method: dp_kmeans
  - method: dp_dbscan
    params: {noise: gaussian, delta: 1.0e-5}
  - method: nd_laplace
  - method: kmeans
metrics: [n_clusters]
)";

ExperimentConfig config(const std::string& text, const std::string& name) {
  return parse_config(text, name + ".yaml", fs::temp_directory_path(), "");
}

json run(const std::string& text, const std::string& name, const fs::path& out, std::size_t shard = 1, std::size_t shards = 1) {
  RunOptions o;
  o.out_dir = out;
  o.threads = 1;
  o.shard = shard;
  o.shard_count = shards;
  o.progress = false;
  RunReport r = run_experiment(config(text, name), o);
  if (!r.complete) return nullptr;
  return json::parse(read_text_file(r.results_file));
}

const json& cell_of(const json& results, const std::string& series, double epsilon = -1) {
  for (const auto& c : results["cells"])
    if (c["series"] == series && (epsilon < 0 || c["params"]["epsilon"].get<double>() == epsilon)) return c;
  throw std::logic_error("no cell " + series);
}

}  // namespace

TEST(Accounting, TwoCellsOfThreeTrialsSumPerCellAndPerDataset) {
  const fs::path dir = dpclust::testing::temp_dir("acct_two");
  const json r = run(kTwoCells, "acct", dir);
  ASSERT_FALSE(r.is_null());
  ASSERT_EQ(r["cells"].size(), 2u);

  const json& low = cell_of(r, "dp_kmeans", 0.25)["privacy_spent"];
  EXPECT_EQ(low["private"], true);
  EXPECT_EQ(low["measure"], "pure");
  EXPECT_EQ(low["relation"], "add_remove");
  EXPECT_EQ(low["notion"], "eps-DP (add/remove one record)");
  EXPECT_EQ(low["trials"], 3);
  EXPECT_EQ(low["epsilon_per_trial"].get<double>(), 0.25);
  EXPECT_EQ(low["epsilon"].get<double>(), 0.75);
  EXPECT_FALSE(low.contains("delta"));
  const json& high = cell_of(r, "dp_kmeans", 1.0)["privacy_spent"];
  EXPECT_EQ(high["epsilon_per_trial"].get<double>(), 1.0);
  EXPECT_EQ(high["epsilon"].get<double>(), 3.0);

  const json& acct = r["privacy_accounting"];
  ASSERT_TRUE(acct.contains("meaning"));
  ASSERT_EQ(acct["datasets"].size(), 1u);
  const json& ds = acct["datasets"]["blobs"];
  EXPECT_EQ(ds["private_cells"], 2);
  EXPECT_EQ(ds["private_trials"], 6);
  ASSERT_EQ(ds["notions"].size(), 1u);
  EXPECT_EQ(ds["notions"][0]["measure"], "pure");
  EXPECT_EQ(ds["notions"][0]["cells"], 2);
  EXPECT_EQ(ds["notions"][0]["trials"], 6);
  EXPECT_EQ(ds["notions"][0]["epsilon"].get<double>(), 3.75);
  ASSERT_EQ(ds["central"].size(), 1u);
  EXPECT_EQ(ds["central"][0]["guarantee"], "eps-DP (add/remove one record)");
  EXPECT_EQ(ds["central"][0]["epsilon"].get<double>(), 3.75);
  EXPECT_EQ(ds["central"][0]["delta"].get<double>(), 0.0);
  EXPECT_FALSE(ds.contains("local"));
  EXPECT_FALSE(ds.contains("non_private"));
  EXPECT_FALSE(ds.contains("uncalibrated_trials"));
}

TEST(Accounting, ShardMergeGivesTheTotalsOfOneRun) {
  const fs::path dir = dpclust::testing::temp_dir("acct_merge");
  const json whole = run(kTwoCells, "acct", dir / "whole");
  ASSERT_FALSE(whole.is_null());
  EXPECT_TRUE(run(kTwoCells, "acct", dir / "s1", 1, 2).is_null());  // each shard alone is incomplete
  EXPECT_TRUE(run(kTwoCells, "acct", dir / "s2", 2, 2).is_null());
  std::ostringstream log;
  ASSERT_EQ(merge_results(dir / "merged", {dir / "s2", dir / "s1"}, log).size(), 1u) << log.str();
  const json merged = json::parse(read_text_file(dir / "merged" / "acct" / "results.json"));
  ASSERT_TRUE(merged.contains("privacy_accounting"));
  EXPECT_EQ(merged["privacy_accounting"], whole["privacy_accounting"]);
  EXPECT_EQ(merged["privacy_accounting"]["datasets"]["blobs"]["central"][0]["epsilon"].get<double>(), 3.75);
  for (std::size_t i = 0; i < whole["cells"].size(); ++i)
    EXPECT_EQ(merged["cells"][i]["privacy_spent"], whole["cells"][i]["privacy_spent"]) << i;
}

TEST(Accounting, NotionsAreSummedApartAndNonPrivateCellsListedApart) {
  const fs::path dir = dpclust::testing::temp_dir("acct_mixed");
  const json r = run(kMixed, "acct_mixed", dir);
  ASSERT_FALSE(r.is_null());
  ASSERT_EQ(r["cells"].size(), 8u);
  const json& datasets = r["privacy_accounting"]["datasets"];
  ASSERT_EQ(datasets.size(), 2u);
  // {dataset, per-trial epsilon}: every total is 2 trials x that epsilon, per notion
  for (const auto& [name, eps] : {std::pair{"blobs", 0.5}, std::pair{"moons", 0.25}}) {
    SCOPED_TRACE(name);
    const json& ds = datasets[name];
    EXPECT_EQ(ds["private_cells"], 3);
    EXPECT_EQ(ds["private_trials"], 6);
    // notions, ordered by (measure, relation): approximate, local, pure
    ASSERT_EQ(ds["notions"].size(), 3u) << ds.dump(1);
    EXPECT_EQ(ds["notions"][0]["measure"], "approximate");
    EXPECT_EQ(ds["notions"][0]["epsilon"].get<double>(), 2 * eps);
    EXPECT_DOUBLE_EQ(ds["notions"][0]["delta"].get<double>(), 2e-5);
    EXPECT_EQ(ds["notions"][1]["measure"], "local");
    EXPECT_EQ(ds["notions"][1]["epsilon"].get<double>(), 2 * eps);
    EXPECT_EQ(ds["notions"][2]["measure"], "pure");
    EXPECT_EQ(ds["notions"][2]["epsilon"].get<double>(), 2 * eps);
    // central: pure and approximate compose into (4 eps, 2e-5)-DP; the local guarantee is not added to it
    ASSERT_EQ(ds["central"].size(), 1u);
    EXPECT_EQ(ds["central"][0]["guarantee"], "(eps, delta)-DP (add/remove one record)");
    EXPECT_EQ(ds["central"][0]["cells"], 2);
    EXPECT_EQ(ds["central"][0]["trials"], 4);
    EXPECT_EQ(ds["central"][0]["epsilon"].get<double>(), 4 * eps);
    EXPECT_DOUBLE_EQ(ds["central"][0]["delta"].get<double>(), 2e-5);
    EXPECT_EQ(ds["local"]["epsilon"].get<double>(), 2 * eps);
    EXPECT_EQ(ds["local"]["trials"], 2);
    ASSERT_TRUE(ds.contains("non_private"));
    EXPECT_EQ(ds["non_private"]["cells"], 1);
    EXPECT_EQ(ds["non_private"]["trials"], 2);
    EXPECT_EQ(ds["non_private"]["series"], json::array({"kmeans"}));
  }
  // per cell
  const json& km = cell_of(r, "kmeans")["privacy_spent"];
  EXPECT_EQ(km["private"], false);
  EXPECT_EQ(km["epsilon"].get<double>(), 0.0);
  EXPECT_EQ(km["trials"], 2);
  const json& db = cell_of(r, "dp_dbscan", 0.5)["privacy_spent"];
  EXPECT_EQ(db["notion"], "(eps, delta)-DP (add/remove one record)");
  EXPECT_EQ(db["epsilon"].get<double>(), 1.0);
  EXPECT_DOUBLE_EQ(db["delta_per_trial"].get<double>(), 1e-5);
  EXPECT_DOUBLE_EQ(db["delta"].get<double>(), 2e-5);
  EXPECT_EQ(cell_of(r, "nd_laplace")["privacy_spent"]["measure"], "local");
}

TEST(Accounting, TrialSpendIsTheLedgersVerifiedTotal) {
  // A budget split in parts whose floating-point sum is not exactly the total (0.1 x 10 = 0.9999999999999999):
  // counted as the configured total the entries were verified against.
  BudgetLedger split(1.0);
  for (int i = 0; i < 10; ++i) split.spend("iteration", 0.1);
  split.verify();
  const json s = trial_privacy_spent(split.to_json());
  EXPECT_EQ(s["private"], true);
  EXPECT_EQ(s["epsilon"].get<double>(), 1.0);
  EXPECT_FALSE(s.contains("delta"));
  EXPECT_FALSE(s.contains("calibrated"));

  // A declared excess (the authors' repeated exponential mechanism): the real cost is counted.
  BudgetLedger excess(1.0);
  excess.declare_excess(2.0, "three draws at the full budget");
  for (int i = 0; i < 3; ++i) excess.spend("draw", 1.0);
  excess.verify();
  const json e = trial_privacy_spent(excess.to_json());
  EXPECT_EQ(e["epsilon"].get<double>(), 3.0);
  EXPECT_EQ(e["epsilon_excess"].get<double>(), 2.0);

  // Scaled noise: counted at its recorded epsilon and marked uncalibrated.
  BudgetLedger scaled(1.0);
  scaled.set_noise_scale(0.5);
  scaled.spend("counts", 1.0);
  EXPECT_EQ(trial_privacy_spent(scaled.to_json())["calibrated"], false);

  // A non-private method's ledger spends nothing.
  EXPECT_EQ(trial_privacy_spent(BudgetLedger().to_json()), json({{"private", false}}));

  // A ledger written before measure and relation were recorded (tests/fixtures/results): pure unless it
  // carries a delta, add/remove.
  const json old = json::parse(R"({"epsilon_total": 3.0, "private": true, "steps": [{"epsilon": 3.0, "step": "noisy cell histogram"}]})");
  const json o = trial_privacy_spent(old);
  EXPECT_EQ(o["measure"], "pure");
  EXPECT_EQ(o["relation"], "add_remove");
  EXPECT_EQ(o["epsilon"].get<double>(), 3.0);
  const json old_delta = json::parse(R"({"epsilon_total": 0.5, "delta_total": 1e-6, "private": true,
      "steps": [{"epsilon": 0.5, "delta": 1e-6, "step": "gaussian counts"}]})");
  EXPECT_EQ(trial_privacy_spent(old_delta)["measure"], "approximate");
  EXPECT_EQ(trial_privacy_spent(old_delta)["delta"].get<double>(), 1e-6);
}

TEST(Accounting, DifferentRelationsAreListedApart) {
  // Cells built by hand: one add/remove and one replace-one cell on the same dataset.
  BudgetLedger add(1.0), replace(0.5, 0.0, NeighbourRelation::replace_one);
  add.spend("counts", 1.0);
  replace.spend("matrix", 0.5);
  const json cells = json::array(
      {{{"dataset", "d"}, {"series", "a"}, {"private", true}, {"trials", json::array({{{"ledger", add.to_json()}}, {{"ledger", add.to_json()}}})}},
       {{"dataset", "d"}, {"series", "r"}, {"private", true}, {"trials", json::array({{{"ledger", replace.to_json()}}})}}});
  const json acct = privacy_accounting(cells);
  const json& central = acct["datasets"]["d"]["central"];
  ASSERT_EQ(central.size(), 2u);
  EXPECT_EQ(central[0]["relation"], "add_remove");
  EXPECT_EQ(central[0]["epsilon"].get<double>(), 2.0);
  EXPECT_EQ(central[1]["relation"], "replace_one");
  EXPECT_EQ(central[1]["guarantee"], "eps-DP (replace one record)");
  EXPECT_EQ(central[1]["epsilon"].get<double>(), 0.5);
}
