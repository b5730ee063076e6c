// Sweeps beyond one machine: the job-array variables of every scheduler (`--shard auto`), the
// cost-balanced assignment (hand-computed LPT, determinism, the 1.5x bound), the generated sbatch text,
// `dpclust status` on failed and interrupted shard runs, and `dpclust submit` against a stand-in sbatch.
// The real Slurm run is tests/experiment/slurm_test.cpp.
#include <gtest/gtest.h>

#include <map>
#include <random>

#include "config/config.hpp"
#include "core/error.hpp"
#include "core/files.hpp"
#include "run/runner.hpp"
#include "scaleout/array_task.hpp"
#include "scaleout/sbatch_script.hpp"
#include "scaleout/shard_plan.hpp"
#include "test_support.hpp"

using namespace dpclust;
namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

EnvLookup env_of(std::map<std::string, std::string> vars) {
  auto shared = std::make_shared<std::map<std::string, std::string>>(std::move(vars));
  return [shared](const char* name) -> const char* {
    const auto it = shared->find(name);
    return it == shared->end() ? nullptr : it->second.c_str();
  };
}

ArrayTask resolve(const std::string& text, std::map<std::string, std::string> vars) {
  const auto task = resolve_auto_shard(text, env_of(std::move(vars)), 1'000'000);
  if (!task) throw std::logic_error("not an auto shard: " + text);
  return *task;
}

// The InputError's text (where, problem and fix) of resolving, or "" when it resolved.
std::string error_of(const std::string& text, std::map<std::string, std::string> vars) {
  try {
    resolve(text, std::move(vars));
  } catch (const InputError& e) {
    return e.what();
  }
  return "";
}

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::string binary() {
  const char* b = std::getenv("DPCLUST_BINARY");
  return b ? b : DPCLUST_BINARY_PATH;
}

dpclust::testing::CommandResult dpclust_cmd(const std::string& args, const std::string& env = "") {
  return dpclust::testing::run_command(env + (env.empty() ? "" : " ") + binary() + " " + args);
}

// Eight cells of very different cost: two datasets of 300 and 3000 points, four methods.
const std::string kConfig = R"(experiment: shards
seed: 11
trials: 2
datasets:
  - name: small
    generator: {type: blobs, n_samples: 300, centers: 3, seed: 4}
    params: {k: 3}
  - name: large
    generator: {type: blobs, n_samples: 3000, centers: 3, seed: 5}
    params: {k: 3}
methods:
  - method: dbscan
    params: {alpha: [0.3, 0.6], min_pts: 5}
  - method: kmeans
    params: {n_init: [1, 4]}
metrics: [ari, n_clusters]
)";

}  // namespace

// --- `--shard auto`: the job-array variables ---------------------------------------------------------

TEST(ArrayTask, SlurmCompleteRangeGivesShardAndCount) {
  const ArrayTask t = resolve("auto", {{"SLURM_ARRAY_TASK_ID", "3"},
                                       {"SLURM_ARRAY_TASK_MIN", "1"},
                                       {"SLURM_ARRAY_TASK_MAX", "8"},
                                       {"SLURM_ARRAY_TASK_COUNT", "8"}});
  EXPECT_EQ(t.shard, 3u);
  EXPECT_EQ(t.count, 8u);
  EXPECT_EQ(t.scheduler, "slurm");
  // Zero-based arrays and steps: ids 0,2,4,6 are shards 1..4.
  const ArrayTask z = resolve("auto", {{"SLURM_ARRAY_TASK_ID", "4"},
                                       {"SLURM_ARRAY_TASK_MIN", "0"},
                                       {"SLURM_ARRAY_TASK_MAX", "6"},
                                       {"SLURM_ARRAY_TASK_STEP", "2"},
                                       {"SLURM_ARRAY_TASK_COUNT", "4"}});
  EXPECT_EQ(z.shard, 3u);
  EXPECT_EQ(z.count, 4u);
}

