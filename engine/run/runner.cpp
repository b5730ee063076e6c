#include "run/runner.hpp"

#include "core/side_information.hpp"

#include "run/preflight.hpp"

#include <omp.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <iostream>
#include <memory>
#include <mutex>
#include <optional>
#include <set>

#include "catalog/catalog.hpp"
#include "core/error.hpp"
#include "core/files.hpp"
#include "core/rng.hpp"
#include "loading/cost_model.hpp"
#include "loading/dataset_loading.hpp"
#include "run/aggregate.hpp"
#include "run/cell_trials.hpp"
#include "run/progress.hpp"
#include "run/release_flags.hpp"
#include "run/run_session.hpp"
#include "run/single_trial.hpp"
#include "store/results_store.hpp"

namespace dpclust {
namespace fs = std::filesystem;
using json = nlohmann::json;

ScopedThreads::ScopedThreads(int requested, int config_cap) : before_(omp_get_max_threads()) {
  threads_ = requested > 0 ? requested : before_;
  if (config_cap > 0) threads_ = std::min(threads_, config_cap);
  omp_set_num_threads(threads_);
}

ScopedThreads::~ScopedThreads() { omp_set_num_threads(before_); }

BudgetLedger trial_ledger(const MethodInfo& info, const ParamSet& params, double noise_scale) {
  if (!info.differentially_private) return BudgetLedger();
  if (info.trivial_baseline) return BudgetLedger::data_independent(info.relation);  // 0-DP: no epsilon to configure
  double delta = params.has("delta") ? params.real("delta") : 0.0;
  // A delta the method leaves unused (its side information says so: dp_dbscan's pure eps-DP noise with a delta set for
  // the dataset) is no part of its guarantee: the ledger expects none.
  if (delta > 0)
    for (const SideInputRecord& r : side_information(info, params, DatasetSideInputs{}))
      if (r.input == "delta" && r.source == InputSource::none) delta = 0.0;
  BudgetLedger ledger = info.local_privacy
                            ? BudgetLedger(params.real("epsilon"), delta, info.relation, PrivacyMeasure::local)
                            : BudgetLedger(params.real("epsilon"), delta, info.relation);
  if (noise_scale != 1.0) ledger.set_noise_scale(noise_scale);
  return ledger;
}

Validation validate_experiment(const ExperimentConfig& cfg, bool load_data, const RunLimits& limits) {
  const std::vector<Cell> cells = expand_grid(cfg);
  std::vector<const Cell*> all;
  for (const auto& c : cells) all.push_back(&c);
  Preflight pf = preflight(cfg, all, load_data, limits);
  pf.problems.throw_if_any();
  return {pf.cost, pf.notes};
}

fs::path skipped_cell_path(const fs::path& experiment_dir, const std::string& id) {
  return experiment_dir / "skipped" / (id + ".json");
}

bool in_shard(const RunOptions& opts, const Cell& cell) {
  if (opts.cell_shard.empty()) return cell.index % opts.shard_count == opts.shard - 1;
  return cell.index < opts.cell_shard.size() && opts.cell_shard[cell.index] == opts.shard;
}

void print_plan(const ExperimentConfig& cfg, const std::vector<Cell>& cells, const RunOptions& opts,
                std::ostream& out) {
  std::size_t mine = 0;
  out << "experiment " << cfg.name << ": " << cells.size() << " cells x " << cfg.trials << " trials, "
      << (cfg.randomness == Randomness::secure ? std::string("randomness secure (OS CSPRNG, not reproducible)")
                                               : "base seed " + std::to_string(cfg.seed))
      << "\n";
  for (const auto& c : cells) {
    const bool mine_too = in_shard(opts, c);
    mine += mine_too;
    char head[64];
    std::snprintf(head, sizeof head, "%s %5zu  %s  ", mine_too ? " " : "-", c.index, c.id.c_str());
    out << head << c.dataset << "  " << c.method_label << "  " << c.params.canonical() << "\n";
  }
  out << "this shard (" << opts.shard << "/" << opts.shard_count
      << (opts.shard_count > 1 ? std::string(", by ") + opts.shard_by : "") << "): " << mine << " cells, "
      << mine * static_cast<std::size_t>(cfg.trials) << " trials\n";
  out << describe_cost(estimate_run_cost(cfg, cells, opts.threads)) << " (whole grid)\n";
}

namespace {

// The identity of a file at one moment (absent, or device, inode, size, modification time). A pending
// cell whose file changed identity since this run looked was written by a concurrent run of the same
// config: reusable even under --force, which only means "do not reuse what was there when I started".
struct FileStamp {
  bool exists = false;
  dev_t dev = 0;
  ino_t ino = 0;
  off_t size = 0;
  long long mtime_ns = 0;
  bool operator==(const FileStamp& o) const {
    return exists == o.exists && dev == o.dev && ino == o.ino && size == o.size && mtime_ns == o.mtime_ns;
  }
};

FileStamp stamp_of(const fs::path& file) {
  struct stat st {};
  if (::stat(file.c_str(), &st) != 0) return {};
  return {true, st.st_dev, st.st_ino, st.st_size,
          static_cast<long long>(st.st_mtim.tv_sec) * 1'000'000'000LL + st.st_mtim.tv_nsec};
}

std::size_t count_valid_cells(const fs::path& exp_dir, const json& manifest) {
  std::size_t n = 0;
  for (const auto& e : manifest["grid"])
    n += check_cell(exp_dir, e["id"], e["fingerprint"]).state == CellCheck::State::valid;
  return n;
}

// The cells of this shard that still need computing, with what a concurrent run's writing would change.
// A damaged cell file (not JSON, wrong shape, checksum mismatch) is named and recomputed, never reused.
struct Pending {
  std::vector<const Cell*> cells;
  std::vector<std::string> fingerprints;
  std::vector<FileStamp> stamps;
};

Pending find_pending(const std::vector<Cell>& cells, const json& planned, const RunOptions& opts,
                     const fs::path& exp_dir, RunReport& report) {
  Pending p;
  for (std::size_t i = 0; i < cells.size(); ++i) {
    const Cell& c = cells[i];
    if (!in_shard(opts, c)) continue;
    ++report.cells_in_shard;
    const std::string fingerprint = planned["grid"][i]["fingerprint"];
    if (opts.resume) {
      const CellCheck check = check_cell(exp_dir, c.id, fingerprint);
      if (check.state == CellCheck::State::valid) {
        ++report.cells_reused;
        continue;
      }
      if (check.state == CellCheck::State::damaged)
        std::cerr << "warning: " << check.file.string() << ": " << check.reason << "; recomputing this cell\n";
    }
    p.cells.push_back(&c);
    p.fingerprints.push_back(fingerprint);
    p.stamps.push_back(stamp_of(cell_path(exp_dir, c.id)));
  }
  return p;
}

}  // namespace

namespace {

// What a run with nothing to compute reports, when the directory already holds this run's cells: the directory
// is left untouched, so that a complete results directory can be read-only (an archive, a shared copy) and a
// rerun is a no-op. nullopt when the run has to record something.
std::optional<RunReport> report_if_up_to_date(const fs::path& exp_dir, const json& planned, std::size_t cells,
                                              RunReport report, std::chrono::steady_clock::time_point wall0) {
  auto on_disk = read_manifest(exp_dir);
  if (!on_disk || !same_work(*on_disk, planned)) return std::nullopt;
  const bool current = results_current(exp_dir);
  if (!current && assemble_results_json(exp_dir)) return std::nullopt;
  report.up_to_date = true;
  report.complete = current;
  if (current) report.results_file = exp_dir / "results.json";
  report.cells_present = current ? cells : count_valid_cells(exp_dir, *on_disk);
  report.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  return report;
}

// The pending cells split by the checks before the run: those that run (with their fingerprints, file stamps
// and metrics) and those blocked (--keep-going records them).
struct RunnableCells {
  std::vector<const Cell*> cells;
  std::vector<std::string> fingerprints;
  std::vector<FileStamp> stamps;
  std::vector<std::vector<const MetricInfo*>> metrics;
  std::vector<std::pair<const Cell*, InputError>> blocked;
  std::vector<std::string> blocked_fingerprints;
};

RunnableCells split_blocked(const Pending& pending, const Preflight& pf) {
  RunnableCells r;
  for (std::size_t i = 0; i < pending.cells.size(); ++i) {
    const Cell* c = pending.cells[i];
    if (auto it = pf.blocked.find(c->index); it != pf.blocked.end()) {
      r.blocked.emplace_back(c, it->second);
      r.blocked_fingerprints.push_back(pending.fingerprints[i]);
      continue;
    }
    r.cells.push_back(c);
    r.fingerprints.push_back(pending.fingerprints[i]);
    r.stamps.push_back(pending.stamps[i]);
    r.metrics.push_back(pf.metrics[c->index]);
  }
  return r;
}

// Said on stderr, each reason once with the number of cells it blocks, so that a run that skips (or cannot
// start) a cell never does so silently.
void say_blocked(const ExperimentConfig& cfg, const RunnableCells& cells) {
  if (cells.blocked.empty()) return;
  std::vector<std::pair<std::string, std::size_t>> reasons;  // the message, cells; in order of first appearance
  for (const auto& [c, e] : cells.blocked) {
    const std::string text = std::string(e.what());
    auto it = std::find_if(reasons.begin(), reasons.end(), [&](const auto& r) { return r.first == text; });
    if (it == reasons.end()) reasons.emplace_back(text, 1);
    else ++it->second;
  }
  if (cells.cells.empty())
    std::cerr << cfg.name << ": no cell can run: all " << cells.blocked.size() << " pending cell"
              << (cells.blocked.size() == 1 ? " is" : "s are") << " skipped before the run:\n";
  for (const auto& [text, count] : reasons)
    std::cerr << cfg.name << ": skipped " << count << " cell" << (count == 1 ? "" : "s") << " before the run: " << text
              << "\n";
}

// What the watchdog says of a long trial: the cell, and the cost model's estimate of one trial.
std::vector<std::string> task_names_of(const ExperimentConfig& cfg, const std::vector<const Cell*>& cells,
                                       const std::vector<std::optional<Dataset>>& data) {
  std::vector<std::string> names(cells.size());
  for (std::size_t ci = 0; ci < cells.size(); ++ci) {
    const Cell& c = *cells[ci];
    std::string name = "cell " + std::to_string(c.index) + " (" + c.method_label + " on " + c.dataset;
    if (const auto t = estimate_trial_cost(cfg, c, shape_of(*data[c.dataset_index]))) {
      const double secs = t->work / 1e9 + t->noise_draws * kSecondsPerNoiseDraw;
      if (secs >= 1) name += ", estimated " + std::to_string(static_cast<long long>(secs)) + " s a trial";
    }
    names[ci] = name + ")";
  }
  return names;
}

// The trials of the runnable cells, in parallel: claims, trials, cell files, skips and the first error.
class TrialRuns {
 public:
  TrialRuns(const ExperimentConfig& cfg, const RunOptions& opts, const fs::path& exp_dir, const RunnableCells& cells,
            const std::vector<std::optional<Dataset>>& data, int threads)
      : cfg_(cfg),
        opts_(opts),
        exp_dir_(exp_dir),
        cells_(cells),
        data_(data),
        threads_(threads),
        trials_(static_cast<std::size_t>(cfg.trials)),
        outcomes_(cells.cells.size(), std::vector<TrialOutcome>(trials_)),
        remaining_(cells.cells.size()),
        skipped_(new std::atomic<bool>[cells.cells.size()]),
        dataset_caches_(new DatasetCache[cfg.datasets.size()]),
        decision_(cells.cells.size(), Decision::deferred),
        claims_(cells.cells.size()),
        claimed_(new std::once_flag[cells.cells.size()]),
        progress_(cfg.name, cells.cells.size() * trials_, opts.progress),
        task_names_(task_names_of(cfg, cells.cells, data)) {
    for (auto& r : remaining_) r.store(trials_);
    for (std::size_t i = 0; i < cells.cells.size(); ++i) skipped_[i].store(false);
  }

