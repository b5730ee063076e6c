// Privacy accounting across trials and cells (store/accounting.hpp): the
// per-dataset totals of results.json by sequential composition, hand-computed on small configs, the same
// after a merge of shards as after one run, and the per-trial reading of a ledger (declared excess,
// scaled noise, ledgers written before measure and relation were recorded).
#include <gtest/gtest.h>

#include <cmath>
#include <functional>
#include <sstream>

#include "config/config.hpp"
#include "core/files.hpp"
#include "core/ledger.hpp"
#include "run/runner.hpp"
#include "store/accounting.hpp"
#include "store/release_view.hpp"
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
    params: {noise: gaussian, delta: 1.0e-5, n_public: 200}
  - method: nd_laplace
  - method: kmeans
metrics: [n_clusters]
)";

ExperimentConfig config(const std::string& text, const std::string& name) {
  return parse_config(text, name + ".yaml", fs::temp_directory_path(), "");
}

json run(const std::string& text, const std::string& name, const fs::path& out, std::size_t shard = 1,
         std::size_t shards = 1) {
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

// The record set a dataset name points to in privacy_accounting (totals are per set of records).
const json& set_of(const json& acct, const std::string& dataset) {
  const std::string key = acct.at("datasets").at(dataset).get<std::string>();
  for (const auto& s : acct.at("record_sets"))
    if (s["key"] == key) return s;
  throw std::logic_error("no record set for " + dataset);
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
  ASSERT_EQ(acct["record_sets"].size(), 1u);
  const json& ds = set_of(acct, "blobs");
  EXPECT_EQ(ds["datasets"], json::array({"blobs"}));
  EXPECT_TRUE(ds["records"].contains("generator"));
  EXPECT_EQ(ds["private_cells"], 2);
  EXPECT_EQ(ds["private_trials"], 6);
  ASSERT_EQ(ds["central"].size(), 1u);
  // A seeded run: the total is what the cells spent, stated as what they would guarantee in secure mode.
  EXPECT_EQ(ds["central"][0]["holds"], false);
  EXPECT_TRUE(ds["central"][0]["guarantee"].is_null());
  EXPECT_NE(ds["central"][0]["if_run_secure"].get<std::string>().find("eps-DP (add/remove one record)"),
            std::string::npos);
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
  EXPECT_EQ(set_of(merged["privacy_accounting"], "blobs")["central"][0]["epsilon"].get<double>(), 3.75);
  for (std::size_t i = 0; i < whole["cells"].size(); ++i)
    EXPECT_EQ(merged["cells"][i]["privacy_spent"], whole["cells"][i]["privacy_spent"]) << i;
}

TEST(Accounting, NotionsAreSummedApartAndNonPrivateCellsListedApart) {
  const fs::path dir = dpclust::testing::temp_dir("acct_mixed");
  const json r = run(kMixed, "acct_mixed", dir);
  ASSERT_FALSE(r.is_null());
  ASSERT_EQ(r["cells"].size(), 8u);
  const json& acct = r["privacy_accounting"];
  ASSERT_EQ(acct["record_sets"].size(), 2u);
  // {dataset, per-trial epsilon}: every total is 2 trials x that epsilon, per notion
  for (const auto& [name, eps] : {std::pair{"blobs", 0.5}, std::pair{"moons", 0.25}}) {
    SCOPED_TRACE(name);
    const json& ds = set_of(acct, name);
    EXPECT_EQ(ds["private_cells"], 3);
    EXPECT_EQ(ds["private_trials"], 6);
    // central: pure and approximate compose into (4 eps, 2e-5)-DP; the local guarantee is not added to it
    ASSERT_EQ(ds["central"].size(), 1u);
    EXPECT_EQ(ds["central"][0]["holds"], false);  // seeded
    EXPECT_EQ(ds["central"][0]["cells"], 2);
    EXPECT_EQ(ds["central"][0]["trials"], 4);
    EXPECT_EQ(ds["central"][0]["epsilon"].get<double>(), 4 * eps);
    EXPECT_DOUBLE_EQ(ds["central"][0]["delta"].get<double>(), 2e-5);
    EXPECT_EQ(ds["local"]["epsilon_per_unit_distance"].get<double>(), 2 * eps);  // radius 1
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
  const json old = json::parse(
      R"({"epsilon_total": 3.0, "private": true, "steps": [{"epsilon": 3.0, "step": "noisy cell histogram"}]})");
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
  const json cells = json::array({{{"dataset", "d"},
                                   {"series", "a"},
                                   {"private", true},
                                   {"trials", json::array({{{"ledger", add.to_json()}}, {{"ledger", add.to_json()}}})}},
                                  {{"dataset", "d"},
                                   {"series", "r"},
                                   {"private", true},
                                   {"trials", json::array({{{"ledger", replace.to_json()}}})}}});
  const json acct = privacy_accounting(cells);
  const json& central = set_of(acct, "d")["central"];
  ASSERT_EQ(central.size(), 2u);
  EXPECT_EQ(central[0]["relation"], "add_remove");
  EXPECT_EQ(central[0]["epsilon"].get<double>(), 2.0);
  EXPECT_EQ(central[1]["relation"], "replace_one");
  EXPECT_EQ(central[1]["if_run_secure"].get<std::string>().rfind("eps-DP (replace one record)", 0), 0u);
  EXPECT_EQ(central[1]["epsilon"].get<double>(), 0.5);
}

// nD-Laplace's epsilon is the level reached at distance `radius`; the accounting composes
// the rate per unit distance. Epsilon 1 at radius 1 and epsilon 1 at radius 0.25 spend 1/1 + 1/0.25 = 5 per
// unit distance (summing the levels would say 2).
TEST(Accounting, NdLaplaceComposedPerUnitDistance) {
  const std::string text = R"(experiment: acct_radius
seed: 1
trials: 1
datasets:
  - name: blobs
    generator: {type: blobs, n_samples: 60, centers: 2, seed: 4}
    bounds: [[-15, 15], [-15, 15]]
    params: {k: 2}
methods:
  - method: nd_laplace
    params: {epsilon: 1.0, radius: [1.0, 0.25]}
metrics: [n_clusters]
)";
  const json r = run(text, "acct_radius", dpclust::testing::temp_dir("acct_radius"));
  ASSERT_FALSE(r.is_null());
  ASSERT_EQ(r["cells"].size(), 2u);
  for (const auto& c : r["cells"]) {
    const double radius = c["params"]["radius"].get<double>();
    EXPECT_EQ(c["trials"][0]["ledger"]["distance"].get<double>(), radius);
    EXPECT_EQ(c["privacy_spent"]["epsilon"].get<double>(), 1.0 / radius);  // per unit distance
    EXPECT_EQ(c["privacy_spent"]["level_epsilon_per_trial"].get<double>(), 1.0);
  }
  const json& local = set_of(r["privacy_accounting"], "blobs")["local"];
  EXPECT_EQ(local["epsilon_per_unit_distance"].get<double>(), 5.0);
  ASSERT_EQ(local["levels"].size(), 2u);  // by distance: 0.25 then 1
  EXPECT_EQ(local["levels"][0]["distance"].get<double>(), 0.25);
  EXPECT_EQ(local["levels"][0]["epsilon_per_unit_distance"].get<double>(), 4.0);
  EXPECT_EQ(local["levels"][1]["epsilon_per_unit_distance"].get<double>(), 1.0);
}

// One file configured under two names is one set of records: dp_kmeans at epsilon 1, two
// trials on each name, totals 4 for the file (not two totals of 2).
TEST(Accounting, OneFileUnderTwoNamesIsOneSetOfRecords) {
  const fs::path dir = dpclust::testing::temp_dir("acct_names");
  std::string csv = "x,y\n";
  for (int i = 0; i < 60; ++i) csv += std::to_string(i % 10) + "," + std::to_string((i * 7) % 10) + "\n";
  dpclust::testing::write_file(dir / "pts.csv", csv);
  dpclust::testing::write_file(dir / "copy.csv", csv);  // the same people under another path
  const std::string text = R"(experiment: acct_names
seed: 1
trials: 2
datasets:
  - {name: a, file: pts.csv, label: none, bounds: [[0, 10], [0, 10]], params: {k: 2}}
  - {name: b, file: pts.csv, label: none, bounds: [[0, 10], [0, 10]], params: {k: 2}}
  - {name: c, file: copy.csv, label: none, bounds: [[0, 10]], columns: [x], params: {k: 2}}
methods:
  - method: dp_kmeans
    params: {epsilon: 1.0}
metrics: [n_clusters]
)";
  const ExperimentConfig cfg = parse_config(text, (dir / "acct_names.yaml").string(), dir, "");
  RunOptions o;
  o.out_dir = dir / "out";
  o.threads = 1;
  o.progress = false;
  const RunReport rep = run_experiment(cfg, o);
  ASSERT_TRUE(rep.complete);
  const json r = json::parse(read_text_file(rep.results_file));
  const json& acct = r["privacy_accounting"];
  ASSERT_EQ(acct["record_sets"].size(), 1u) << acct.dump(1);
  const json& set = acct["record_sets"][0];
  EXPECT_EQ(set["datasets"], json::array({"a", "b", "c"}));
  EXPECT_EQ(set["selections"].size(), 3u);  // one per name: all columns (a, b), column x (c)
  EXPECT_EQ(set["central"][0]["trials"], 6);
  EXPECT_EQ(set["central"][0]["epsilon"].get<double>(), 6.0);  // 3 names x 2 trials x 1
  EXPECT_EQ(acct["datasets"]["a"], acct["datasets"]["b"]);
}

