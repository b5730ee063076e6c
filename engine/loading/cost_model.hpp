#pragma once
// What an experiment will cost, estimated from the config alone before any work: the number of grid
// cells (counted from the lengths of the value lists, before expanding), each trial's peak memory and
// work from a per-method model of its largest structures, and the whole run's peak memory (the loaded
// datasets plus one trial per worker thread) and total work (cells x trials x per-trial work).
// `dpclust run` and `dpclust validate` refuse a config over the limits (exit 2) with the estimate, the
// limit and the option that raises it (--max-cells, --max-memory, --max-work).
//
// The per-trial model (bytes; n points, d dimensions, 8-byte doubles):
//   every method     the dataset: n (d + 1) x 8, counted once per dataset (trials share it), twice for
//                    the loading buffers
//   dbscan           grid index and labels, ~48 n;                     work ~32 n d
//   kmeans           labels, distances, k-means++ trials, ~8 n (4 + ln k) + 24 k d;
//                                                                      work n_init x max_iter x n k d
//   dp_kmeans        as kmeans with T = iterations (7 when automatic); work T n k d
//   affinity_prop.   similarities, responsibilities, availabilities: 3 n^2 x 8; work max_iter x 4 n^2
//   WaveCluster (5)  G = prod_j g_j cells: 4 G x 8 (counts, transform, flags, components) + 16 n;
//                    work (4 (level + 1) G + n d), times (1 + cv_folds) when OCM/2CE are computed
//   dp_dbscan        dense storage (naive histogram, or a small grid): 24 |X| bytes over the |X| cells of
//                    the grid, work kappa |X| (+ 50 |X| for the naive noise); sparse (linear-time histogram):
//                    R ~ 2n released cells, ~56 n + R (8 d + 96) bytes plus one group of the bounded
//                    neighbourhood sums (<= 2^21 pairs), work 10 R kappa (every released cell reaches its
//                    kappa neighbours: 1.3 million each in 8-D at eta = 4); 12 d kappa bytes of offsets
//   dp_dbscan_pair.  n^2 / 8 bytes (adjacency bits) + 48 n;             work 2 n^2 d
//   nd_laplace       two copies of the points + its clustering (as above); work 20 n d + twice the
//                    clustering (perturbed and original data) + min(n^2, pe_max_pairs) d
//   drbt             the original and projected matrices, n (d + 1 + k_dims) x 8 + K-means; work
//                    n d k_dims + twice K-means + min(n^2 / 2, stress_pairs) d
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

#include "core/error.hpp"
#include "core/method.hpp"
#include "io/byte_size.hpp"  // sizes as --max-memory takes them and messages show them
#include "config/config.hpp"
#include "config/grid.hpp"

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

struct TrialCost {
  double memory = 0;  // bytes of the method's structures (the dataset itself not included)
  double work = 0;    // basic operations of one trial, metrics included
  double noise_draws = 0;  // d-dimensional noise samples of a rejection sampler, in units of kSecondsPerNoiseDraw
};
// The model above for one cell, on a dataset of this shape; nullopt when n or d is unknown.
std::optional<TrialCost> estimate_trial_cost(const ExperimentConfig& cfg, const Cell& cell, const DataShape& shape);

struct RunCost {
  std::uint64_t cells = 0;
  double data_memory = 0;      // the datasets, loaded once each
  double trial_memory = 0;     // the largest trial
  double peak_memory = 0;      // data_memory + parallel trials x trial_memory
  double work = 0;             // every cell x trials
  int parallel = 1;            // trials in flight at once
  std::string largest_trial;   // "method 'x' on dataset 'y'" of the largest trial
  std::string largest_where;   // its method entry in the config
  std::vector<std::string> unknown;  // datasets whose size is not known without reading them
  // A cell of a private method was estimated on the loaded number of points of its dataset, which is private to
  // it (n_is_private): describe_cost then shows no number computed from the sizes.
  bool private_sizes = false;
};
// DP-DBSCAN's sizes (the model above) for n points in d dimensions (bounds empty when unknown).
struct DpDbscanCost {
  double memory = 0, work = 0;
  double universe = -1;  // |X|, -1 when the bounds are not known
  double kappa = 0, released = 0, pairs = 0;
  bool dense = false, naive = false;
};
DpDbscanCost dp_dbscan_cost(const ParamSet& params, double n, std::size_t d, const Bounds& bounds);
// nD-Laplace's truncation by resampling: roughly prod_j (1 + d / rate / L_j) draws per point before the noise
// lands in a box of sides L_j (ndlaplace::expected_resample_draws; 0 when the cell does not resample at this
// shape, truncation: auto included, or the bounds are unknown).
double resample_draws_per_point(const ParamSet& params, const DataShape& shape);
// The rate per unit distance nD-Laplace draws its noise at: epsilon / radius, halved when the normaliser
// depends on x (truncation resample, or the secure grid sampler) unless resampling_budget: thesis.
double nd_laplace_draw_rate(const ParamSet& params, const DataShape& shape);
// Seconds one trial of nd_laplace spends drawing its reports (measured: kSecondsPerNoiseDraw per textbook
// d-dimensional draw, kSecondsPerCoordinateProposal per coordinate of a secure grid proposal), including
// the resampling draws and the secure sampler's expected proposals; 0 when n or d is unknown.
inline constexpr double kSecondsPerNoiseDraw = 9.5e-7;
inline constexpr double kSecondsPerCoordinateProposal = 2.5e-7;
double nd_laplace_sampler_seconds(const ParamSet& params, const DataShape& shape);

// The estimate for the expanded cells: shapes from known_shape, or the given ones (loaded data; one per
// dataset of the config).
RunCost estimate_run_cost(const ExperimentConfig& cfg, const std::vector<Cell>& cells, int threads,
                          const std::vector<DataShape>* shapes = nullptr);

// One cell's trial against the limits: nullopt when it fits; otherwise the problem, naming the parameter
// and the value that bring it under (DP-DBSCAN: histogram, storage, eta, columns; max_rows for the
// quadratic methods), or --max-memory. max_memory is the limit for the whole run: `parallel` trials
// at once plus the data.
// nd_laplace: its rejection samplers' estimated time against max_trial_seconds (and resampling against
// max_retries), with fixes at this shape: fewer columns (the most that fit), sampler: textbook, max_rows.
std::optional<InputError> cell_cost_problem(const ExperimentConfig& cfg, const Cell& cell, const DataShape& shape, double max_memory,
                                            int parallel, double data_memory, double max_trial_seconds = 3600);
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
