#include "experiment/runner.hpp"

#include <omp.h>

#include <atomic>
#include <chrono>
#include <cstdio>
#include <iostream>
#include <mutex>
#include <set>

#include "core/error.hpp"
#include "core/files.hpp"
#include "core/rng.hpp"
#include "experiment/aggregate.hpp"
#include "experiment/catalog.hpp"
#include "experiment/dataset_factory.hpp"
#include "experiment/progress.hpp"

namespace dpclust {
namespace fs = std::filesystem;
using json = nlohmann::json;

namespace {

constexpr const char* kSeedScheme =
    "seed(trial) = splitmix64(splitmix64(splitmix64(base_seed) ^ fnv1a64(cell.key)) ^ trial); "
    "cell.key = 'dataset=<name>|method=<series>|<param>=<json value>;...' (params sorted by name, defaults left out)";

std::string hex16(std::uint64_t x) {
  char buf[17];
  std::snprintf(buf, sizeof buf, "%016llx", static_cast<unsigned long long>(x));
  return buf;
}

// What makes a stored cell reusable: same key, trials, seed, data definition, metrics and release
// setting. The tool version is included; the git commit is not (each cell records its own commit).
std::string cell_fingerprint(const ExperimentConfig& cfg, const Cell& cell) {
  json j{{"key", cell.key},
         {"trials", cfg.trials},
         {"seed", cfg.seed},
         {"dataset", cfg.datasets[cell.dataset_index].definition},
         {"metrics", cfg.metrics.empty() ? json("auto") : json(cfg.metrics)},
         {"release", cfg.save_release},
         {"points", cfg.save_points},
         {"labels", cfg.save_labels},
         {"version", build_info().version}};
  return hex16(fnv1a64(j.dump()));
}

fs::path cell_path(const fs::path& exp_dir, const std::string& id) { return exp_dir / "cells" / (id + ".json"); }

std::optional<json> read_json(const fs::path& p) {
  std::error_code ec;
  if (!fs::exists(p, ec)) return std::nullopt;
  try {
    return json::parse(read_text_file(p));
  } catch (const std::exception&) {
    return std::nullopt;  // a torn or foreign file: treat as absent and recompute
  }
}

bool cell_done(const fs::path& exp_dir, const std::string& id, const std::string& fingerprint) {
  auto j = read_json(cell_path(exp_dir, id));
  return j && j->value("fingerprint", "") == fingerprint && j->value("complete", false);
}

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
  resolve_metrics(cfg, cell, data);
}

json build_manifest(const ExperimentConfig& cfg, const std::vector<Cell>& cells, const fs::path& exp_dir) {
  json grid = json::array();
  for (const auto& c : cells)
    grid.push_back({{"index", c.index}, {"id", c.id}, {"key", c.key}, {"dataset", c.dataset}, {"method", c.method},
                    {"series", c.method_label}, {"fingerprint", cell_fingerprint(cfg, c)}});
  json m{{"schema", "dpclust.manifest/1"},
         {"experiment", cfg.name},
         {"description", cfg.description},
         {"config_file", cfg.file.string()},
         {"config_text", cfg.text},
         {"config_crc32", crc32_hex(cfg.text)},
         {"base_seed", cfg.seed},
         {"trials", cfg.trials},
         {"seed_scheme", kSeedScheme},
         {"data_root", cfg.data_root.string()},
         {"grid", grid},
         {"runs", json::array()}};
  // Keep the run history of the same config (resumes, shards in the same directory).
  if (auto old = read_json(exp_dir / "manifest.json"); old && old->value("config_crc32", "") == m["config_crc32"])
    m["runs"] = (*old)["runs"];
  return m;
}

struct TrialOutcome {
  json record;
  std::vector<double> metric_values;
  double method_seconds = 0;
  std::vector<std::string> non_private;
};

json build_cell_json(const ExperimentConfig& cfg, const Cell& cell, const Dataset& data,
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
  j["timing"] = {{"method_seconds", summarize(secs)}};
  const auto& b = build_info();
  j["computed_by"] = {{"version", b.version}, {"git_commit", b.git_commit}, {"build_type", b.build_type},
                      {"host", b.host}, {"finished", utc_now_iso8601()}};
  return j;
}

TrialOutcome run_trial(const ExperimentConfig& cfg, const Cell& cell, const Dataset& data,
                       const std::vector<const MetricInfo*>& metrics, std::int64_t trial, double noise_scale) {
  const MethodInfo& info = *find_method(cell.method);
  TrialOutcome out;
  const std::uint64_t seed = derive_seed(cfg.seed, cell.key, static_cast<std::uint64_t>(trial));
  Rng rng(seed);
  const double delta = cell.params.has("delta") ? cell.params.real("delta") : 0.0;
  BudgetLedger ledger = !info.differentially_private ? BudgetLedger()
                        : info.local_privacy
                            ? BudgetLedger(cell.params.real("epsilon"), delta, info.relation, PrivacyMeasure::local)
                            : BudgetLedger(cell.params.real("epsilon"), delta, info.relation);
  if (info.differentially_private && noise_scale != 1.0) ledger.set_noise_scale(noise_scale);
  auto method = info.make();
  const auto t0 = std::chrono::steady_clock::now();
  MethodResult res = method->run(data, cell.params, rng, ledger);
  const auto t1 = std::chrono::steady_clock::now();
  ledger.verify();
  if (res.labels.size() != data.n)
    throw std::logic_error("method '" + cell.method + "' returned " + std::to_string(res.labels.size()) + " labels for " +
                           std::to_string(data.n) + " points");
  if (info.differentially_private && !res.labels_are_release)
    res.non_private_notes.push_back("point labels are extracted for evaluation only; they are not part of the private release");
  if (ledger.noise_scale() != 1.0)
    res.non_private_notes.push_back("noise scaled by " + std::to_string(ledger.noise_scale()) +
                                    " of its calibrated value (a test of the privacy audit): not the recorded epsilon");
  json metric_json = json::object();
  std::map<std::string, std::any> metric_cache;
  MetricInput in{data, res, cell.params, info, splitmix64(seed ^ fnv1a64("metrics")), metric_cache};
  for (const MetricInfo* m : metrics) {
    const double v = m->compute(in);
    out.metric_values.push_back(v);
    metric_json[m->name] = v;
  }
  const auto t2 = std::chrono::steady_clock::now();
  out.method_seconds = std::chrono::duration<double>(t1 - t0).count();
  json rec{{"trial", trial}, {"seed", seed}, {"metrics", metric_json}, {"diagnostics", res.diagnostics}, {"ledger", ledger.to_json()}};
  // Exact statistics of the true data: for the report, not private (README: results schema).
  if (!res.evaluation.empty()) rec["evaluation"] = std::move(res.evaluation);
  if (cfg.save_release && !res.release.empty()) rec["release"] = std::move(res.release);
  if (cfg.save_labels) rec["labels"] = res.labels;
  rec["timing"] = {{"method_seconds", out.method_seconds}, {"metrics_seconds", std::chrono::duration<double>(t2 - t1).count()}};
  out.record = std::move(rec);
  out.non_private = std::move(res.non_private_notes);
  return out;
}

}  // namespace