TEST(ArrayTask, SlurmSubsetNeedsTheOriginalCount) {
  // `sbatch --array=3,7` of an 8-task plan: MIN 3, MAX 7, COUNT 2 is not a complete range.
  const std::map<std::string, std::string> subset{{"SLURM_ARRAY_TASK_ID", "7"},
                                                  {"SLURM_ARRAY_TASK_MIN", "3"},
                                                  {"SLURM_ARRAY_TASK_MAX", "7"},
                                                  {"SLURM_ARRAY_TASK_COUNT", "2"}};
  const std::string e = error_of("auto", subset);
  EXPECT_TRUE(has(e, "SLURM_ARRAY_TASK_COUNT")) << e;
  EXPECT_TRUE(has(e, "auto/N")) << e;
  // With the count of the plan (the generated script exports it), the task id is the shard number.
  auto with_count = subset;
  with_count["DPCLUST_SHARD_COUNT"] = "8";
  const ArrayTask t = resolve("auto", with_count);
  EXPECT_EQ(t.shard, 7u);
  EXPECT_EQ(t.count, 8u);
  const ArrayTask u = resolve("auto/8", subset);
  EXPECT_EQ(u.shard, 7u);
  EXPECT_EQ(u.count, 8u);
  // ...and then an id outside 1..N is refused with the fix.
  const std::string zero = error_of("auto/8", {{"SLURM_ARRAY_TASK_ID", "0"}});
  EXPECT_TRUE(has(zero, "SLURM_ARRAY_TASK_ID=0 is not a shard number 1..8")) << zero;
  EXPECT_TRUE(has(zero, "--array=1-8")) << zero;
}

TEST(ArrayTask, SgeLsfPbsTorque) {
  const ArrayTask sge = resolve(
      "auto", {{"SGE_TASK_ID", "5"}, {"SGE_TASK_FIRST", "1"}, {"SGE_TASK_LAST", "9"}, {"SGE_TASK_STEPSIZE", "2"}});
  EXPECT_EQ(sge.scheduler, "sge");
  EXPECT_EQ(sge.shard, 3u);
  EXPECT_EQ(sge.count, 5u);
  // SGE writes "undefined" outside arrays: that is no array at all.
  EXPECT_TRUE(has(error_of("auto", {{"SGE_TASK_ID", "undefined"}}), "no job-array variable is set"));
  // LSF exports no first index: an explicit count is required, and LSB_JOBINDEX=0 is not an array.
  const std::string lsf = error_of("auto", {{"LSB_JOBINDEX", "3"}, {"LSB_JOBINDEX_END", "5"}});
  EXPECT_TRUE(has(lsf, "lsf does not export the range")) << lsf;
  const ArrayTask l = resolve("auto/5", {{"LSB_JOBINDEX", "3"}});
  EXPECT_EQ(l.scheduler, "lsf");
  EXPECT_EQ(l.shard, 3u);
  EXPECT_EQ(l.count, 5u);
  EXPECT_TRUE(has(error_of("auto/5", {{"LSB_JOBINDEX", "0"}}), "no job-array variable is set"));
  const ArrayTask pbs = resolve("auto", {{"PBS_ARRAY_INDEX", "2"}, {"DPCLUST_SHARD_COUNT", "4"}});
  EXPECT_EQ(pbs.scheduler, "pbs");
  EXPECT_EQ(pbs.shard, 2u);
  EXPECT_EQ(pbs.count, 4u);
  const ArrayTask torque = resolve("auto/4", {{"PBS_ARRAYID", "4"}});
  EXPECT_EQ(torque.scheduler, "torque");
  EXPECT_EQ(torque.shard, 4u);
}

TEST(ArrayTask, BadValuesAreRefusedByName) {
  EXPECT_FALSE(resolve_auto_shard("2/4", env_of({}), 1'000'000).has_value());  // not auto: the caller parses K/N
  const std::string none = error_of("auto", {});
  EXPECT_TRUE(has(none, "SLURM_ARRAY_TASK_ID")) << none;
  EXPECT_TRUE(has(none, "--shard K/N")) << none;
  EXPECT_TRUE(
      has(error_of("auto", {{"SLURM_ARRAY_TASK_ID", "3x"}, {"SLURM_ARRAY_TASK_MIN", "1"}}), "SLURM_ARRAY_TASK_ID"));
  EXPECT_TRUE(has(error_of("auto/0", {{"SLURM_ARRAY_TASK_ID", "1"}}), "auto/N with 1 <= N"));
  EXPECT_TRUE(has(error_of("auto/x", {{"SLURM_ARRAY_TASK_ID", "1"}}), "--shard"));
  EXPECT_TRUE(
      has(error_of("auto", {{"SLURM_ARRAY_TASK_ID", "1"}, {"DPCLUST_SHARD_COUNT", "-2"}}), "DPCLUST_SHARD_COUNT"));
  const std::string outside = error_of("auto", {{"SLURM_ARRAY_TASK_ID", "9"},
                                                {"SLURM_ARRAY_TASK_MIN", "1"},
                                                {"SLURM_ARRAY_TASK_MAX", "8"},
                                                {"SLURM_ARRAY_TASK_COUNT", "8"}});
  EXPECT_TRUE(has(outside, "not in the array's range 1..8")) << outside;
}