  // A skipped cell: its reason and fix where the report and `status` find them (never data values: the
  // engine's messages name parameters, files and lines).
  void record_skip(const Cell& c, const std::string& fingerprint, const std::string& phase, const std::string& reason,
                   const std::string& fix) {
    const json rec{{"index", c.index},
                   {"id", c.id},
                   {"key", c.key},
                   {"dataset", c.dataset},
                   {"method", c.method},
                   {"series", c.method_label},
                   {"params", c.params.to_json()},
                   {"fingerprint", fingerprint},
                   {"phase", phase},
                   {"reason", reason},
                   {"fix", fix},
                   {"when", utc_now_iso8601()}};
    std::lock_guard<std::mutex> lock(skip_mu_);
    write_file_atomic(skipped_cell_path(exp_dir_, c.id), rec.dump(2) + "\n");
    ++skipped_count_;
  }

  // Pass 1: every pending cell this run can claim without waiting, trials in parallel. Pass 2: the cells another
  // run was computing. Wait for each claim (one at a time, so two runs never wait for each other); the cell is
  // then usually on disk, else (that run died) computed here.
  void run() {
    const std::size_t n_tasks = cells_.cells.size() * trials_;
#pragma omp parallel for schedule(dynamic, 1)
    for (std::size_t task = 0; task < n_tasks; ++task) {
      if (failed_.load()) continue;
      const std::size_t ci = task / trials_, t = task % trials_;
      try {
        std::call_once(claimed_[ci], [&] { decision_[ci] = claim(ci, /*wait=*/false); });
      } catch (...) {
        record_error(*cells_.cells[ci], t);
        continue;
      }
      if (decision_[ci] == Decision::compute) run_task(ci, t);
      else if (decision_[ci] == Decision::done_elsewhere) progress_.tick();
    }
    for (std::size_t ci = 0; ci < cells_.cells.size() && !failed_.load(); ++ci) {
      if (decision_[ci] != Decision::deferred) continue;
      try {
        decision_[ci] = claim(ci, /*wait=*/true);
      } catch (...) {
        record_error(*cells_.cells[ci], 0);
        break;
      }
      if (decision_[ci] == Decision::done_elsewhere) {
        for (std::size_t t = 0; t < trials_; ++t) progress_.tick();
        continue;
      }
#pragma omp parallel for schedule(dynamic, 1)
      for (std::size_t t = 0; t < trials_; ++t)
        if (!failed_.load()) run_task(ci, t);
    }
    progress_.finish();
    claims_.clear();  // a failed cell's claim too: another run may compute it
  }