// A seeded run states no guarantee (only what secure mode would give); a secure one does.
TEST(Accounting, OnlyASecureRunStatesAGuarantee) {
  std::string secure = kTwoCells;
  secure.replace(secure.find("seed: 3\n"), 8, "randomness: secure\n");
  const json s = run(secure, "acct_secure", dpclust::testing::temp_dir("acct_secure"));
  ASSERT_FALSE(s.is_null());
  const json& c = set_of(s["privacy_accounting"], "blobs")["central"][0];
  EXPECT_EQ(c["holds"], true);
  EXPECT_EQ(c["guarantee"], "eps-DP (add/remove one record)");
  EXPECT_EQ(c["epsilon"].get<double>(), 3.75);
  EXPECT_FALSE(c.contains("if_run_secure"));
  const json seeded = run(kTwoCells, "acct", dpclust::testing::temp_dir("acct_seeded"));
  const json& d = set_of(seeded["privacy_accounting"], "blobs")["central"][0];
  EXPECT_EQ(d["holds"], false);
  EXPECT_TRUE(d["guarantee"].is_null());
  ASSERT_EQ(d["not_a_guarantee_because"].size(), 1u);
  EXPECT_NE(d["not_a_guarantee_because"][0].get<std::string>().find("randomness: seeded"), std::string::npos);
}

