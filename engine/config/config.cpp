// Reading a config document (config.hpp); dataset entries and the audit section have files of their own
// (config_reading.hpp).
#include "config/config.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "catalog/catalog.hpp"
#include "config/config_reading.hpp"
#include "config/param_values.hpp"
#include "config/python_method.hpp"
#include "config/raw_params.hpp"
#include "core/files.hpp"
#include "core/rng.hpp"

namespace dpclust {
namespace fs = std::filesystem;
using yaml::Located;

std::uint64_t trial_seed(const ExperimentConfig& cfg, std::string_view cell_key, std::int64_t trial) {
  if (!cfg.seeds.empty()) return cfg.seeds.at(static_cast<std::size_t>(trial));
  return derive_seed(cfg.seed, cell_key, static_cast<std::uint64_t>(trial));
}

const std::vector<std::string> kTopKeys = {"experiment",
                                           "description",
                                           "seed",
                                           "seeds",
                                           "randomness",
                                           "trials",
                                           "threads",
                                           "datasets",
                                           "methods",
                                           "metrics",
                                           "params",
                                           "output",
                                           "audit",
                                           "baselines",
                                           "centres_outside_domain",
                                           "silhouette_sample",
                                           "silhouette_sampling"};
const std::vector<std::string> kMethodKeys = {"method", "as", "params", "zip", "centres_outside_domain"};
const std::vector<std::string> kOutputKeys = {"release", "points", "labels"};

// `centres_outside_domain: clamp | keep` (core/centres_domain.hpp), at the top level or in a method entry.
CentresOutsideDomain centres_outside_domain_of(const Located& at) {
  const std::string v = yaml::as_string(at);
  if (v == "clamp") return CentresOutsideDomain::clamp;
  if (v == "keep") return CentresOutsideDomain::keep;
  yaml::fail(at, "centres_outside_domain '" + yaml::clip(v) + "' is not clamp or keep",
             "clamp (the default: released centres outside the public domain moved into it) or keep (as the method "
             "released them)");
}

// `silhouette_sample: M | all`: the silhouette on M points of a larger dataset, or on every point.
std::size_t silhouette_sample_of(const Located& at) {
  const std::string allowed = "an integer in [3, 1000000] or all";
  const std::string fix =
      "2000 (the default) estimates it from about 2000 points, with its standard error; all scores every point "
      "(n^2 d / 2 operations a trial)";
  const std::string text = at.node.IsScalar() ? at.node.Scalar() : "";
  if (text == "all") return 0;
  if (text.empty() || text.find_first_not_of("0123456789+-.eE") != std::string::npos)
    yaml::fail(at, "silhouette_sample must be " + allowed + (text.empty() ? "" : ", got '" + yaml::clip(text) + "'"),
               fix);
  const std::int64_t m = as_whole_number(at, "silhouette_sample", allowed);
  if (m < 3 || m > kMaxSilhouetteSample)
    yaml::fail(at, "silhouette_sample must be " + allowed + ", got " + std::to_string(m), fix);
  return static_cast<std::size_t>(m);
}

// `silhouette_sampling: stratified | subset` (core/metric.hpp SilhouetteSampling).
SilhouetteSampling silhouette_sampling_of(const Located& at) {
  const std::string v = yaml::as_string(at);
  for (const auto& s : kSilhouetteSamplings)
    if (v == s.name) return s.kind;
  const std::string near = closest_match(v, names_of(kSilhouetteSamplings));
  yaml::fail(at, "silhouette_sampling '" + yaml::clip(v) + "' is not stratified or subset",
             (near.empty() ? "" : "did you mean '" + near + "'? ") +
                 "stratified (the default: every cluster in proportion, a small one whole, an estimate of the "
                 "silhouette on every "
                 "point) or subset (scikit-learn's sample_size: the silhouette of the sampled points alone, as DPM's "
                 "artifact)");
}

// config_reading.hpp: names become folder names.
void check_name(const Located& at, const std::string& name, const std::string& what, const std::string& extra) {
  if (name.empty()) yaml::fail(at, what + " is empty", "give it a name of letters, digits, " + extra);
  if (name.size() > kMaxNameLength)
    yaml::fail(at,
               what + " '" + yaml::clip(name, 40) + "' has " + std::to_string(name.size()) + " characters; at most " +
                   std::to_string(kMaxNameLength) + " are allowed",
               "use a shorter name (it names a results folder)");
  if (name == "." || name == "..")  // "." would write into the results root itself, ".." above it
    yaml::fail(at, what + " '" + name + "' names no folder of its own",
               "give it a name with a letter or digit, e.g. run1");
  for (unsigned char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    (c != ' ' && extra.find(static_cast<char>(c)) != std::string::npos);  // extra: "_ . -"
    if (!ok)
      yaml::fail(at, what + " '" + yaml::clip(name) + "' has characters other than letters, digits, " + extra,
                 "it names a results folder");
  }
}

std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

namespace {

// `trials` and `seeds`: a paper's own seeds are used as they are (docs/results.md "Seeds and randomness").
void parse_trials_and_seeds(const Located& root, ExperimentConfig& cfg) {
  if (root.has("seed")) cfg.seed = yaml::as_uint(root.child("seed"));
  if (root.has("trials")) {
    cfg.trials = as_whole_number(root.child("trials"), "trials", "an integer in [1, 1000000]");
    if (cfg.trials < 1 || cfg.trials > kMaxTrials)
      yaml::fail(root.child("trials"), "trials must be >= 1 and <= 1000000, got " + std::to_string(cfg.trials),
                 "use fewer trials: the 95% interval narrows with sqrt(trials), so 1e6 is far beyond any use");
  }
  if (!root.has("seeds")) return;
  // numpy's RandomState takes 0 .. 2^32 - 1, and the methods offering its stream seed it with the trial's seed, so
  // that is the range.
  auto list = root.child("seeds");
  yaml::expect_sequence(list);
  if (list.node.size() == 0 || list.node.size() > static_cast<std::size_t>(kMaxTrials))
    yaml::fail(list, "seeds must list 1 to 1000000 seeds", "e.g. seeds: [0, 1, 2]");
  for (std::size_t i = 0; i < list.node.size(); ++i) {
    const std::uint64_t s = yaml::as_uint(list.item(i));
    if (s > 0xFFFFFFFFull)
      yaml::fail(list.item(i), "a listed seed must be in [0, 4294967295] (numpy's RandomState range)");
    if (std::find(cfg.seeds.begin(), cfg.seeds.end(), s) != cfg.seeds.end())
      yaml::fail(list.item(i), "seed " + std::to_string(s) + " is listed twice",
                 "list each seed once: trials would repeat");
    cfg.seeds.push_back(s);
  }
  const auto listed = static_cast<std::int64_t>(cfg.seeds.size());
  if (root.has("trials") && cfg.trials != listed)
    yaml::fail(root.child("trials"),
               "trials: " + std::to_string(cfg.trials) + " but seeds lists " + std::to_string(listed) + " seeds",
               "remove trials: (one trial per listed seed) or make the two agree");
  if (root.has("seed"))
    yaml::fail(root.child("seed"),
               "seed and seeds are both given; with seeds, trial t uses seeds[t] and seed is unused",
               "remove one of them");
  cfg.trials = listed;
}

// `randomness: seeded | secure`. A secure run has no seed: one written in the config would be unused, and would be
// copied into the results with the config's text.
void parse_randomness_key(const Located& root, ExperimentConfig& cfg) {
  const Located r = root.child("randomness");
  const std::string mode = yaml::as_string(r);
  if (mode != "seeded" && mode != "secure") {
    const std::string s = closest_match(mode, std::vector<std::string>{"seeded", "secure"});
    yaml::fail(r, "randomness must be seeded or secure, got '" + yaml::clip(mode) + "'",
               (s.empty() ? "" : "did you mean '" + s + "'? ") +
                   "seeded: reproducible (the paper sweeps), the seed is published so not a secure release; secure: "
                   "noise from "
                   "the OS CSPRNG, no seed, not reproducible");
  }
  cfg.randomness = parse_randomness(mode, r.where());
  for (const char* key : {"seed", "seeds"})
    if (cfg.randomness == Randomness::secure && root.has(key))
      yaml::fail(
          root.child(key),
          std::string("randomness: secure draws from the OS CSPRNG and uses no seed; '") + key + "' would be unused",
          std::string("remove ") + key + ", or use randomness: seeded to reproduce a run");
}

// The run's own keys: its name, description, seeds and randomness, audit, threads and what it writes.
void parse_run_keys(const Located& root, ExperimentConfig& cfg) {
  if (!root.has("experiment"))
    yaml::fail(root, "missing 'experiment' (the experiment's name)", "add experiment: my_sweep");
  cfg.name = yaml::as_string(root.child("experiment"));
  check_name(root.child("experiment"), cfg.name, "experiment name", "_ . -");
  if (root.has("description")) cfg.description = yaml::as_string(root.child("description"));
  if (root.has("centres_outside_domain"))
    cfg.centres_outside_domain = centres_outside_domain_of(root.child("centres_outside_domain"));
  if (root.has("silhouette_sample"))
    cfg.evaluation.silhouette_sample = silhouette_sample_of(root.child("silhouette_sample"));
  if (root.has("silhouette_sampling"))
    cfg.evaluation.silhouette_sampling = silhouette_sampling_of(root.child("silhouette_sampling"));
  parse_trials_and_seeds(root, cfg);
  if (root.has("randomness")) parse_randomness_key(root, cfg);
  if (root.has("audit")) cfg.audit = parse_audit(root.child("audit"));
  if (root.has("threads")) {
    const std::int64_t t = as_whole_number(root.child("threads"), "threads", "an integer in [1, 1024]");
    if (t < 1 || t > 1024) yaml::fail(root.child("threads"), "threads must be in [1, 1024], got " + std::to_string(t));
    cfg.threads = static_cast<int>(t);
  }
  if (root.has("output")) {
    auto o = root.child("output");
    yaml::check_keys(o, kOutputKeys);
    if (o.has("release")) cfg.save_release = yaml::as_bool(o.child("release"));
    if (o.has("points")) cfg.save_points = yaml::as_bool(o.child("points"));
    if (o.has("labels")) cfg.save_labels = yaml::as_bool(o.child("labels"));
  }
}

void parse_datasets(const Located& root, const fs::path& base_dir, const fs::path& data_root, ExperimentConfig& cfg,
                    RawParamLevels& raw) {
  if (!root.has("datasets")) yaml::fail(root, "missing 'datasets'", "list at least one dataset, e.g. - name: moons");
  auto ds = root.child("datasets");
  yaml::expect_sequence(ds);
  if (ds.node.size() == 0) yaml::fail(ds, "empty dataset list", "list at least one dataset");
  for (std::size_t i = 0; i < ds.node.size(); ++i) {
    RawParams raw_params;
    DatasetSpec d = resolve_dataset(ds.item(i), base_dir, data_root, raw_params);
    raw.datasets.push_back(std::move(raw_params));
    for (const auto& other : cfg.datasets)
      if (other.name == d.name)
        yaml::fail(ds.item(i).child("name"), "dataset name '" + yaml::clip(d.name) + "' is used twice");
    cfg.datasets.push_back(std::move(d));
  }
}

// A method entry written as its name alone: "- dbscan".
MethodSpec parse_method_shorthand(const Located& m) {
  MethodSpec spec;
  spec.method = spec.label = m.node.Scalar();
  spec.where = m.where();
  if (!find_method(spec.method)) {
    std::string s = closest_match(spec.method, names_of(all_methods()));
    yaml::fail(m, "unknown method '" + yaml::clip(spec.method) + "'",
               (s.empty() ? "" : "did you mean '" + s + "'? ") + "methods: " + join(names_of(all_methods())));
  }
  return spec;
}

// `zip`: groups of the entry's parameters swept together, value by value.
void parse_zip(const Located& z, const RawParams& method_raw, MethodSpec& spec) {
  yaml::expect_sequence(z);
  for (std::size_t g = 0; g < z.node.size(); ++g) {
    auto group = yaml::as_string_list(z.item(g));
    if (group.size() < 2) yaml::fail(z.item(g), "a zip group needs at least two parameter names");
    for (const auto& p : group)
      if (!method_raw.count(p))
        yaml::fail(z.item(g), "zip names '" + yaml::clip(p) + "', which is not set in this method's params");
    spec.zip.push_back(group);
  }
}

// A method entry as a map: method (or `method: python` with its callable), as, params, zip, centres_outside_domain.
MethodSpec parse_method_entry(const Located& m, const fs::path& base_dir, RawParams& method_raw) {
  MethodSpec spec;
  spec.where = m.where();
  if (!m.has("method")) yaml::fail(m, "missing 'method'", "methods: " + join(names_of(all_methods())) + ", python");
  spec.method = yaml::as_string(m.child("method"));
  // `method: python`: a callable declared in the entry, registered under "python:<callable>"
  // (python_method.hpp); its series name defaults to the function's name.
  const bool python = spec.method == "python";
  std::vector<std::string> keys = kMethodKeys;
  if (python) keys.insert(keys.end(), python_method_keys().begin(), python_method_keys().end());
  yaml::check_keys(m, keys);
  std::string default_label = spec.method;
  if (python) {
    spec.method = declare_python_method(m, base_dir).name;
    default_label = python_function_name(yaml::as_string(m.child("callable")));
  }
  const MethodInfo* info = find_method(spec.method);
  if (!info) {
    std::string s = closest_match(spec.method, names_of(all_methods()));
    yaml::fail(m.child("method"), "unknown method '" + yaml::clip(spec.method) + "'",
               (s.empty() ? "" : "did you mean '" + s + "'? ") + "methods: " + join(names_of(all_methods())) +
                   ", python (a Python callable: docs/python.md)");
  }
  spec.label = m.has("as") ? yaml::as_string(m.child("as")) : default_label;
  if (m.has("centres_outside_domain"))
    spec.centres_outside_domain = centres_outside_domain_of(m.child("centres_outside_domain"));
  if (m.has("params")) {
    auto ps = m.child("params");
    std::vector<std::string> allowed = names_of(info->params);
    yaml::check_keys(ps, allowed);
    for (auto it = ps.node.begin(); it != ps.node.end(); ++it) {
      std::string key = it->first.as<std::string>();
      method_raw.emplace(key, ps.child(key));
    }
  }
  if (m.has("zip")) parse_zip(m.child("zip"), method_raw, spec);
  return spec;
}

void parse_methods(const Located& root, const fs::path& base_dir, ExperimentConfig& cfg, RawParamLevels& raw) {
  if (!root.has("methods")) yaml::fail(root, "missing 'methods'", "list at least one method, e.g. - method: dbscan");
  auto ms = root.child("methods");
  yaml::expect_sequence(ms);
  if (ms.node.size() == 0) yaml::fail(ms, "empty method list", "list at least one method");
  for (std::size_t i = 0; i < ms.node.size(); ++i) {
    Located m = ms.item(i);
    if (m.node.IsScalar()) {
      cfg.methods.push_back(parse_method_shorthand(m));
      raw.methods.emplace_back();
      continue;
    }
    RawParams method_raw;
    MethodSpec spec = parse_method_entry(m, base_dir, method_raw);
    for (const auto& other : cfg.methods)
      if (other.label == spec.label)
        yaml::fail(m, "two methods are both called '" + yaml::clip(spec.label) + "'",
                   "give one of them a distinct name with as: <name>");
    cfg.methods.push_back(std::move(spec));
    raw.methods.push_back(std::move(method_raw));
  }
}

// `metrics`: known names, each applying to at least one listed method.
void parse_metrics(const Located& root, ExperimentConfig& cfg) {
  if (root.has("metrics")) {
    auto mt = root.child("metrics");
    cfg.metrics = yaml::as_string_list(mt);
    if (cfg.metrics.empty()) yaml::fail(mt, "empty metric list", "omit 'metrics' to use every metric that applies");
    for (const auto& name : cfg.metrics)
      if (!find_metric(name)) {
        std::string s = closest_match(name, names_of(all_metrics()));
        yaml::fail(mt, "unknown metric '" + yaml::clip(name) + "'",
                   (s.empty() ? "" : "did you mean '" + s + "'? ") + "metrics: " + join(names_of(all_metrics())));
      }
  }
  for (const auto& name : cfg.metrics) {
    const MetricInfo* m = find_metric(name);
    bool applies = false;
    for (const auto& method : cfg.methods) applies = applies || m->applies_to(*find_method(method.method));
    if (!applies) {
      std::string list;
      for (const auto& x : all_methods())
        if (m->applies_to(x)) list += (list.empty() ? "" : ", ") + x.name;
      if (m->needs_centres)
        yaml::fail(root.child("metrics"),
                   "metric '" + name +
                       "' reads the centres a method releases, and none of the listed methods releases centres",
                   "add a method that does (" + list + ") or drop '" + name + "' from metrics");
      yaml::fail(root.child("metrics"), "metric '" + name + "' applies to none of the listed methods",
                 "it is computed for: " + list);
    }
  }
}

// A dataset's tuned_on_data names parameters of the listed methods (a misspelt one would label nothing).
void check_tuned_on_data(const Located& root, const ExperimentConfig& cfg) {
  for (std::size_t i = 0; i < cfg.datasets.size(); ++i)
    for (const auto& [param, how] : cfg.datasets[i].tuned_on_data) {
      bool declared = false;
      for (const auto& method_spec : cfg.methods)
        for (const auto& p : find_method(method_spec.method)->params) declared = declared || p.name == param;
      if (!declared)
        yaml::fail(
            root.child("datasets").item(i).child("tuned_on_data"),
            "tuned_on_data names '" + yaml::clip(param) + "', a parameter none of the listed methods declares",
            "name the parameters chosen by looking at the data (alpha, min_pts, k, g, ...) as the methods call them");
    }
}

ExperimentConfig parse_config_checked(const std::string& text, const std::string& file_label, const fs::path& base_dir,
                                      const fs::path& data_root, std::uint64_t max_cells) {
  ExperimentConfig cfg;
  RawParamLevels raw;  // the `params:` of every level as written, typed by type_params() at the end
  cfg.file = file_label;
  cfg.text = text;
  cfg.data_root = data_root;
  Located root{yaml::load_string(text, file_label), file_label, ""};
  if (!root.node || root.node.IsNull())
    throw InputError(file_label, "the config is empty", "see configs/README or docs/config.md");
  yaml::check_keys(root, kTopKeys);
  parse_run_keys(root, cfg);
  parse_datasets(root, base_dir, data_root, cfg, raw);
  parse_methods(root, base_dir, cfg, raw);
  // Trivial baseline and non-private counterparts (docs/benchmark.md), before the metrics are checked against
  // the methods and before anything is typed: they are methods like the listed ones from here on.
  if (root.has("baselines")) {
    cfg.baselines = yaml::as_bool(root.child("baselines"));
    if (cfg.baselines) add_baselines(cfg, raw, root.child("baselines"));
  }
  parse_metrics(root, cfg);
  // Experiment-wide parameters.
  if (root.has("params")) {
    auto ps = root.child("params");
    yaml::expect_map(ps);
    for (auto it = ps.node.begin(); it != ps.node.end(); ++it) {
      std::string key = it->first.as<std::string>();
      raw.experiment.emplace(key, ps.child(key));
    }
  }
  check_tuned_on_data(root, cfg);
  // Parse once: every parameter typed against its ParamSpec here, after the cell count; the YAML nodes
  // end with this function.
  type_params(cfg, raw, max_cells);
  cfg.max_cells = max_cells;
  return cfg;
}

}  // namespace

ExperimentConfig parse_config(const std::string& text, const std::string& file_label, const fs::path& base_dir,
                              const fs::path& data_root, std::uint64_t max_cells) {
  try {
    return parse_config_checked(text, file_label, base_dir, data_root, max_cells);
  } catch (const YAML::Exception& e) {
    // Every read goes through yaml_reader's checked helpers; this is the net for one that does not, so
    // that yaml-cpp's "invalid node" / "bad conversion" never reaches the user without a location.
    throw InputError(
        file_label +
            (e.mark.line >= 0 ? ":" + std::to_string(e.mark.line + 1) + ":" + std::to_string(e.mark.column + 1) : ""),
        "unexpected YAML structure: " + yaml::clip(e.msg),
        "check this entry against the config schema in docs/config.md");
  }
}

ExperimentConfig load_config(const fs::path& file, const fs::path& data_root, std::uint64_t max_cells) {
  if (!fs::exists(file)) throw InputError(file.string(), "config file not found", "check the path");
  yaml::check_file_size(file.string());
  std::string text = read_text_file(file);
  fs::path base = fs::absolute(file).parent_path();
  return parse_config(text, file.string(), base, data_root, max_cells);
}

}  // namespace dpclust
