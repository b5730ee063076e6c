#pragma once
// Runs an experiment: every (cell, trial) task in parallel (OpenMP, dynamic schedule), each trial
// with its own generator seeded from (base seed, cell key, trial), so results are identical for any
// thread count, shard split or run order. A cell's JSON is written atomically as soon as its last
// trial finishes; rerunning resumes from the cells on disk (matched by fingerprint, verified by
// checksum). Runs of the same config into the same directory at the same time share the work (each
// cell is claimed by one of them); a run of another config under the same experiment name is refused.
//
// Output layout (OUT = --out), written by results_store.hpp:
//   OUT/<experiment>/manifest.json     config text and hash, the cell list, every run's provenance
//   OUT/<experiment>/cells/<id>.json   one per completed cell
//   OUT/<experiment>/results.json      all cells in grid order, written when the grid is complete
//   OUT/<experiment>/.lock, .active, .claims/   flock files coordinating concurrent runs
#include <cstdint>
#include <filesystem>
#include <iosfwd>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "config/grid.hpp"
#include "loading/cost_model.hpp"
#include "store/merge.hpp"          // merge_results, for the callers of this header
#include "store/results_store.hpp"  // assemble_results, strip_nondeterministic, ...

namespace dpclust {

struct RunOptions {
  std::filesystem::path out_dir = "results";
  int threads = 0;        // 0: OpenMP's default (all cores)
  bool resume = true;     // false (--force): recompute every cell of this shard
  std::size_t shard = 1;  // this machine runs the cells of shard `shard` of `shard_count`:
  std::size_t shard_count = 1;
  // cell_shard[i] is cell i's shard (1..shard_count) in the plan of this invocation (shard_plan.hpp,
  // by estimated cost); empty: by index, cell i in shard i % shard_count + 1.
  std::vector<std::uint32_t> cell_shard;
  std::string shard_by = "index";  // recorded with the run: "cost" or "index",
  std::string shard_plan;          // the plan's fingerprint (the same in every task of one array),
  std::string shard_source;        // and where the shard came from ("SLURM_ARRAY_TASK_ID=3 of 1..8")
  bool progress = true;
  // Testable noise: every private mechanism's calibrated noise scale is multiplied by this (1 = as
  // configured; 0 = none; 0.5 = deliberately under-noised, for the privacy audit's own tests). Any
  // other value than 1 flags every private result non-private. Not a CLI option.
  double noise_scale = 1.0;
  // --keep-going: a cell that cannot run -- refused before the run (its dataset does not load, a
  // parameter does not fit the data, its memory is over the limit) or failing during it -- is recorded in
  // OUT/<experiment>/skipped/<id>.json with its reason and fix, and every other cell runs. Without it, every
  // problem found before the run is reported at once and nothing runs.
  bool keep_going = false;
  std::uint64_t max_memory = 0;     // --max-memory (0: half the RAM), checked per cell on the loaded data
  double max_trial_seconds = 3600;  // --max-trial-seconds: a rejection sampler's estimated time in one trial
};

struct RunReport {
  std::size_t cells_total = 0, cells_in_shard = 0, cells_reused = 0, cells_run = 0, trials_run = 0;
  std::size_t cells_from_concurrent_runs = 0;  // of cells_reused: written by a concurrent run during this one
  std::size_t cells_present = 0;               // valid cells of the whole grid on disk at the end
  std::size_t cells_skipped = 0;               // --keep-going: cells recorded as skipped by this run
  std::vector<std::string> notes;              // estimates worth saying before the run (slow trials)
  bool complete = false;                       // results.json is there and current (every cell of the grid present)
  bool up_to_date = false;                     // nothing to compute or record: the run wrote nothing
  std::filesystem::path experiment_dir, results_file;
  double wall_seconds = 0;
};

RunReport run_experiment(const ExperimentConfig& cfg, const RunOptions& opts);
// Whether this run computes `cell` (the rule of RunOptions::cell_shard).
bool in_shard(const RunOptions& opts, const Cell& cell);

// The worker threads of one run: `requested` (--threads; 0 = OpenMP's default, all cores) capped by the
// config's `threads:` (0 = no cap). Sets OpenMP's thread count for the object's lifetime and restores the
// previous one, so the next experiment of the same invocation is not capped. Shared by run and audit.
class ScopedThreads {
 public:
  ScopedThreads(int requested, int config_cap);
  ~ScopedThreads();
  ScopedThreads(const ScopedThreads&) = delete;
  ScopedThreads& operator=(const ScopedThreads&) = delete;
  int threads() const { return threads_; }

 private:
  int before_ = 1, threads_ = 1;
};

// The budget ledger of one trial of a method: its configured epsilon (and delta), the method's
// neighbouring relation and measure (local for nd_laplace), the noise_scale seam (RunOptions); an empty
// ledger for a non-private method. The runner and the privacy audit build every trial's ledger here.
BudgetLedger trial_ledger(const MethodInfo& info, const ParamSet& params, double noise_scale);

// The expanded grid as printed by --dry-run.
void print_plan(const ExperimentConfig& cfg, const std::vector<Cell>& cells, const RunOptions& opts, std::ostream& out);

// Full validation without running, every problem at once (InputErrors): schema, grid, datasets available;
// with load_data (validate's default) also loads the data files and checks every cell against the loaded
// shape, its metrics' prerequisites and its memory (run/preflight.hpp). Returns the cost on the loaded
// shapes and the notes (slow trials).
struct Validation {
  RunCost cost;
  std::vector<std::string> notes;
};
Validation validate_experiment(const ExperimentConfig& cfg, bool load_data, const RunLimits& limits = {});

// Where --keep-going records a skipped cell.
std::filesystem::path skipped_cell_path(const std::filesystem::path& experiment_dir, const std::string& id);

}  // namespace dpclust