// Ledgers known to understate are counted at their true cost (pairwise sensitivity: entry
// costs (n - 1) epsilon; nD-Laplace resampling_budget: thesis 2 epsilon) or unbounded (diffprivlib's
// DP-k-means, data-derived bounds).
TEST(Accounting, UnderstatedLedgersAtTheirTrueCostOrUnbounded) {
  const std::string text = R"(experiment: acct_true
seed: 1
trials: 1
datasets:
  - name: blobs
    generator: {type: blobs, n_samples: 40, centers: 2, seed: 4}
    bounds: [[-15, 15], [-15, 15]]
    params: {k: 2, alpha: 1.0, min_pts: 3}
  - name: moons
    generator: {type: moons, n_samples: 40, noise: 0.05, seed: 2}
    bounds: data
    params: {k: 2, alpha: 0.3, min_pts: 3}
methods:
  - method: dp_dbscan_pairwise
    params: {epsilon: 1.0, sensitivity: entry}
  - method: nd_laplace
    params: {epsilon: 1.0, resampling_budget: thesis, sampler: textbook}
  - method: dp_kmeans
    params: {epsilon: 1.0, variant: diffprivlib}
metrics: [n_clusters]
)";
  const json r = run(text, "acct_true", dpclust::testing::temp_dir("acct_true"));
  ASSERT_FALSE(r.is_null());
  const json blobs = set_of(r["privacy_accounting"], "blobs");
  for (const auto& c : r["cells"]) {
    if (c["dataset"] != "blobs") continue;
    if (c["series"] == "dp_dbscan_pairwise") {
      EXPECT_EQ(c["privacy_spent"]["epsilon"].get<double>(), 39.0);  // (40 - 1) x 1
    }
    if (c["series"] == "nd_laplace") {
      EXPECT_EQ(c["privacy_spent"]["epsilon"].get<double>(), 2.0);
    }
    if (c["series"] == "dp_kmeans") {
      EXPECT_EQ(c["privacy_spent"]["unbounded"], true);
    }
  }
  bool replace_seen = false, add_seen = false;
  for (const auto& c : blobs["central"]) {
    if (c["relation"] == "replace_one") {
      replace_seen = true;
      EXPECT_EQ(c["epsilon"].get<double>(), 39.0);
    } else {
      add_seen = true;  // diffprivlib's DP-k-means: no epsilon stated
      EXPECT_TRUE(c["epsilon"].is_null());
      EXPECT_EQ(c["unbounded"], true);
    }
  }
  EXPECT_TRUE(replace_seen && add_seen);
  EXPECT_EQ(blobs["local"]["epsilon_per_unit_distance"].get<double>(), 2.0);
  // bounds: data: every total on moons is unbounded.
  const json moons = set_of(r["privacy_accounting"], "moons");
  for (const auto& c : moons["central"]) EXPECT_TRUE(c["epsilon"].is_null()) << c.dump();
  EXPECT_TRUE(moons["local"]["epsilon_per_unit_distance"].is_null());
}