// --- the assignment ------------------------------------------------------------------------------------

TEST(ShardPlan, LongestProcessingTimeByHand) {
  // Costs 5 4 3 3 2 2 1 on 3 shards, most expensive first to the least-loaded shard (ties: lower shard):
  // 5->1, 4->2, 3->3, 3->3 (3 < 4, 5), 2->2 (4), 2->1 (5), 1->2 (6 = 6 with shard 3: the lower wins).
  EXPECT_EQ(assign_by_cost({5, 4, 3, 3, 2, 2, 1}, 3), (std::vector<std::uint32_t>{1, 2, 3, 3, 2, 1, 2}));
  // Equal costs keep their order: round robin.
  EXPECT_EQ(assign_by_cost({1, 1, 1, 1, 1}, 2), (std::vector<std::uint32_t>{1, 2, 1, 2, 1}));
  EXPECT_EQ(assign_by_index(5, 2), (std::vector<std::uint32_t>{1, 2, 1, 2, 1}));
  // More shards than cells: every cell alone, the rest empty.
  EXPECT_EQ(assign_by_cost({2, 7}, 4), (std::vector<std::uint32_t>{2, 1}));
}

TEST(ShardPlan, ExpensiveCellsInGridOrderDefeatIndexButNotCost) {
  // A dataset-major grid of 64 cells where every 4th cell (one method on the big dataset, say all the
  // Cabs trials) costs 100x the others: by index shard 1 gets all 16 of them.
  std::vector<double> costs(64);
  for (std::size_t i = 0; i < costs.size(); ++i) costs[i] = i % 4 == 0 ? 100.0 : 1.0;
  const ShardBalance by_index = shard_balance(costs, assign_by_index(costs.size(), 4), 4);
  const ShardBalance by_cost = shard_balance(costs, assign_by_cost(costs, 4), 4);
  EXPECT_NEAR(by_index.ratio(), 1600.0 / 412.0, 1e-9);  // all 16 x 100 against the mean (1600 + 48) / 4
  EXPECT_LE(by_cost.ratio(), 1.01);
  EXPECT_DOUBLE_EQ(by_cost.slowest, 412.0);  // 4 expensive + 12 cheap cells each: perfectly even
}

TEST(ShardPlan, WithinOneAndAHalfOfTheMeanOnRandomTables) {
  // Log-normal cell times (heavy tailed, like the papers' sweeps), fixed seed. LPT's guarantee: the
  // slowest shard is at most the mean plus the largest cell; so whenever the largest cell is at most half
  // the mean shard, the slowest is within 1.5x -- checked on 200 tables and every count 2..32.
  std::mt19937_64 gen(20261123);
  std::lognormal_distribution<double> cell_time(0.0, 1.5);
  std::size_t checked_bound = 0;
  for (int table = 0; table < 200; ++table) {
    std::vector<double> costs(50 + table * 5);
    for (double& c : costs) c = cell_time(gen);
    for (std::size_t n = 2; n <= 32; n += 3) {
      const auto a = assign_by_cost(costs, n);
      EXPECT_EQ(a, assign_by_cost(costs, n));  // deterministic
      const ShardBalance b = shard_balance(costs, a, n);
      EXPECT_LE(b.slowest, b.mean + b.largest_cell + 1e-9);
      if (b.largest_cell <= 0.5 * b.mean) {
        EXPECT_LE(b.ratio(), 1.5) << "table " << table << ", " << n << " shards";
        ++checked_bound;
      }
    }
  }
  EXPECT_GT(checked_bound, 400u);  // the bound was exercised, not vacuous
  // suggest_task_count keeps it: at the count it suggests, the plan is within 1.5x.
  std::vector<double> costs(300);
  for (double& c : costs) c = cell_time(gen);
  const std::size_t n = suggest_task_count(costs, 32, 1.5);
  EXPECT_GE(n, 2u);
  EXPECT_LE(shard_balance(costs, assign_by_cost(costs, n), n).ratio(), 1.5);
}

