#pragma once
// Inside the config room only: method parameters as written in YAML, before type_params() reads each of
// them once into a typed ParamSource (config.hpp). No header outside engine/config includes this one.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "config/yaml_reader.hpp"

namespace dpclust {

// A level's `params:` as written (a scalar, a list = sweep, or a {from, to, step} range).
using RawParams = std::map<std::string, yaml::Located>;

// The config's parameters as written, level by level (datasets and methods in config order).
struct RawParamLevels {
  RawParams experiment;
  std::vector<RawParams> datasets;
  std::vector<RawParams> methods;
};

// Types every parameter of every level against the ParamSpec of each listed method that declares it and
// stores the results in cfg (DatasetSpec/MethodSpec/ExperimentConfig::params). In this order, so that the
// first problem is the one reported: a parameter at experiment or dataset level that no listed method
// declares; the cell count from the sweeps' lengths alone against max_cells (a config of a few hundred
// bytes can describe 10^12 cells, and nothing is typed before it is counted); then the values.
void type_params(ExperimentConfig& cfg, const RawParamLevels& raw, std::uint64_t max_cells);

}  // namespace dpclust