// A secure sample is Poisson at a public rate; the accounting sums the epsilon spent on
// one sample and amplifies it once: two trials at 1 on a 10 % sample total ln(1 + 0.1 (e^2 - 1)). A seeded
// sample is flagged; max_rows counts add/remove trials twice.
TEST(Accounting, SubsamplingAmplifiedOnceSeededFlaggedMaxRowsDoubled) {
  const std::string secure = R"(experiment: acct_sample
randomness: secure
trials: 2
datasets:
  - name: blobs
    generator: {type: blobs, n_samples: 1000, centers: 2, seed: 4}
    bounds: [[-15, 15], [-15, 15]]
    sample: 100
    params: {k: 2}
methods:
  - method: dp_kmeans
    params: {epsilon: 1.0}
metrics: [n_clusters]
)";
  const json r = run(secure, "acct_sample", dpclust::testing::temp_dir("acct_sample"));
  ASSERT_FALSE(r.is_null());
  const json& cell = r["cells"][0];
  EXPECT_EQ(cell["private_release"], true);
  const json& sub = cell["trials"][0]["ledger"]["subsampled"];
  EXPECT_EQ(sub["rate"].get<double>(), 0.1);
  EXPECT_DOUBLE_EQ(sub["epsilon_amplified"].get<double>(), std::log1p(0.1 * std::expm1(1.0)));
  const json& c = set_of(r["privacy_accounting"], "blobs")["central"][0];
  EXPECT_EQ(c["holds"], true);
  EXPECT_DOUBLE_EQ(c["epsilon"].get<double>(), std::log1p(0.1 * std::expm1(2.0)));  // 0.4940..., not 2 x 0.1586
  EXPECT_NE(r["datasets"]["blobs"]["provenance"].dump().find("\"scheme\":\"poisson\""), std::string::npos);
  for (const auto& t : r["datasets"]["blobs"]["provenance"]["transforms"])
    if (t["name"] == "subsample") {
      EXPECT_FALSE(t.contains("seed"));  // secret randomness: no seed anywhere
    }

  std::string seeded = secure;
  seeded.replace(seeded.find("randomness: secure\n"), 19, "seed: 2\n");
  const json s = run(seeded, "acct_sample", dpclust::testing::temp_dir("acct_sample_seeded"));
  ASSERT_FALSE(s.is_null());
  bool flagged = false;
  for (const auto& n : s["cells"][0]["non_private"])
    flagged = flagged || n.get<std::string>().find("not a DP subsample") != std::string::npos;
  EXPECT_TRUE(flagged);
  EXPECT_EQ(set_of(s["privacy_accounting"], "blobs")["central"][0]["epsilon"].get<double>(), 2.0);  // no amplification

  const fs::path dir = dpclust::testing::temp_dir("acct_max_rows");
  std::string csv = "x,y\n";
  for (int i = 0; i < 50; ++i) csv += std::to_string(i % 10) + "," + std::to_string((i * 3) % 10) + "\n";
  dpclust::testing::write_file(dir / "pts.csv", csv);
  const std::string capped = R"(experiment: acct_max_rows
randomness: secure
trials: 1
datasets:
  - {name: p, file: pts.csv, label: none, max_rows: 30, bounds: [[0, 10], [0, 10]], params: {k: 2}}
methods:
  - method: dp_kmeans
    params: {epsilon: 1.0}
metrics: [n_clusters]
)";
  RunOptions o;
  o.out_dir = dir / "out";
  o.threads = 1;
  o.progress = false;
  const RunReport rep = run_experiment(parse_config(capped, (dir / "c.yaml").string(), dir, ""), o);
  ASSERT_TRUE(rep.complete);
  const json m = json::parse(read_text_file(rep.results_file));
  EXPECT_EQ(m["cells"][0]["private_release"], false);
  EXPECT_NE(m["cells"][0]["non_private"].dump().find("max_rows: 30"), std::string::npos);
  const json& mc = set_of(m["privacy_accounting"], "p")["central"][0];
  EXPECT_EQ(mc["epsilon"].get<double>(), 2.0);
  EXPECT_EQ(mc["max_rows_doubled_trials"], 1);
}

// Every results file says which fields are the release and which evaluate it on the true
// data (field_roles), and `dpclust release` writes the release fields only: no metrics, evaluation,
// diagnostics, timings, data summary (n, label counts, label map) or file checksums.
TEST(Accounting, ReleaseOnlyOutputDropsEvaluationOfTheTrueData) {
  const fs::path dir = dpclust::testing::temp_dir("acct_release");
  std::string csv = "x,y,label\n";
  for (int i = 0; i < 40; ++i)
    csv += std::to_string(i % 10) + "," + std::to_string((i * 3) % 10) + "," + (i % 2 ? "a" : "b") + "\n";
  dpclust::testing::write_file(dir / "pts.csv", csv);
  const std::string text = R"(experiment: acct_release
randomness: secure
trials: 2
output: {release: true}
datasets:
  - {name: p, file: pts.csv, columns: [x, y], label: label, bounds: [[0, 10], [0, 10]], params: {k: 2}}
methods:
  - method: dp_kmeans
    params: {epsilon: 1.0}
metrics: [ari, n_clusters]
)";
  RunOptions o;
  o.out_dir = dir / "out";
  o.threads = 1;
  o.progress = false;
  const RunReport rep = run_experiment(parse_config(text, (dir / "c.yaml").string(), dir, ""), o);
  ASSERT_TRUE(rep.complete);
  const json full = json::parse(read_text_file(rep.results_file));
  ASSERT_TRUE(full.contains("field_roles"));
  const json& roles = full["field_roles"];
  auto lists = [](const json& list, const std::string& path) {
    for (const auto& p : list)
      if (p.get<std::string>() == path) return true;
    return false;
  };
  EXPECT_TRUE(lists(roles["release"], "cells[].trials[].release"));
  EXPECT_TRUE(lists(roles["evaluation"], "datasets.*.n"));
  EXPECT_TRUE(lists(roles["evaluation"], "cells[].trials[].evaluation"));
  EXPECT_TRUE(lists(roles["evaluation"], "cells[].timing"));
  ASSERT_TRUE(full["datasets"]["p"]["provenance"].contains("label_map"));  // the full file has it ...

  const fs::path out = dir / "release.json";
  const auto r = dpclust::testing::run_command(std::string(DPCLUST_BINARY_PATH) + " release " +
                                               rep.results_file.string() + " --out " + out.string());
  ASSERT_EQ(r.code, 0) << r.output;
  const json rel = json::parse(read_text_file(out));
  EXPECT_EQ(rel["schema"], "dpclust.release/1");
  EXPECT_EQ(rel, release_only(full));
  json body = rel;
  body.erase("field_roles");  // names the evaluation fields, holds none
  const std::string dump = body.dump();
  for (const char* absent :
       {"\"metrics\"", "\"evaluation\"", "\"diagnostics\"", "\"timing\"", "\"aggregates\"", "\"label_map\"",
        "\"crc32\"", "\"provenance\"", "\"n\"", "\"record_set\"", "method_seconds"})
    EXPECT_EQ(dump.find(absent), std::string::npos) << absent;  // ... the release does not
  EXPECT_EQ(rel["datasets"]["p"],
            json({{"d", 2}, {"columns", {"x", "y"}}, {"bounds_source", "config"}, {"bounds", {{0, 10}, {0, 10}}}}));
  ASSERT_EQ(rel["cells"][0]["trials"].size(), 2u);
  EXPECT_TRUE(rel["cells"][0]["trials"][0].contains("release"));
  EXPECT_TRUE(rel["cells"][0]["trials"][0].contains("ledger"));
  EXPECT_FALSE(rel["cells"][0]["trials"][0].contains("labels"));  // DP-k-means' labels are evaluation only
  EXPECT_EQ(rel["privacy_accounting"]["datasets"]["p"], "set 1");
  // Not a results file: exit 2 with the reason.
  dpclust::testing::write_file(dir / "other.json", "{\"schema\": \"x\"}");
  const auto bad =
      dpclust::testing::run_command(std::string(DPCLUST_BINARY_PATH) + " release " + (dir / "other.json").string());
  EXPECT_EQ(bad.code, 2) << bad.output;
  EXPECT_NE(bad.output.find("not a dpclust results file"), std::string::npos);
}

