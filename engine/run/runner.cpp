#include "run/runner.hpp"

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
#include <set>

#include "core/error.hpp"
#include "core/files.hpp"
#include "core/rng.hpp"
#include "run/aggregate.hpp"
#include "catalog/catalog.hpp"
#include "scaleout/cost_model.hpp"
#include "config/dataset_factory.hpp"
#include "run/progress.hpp"
#include "run/release_flags.hpp"
#include "store/results_store.hpp"
#include "run/single_trial.hpp"

namespace dpclust {
namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

// The metrics a cell computes: the configured ones (or all) that apply to its method, checked against
// the dataset (labels needed?).
std::vector<const MetricInfo*> resolve_metrics(const ExperimentConfig& cfg, const Cell& cell, const Dataset& data) {
  const DatasetSpec& spec = cfg.datasets[cell.dataset_index];
  std::vector<const MetricInfo*> out;
  if (cfg.metrics.empty()) {
    for (const auto& m : all_metrics())
      if (m.applies_to(cell.method) && (!m.needs_truth || data.has_labels())) out.push_back(&m);
    return out;
  }
  for (const auto& name : cfg.metrics) {
    const MetricInfo* m = find_metric(name);
    if (!m->applies_to(cell.method)) continue;
    if (m->needs_truth && !data.has_labels())
      throw InputError(spec.where, "metric '" + name + "' needs ground-truth labels, but dataset '" + spec.name + "' has none",
                       "name the label column (label: <column>) or drop the metric");
    out.push_back(m);
  }
  return out;
}

void check_prerequisites(const ExperimentConfig& cfg, const Cell& cell, const Dataset& data) {
  const MethodInfo& info = *find_method(cell.method);
  const DatasetSpec& spec = cfg.datasets[cell.dataset_index];
  if (info.needs_bounds && data.bounds.empty())
    throw InputError(spec.where, "method '" + cell.method_label + "' needs the public domain bounds of dataset '" + spec.name + "'",
                     "add bounds: [[lo, hi], ...] (public knowledge) or bounds: data (derived from the data; flagged non-private)");
  // What a trial would refuse (k > n, a grid too large for d, ...), from the loaded data's exact shape.
  check_cell_shape(cfg, cell, shape_of(data));
  resolve_metrics(cfg, cell, data);
}

struct TrialOutcome {
  json record;
  std::vector<double> metric_values;
  double method_seconds = 0;
  std::vector<std::string> non_private;
  std::vector<std::string> evaluation_only;
  bool private_release = false;
};

json build_cell_json(int threads, const ExperimentConfig& cfg, const Cell& cell, const Dataset& data,
                     const std::vector<const MetricInfo*>& metrics, std::vector<TrialOutcome>& trials) {
  const MethodInfo& info = *find_method(cell.method);
  json j;
  j["schema"] = "dpclust.cell/1";
  j["index"] = cell.index;
  j["id"] = cell.id;
  j["key"] = cell.key;
  j["fingerprint"] = cell_fingerprint(cfg, cell);
  j["complete"] = true;
  j["dataset"] = cell.dataset;
  j["method"] = cell.method;
  j["series"] = cell.method_label;
  j["params"] = cell.params.to_json();
  j["private"] = info.differentially_private;
  std::set<std::string> notes(data.non_private_notes.begin(), data.non_private_notes.end());
  for (const auto& t : trials) notes.insert(t.non_private.begin(), t.non_private.end());
  if (!info.differentially_private) notes.insert("method is not differentially private");
  j["non_private"] = json(std::vector<std::string>(notes.begin(), notes.end()));
  // release_flags.hpp: a private release when every trial is one and no note applies to the cell.
  std::set<std::string> evaluation_only;
  bool every_trial_private = !trials.empty();
  for (const auto& t : trials) {
    evaluation_only.insert(t.evaluation_only.begin(), t.evaluation_only.end());
    every_trial_private = every_trial_private && t.private_release;
  }
  j["private_release"] = info.differentially_private && notes.empty() && every_trial_private;
  j["evaluation_only"] = json(std::vector<std::string>(evaluation_only.begin(), evaluation_only.end()));
  j["randomness"] = randomness_record(cfg.randomness);
  j["data"] = dataset_summary(data);
  if (cfg.save_points) {
    // The input points (row-major) and true labels, so figures can be drawn from the JSON alone.
    j["data"]["points"] = data.coords;
    if (data.has_labels()) j["data"]["true_labels"] = data.labels;
  }
  json trial_list = json::array();
  for (auto& t : trials) trial_list.push_back(std::move(t.record));
  json agg = json::object();
  for (std::size_t m = 0; m < metrics.size(); ++m) {
    std::vector<double> vals;
    for (const auto& t : trials) vals.push_back(t.metric_values[m]);
    agg[metrics[m]->name] = summarize(vals);
  }
  // Numeric diagnostics (k', iterations, ...) and evaluation statistics (true k, |Z|, ...) are
  // summarised too, each under its own name so that the evaluation part stays marked as such.
  auto summarize_numbers = [&](const char* part) {
    json out = json::object();
    if (trial_list.empty() || !trial_list[0].contains(part)) return out;
    for (auto it = trial_list[0][part].begin(); it != trial_list[0][part].end(); ++it) {
      if (!it.value().is_number()) continue;
      std::vector<double> vals;
      for (const auto& t : trial_list)
        if (t.contains(part) && t[part].contains(it.key()) && t[part][it.key()].is_number()) vals.push_back(t[part][it.key()].get<double>());
      out[it.key()] = summarize(vals);
    }
    return out;
  };
  json diag_agg = summarize_numbers("diagnostics");
  json eval_agg = summarize_numbers("evaluation");
  std::vector<double> secs;
  for (const auto& t : trials) secs.push_back(t.method_seconds);
  j["trials"] = std::move(trial_list);
  j["aggregates"] = std::move(agg);
  j["diagnostics_aggregates"] = std::move(diag_agg);
  if (!eval_agg.empty()) j["evaluation_aggregates"] = std::move(eval_agg);
  // The worker threads of the run that computed this cell: parallel trials share the cores, so a time is
  // comparable to single-threaded code only with 1 (configs with `threads: 1`, Table 3).
  j["timing"] = {{"method_seconds", summarize(secs)}, {"threads", threads}};
  const auto& b = build_info();
  j["computed_by"] = {{"version", b.version}, {"git_commit", b.git_commit}, {"build_type", b.build_type},
                      {"host", b.host}, {"finished", utc_now_iso8601()}};
  return j;
}

}  // namespace

