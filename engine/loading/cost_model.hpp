#pragma once
// What an experiment will cost, estimated from the config alone before any work: the number of grid
// cells (counted from the lengths of the value lists, before expanding), each trial's peak memory and
// work from a per-method model of its largest structures, and the whole run's peak memory (the loaded
// datasets plus one trial per worker thread) and total work (cells x trials x per-trial work).
// `dpclust run` and `dpclust validate` refuse a config over the limits (exit 2) with the estimate, the
// limit and the option that raises it (--max-cells, --max-memory, --max-work).
//
// The per-trial model: each method's own (MethodInfo::cost, core/trial_cost.hpp; written in the method's folder,
// cost.cpp, beside the algorithm it models), plus the k-means measures when a config names them
// (metrics/kmeans_measures_cost.hpp); every dataset n (d + 1) x 8 bytes, counted once per dataset (trials share it),
// twice for the loading buffers.
// Sizes that are not known without reading a file (a file dataset without a declared row count) are
// known once it is loaded: `validate` (which loads the data unless --no-load-data) and `run` estimate every
// cell again on the loaded shapes (estimate_run_cost with shapes) and refuse, before any cell runs, a trial
// over the memory limit with the parameter and the value that bring it under (cell_cost_problem).
// The loaded number of points is private to a central add/remove private method (core/method.hpp
// n_is_private). A trial that does not fit in memory cannot run whatever it would release, so the refusal
// may use it (it stands in for the allocation failure the run would meet); but for such a cell no message
// shows a number computed from it (n, the estimate, the rows that would fit, an eta that would fit), and no
// slow-trial note is given: docs/privacy.md, "Checks before a run".
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "config/grid.hpp"
#include "core/error.hpp"
#include "core/method.hpp"
#include "io/byte_size.hpp"  // sizes as --max-memory takes them and messages show them

namespace dpclust {

struct RunLimits {
  std::uint64_t max_cells = kDefaultMaxCells;  // --max-cells: cells of the expanded grid
  std::uint64_t max_memory = 0;                // --max-memory: bytes of estimated peak memory; 0 = default_max_memory()
  double max_work = 1e15;                      // --max-work: estimated basic operations of the whole run
  int threads = 0;                             // --threads: trials run in parallel (0 = OpenMP's default)
  double max_trial_seconds = 3600;             // --max-trial-seconds: a rejection sampler's estimated time in one trial
};

// Half of the physical memory (sysconf(_SC_PHYS_PAGES) x page size); 4 GiB when it cannot be read.
std::uint64_t default_max_memory();
// A positive count: digits, or a number in scientific notation with an integral value ("1e6").
double parse_count(const std::string& text, const std::string& option);

// The process itself (binary, libraries, OpenMP's threads): about 18.5 MiB measured (bench/dpdbscan_memory.py).
inline constexpr double kProcessMemory = 24.0 * 1024 * 1024;

// The model above for one cell, on a dataset of this shape, metrics included; nullopt when n or d is unknown.
std::optional<TrialCost> estimate_trial_cost(const ExperimentConfig& cfg, const Cell& cell, const DataShape& shape);

struct RunCost {
  std::uint64_t cells = 0;
  double data_memory = 0;            // the datasets, loaded once each
  double trial_memory = 0;           // the largest trial
  double peak_memory = 0;            // data_memory + parallel trials x trial_memory
  double work = 0;                   // every cell x trials
  int parallel = 1;                  // trials in flight at once
  std::string largest_trial;         // "method 'x' on dataset 'y'" of the largest trial
  std::string largest_where;         // its method entry in the config
  std::vector<std::string> unknown;  // datasets whose size is not known without reading them
  // A cell of a private method was estimated on the loaded number of points of its dataset, which is private to
  // it (n_is_private): describe_cost then shows no number computed from the sizes.
  bool private_sizes = false;
};
// The estimate for the expanded cells: shapes from known_shape, or the given ones (loaded data; one per
// dataset of the config).
RunCost estimate_run_cost(const ExperimentConfig& cfg, const std::vector<Cell>& cells, int threads,
                          const std::vector<DataShape>* shapes = nullptr);

// One cell's trial against the limits: nullopt when it fits; otherwise the problem, naming the parameter
// and the value that bring it under (the method's own changes, CostAdvice::memory_fixes: DP-DBSCAN's histogram,
// storage and eta; max_rows for any method), or --max-memory. max_memory is the limit for the whole run: `parallel`
// trials at once plus the data. First the method's own limits (CostHooks::limits: nD-Laplace's rejection samplers'
// estimated time against max_trial_seconds, resampling against max_retries).
std::optional<InputError> cell_cost_problem(const ExperimentConfig& cfg, const Cell& cell, const DataShape& shape,
                                            double max_memory, int parallel, double data_memory,
                                            double max_trial_seconds = 3600);
// A note for a cell whose one trial is estimated to take long (over `seconds`), with what shortens it;
// empty otherwise. Not a problem: the run goes ahead.
std::string slow_trial_note(const ExperimentConfig& cfg, const Cell& cell, const DataShape& shape, double seconds);

// Before any work: refuses (InputError, exit 2) a grid of more than limits.max_cells cells (counted before
// expanding), a parameter that cannot fit the dataset's known shape (MethodInfo::check_shape: k > n,
// g of the wrong length, ...), and an estimated peak memory or total work over the limits. Reads no
// data file. Returns the estimate.
// Every per-cell problem is reported at once (InputErrors). cells_may_be_skipped (run --keep-going): cells
// with a problem are left to the run to skip and record, and only the others' work is checked.
RunCost check_run_cost(const ExperimentConfig& cfg, const RunLimits& limits, bool cells_may_be_skipped = false);

// One line for --dry-run and validate: "estimated peak memory 1.2 GiB (...), work 3.4e+09 operations".
std::string describe_cost(const RunCost& cost);

}  // namespace dpclust
