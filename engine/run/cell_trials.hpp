#pragma once
// Inside the run room: what one cell of a run needs besides the runner's scheduling (runner.cpp) -- its
// metrics, the checks before its first trial, one trial as `dpclust run` records it, and the cell's JSON
// once its last trial is done.
#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "config/grid.hpp"
#include "core/dataset.hpp"
#include "core/metric.hpp"

namespace dpclust {

// The metrics a cell computes: the configured ones (or all) that apply to its method, checked against
// the dataset (labels needed?).
std::vector<const MetricInfo*> resolve_metrics(const ExperimentConfig& cfg, const Cell& cell, const Dataset& data);

// Everything a cell's trials would refuse, checked on the loaded data before any trial runs: public
// bounds, the method's shape checks on the exact shape, the metrics' needs.
void check_prerequisites(const ExperimentConfig& cfg, const Cell& cell, const Dataset& data);

// One trial's record and the numbers the cell aggregates.
struct TrialOutcome {
  nlohmann::json record;
  std::vector<double> metric_values;
  std::vector<double> metric_seconds;        // each metric's own time, in the order of metric_values
  std::vector<SampledValue> metric_samples;  // each metric's sample (points 0: on every point)
  double method_seconds = 0;
  double metrics_seconds = 0;
  std::vector<std::string> non_private;
  std::vector<std::string> evaluation_only;
  std::vector<std::string> notes;  // MethodResult::notes
  bool private_release = false;
};

// Trial `trial` of a cell: the trial of single_trial.hpp (seeded as the config says, or secure), scored
// by `metrics`, recorded as results.json's trial entry. `dataset_cache`: the run's cache for `data`
// (core/metric.hpp), shared by the trials of every cell on it; nullptr = nothing reused.
TrialOutcome run_trial(const ExperimentConfig& cfg, const Cell& cell, const Dataset& data,
                       const std::vector<const MetricInfo*>& metrics, std::int64_t trial, double noise_scale,
                       DatasetCache* dataset_cache = nullptr);

// The cell's JSON (cells/<id>.json): its trials, aggregates, flags and provenance. Moves the trials' records.
nlohmann::json build_cell_json(int threads, const ExperimentConfig& cfg, const Cell& cell, const Dataset& data,
                               const std::vector<const MetricInfo*>& metrics, std::vector<TrialOutcome>& trials);

}  // namespace dpclust