json strip_nondeterministic(json j) {
  if (j.is_object()) {
    for (const char* k : {"timing", "provenance", "computed_by", "runs"}) j.erase(k);
    for (auto& [k, v] : j.items()) v = strip_nondeterministic(v);
  } else if (j.is_array()) {
    for (auto& v : j) v = strip_nondeterministic(v);
  }
  return j;
}

bool assemble_results(const fs::path& exp_dir) {
  auto manifest = read_json(exp_dir / "manifest.json");
  if (!manifest) return false;
  json cells = json::array();
  json datasets = json::object();
  std::set<std::string> commits;
  for (const auto& entry : (*manifest)["grid"]) {
    auto cell = read_json(cell_path(exp_dir, entry["id"].get<std::string>()));
    if (!cell || cell->value("fingerprint", "") != entry["fingerprint"].get<std::string>() || !cell->value("complete", false))
      return false;
    const std::string ds = (*cell)["dataset"];
    if (!datasets.contains(ds)) datasets[ds] = (*cell)["data"];
    cell->erase("data");
    commits.insert((*cell)["computed_by"].value("git_commit", "unknown"));
    cells.push_back(std::move(*cell));
  }
  const auto& b = build_info();
  json results{{"schema", "dpclust.results/1"},
               {"experiment", (*manifest)["experiment"]},
               {"description", (*manifest)["description"]},
               {"base_seed", (*manifest)["base_seed"]},
               {"trials", (*manifest)["trials"]},
               {"seed_scheme", (*manifest)["seed_scheme"]},
               {"datasets", datasets},
               {"cells", cells}};
  results["provenance"] = {{"config_file", (*manifest)["config_file"]},
                           {"config_text", (*manifest)["config_text"]},
                           {"config_crc32", (*manifest)["config_crc32"]},
                           {"data_root", (*manifest)["data_root"]},
                           {"runs", (*manifest)["runs"]},
                           {"cell_git_commits", json(std::vector<std::string>(commits.begin(), commits.end()))},
                           {"assembled_by", {{"version", b.version}, {"git_commit", b.git_commit}, {"compiler", b.compiler},
                                             {"build_type", b.build_type}, {"host", b.host}, {"at", utc_now_iso8601()}}}};
  write_file_atomic(exp_dir / "results.json", results.dump(1) + "\n");
  return true;
}