TEST(ShardPlan, EveryCellOnceAndTheSamePlanEveryTime) {
  const fs::path dir = dpclust::testing::temp_dir("plan");
  const ExperimentConfig a = load_config(dpclust::testing::write_file(dir / "a.yaml", kConfig), "");
  std::string second = kConfig;
  second.replace(second.find("experiment: shards"), 18, "experiment: other");
  const ExperimentConfig b = load_config(dpclust::testing::write_file(dir / "b.yaml", second), "");
  const ShardPlan p = plan_shards({a, b}, 3, ShardBy::cost);
  ASSERT_EQ(p.shard_of.size(), 2u);
  ASSERT_EQ(p.shard_of[0].size(), 8u);
  std::vector<int> per_shard(4, 0);
  for (const auto& s : p.shard_of)
    for (std::uint32_t x : s) {
      ASSERT_GE(x, 1u);
      ASSERT_LE(x, 3u);
      ++per_shard[x];
    }
  EXPECT_EQ(per_shard[1] + per_shard[2] + per_shard[3], 16);
  EXPECT_EQ(p.fingerprint, plan_shards({a, b}, 3, ShardBy::cost).fingerprint);
  EXPECT_NE(p.fingerprint, plan_shards({a, b}, 3, ShardBy::index).fingerprint);
  // The 3000-point cells are estimated dearer than the 300-point ones of the same method and parameters.
  EXPECT_GT(p.seconds[0][4], p.seconds[0][0]);
  // Measured times replace the estimates: make one cell dominate and it gets a shard of its own.
  ShardCosts measured;
  const std::vector<Cell> cells = expand_grid(a);
  measured["shards"][cells[1].id] = 1e6;
  const ShardPlan m = plan_shards({a}, 2, ShardBy::cost, &measured);
  for (std::size_t i = 0; i < cells.size(); ++i)
    if (i != 1) {
      EXPECT_NE(m.shard_of[0][i], m.shard_of[0][1]) << i;
    }
}

TEST(ShardPlan, ShardsByCostMergeToTheUnshardedResults) {
  const fs::path dir = dpclust::testing::temp_dir("plan_results");
  const fs::path cfg = dpclust::testing::write_file(dir / "shards.yaml", kConfig);
  ASSERT_EQ(dpclust_cmd("run " + cfg.string() + " --out " + (dir / "whole").string() + " --no-progress").code, 0);
  for (const char* k : {"3/3", "1/3", "2/3"}) {
    const auto r =
        dpclust_cmd("run " + cfg.string() + " --out " + (dir / "sharded").string() + " --no-progress --shard " + k);
    ASSERT_EQ(r.code, 0) << r.output;
  }
  const json whole = json::parse(read_text_file(dir / "whole" / "shards" / "results.json"));
  const json sharded = json::parse(read_text_file(dir / "sharded" / "shards" / "results.json"));
  EXPECT_EQ(strip_nondeterministic(whole).dump(), strip_nondeterministic(sharded).dump());
  // Each shard run recorded its rule and the plan, the same plan in all three.
  const json manifest = json::parse(read_text_file(dir / "sharded" / "shards" / "manifest.json"));
  std::set<std::string> plans;
  for (const auto& r : manifest["runs"]) {
    EXPECT_EQ(r["shard_by"], "cost");
    EXPECT_EQ(r["state"], "succeeded");
    plans.insert(r["shard_plan"].get<std::string>());
  }
  EXPECT_EQ(manifest["runs"].size(), 3u);
  EXPECT_EQ(plans.size(), 1u);
}

TEST(ShardPlan, ShardAutoFromTheEnvironment) {
  const fs::path dir = dpclust::testing::temp_dir("auto");
  const fs::path cfg = dpclust::testing::write_file(dir / "shards.yaml", kConfig);
  const auto none =
      dpclust_cmd("run " + cfg.string() + " --dry-run --shard auto",
                  "env -u SLURM_ARRAY_TASK_ID -u SGE_TASK_ID -u LSB_JOBINDEX -u PBS_ARRAY_INDEX -u PBS_ARRAYID");
  EXPECT_EQ(none.code, 2) << none.output;
  EXPECT_TRUE(has(none.output, "no job-array variable is set")) << none.output;
  const auto slurm =
      dpclust_cmd("run " + cfg.string() + " --dry-run --shard auto",
                  "SLURM_ARRAY_TASK_ID=2 SLURM_ARRAY_TASK_MIN=1 SLURM_ARRAY_TASK_MAX=4 SLURM_ARRAY_TASK_COUNT=4");
  EXPECT_EQ(slurm.code, 0) << slurm.output;
  EXPECT_TRUE(has(slurm.output, "shard 2/4 from slurm")) << slurm.output;
  EXPECT_TRUE(has(slurm.output, "this shard (2/4, by cost): ")) << slurm.output;
  // The cells marked as this shard's are the plan's shard 2.
  const fs::path cfg_copy = cfg;
  const ShardPlan plan = plan_shards({load_config(cfg_copy, "")}, 4, ShardBy::cost);
  std::size_t mine = 0;
  for (std::uint32_t s : plan.shard_of[0]) mine += s == 2;
  EXPECT_TRUE(has(slurm.output, "this shard (2/4, by cost): " + std::to_string(mine) + " cells")) << slurm.output;
}

