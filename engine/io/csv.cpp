#include "io/csv.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "core/error.hpp"
#include "core/files.hpp"
#include "io/csv_columns.hpp"
#include "io/csv_scan.hpp"
#include "io/field_kind.hpp"
#include "io/iso_dates.hpp"
#include "io/label_text.hpp"
#include "io/line_reader.hpp"
#include "io/missing_values.hpp"
#include "io/text.hpp"

namespace dpclust {
namespace fs = std::filesystem;

std::string dataset_stem(const fs::path& path) {
  fs::path p = path.filename();
  if (text::iequals(p.extension().string(), ".gz")) p = p.stem();
  return p.stem().string();
}

namespace csv {
namespace {

// Error paths are out of line so the row loop stays small.
// A bad value is named by its line (in.where()), its record index and its column, never shown: the text of
// a private record's field is data even when it is not a number (see record_label in text.hpp).
[[noreturn, gnu::cold, gnu::noinline]] void bad_value(const LineReader& in, const std::string& column,
                                                      std::string_view value, std::size_t record) {
  const std::string at = text::record_label(record) + ", column " + column + ": ";
  double v;
  if (text::parse_double(value, v))  // it parsed, so it was NaN or infinite
    throw InputError(in.where(), at + "the value is NaN or infinite: NaN/inf not allowed; remove or impute the row",
                     "drop or impute rows with missing or infinite values before loading");
  // The first pass typed the column from every value, so this one changed after it (the file was written
  // while it was read).
  throw InputError(in.where(),
                   at + "the value is not what the first pass over the file found there" + text::kValueNotShown,
                   "load the file again once nothing writes to it");
}

std::size_t reserve_rows(const LineReader& in, std::size_t line_bytes, std::size_t max_rows) {
  const std::size_t est = in.estimated_bytes() / (line_bytes + 1);
  const std::size_t rows = est + est / 8 + 16;  // rows vary in length: a little headroom
  return max_rows ? std::min(rows, max_rows) : rows;
}

// What one file contributes to the dataset being assembled.
struct FileRead {
  std::size_t rows = 0;     // rows kept
  std::size_t dropped = 0;  // rows left out for a missing value (counted by MissingValues)
  std::size_t blank = 0;    // blank rows skipped (among the rows read)
};

// The one-pass read assumed every listed column holds numbers, and a value says otherwise: the load starts
// again with the first pass, which types the columns and says what the value is, at its line.
struct NotAllNumbers {};

// The planned coordinates of one row, written to out[0 .. plan.width()); a missing value is noted
// (MissingValues decides the row's fate at its end). `one_pass`: a value that is not a finite number throws
// NotAllNumbers.
void encode_row(const ColumnPlan& plan, const Layout& layout, const CsvOptions& options,
                const std::vector<std::string_view>& fields, const LineReader& in, std::size_t record,
                MissingValues& missing, bool one_pass, double* out) {
  for (const PlannedCoordinate& c : plan.coords) {
    const std::string_view v = fields[c.column];
    const std::size_t width = c.width();
    if (is_missing_value(v)) {
      missing.note(short_column(layout, plan.typed, c.column), in.where());
      out += width;
      continue;
    }
    switch (c.kind) {
      case CoordKind::number:
        if (!text::parse_double(v, *out) || !std::isfinite(*out)) {
          if (one_pass) throw NotAllNumbers{};
          bad_value(in, shown_column(layout, plan.typed, c.column), v, record);
        }
        break;
      case CoordKind::boolean: {
        const std::optional<bool> b = parse_boolean(v);
        if (!b) bad_value(in, shown_column(layout, plan.typed, c.column), v, record);
        *out = *b ? 1.0 : 0.0;
        break;
      }
      case CoordKind::date: {
        const std::optional<IsoTime> t = parse_iso8601(v);
        if (!t) bad_value(in, shown_column(layout, plan.typed, c.column), v, record);
        *out = options.dates == DateEncoding::days ? t->seconds / 86400.0 : t->seconds;
        break;
      }
      case CoordKind::code:
      case CoordKind::onehot: {
        const auto it = c.categories->code.find(v);
        if (it == c.categories->code.end()) bad_value(in, shown_column(layout, plan.typed, c.column), v, record);
        if (c.kind == CoordKind::code) {
          *out = static_cast<double>(it->second);
        } else {
          std::fill(out, out + width, 0.0);
          out[it->second] = 1.0;
        }
        break;
      }
    }
    out += width;
  }
}

// The second pass over one file: its data rows (below its header rows) into ds and the labels.
// rows_before: rows kept from the earlier files (max_rows counts them); records_before: their data rows, kept
// or not (messages number records in file order, as the first pass does).
FileRead read_file_rows(const fs::path& path, const CsvOptions& options, const TableScan& scan, const ColumnPlan& plan,
                        Dataset& ds, LabelText& labels, MissingValues& missing, std::size_t rows_before,
                        std::size_t records_before, bool one_pass) {
  const Layout& layout = scan.layout();
  const char delim = resolve_delimiter(path, options.delimiter);
  LineReader in(path);
  std::string_view line;
  std::vector<std::string_view> fields;
  std::size_t header_left = layout.header_rows, header_line = 0;
  std::vector<double> row(ds.d);
  FileRead got;
  while (options.max_rows == 0 || rows_before + got.rows < options.max_rows) {
    if (!in.next(line)) break;
    text::split_fields(line, delim, "\"", fields);
    if (blank_row(line, fields)) {
      ++got.blank;
      continue;
    }
    if (header_left > 0) {
      --header_left;
      header_line = in.line_number();
      continue;
    }
    if (fields.size() != layout.names.size())  // the first pass checked every row: the file changed since
      throw InputError(
          in.where(),
          "expected " + std::to_string(layout.names.size()) + " fields, found " + std::to_string(fields.size()),
          "load the file again once nothing writes to it");
    const std::size_t record = records_before + got.rows + got.dropped;
    encode_row(plan, layout, options, fields, in, record, missing, one_pass, row.data());
    if (plan.label && is_missing_value(fields[*plan.label]))
      missing.note(short_column(layout, plan.typed, *plan.label), in.where());
    if (missing.end_row()) {
      ++got.dropped;
      continue;
    }
    if (rows_before + got.rows == 0) {
      const std::size_t r = reserve_rows(in, line.size(), options.max_rows);
      ds.coords.reserve(std::min(r * ds.d, in.max_values()));
      if (plan.label) ds.labels.reserve(std::min(r, in.max_values()));
    }
    ds.coords.insert(ds.coords.end(), row.begin(), row.end());
    if (plan.label)
      ds.labels.push_back(labels.code(fields[*plan.label], in, short_column(layout, plan.typed, *plan.label), record));
    ++got.rows;
    in.check_values(ds.coords.size() + ds.labels.size());
  }
  // Under missing: refuse, rows left out for a missing value are reported (with their count) once every file is read.
  const bool refused_later = missing.policy() == MissingPolicy::refuse && got.dropped > 0;
  if (got.rows == 0 && !refused_later && !(options.max_rows && rows_before >= options.max_rows))
    throw InputError(in.where(header_line),
                     "no data rows with every coordinate present (" + std::to_string(got.dropped) +
                         " rows dropped by missing: drop)",
                     "leave the columns with missing values out of `columns`, or check that this is the right file");
  return got;
}

const char* coordinate_kind_name(CoordKind kind) {
  switch (kind) {
    case CoordKind::number: return "number";
    case CoordKind::boolean: return "boolean";
    case CoordKind::code: return "code";
    case CoordKind::onehot: return "onehot";
    case CoordKind::date: return "date";
  }
  return "?";
}

// What the dataset was read from and how: every column accounted for (coordinates, label, left out),
// the encodings and their value lists, the counts of blank and missing rows.
void record_provenance(Dataset& ds, const CsvOptions& options, const TableScan& scan, const ColumnPlan& plan,
                       const LabelText& labels, const MissingValues& missing, const nlohmann::json& files,
                       const nlohmann::json& per_file, std::size_t rows, std::size_t blank_rows) {
  const Layout& layout = scan.layout();
  // Guessed, unconfirmed names (header: auto) stay in the results for the report's tables and figures, which
  // are not a release; `dpclust release` writes "#<index>" in their place (name_confirmed: false).
  const auto entry = [&](std::size_t c, const std::string& name) {
    nlohmann::json col = {{"name", name}, {"index", c}};
    if (layout.guessed) col["name_confirmed"] = layout.confirmed_by_data || static_cast<bool>(plan.typed[c]);
    return col;
  };
  nlohmann::json cols = nlohmann::json::array(), nominal = nlohmann::json::object(), values = nlohmann::json::object(),
                 dates = nlohmann::json::object();
  for (const PlannedCoordinate& c : plan.coords) {
    const std::string& name = layout.names[c.column];
    if (c.kind == CoordKind::onehot)
      for (const std::string& v : c.categories->values) cols.push_back(entry(c.column, name + "=" + v));
    else cols.push_back(entry(c.column, name));
    if (c.kind == CoordKind::code || c.kind == CoordKind::onehot || c.kind == CoordKind::boolean)
      nominal[name] = coordinate_kind_name(c.kind);
    if (c.categories) values[name] = c.categories->values;
    if (c.kind == CoordKind::date)
      dates[name] = std::string(options.dates == DateEncoding::days ? "days" : "seconds") +
                    " since 1970-01-01T00:00:00Z (a time without a zone read as UTC)";
  }
  nlohmann::json skipped = nlohmann::json::array();
  for (const SkippedColumn& s : plan.skipped) {
    nlohmann::json e = entry(s.column, layout.names[s.column]);
    e["type"] = column_type_name(s.type);
    e["reason"] = s.reason;
    skipped.push_back(std::move(e));
  }
  const char delim = scan.delimiter();
  ds.provenance["files"] = files;
  ds.provenance["format"] = delim == '\t' ? "tsv" : "csv";
  ds.provenance["delimiter"] = std::string(1, delim);
  ds.provenance["header"] = layout.header_rows > 0;
  if (layout.header_rows > 1) ds.provenance["header_rows"] = layout.header_rows;
  ds.provenance["file_columns"] = scan.columns();
  ds.provenance["columns"] = cols;
  ds.provenance["label"] = plan.label ? nlohmann::json(layout.names[*plan.label]) : nlohmann::json(nullptr);
  if (plan.label) ds.provenance["label_rule"] = plan.label_by_name ? "name: class, label or target" : "named";
  if (layout.guessed) ds.provenance["header_guessed"] = true;
  if (layout.confirmed_by_data) ds.provenance["header_confirmed_by_data"] = true;
  if (plan.label && !labels.integer()) ds.provenance["label_map"] = labels.mapping();
  if (!nominal.empty()) {
    ds.provenance["nominal_coordinates"] = nominal;
    if (!values.empty()) {
      ds.provenance["nominal_order"] = table_choice_name(kNominalOrders, options.nominal_order);
      ds.provenance["nominal_values"] = values;
    }
  }
  if (!dates.empty()) ds.provenance["date_coordinates"] = dates;
  if (!skipped.empty()) ds.provenance["skipped_attributes"] = skipped;
  if (blank_rows > 0) ds.provenance["blank_rows"] = blank_rows;
  ds.provenance["rows"] = rows;
  if (files.size() > 1) ds.provenance["rows_per_file"] = per_file;
  // An exact count of the input rows, kept with the other loading counts (clipped_to_bounds); the
  // mechanisms never read it.
  if (options.missing == MissingPolicy::drop) ds.provenance["missing"] = missing.provenance();
  if (options.max_rows) ds.provenance["max_rows"] = options.max_rows;
}

// The second pass over every file the first one read: the rows, then the provenance. With `one_pass` (the
// first pass read the layouts only) nullopt when a value, a missing one under `missing: refuse`, or a label
// error says the full first pass is needed.
std::optional<Dataset> read_dataset(const std::vector<fs::path>& paths, const CsvOptions& options,
                                    const TableScan& scan, const ColumnPlan& plan, const std::string& source,
                                    bool one_pass) {
  Dataset ds;
  ds.name = options.name.empty() ? dataset_stem(paths.front()) : options.name;
  for (const PlannedCoordinate& c : plan.coords) {
    const std::string& name = scan.layout().names[c.column];
    if (c.kind == CoordKind::onehot)
      for (const std::string& v : c.categories->values) ds.column_names.push_back(name + "=" + v);
    else ds.column_names.push_back(name);
  }
  ds.d = ds.column_names.size();
  LabelText labels;
  std::size_t rows = 0, dropped = 0, blank = 0;
  MissingValues missing(options.missing);
  nlohmann::json files = nlohmann::json::array(), per_file = nlohmann::json::array();
  try {
    for (std::size_t f = 0; f < scan.files_scanned(); ++f) {
      if (options.max_rows && rows >= options.max_rows) break;  // later files are not read (nor listed)
      const FileRead r =
          read_file_rows(paths[f], options, scan, plan, ds, labels, missing, rows, rows + dropped, one_pass);
      rows += r.rows;
      dropped += r.dropped;
      blank += r.blank;
      files.push_back(file_fingerprint(paths[f]));
      per_file.push_back(r.rows);
    }
  } catch (const NotAllNumbers&) {
    return std::nullopt;
  } catch (const InputError&) {
    if (one_pass) return std::nullopt;
    throw;
  }
  if (one_pass && missing.policy() == MissingPolicy::refuse && missing.rows() > 0) return std::nullopt;
  missing.finish(source, rows + dropped);
  ds.n = rows;
  if (ds.coords.capacity() > ds.coords.size() + ds.coords.size() / 4) ds.coords.shrink_to_fit();
  labels.finish(ds.labels);
  record_provenance(ds, options, scan, plan, labels, missing, files, per_file, rows, blank);
  // Codes and one-hot columns made from the values the file holds are a function of every record: one
  // record with a new value moves the others' coordinates (or adds a dimension), so no per-record
  // guarantee holds for a release on them (an ARFF file's declared values are the header's, public).
  std::vector<std::string> encoded;
  for (const PlannedCoordinate& c : plan.coords)
    if (c.categories) encoded.push_back(short_column(scan.layout(), plan.typed, c.column));
  if (!encoded.empty())
    ds.non_private_notes.push_back(
        "nominal: " + std::string(table_choice_name(kNominalEncodings, options.nominal)) + " on the text column(s) " +
        text::join(encoded) +
        ": the values, and so each record's coordinates, are taken from the data (one record with a new "
        "value moves the codes or one-hot columns of the others)");
  return ds;
}

// Columns listed in `columns` (and a label named, or none) are read in one pass when they hold numbers, as
// the large files of the papers do (Cabspotting's 11 million rows, NYC's crashes): the layouts from the
// files' first rows, then the rows themselves. The first value that is not a number (a text, true/false or
// date column, a NaN), a missing value under `missing: refuse` or a label error makes the caller start
// again with the full first pass, which types every listed column and reports what it finds; the result
// is then the same as that pass gives. Not taken when the label may come from a column's name (that
// needs the column typed first): nullopt.
std::optional<Dataset> read_listed_numbers(const std::vector<fs::path>& paths, const CsvOptions& options,
                                           const std::string& source) {
  TableScan scan(options);
  ColumnRefs refs;
  bool label_by_name = false;
  try {
    for (const fs::path& path : paths)
      scan.scan_file(
          path,
          [&](const Layout& layout, const LineReader& in) {
            refs = resolve_refs(options, layout, in);
            std::vector<bool> typed = columns_to_type(options, layout, refs);
            for (std::size_t c = 0; c < typed.size(); ++c)
              label_by_name =
                  label_by_name || (typed[c] && (!refs.label || c != *refs.label) &&
                                    std::find(refs.columns.begin(), refs.columns.end(), c) == refs.columns.end());
            return typed;
          },
          /*rows=*/false);
  } catch (const InputError&) {
    return std::nullopt;  // the full pass says what is wrong
  }
  if (label_by_name) return std::nullopt;
  scan.assume_numeric(refs.columns);
  LabelChoice label;
  label.label = refs.label;
  scan.confirm_names(label.label);
  const ColumnPlan plan = plan_columns(options, scan, std::move(refs), label, source);
  return read_dataset(paths, options, scan, plan, source, /*one_pass=*/true);
}

}  // namespace
}  // namespace csv

Dataset load_csv_files(const std::vector<fs::path>& paths, const CsvOptions& options) {
  using namespace csv;
  if (paths.empty())
    throw InputError(options.name.empty() ? "dataset" : options.name, "no files to read", "list at least one file");
  if (options.header_rows > kMaxHeaderRows)
    throw InputError(
        paths.front().string(),
        "header_rows: " + std::to_string(options.header_rows) + " is more than " + std::to_string(kMaxHeaderRows),
        "set header_rows to the number of rows of column names at the top");
  const std::string source =
      paths.size() == 1 ? paths.front().string()
                        : paths.front().string() + " (and " + std::to_string(paths.size() - 1) + " more files)";
  if (!options.columns.empty())
    if (std::optional<Dataset> ds = read_listed_numbers(paths, options, source)) return std::move(*ds);
  // First pass: the layout, and every column's type.
  TableScan scan(options);
  ColumnRefs refs;
  for (const fs::path& path : paths) {
    const bool read = scan.scan_file(path, [&](const Layout& layout, const LineReader& in) {
      refs = resolve_refs(options, layout, in);
      return columns_to_type(options, layout, refs);
    });
    if (!read) break;  // max_rows reached: later files are not read (nor listed)
  }
  const LabelChoice label = choose_label(options, scan, refs);
  scan.confirm_names(label.label);
  const ColumnPlan plan = plan_columns(options, scan, std::move(refs), label, source);
  // Second pass: the rows.
  return *read_dataset(paths, options, scan, plan, source, /*one_pass=*/false);
}

Dataset load_csv(const fs::path& path, const CsvOptions& options) { return load_csv_files({path}, options); }

}  // namespace dpclust