ScopedThreads::ScopedThreads(int requested, int config_cap) : before_(omp_get_max_threads()) {
  threads_ = requested > 0 ? requested : before_;
  if (config_cap > 0) threads_ = std::min(threads_, config_cap);
  omp_set_num_threads(threads_);
}

ScopedThreads::~ScopedThreads() { omp_set_num_threads(before_); }

BudgetLedger trial_ledger(const MethodInfo& info, const ParamSet& params, double noise_scale) {
  if (!info.differentially_private) return BudgetLedger();
  const double delta = params.has("delta") ? params.real("delta") : 0.0;
  BudgetLedger ledger = info.local_privacy ? BudgetLedger(params.real("epsilon"), delta, info.relation, PrivacyMeasure::local)
                                           : BudgetLedger(params.real("epsilon"), delta, info.relation);
  if (noise_scale != 1.0) ledger.set_noise_scale(noise_scale);
  return ledger;
}

namespace {

TrialOutcome run_trial(const ExperimentConfig& cfg, const Cell& cell, const Dataset& data,
                       const std::vector<const MetricInfo*>& metrics, std::int64_t trial, double noise_scale) {
  const MethodInfo& info = *find_method(cell.method);
  TrialOutcome out;
  // randomness: secure has no seed: nothing is derived, written or logged (docs/results.md "Seeds and randomness").
  const bool secure = cfg.randomness == Randomness::secure;
  const std::uint64_t seed = secure ? 0 : trial_seed(cfg, cell.key, trial);
  // The trial itself (generator, ledger built and verified, label count, non-private notes) is the one
  // the Python estimators run too (single_trial.hpp), so both give the same numbers.
  TrialRun run = run_single_trial(info, data, cell.params, cfg.randomness, seed, noise_scale);
  const auto t1 = std::chrono::steady_clock::now();
  MethodResult& res = run.result;
  const BudgetLedger& ledger = run.ledger;
  json metric_json = json::object();
  std::map<std::string, std::any> metric_cache;
  MetricInput in{data, res, cell.params, info, secure ? os_random_u64() : splitmix64(seed ^ fnv1a64("metrics")), metric_cache};
  for (const MetricInfo* m : metrics) {
    const double v = m->compute(in);
    out.metric_values.push_back(v);
    metric_json[m->name] = v;
  }
  const auto t2 = std::chrono::steady_clock::now();
  out.method_seconds = run.method_seconds;
  json rec{{"trial", trial}};
  if (!secure) rec["seed"] = seed;
  rec["private_release"] = trial_private_release(info, run, data.non_private_notes);
  rec["metrics"] = std::move(metric_json);
  rec["diagnostics"] = res.diagnostics;
  rec["ledger"] = ledger.to_json();
  // Exact statistics of the true data: for the report, not private (docs/results.md: results schema).
  if (!res.evaluation.empty()) rec["evaluation"] = std::move(res.evaluation);
  if (cfg.save_release && !res.release.empty()) rec["release"] = std::move(res.release);
  if (cfg.save_labels) rec["labels"] = res.labels;
  rec["timing"] = {{"method_seconds", out.method_seconds}, {"metrics_seconds", std::chrono::duration<double>(t2 - t1).count()}};
  out.record = std::move(rec);
  out.private_release = out.record["private_release"].get<bool>();
  out.non_private = std::move(res.non_private_notes);
  out.evaluation_only = std::move(run.evaluation_only);
  return out;
}

}  // namespace

