#include "config/config.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "core/files.hpp"
#include "core/rng.hpp"
#include "catalog/catalog.hpp"
#include "config/param_values.hpp"
#include "config/python_method.hpp"
#include "config/raw_params.hpp"

namespace dpclust {
namespace fs = std::filesystem;
using yaml::Located;

std::uint64_t trial_seed(const ExperimentConfig& cfg, std::string_view cell_key, std::int64_t trial) {
  if (!cfg.seeds.empty()) return cfg.seeds.at(static_cast<std::size_t>(trial));
  return derive_seed(cfg.seed, cell_key, static_cast<std::uint64_t>(trial));
}

// $DPCLUST_REGISTRY replaces the project's registry (a site's own list of datasets, or a test's).
fs::path registry_path() {
  if (const char* env = std::getenv("DPCLUST_REGISTRY"); env && *env) return fs::path(env);
  return fs::path(build_info().source_dir) / "datasets" / "registry.yaml";
}

static const std::vector<std::string> kTopKeys = {"experiment", "description", "seed", "seeds", "randomness", "trials",
                                                  "threads", "datasets", "methods", "metrics", "params", "output", "audit"};
static const std::vector<std::string> kDatasetKeys = {
    "name", "use", "file", "data_file", "format", "columns", "label", "delimiter", "header", "max_rows",
    "generator", "fallback", "project", "bounds", "clip_to_bounds", "scale", "sample", "sample_seed",
    "params", "reference", "description",
    "bounds_from_data", "public_bounds",  // DS1-DS3: the paper's data-derived box, and a public one
    "missing"};                           // csv/tsv: `drop` rows with an empty coordinate value
static const std::vector<std::string> kMethodKeys = {"method", "as", "params", "zip"};

// Names become folder names: letters, digits and `extra`, at most kMaxNameLength characters. (A plain
// loop: std::regex_match recurses per character and overflows the stack on a 40,000-character name.)
static constexpr std::size_t kMaxNameLength = 200;
static void check_name(const Located& at, const std::string& name, const std::string& what, const std::string& extra) {
  if (name.empty()) yaml::fail(at, what + " is empty", "give it a name of letters, digits, " + extra);
  if (name.size() > kMaxNameLength)
    yaml::fail(at, what + " '" + yaml::clip(name, 40) + "' has " + std::to_string(name.size()) + " characters; at most " +
                       std::to_string(kMaxNameLength) + " are allowed",
               "use a shorter name (it names a results folder)");
  if (name == "." || name == "..")  // "." would write into the results root itself, ".." above it
    yaml::fail(at, what + " '" + name + "' names no folder of its own", "give it a name with a letter or digit, e.g. run1");
  for (unsigned char c : name) {
    const bool ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                    (c != ' ' && extra.find(static_cast<char>(c)) != std::string::npos);  // extra: "_ . -"
    if (!ok) yaml::fail(at, what + " '" + yaml::clip(name) + "' has characters other than letters, digits, " + extra,
                        "it names a results folder");
  }
}

// `audit:` (docs/privacy.md "Privacy audit"). Pair names are checked against the method's relation by the audit.
static AuditConfig parse_audit(const Located& at) {
  yaml::check_keys(at, {"runs", "pilot_runs", "confidence", "pairs", "seed", "local_distance", "features_per_criterion"});
  AuditConfig a;
  auto bounded_uint = [&](const char* key, std::uint64_t lo, std::uint64_t hi) {
    const std::uint64_t v = yaml::as_uint(at.child(key));
    if (v < lo || v > hi)
      yaml::fail(at.child(key), std::string(key) + " must be in [" + std::to_string(lo) + ", " + std::to_string(hi) + "], got " +
                                    std::to_string(v));
    return v;
  };
  if (at.has("runs")) a.runs = bounded_uint("runs", 200, 100'000'000);
  if (at.has("pilot_runs")) a.pilot_runs = bounded_uint("pilot_runs", 20, 1'000'000);
  if (at.has("seed")) a.seed = yaml::as_uint(at.child("seed"));
  if (at.has("features_per_criterion")) a.features_per_criterion = bounded_uint("features_per_criterion", 1, 1000);
  if (at.has("confidence")) {
    a.confidence = yaml::as_double(at.child("confidence"));
    if (!(a.confidence >= 0.5 && a.confidence < 1))
      yaml::fail(at.child("confidence"), "confidence must be in [0.5, 1)", "e.g. confidence: 0.95");
  }
  if (at.has("local_distance")) {
    a.local_distance = yaml::as_double(at.child("local_distance"));
    if (!(a.local_distance > 0)) yaml::fail(at.child("local_distance"), "local_distance must be > 0");
  }
  if (at.has("pairs")) {
    auto list = at.child("pairs");
    yaml::expect_sequence(list);
    for (std::size_t i = 0; i < list.node.size(); ++i) {
      auto item = list.item(i);
      AuditPairConfig p;
      p.where = item.where();
      if (item.node.IsScalar()) {
        p.name = yaml::as_string(item);
      } else {
        yaml::check_keys(item, {"name", "add", "remove", "with"});
        if (!item.has("name")) yaml::fail(item, "a config pair needs a name", "e.g. {name: far_point, add: [9.5, 9.5]}");
        p.name = yaml::as_string(item.child("name"));
        const bool add = item.has("add"), remove = item.has("remove"), with = item.has("with");
        if (add + remove != 1 || (with && !remove))
          yaml::fail(item, "a config pair is {name, add: [x...]}, {name, remove: INDEX} or {name, remove: INDEX, with: [x...]}");
        auto coords = [&](const Located& c) {
          yaml::expect_sequence(c);
          std::vector<double> v;
          for (std::size_t j = 0; j < c.node.size(); ++j) v.push_back(yaml::as_double(c.item(j)));
          return v;
        };
        if (add) p.add = coords(item.child("add"));
        if (remove) p.remove = static_cast<std::size_t>(yaml::as_uint(item.child("remove")));
        if (with) p.add = coords(item.child("with"));
      }
      check_name(item.node.IsScalar() ? item : item.child("name"), p.name, "pair name", "_ . -");
      for (const auto& q : a.pairs)
        if (q.name == p.name) yaml::fail(item, "pair '" + p.name + "' is listed twice");
      a.pairs.push_back(std::move(p));
    }
  }
  return a;
}

static std::string join(const std::vector<std::string>& v) {
  std::string s;
  for (const auto& x : v) s += (s.empty() ? "" : ", ") + x;
  return s;
}

static ParamSet parse_generator(const Located& at, std::string& type_out) {
  yaml::expect_map(at);
  if (!at.has("type")) yaml::fail(at, "a generator needs a 'type'", "one of: " + join(names_of(all_generators())));
  type_out = yaml::as_string(at.child("type"));
  const GeneratorInfo* gen = find_generator(type_out);
  if (!gen) {
    std::string s = type_out.size() > 200 ? "" : closest_match(type_out, names_of(all_generators()));
    yaml::fail(at.child("type"), "unknown generator '" + yaml::clip(type_out) + "'",
               (s.empty() ? "" : "did you mean '" + s + "'? ") + "generators: " + join(names_of(all_generators())));
  }
  std::vector<std::string> allowed{"type", "scale"};
  for (const auto& p : gen->params) allowed.push_back(p.name);
  yaml::check_keys(at, allowed);
  ParamSet ps;
  for (const auto& spec : gen->params) {
    if (at.has(spec.name)) ps.set(spec.name, parse_param_value(at.child(spec.name), spec));
    else if (!spec.required()) ps.set(spec.name, spec.default_value);
    else yaml::fail(at, "generator '" + yaml::clip(type_out) + "' needs '" + spec.name + "'", spec.description);
  }
  return ps;
}

static nlohmann::json node_to_json(const YAML::Node& n) {
  if (!n) return nullptr;
  if (n.IsScalar()) return n.Scalar();
  if (n.IsSequence()) {
    auto a = nlohmann::json::array();
    for (const auto& x : n) a.push_back(node_to_json(x));
    return a;
  }
  if (n.IsMap()) {
    auto o = nlohmann::json::object();
    for (auto it = n.begin(); it != n.end(); ++it) o[it->first.as<std::string>()] = node_to_json(it->second);
    return o;
  }
  return nullptr;
}

// Reads one dataset entry (already merged with its registry entry, if any).
static DatasetSpec parse_dataset(const Located& at, const std::string& name, const fs::path& base_dir,
                                 const fs::path& data_root, RawParams& raw_params) {
  yaml::check_keys(at, kDatasetKeys);
  DatasetSpec d;
  d.name = name;
  d.where = at.where();
  const bool has_file = at.has("file"), has_data_file = at.has("data_file"), has_gen = at.has("generator");
  if (int(has_file) + int(has_data_file) + int(has_gen) != 1)
    yaml::fail(at, "dataset '" + name + "' needs exactly one of 'file', 'data_file' or 'generator'",
               "file: path relative to the config; data_file: path under the data root; generator: {type: moons, ...}; "
               "or use: <registered name>");
  if (has_gen) {
    d.generator_params = parse_generator(at.child("generator"), d.generator);
    if (at.child("generator").has("scale")) d.standard_scale = yaml::as_string(at.child("generator").child("scale")) == "standard";
    if (at.has("missing")) yaml::fail(at.child("missing"), "missing applies to file datasets only", "remove the key");
  } else {
    // One file, a list of files, or a glob in the file name: the list and the glob are read as one
    // dataset, the files concatenated in sorted path order (dataset_factory.cpp).
    const Located file_at = at.child(has_file ? "file" : "data_file");
    std::vector<std::string> entries;
    if (file_at.node.IsSequence()) {
      entries = yaml::as_string_list(file_at);
      if (entries.empty()) yaml::fail(file_at, "empty list of files", "list at least one file, or give one file name");
      d.multi_file = true;
    } else {
      entries.push_back(yaml::as_string(file_at));
      d.multi_file = entries[0].find_first_of("*?[") != std::string::npos;
    }
    for (const std::string& e : entries) {
      if (e.empty()) yaml::fail(file_at, "empty file name", "give the path of the file");
      if (fs::path(e).parent_path().string().find_first_of("*?[") != std::string::npos)
        yaml::fail(file_at, "'" + yaml::clip(e) + "': a glob may only appear in the file name, not in a folder",
                   "write the folder literally, e.g. har70plus/participants/*.csv");
    }
    d.file = entries.size() == 1 ? entries[0] : entries[0] + " (and " + std::to_string(entries.size() - 1) + " more)";
    d.file_under_data_root = has_data_file;
    for (const std::string& e : entries) {
      fs::path r;
      if (has_data_file) {
        if (!data_root.empty()) r = fs::absolute(data_root / e).lexically_normal();
      } else {
        fs::path p(e);
        r = fs::absolute(p.is_absolute() ? p : base_dir / p).lexically_normal();
      }
      if (r.empty()) continue;
      if (d.resolved.empty()) d.resolved = r;
      if (d.multi_file) d.resolved_files.push_back(r);
    }
    // Format from the key or the file name.
    if (at.has("format")) {
      d.format = yaml::as_string(at.child("format"));
      if (d.format != "csv" && d.format != "tsv" && d.format != "arff" && d.format != "gowalla" &&
          d.format != "fimi")
        yaml::fail(at.child("format"), "unknown format '" + yaml::clip(d.format) + "'", "one of: csv, tsv, arff, gowalla, fimi");
    } else {
      std::string f = entries[0];
      if (f.size() > 3 && f.substr(f.size() - 3) == ".gz") f = f.substr(0, f.size() - 3);
      auto ends = [&](const std::string& s) { return f.size() >= s.size() && f.substr(f.size() - s.size()) == s; };
      if (ends(".arff")) d.format = "arff";
      else if (ends(".tsv")) d.format = "tsv";
      else if (ends(".csv")) d.format = "csv";
      else yaml::fail(at, "cannot tell the format of '" + yaml::clip(d.file) + "' from its name", "add format: csv | tsv | arff | gowalla | fimi");
    }
    if (d.multi_file && d.format != "csv" && d.format != "tsv")
      yaml::fail(file_at, "a list or glob of files is supported for csv and tsv files only (format: " + d.format + ")",
                 "give one file, or convert the files to csv");
    if (at.has("missing")) {
      const std::string m = yaml::as_string(at.child("missing"));
      if (m != "error" && m != "drop")
        yaml::fail(at.child("missing"), "missing must be 'error' (default: a row with an empty coordinate fails the load) or 'drop'",
                   "write missing: drop to skip and count rows with an empty coordinate value");
      if (m == "drop" && d.format != "csv" && d.format != "tsv")
        yaml::fail(at.child("missing"), "missing: drop applies to csv and tsv files only (format: " + d.format + ")",
                   "remove the key, or clean the file first");
      d.drop_missing = m == "drop";
    }
    if (at.has("columns")) d.columns = yaml::as_string_list(at.child("columns"));
    if (at.has("label")) {
      d.label = yaml::as_string(at.child("label"));
      if (d.label == "none") { d.no_label = true; d.label.clear(); }
    }
    if (at.has("delimiter")) {
      d.delimiter = yaml::as_string(at.child("delimiter"));
      if (d.delimiter == "\\t" || d.delimiter == "tab") d.delimiter = "\t";
      if (d.delimiter.size() != 1) yaml::fail(at.child("delimiter"), "the delimiter must be one character", "e.g. ',' or tab");
    }
    if (at.has("header")) {
      d.header = yaml::as_string(at.child("header"));
      if (d.header != "auto" && d.header != "true" && d.header != "false")
        yaml::fail(at.child("header"), "header must be auto, true or false");
    }
    if (at.has("max_rows")) {
      d.max_rows = yaml::as_int(at.child("max_rows"));
      if (d.max_rows < 1) yaml::fail(at.child("max_rows"), "max_rows must be >= 1");
    }
    if (at.has("fallback")) {
      d.fallback_available = true;
      d.fallback_params = parse_generator(at.child("fallback"), d.fallback_generator);
      if (at.child("fallback").has("scale")) d.fallback_scale = yaml::as_string(at.child("fallback").child("scale")) == "standard";
    }
  }
  if (at.has("project")) {
    auto p = at.child("project");
    yaml::check_keys(p, {"lon", "lat", "ref_lat", "origin_lon", "origin_lat"});
    ProjectionSpec proj;
    if (p.has("lon")) proj.lon_column = yaml::as_string(p.child("lon"));
    if (p.has("lat")) proj.lat_column = yaml::as_string(p.child("lat"));
    if (!p.has("ref_lat")) yaml::fail(p, "projection needs ref_lat (degrees)", "e.g. ref_lat: 37.8 for San Francisco");
    proj.ref_lat_deg = yaml::as_double(p.child("ref_lat"));
    if (std::fabs(proj.ref_lat_deg) >= 90) yaml::fail(p.child("ref_lat"), "ref_lat must be in (-90, 90)");
    if (p.has("origin_lon")) proj.origin_lon = yaml::as_double(p.child("origin_lon"));
    if (p.has("origin_lat")) proj.origin_lat = yaml::as_double(p.child("origin_lat"));
    d.project = proj;
  }
  if (at.has("bounds")) {
    auto b = at.child("bounds");
    if (b.node.IsScalar()) {
      const std::string mode = b.node.Scalar();
      if (mode != "data" && mode != "none" && mode != "public")
        yaml::fail(b, "bounds must be 'data', 'none', 'public' (the dataset's public_bounds) or a list [[lo, hi], ...] per dimension");
      d.bounds_mode = mode;
    } else {
      yaml::expect_sequence(b);
      if (b.node.size() == 0) yaml::fail(b, "empty bounds", "give [lo, hi] for every dimension");
      for (std::size_t j = 0; j < b.node.size(); ++j) {
        auto pair = b.item(j);
        if (!pair.node.IsSequence() || pair.node.size() != 2) yaml::fail(pair, "each bound is a pair [lo, hi]");
        double lo = yaml::as_double(pair.item(0)), hi = yaml::as_double(pair.item(1));
        if (!(lo < hi)) yaml::fail(pair, "bound has lo >= hi", "write [lo, hi] with lo < hi");
        d.bounds.lo.push_back(lo);
        d.bounds.hi.push_back(hi);
      }
      d.bounds_mode = "config";
    }
  }
  // --- bounds_from_data / public_bounds (DS1-DS3: registry.yaml) ---
  // bounds_from_data: true declares the configured box to be the data's exact bounding box (flagged
  // non-private in every result, BoundsSource::data_as_paper); `bounds: public` selects public_bounds,
  // a box chosen without the exact extremes, instead (not flagged).
  if (at.has("bounds_from_data")) d.bounds_from_data = yaml::as_bool(at.child("bounds_from_data"));
  if (at.has("public_bounds")) {
    auto b = at.child("public_bounds");
    yaml::expect_sequence(b);
    if (b.node.size() == 0) yaml::fail(b, "empty public_bounds", "give [lo, hi] for every dimension");
    for (std::size_t j = 0; j < b.node.size(); ++j) {
      auto pair = b.item(j);
      if (!pair.node.IsSequence() || pair.node.size() != 2) yaml::fail(pair, "each bound is a pair [lo, hi]");
      double lo = yaml::as_double(pair.item(0)), hi = yaml::as_double(pair.item(1));
      if (!(lo < hi)) yaml::fail(pair, "bound has lo >= hi", "write [lo, hi] with lo < hi");
      d.public_bounds.lo.push_back(lo);
      d.public_bounds.hi.push_back(hi);
    }
  }
  if (d.bounds_mode == "public") {
    if (d.public_bounds.empty())
      yaml::fail(at.child("bounds"), "bounds: public, but dataset '" + name + "' has no public_bounds",
                 "add public_bounds: [[lo, hi], ...] to the dataset (or its registry entry), or give the bounds as a list");
    d.bounds = d.public_bounds;
    d.bounds_mode = "config";
    d.bounds_from_data = false;  // the public box is not the data's
  }
  // --- end bounds_from_data / public_bounds ---
  if (at.has("clip_to_bounds")) d.clip_to_bounds = yaml::as_bool(at.child("clip_to_bounds"));
  if (at.has("scale")) {
    std::string s = yaml::as_string(at.child("scale"));
    if (s != "standard" && s != "none") yaml::fail(at.child("scale"), "scale must be 'standard' or 'none'");
    d.standard_scale = s == "standard";
  }
  if (at.has("sample")) {
    d.sample = yaml::as_int(at.child("sample"));
    if (d.sample < 1) yaml::fail(at.child("sample"), "sample must be a positive number of points");
  }
  if (at.has("sample_seed")) d.sample_seed = yaml::as_uint(at.child("sample_seed"));
  if (at.has("params")) {
    auto ps = at.child("params");
    yaml::expect_map(ps);
    for (auto it = ps.node.begin(); it != ps.node.end(); ++it) {
      std::string key = it->first.as<std::string>();
      raw_params.emplace(key, ps.child(key));
    }
  }
  if (at.has("reference")) d.reference = yaml::as_string(at.child("reference"));
  nlohmann::json def = node_to_json(at.node);
  def.erase("params");  // parameters are part of the cell key, not of the data
  def.erase("reference");
  def.erase("description");
  d.definition = def;
  return d;
}

static YAML::Node load_registry() {
  static const YAML::Node reg = [] {
    if (!fs::exists(registry_path())) return YAML::Node(YAML::NodeType::Map);
    YAML::Node r = yaml::load_file(registry_path().string());
    if (r.IsNull()) return YAML::Node(YAML::NodeType::Map);
    if (!r.IsMap())
      yaml::fail(Located(r, registry_path().string(), ""), "the dataset registry must be a mapping of name: entry",
                 "see datasets/registry.yaml");
    return r;
  }();
  return reg;
}

std::vector<std::string> registry_names() {
  std::vector<std::string> out;
  YAML::Node reg = load_registry();
  for (auto it = reg.begin(); it != reg.end(); ++it) out.push_back(it->first.as<std::string>());
  return out;
}

// A config dataset entry either defines a dataset inline or names a registry entry ("use", or its
// own name) whose keys it may override.
static DatasetSpec resolve_dataset(const Located& at, const fs::path& base_dir, const fs::path& data_root, RawParams& raw_params) {
  yaml::check_keys(at, kDatasetKeys);
  if (!at.has("name")) yaml::fail(at, "a dataset needs a 'name'");
  const std::string name = yaml::as_string(at.child("name"));
  check_name(at.child("name"), name, "dataset name", "_ . + -");
  const bool inline_def = at.has("file") || at.has("data_file") || at.has("generator");
  if (inline_def && at.has("use")) yaml::fail(at.child("use"), "'use' names a registered dataset; it cannot be combined with file/data_file/generator");
  if (inline_def) return parse_dataset(at, name, base_dir, data_root, raw_params);

  const std::string use = at.has("use") ? yaml::as_string(at.child("use")) : name;
  YAML::Node reg = load_registry();
  if (!reg[use]) {
    std::string s = closest_match(use, registry_names());
    yaml::fail(at.has("use") ? at.child("use") : at.child("name"),
               "'" + yaml::clip(use) + "' is not a registered dataset and the entry defines no file, data_file or generator",
               (s.empty() ? "" : "did you mean '" + s + "'? ") + "registered: " + join(registry_names()) +
                   " (see `dpclust list`)");
  }
  // Merge: registry entry, then the config's overrides.
  YAML::Node merged = YAML::Clone(reg[use]);
  // `source:` says where the file comes from (`dpclust data`); it does not change the data, so it is not
  // part of the dataset's definition (nor of any cell's fingerprint).
  merged.remove("source");
  for (auto it = at.node.begin(); it != at.node.end(); ++it) {
    const std::string key = it->first.as<std::string>();
    if (key != "name" && key != "use") merged[key] = it->second;
  }
  // Errors inside registry keys point at the registry file; the config's own keys keep their lines.
  Located m(merged, registry_path().string(), "datasets." + use);
  m.overrides = at.node;
  m.overrides_file = at.file;
  m.overrides_path = at.path;
  DatasetSpec d = parse_dataset(m, name, base_dir, data_root, raw_params);
  d.where = at.where();
  d.definition["registry"] = use;
  // The registry's row count describes its own file: kept unless the config names another one.
  const YAML::Node src = reg[use]["source"];
  if (src && src.IsMap() && !at.has("file") && !at.has("data_file")) {
    for (const auto& [key, into] : {std::pair<const char*, std::uint64_t*>{"rows", &d.declared_rows}, {"dims", &d.declared_dims}}) {
      if (!src[key] || !src[key].IsScalar()) continue;
      try {
        const auto v = src[key].as<long long>();
        if (v > 0) *into = static_cast<std::uint64_t>(v);
      } catch (const YAML::Exception&) {
        // not a number: the shape stays unknown
      }
    }
    // Columns chosen by the config make the registry's dimension moot (known_shape counts them).
    if (at.has("columns")) d.declared_dims = 0;
  }
  return d;
}

static ExperimentConfig parse_config_checked(const std::string& text, const std::string& file_label,
                                             const fs::path& base_dir, const fs::path& data_root, std::uint64_t max_cells) {
  ExperimentConfig cfg;
  RawParamLevels raw;  // the `params:` of every level as written, typed by type_params() at the end
  cfg.file = file_label;
  cfg.text = text;
  cfg.data_root = data_root;
  Located root{yaml::load_string(text, file_label), file_label, ""};
  if (!root.node || root.node.IsNull()) throw InputError(file_label, "the config is empty", "see configs/README or docs/config.md");
  yaml::check_keys(root, kTopKeys);

  if (!root.has("experiment")) yaml::fail(root, "missing 'experiment' (the experiment's name)", "add experiment: my_sweep");
  cfg.name = yaml::as_string(root.child("experiment"));
  check_name(root.child("experiment"), cfg.name, "experiment name", "_ . -");
  if (root.has("description")) cfg.description = yaml::as_string(root.child("description"));
  if (root.has("seed")) cfg.seed = yaml::as_uint(root.child("seed"));
  if (root.has("trials")) {
    cfg.trials = as_whole_number(root.child("trials"), "trials", "an integer in [1, 1000000]");
    if (cfg.trials < 1 || cfg.trials > kMaxTrials)
      yaml::fail(root.child("trials"), "trials must be >= 1 and <= 1000000, got " + std::to_string(cfg.trials),
                 "use fewer trials: the 95% interval narrows with sqrt(trials), so 1e6 is far beyond any use");
  }
  if (root.has("seeds")) {
    // A paper's own seeds, used as they are (docs/results.md "Seeds and randomness"). numpy's RandomState takes 0 .. 2^32 - 1,
    // and the methods offering its stream seed it with the trial's seed, so that is the range.
    auto list = root.child("seeds");
    yaml::expect_sequence(list);
    if (list.node.size() == 0 || list.node.size() > static_cast<std::size_t>(kMaxTrials))
      yaml::fail(list, "seeds must list 1 to 1000000 seeds", "e.g. seeds: [0, 1, 2]");
    for (std::size_t i = 0; i < list.node.size(); ++i) {
      const std::uint64_t s = yaml::as_uint(list.item(i));
      if (s > 0xFFFFFFFFull) yaml::fail(list.item(i), "a listed seed must be in [0, 4294967295] (numpy's RandomState range)");
      if (std::find(cfg.seeds.begin(), cfg.seeds.end(), s) != cfg.seeds.end())
        yaml::fail(list.item(i), "seed " + std::to_string(s) + " is listed twice", "list each seed once: trials would repeat");
      cfg.seeds.push_back(s);
    }
    const auto listed = static_cast<std::int64_t>(cfg.seeds.size());
    if (root.has("trials") && cfg.trials != listed)
      yaml::fail(root.child("trials"), "trials: " + std::to_string(cfg.trials) + " but seeds lists " + std::to_string(listed) + " seeds",
                 "remove trials: (one trial per listed seed) or make the two agree");
    if (root.has("seed"))
      yaml::fail(root.child("seed"), "seed and seeds are both given; with seeds, trial t uses seeds[t] and seed is unused",
                 "remove one of them");
    cfg.trials = listed;
  }
  if (root.has("randomness")) {
    const Located r = root.child("randomness");
    const std::string mode = yaml::as_string(r);
    if (mode != "seeded" && mode != "secure") {
      const std::string s = closest_match(mode, std::vector<std::string>{"seeded", "secure"});
      yaml::fail(r, "randomness must be seeded or secure, got '" + yaml::clip(mode) + "'",
                 (s.empty() ? "" : "did you mean '" + s + "'? ") +
                     "seeded: reproducible (the paper sweeps), the seed is published so not a secure release; secure: noise from "
                     "the OS CSPRNG, no seed, not reproducible");
    }
    cfg.randomness = parse_randomness(mode, r.where());
    // A secure run has no seed: one written in the config would be unused, and would be copied into the
    // results with the config's text.
    for (const char* key : {"seed", "seeds"})
      if (cfg.randomness == Randomness::secure && root.has(key))
        yaml::fail(root.child(key), std::string("randomness: secure draws from the OS CSPRNG and uses no seed; '") + key + "' would be unused",
                   std::string("remove ") + key + ", or use randomness: seeded to reproduce a run");
  }
  if (root.has("audit")) cfg.audit = parse_audit(root.child("audit"));
  if (root.has("threads")) {
    const std::int64_t t = as_whole_number(root.child("threads"), "threads", "an integer in [1, 1024]");
    if (t < 1 || t > 1024) yaml::fail(root.child("threads"), "threads must be in [1, 1024], got " + std::to_string(t));
    cfg.threads = static_cast<int>(t);
  }
  if (root.has("output")) {
    auto o = root.child("output");
    yaml::check_keys(o, {"release", "points", "labels"});
    if (o.has("release")) cfg.save_release = yaml::as_bool(o.child("release"));
    if (o.has("points")) cfg.save_points = yaml::as_bool(o.child("points"));
    if (o.has("labels")) cfg.save_labels = yaml::as_bool(o.child("labels"));
  }

  // Datasets.
  if (!root.has("datasets")) yaml::fail(root, "missing 'datasets'", "list at least one dataset, e.g. - name: moons");
  auto ds = root.child("datasets");
  yaml::expect_sequence(ds);
  if (ds.node.size() == 0) yaml::fail(ds, "empty dataset list", "list at least one dataset");
  for (std::size_t i = 0; i < ds.node.size(); ++i) {
    RawParams raw_params;
    DatasetSpec d = resolve_dataset(ds.item(i), base_dir, data_root, raw_params);
    raw.datasets.push_back(std::move(raw_params));
    for (const auto& other : cfg.datasets)
      if (other.name == d.name) yaml::fail(ds.item(i).child("name"), "dataset name '" + yaml::clip(d.name) + "' is used twice");
    cfg.datasets.push_back(std::move(d));
  }

  // Methods.
  if (!root.has("methods")) yaml::fail(root, "missing 'methods'", "list at least one method, e.g. - method: dbscan");
  auto ms = root.child("methods");
  yaml::expect_sequence(ms);
  if (ms.node.size() == 0) yaml::fail(ms, "empty method list", "list at least one method");
  for (std::size_t i = 0; i < ms.node.size(); ++i) {
    Located m = ms.item(i);
    if (m.node.IsScalar()) {  // shorthand: "- dbscan"
      MethodSpec spec;
      spec.method = spec.label = m.node.Scalar();
      spec.where = m.where();
      if (!find_method(spec.method)) {
        std::string s = closest_match(spec.method, names_of(all_methods()));
        yaml::fail(m, "unknown method '" + yaml::clip(spec.method) + "'", (s.empty() ? "" : "did you mean '" + s + "'? ") + "methods: " + join(names_of(all_methods())));
      }
      cfg.methods.push_back(spec);
      raw.methods.emplace_back();
      continue;
    }
    MethodSpec spec;
    RawParams method_raw;
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
    if (m.has("params")) {
      auto ps = m.child("params");
      std::vector<std::string> allowed = names_of(info->params);
      yaml::check_keys(ps, allowed);
      for (auto it = ps.node.begin(); it != ps.node.end(); ++it) {
        std::string key = it->first.as<std::string>();
        method_raw.emplace(key, ps.child(key));
      }
    }
    if (m.has("zip")) {
      auto z = m.child("zip");
      yaml::expect_sequence(z);
      for (std::size_t g = 0; g < z.node.size(); ++g) {
        auto group = yaml::as_string_list(z.item(g));
        if (group.size() < 2) yaml::fail(z.item(g), "a zip group needs at least two parameter names");
        for (const auto& p : group)
          if (!method_raw.count(p)) yaml::fail(z.item(g), "zip names '" + yaml::clip(p) + "', which is not set in this method's params");
        spec.zip.push_back(group);
      }
    }
    for (const auto& other : cfg.methods)
      if (other.label == spec.label)
        yaml::fail(m, "two methods are both called '" + yaml::clip(spec.label) + "'", "give one of them a distinct name with as: <name>");
    cfg.methods.push_back(std::move(spec));
    raw.methods.push_back(std::move(method_raw));
  }

  // Metrics.
  if (root.has("metrics")) {
    auto mt = root.child("metrics");
    cfg.metrics = yaml::as_string_list(mt);
    if (cfg.metrics.empty()) yaml::fail(mt, "empty metric list", "omit 'metrics' to use every metric that applies");
    for (const auto& name : cfg.metrics)
      if (!find_metric(name)) {
        std::string s = closest_match(name, names_of(all_metrics()));
        yaml::fail(mt, "unknown metric '" + yaml::clip(name) + "'", (s.empty() ? "" : "did you mean '" + s + "'? ") + "metrics: " + join(names_of(all_metrics())));
      }
  }

  for (const auto& name : cfg.metrics) {
    const MetricInfo* m = find_metric(name);
    bool applies = false;
    for (const auto& method : cfg.methods) applies = applies || m->applies_to(method.method);
    if (!applies) {
      std::string list;
      for (const auto& x : m->methods) list += (list.empty() ? "" : ", ") + x;
      yaml::fail(root.child("metrics"), "metric '" + name + "' applies to none of the listed methods", "it is computed for: " + list);
    }
  }

  // Experiment-wide parameters.
  if (root.has("params")) {
    auto ps = root.child("params");
    yaml::expect_map(ps);
    for (auto it = ps.node.begin(); it != ps.node.end(); ++it) {
      std::string key = it->first.as<std::string>();
      raw.experiment.emplace(key, ps.child(key));
    }
  }
  // Parse once: every parameter typed against its ParamSpec here, after the cell count; the YAML nodes
  // end with this function.
  type_params(cfg, raw, max_cells);
  cfg.max_cells = max_cells;
  return cfg;
}

ExperimentConfig parse_config(const std::string& text, const std::string& file_label, const fs::path& base_dir,
                              const fs::path& data_root, std::uint64_t max_cells) {
  try {
    return parse_config_checked(text, file_label, base_dir, data_root, max_cells);
  } catch (const YAML::Exception& e) {
    // Every read goes through yaml_reader's checked helpers; this is the net for one that does not, so
    // that yaml-cpp's "invalid node" / "bad conversion" never reaches the user without a location.
    throw InputError(file_label + (e.mark.line >= 0 ? ":" + std::to_string(e.mark.line + 1) + ":" + std::to_string(e.mark.column + 1) : ""),
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