// --- the scripts ----------------------------------------------------------------------------------------

TEST(Sbatch, ScriptsAreExactlyAsDocumented) {
  SbatchOptions o;
  o.dpclust = "/opt/dpclust/build/experiments/dpclust";
  o.workdir = "/home/me/dpclust";
  o.configs = {"configs/paper/a.yaml", "it's.yaml"};
  o.out = "/scratch/me/results";
  o.tasks = 8;
  o.cpus_per_task = 4;
  o.time = "2:00:00";
  o.partition = "short";
  o.account = "dp-lab";
  o.job_name = "dpclust-a";
  o.run_args = {"--trials", "3"};
  o.version = "dpclust 0.2.0, git abc";
  EXPECT_EQ(array_script(o),
            "#!/bin/bash\n"
            "# Written by `dpclust submit` (dpclust 0.2.0, git abc): one array task per shard of 8.\n"
            "# Every task computes the same plan of cells (by cost) and runs its shard into the shared --out;\n"
            "# cells already on disk are kept, so resubmitting (all tasks, or some: sbatch --array=3,7 this-file)\n"
            "# computes only what is missing. `dpclust status /scratch/me/results` shows what is done.\n"
            "#SBATCH --job-name=dpclust-a\n"
            "#SBATCH --array=1-8\n"
            "#SBATCH --ntasks=1\n"
            "#SBATCH --cpus-per-task=4\n"
            "#SBATCH --time=2:00:00\n"
            "#SBATCH --output=/scratch/me/results/slurm/logs/%A_%a.out\n"
            "#SBATCH --partition=short\n"
            "#SBATCH --account=dp-lab\n"
            "set -euo pipefail\n"
            "cd '/home/me/dpclust'\n"
            "# The task ids are the shard numbers 1..8, whatever subset of them runs.\n"
            "export DPCLUST_SHARD_COUNT=8\n"
            "export OMP_NUM_THREADS=\"${SLURM_CPUS_PER_TASK:-4}\"\n"
            "'/opt/dpclust/build/experiments/dpclust' run 'configs/paper/a.yaml' 'it'\\''s.yaml' --out "
            "'/scratch/me/results' --shard auto "
            "--shard-by cost --threads \"${SLURM_CPUS_PER_TASK:-4}\" --no-progress '--trials' '3'\n");
  const std::string merge = merge_script(o);
  EXPECT_TRUE(has(merge, "#SBATCH --job-name=dpclust-a-merge\n")) << merge;
  EXPECT_TRUE(
      has(merge,
          "'/opt/dpclust/build/experiments/dpclust' merge '/scratch/me/results' --out '/scratch/me/results' || true\n"))
      << merge;
  EXPECT_TRUE(has(merge, "status '/scratch/me/results' --fail-if-incomplete\n")) << merge;
  EXPECT_FALSE(has(merge, "--array")) << merge;
}

TEST(Sbatch, OptionsThatWouldBreakTheScriptAreRefused) {
  SbatchOptions o;
  o.dpclust = "/x/dpclust";
  o.workdir = "/x";
  o.configs = {"a.yaml"};
  o.out = "/x/out";
  EXPECT_EQ(shell_quote("it's"), "'it'\\''s'");
  for (const std::string t : {"2h", "1:2:3:4", "-5", "1-", "abc"}) {
    o.time = t;
    EXPECT_THROW(check_sbatch_options(o), InputError) << t;
  }
  for (const std::string t : {"30", "30:00", "2:00:00", "1-12", "1-12:30", "1-12:30:00"}) {
    o.time = t;
    EXPECT_NO_THROW(check_sbatch_options(o)) << t;
  }
  o.partition = "short\n#SBATCH --account=theirs";
  EXPECT_THROW(check_sbatch_options(o), InputError);
  o.partition = "a b";
  EXPECT_THROW(check_sbatch_options(o), InputError);
  o.partition = "";
  o.out = "/x/out\nrm -rf /";
  EXPECT_THROW(check_sbatch_options(o), InputError);
  o.out = "/x/out";
  o.extra_sbatch = {"qos=long"};
  EXPECT_THROW(check_sbatch_options(o), InputError);
}