  bool failed() const { return failed_.load(); }
  std::size_t computed() const { return cells_computed_.load(); }
  std::size_t skipped() const { return skipped_count_.load(); }
  std::size_t from_concurrent_runs() const {
    return static_cast<std::size_t>(std::count(decision_.begin(), decision_.end(), Decision::done_elsewhere));
  }
  const std::exception_ptr& first_error() const { return first_error_; }
  const std::string& error_context() const { return error_context_; }

  // Which cell failed and why, for `dpclust status`. The message is the engine's own (a parameter check, a file
  // error): it names parameters and files, never data values.
  json failed_cell() const {
    std::string what;
    try {
      std::rethrow_exception(first_error_);
    } catch (const std::exception& e) {
      what = e.what();
    } catch (...) {
      what = "unknown error";
    }
    return {{"index", error_cell_ ? error_cell_->index : 0},
            {"id", error_cell_ ? error_cell_->id : ""},
            {"where", error_context_},
            {"error", what.substr(0, 500)}};
  }

 private:
  // Claiming a cell: its claim file flock'ed by this run. A concurrent run of the same config may hold
  // it (it is computing the cell: come back to it later) or may have written the cell since this run
  // looked (reuse it). The claim is held until the cell file is renamed into place.
  enum class Decision : unsigned char { compute, done_elsewhere, deferred };

