#pragma once
// Typing YAML values against a ParamSpec: scalars, per-dimension vectors ({per_dim: [..]}), sweeps
// (a list) and ranges ({from, to, step}). Errors name the config location and the allowed values.
#include <vector>

#include "core/params.hpp"
#include "experiment/yaml_reader.hpp"

namespace dpclust {

// One value (no list). Checks type and range.
ParamValue parse_param_value(const yaml::Located& at, const ParamSpec& spec);
// A value or a sweep: a list gives one value per element; {from, to, step} gives the inclusive
// arithmetic range, each value rounded to 12 significant digits so 0.1 + 2*0.1 is written 0.3.
std::vector<ParamValue> parse_param_sweep(const yaml::Located& at, const ParamSpec& spec);

}  // namespace dpclust
