// A cell's side-information record and benchmark role; see side_inputs.hpp.
#include "run/side_inputs.hpp"

#include "catalog/catalog.hpp"
#include "core/side_information.hpp"

namespace dpclust {

DatasetSideInputs dataset_side_inputs(const DatasetSpec& spec, const Dataset& data) {
  DatasetSideInputs in;
  switch (data.bounds_source) {
    case BoundsSource::none:
      in.bounds = InputSource::none;
      in.bounds_how = "the dataset has no bounds";
      break;
    case BoundsSource::config:
      in.bounds = InputSource::public_value;
      in.bounds_how = spec.bounds_from_public_key
                          ? "the registry's public_bounds (bounds: public)"
                          : "a box given in the config or the registry entry (bounds: [[lo, hi], ...])";
      break;
    case BoundsSource::data:
      in.bounds = InputSource::data;
      in.bounds_how = "the data's bounding box (bounds: data, flagged)";
      break;
    case BoundsSource::data_as_paper:
      in.bounds = InputSource::data;
      in.bounds_how = "the data's exact bounding box as the paper quantises it (bounds_from_data, flagged)";
      break;
  }
  in.scaled_on_data = spec.scaling != Scaling::none;
  if (spec.scaling == Scaling::minmax)
    in.scaling_how = "every column mapped to [-1, 1] by the data's own min and max (scale: minmax)";
  in.tuned_on_data = spec.tuned_on_data;
  return in;
}

std::string dataset_family(const DatasetSpec& spec) {
  if (!spec.family.empty()) return spec.family;
  if (!spec.generator.empty()) return spec.generator;
  return spec.name;
}

void record_side_information(nlohmann::json& j, const ExperimentConfig& cfg, const Cell& cell, const Dataset& data) {
  const MethodInfo& info = *find_method(cell.method);
  const DatasetSpec& spec = cfg.datasets[cell.dataset_index];
  const std::vector<SideInputRecord> records = side_information(info, cell.params, dataset_side_inputs(spec, data));
  j["side_information"] = side_information_json(records);
  j["tuning"] = tuning_record(records);
  j["role"] = info.trivial_baseline ? "trivial_baseline" : info.differentially_private ? "private" : "non_private";
  if (!info.non_private_counterpart.empty()) j["counterpart"] = info.non_private_counterpart;
}

}  // namespace dpclust