  Decision claim(std::size_t ci, bool wait) {
    const Cell& c = *cells_.cells[ci];
    FileLock lock = FileLock::acquire(ExperimentLocks::claim_file(exp_dir_, c.id), /*exclusive=*/true, wait);
    if (!lock.held()) return Decision::deferred;
    if (!(stamp_of(cell_path(exp_dir_, c.id)) == cells_.stamps[ci]) &&
        check_cell(exp_dir_, c.id, cells_.fingerprints[ci]).state == CellCheck::State::valid)
      return Decision::done_elsewhere;
    claims_[ci] = std::move(lock);
    return Decision::compute;
  }

  void record_error(const Cell& cell, std::size_t t) {  // call inside a catch block
    std::lock_guard<std::mutex> lock(error_mu_);
    if (!first_error_) {
      first_error_ = std::current_exception();
      error_context_ = "cell " + std::to_string(cell.index) + " (" + cell.key + "), trial " + std::to_string(t);
      error_cell_ = &cell;
    }
    failed_.store(true);
  }

  // The last trial of a cell: its file written now, the claim released after the rename (so a run waiting for
  // it finds the cell), the notes said once.
  void write_cell_of(std::size_t ci) {
    const Cell& cell = *cells_.cells[ci];
    const json cell_json =
        build_cell_json(threads_, cfg_, cell, *data_[cell.dataset_index], cells_.metrics[ci], outcomes_[ci]);
    if (const auto it = cell_json.find("notes"); it != cell_json.end()) {
      std::lock_guard<std::mutex> lock(skip_mu_);
      for (const auto& note : *it)
        if (said_notes_.insert(note.get<std::string>()).second)
          std::cerr << cfg_.name << ": note: " << note.get<std::string>() << "\n";
    }
    write_cell(exp_dir_, cell_json);
    claims_[ci].release();
    std::error_code ec;
    fs::remove(skipped_cell_path(exp_dir_, cell.id), ec);  // skipped by an earlier --keep-going run, done now
    outcomes_[ci].clear();
    outcomes_[ci].shrink_to_fit();
    ++cells_computed_;
  }