namespace {

// A results file of `text` run in `dir` (files beside the config), secure or seeded as the text says.
json run_in(const fs::path& dir, const std::string& text, const std::string& name) {
  const ExperimentConfig cfg = parse_config(text, (dir / (name + ".yaml")).string(), dir, "");
  RunOptions o;
  o.out_dir = dir / "out";
  o.threads = 1;
  o.progress = false;
  const RunReport rep = run_experiment(cfg, o);
  if (!rep.complete) return nullptr;
  return json::parse(read_text_file(rep.results_file));
}

void write_points(const fs::path& path, int n, int salt) {
  std::string csv = "x,y\n";
  for (int i = 0; i < n; ++i) csv += std::to_string((i * salt) % 10) + "," + std::to_string((i * 7 + salt) % 10) + "\n";
  dpclust::testing::write_file(path, csv);
}

}  // namespace

// A dataset of one file and a dataset of that file and another (`one: small.csv`, `both: [small.csv,
// part2.csv]`), epsilon 1 each: small.csv's records are spent by both, 2 in all. They were two sets of
// "eps 1, holds"; each file is now keyed by its content and sets sharing a file are merged.
TEST(Accounting, DatasetsSharingAFileAreOneSetOfRecords) {
  const fs::path dir = dpclust::testing::temp_dir("acct_shared_file");
  write_points(dir / "small.csv", 40, 3);
  write_points(dir / "part2.csv", 40, 7);
  write_points(dir / "other.csv", 40, 9);
  const json r = run_in(dir, R"(experiment: acct_shared
randomness: secure
trials: 1
datasets:
  - {name: one, file: small.csv, label: none, bounds: [[0, 10], [0, 10]], params: {k: 2}}
  - {name: both, file: [small.csv, part2.csv], label: none, bounds: [[0, 10], [0, 10]], params: {k: 2}}
  - {name: apart, file: other.csv, label: none, bounds: [[0, 10], [0, 10]], params: {k: 2}}
methods:
  - method: dp_kmeans
    params: {epsilon: 1.0}
metrics: [n_clusters]
)",
                        "acct_shared");
  ASSERT_FALSE(r.is_null());
  const json& acct = r["privacy_accounting"];
  ASSERT_EQ(acct["record_sets"].size(), 2u) << acct.dump(1);
  EXPECT_EQ(acct["datasets"]["one"], acct["datasets"]["both"]);
  EXPECT_NE(acct["datasets"]["one"], acct["datasets"]["apart"]);
  const json& shared = set_of(acct, "one");
  EXPECT_EQ(shared["datasets"], json::array({"both", "one"}));
  EXPECT_EQ(shared["records"]["files"].size(), 2u);  // small.csv once, part2.csv
  EXPECT_EQ(shared["central"][0]["epsilon"].get<double>(), 2.0);
  EXPECT_EQ(shared["central"][0]["holds"], true);
  EXPECT_EQ(shared["whole_file"]["epsilon"].get<double>(), 2.0);
  // Each selection names the files it read by key; both name small.csv's.
  std::string small_key;
  for (const auto& sel : shared["selections"])
    if (sel["dataset"] == "one") small_key = sel["files"][0];
  for (const auto& sel : shared["selections"])
    if (sel["dataset"] == "both") {
      ASSERT_EQ(sel["files"].size(), 2u);
      EXPECT_TRUE(sel["files"][0] == small_key || sel["files"][1] == small_key) << sel.dump();
    }
  EXPECT_EQ(set_of(acct, "apart")["central"][0]["epsilon"].get<double>(), 1.0);
  // The release numbers the files instead of naming their checksums.
  const json rel = release_only(r);
  for (const auto& s : rel["privacy_accounting"]["record_sets"])
    for (const auto& sel : s["selections"])
      for (const auto& f : sel.value("files", json::array()))
        EXPECT_EQ(f.get<std::string>().rfind("file ", 0), 0u) << f;
}

