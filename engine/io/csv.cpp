#include "io/csv.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <functional>
#include <unordered_map>

#include "core/error.hpp"
#include "core/files.hpp"
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

namespace {

// Columns a file may have: a first row with more fields is a wrong delimiter or not a table.
constexpr std::size_t kMaxColumns = std::size_t{1} << 20;

bool ends_with_ci(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() && text::iequals(std::string_view(s).substr(s.size() - suffix.size()), suffix);
}

char resolve_delimiter(const fs::path& path, char requested) {
  if (requested != '\0') return requested;
  const std::string name = path.filename().string();
  return ends_with_ci(name, ".tsv") || ends_with_ci(name, ".tsv.gz") ? '\t' : ',';
}

std::string describe_delimiter(char d) { return d == '\t' ? "tab" : std::string("'") + d + "'"; }

// Which file columns become coordinates and which holds the label, decided once from the first row
// so the row loop only indexes.
struct ColumnPlan {
  bool header = false;
  bool names_guessed = false;      // header: auto took the first row for names: they may be a record's text
  std::vector<std::string> names;  // header names, or "col<i>" without a header
  // Guessed names the config typed (columns: [x, y], label: cls) are confirmed: the user knows them. The
  // others stay data: never in a message, the dataset's column names or its provenance.
  std::vector<bool> confirmed;
  std::vector<std::size_t> coords;
  std::optional<std::size_t> label;
};

bool all_digits(const std::vector<std::string>& refs) {
  return std::all_of(refs.begin(), refs.end(), [](const std::string& r) { return text::is_digits(r); });
}

bool names_used(const CsvOptions& o) {
  return !all_digits(o.columns) || (!o.label.empty() && !text::is_digits(o.label));
}

bool parses(std::string_view field) {
  double v;
  return text::parse_double(field, v);
}

// A column reference of digits as an index; absurdly long ones saturate (and are reported out of range).
std::size_t as_index(const std::string& ref) {
  std::int64_t v = 0;
  return ref.size() <= 18 && text::parse_int(ref, v) ? static_cast<std::size_t>(v) : SIZE_MAX;
}

// A record of numbers: every non-empty field parses and at least one does (an empty field is a missing
// value, no sign of a header).
bool numeric_row(const std::vector<std::string_view>& fields) {
  bool any = false;
  for (std::string_view f : fields) {
    if (f.empty()) continue;
    if (!parses(f)) return false;
    any = true;
  }
  return any;
}

// header: auto. A first row of numbers is data, never names; a first row with no number at all is a
// header; a mixed first row is a header only when the second row shows it: a field that is text in the
// first row and a number in the second (a text field in both is a text column of the data, such as a
// label or a record's name). Guessing "header" for a data row would turn a record into column names,
// which messages then print, so doubt reads it as data.
bool decide_header(const CsvOptions& o, const std::vector<std::string_view>& first, const LineReader& in,
                   const std::function<std::optional<std::vector<std::string>>()>& second_row) {
  if (o.header) return *o.header;
  if (numeric_row(first)) {
    if (names_used(o))
      throw InputError(in.where(), "columns are selected by name but the file has no header row (its first row is numbers)",
                       "select columns by 0-based index, e.g. columns: [\"0\", \"1\"], or set header: true if the first row holds names");
    return false;
  }
  if (std::none_of(first.begin(), first.end(), parses)) return true;
  const std::optional<std::vector<std::string>> next = second_row();
  if (!next || next->size() != first.size()) return false;
  for (std::size_t i = 0; i < first.size(); ++i)
    if (!first[i].empty() && !parses(first[i]) && parses((*next)[i])) return true;
  return false;
}

// A column as a message names it: its header name, or, when header: auto guessed the names (a first row
// that may be a record), its 0-based index only. Auto-detected names are data until confirmed.
bool name_shown(const ColumnPlan& plan, std::size_t idx) { return !plan.names_guessed || plan.confirmed[idx]; }

std::string shown_column(const ColumnPlan& plan, std::size_t idx) {
  return name_shown(plan, idx) ? "'" + text::printable(plan.names[idx]) + "'" : "#" + std::to_string(idx) + " (0-based; header: auto, names not shown)";
}

// A column's name in a message (a bad value, the missing-value counts): its header name, or "#<index>" when
// header: auto guessed it and the config did not confirm it.
std::string kept_column_name(const ColumnPlan& plan, std::size_t idx) {
  return name_shown(plan, idx) ? plan.names[idx] : "#" + std::to_string(idx);
}

std::size_t resolve_column(const std::string& ref, ColumnPlan& plan, const LineReader& in, const char* role) {
  if (plan.header) {
    auto it = std::find(plan.names.begin(), plan.names.end(), ref);
    if (it != plan.names.end()) {
      const auto idx = static_cast<std::size_t>(it - plan.names.begin());
      plan.confirmed[idx] = true;
      return idx;
    }
  }
  if (text::is_digits(ref)) {
    const std::size_t idx = as_index(ref);
    if (idx >= plan.names.size())
      throw InputError(in.where(), std::string(role) + " index " + text::printable(ref, 40) + " is out of range: the file has " +
                                       std::to_string(plan.names.size()) + " columns (0.." +
                                       std::to_string(plan.names.size() - 1) + ")",
                       "use a 0-based index below " + std::to_string(plan.names.size()) + " or a column name");
    return idx;
  }
  if (!plan.header)
    throw InputError(in.where(), std::string(role) + " '" + text::printable(ref) + "' is a name but the file has no header row",
                     "select columns by 0-based index, e.g. columns: [\"0\", \"1\"] (the file has " + std::to_string(plan.names.size()) +
                         " columns), or set header: true if the first row holds names");
  std::string what = "unknown " + std::string(role) + " '" + text::printable(ref) + "'";
  if (plan.names_guessed)
    throw InputError(in.where(), what + ": header: auto took the first row, of " + std::to_string(plan.names.size()) +
                                     " fields, for column names; they are not shown, since a guessed header may be a record",
                     "set header: true if the first row holds names (they are then listed), or select columns by 0-based index "
                     "(0.." + std::to_string(plan.names.size() - 1) + ")");
  const std::string guess = ref.size() > 200 ? "" : closest_match(ref, plan.names);
  if (!guess.empty()) what += "; did you mean '" + text::printable(guess) + "'?";
  what += " Available columns: " + text::join(plan.names);
  throw InputError(in.where(), what, "use one of the available column names or a 0-based index");
}

ColumnPlan plan_columns(const CsvOptions& o, const std::vector<std::string_view>& first, const LineReader& in,
                        const std::function<std::optional<std::vector<std::string>>()>& second_row) {
  if (first.size() > kMaxColumns)
    throw InputError(in.where(), "the first row has " + std::to_string(first.size()) + " fields; at most " +
                                     std::to_string(kMaxColumns) + " columns are supported",
                     "check the delimiter and that this is the right file");
  ColumnPlan plan;
  plan.header = decide_header(o, first, in, second_row);
  plan.names_guessed = plan.header && !o.header;
  for (std::size_t i = 0; i < first.size(); ++i)
    plan.names.push_back(plan.header ? std::string(first[i]) : "col" + std::to_string(i));
  plan.confirmed.assign(plan.names.size(), false);
  if (!o.label.empty()) plan.label = resolve_column(o.label, plan, in, "label column");
  if (o.columns.empty()) {
    for (std::size_t i = 0; i < first.size(); ++i)
      if (!plan.label || i != *plan.label) plan.coords.push_back(i);
  } else {
    for (const std::string& ref : o.columns) {
      std::size_t idx = resolve_column(ref, plan, in, "column");
      if (std::find(plan.coords.begin(), plan.coords.end(), idx) != plan.coords.end())
        throw InputError(in.where(), "column " + shown_column(plan, idx) + " is selected twice",
                         "list each coordinate column once");
      if (plan.label && idx == *plan.label)
        throw InputError(in.where(), "column " + shown_column(plan, idx) + " is selected both as a coordinate and as the label",
                         "remove it from `columns` or choose another label column");
      plan.coords.push_back(idx);
    }
  }
  if (plan.coords.empty())
    throw InputError(in.where(), "no coordinate columns: the only column is the label",
                     "the file needs at least one numeric column besides the label");
  return plan;
}

// Error paths are out of line so the row loop stays small.
[[noreturn, gnu::cold, gnu::noinline]] void bad_count(const LineReader& in, std::size_t expected, std::size_t found,
                                                      bool header, char delim) {
  throw InputError(in.where(),
                   "expected " + std::to_string(expected) + " fields (as in the " +
                       (header ? "header" : "first row") + "), found " + std::to_string(found) + " separated by " +
                       describe_delimiter(delim),
                   "fix or remove the row; if every row fails, set `delimiter` (a quote left open also causes this)");
}

// A bad value is named by its line (in.where()), its record index and its column, never shown: the
// text of a private record's field is data even when it is not a number (see
// record_label in text.hpp).
// `column` as shown_column gives it: 'name', or #index when header: auto guessed the names.
[[noreturn, gnu::cold, gnu::noinline]] void bad_value(const LineReader& in, const std::string& column,
                                                      std::string_view value, std::size_t record) {
  const std::string at = text::record_label(record) + ", column " + column + ": ";
  double v;
  if (text::parse_double(value, v))  // it parsed, so it was NaN or infinite
    throw InputError(in.where(), at + "the value is NaN or infinite: NaN/inf not allowed; remove or impute the row",
                     "drop or impute rows with missing or infinite values before loading");
  throw InputError(in.where(), at + "the value is not a number" + text::kValueNotShown,
                   "fix the value or remove the row; if this is a text column, leave it out of `columns`");
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
};

bool same_plan(const ColumnPlan& a, const ColumnPlan& b) {
  return a.header == b.header && a.names == b.names && a.coords == b.coords && a.label == b.label;
}

// Reads one file into ds (coordinates appended) and labels. The first file decides the column plan
// (*plan empty); every later file must come to the same plan.
FileRead read_csv_file(const fs::path& path, const CsvOptions& options, std::optional<ColumnPlan>& plan_io, Dataset& ds,
                       LabelText& labels, MissingValues& missing, std::size_t rows_before) {
  const char delim = resolve_delimiter(path, options.delimiter);
  LineReader in(path);
  std::string_view line;
  bool got = false;
  while ((got = in.next(line)) && text::trim(line).empty()) {
  }
  if (!got) throw InputError(path.string(), "file is empty (no rows)", "check that this is the right file");

  std::vector<std::string_view> fields;
  text::split_fields(line, delim, "\"", fields);
  // The row after the first, read by a second reader only when header: auto needs it (a mixed first
  // row), so the main reader's view of the first row stays valid.
  const std::size_t first_line = in.line_number();
  const auto second_row = [&]() -> std::optional<std::vector<std::string>> {
    LineReader peek(path);
    std::string_view l;
    while (peek.line_number() < first_line && peek.next(l)) {
    }
    while (peek.next(l)) {
      if (text::trim(l).empty()) continue;
      std::vector<std::string_view> f;
      text::split_fields(l, delim, "\"", f);
      return std::vector<std::string>(f.begin(), f.end());
    }
    return std::nullopt;
  };
  const ColumnPlan plan = plan_columns(options, fields, in, second_row);
  if (!plan_io) {
    plan_io = plan;
    ds.d = plan.coords.size();
    for (std::size_t c : plan.coords) ds.column_names.push_back(plan.names[c]);
  } else if (!same_plan(*plan_io, plan)) {
    throw InputError(in.where(), "this file's columns differ from the first file's (" +
                                     (plan_io->names_guessed ? std::to_string(plan_io->names.size()) + " columns" : text::join(plan_io->names)) + ")",
                     "list only files of the same layout (same header, same number of columns) in one dataset");
  }
  const std::size_t ncols = plan.names.size();
  const std::size_t header_line = plan.header ? in.line_number() : 0;

  FileRead got_rows;
  bool have_row = !plan.header;  // without a header the first row is data
  while (options.max_rows == 0 || rows_before + got_rows.rows < options.max_rows) {
    if (!have_row) {
      if (!in.next(line)) break;
      if (line.empty() || text::trim(line).empty()) continue;
      text::split_fields(line, delim, "\"", fields);
    }
    have_row = false;
    if (fields.size() != ncols) bad_count(in, ncols, fields.size(), plan.header, delim);
    for (std::size_t c : plan.coords)
      if (is_missing_value(fields[c])) missing.note(kept_column_name(plan, c), in.where());
    if (plan.label && is_missing_value(fields[*plan.label])) missing.note(kept_column_name(plan, *plan.label), in.where());
    if (missing.end_row()) {
      ++got_rows.dropped;
      continue;
    }
    if (rows_before + got_rows.rows == 0) {
      const std::size_t r = reserve_rows(in, line.size(), options.max_rows);
      ds.coords.reserve(std::min(r * ds.d, in.max_values()));
      if (plan.label) ds.labels.reserve(std::min(r, in.max_values()));
    }
    for (std::size_t c : plan.coords) {
      double v;
      if (!text::parse_double(fields[c], v) || !std::isfinite(v))
        bad_value(in, shown_column(plan, c), fields[c], rows_before + got_rows.rows);
      ds.coords.push_back(v);
    }
    if (plan.label)
      ds.labels.push_back(labels.code(fields[*plan.label], in, kept_column_name(plan, *plan.label), rows_before + got_rows.rows));
    ++got_rows.rows;
    in.check_values(ds.coords.size() + ds.labels.size());
  }
  // Under missing: refuse, rows left out for a missing value are reported (with their count) once every file is read.
  const bool refused_later = missing.policy() == MissingPolicy::refuse && got_rows.dropped > 0;
  if (got_rows.rows == 0 && !refused_later && !(options.max_rows && rows_before >= options.max_rows)) {
    const std::string what = got_rows.dropped ? "no data rows with every coordinate present (" +
                                                    std::to_string(got_rows.dropped) + " rows dropped by missing: drop)"
                                              : "no data rows" + std::string(plan.header ? " after the header" : "");
    throw InputError(in.where(header_line), what, "check that this is the right file");
  }
  return got_rows;
}

}  // namespace