void validate_experiment(const ExperimentConfig& cfg, bool load_data) {
  std::vector<Cell> cells = expand_grid(cfg);
  for (const auto& d : cfg.datasets) check_dataset_available(d);
  if (!load_data) {
    // Without reading any file: the parameters against what the config says of each dataset's shape.
    std::vector<DataShape> shapes;
    for (const auto& d : cfg.datasets) shapes.push_back(known_shape(d));
    for (const auto& c : cells) check_cell_shape(cfg, c, shapes[c.dataset_index]);
    return;
  }
  std::vector<std::optional<Dataset>> data(cfg.datasets.size());
  for (const auto& c : cells) {
    auto& slot = data[c.dataset_index];
    if (!slot) slot = materialize_dataset(cfg.datasets[c.dataset_index]);
    check_prerequisites(cfg, c, *slot);
  }
}

bool in_shard(const RunOptions& opts, const Cell& cell) {
  if (opts.cell_shard.empty()) return cell.index % opts.shard_count == opts.shard - 1;
  return cell.index < opts.cell_shard.size() && opts.cell_shard[cell.index] == opts.shard;
}

void print_plan(const ExperimentConfig& cfg, const std::vector<Cell>& cells, const RunOptions& opts, std::ostream& out) {
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
  out << "this shard (" << opts.shard << "/" << opts.shard_count << (opts.shard_count > 1 ? std::string(", by ") + opts.shard_by : "") << "): " << mine << " cells, " << mine * static_cast<std::size_t>(cfg.trials)
      << " trials\n";
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
  return {true, st.st_dev, st.st_ino, st.st_size, static_cast<long long>(st.st_mtim.tv_sec) * 1'000'000'000LL + st.st_mtim.tv_nsec};
}

std::size_t count_valid_cells(const fs::path& exp_dir, const json& manifest) {
  std::size_t n = 0;
  for (const auto& e : manifest["grid"]) n += check_cell(exp_dir, e["id"], e["fingerprint"]).state == CellCheck::State::valid;
  return n;
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

  // Cells of this shard that still need computing. A damaged cell file (not JSON, wrong shape, checksum
  // mismatch) is named and recomputed, never reused.
  std::vector<const Cell*> pending;
  std::vector<std::string> pending_fingerprint;
  std::vector<FileStamp> pending_stamp;
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
    pending.push_back(&c);
    pending_fingerprint.push_back(fingerprint);
    pending_stamp.push_back(stamp_of(cell_path(exp_dir, c.id)));
  }

  // Nothing to compute and nothing new to record: leave the directory untouched, so that a complete
  // results directory can be read-only (an archive, a shared copy) and a rerun is a no-op.
  if (pending.empty()) {
    if (auto on_disk = read_manifest(exp_dir); on_disk && same_work(*on_disk, planned)) {
      const bool current = results_current(exp_dir);
      if (current || !assemble_results_json(exp_dir)) {
        report.up_to_date = true;
        report.complete = current;
        if (current) report.results_file = exp_dir / "results.json";
        report.cells_present = current ? cells.size() : count_valid_cells(exp_dir, *on_disk);
        report.wall_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
        return report;
      }
    }
  }

  // Load each needed dataset once, and check every prerequisite before any trial runs.
  std::vector<std::optional<Dataset>> data(cfg.datasets.size());
  std::vector<std::vector<const MetricInfo*>> metrics(pending.size());
  for (std::size_t i = 0; i < pending.size(); ++i) {
    const Cell* c = pending[i];
    auto& slot = data[c->dataset_index];
    if (!slot) slot = materialize_dataset(cfg.datasets[c->dataset_index]);
    check_prerequisites(cfg, *c, *slot);
    metrics[i] = resolve_metrics(cfg, *c, *slot);
  }

  // Only now, with every input checked, does the run touch the output directory. Under `.lock`: the
  // guard against another config, the manifest, stale temp files, and joining the active runs.
  const std::string config_path = fs::weakly_canonical(fs::absolute(cfg.file)).string();
  const std::string work_needed =
      pending.empty() ? "results.json needs assembling" : std::to_string(pending.size()) + " cells need computing";
  std::error_code ec;
  fs::create_directories(exp_dir / "cells", ec);
  if (ec)
    throw InputError(exp_dir.string(), "cannot create the results directory (" + ec.message() + "); " + work_needed,
                     "make it writable, or write the results somewhere else with --out");
  // A read-only directory (its lock files may already exist and open fine): say so before any work,
  // rather than after computing cells that cannot be written.
  for (const fs::path& d : {exp_dir, exp_dir / "cells"})
    if (::access(d.c_str(), W_OK) != 0 && (errno == EACCES || errno == EROFS || errno == EPERM))
      throw InputError(d.string(), std::string("cannot write to this results directory (") + std::strerror(errno) + "); " + work_needed,
                       "make it writable (chmod -R u+w " + exp_dir.string() + "), or write the results somewhere else with --out");
  // The identity of this run in the manifest's `runs`, and its record at each state.
  const std::string run_id = build_info().host + ":" + std::to_string(::getpid()) + ":" + started;
  auto run_record = [&](const std::string& state) {
    json r{{"run_id", run_id},
           {"state", state},
           {"started", started},
           {"shard", std::to_string(opts.shard) + "/" + std::to_string(opts.shard_count)},
           {"shard_by", opts.shard_by},
           {"host", build_info().host},
           {"git_commit", build_info().git_commit},
           {"build_type", build_info().build_type},
           {"compiler", build_info().compiler}};
    if (!opts.shard_plan.empty()) r["shard_plan"] = opts.shard_plan;
    if (!opts.shard_source.empty()) r["shard_source"] = opts.shard_source;
    // Slurm's name for an array task, 1234_3 (what squeue, sacct and scancel take), else the job id.
    const char* array_job = std::getenv("SLURM_ARRAY_JOB_ID");
    const char* array_task = std::getenv("SLURM_ARRAY_TASK_ID");
    if (array_job && array_task) r["scheduler_job"] = (std::string(array_job) + "_" + array_task).substr(0, 40);
    else if (const char* job = std::getenv("SLURM_JOB_ID")) r["scheduler_job"] = std::string(job).substr(0, 40);
    return r;
  };
  FileLock active;  // shared lock on `.active` for the whole run: tells other runs this one is working
  json manifest;
  {
    FileLock lock;
    try {
      lock = FileLock::acquire(ExperimentLocks::lock_file(exp_dir), /*exclusive=*/true, /*wait=*/true);
    } catch (const InputError& e) {
      throw InputError(e.where(), e.problem() + "; " + work_needed, e.fix());
    }
    const bool others_active = ExperimentLocks::other_run_active(exp_dir);
    const auto old = read_manifest(exp_dir);
    if (old && !same_work(*old, planned)) {
      // Two different config files with the same experiment name would overwrite each other's results.
      if ((*old)["config_crc32"] != planned["config_crc32"] && old->contains("config_path") && (*old)["config_path"] != config_path)
        throw InputError(cfg.file.string(), "experiment '" + cfg.name + "' in " + exp_dir.string() + " holds the results of another config (" +
                                                (*old)["config_path"].get<std::string>() + (others_active ? ", running now" : "") +
                                                "), not of " + config_path,
                         "give this experiment another name (experiment: in " + cfg.file.string() +
                             "), or use another --out directory");
      // The same file edited (or another --trials) is a legitimate rerun, but not while a run of the
      // old version is still writing cells here.
      if (others_active)
        throw InputError(cfg.file.string(), "a run of another version of this config (" + old->value("config_path", (*old)["config_file"].get<std::string>()) +
                                                ", crc32 " + (*old)["config_crc32"].get<std::string>() + ") is writing experiment '" + cfg.name +
                                                "' in " + exp_dir.string() + " now",
                         "wait for it to finish, or use another --out directory");
    }
    if (old && same_work(*old, planned)) {
      manifest = *old;  // a resume, or a concurrent run of the same config: keep its records
    } else {
      manifest = planned;
      manifest["config_path"] = config_path;
      // Keep the run history of the same config text (resumes, shards in the same directory).
      if (old && (*old)["config_crc32"] == planned["config_crc32"]) manifest["runs"] = (*old)["runs"];
    }
    // This run's record, "running" until it finishes (then replaced below): a task killed by the
    // scheduler (time limit, memory, node failure) leaves it, so `dpclust status` can name the shard
    // that did not finish instead of showing only missing cells.
    manifest["runs"].push_back(run_record("running"));
    write_file_atomic(exp_dir / "manifest.json", manifest.dump(1) + "\n");
    // Temp files of killed writers. With no other run active every one is stale; otherwise only those
    // whose process is gone (a live run's temp file is a cell being written).
    remove_stale_temp_files(exp_dir, !others_active);
    remove_stale_temp_files(exp_dir / "cells", !others_active);
    active = FileLock::acquire(ExperimentLocks::active_file(exp_dir), /*exclusive=*/false, /*wait=*/true);
  }

  // Threads: --threads, capped by the config's `threads:` (running times comparable to single-threaded code).
  const ScopedThreads scoped_threads(opts.threads, cfg.threads);
  const int threads = scoped_threads.threads();
  const auto trials = static_cast<std::size_t>(cfg.trials);
  const std::size_t n_tasks = pending.size() * trials;
  std::vector<std::vector<TrialOutcome>> outcomes(pending.size(), std::vector<TrialOutcome>(trials));
  std::vector<std::atomic<std::size_t>> remaining(pending.size());
  for (auto& r : remaining) r.store(trials);
  std::atomic<bool> failed{false};
  std::atomic<std::size_t> cells_computed{0};
  std::mutex error_mu;
  std::exception_ptr first_error;
  std::string error_context;
  const Cell* error_cell = nullptr;
  Progress progress(cfg.name, n_tasks, opts.progress);
  auto record_error = [&](const Cell& cell, std::size_t t) {  // call inside a catch block
    std::lock_guard<std::mutex> lock(error_mu);
    if (!first_error) {
      first_error = std::current_exception();
      error_context = "cell " + std::to_string(cell.index) + " (" + cell.key + "), trial " + std::to_string(t);
      error_cell = &cell;
    }
    failed.store(true);
  };

  // Claiming a cell: its claim file flock'ed by this run. A concurrent run of the same config may hold
  // it (it is computing the cell: come back to it later) or may have written the cell since this run
  // looked (reuse it). The claim is held until the cell file is renamed into place.
  enum class Decision : unsigned char { compute, done_elsewhere, deferred };
  std::vector<Decision> decision(pending.size(), Decision::deferred);
  std::vector<FileLock> claims(pending.size());
  std::unique_ptr<std::once_flag[]> claimed(new std::once_flag[pending.size()]);
  auto claim = [&](std::size_t ci, bool wait) {
    const Cell& c = *pending[ci];
    FileLock lock = FileLock::acquire(ExperimentLocks::claim_file(exp_dir, c.id), /*exclusive=*/true, wait);
    if (!lock.held()) return Decision::deferred;
    if (!(stamp_of(cell_path(exp_dir, c.id)) == pending_stamp[ci]) &&
        check_cell(exp_dir, c.id, pending_fingerprint[ci]).state == CellCheck::State::valid)
      return Decision::done_elsewhere;
    claims[ci] = std::move(lock);
    return Decision::compute;
  };
  auto run_task = [&](std::size_t ci, std::size_t t) {
    const Cell& cell = *pending[ci];
    try {
      outcomes[ci][t] = run_trial(cfg, cell, *data[cell.dataset_index], metrics[ci], static_cast<std::int64_t>(t), opts.noise_scale);
      if (remaining[ci].fetch_sub(1) == 1) {  // the last trial of this cell: write it now
        write_cell(exp_dir, build_cell_json(threads, cfg, cell, *data[cell.dataset_index], metrics[ci], outcomes[ci]));
        claims[ci].release();  // after the rename, so a run waiting for the claim finds the cell
        outcomes[ci].clear();
        outcomes[ci].shrink_to_fit();
        ++cells_computed;
      }
    } catch (...) {
      record_error(cell, t);
    }
    progress.tick();
  };

  // Pass 1: every pending cell this run can claim without waiting, trials in parallel.
#pragma omp parallel for schedule(dynamic, 1)
  for (std::size_t task = 0; task < n_tasks; ++task) {
    if (failed.load()) continue;
    const std::size_t ci = task / trials, t = task % trials;
    try {
      std::call_once(claimed[ci], [&] { decision[ci] = claim(ci, /*wait=*/false); });
    } catch (...) {
      record_error(*pending[ci], t);
      continue;
    }
    if (decision[ci] == Decision::compute) run_task(ci, t);
    else if (decision[ci] == Decision::done_elsewhere) progress.tick();
  }
  // Pass 2: the cells another run was computing. Wait for each claim (one at a time, so two runs never
  // wait for each other); the cell is then usually on disk, else (that run died) computed here.
  for (std::size_t ci = 0; ci < pending.size() && !failed.load(); ++ci) {
    if (decision[ci] != Decision::deferred) continue;
    try {
      decision[ci] = claim(ci, /*wait=*/true);
    } catch (...) {
      record_error(*pending[ci], 0);
      break;
    }
    if (decision[ci] == Decision::done_elsewhere) {
      for (std::size_t t = 0; t < trials; ++t) progress.tick();
      continue;
    }
#pragma omp parallel for schedule(dynamic, 1)
    for (std::size_t t = 0; t < trials; ++t)
      if (!failed.load()) run_task(ci, t);
  }
  progress.finish();
  claims.clear();  // a failed cell's claim too: another run may compute it

  const std::size_t from_concurrent = static_cast<std::size_t>(std::count(decision.begin(), decision.end(), Decision::done_elsewhere));
  report.cells_run = cells_computed.load();
  report.trials_run = report.cells_run * trials;
  report.cells_from_concurrent_runs = from_concurrent;
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  // Record this run in the manifest, whatever happened (cells already written stay valid), and assemble
  // results.json when the grid is complete: under `.lock`, re-reading the manifest, so that concurrent
  // runs of the same config each add their record and the last one out assembles with all of them.
  json record = run_record(failed.load() ? "failed" : "succeeded");
  record.update(json{{"finished", utc_now_iso8601()},
                     {"wall_seconds", wall},
                     {"threads", threads},
                     {"cells_run", report.cells_run},
                     {"cells_reused", report.cells_reused},
                     {"cells_from_concurrent_runs", from_concurrent},
                     {"succeeded", !failed.load()}});
  if (first_error) {
    // Which cell failed and why, for `dpclust status`. The message is the engine's own (a parameter
    // check, a file error): it names parameters and files, never data values.
    std::string what;
    try {
      std::rethrow_exception(first_error);
    } catch (const std::exception& e) {
      what = e.what();
    } catch (...) {
      what = "unknown error";
    }
    record["failed_cell"] = {{"index", error_cell ? error_cell->index : 0}, {"id", error_cell ? error_cell->id : ""}, {"where", error_context},
                             {"error", what.substr(0, 500)}};
  }
  std::exception_ptr finish_error;
  try {
    FileLock lock = FileLock::acquire(ExperimentLocks::lock_file(exp_dir), /*exclusive=*/true, /*wait=*/true);
    try {
      auto on_disk = read_manifest(exp_dir);
      if (!on_disk || same_work(*on_disk, planned)) {
        json m = on_disk ? std::move(*on_disk) : manifest;
        // Replace this run's "running" record by the final one.
        json runs = json::array();
        for (auto& r : m["runs"])
          if (!(r.is_object() && r.value("run_id", "") == run_id)) runs.push_back(std::move(r));
        runs.push_back(record);
        m["runs"] = std::move(runs);
        write_file_atomic(exp_dir / "manifest.json", m.dump(1) + "\n");
        if (!first_error) report.complete = assemble_results(exp_dir);
      } else {
        std::cerr << "warning: " << (exp_dir / "manifest.json").string()
                  << " was replaced during this run by another config's; this run's record is not added\n";
      }
    } catch (...) {
      finish_error = std::current_exception();  // e.g. the disk is full: still clean up below
    }
    // The last run out removes the claim files; nobody else can be using them (starting takes `.lock`).
    active.release();
    if (!ExperimentLocks::other_run_active(exp_dir)) fs::remove_all(exp_dir / ".claims", ec);
  } catch (...) {
    if (!finish_error) finish_error = std::current_exception();
  }

  if (first_error) {
    try {
      std::rethrow_exception(first_error);
    } catch (const InputError& e) {
      throw InputError(cfg.file.string() + " " + error_context, e.what(), "");
    } catch (const std::invalid_argument& e) {
      throw InputError(cfg.file.string() + " " + error_context, e.what(), "check this cell's parameters");
    } catch (const std::exception& e) {
      throw std::runtime_error(error_context + ": " + e.what());
    }
  }
  if (finish_error) std::rethrow_exception(finish_error);
  report.cells_reused += from_concurrent;
  if (report.complete) report.results_file = exp_dir / "results.json";
  report.cells_present = report.complete ? cells.size() : count_valid_cells(exp_dir, planned);
  report.wall_seconds = wall;
  return report;
}

}  // namespace dpclust
