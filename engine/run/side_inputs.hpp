#pragma once
// Inside the run room: what a cell records of the public information its method was given (side information,
// core/side_information.hpp) and of its role in a benchmark (trivial baseline, non-private counterpart).
#include <nlohmann/json.hpp>

#include "config/config.hpp"
#include "config/grid.hpp"
#include "core/dataset.hpp"

namespace dpclust {

// The dataset's part of the side information: how its bounds were obtained (a config list, the registry's
// public_bounds, `bounds: data`, the paper's data box), whether it was standardised on itself, and the
// parameters its config entry declares tuned on the data.
DatasetSideInputs dataset_side_inputs(const DatasetSpec& spec, const Dataset& data);

// Adds to a cell's JSON: `side_information` (one record per input), `tuning` (oracle-tuned or not, and why),
// `role` (private | non_private | trivial_baseline) and `counterpart` (the declared non-private counterpart).
void record_side_information(nlohmann::json& cell_json, const ExperimentConfig& cfg, const Cell& cell,
                             const Dataset& data);

// The family of a dataset for the benchmark's win regions: its `family:`, else its generator's type, else its name.
std::string dataset_family(const DatasetSpec& spec);

}  // namespace dpclust