Dataset load_csv_files(const std::vector<fs::path>& paths, const CsvOptions& options) {
  if (paths.empty()) throw InputError(options.name.empty() ? "dataset" : options.name, "no files to read", "list at least one file");
  Dataset ds;
  ds.name = options.name.empty() ? dataset_stem(paths.front()) : options.name;
  LabelText labels;
  std::optional<ColumnPlan> plan;
  std::size_t rows = 0, dropped = 0;
  MissingValues missing(options.missing);
  nlohmann::json files = nlohmann::json::array(), per_file = nlohmann::json::array();
  for (const fs::path& path : paths) {
    if (options.max_rows && rows >= options.max_rows) break;  // later files are not read (nor listed)
    const FileRead r = read_csv_file(path, options, plan, ds, labels, missing, rows);
    rows += r.rows;
    dropped += r.dropped;
    files.push_back(file_fingerprint(path));
    per_file.push_back(r.rows);
  }
  missing.finish(paths.size() == 1 ? paths.front().string() : paths.front().string() + " (and " + std::to_string(paths.size() - 1) + " more files)",
                 rows + dropped);
  ds.n = rows;
  if (ds.coords.capacity() > ds.coords.size() + ds.coords.size() / 4) ds.coords.shrink_to_fit();
  labels.finish(ds.labels);

  const char delim = resolve_delimiter(paths.front(), options.delimiter);
  nlohmann::json cols = nlohmann::json::array();
  // Guessed, unconfirmed names (header: auto) stay in the results for the report's tables and figures, which
  // are not a release; `dpclust release` writes "#<index>" in their place (name_confirmed: false).
  for (std::size_t c : plan->coords) {
    nlohmann::json col = {{"name", plan->names[c]}, {"index", c}};
    if (plan->names_guessed) col["name_confirmed"] = static_cast<bool>(plan->confirmed[c]);
    cols.push_back(std::move(col));
  }
  ds.provenance["files"] = files;
  ds.provenance["format"] = delim == '\t' ? "tsv" : "csv";
  ds.provenance["delimiter"] = std::string(1, delim);
  ds.provenance["header"] = plan->header;
  ds.provenance["columns"] = cols;
  ds.provenance["label"] = plan->label ? nlohmann::json(plan->names[*plan->label]) : nlohmann::json(nullptr);
  if (plan->names_guessed) ds.provenance["header_guessed"] = true;
  if (plan->label && !labels.integer()) ds.provenance["label_map"] = labels.mapping();
  ds.provenance["rows"] = rows;
  if (paths.size() > 1) ds.provenance["rows_per_file"] = per_file;
  // An exact count of the input rows, kept with the other loading counts (clipped_to_bounds); the
  // mechanisms never read it.
  if (options.missing == MissingPolicy::drop) ds.provenance["missing"] = missing.provenance();
  if (options.max_rows) ds.provenance["max_rows"] = options.max_rows;
  return ds;
}

Dataset load_csv(const fs::path& path, const CsvOptions& options) { return load_csv_files({path}, options); }

}  // namespace dpclust