// --- submit and status without a cluster ----------------------------------------------------------------

TEST(Submit, WritesScriptsAndChainsTheMergeWithAStandInSbatch) {
  const fs::path dir = dpclust::testing::temp_dir("submit");
  const fs::path cfg = dpclust::testing::write_file(dir / "shards.yaml", kConfig);
  // A stand-in for sbatch: records its arguments, prints a job id as --parsable does.
  const fs::path fake = dpclust::testing::write_file(
      dir / "sbatch", "#!/bin/sh\necho \"$@\" >> '" + (dir / "calls").string() + "'\nn=$(wc -l < '" +
                          (dir / "calls").string() + "')\necho $((100 + n))\n");
  fs::permissions(fake, fs::perms::owner_all);
  const auto dry = dpclust_cmd("submit " + cfg.string() + " --scheduler slurm --tasks 3 --out " +
                               (dir / "out").string() + " --dry-run");
  ASSERT_EQ(dry.code, 0) << dry.output;
  EXPECT_TRUE(has(dry.output, "plan: 8 cells of 1 experiment in 3 shards (by cost")) << dry.output;
  EXPECT_TRUE(has(dry.output, "#SBATCH --array=1-3")) << dry.output;
  EXPECT_FALSE(fs::exists(dir / "out")) << "a dry run writes nothing";
  const auto r = dpclust_cmd("submit " + cfg.string() + " --scheduler slurm --tasks 3 --time 10 --out " +
                             (dir / "out").string() + " --sbatch " + fake.string());
  ASSERT_EQ(r.code, 0) << r.output;
  EXPECT_TRUE(has(r.output, "submitted: array job 101 (3 tasks), merge job 102")) << r.output;
  const std::string calls = read_text_file(dir / "calls");
  EXPECT_TRUE(has(calls, "--parsable " + (dir / "out" / "slurm" / "array.sbatch").string() + "\n")) << calls;
  EXPECT_TRUE(has(calls, "--parsable --dependency=afterok:101 --kill-on-invalid-dep=yes " +
                             (dir / "out" / "slurm" / "merge.sbatch").string()))
      << calls;
  const json record = json::parse(read_text_file(dir / "out" / "slurm" / "submit.json"));
  EXPECT_EQ(record["array_job"], "101");
  EXPECT_EQ(record["merge_job"], "102");
  EXPECT_EQ(record["tasks"], 3);
  // An sbatch that fails is reported with its message, exit 2.
  const fs::path failing = dpclust::testing::write_file(
      dir / "sbatch_fail", "#!/bin/sh\necho 'sbatch: error: invalid partition specified: nope' >&2\nexit 1\n");
  fs::permissions(failing, fs::perms::owner_all);
  const auto bad = dpclust_cmd("submit " + cfg.string() + " --scheduler slurm --tasks 2 --out " +
                               (dir / "out2").string() + " --sbatch " + failing.string());
  EXPECT_EQ(bad.code, 2) << bad.output;
  EXPECT_TRUE(has(bad.output, "invalid partition specified")) << bad.output;
  const auto pbs = dpclust_cmd("submit " + cfg.string() + " --scheduler pbs --dry-run");
  EXPECT_EQ(pbs.code, 2);
  EXPECT_TRUE(has(pbs.output, "--shard auto/N")) << pbs.output;
}

