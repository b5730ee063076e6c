// One cell's trials and its JSON record; see cell_trials.hpp.
#include "run/cell_trials.hpp"

#include <any>
#include <chrono>
#include <map>
#include <set>

#include "catalog/catalog.hpp"
#include "core/error.hpp"
#include "core/files.hpp"
#include "core/rng.hpp"
#include "loading/dataset_loading.hpp"
#include "run/aggregate.hpp"
#include "run/release_flags.hpp"
#include "run/selection_privacy.hpp"
#include "run/side_inputs.hpp"
#include "run/single_trial.hpp"
#include "store/results_store.hpp"  // cell_fingerprint

namespace dpclust {
using json = nlohmann::json;

// The metrics a cell computes: the configured ones (or all computed by default) that apply to its method,
// checked against the dataset (labels needed?).
std::vector<const MetricInfo*> resolve_metrics(const ExperimentConfig& cfg, const Cell& cell, const Dataset& data) {
  const DatasetSpec& spec = cfg.datasets[cell.dataset_index];
  const MethodInfo& method = *find_method(cell.method);
  std::vector<const MetricInfo*> out;
  if (cfg.metrics.empty()) {
    for (const auto& m : all_metrics())
      if (m.by_default && m.applies_to(method) && (!m.needs_truth || data.has_labels())) out.push_back(&m);
    return out;
  }
  for (const auto& name : cfg.metrics) {
    const MetricInfo* m = find_metric(name);
    if (!m->applies_to(method)) continue;
    if (m->needs_truth && !data.has_labels())
      throw InputError(spec.where,
                       "metric '" + name + "' needs ground-truth labels, but dataset '" + spec.name + "' has none",
                       "name the label column (label: <column>) or drop the metric");
    out.push_back(m);
  }
  return out;
}

void check_prerequisites(const ExperimentConfig& cfg, const Cell& cell, const Dataset& data) {
  const MethodInfo& info = *find_method(cell.method);
  const DatasetSpec& spec = cfg.datasets[cell.dataset_index];
  if (info.needs_bounds && data.bounds.empty())
    throw InputError(
        spec.where, "method '" + cell.method_label + "' needs the public domain bounds of dataset '" + spec.name + "'",
        "add bounds: [[lo, hi], ...] (public knowledge) or bounds: data (derived from the data; flagged non-private)");
  // What a trial would refuse (k > n, a grid too large for d, ...), from the loaded data's shape (a private
  // method's checks see the declared size only: shape_for_checks).
  check_cell_shape(cfg, cell, loaded_shape(spec, data));
  resolve_metrics(cfg, cell, data);
}

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
  std::set<std::string> remarks;
  for (const auto& t : trials) remarks.insert(t.notes.begin(), t.notes.end());
  if (!remarks.empty()) j["notes"] = json(std::vector<std::string>(remarks.begin(), remarks.end()));
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
  // What the method was told about the data, and whether the cell's parameters were chosen on it (run/side_inputs.hpp).
  record_side_information(j, cfg, cell, data);
  j["data"] = dataset_summary(data);
  j["data"]["family"] = dataset_family(cfg.datasets[cell.dataset_index]);
  if (cfg.save_points) {
    // The input points (row-major) and true labels, so figures can be drawn from the JSON alone.
    j["data"]["points"] = data.coords;
    if (data.has_labels()) j["data"]["true_labels"] = data.labels;
  }
  // The trials whose released centres left the public domain, and what was done (clamp: moved into it, keep: left).
  std::size_t trials_outside = 0, centres_outside = 0;
  std::string action;
  for (const auto& t : trials)
    if (t.record.contains("post_processing")) {
      ++trials_outside;
      centres_outside += t.record["post_processing"]["centres_outside_domain"].get<std::size_t>();
      action = t.record["post_processing"]["action"].get<std::string>();
    }
  if (trials_outside > 0)
    j["post_processing"] = {
        {"centres_outside_domain", action}, {"trials", trials_outside}, {"centres", centres_outside}};
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
        if (t.contains(part) && t[part].contains(it.key()) && t[part][it.key()].is_number())
          vals.push_back(t[part][it.key()].get<double>());
      out[it.key()] = summarize(vals);
    }
    return out;
  };
  json diag_agg = summarize_numbers("diagnostics");
  json eval_agg = summarize_numbers("evaluation");
  std::vector<double> secs, metrics_secs;
  for (const auto& t : trials) {
    secs.push_back(t.method_seconds);
    metrics_secs.push_back(t.metrics_seconds);
  }
  // Each metric's time, and the sample of a metric computed on one (the same sample in every trial: the
  // standard error of a trial's value does not shrink with more trials).
  json metric_secs = json::object(), samples = json::object();
  for (std::size_t m = 0; m < metrics.size(); ++m) {
    std::vector<double> vals, errors;
    const SampledValue* sampled = nullptr;
    for (const auto& t : trials) {
      vals.push_back(t.metric_seconds[m]);
      if (t.metric_samples[m].points == 0) continue;
      sampled = &t.metric_samples[m];
      errors.push_back(sampled->standard_error);
    }
    metric_secs[metrics[m]->name] = summarize(vals);
    if (sampled)
      samples[metrics[m]->name] = {{"points", sampled->points},
                                   {"of", sampled->population},
                                   {"seed", sampled->seed},
                                   {"sampling", sampled->design},
                                   {"standard_error", summarize(errors)}};
  }
  if (!samples.empty()) j["evaluation_samples"] = std::move(samples);
  j["trials"] = std::move(trial_list);
  j["aggregates"] = std::move(agg);
  j["diagnostics_aggregates"] = std::move(diag_agg);
  if (!eval_agg.empty()) j["evaluation_aggregates"] = std::move(eval_agg);
  // The worker threads of the run that computed this cell: parallel trials share the cores, so a time is
  // comparable to single-threaded code only with 1 (configs with `threads: 1`, Table 3).
  j["timing"] = {{"method_seconds", summarize(secs)},
                 {"metrics_seconds", summarize(metrics_secs)},
                 {"metric_seconds", std::move(metric_secs)},
                 {"threads", threads}};
  const auto& b = build_info();
  j["computed_by"] = {{"version", b.version},
                      {"git_commit", b.git_commit},
                      {"build_type", b.build_type},
                      {"host", b.host},
                      {"finished", utc_now_iso8601()}};
  return j;
}

