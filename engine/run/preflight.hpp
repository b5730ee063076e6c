#pragma once
// Everything a run checks before its first trial, for every cell at once: each dataset found
// and loaded (string attributes, bad rows, out-of-domain points), each cell's parameters against the
// loaded shape (the method's check_shape, its metrics' prerequisites), and each cell's estimated memory
// against the limit, with the parameter and value that bring it under. `validate` prints every problem
// and exits 2; `run` refuses on any problem before touching the output, or with --keep-going runs the
// other cells and records each blocked one with its reason and fix.
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "config/grid.hpp"
#include "core/dataset.hpp"
#include "core/error.hpp"
#include "core/metric.hpp"
#include "loading/cost_model.hpp"

namespace dpclust {

struct Preflight {
  std::vector<std::optional<Dataset>> data;  // per dataset of the config: loaded (when asked and it loads)
  // Per cell index: the problem that keeps it from running (absent: it can run).
  std::map<std::size_t, InputError> blocked;
  std::vector<std::vector<const MetricInfo*>> metrics;  // per cell index: its metrics (cells that can run)
  ProblemList problems;                                 // every problem, each said once
  RunCost cost;                                         // on the loaded shapes where known
  std::vector<std::string> notes;                       // slow trials (not problems)
};

// `cells` are the cells to check (a run's pending cells; every cell for validate). With load_data false only
// what the config says of each dataset's shape is checked (validate --no-load-data).
Preflight preflight(const ExperimentConfig& cfg, const std::vector<const Cell*>& cells, bool load_data,
                    const RunLimits& limits);

}  // namespace dpclust