// One notion's guarantee is not claimed over a file that also holds another notion's releases. A secure
// run of dp_kmeans (add/remove), nd_laplace (local: every record perturbed, so n is published) and the
// pairwise baseline (replace-one: n treated as public) on one file: each notion's total holds for the cells
// it covers, and the file as a whole has no guarantee, with the reasons. A file read by one notion only
// states one for the whole file; non-private cells beside it take it away.
TEST(Accounting, OneGuaranteePerNotionForTheCellsItCoversNoneForTheMix) {
  const fs::path dir = dpclust::testing::temp_dir("acct_notions");
  write_points(dir / "pts.csv", 60, 3);
  const json r = run_in(dir, R"(experiment: acct_notions
randomness: secure
trials: 1
datasets:
  - {name: pts, file: pts.csv, label: none, bounds: [[0, 10], [0, 10]], params: {k: 2, alpha: 1.0, min_pts: 4}}
methods:
  - method: dp_kmeans
    params: {epsilon: 1.0}
  - method: nd_laplace
    params: {epsilon: 1.0}
  - method: dp_dbscan_pairwise
    params: {epsilon: 1.0}
metrics: [n_clusters]
)",
                        "acct_notions");
  ASSERT_FALSE(r.is_null());
  const json& set = set_of(r["privacy_accounting"], "pts");
  ASSERT_EQ(set["central"].size(), 2u);
  for (const auto& c : set["central"]) {
    EXPECT_EQ(c["holds"], true);
    EXPECT_EQ(c["covers"]["series"], json::array({c["relation"] == "add_remove" ? "dp_kmeans" : "dp_dbscan_pairwise"}));
    EXPECT_NE(c["guarantee"].get<std::string>().find("for the releases of the cells in `covers` only"),
              std::string::npos)
        << c["guarantee"];
  }
  EXPECT_EQ(set["local"]["covers"]["series"], json::array({"nd_laplace"}));
  const json& whole = set["whole_file"];
  EXPECT_EQ(whole["holds"], false);
  EXPECT_TRUE(whole["guarantee"].is_null());
  EXPECT_EQ(whole["notions"], 3);
  const std::string why = whole["not_a_guarantee_because"].dump();
  EXPECT_NE(why.find("local (geo-indistinguishability)"), std::string::npos) << why;
  EXPECT_NE(why.find("replace-one"), std::string::npos) << why;

  // One notion alone: the whole file's guarantee; with a non-private cell beside it: none.
  const json alone = run_in(dir, R"(experiment: acct_alone
randomness: secure
trials: 2
datasets:
  - {name: pts, file: pts.csv, label: none, bounds: [[0, 10], [0, 10]], params: {k: 2}}
methods:
  - method: dp_kmeans
    params: {epsilon: 0.5}
metrics: [n_clusters]
)",
                            "acct_alone");
  const json& w = set_of(alone["privacy_accounting"], "pts")["whole_file"];
  EXPECT_EQ(w["holds"], true);
  EXPECT_EQ(w["guarantee"], "eps-DP (add/remove one record)");
  EXPECT_EQ(w["epsilon"].get<double>(), 1.0);
  const json mixed = run_in(dir, R"(experiment: acct_with_exact
randomness: secure
trials: 1
params: {n_init: 1}
datasets:
  - {name: pts, file: pts.csv, label: none, bounds: [[0, 10], [0, 10]], params: {k: 2}}
methods:
  - method: dp_kmeans
    params: {epsilon: 0.5}
  - method: kmeans
metrics: [n_clusters]
)",
                            "acct_with_exact");
  const json& m = set_of(mixed["privacy_accounting"], "pts");
  EXPECT_EQ(m["central"][0]["holds"], true);
  EXPECT_EQ(m["whole_file"]["holds"], false);
  EXPECT_NE(m["whole_file"]["not_a_guarantee_because"].dump().find("non-private methods"), std::string::npos);
}