void validate_experiment(const ExperimentConfig& cfg, bool load_data) {
  std::vector<Cell> cells = expand_grid(cfg);
  for (const auto& d : cfg.datasets) check_dataset_available(d);
  if (!load_data) return;
  std::vector<std::optional<Dataset>> data(cfg.datasets.size());
  for (const auto& c : cells) {
    auto& slot = data[c.dataset_index];
    if (!slot) slot = materialize_dataset(cfg.datasets[c.dataset_index]);
    check_prerequisites(cfg, c, *slot);
  }
}

void print_plan(const ExperimentConfig& cfg, const std::vector<Cell>& cells, const RunOptions& opts, std::ostream& out) {
  std::size_t mine = 0;
  out << "experiment " << cfg.name << ": " << cells.size() << " cells x " << cfg.trials << " trials, base seed " << cfg.seed << "\n";
  for (const auto& c : cells) {
    const bool in_shard = c.index % opts.shard_count == opts.shard - 1;
    mine += in_shard;
    char head[64];
    std::snprintf(head, sizeof head, "%s %5zu  %s  ", in_shard ? " " : "-", c.index, c.id.c_str());
    out << head << c.dataset << "  " << c.method_label << "  " << c.params.canonical() << "\n";
  }
  out << "this shard (" << opts.shard << "/" << opts.shard_count << "): " << mine << " cells, " << mine * static_cast<std::size_t>(cfg.trials)
      << " trials\n";
}

RunReport run_experiment(const ExperimentConfig& cfg, const RunOptions& opts) {
  const auto wall0 = std::chrono::steady_clock::now();
  const std::string started = utc_now_iso8601();
  RunReport report;
  std::vector<Cell> cells = expand_grid(cfg);
  for (const auto& d : cfg.datasets) check_dataset_available(d);
  report.cells_total = cells.size();
  report.experiment_dir = opts.out_dir / cfg.name;
  const fs::path& exp_dir = report.experiment_dir;

  // Cells of this shard that still need computing.
  std::vector<const Cell*> pending;
  for (const auto& c : cells) {
    if (c.index % opts.shard_count != opts.shard - 1) continue;
    ++report.cells_in_shard;
    if (opts.resume && cell_done(exp_dir, c.id, cell_fingerprint(cfg, c))) {
      ++report.cells_reused;
      continue;
    }
    pending.push_back(&c);
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

  // Two different config files with the same experiment name would overwrite each other's results.
  const std::string config_path = fs::weakly_canonical(fs::absolute(cfg.file)).string();
  if (auto old = read_json(exp_dir / "manifest.json");
      old && old->value("config_crc32", "") != crc32_hex(cfg.text) && old->contains("config_path") &&
      (*old)["config_path"] != config_path)
    throw InputError(cfg.file.string(), "experiment '" + cfg.name + "' in " + exp_dir.string() + " holds the results of another config (" +
                                            (*old)["config_path"].get<std::string>() + ")",
                     "give this experiment another name, or use another --out directory");
  // Only now, with every input checked, does the run touch the output directory.
  fs::create_directories(exp_dir / "cells");
  json manifest = build_manifest(cfg, cells, exp_dir);
  manifest["config_path"] = config_path;
  write_file_atomic(exp_dir / "manifest.json", manifest.dump(1) + "\n");

  if (opts.threads > 0) omp_set_num_threads(opts.threads);
  const int threads = omp_get_max_threads();
  const auto trials = static_cast<std::size_t>(cfg.trials);
  const std::size_t n_tasks = pending.size() * trials;
  std::vector<std::vector<TrialOutcome>> outcomes(pending.size(), std::vector<TrialOutcome>(trials));
  std::vector<std::atomic<std::size_t>> remaining(pending.size());
  for (auto& r : remaining) r.store(trials);
  std::atomic<bool> failed{false};
  std::mutex error_mu;
  std::exception_ptr first_error;
  std::string error_context;
  Progress progress(cfg.name, n_tasks, opts.progress);

#pragma omp parallel for schedule(dynamic, 1)
  for (std::size_t task = 0; task < n_tasks; ++task) {
    if (failed.load()) continue;
    const std::size_t ci = task / trials, t = task % trials;
    const Cell& cell = *pending[ci];
    try {
      outcomes[ci][t] = run_trial(cfg, cell, *data[cell.dataset_index], metrics[ci], static_cast<std::int64_t>(t), opts.noise_scale);
      if (remaining[ci].fetch_sub(1) == 1) {  // the last trial of this cell: write it now
        json j = build_cell_json(cfg, cell, *data[cell.dataset_index], metrics[ci], outcomes[ci]);
        write_file_atomic(cell_path(exp_dir, cell.id), j.dump(1) + "\n");
        outcomes[ci].clear();
        outcomes[ci].shrink_to_fit();
      }
    } catch (...) {
      std::lock_guard<std::mutex> lock(error_mu);
      if (!first_error) {
        first_error = std::current_exception();
        error_context = "cell " + std::to_string(cell.index) + " (" + cell.key + "), trial " + std::to_string(t);
      }
      failed.store(true);
    }
    progress.tick();
  }
  progress.finish();

  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - wall0).count();
  // Record this run in the manifest, whatever happened: cells already written stay valid.
  manifest["runs"].push_back({{"started", started},
                              {"finished", utc_now_iso8601()},
                              {"wall_seconds", wall},
                              {"threads", threads},
                              {"shard", std::to_string(opts.shard) + "/" + std::to_string(opts.shard_count)},
                              {"cells_run", pending.size()},
                              {"cells_reused", report.cells_reused},
                              {"succeeded", !failed.load()},
                              {"host", build_info().host},
                              {"git_commit", build_info().git_commit},
                              {"build_type", build_info().build_type},
                              {"compiler", build_info().compiler}});
  write_file_atomic(exp_dir / "manifest.json", manifest.dump(1) + "\n");

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
  report.cells_run = pending.size();
  report.trials_run = n_tasks;
  report.complete = assemble_results(exp_dir);
  if (report.complete) report.results_file = exp_dir / "results.json";
  report.wall_seconds = wall;
  return report;
}

