#pragma once
// Everything a config can name: methods, metrics and dataset generators. One explicit list each (no
// static-initialisation magic), so `dpclust list` and the validator see exactly what runs.
#include <functional>
#include <string>
#include <vector>

#include "core/dataset.hpp"
#include "core/method.hpp"
#include "core/method_folder.hpp"
#include "core/metric.hpp"
#include "core/params.hpp"

namespace dpclust {

// The method folders of engine/methods.cmake, in its order, with what each registers.
const std::vector<MethodFolder>& method_folders();
// The built-in methods (what `dpclust list` shows): every folder's, in that order.
const std::vector<MethodInfo>& all_methods();
// A built-in method, or else one registered at run time (below); nullptr when neither.
const MethodInfo* find_method(const std::string& name);
// Methods a config defines itself (`method: python`, config/python_method.hpp) are registered while
// the config is parsed, so that the grid, the runner, the audit and the fingerprints find them like any
// built-in method. Registering a name again replaces it for later lookups unless the definition is the
// same (then the existing entry is returned); entries are never freed, so a reference stays valid for
// the life of the process. Thread-safe.
const MethodInfo& register_runtime_method(MethodInfo info);

const std::vector<MetricInfo>& all_metrics();
const MetricInfo* find_metric(const std::string& name);

struct GeneratorInfo {
  std::string name;
  std::string summary;
  std::vector<ParamSpec> params;
  std::function<Dataset(const ParamSet&)> make;  // calls `check` first
  // What the single parameters' ranges cannot say (low < high, list lengths that must agree): throws
  // InputError whose where() is the offending key, with the fix. Run when the config is read
  // (config/dataset_entry.cpp), so `validate` refuses what `run` would. May be empty.
  std::function<void(const ParamSet&)> check;
};
const std::vector<GeneratorInfo>& all_generators();
const GeneratorInfo* find_generator(const std::string& name);

template <class Infos>
std::vector<std::string> names_of(const Infos& infos) {
  std::vector<std::string> out;
  for (const auto& i : infos) out.push_back(i.name);
  return out;
}

}  // namespace dpclust