  // --keep-going: a trial that failed skips its cell, said once on stderr and recorded.
  void skip_cell(std::size_t ci, std::size_t t, const std::exception& e) {
    const Cell& cell = *cells_.cells[ci];
    const auto* ie = dynamic_cast<const InputError*>(&e);
    const bool oom = dynamic_cast<const std::bad_alloc*>(&e) != nullptr;
    std::string reason = oom  ? "ran out of memory"
                         : ie ? (ie->where().empty() ? ie->problem() : ie->where() + ": " + ie->problem())
                              : e.what();
    std::string fix =
        ie    ? ie->fix()
        : oom ? "lower --threads or the sizes of this cell (max_rows:, eta, grid sizes), or raise --max-memory"
              : "";
    {
      std::lock_guard<std::mutex> lock(skip_mu_);
      std::cerr << cfg_.name << ": skipped cell " << cell.index << " (" << cell.method_label << " on " << cell.dataset
                << ", trial " << t << "): " << reason.substr(0, 1000) << (fix.empty() ? "" : "\n  fix: " + fix) << "\n";
    }
    try {
      record_skip(cell, cells_.fingerprints[ci], "trial " + std::to_string(t), reason.substr(0, 1000), fix);
    } catch (...) {
      record_error(cell, t);
    }
    claims_[ci].release();
  }

  void run_task(std::size_t ci, std::size_t t) {
    const Cell& cell = *cells_.cells[ci];
    if (skipped_[ci].load()) {  // --keep-going: another trial of this cell failed
      progress_.tick();
      return;
    }
    progress_.started(task_names_[ci] + ", trial " + std::to_string(t));
    try {
      outcomes_[ci][t] =
          run_trial(cfg_, cell, *data_[cell.dataset_index], cells_.metrics[ci], static_cast<std::int64_t>(t),
                    opts_.noise_scale, &dataset_caches_[cell.dataset_index]);
      if (remaining_[ci].fetch_sub(1) == 1) write_cell_of(ci);
    } catch (const std::logic_error&) {
      record_error(cell, t);  // a bug, never a property of the input: it stops the run, --keep-going or not
    } catch (const std::exception& e) {
      if (!opts_.keep_going) record_error(cell, t);
      else if (!skipped_[ci].exchange(true)) skip_cell(ci, t, e);
    } catch (...) {
      record_error(cell, t);
    }
    progress_.tick();
  }

