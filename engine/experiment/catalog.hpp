#pragma once
// Everything a config can name: methods, metrics and dataset generators. One explicit list each (no
// static-initialisation magic), so `dpclust list` and the validator see exactly what runs.
#include <functional>
#include <string>
#include <vector>

#include "core/dataset.hpp"
#include "core/method.hpp"
#include "core/metric.hpp"
#include "core/params.hpp"

namespace dpclust {

const std::vector<MethodInfo>& all_methods();
const MethodInfo* find_method(const std::string& name);

const std::vector<MetricInfo>& all_metrics();
const MetricInfo* find_metric(const std::string& name);

struct GeneratorInfo {
  std::string name;
  std::string summary;
  std::vector<ParamSpec> params;
  std::function<Dataset(const ParamSet&)> make;
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
