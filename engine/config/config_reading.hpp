#pragma once
// Inside the config room only: the pieces of reading a config, one file each.
//   config.cpp         the document: top-level keys, methods, metrics, output, then type_params (grid.cpp)
//   dataset_entry.cpp  a dataset entry: inline (file or generator) or from the registry with overrides
//   audit_section.cpp  the `audit:` section
// The key lists are public (config_keys.hpp) so that docs/config.md can be checked against them.
#include <filesystem>
#include <string>
#include <vector>

#include "config/config.hpp"
#include "config/config_keys.hpp"
#include "config/raw_params.hpp"
#include "config/yaml_reader.hpp"

namespace dpclust {

// Names become folder names: letters, digits and `extra`, at most kMaxNameLength characters. (A plain
// loop: std::regex_match recurses per character and overflows the stack on a 40,000-character name.)
inline constexpr std::size_t kMaxNameLength = 200;
void check_name(const yaml::Located& at, const std::string& name, const std::string& what, const std::string& extra);
// "a, b, c".
std::string join(const std::vector<std::string>& v);

// A config dataset entry: inline, or a registry entry ("use", or its own name) with the entry's keys
// overriding it. Its `params:` go to raw_params (typed later, with every other level's).
DatasetSpec resolve_dataset(const yaml::Located& at, const std::filesystem::path& base_dir,
                            const std::filesystem::path& data_root, RawParams& raw_params);

// A YAML node as JSON (scalars as strings): a dataset's definition, and the canonical form of a parameter's value.
nlohmann::json node_to_json(const YAML::Node& n);

// `baselines: true` (baselines.cpp, docs/benchmark.md): appends to cfg.methods (and raw.methods) the trivial
// baseline uniform_centres and the non-private counterpart of every listed private method, unless a method
// of that name is listed; `at` is the `baselines` key, for messages.
void add_baselines(ExperimentConfig& cfg, RawParamLevels& raw, const yaml::Located& at);

// `audit:` (docs/privacy.md "Privacy audit"). Pair names are checked against the method's relation by the audit.
AuditConfig parse_audit(const yaml::Located& at);

}  // namespace dpclust
