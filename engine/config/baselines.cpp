// `baselines: true`: the trivial baseline and the non-private counterparts added to a config's methods; see
// config_reading.hpp and docs/benchmark.md.
#include <algorithm>
#include <map>
#include <set>

#include "catalog/catalog.hpp"
#include "config/config_reading.hpp"

namespace dpclust {

namespace {

bool listed(const ExperimentConfig& cfg, const std::string& method) {
  return std::any_of(cfg.methods.begin(), cfg.methods.end(), [&](const MethodSpec& m) { return m.method == method; });
}

bool label_taken(const ExperimentConfig& cfg, const std::string& label) {
  return std::any_of(cfg.methods.begin(), cfg.methods.end(), [&](const MethodSpec& m) { return m.label == label; });
}

std::string free_label(const ExperimentConfig& cfg, std::string label) {
  while (label_taken(cfg, label)) label += "_baseline";
  return label;
}

// The parameters of a method entry that `target` declares, as written: what the counterpart inherits (k for
// kmeans, alpha and min_pts for dbscan, g and p for wavecluster), so that it runs on the same settings.
RawParams inherited(const RawParams& from, const MethodInfo& target) {
  RawParams out;
  for (const auto& [key, node] : from)
    for (const auto& spec : target.params)
      if (spec.name == key && key != "epsilon" && key != "delta" && key != "sampler") out.emplace(key, node);
  return out;
}

std::string canonical(const RawParams& p) {
  std::string s;
  for (const auto& [key, node] : p) s += key + "=" + node_to_json(node.node).dump() + ";";
  return s;
}

bool level_sets(const RawParams& level, const std::string& key) { return level.count(key) > 0; }

}  // namespace

void add_baselines(ExperimentConfig& cfg, RawParamLevels& raw, const yaml::Located& at) {
  const std::size_t listed_methods = cfg.methods.size();
  bool any_private = false;
  // Non-private counterparts: one entry per counterpart and distinct set of inherited parameters.
  std::map<std::string, std::vector<std::string>> added;  // counterpart -> canonical parameter sets already added
  for (std::size_t i = 0; i < listed_methods; ++i) {
    const MethodInfo& info = *find_method(cfg.methods[i].method);
    if (!info.differentially_private || info.trivial_baseline) continue;
    any_private = true;
    if (info.non_private_counterpart.empty() ||
        (listed(cfg, info.non_private_counterpart) && !added.count(info.non_private_counterpart)))
      continue;
    const MethodInfo& counterpart = *find_method(info.non_private_counterpart);
    RawParams params = inherited(raw.methods[i], counterpart);
    for (const auto& [name, value] : counterpart.as_ceiling)
      params.emplace(name, yaml::Located(YAML::Node(value), at.file, at.path));
    const std::string key = canonical(params);
    auto& seen = added[counterpart.name];
    if (std::find(seen.begin(), seen.end(), key) != seen.end()) continue;
    MethodSpec spec;
    spec.method = counterpart.name;
    spec.label = free_label(cfg, seen.empty() ? counterpart.name : counterpart.name + "_for_" + cfg.methods[i].label);
    spec.where = at.where();
    for (const auto& group : cfg.methods[i].zip)
      if (std::all_of(group.begin(), group.end(), [&](const std::string& p) { return params.count(p) > 0; }))
        spec.zip.push_back(group);
    seen.push_back(key);
    cfg.methods.push_back(std::move(spec));
    raw.methods.push_back(std::move(params));
  }
  if (!any_private)
    yaml::fail(at, "baselines: true, but no listed method is private", "list a private method, or remove baselines");
  // The trivial baseline: k from the experiment's or the datasets' params, else from the first private entry
  // that sets it.
  const MethodInfo& trivial = *find_method("uniform_centres");
  if (listed(cfg, trivial.name)) return;
  RawParams params;
  bool k_given = level_sets(raw.experiment, "k");
  for (const auto& d : raw.datasets) k_given = k_given || level_sets(d, "k");
  if (!k_given) {
    for (std::size_t i = 0; i < listed_methods && params.empty(); ++i)
      if (find_method(cfg.methods[i].method)->differentially_private && level_sets(raw.methods[i], "k"))
        params.emplace("k", raw.methods[i].at("k"));
    if (params.empty())
      yaml::fail(at,
                 "baselines: true needs the number of centres k for the trivial baseline (uniform_centres), and no "
                 "level sets k",
                 "set k for the datasets (params: {k: ...}) or the experiment; it is public information every k-taking "
                 "method is given too");
  }
  MethodSpec spec;
  spec.method = trivial.name;
  spec.label = free_label(cfg, trivial.name);
  spec.where = at.where();
  cfg.methods.push_back(std::move(spec));
  raw.methods.push_back(std::move(params));
}

}  // namespace dpclust
