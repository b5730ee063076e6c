#include "loading/dataset_loading.hpp"

#include <fnmatch.h>

#include <algorithm>
#include <cstdio>

#include "catalog/catalog.hpp"
#include "core/error.hpp"
#include "core/files.hpp"
#include "data/identifier_columns.hpp"
#include "data/sklearn_datasets.hpp"
#include "data/transforms.hpp"
#include "io/arff.hpp"
#include "io/csv.hpp"
#include "io/fimi.hpp"
#include "io/gowalla.hpp"

namespace dpclust {
namespace fs = std::filesystem;

namespace {

bool has_glob(const fs::path& p) { return p.filename().string().find_first_of("*?[") != std::string::npos; }

// The regular files (or symlinks to them) of p's folder whose names match p's file-name pattern
// (fnmatch, a leading '.' matched only explicitly), sorted by path.
std::vector<fs::path> glob_files(const fs::path& pattern) {
  std::vector<fs::path> out;
  std::error_code ec;
  const std::string pat = pattern.filename().string();
  for (fs::directory_iterator it(pattern.parent_path(), ec), end; !ec && it != end; it.increment(ec)) {
    const std::string name = it->path().filename().string();
    std::error_code ec2;
    if (::fnmatch(pat.c_str(), name.c_str(), FNM_PERIOD) == 0 && fs::is_regular_file(it->path(), ec2))
      out.push_back(it->path());
  }
  std::sort(out.begin(), out.end());
  return out;
}

// A file list / glob expanded: every file, sorted by path, without repeats. `missing` receives the first
// entry that names no file (a literal path absent, or a pattern matching nothing).
std::vector<fs::path> expand_files(const DatasetSpec& spec, fs::path* missing = nullptr) {
  if (!spec.multi_file) return {spec.resolved};
  std::vector<fs::path> out;
  for (const fs::path& e : spec.resolved_files) {
    std::error_code ec;
    if (has_glob(e)) {
      const auto matched = glob_files(e);
      if (matched.empty() && missing && missing->empty()) *missing = e;
      out.insert(out.end(), matched.begin(), matched.end());
    } else if (fs::exists(e, ec)) {
      out.push_back(e);
    } else if (missing && missing->empty()) {
      *missing = e;
    }
  }
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

bool file_present(const DatasetSpec& spec) {
  std::error_code ec;
  if (spec.resolved.empty()) return false;
  if (!spec.multi_file) return fs::exists(spec.resolved, ec);
  fs::path missing;
  const auto files = expand_files(spec, &missing);
  return missing.empty() && !files.empty();
}

// The file to name in a "not found" message: the first list entry or pattern without a file.
fs::path first_missing(const DatasetSpec& spec) {
  if (!spec.multi_file) return spec.resolved;
  fs::path missing;
  expand_files(spec, &missing);
  return missing.empty() ? spec.resolved : missing;
}

Dataset load_file(const DatasetSpec& spec) {
  const auto max_rows = static_cast<std::size_t>(spec.max_rows);
  if (spec.format == "arff") {
    ArffOptions o;
    o.columns = spec.columns;
    o.label = spec.label;
    o.use_label = !spec.no_label;
    o.max_rows = max_rows;
    o.name = spec.name;
    o.nominal = spec.nominal;
    o.missing = spec.drop_missing ? MissingPolicy::drop : MissingPolicy::refuse;
    return load_arff(spec.resolved, o);
  }
  if (spec.format == "gowalla") {
    GowallaOptions o;
    o.max_rows = max_rows;
    o.name = spec.name;
    return load_gowalla(spec.resolved, o);
  }
  if (spec.format == "fimi") {
    FimiOptions o;
    o.ragged = spec.fimi_ragged == "pad"        ? FimiRagged::pad
               : spec.fimi_ragged == "truncate" ? FimiRagged::truncate
                                                : FimiRagged::error;
    o.items_per_row = spec.fimi_items_per_row;
    o.max_rows = max_rows;
    o.name = spec.name;
    return load_fimi(spec.resolved, o);
  }
  CsvOptions o;
  o.delimiter = spec.delimiter.empty() ? (spec.format == "tsv" ? '\t' : '\0') : spec.delimiter[0];
  if (spec.header != "auto") o.header = spec.header == "true";
  o.header_rows = static_cast<std::size_t>(spec.header_rows);
  o.columns = spec.columns;
  o.label = spec.label;
  o.use_label = !spec.no_label;
  o.nominal = spec.nominal;
  o.nominal_order = spec.nominal_order;
  o.dates = spec.dates;
  o.max_rows = max_rows;
  o.name = spec.name;
  o.missing = spec.drop_missing ? MissingPolicy::drop : MissingPolicy::refuse;
  if (spec.multi_file) return load_csv_files(expand_files(spec), o);
  return load_csv(spec.resolved, o);
}

// A label with more distinct values than a tenth of the rows is more likely a reading or a record's
// name than a class: ARI/AMI against it say little. Said once, with counts and the label's name only.
void warn_label_like_a_reading(const DatasetSpec& spec, const Dataset& data) {
  if (!data.has_labels() || data.n < 20) return;
  std::vector<Label> distinct(data.labels);
  std::sort(distinct.begin(), distinct.end());
  distinct.erase(std::unique(distinct.begin(), distinct.end()), distinct.end());
  const std::size_t classes = distinct.size() - std::count(distinct.begin(), distinct.end(), kNoise);
  if (classes * 10 <= data.n) return;
  const auto label = data.provenance.find("label");
  const std::string name =
      label != data.provenance.end() && label->is_string() ? label->get<std::string>() : std::string("?");
  std::fprintf(stderr,
               "warning: dataset '%s' (%s): the label '%s' has %zu distinct values over %zu rows (more than a tenth): "
               "is it a class? "
               "ARI/AMI against it say little; name the class with `label: NAME`, or write `label: none`\n",
               spec.name.c_str(), spec.file.c_str(), name.c_str(), classes, data.n);
}

// A record identifier (wdbc's IDNumber, a row number) is no coordinate. Only when the config
// lets the loader choose the columns (a column listed in `columns` is always kept), only for table
// formats, and not under `identifier_columns: keep` (data/identifier_columns.hpp).
void drop_identifiers(const DatasetSpec& spec, Dataset& data) {
  if (spec.keep_identifier_columns || !spec.columns.empty()) return;
  if (spec.format != "csv" && spec.format != "tsv" && spec.format != "arff") return;
  drop_identifier_columns(data, "dataset '" + spec.name + "' (" + spec.file + ")");
}

std::size_t column_index(const Dataset& data, const std::string& name, const DatasetSpec& spec) {
  auto it = std::find(data.column_names.begin(), data.column_names.end(), name);
  if (it == data.column_names.end())
    throw InputError(
        spec.where,
        "projection column '" + name + "' is not among the coordinate columns of dataset '" + spec.name + "'",
        "set project.lon / project.lat to the names of the longitude and latitude columns");
  return static_cast<std::size_t>(it - data.column_names.begin());
}

// Points drawn from numpy's stream (`stream: numpy`) are scaled as sklearn's StandardScaler does, bit for
// bit, so that generated Circles / Moons / Blobs equal the published files.
void scale_standard(Dataset& data) {
  const auto generator = data.provenance.find("generator");
  const bool numpy_stream =
      generator != data.provenance.end() && generator->is_object() && generator->value("stream", "") == "numpy";
  if (numpy_stream) sklearn_standard_scale(data);
  else standard_scale(data);
}

// Which source gave a registered data file (the official one or a pinned copy), from the record
// `dpclust data fetch` left beside it; results then say where their data came from. A file placed by
// hand has no record, and a record that cannot be read is reported as such (never an error: the data
// file itself is what the results are computed from, and its own checksum is in `files`).
void record_fetch_source(const DatasetSpec& spec, Dataset& data) {
  if (!spec.file_under_data_root || spec.multi_file || spec.resolved.empty()) return;
  fs::path root = spec.resolved;
  const fs::path relative(spec.file);
  for (auto it = relative.begin(); it != relative.end(); ++it) root = root.parent_path();
  const fs::path record = fetch_record_path(root, spec.file);
  std::error_code ec;
  if (!fs::is_regular_file(record, ec)) {
    data.provenance["source"] =
        "no fetch record (the file was placed in the data root, not fetched by `dpclust data fetch`)";
    return;
  }
  try {
    if (fs::file_size(record, ec) > (1u << 20)) throw std::runtime_error("too large");
    const nlohmann::json r = nlohmann::json::parse(read_text_file(record));
    nlohmann::json s = nlohmann::json::object();
    if (r.contains("source") && r["source"].is_object()) s = r["source"];
    else if (r.contains("inputs") && r["inputs"].is_array() && !r["inputs"].empty() && r["inputs"][0].is_object())
      s["origin"] = r["inputs"][0].value("url", std::string());
    for (const char* key : {"fetched_at", "sha256", "pinned", "mirror", "first_fetch", "differs_from_first_fetch"})
      if (r.contains(key)) s[key] = r[key];
    data.provenance["source"] = s;
  } catch (const std::exception&) {
    data.provenance["source"] = "fetch record unreadable: " + record.string();
  }
}

}  // namespace

void check_dataset_available(const DatasetSpec& spec) {
  if (!spec.generator.empty() || file_present(spec) || spec.fallback_available) return;
  if (spec.file_under_data_root && spec.resolved.empty())
    throw InputError(
        spec.where,
        "dataset '" + spec.name + "' needs the file '" + spec.file + "' under the data root, but no data root is set",
        "pass --data-root DIR or set DPCLUST_DATA_ROOT=DIR");
  // A registered dataset knows its public source: say the one command that gets it.
  const std::string registered =
      spec.definition.contains("registry") ? spec.definition["registry"].get<std::string>() : "";
  if (spec.file_under_data_root && !registered.empty())
    throw InputError(
        spec.where, "dataset '" + spec.name + "': file not found: " + first_missing(spec).string(),
        "fetch it from its public source with `dpclust data fetch " + registered +
            "` (add --data-root DIR for another data root; `dpclust data list` shows every dataset's state)");
  throw InputError(spec.where,
                   "dataset '" + spec.name + "': " +
                       (spec.multi_file && has_glob(first_missing(spec)) ? "no file matches " : "file not found: ") +
                       first_missing(spec).string(),
                   spec.file_under_data_root ? "check --data-root / DPCLUST_DATA_ROOT, or place the file there"
                                             : "check the path (relative paths are relative to the config file)");
}

namespace {

// The points of a dataset: generated, read from its file(s), or generated by the registry's stand-in for a file
// that is not here (Circles, Moons, Blobs).
Dataset read_points(const DatasetSpec& spec) {
  Dataset data;
  if (!spec.generator.empty()) {
    data = find_generator(spec.generator)->make(spec.generator_params);
  } else if (file_present(spec)) {
    data = load_file(spec);
    drop_identifiers(spec, data);
    warn_label_like_a_reading(spec, data);
    if (spec.scaling == Scaling::standard)
      data.non_private_notes.push_back("standard scaling uses the data's mean and standard deviation");
    if (spec.scaling == Scaling::minmax)
      data.non_private_notes.push_back("min-max scaling to [-1, 1] uses the data's minimum and maximum");
  } else {
    data = find_generator(spec.fallback_generator)->make(spec.fallback_params);
    // The fallback stands in for the file, which holds the already scaled points: scale now, so the
    // registry's bounds (in the file's coordinates) apply to the same coordinates as for the file.
    if (spec.fallback_scale) scale_standard(data);
    data.provenance["fallback"] =
        "file '" + spec.file + "' absent; generated by the built-in '" + spec.fallback_generator + "' generator";
  }
  return data;
}

// The configured public domain (bounds: [[lo, hi], ...] or public).
void attach_configured_bounds(const DatasetSpec& spec, Dataset& data) {
  if (spec.bounds.dims() != data.d)
    throw InputError(spec.where,
                     "bounds have " + std::to_string(spec.bounds.dims()) + " dimensions but dataset '" + spec.name +
                         "' has " + std::to_string(data.d),
                     "give one [lo, hi] pair per coordinate column");
  data.bounds = spec.bounds;
  data.bounds_source = BoundsSource::config;
  // The configured box is the data's exact bounding box (registry bounds_from_data: DS1-DS3, as the
  // paper): flagged non-private in every result; `bounds: public` clears the flag (config.cpp).
  if (spec.bounds_from_data) mark_bounds_from_data(data);
}

// sample: under randomness: secure, Poisson sampling with secret randomness at a public rate (transforms.hpp). The
// rate's denominator: a count the config or the registry declares (public), else the rows read (public only when
// |D| is).
void sample_securely(const DatasetSpec& spec, Dataset& data) {
  std::uint64_t den = 0;
  std::string den_source;
  if (!spec.generator.empty() && spec.generator_params.has("n_samples")) {
    den = static_cast<std::uint64_t>(spec.generator_params.integer("n_samples"));
    den_source = "the generator's n_samples (public)";
  } else if (spec.declared_rows > 0 && file_present(spec)) {
    den = spec.declared_rows;
    den_source = "the registry's declared row count (public)";
    if (spec.max_rows > 0 && static_cast<std::uint64_t>(spec.max_rows) < den) {
      den = static_cast<std::uint64_t>(spec.max_rows);
      den_source = "max_rows (public)";
    }
  } else if (spec.max_rows > 0 && file_present(spec)) {
    den = static_cast<std::uint64_t>(spec.max_rows);
    den_source = "max_rows (public)";
  } else {
    den = data.n;
    den_source = "the rows read from the data (public only under replace-one neighbours, where |D| is public)";
  }
  const auto m = static_cast<std::uint64_t>(spec.sample);
  if (den > 0 && m < den) {
    char id[17];
    std::snprintf(id, sizeof id, "%016llx", static_cast<unsigned long long>(os_random_u64()));
    Rng rng = Rng::secure();
    poisson_subsample(data, m, den, rng,
                      {{"name", "subsample"},
                       {"scheme", "poisson"},
                       {"randomness", "secure"},
                       {"rate", static_cast<double>(m) / static_cast<double>(den)},
                       {"rate_numerator", m},
                       {"rate_denominator", den},
                       {"rate_denominator_source", den_source},
                       {"rate_public", den_source.find("(public)") != std::string::npos},
                       // Identifies this draw (a random nonce, nothing of the data): cells computed on the same sample
                       // share it, and the accounting amplifies the epsilon they spent on it together.
                       {"sample_id", std::string(id)}});
  }
}

// sample: under randomness: seeded, a fixed public seed by record position.
void sample_by_seed(const DatasetSpec& spec, Dataset& data) {
  const std::size_t before = data.n;
  subsample(data, static_cast<std::size_t>(spec.sample), spec.sample_seed);
  if (data.n < before)
    data.non_private_notes.push_back(
        "sample: drawn with a fixed public seed by record position (randomness: seeded): the sample is a public "
        "function of "
        "the positions, not a DP subsample (inserting one record changes which records are drawn), and it gives no "
        "privacy "
        "amplification; randomness: secure draws a Poisson sample with secret randomness");
}

}  // namespace

Dataset materialize_dataset(const DatasetSpec& spec, Randomness mode) {
  check_dataset_available(spec);
  Dataset data = read_points(spec);
  data.name = spec.name;
  if (file_present(spec) && spec.generator.empty()) record_fetch_source(spec, data);
  const std::string source = !spec.generator.empty() || !file_present(spec)
                                 ? "dataset '" + spec.name + "' (generated by '" +
                                       (spec.generator.empty() ? spec.fallback_generator : spec.generator) + "')"
                             : spec.multi_file ? "dataset '" + spec.name + "' (files " + spec.file + ")"
                                               : spec.resolved.string();

  // NaN/inf first, before any bounds are attached (validate_points also checks the domain, which
  // is decided below: fail, or clip when clip_to_bounds is set).
  validate_points(data, source);
  if (spec.bounds_mode == "config") attach_configured_bounds(spec, data);
  if (spec.project) {
    project_lonlat_to_km(data, column_index(data, spec.project->lon_column, spec),
                         column_index(data, spec.project->lat_column, spec), spec.project->ref_lat_deg,
                         spec.project->origin_lon, spec.project->origin_lat);
  }
  if (!data.bounds.empty()) {
    switch (spec.clip_to_bounds) {
      case OutOfBounds::drop: data.provenance["clipped_to_bounds"] = drop_outside_bounds(data); break;
      case OutOfBounds::clamp: data.provenance["clamped_to_bounds"] = clamp_to_bounds(data); break;
      case OutOfBounds::refuse: check_within_bounds(data, source); break;
    }
  }
  if (spec.max_rows > 0 && spec.generator.empty() && file_present(spec)) {
    // The first max_rows rows. One added record before the cut pushes the last one out, so a
    // neighbour under add/remove becomes a replaced record here: a release on these rows costs up to 2 epsilon
    // (run/selection_privacy.cpp flags add/remove cells; the accounting counts them twice).
    auto& list = data.provenance["transforms"];
    if (!list.is_array()) list = nlohmann::json::array();
    list.push_back({{"name", "max_rows"}, {"max_rows", spec.max_rows}, {"add_remove_cost_factor", 2}});
  }
  if (spec.resample_per_class > 0) {
    if (!data.has_labels())
      throw InputError(spec.where,
                       "resample_per_class resamples by class, but dataset '" + spec.name + "' has no labels",
                       "name the label column (label: ...), or leave resample_per_class out");
    resample_per_class(data, static_cast<std::size_t>(spec.resample_per_class), spec.resample_seed);
  }
  if (spec.sample > 0 && mode == Randomness::secure) sample_securely(spec, data);
  else if (spec.sample > 0) sample_by_seed(spec, data);
  if (spec.scaling == Scaling::minmax) minmax_scale(data);
  else if (spec.scaling == Scaling::standard) scale_standard(data);
  if (spec.bounds_mode == "data") {
    data.bounds = bounding_box(data);
    data.bounds_source = BoundsSource::data;
    data.non_private_notes.push_back("domain bounds derived from the data (bounds: data)");
  }
  if (data.n == 0)
    throw InputError(spec.where, "dataset '" + spec.name + "' has no points", "check the file, max_rows and bounds");
  data.check_invariants();
  return data;
}

DataShape known_shape(const DatasetSpec& spec) {
  DataShape s;
  s.dataset = spec.name;
  auto from_generator = [&s](const ParamSet& p) {
    if (p.has("n_samples")) s.n = static_cast<std::uint64_t>(p.integer("n_samples"));
    s.d = p.has("n_features") ? static_cast<std::size_t>(p.integer("n_features")) : std::size_t{2};
    s.n_exact = s.n.has_value();
  };
  if (!spec.generator.empty()) {
    from_generator(spec.generator_params);
  } else if (!file_present(spec) && spec.fallback_available) {
    from_generator(spec.fallback_params);  // what materialize_dataset will generate
  } else {
    if (spec.declared_rows > 0) s.n = spec.declared_rows;
    // One coordinate per listed column, except under one-hot, where a nominal or text column gives one per value.
    if (!spec.columns.empty() && spec.format != "gowalla" && spec.format != "fimi" &&
        spec.nominal != NominalEncoding::onehot)
      s.d = spec.columns.size();
    else if (spec.fimi_items_per_row > 0) s.d = static_cast<std::size_t>(spec.fimi_items_per_row);
    else if (spec.bounds_mode == "config" && !spec.bounds.empty()) s.d = spec.bounds.dims();  // must match the data's d
    else if (spec.declared_dims > 0) s.d = static_cast<std::size_t>(spec.declared_dims);
  }
  if (spec.max_rows > 0 && spec.generator.empty()) {
    const auto m = static_cast<std::uint64_t>(spec.max_rows);
    if (!s.n || *s.n > m) {
      s.n = m;
      s.n_exact = false;  // the file may hold fewer rows
    }
  }
  if (spec.sample > 0 && (!s.n || *s.n > static_cast<std::uint64_t>(spec.sample))) {
    if (!s.n) s.n_exact = false;  // at most `sample` points
    s.n = static_cast<std::uint64_t>(spec.sample);
  }
  if (spec.clip_to_bounds == OutOfBounds::drop || spec.drop_missing) s.n_exact = false;  // rows may be dropped
  if (spec.resample_per_class > 0) {  // per_class rows times the classes, which only the data know
    s.n.reset();
    s.n_exact = false;
  }
  // The configured bounds are in the file's coordinates; a projection or scaling moves them.
  if (spec.bounds_mode == "config" && !spec.project && spec.scaling == Scaling::none) s.bounds = spec.bounds;
  s.declared_n = s.n;
  s.declared_n_exact = s.n_exact;
  return s;
}

DataShape loaded_shape(const DatasetSpec& spec, const Dataset& data) {
  DataShape s = shape_of(data);
  const DataShape declared = known_shape(spec);
  s.declared_n = declared.declared_n;
  s.declared_n_exact = declared.declared_n_exact;
  return s;
}

nlohmann::json dataset_summary(const Dataset& data) {
  nlohmann::json j{{"name", data.name}, {"n", data.n}, {"d", data.d}, {"columns", data.column_names}};
  if (data.has_labels()) {
    std::size_t noise = 0;
    for (Label l : data.labels) noise += l == kNoise;
    j["labels"] = {{"clusters", count_clusters(data.labels)}, {"noise_points", noise}};
  } else {
    j["labels"] = nullptr;
  }
  j["bounds"] = data.bounds.empty() ? nlohmann::json(nullptr) : data.bounds.to_json();
  j["bounds_source"] = to_string(data.bounds_source);
  j["non_private"] = data.non_private_notes;
  j["provenance"] = data.provenance;
  return j;
}

}  // namespace dpclust