// PrivTHR_EM's paper range (0, Max] and Baseline's n_share: 0 use a value of the true data that one record
// moves with certainty (the audit measures 5.76 for the first at a claimed 1): their ledgers are unbounded,
// and so are their cells and their set's total. A public em_upper and a noisy n stay bounded.
TEST(Accounting, DataDependentChoicesOfTheWaveClusterFamilyAreUnbounded) {
  const std::string text = R"(experiment: acct_wc
randomness: secure
trials: 1
datasets:
  - name: blobs
    generator: {type: blobs, n_samples: 200, centers: 3, cluster_std: 0.6, center_box_lo: 1, center_box_hi: 9, seed: 6}
    bounds: [[0, 10], [0, 10]]
    params: {g: 8, p: 0.5}
methods:
  - method: privthr_em
    params: {epsilon: 1.0, em_upper: [0.0, 40.0]}
  - method: wc_baseline
    params: {epsilon: 1.0, n_share: [0.0, 0.05]}
metrics: [n_clusters]
)";
  const json r = run(text, "acct_wc", dpclust::testing::temp_dir("acct_wc"));
  ASSERT_FALSE(r.is_null());
  for (const auto& c : r["cells"]) {
    const double knob =
        c["series"] == "privthr_em" ? c["params"]["em_upper"].get<double>() : c["params"]["n_share"].get<double>();
    SCOPED_TRACE(c["series"].get<std::string>() + " " + std::to_string(knob));
    const bool data_dependent = knob == 0;
    EXPECT_EQ(c["trials"][0]["ledger"].value("unbounded", false), data_dependent);
    EXPECT_EQ(c["privacy_spent"].value("unbounded", false), data_dependent);
    EXPECT_EQ(c["private_release"], !data_dependent);
  }
  const json& central = set_of(r["privacy_accounting"], "blobs")["central"][0];
  EXPECT_TRUE(central["epsilon"].is_null());
  EXPECT_EQ(central["unbounded"], true);
  const std::string reasons = central["unbounded_reasons"].dump();
  EXPECT_NE(reasons.find("(0, Max]"), std::string::npos);
  EXPECT_NE(reasons.find("n_share = 0"), std::string::npos);
}

// `dpclust release` never carries the true n of a flagged cell: a secure Poisson sample's rate whose
// denominator is the rows read (300 of 2000 = 0.15 gives n = 2000) is null, and so is Baseline's noisy_n
// when n_share: 0 made it the true count.
TEST(Accounting, ReleaseWritesNullWhereAValueIsTheTrueN) {
  const fs::path dir = dpclust::testing::temp_dir("acct_true_n");
  write_points(dir / "pts.csv", 777, 3);
  const json r = run_in(dir, R"(experiment: acct_true_n
randomness: secure
trials: 1
datasets:
  - {name: pts, file: pts.csv, label: none, sample: 300, bounds: [[0, 10], [0, 10]], params: {k: 2, g: 8, p: 0.5}}
methods:
  - method: dp_kmeans
    params: {epsilon: 1.0}
  - method: wc_baseline
    params: {epsilon: 1.0, n_share: 0.0}
metrics: [n_clusters]
)",
                        "acct_true_n");
  ASSERT_FALSE(r.is_null());
  const json rel = release_only(r);
  for (const auto& c : rel["cells"]) {
    const json& t = c["trials"][0];
    EXPECT_TRUE(t["ledger"]["subsampled"]["rate"].is_null()) << t["ledger"].dump();
    EXPECT_TRUE(t["ledger"]["subsampled"].contains("rate_withheld"));
    if (c["series"] == "wc_baseline") {
      EXPECT_TRUE(t["release"]["synopsis"]["noisy_n"].is_null()) << t["release"]["synopsis"].dump();
      EXPECT_EQ(t["release"]["synopsis"]["true_n_used"], true);
    }
  }
  // No number of the release is n = 777 or the rate 300 / 777.
  std::function<void(const json&)> no_true_n = [&](const json& v) {
    if (v.is_number()) {
      EXPECT_NE(v.get<double>(), 777.0);
      EXPECT_NE(v.get<double>(), 300.0 / 777.0);
    }
    if (v.is_structured())
      for (const auto& x : v) no_true_n(x);
  };
  no_true_n(rel);
}

// A column name header: auto guessed from the first row and the config never typed may be a record's text:
// the release writes its file index instead (results.json keeps it for the report's own tables).
TEST(Release, GuessedColumnNamesAreWithheld) {
  const json results =
      json::parse(R"({"datasets": {"p": {"d": 2, "columns": ["SECRETJOHN", "y"], "bounds_source": "config",
      "provenance": {"header_guessed": true, "columns": [{"name": "SECRETJOHN", "index": 0, "name_confirmed": false},
                                                         {"name": "y", "index": 3, "name_confirmed": true}]}}}})");
  const json rel = release_only(results);
  EXPECT_EQ(rel["datasets"]["p"]["columns"], json({"#0", "y"}));
  EXPECT_EQ(rel.dump().find("SECRET"), std::string::npos);
}

