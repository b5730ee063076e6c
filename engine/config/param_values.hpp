#pragma once
// Typing YAML values against a ParamSpec: scalars, per-dimension vectors ({per_dim: [..]}), sweeps
// (a list) and ranges ({from, to, step}). Errors name the config location and the allowed values.
#include <cstdint>
#include <string>
#include <vector>

#include "config/param_checks.hpp"  // check_param_value: the same check for values that did not come from YAML
#include "config/yaml_reader.hpp"
#include "core/params.hpp"

namespace dpclust {

// An integer written as digits or as a whole number in another notation (1e6, 1.0e3); the message for a
// fraction or a number beyond int64 names `key` and `allowed` ("an integer in [1, 10000]").
std::int64_t as_whole_number(const yaml::Located& at, const std::string& key, const std::string& allowed);
// One value (no list). Checks type and range.
ParamValue parse_param_value(const yaml::Located& at, const ParamSpec& spec);
// A value or a sweep: a list gives one value per element; {from, to, step} gives the inclusive
// arithmetic range, each value rounded to 12 significant digits so 0.1 + 2*0.1 is written 0.3.
std::vector<ParamValue> parse_param_sweep(const yaml::Located& at, const ParamSpec& spec);
// The number of values parse_param_sweep would give, without typing any of them (a list's length, a
// range's count after its checks, 1 for a scalar): the grid counts its cells before expanding.
std::size_t sweep_length(const yaml::Located& at, const ParamSpec& spec);

}  // namespace dpclust