std::vector<fs::path> merge_results(const fs::path& out_dir, const std::vector<fs::path>& inputs, std::ostream& log) {
  std::map<std::string, json> manifests;  // experiment -> manifest
  std::vector<fs::path> written;
  for (const auto& in : inputs) {
    // Accept an experiment directory or an --out directory holding several experiments.
    std::vector<fs::path> exp_dirs;
    if (fs::exists(in / "manifest.json")) exp_dirs.push_back(in);
    else if (fs::is_directory(in))
      for (const auto& e : fs::directory_iterator(in))
        if (fs::exists(e.path() / "manifest.json")) exp_dirs.push_back(e.path());
    if (exp_dirs.empty()) throw InputError(in.string(), "no experiment output here (no manifest.json)", "pass the --out directory of a shard run");
    for (const auto& dir : exp_dirs) {
      auto m = read_json(dir / "manifest.json");
      if (!m) throw InputError((dir / "manifest.json").string(), "unreadable manifest");
      const std::string name = (*m)["experiment"];
      auto& have = manifests[name];
      if (have.is_null()) have = *m;
      else if (have["config_crc32"] != (*m)["config_crc32"])
        throw InputError(dir.string(), "shard of '" + name + "' was run with a different config (crc32 " +
                                           (*m)["config_crc32"].get<std::string>() + " vs " + have["config_crc32"].get<std::string>() + ")",
                         "merge only shards of the same config");
      else
        for (const auto& r : (*m)["runs"]) have["runs"].push_back(r);
      const fs::path target = out_dir / name;
      fs::create_directories(target / "cells");
      std::size_t copied = 0;
      for (const auto& entry : (*m)["grid"]) {
        const fs::path src = cell_path(dir, entry["id"].get<std::string>());
        const fs::path dst = cell_path(target, entry["id"].get<std::string>());
        if (fs::equivalent(dir, target)) continue;
        if (fs::exists(src)) {
          write_file_atomic(dst, read_text_file(src));
          ++copied;
        }
      }
      log << "merge: " << dir.string() << ": " << copied << " cells of '" << name << "'\n";
    }
  }
  for (auto& [name, m] : manifests) {
    const fs::path target = out_dir / name;
    write_file_atomic(target / "manifest.json", m.dump(1) + "\n");
    std::size_t present = 0;
    for (const auto& entry : m["grid"]) present += fs::exists(cell_path(target, entry["id"].get<std::string>()));
    if (assemble_results(target)) {
      log << "merge: " << (target / "results.json").string() << " complete (" << present << " cells)\n";
      written.push_back(target);
    } else {
      log << "merge: '" << name << "' incomplete: " << present << " of " << m["grid"].size() << " cells present\n";
    }
  }
  return written;
}

}  // namespace dpclust