TEST(Submit, RefusesMissingDataListingEveryDatasetBeforeWritingAnything) {
  // Submit sent array jobs for configs whose data was absent; every task then failed on
  // its node. Now every missing dataset of every config is listed with its fix, exit 2, nothing written.
  const fs::path dir = dpclust::testing::temp_dir("submit_missing");
  const fs::path a = dpclust::testing::write_file(dir / "a.yaml", R"(experiment: has_missing
seed: 1
trials: 1
datasets:
  - name: present
    generator: {type: blobs, n_samples: 100, seed: 1}
    params: {k: 3}
  - name: gone
    file: no_such_file.csv
    params: {k: 3}
methods:
  - method: kmeans
metrics: [n_clusters]
)");
  const fs::path b = dpclust::testing::write_file(dir / "b.yaml", R"(experiment: also_missing
seed: 1
trials: 1
datasets:
  - name: lost
    file: lost/points.csv
    params: {k: 2}
methods:
  - method: kmeans
metrics: [n_clusters]
)");
  const fs::path fake = dpclust::testing::write_file(
      dir / "sbatch", "#!/bin/sh\necho called >> '" + (dir / "calls").string() + "'\necho 7\n");
  fs::permissions(fake, fs::perms::owner_all);
  for (const std::string& extra : {std::string(" --dry-run"), " --sbatch " + fake.string()}) {
    const auto r = dpclust_cmd("submit " + a.string() + " " + b.string() + " --scheduler slurm --tasks 2 --out " +
                               (dir / "out").string() + extra);
    EXPECT_EQ(r.code, 2) << r.output;
    EXPECT_TRUE(has(r.output, "2 datasets are missing")) << r.output;
    EXPECT_TRUE(has(r.output, "dataset 'gone': file not found: " + (dir / "no_such_file.csv").string())) << r.output;
    EXPECT_TRUE(has(r.output, "dataset 'lost': file not found: " + (dir / "lost" / "points.csv").string())) << r.output;
    EXPECT_TRUE(has(r.output, "--skip-missing-data")) << r.output;
    EXPECT_FALSE(has(r.output, "#SBATCH")) << "refused before the plan and the scripts";
    EXPECT_FALSE(fs::exists(dir / "out"));
    EXPECT_FALSE(fs::exists(dir / "calls")) << "sbatch must not be called";
  }
  // With --skip-missing-data the tasks skip what is missing, as `run` does: the submission goes ahead.
  const auto skip = dpclust_cmd("submit " + a.string() + " --scheduler slurm --tasks 1 --out " +
                                (dir / "out").string() + " --skip-missing-data --dry-run");
  EXPECT_EQ(skip.code, 0) << skip.output;
  EXPECT_TRUE(has(skip.output, "--skip-missing-data")) << skip.output;
}

TEST(Status, RightAfterSubmitCountsTheArrayTasks) {
  // `status OUT` right after `submit` failed ("no experiment output here"). It now reads
  // the submission's plan and says how many of its tasks have started and finished.
  const fs::path dir = dpclust::testing::temp_dir("status_submit");
  const fs::path cfg = dpclust::testing::write_file(dir / "shards.yaml", kConfig);
  const fs::path out = dir / "out";
  const fs::path fake = dpclust::testing::write_file(
      dir / "sbatch", "#!/bin/sh\necho \"$@\" >> '" + (dir / "calls").string() + "'\nn=$(wc -l < '" +
                          (dir / "calls").string() + "')\necho $((100 + n))\n");
  fs::permissions(fake, fs::perms::owner_all);
  ASSERT_EQ(dpclust_cmd("submit " + cfg.string() + " --scheduler slurm --tasks 3 --out " + out.string() + " --sbatch " +
                        fake.string())
                .code,
            0);
  auto st = dpclust_cmd("status " + out.string());
  ASSERT_EQ(st.code, 0) << st.output;
  EXPECT_TRUE(has(st.output, "submitted: array job 101 (3 tasks)")) << st.output;
  EXPECT_TRUE(
      has(st.output, "tasks: 0 of 3 started, 0 finished, 0 running, 0 failed; cells of the plan: 0 of 8 on disk"))
      << st.output;
  EXPECT_EQ(dpclust_cmd("status " + out.string() + " --fail-if-incomplete").code, 1);
  // Task 1 has started (Slurm opened its log); task 2 ran its shard of the same plan to the end.
  dpclust::testing::write_file(out / "slurm" / "logs" / "101_1.out", "");
  const auto shard = dpclust_cmd("run " + cfg.string() + " --out " + out.string() + " --shard 2/3 --no-progress");
  ASSERT_EQ(shard.code, 0) << shard.output;
  st = dpclust_cmd("status " + out.string());
  ASSERT_EQ(st.code, 0) << st.output;
  EXPECT_TRUE(has(st.output, "tasks: 2 of 3 started, 1 finished, 1 running, 0 failed")) << st.output;
  EXPECT_TRUE(has(st.output, "experiment")) << "the experiment's own table follows once it exists";
  const json j = json::parse(dpclust_cmd("status " + out.string() + " --json").output);
  EXPECT_EQ(j["submission"]["tasks"], 3);
  EXPECT_EQ(j["submission"]["started"], 2);
  EXPECT_EQ(j["submission"]["finished"], 1);
  const std::size_t in_shard_2 = j["submission"]["cells_done"].get<std::size_t>();
  EXPECT_GE(in_shard_2, 1u);
  EXPECT_EQ(j["experiments"][0]["done"], in_shard_2);
  // The other two shards: every task finished, the plan complete.
  for (const char* k : {"1/3", "3/3"})
    ASSERT_EQ(dpclust_cmd("run " + cfg.string() + " --out " + out.string() + " --shard " + k + " --no-progress").code,
              0);
  st = dpclust_cmd("status " + out.string());
  EXPECT_TRUE(
      has(st.output, "tasks: 3 of 3 started, 3 finished, 0 running, 0 failed; cells of the plan: 8 of 8 on disk"))
      << st.output;
}

