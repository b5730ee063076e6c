#pragma once
// Which cells of a sweep each shard runs (`dpclust run --shard K/N`, `--shard auto`, `dpclust submit`).
//
// By index (the original rule, `--shard-by index`): cell i goes to shard i % N + 1. Cheap to explain,
// but the grid order puts a dataset's cells next to each other, so one shard can get every expensive
// cell (all the Cabs trials) while the others idle.
//
// By cost (the default): every cell gets an estimated running time -- the cost model's work for one
// trial (cost_model.hpp: points, dimensions, the method's parameters) turned into seconds by a
// per-method law fitted once on this project's own runs (the table in shard_plan.cpp says how), times
// the config's trials -- and cells are dealt to shards by the longest-processing-time rule: the
// most expensive cell first, each to the shard with the least estimated time so far. LPT's slowest shard
// is at most 4/3 of the optimum plus one cell, so the bound that matters is the largest single cell: a
// shard can never be faster than its most expensive cell, because a cell (all its trials) is the unit
// that is written atomically. `dpclust submit` therefore warns when the largest cell exceeds 1.5x the
// mean shard and says how many tasks would keep that bound.
//
// Determinism: the plan is a function of the configs (in the order given), their trial counts and the
// datasets' known shapes only -- never of timings, file dates, the host or the thread count -- so every
// task of an array computes the same plan independently, and the results do not depend on it at all
// (each cell's numbers depend on its seed alone). Ties are broken by the cell's position in the list.
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "config/grid.hpp"
#include "core/method.hpp"

namespace dpclust {

// How cells are dealt to shards. Declared once; to_string/parse below are the only spellings.
enum class ShardBy { cost, index };
const char* to_string(ShardBy by);
ShardBy parse_shard_by(const std::string& name, const std::string& where);  // InputError naming `where`

// The dataset shape the plan uses: known_shape (config and registry, no file read), completed for small
// datasets -- one file of at most 16 MiB, or a generator of at most 200,000 points -- by loading them,
// for the exact n and d, and (up to 200,000 points) the data-derived bounds some costs depend on
// (nD-Laplace's resampling). The
// same files give the same shape, so every task still computes the same plan.
DataShape planning_shape(const DatasetSpec& spec);
// The key of a cell's speed law: its method, and for nd_laplace its clustering algorithm.
std::string speed_key(const Cell& cell);
// Estimated seconds of every cell of one config (all its trials, metrics included), in grid order; -1
// for a cell whose dataset size is still unknown (a large file without a declared row count), which
// plan_shards fills from the other cells of the same method.
// `cache` (optional) keeps planning shapes by dataset definition across configs.
using ShapeCache = std::map<std::string, DataShape>;
std::vector<double> estimate_cell_seconds(const ExperimentConfig& cfg, const std::vector<Cell>& cells,
                                          ShapeCache* cache = nullptr);
// Estimated seconds of one trial of `method` whose cost-model work is `work` (the fitted table in
// shard_plan.cpp).
double estimate_trial_seconds(const std::string& speed_key, double work);

// Shard numbers 1..count for each cost, by the LPT rule above (ties: lower position first, then the
// lower shard number). Deterministic; count >= 1.
std::vector<std::uint32_t> assign_by_cost(const std::vector<double>& costs, std::size_t count);
// Shard numbers by position: i % count + 1.
std::vector<std::uint32_t> assign_by_index(std::size_t cells, std::size_t count);

// The plan of one invocation: all configs' cells in one list (config order, then grid order), dealt
// together, so a config with a few expensive cells and one with many cheap ones share the shards.
struct ShardPlan {
  ShardBy by = ShardBy::cost;
  std::size_t count = 1;
  std::vector<std::vector<std::uint32_t>> shard_of;  // [config][cell index] -> shard 1..count
  std::vector<std::vector<double>> seconds;          // [config][cell index] -> estimated seconds
  std::string fingerprint;                           // 16 hex digits over the assignment, recorded with each run
};
// Measured seconds of cells from an earlier run: experiment name -> cell id -> seconds (all trials).
// `dpclust submit --timings DIR` snapshots them into OUT/slurm/costs.json and every task reads that file
// (`run --shard-costs`), so the plan stays the same in every task while following real running times.
using ShardCosts = std::map<std::string, std::map<std::string, double>>;
ShardPlan plan_shards(const std::vector<ExperimentConfig>& cfgs, std::size_t count, ShardBy by,
                      const ShardCosts* measured = nullptr);
// Reads/writes the snapshot (schema dpclust.shard_costs/1); InputError naming the file and key.
ShardCosts read_shard_costs(const std::filesystem::path& file);
std::string shard_costs_json(const ShardCosts& costs);
// The seconds each cell of `cfgs` took in an earlier results directory (sum of its trials' method and
// metrics times), for the cells that directory holds as valid JSON.
ShardCosts measure_shard_costs(const std::filesystem::path& results_dir, const std::vector<ExperimentConfig>& cfgs);

// Balance of an assignment under given per-cell times: the slowest shard's total over the mean.
struct ShardBalance {
  double slowest = 0, mean = 0, largest_cell = 0;
  double ratio() const { return mean > 0 ? slowest / mean : 1.0; }
};
ShardBalance shard_balance(const std::vector<double>& seconds, const std::vector<std::uint32_t>& shard_of,
                           std::size_t count);

// The largest task count <= max_tasks (and <= the number of cells) at which the estimated slowest shard
// of a by-cost plan stays within `bound` x the mean; 1 when even 2 shards would not.
std::size_t suggest_task_count(const std::vector<double>& seconds, std::size_t max_tasks, double bound);

}  // namespace dpclust
