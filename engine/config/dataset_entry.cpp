// Dataset entries of a config: inline (a file or a generator) or named from the registry with overrides;
// see config_reading.hpp.
#include "config/config.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "catalog/catalog.hpp"
#include "config/config_reading.hpp"
#include "config/param_values.hpp"
#include "core/error.hpp"
#include "core/files.hpp"
#include "io/csv.hpp"  // kMaxHeaderRows

namespace dpclust {
namespace fs = std::filesystem;
using yaml::Located;

// $DPCLUST_REGISTRY replaces the project's registry (a site's own list of datasets, or a test's).
fs::path registry_path() {
  if (const char* env = std::getenv("DPCLUST_REGISTRY"); env && *env) return fs::path(env);
  return fs::path(build_info().source_dir) / "datasets" / "registry.yaml";
}

const std::vector<std::string> kDatasetKeys = {
    "name",
    "use",
    "file",
    "data_file",
    "format",
    "columns",
    "label",
    "delimiter",
    "header",
    "max_rows",
    "generator",
    "fallback",
    "project",
    "bounds",
    "clip_to_bounds",
    "scale",
    "sample",
    "sample_seed",
    "params",
    "reference",
    "description",
    "bounds_from_data",
    "public_bounds",       // DS1-DS3: the paper's data-derived box, and a public one
    "missing",             // csv/tsv/arff: `refuse` (default) or `drop` rows with a missing value
    "nominal",             // arff/csv/tsv: `skip` (default), `codes` or `onehot` nominal or text columns
    "nominal_order",       // csv/tsv: `sorted` (default) or `appearance`: the codes of a text column
    "dates",               // csv/tsv: `skip` (default), `days` or `seconds`: date and timestamp columns
    "header_rows",         // csv/tsv: rows of column names at the top (names joined)
    "identifier_columns",  // csv/tsv/arff: `drop` (default) or `keep` record-ID columns
    "ragged",
    "items_per_row",  // fimi: transactions of different lengths (docs/choices.md)
    "family",
    "tuned_on_data",  // benchmarks: the dataset's family; parameters chosen on the data (docs/benchmark.md)
    "resample_per_class",
    "resample_seed"};  // DPM's artifact's class-balanced resample (data/transforms.hpp)

namespace {

// `scale: none | standard | minmax` of a dataset or its generator.
Scaling scaling_of(const Located& at) {
  Scaling s = Scaling::none;
  if (!parse_scaling(yaml::as_string(at), s))
    yaml::fail(at, "scale must be 'standard', 'minmax' or 'none'",
               "standard: zero mean and unit variance per column; minmax: each column to [-1, 1] by its min and max "
               "(FastLloyd's "
               "evaluation); both read the data, and the results are flagged");
  return s;
}

ParamSet parse_generator(const Located& at, std::string& type_out) {
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
  // Parameters that must agree with each other (uniform's low < high, ...): refused here, with the
  // offending key's line, so that `validate` catches what generating the points would refuse.
  if (gen->check) {
    try {
      gen->check(ps);
    } catch (const InputError& e) {
      yaml::fail(at.has(e.where()) ? at.child(e.where()) : at, e.problem(), e.fix());
    }
  }
  return ps;
}

}  // namespace

// config_reading.hpp.
nlohmann::json node_to_json(const YAML::Node& n) {
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

namespace {

// A generated dataset: the generator, and refusals of the keys that apply to files only.
void parse_generated(const Located& at, DatasetSpec& d) {
  d.generator_params = parse_generator(at.child("generator"), d.generator);
  if (at.child("generator").has("scale")) d.scaling = scaling_of(at.child("generator").child("scale"));
  if (at.has("missing")) yaml::fail(at.child("missing"), "missing applies to file datasets only", "remove the key");
  for (const char* key : {"nominal", "nominal_order", "dates", "header_rows"})
    if (at.has(key)) yaml::fail(at.child(key), std::string(key) + " applies to files only", "remove the key");
  if (at.has("identifier_columns"))
    yaml::fail(at.child("identifier_columns"), "identifier_columns applies to csv, tsv and arff files only",
               "remove the key");
  for (const char* key : {"ragged", "items_per_row"})
    if (at.has(key)) yaml::fail(at.child(key), std::string(key) + " applies to fimi files only", "remove the key");
}

// `file` or `data_file`: one file, a list of files, or a glob in the file name; the list and the glob are read
// as one dataset, the files concatenated in sorted path order (loading/dataset_loading.cpp). Returns the
// entries as written; fills the resolved paths.
std::vector<std::string> parse_file_paths(const Located& file_at, bool under_data_root, const fs::path& base_dir,
                                          const fs::path& data_root, DatasetSpec& d) {
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
  d.file_under_data_root = under_data_root;
  for (const std::string& e : entries) {
    fs::path r;
    if (under_data_root) {
      if (!data_root.empty()) r = fs::absolute(data_root / e).lexically_normal();
    } else {
      fs::path p(e);
      r = fs::absolute(p.is_absolute() ? p : base_dir / p).lexically_normal();
    }
    if (r.empty()) continue;
    if (d.resolved.empty()) d.resolved = r;
    if (d.multi_file) d.resolved_files.push_back(r);
  }
  return entries;
}

// `format`, or the format told by the first file's name.
void parse_format(const Located& at, const Located& file_at, const std::string& first_file, DatasetSpec& d) {
  if (at.has("format")) {
    d.format = yaml::as_string(at.child("format"));
    if (d.format != "csv" && d.format != "tsv" && d.format != "arff" && d.format != "gowalla" && d.format != "fimi")
      yaml::fail(at.child("format"), "unknown format '" + yaml::clip(d.format) + "'",
                 "one of: csv, tsv, arff, gowalla, fimi");
  } else {
    std::string f = first_file;
    if (f.size() > 3 && f.substr(f.size() - 3) == ".gz") f = f.substr(0, f.size() - 3);
    auto ends = [&](const std::string& s) { return f.size() >= s.size() && f.substr(f.size() - s.size()) == s; };
    if (ends(".arff")) d.format = "arff";
    else if (ends(".tsv")) d.format = "tsv";
    else if (ends(".csv")) d.format = "csv";
    else
      yaml::fail(at, "cannot tell the format of '" + yaml::clip(d.file) + "' from its name",
                 "add format: csv | tsv | arff | gowalla | fimi");
  }
  if (d.multi_file && d.format != "csv" && d.format != "tsv")
    yaml::fail(file_at, "a list or glob of files is supported for csv and tsv files only (format: " + d.format + ")",
               "give one file, or convert the files to csv");
}

// What the table formats do with missing values, nominal attributes and record-ID columns.
void parse_table_cleaning(const Located& at, DatasetSpec& d) {
  // Missing values ('?', 'NA', empty) the same in every table format (io/missing_values.hpp): refuse (the
  // default; `error` is its former name) counts the rows and columns and stops, drop leaves the rows out.
  if (at.has("missing")) {
    const std::string m = yaml::as_string(at.child("missing"));
    if (m != "refuse" && m != "error" && m != "drop")
      yaml::fail(at.child("missing"),
                 "missing must be 'refuse' (default: rows with a missing value stop the load, counted, with their "
                 "columns) or 'drop'",
                 "write missing: drop to leave out (and count) the rows with a missing value ('?', 'NA' or empty) in a "
                 "selected column");
    if (m == "drop" && d.format != "csv" && d.format != "tsv" && d.format != "arff")
      yaml::fail(at.child("missing"),
                 "missing: drop applies to csv, tsv and arff files only (format: " + d.format + ")",
                 "remove the key, or clean the file first");
    d.drop_missing = m == "drop";
  }
  // Nominal ARFF attributes, and CSV text and true/false columns, other than the label; the order that codes
  // a CSV text column; CSV date columns (io/table_options.hpp).
  const bool table = d.format == "csv" || d.format == "tsv" || d.format == "arff";
  const auto choice_key = [&](const char* key, const auto& table_of, auto& into, bool csv_only,
                              const std::string& fix) {
    if (!at.has(key)) return;
    const std::string m = yaml::as_string(at.child(key));
    if (csv_only ? d.format != "csv" && d.format != "tsv" : !table)
      yaml::fail(at.child(key),
                 std::string(key) + " applies to " + (csv_only ? "csv and tsv" : "csv, tsv and arff") +
                     " files only (format: " + d.format + ")",
                 "remove the key");
    const auto v = table_choice(table_of, m);
    if (!v) yaml::fail(at.child(key), std::string(key) + " must be one of: " + table_choice_names(table_of), fix);
    into = *v;
  };
  choice_key("nominal", kNominalEncodings, d.nominal, false,
             "skip (default): left out with a warning unless listed in `columns`; codes: one coordinate per nominal or "
             "text column "
             "(its number, else its value's 0-based position); onehot: one 0/1 coordinate per value");
  choice_key(
      "nominal_order", kNominalOrders, d.nominal_order, true,
      "sorted (default): a text column's values coded in their sorted order; appearance: in order of first appearance");
  choice_key(
      "dates", kDateEncodings, d.dates, true,
      "skip (default): date and timestamp columns left out; days or seconds: a coordinate, since 1970-01-01 UTC");
  if (at.has("nominal_order") && d.nominal == NominalEncoding::skip)
    yaml::fail(at.child("nominal_order"),
               "nominal_order orders the codes of text columns, but `nominal` is skip (no column is coded)",
               "set nominal: codes or nominal: onehot, or remove nominal_order");
  // Columns that identify records (a row number, wdbc's IDNumber) are left out of the coordinates when
  // `columns` is not given (loading/dataset_loading.cpp, data/identifier_columns.hpp); `keep` turns that off.
  if (at.has("identifier_columns")) {
    const std::string m = yaml::as_string(at.child("identifier_columns"));
    if (m != "drop" && m != "keep")
      yaml::fail(at.child("identifier_columns"),
                 "identifier_columns must be 'drop' (default: columns named like an ID, or of integers "
                 "increasing in file order, are left out when `columns` is not given) or 'keep'",
                 "write identifier_columns: keep to cluster on every numeric column, or list the columns in `columns`");
    if (d.format != "csv" && d.format != "tsv" && d.format != "arff")
      yaml::fail(at.child("identifier_columns"),
                 "identifier_columns applies to csv, tsv and arff files only (format: " + d.format + ")",
                 "remove the key");
    d.keep_identifier_columns = m == "keep";
  }
}

// FIMI transactions as attributes (attribute j = the j-th item; DRBT Sec. 6.1, docs/choices.md): what to do
// with lines of different lengths, and an optional fixed number of attributes.
void parse_fimi_keys(const Located& at, DatasetSpec& d) {
  for (const char* key : {"ragged", "items_per_row"})
    if (at.has(key) && d.format != "fimi")
      yaml::fail(at.child(key), std::string(key) + " applies to fimi files only (format: " + d.format + ")",
                 "remove the key");
  if (at.has("ragged")) {
    d.fimi_ragged = yaml::as_string(at.child("ragged"));
    if (d.fimi_ragged != "error" && d.fimi_ragged != "pad" && d.fimi_ragged != "truncate")
      yaml::fail(at.child("ragged"), "ragged must be 'error' (default), 'pad' or 'truncate'",
                 "pad: d = the longest line, short lines padded with item 0; truncate: d = the shortest line");
  }
  if (at.has("items_per_row")) {
    const std::int64_t n = yaml::as_int(at.child("items_per_row"));
    if (n < 1 || n > 100000) yaml::fail(at.child("items_per_row"), "items_per_row must be between 1 and 100000");
    if (d.fimi_ragged == "truncate")
      yaml::fail(
          at.child("items_per_row"),
          "items_per_row already keeps the first N items of longer lines; ragged: truncate cannot be combined with it",
          "use ragged: pad (short lines padded with item 0) or ragged: error (short lines refused)");
    d.fimi_items_per_row = static_cast<std::uint64_t>(n);
  }
}

// Which columns are read and how: columns, label, delimiter, header, max_rows; and the generator that stands
// in when the file is missing (fallback).
void parse_columns_and_rows(const Located& at, DatasetSpec& d) {
  if (at.has("columns")) d.columns = yaml::as_string_list(at.child("columns"));
  if (at.has("label")) {
    d.label = yaml::as_string(at.child("label"));
    if (d.label == "none") {
      d.no_label = true;
      d.label.clear();
    }
  }
  if (at.has("delimiter")) {
    d.delimiter = yaml::as_string(at.child("delimiter"));
    if (d.delimiter == "\\t" || d.delimiter == "tab") d.delimiter = "\t";
    if (d.delimiter.size() != 1)
      yaml::fail(at.child("delimiter"), "the delimiter must be one character", "e.g. ',' or tab");
  }
  if (at.has("header")) {
    d.header = yaml::as_string(at.child("header"));
    if (d.header != "auto" && d.header != "true" && d.header != "false")
      yaml::fail(at.child("header"), "header must be auto, true or false");
  }
  if (at.has("header_rows")) {
    if (d.format != "csv" && d.format != "tsv")
      yaml::fail(at.child("header_rows"), "header_rows applies to csv and tsv files only (format: " + d.format + ")",
                 "remove the key");
    const std::int64_t n = yaml::as_int(at.child("header_rows"));
    if (n < 1 || n > static_cast<std::int64_t>(kMaxHeaderRows))
      yaml::fail(at.child("header_rows"),
                 "header_rows must be between 1 and " + std::to_string(kMaxHeaderRows) +
                     ": the rows of column names at the top of the file",
                 "e.g. header_rows: 3 for names in three rows (each column's names are joined with '_')");
    if (d.header == "false")
      yaml::fail(at.child("header_rows"), "header_rows names rows of column names, but header is false",
                 "remove one of the two keys");
    d.header_rows = static_cast<std::uint64_t>(n);
  }
  if (at.has("max_rows")) {
    d.max_rows = yaml::as_int(at.child("max_rows"));
    if (d.max_rows < 1) yaml::fail(at.child("max_rows"), "max_rows must be >= 1");
  }
  if (at.has("fallback")) {
    d.fallback_available = true;
    d.fallback_params = parse_generator(at.child("fallback"), d.fallback_generator);
    if (at.child("fallback").has("scale"))
      d.fallback_scale = yaml::as_string(at.child("fallback").child("scale")) == "standard";
  }
}

// A file dataset: its paths, format, table options and columns.
void parse_file_source(const Located& at, bool under_data_root, const fs::path& base_dir, const fs::path& data_root,
                       DatasetSpec& d) {
  const Located file_at = at.child(under_data_root ? "data_file" : "file");
  const std::vector<std::string> entries = parse_file_paths(file_at, under_data_root, base_dir, data_root, d);
  parse_format(at, file_at, entries[0], d);
  parse_table_cleaning(at, d);
  parse_fimi_keys(at, d);
  parse_columns_and_rows(at, d);
}

// `project`: longitude/latitude columns projected to kilometres around ref_lat.
void parse_projection(const Located& at, DatasetSpec& d) {
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

// A box written [[lo, hi], ...], one pair per dimension, lo < hi (`bounds` as a list, `public_bounds`).
Bounds parse_box(const Located& b, const std::string& key) {
  yaml::expect_sequence(b);
  if (b.node.size() == 0) yaml::fail(b, "empty " + key, "give [lo, hi] for every dimension");
  Bounds box;
  for (std::size_t j = 0; j < b.node.size(); ++j) {
    auto pair = b.item(j);
    if (!pair.node.IsSequence() || pair.node.size() != 2) yaml::fail(pair, "each bound is a pair [lo, hi]");
    double lo = yaml::as_double(pair.item(0)), hi = yaml::as_double(pair.item(1));
    if (!(lo < hi)) yaml::fail(pair, "bound has lo >= hi", "write [lo, hi] with lo < hi");
    box.lo.push_back(lo);
    box.hi.push_back(hi);
  }
  return box;
}

// The public domain: `bounds` (data | none | public | a box), `bounds_from_data` and `public_bounds`.
void parse_bounds(const Located& at, const std::string& name, DatasetSpec& d) {
  if (at.has("bounds")) {
    auto b = at.child("bounds");
    if (b.node.IsScalar()) {
      const std::string mode = b.node.Scalar();
      if (mode != "data" && mode != "none" && mode != "public")
        yaml::fail(b,
                   "bounds must be 'data', 'none', 'public' (the dataset's public_bounds) or a list [[lo, hi], ...] "
                   "per dimension");
      d.bounds_mode = mode;
    } else {
      d.bounds = parse_box(b, "bounds");
      d.bounds_mode = "config";
    }
  }
  // bounds_from_data: true declares the configured box to be the data's exact bounding box (flagged
  // non-private in every result, BoundsSource::data_as_paper); `bounds: public` selects public_bounds,
  // a box chosen without the exact extremes, instead (not flagged). DS1-DS3 of registry.yaml use both.
  if (at.has("bounds_from_data")) d.bounds_from_data = yaml::as_bool(at.child("bounds_from_data"));
  if (at.has("public_bounds")) d.public_bounds = parse_box(at.child("public_bounds"), "public_bounds");
  if (d.bounds_mode == "public") {
    if (d.public_bounds.empty())
      yaml::fail(
          at.child("bounds"), "bounds: public, but dataset '" + name + "' has no public_bounds",
          "add public_bounds: [[lo, hi], ...] to the dataset (or its registry entry), or give the bounds as a list");
    d.bounds = d.public_bounds;
    d.bounds_mode = "config";
    d.bounds_from_data = false;  // the public box is not the data's
    d.bounds_from_public_key = true;
  }
}

// What is done to the points once read: clip_to_bounds, scale, sample, resample_per_class.
void parse_transforms(const Located& at, DatasetSpec& d) {
  if (at.has("clip_to_bounds")) {
    // false | true (= drop) | drop | clamp (data/transforms.hpp, OutOfBounds).
    const auto c = at.child("clip_to_bounds");
    const std::string v = yaml::as_string(c);
    if (v == "false" || v == "False" || v == "no") d.clip_to_bounds = OutOfBounds::refuse;
    else if (v == "true" || v == "True" || v == "yes" || v == "drop") d.clip_to_bounds = OutOfBounds::drop;
    else if (v == "clamp") d.clip_to_bounds = OutOfBounds::clamp;
    else
      yaml::fail(c, "clip_to_bounds must be false, true (= drop), drop or clamp",
                 "false refuses points outside the bounds, drop leaves them out, clamp moves each coordinate to the "
                 "nearest bound");
  }
  if (at.has("scale")) d.scaling = scaling_of(at.child("scale"));
  if (at.has("sample")) {
    d.sample = yaml::as_int(at.child("sample"));
    if (d.sample < 1) yaml::fail(at.child("sample"), "sample must be a positive number of points");
  }
  if (at.has("sample_seed")) d.sample_seed = yaml::as_uint(at.child("sample_seed"));
  if (at.has("resample_per_class")) {
    d.resample_per_class = yaml::as_int(at.child("resample_per_class"));
    if (d.resample_per_class < 1 || d.resample_per_class > (std::int64_t{1} << 32))
      yaml::fail(at.child("resample_per_class"), "resample_per_class must be a number of rows per class in [1, 2^32]");
  }
  if (at.has("resample_seed")) {
    if (!at.has("resample_per_class"))
      yaml::fail(at.child("resample_seed"), "resample_seed without resample_per_class", "add resample_per_class: N");
    d.resample_seed = yaml::as_uint(at.child("resample_seed"));
  }
}

// The dataset's method parameters (kept raw: typed once the methods are known), its reference, and what a
// benchmark says of it (family, tuned_on_data).
void parse_params_and_description(const Located& at, DatasetSpec& d, RawParams& raw_params) {
  if (at.has("params")) {
    auto ps = at.child("params");
    yaml::expect_map(ps);
    for (auto it = ps.node.begin(); it != ps.node.end(); ++it) {
      std::string key = it->first.as<std::string>();
      raw_params.emplace(key, ps.child(key));
    }
  }
  if (at.has("reference")) d.reference = yaml::as_string(at.child("reference"));
  if (at.has("family")) {
    d.family = yaml::as_string(at.child("family"));
    if (d.family.empty())
      yaml::fail(at.child("family"), "family is empty", "name the dataset family, e.g. family: blobs");
  }
  if (at.has("tuned_on_data")) {
    // Which of this dataset's parameters were chosen by looking at the data, and how: said, never guessed.
    auto t = at.child("tuned_on_data");
    yaml::expect_map(t);
    for (auto it = t.node.begin(); it != t.node.end(); ++it) {
      const std::string key = it->first.as<std::string>();
      const std::string how = yaml::as_string(t.child(key));
      if (how.empty())
        yaml::fail(t.child(key), "say how '" + key + "' was chosen on the data",
                   "e.g. alpha: \"the k-distance plot of the data\"");
      d.tuned_on_data.emplace_back(key, how);
    }
    if (d.tuned_on_data.empty())
      yaml::fail(t, "tuned_on_data is empty",
                 "name the parameters chosen on the data, e.g. {alpha: \"k-distance plot\"}");
  }
}

// Reads one dataset entry (already merged with its registry entry, if any), key group by key group.
DatasetSpec parse_dataset(const Located& at, const std::string& name, const fs::path& base_dir,
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
  if (has_gen) parse_generated(at, d);
  else parse_file_source(at, has_data_file, base_dir, data_root, d);
  if (at.has("project")) parse_projection(at, d);
  parse_bounds(at, name, d);
  parse_transforms(at, d);
  parse_params_and_description(at, d, raw_params);
  nlohmann::json def = node_to_json(at.node);
  def.erase("params");  // parameters are part of the cell key, not of the data
  def.erase("reference");
  def.erase("description");
  d.definition = def;
  return d;
}

YAML::Node load_registry() {
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

}  // namespace

std::vector<std::string> registry_names() {
  std::vector<std::string> out;
  YAML::Node reg = load_registry();
  for (auto it = reg.begin(); it != reg.end(); ++it) out.push_back(it->first.as<std::string>());
  return out;
}

// A config dataset entry either defines a dataset inline or names a registry entry ("use", or its
// own name) whose keys it may override.
DatasetSpec resolve_dataset(const Located& at, const fs::path& base_dir, const fs::path& data_root,
                            RawParams& raw_params) {
  yaml::check_keys(at, kDatasetKeys);
  if (!at.has("name")) yaml::fail(at, "a dataset needs a 'name'");
  const std::string name = yaml::as_string(at.child("name"));
  check_name(at.child("name"), name, "dataset name", "_ . + -");
  const bool inline_def = at.has("file") || at.has("data_file") || at.has("generator");
  if (inline_def && at.has("use"))
    yaml::fail(at.child("use"),
               "'use' names a registered dataset; it cannot be combined with file/data_file/generator");
  if (inline_def) return parse_dataset(at, name, base_dir, data_root, raw_params);

  const std::string use = at.has("use") ? yaml::as_string(at.child("use")) : name;
  YAML::Node reg = load_registry();
  if (!reg[use]) {
    std::string s = closest_match(use, registry_names());
    yaml::fail(
        at.has("use") ? at.child("use") : at.child("name"),
        "'" + yaml::clip(use) + "' is not a registered dataset and the entry defines no file, data_file or generator",
        (s.empty() ? "" : "did you mean '" + s + "'? ") + "registered: " + join(registry_names()) +
            " (see `dpclust list`)");
  }
  // Merge: registry entry, then the config's overrides.
  YAML::Node merged = YAML::Clone(reg[use]);
  // `source:` says where the file comes from (`dpclust data`); it does not change the data, so it is not
  // part of the dataset's definition (nor of any cell's fingerprint).
  merged.remove("source");
  merged.remove("sources");  // the same, as a list tried in order
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
  YAML::Node src = reg[use]["source"];
  if (!src && reg[use]["sources"] && reg[use]["sources"].IsSequence() && reg[use]["sources"].size() > 0)
    src = reg[use]["sources"][0];
  if (src && src.IsMap() && !at.has("file") && !at.has("data_file")) {
    for (const auto& [key, into] :
         {std::pair<const char*, std::uint64_t*>{"rows", &d.declared_rows}, {"dims", &d.declared_dims}}) {
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

}  // namespace dpclust