TrialOutcome run_trial(const ExperimentConfig& cfg, const Cell& cell, const Dataset& data,
                       const std::vector<const MetricInfo*>& metrics, std::int64_t trial, double noise_scale,
                       DatasetCache* dataset_cache) {
  const MethodInfo& info = *find_method(cell.method);
  TrialOutcome out;
  // randomness: secure has no seed: nothing is derived, written or logged (docs/results.md "Seeds and randomness").
  const bool secure = cfg.randomness == Randomness::secure;
  const std::uint64_t seed = secure ? 0 : trial_seed(cfg, cell.key, trial);
  // The trial itself (generator, ledger built and verified, label count, non-private notes) is the one
  // the Python estimators run too (single_trial.hpp), so both give the same numbers.
  // Labels no metric reads and none saved: the method may skip work that only makes them (Method::labels_needed).
  bool labels_needed = cfg.save_labels;
  for (const MetricInfo* m : metrics) labels_needed = labels_needed || m->reads_labels;
  const MethodSpec& entry = cfg.methods[cell.method_index];
  const CentresOutsideDomain centres = entry.centres_outside_domain.value_or(cfg.centres_outside_domain);
  TrialRun run = run_single_trial(info, data, cell.params, cfg.randomness, seed, noise_scale, labels_needed, centres);
  const auto t1 = std::chrono::steady_clock::now();
  MethodResult& res = run.result;
  const BudgetLedger& ledger = run.ledger;
  // What the dataset's row selection does to this trial's guarantee (max_rows, a secure sample).
  SelectionPrivacy selection = selection_privacy(data, info, ledger);
  res.non_private_notes.insert(res.non_private_notes.end(), selection.non_private.begin(), selection.non_private.end());
  json metric_json = json::object(), metric_seconds = json::object(), standard_errors = json::object();
  std::map<std::string, std::any> metric_cache;
  MetricInput in{data,
                 res,
                 cell.params,
                 info,
                 secure ? os_random_u64() : splitmix64(seed ^ fnv1a64("metrics")),
                 metric_cache,
                 dataset_cache,
                 &cfg.evaluation};
  for (const MetricInfo* m : metrics) {
    // Each metric timed on its own (what is shared within the trial, e.g. the nearest centres, counts for the
    // first metric that needs it; what is shared across trials, e.g. the k-means reference, for the first trial).
    const auto started = std::chrono::steady_clock::now();
    SampledValue sampled;
    in.sampled = &sampled;
    const double v = m->compute(in);
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    out.metric_values.push_back(v);
    out.metric_seconds.push_back(seconds);
    out.metric_samples.push_back(sampled);
    metric_json[m->name] = v;
    metric_seconds[m->name] = seconds;
    if (sampled.points > 0) standard_errors[m->name] = sampled.standard_error;
  }
  const auto t2 = std::chrono::steady_clock::now();
  out.method_seconds = run.method_seconds;
  out.metrics_seconds = std::chrono::duration<double>(t2 - t1).count();
  json rec{{"trial", trial}};
  if (!secure) rec["seed"] = seed;
  rec["private_release"] = trial_private_release(info, run, data.non_private_notes);
  rec["metrics"] = std::move(metric_json);
  // A metric computed on a sample of the points (silhouette above `silhouette_sample`): the standard error of its
  // value.
  if (!standard_errors.empty()) rec["metric_standard_errors"] = std::move(standard_errors);
  // Released centres outside the public domain (core/centres_domain.hpp): recorded only where there were some.
  if (run.centres_outside > 0)
    rec["post_processing"] = {{"centres_outside_domain", run.centres_outside},
                              {"action", to_string(run.centres_policy)}};
  rec["diagnostics"] = res.diagnostics;
  rec["ledger"] = ledger.to_json();
  if (!selection.subsampled.is_null()) rec["ledger"]["subsampled"] = std::move(selection.subsampled);
  // Exact statistics of the true data: for the report, not private (docs/results.md: results schema).
  if (!res.evaluation.empty()) rec["evaluation"] = std::move(res.evaluation);
  if (cfg.save_release && !res.release.empty()) rec["release"] = std::move(res.release);
  if (cfg.save_labels) rec["labels"] = res.labels;
  rec["timing"] = {{"method_seconds", out.method_seconds},
                   {"metrics_seconds", out.metrics_seconds},
                   {"metric_seconds", std::move(metric_seconds)}};
  // The part of metrics_seconds that re-ran the mechanism (cross-validation folds), when a metric did.
  if (const auto rerun = metric_cache.find(kMechanismRerunSecondsKey); rerun != metric_cache.end())
    rec["timing"]["mechanism_rerun_seconds"] = std::any_cast<double>(rerun->second);
  out.record = std::move(rec);
  out.private_release = out.record["private_release"].get<bool>();
  out.non_private = std::move(res.non_private_notes);
  out.notes = std::move(res.notes);
  out.evaluation_only = std::move(run.evaluation_only);
  return out;
}

}  // namespace dpclust