  const ExperimentConfig& cfg_;
  const RunOptions& opts_;
  const fs::path& exp_dir_;
  const RunnableCells& cells_;
  const std::vector<std::optional<Dataset>>& data_;
  const int threads_;
  const std::size_t trials_;
  std::vector<std::vector<TrialOutcome>> outcomes_;
  std::vector<std::atomic<std::size_t>> remaining_;
  std::unique_ptr<std::atomic<bool>[]> skipped_;
  // What the metrics reuse across the trials and cells on each dataset (core/metric.hpp DatasetCache).
  std::unique_ptr<DatasetCache[]> dataset_caches_;
  std::vector<Decision> decision_;
  std::vector<FileLock> claims_;
  std::unique_ptr<std::once_flag[]> claimed_;
  Progress progress_;
  const std::vector<std::string> task_names_;
  std::mutex skip_mu_;
  std::set<std::string> said_notes_;  // MethodResult::notes already said on stderr (under skip_mu_)
  std::atomic<std::size_t> skipped_count_{0};
  std::atomic<bool> failed_{false};
  std::atomic<std::size_t> cells_computed_{0};
  std::mutex error_mu_;
  std::exception_ptr first_error_;
  std::string error_context_;
  const Cell* error_cell_ = nullptr;
};

// The first error of the run, as the caller sees it: an input problem with where it happened, else the error.
[[noreturn]] void rethrow_run_error(const ExperimentConfig& cfg, const TrialRuns& runs) {
  try {
    std::rethrow_exception(runs.first_error());
  } catch (const InputError& e) {
    throw InputError(cfg.file.string() + " " + runs.error_context(), e.what(), "");
  } catch (const std::invalid_argument& e) {
    throw InputError(cfg.file.string() + " " + runs.error_context(), e.what(), "check this cell's parameters");
  } catch (const std::exception& e) {
    throw std::runtime_error(runs.error_context() + ": " + e.what());
  }
}

}  // namespace

RunReport run_experiment(const ExperimentConfig& cfg, const RunOptions& opts) {
  const auto wall0 = std::chrono::steady_clock::now();
  const std::string started = utc_now_iso8601();
  RunReport report;
  std::vector<Cell> cells = expand_grid(cfg);
  for (const auto& d : cfg.datasets) check_dataset_available(d);
  report.cells_total = cells.size();
  report.experiment_dir = opts.out_dir / cfg.name;
  const fs::path& exp_dir = report.experiment_dir;
  const json planned = build_manifest(cfg, cells);  // what manifest.json must say for this run's cells to be shared

  const Pending pending = find_pending(cells, planned, opts, exp_dir, report);
  if (pending.cells.empty())
    if (auto done = report_if_up_to_date(exp_dir, planned, cells.size(), report, wall0)) return *done;

  // Load each needed dataset once, and check every cell -- its parameters against the loaded data, its
  // metrics' prerequisites, its memory -- before any trial runs (run/preflight.hpp): every problem at once.
  RunLimits limits;
  limits.threads = opts.threads;
  limits.max_memory = opts.max_memory;
  limits.max_trial_seconds = opts.max_trial_seconds;
  Preflight pf = preflight(cfg, pending.cells, /*load_data=*/true, limits);
  if (!opts.keep_going) pf.problems.throw_if_any();
  report.notes = pf.notes;
  // Said before the first trial, when it can still be acted on.
  for (const auto& note : pf.notes) std::cerr << cfg.name << ": note: " << note << "\n";
  const std::vector<std::optional<Dataset>> data = std::move(pf.data);
  // --keep-going: the blocked cells leave the pending list and are recorded once the session is open.
  const RunnableCells runnable = split_blocked(pending, pf);

  // Only now, with every input checked, does the run touch the output directory (run_session.hpp).
  RunSession session(cfg, opts, exp_dir, planned, runnable.cells.size(), started);
  // Threads: --threads, capped by the config's `threads:` (running times comparable to single-threaded code).
  const ScopedThreads scoped_threads(opts.threads, cfg.threads);
  const int threads = scoped_threads.threads();
  TrialRuns runs(cfg, opts, exp_dir, runnable, data, threads);
  for (std::size_t i = 0; i < runnable.blocked.size(); ++i) {
    const auto& [c, e] = runnable.blocked[i];
    runs.record_skip(*c, runnable.blocked_fingerprints[i], "before the run",
                     e.where().empty() ? e.problem() : e.where() + ": " + e.problem(), e.fix());
  }
  say_blocked(cfg, runnable);
  runs.run();

  const std::size_t from_concurrent = runs.from_concurrent_runs();
  report.cells_run = runs.computed();
  report.cells_skipped = runs.skipped();
  report.trials_run = report.cells_run * static_cast<std::size_t>(cfg.trials);
  report.cells_from_concurrent_runs = from_concurrent;
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  // Record this run in the manifest, whatever happened (cells already written stay valid), and assemble
  // results.json when the grid is complete: under `.lock`, re-reading the manifest, so that concurrent
  // runs of the same config each add their record and the last one out assembles with all of them.
  json record = session.record(runs.failed() ? "failed" : "succeeded");
  record.update(json{{"finished", utc_now_iso8601()},
                     {"wall_seconds", wall},
                     {"threads", threads},
                     {"cells_run", report.cells_run},
                     {"cells_reused", report.cells_reused},
                     {"cells_from_concurrent_runs", from_concurrent},
                     {"cells_skipped", report.cells_skipped},
                     {"succeeded", !runs.failed()}});
  if (runs.first_error()) record["failed_cell"] = runs.failed_cell();
  std::exception_ptr finish_error;
  const bool complete = session.close(record, /*assemble=*/!runs.first_error(), finish_error);
  if (runs.first_error()) rethrow_run_error(cfg, runs);
  report.complete = complete;
  if (finish_error) std::rethrow_exception(finish_error);
  report.cells_reused += from_concurrent;
  if (report.complete) report.results_file = exp_dir / "results.json";
  report.cells_present = report.complete ? cells.size() : count_valid_cells(exp_dir, planned);
  report.wall_seconds = wall;
  return report;
}

}  // namespace dpclust