TEST(Status, CountsCellsAndNamesFailedAndInterruptedShards) {
  const fs::path dir = dpclust::testing::temp_dir("status");
  const fs::path cfg = dpclust::testing::write_file(dir / "shards.yaml", kConfig);
  const fs::path out = dir / "out";
  ASSERT_EQ(dpclust_cmd("run " + cfg.string() + " --out " + out.string() + " --no-progress").code, 0);
  auto st = dpclust_cmd("status " + out.string());
  ASSERT_EQ(st.code, 0) << st.output;
  EXPECT_TRUE(has(st.output, "complete (results.json current)")) << st.output;
  EXPECT_TRUE(has(st.output, "1 of 1 experiments complete; cells: 8 of 8 done, 0 running, 0 failed, 0 pending"))
      << st.output;
  EXPECT_EQ(dpclust_cmd("status " + out.string() + " --fail-if-incomplete").code, 0);

  // Shard 2/4 failed on cell 3 and shard 4/4 was killed (its record still says "running"): what a
  // crashed and a timed-out array task leave behind.
  const fs::path exp = out / "shards";
  json manifest = json::parse(read_text_file(exp / "manifest.json"));
  const std::string failed_id = manifest["grid"][3]["id"], lost_id = manifest["grid"][5]["id"];
  manifest["runs"].push_back(
      {{"run_id", "n1:1:t"},
       {"state", "failed"},
       {"shard", "2/4"},
       {"host", "node07"},
       {"scheduler_job", "4242"},
       {"started", "2026-11-23T10:00:00Z"},
       {"failed_cell", {{"index", 3}, {"id", failed_id}, {"where", "cell 3 (x), trial 1"}, {"error", "boom"}}}});
  manifest["runs"].push_back({{"run_id", "n2:2:t"},
                              {"state", "running"},
                              {"shard", "4/4"},
                              {"host", "node09"},
                              {"started", "2026-11-23T10:00:01Z"}});
  write_file_atomic(exp / "manifest.json", manifest.dump(1));
  fs::remove(exp / "cells" / (failed_id + ".json"));
  fs::remove(exp / "cells" / (lost_id + ".json"));
  fs::remove(exp / "results.json");
  st = dpclust_cmd("status " + out.string());
  EXPECT_EQ(st.code, 0) << st.output;
  EXPECT_TRUE(has(st.output, "8       6        0       1        1  incomplete")) << st.output;
  EXPECT_TRUE(
      has(st.output, "shard 2/4 failed on node07 (job 4242), started 2026-11-23T10:00:00Z: cell 3 (x), trial 1: boom"))
      << st.output;
  EXPECT_TRUE(has(st.output, "shard 4/4 interrupted on node09")) << st.output;
  EXPECT_EQ(dpclust_cmd("status " + out.string() + " --fail-if-incomplete").code, 1);
  const json j = json::parse(dpclust_cmd("status " + out.string() + " --json").output);
  EXPECT_EQ(j["experiments"][0]["failed"], 1);
  EXPECT_EQ(j["experiments"][0]["pending"], 1);
  EXPECT_EQ(j["experiments"][0]["problems"].size(), 2u);
  // With the scripts of `dpclust submit` there, status says how to resubmit exactly those tasks.
  dpclust::testing::write_file(out / "slurm" / "array.sbatch", "#!/bin/bash\n");
  st = dpclust_cmd("status " + out.string());
  EXPECT_TRUE(has(st.output, "--array=2,4 " + (out / "slurm" / "array.sbatch").string())) << st.output;
  // A rerun computes the two missing cells and clears both problems.
  ASSERT_EQ(dpclust_cmd("run " + cfg.string() + " --out " + out.string() + " --no-progress").code, 0);
  st = dpclust_cmd("status " + out.string() + " --fail-if-incomplete");
  EXPECT_EQ(st.code, 0) << st.output;
  EXPECT_FALSE(has(st.output, "interrupted")) << st.output;
  EXPECT_EQ(dpclust_cmd("status " + (dir / "nothing").string()).code, 2);
}