// Data-derived choices of the newer methods are counted as the WaveCluster family's are: LSH clustering's radius
// or centre from the data, EUGkM's and the hybrid's true n, DPM's rank-mean gap statistic in d > 1. Their
// ledgers are unbounded, so are their cells and their set's total (results.json stated eps 4, delta 1.2e-5
// for such a file); the public counterparts stay bounded.
TEST(Accounting, DataDerivedChoicesOfTheNewMethodsAreUnbounded) {
  const std::string text = R"(experiment: acct_new
randomness: secure
trials: 1
datasets:
  - name: blobs
    generator: {type: blobs, n_samples: 300, centers: 3, cluster_std: 0.6, center_box_lo: 1, center_box_hi: 9, seed: 6}
    bounds: [[0, 10], [0, 10]]
    params: {k: 3}
methods:
  - method: lsh_clustering
    params: {radius_from_data: [false, true]}
  - method: lsh_clustering
    as: lsh_centre
    params: {centre: [bounds, data]}
  - method: eugkm
    params: {n_source: [noisy, data]}
  - method: hybrid_kmeans
    params: {n_source: [noisy, data]}
  - method: dpm
    params: {gap_statistic: [pooled, rank_mean]}
metrics: [n_clusters]
)";
  const json r = run(text, "acct_new", dpclust::testing::temp_dir("acct_new"));
  ASSERT_FALSE(r.is_null());
  ASSERT_EQ(r["cells"].size(), 10u);
  for (const auto& c : r["cells"]) {
    const json& p = c["params"];
    const bool derived = p.value("radius_from_data", false) || p.value("centre", "") == "data" ||
                         p.value("n_source", "") == "data" || p.value("gap_statistic", "") == "rank_mean";
    SCOPED_TRACE(c["series"].get<std::string>() + " " + p.dump());
    EXPECT_EQ(c["trials"][0]["ledger"].value("unbounded", false), derived);
    EXPECT_EQ(c["privacy_spent"].value("unbounded", false), derived);
    EXPECT_EQ(c["private_release"], !derived);
  }
  const json& central = set_of(r["privacy_accounting"], "blobs")["central"][0];
  EXPECT_TRUE(central["epsilon"].is_null());
  EXPECT_TRUE(central["delta"].is_null());
  EXPECT_EQ(central["unbounded"], true);
  const std::string reasons = central["unbounded_reasons"].dump();
  for (const char* why : {"radius_from_data", "centre: data", "n_source: data", "rank_mean"})
    EXPECT_NE(reasons.find(why), std::string::npos) << why << ": " << reasons;
}

// `dpclust release` withholds the ledger values computed from the data: a sensitivity or a note of a ledger
// declared data-derived (lsh_clustering's radius from the data wrote "sensitivity 227071.36" and "r = 227071
// units", one record's distance from the centre) or of a dataset whose domain is derived from the data
// (dp_kmeans' sensitivities were (max - min) / 2 of each column, DPM's note "[0, 7.812050]" the range of
// column 0). The steps' epsilons stay; a public configuration keeps its ledger whole.
TEST(Release, LedgerValuesComputedFromTheDataAreWithheld) {
  const fs::path dir = dpclust::testing::temp_dir("release_derived");
  const json r = run_in(dir, R"(experiment: release_derived
randomness: secure
trials: 1
datasets:
  - name: boxed
    generator: {type: blobs, n_samples: 300, centers: 3, cluster_std: 0.6, center_box_lo: 1, center_box_hi: 9, seed: 6}
    bounds: [[0, 10], [0, 10]]
    params: {k: 3}
  - name: own_box
    generator: {type: blobs, n_samples: 300, centers: 3, cluster_std: 0.6, center_box_lo: 1, center_box_hi: 9, seed: 7}
    bounds: data
    params: {k: 3}
methods:
  - method: lsh_clustering
    params: {radius_from_data: [false, true]}
  - method: dp_kmeans
  - method: dpm
metrics: [n_clusters]
)",
                        "release_derived");
  ASSERT_FALSE(r.is_null());
  const json rel = release_only(r);
  ASSERT_EQ(rel["cells"].size(), r["cells"].size());
  std::size_t withheld = 0;
  for (std::size_t i = 0; i < r["cells"].size(); ++i) {
    const json& full = r["cells"][i];
    const json& cell = rel["cells"][i];
    const bool derived = full["dataset"] == "own_box" || full["params"].value("radius_from_data", false);
    SCOPED_TRACE(full["dataset"].get<std::string>() + " " + full["series"].get<std::string>() + " " +
                 full["params"].dump());
    const json& ledger = cell["trials"][0]["ledger"];
    EXPECT_EQ(ledger.contains("withheld_because"), derived) << ledger.dump();
    ASSERT_EQ(ledger["steps"].size(), full["trials"][0]["ledger"]["steps"].size());
    for (std::size_t s = 0; s < ledger["steps"].size(); ++s) {
      const json& step = ledger["steps"][s];
      const json& whole = full["trials"][0]["ledger"]["steps"][s];
      EXPECT_EQ(step["epsilon"], whole["epsilon"]);
      EXPECT_EQ(step.contains("sensitivity"), !derived);
      EXPECT_EQ(step.contains("note"), !derived && whole.contains("note"));
      if (!derived) continue;
      ++withheld;
      // No sensitivity of the full ledger is anywhere in the cell's release.
      std::function<void(const json&)> absent = [&](const json& v) {
        if (v.is_number() && whole.contains("sensitivity") && whole["sensitivity"].get<double>() > 1) {
          EXPECT_NE(v.get<double>(), whole["sensitivity"].get<double>());
        }
        if (v.is_structured())
          for (const auto& x : v) absent(x);
      };
      absent(cell);
    }
  }
  EXPECT_GT(withheld, 10u);
  // The release keeps no number of the box derived from the data's column ranges.
  EXPECT_FALSE(rel["datasets"]["own_box"].contains("bounds"));
}
