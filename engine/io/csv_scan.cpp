#include "io/csv_scan.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "io/text.hpp"

namespace dpclust::csv {
namespace fs = std::filesystem;

namespace {

// Columns a file may have: a first row with more fields is a wrong delimiter or not a table.
constexpr std::size_t kMaxTableColumns = std::size_t{1} << 20;

std::size_t kind_index(FieldKind k) { return static_cast<std::size_t>(k); }

bool ends_with_ci(const std::string& s, std::string_view suffix) {
  return s.size() >= suffix.size() && text::iequals(std::string_view(s).substr(s.size() - suffix.size()), suffix);
}

std::string describe_delimiter(char d) { return d == '\t' ? "tab" : std::string("'") + d + "'"; }

bool parses_as_number(std::string_view field) {
  double v;
  return text::parse_double(field, v);
}

// A record of numbers: every non-empty field parses and at least one does (an empty field is a missing
// value, no sign of a header).
bool numeric_row(const std::vector<std::string>& fields) {
  bool any = false;
  for (const std::string& f : fields) {
    if (f.empty()) continue;
    if (!parses_as_number(f)) return false;
    any = true;
  }
  return any;
}

bool names_used(const CsvOptions& o) {
  const bool columns_by_name =
      std::any_of(o.columns.begin(), o.columns.end(), [](const std::string& r) { return !text::is_digits(r); });
  return columns_by_name || (!o.label.empty() && !text::is_digits(o.label));
}

[[noreturn, gnu::cold, gnu::noinline]] void bad_count(const LineReader& in, std::size_t expected, std::size_t found,
                                                      char delim) {
  throw InputError(in.where(),
                   "expected " + std::to_string(expected) + " fields (as in the first row), found " +
                       std::to_string(found) + " separated by " + describe_delimiter(delim),
                   "fix or remove the row; if every row fails, set `delimiter` (a quote left open also causes this)");
}

}  // namespace

char resolve_delimiter(const fs::path& path, char requested) {
  if (requested != '\0') return requested;
  const std::string name = path.filename().string();
  return ends_with_ci(name, ".tsv") || ends_with_ci(name, ".tsv.gz") ? '\t' : ',';
}

bool blank_row(std::string_view line, const std::vector<std::string_view>& fields) {
  if (text::trim(line).empty()) return true;
  return std::all_of(fields.begin(), fields.end(), [](std::string_view f) { return text::trim(f).empty(); });
}

const char* column_type_name(ColumnType type) {
  switch (type) {
    case ColumnType::numeric: return "numeric";
    case ColumnType::boolean: return "true/false";
    case ColumnType::date: return "date";
    case ColumnType::timestamp: return "timestamp";
    case ColumnType::text: return "text";
    case ColumnType::empty: return "empty";
  }
  return "?";
}

void ColumnTally::add(std::string_view value, FieldKind kind, double number, bool has_zone, std::size_t record,
                      const LineReader& in, std::size_t line, bool values) {
  ++count[kind_index(kind)];
  if (kind == FieldKind::missing) return;
  if (kind == FieldKind::number) {
    if (!std::isfinite(number) || number != std::floor(number)) ++non_integers;
  } else if (first_other_where.empty()) {
    first_other_where = in.where(line);
    first_other_record = record;
  }
  if (kind == FieldKind::timestamp && has_zone) ++zoned;
  if (!values || overflow) return;
  if (distinct.find(value) != distinct.end()) return;
  if (distinct.size() == kMaxCategories) {
    overflow = true;
    decltype(distinct)().swap(distinct);  // no category column: the values are not needed any more
    return;
  }
  distinct.emplace(std::string(value), record);
}

std::size_t ColumnTally::values() const {
  return std::size_t{0} + count[1] + count[2] + count[3] + count[4] + count[5];
}

std::size_t ColumnTally::non_numbers() const { return values() - count[kind_index(FieldKind::number)]; }

ColumnType ColumnTally::type() const {
  const std::size_t all = values();
  if (all == 0) return ColumnType::empty;
  if (count[kind_index(FieldKind::number)] == all) return ColumnType::numeric;
  if (count[kind_index(FieldKind::boolean)] == all) return ColumnType::boolean;
  const std::size_t timestamps = count[kind_index(FieldKind::timestamp)];
  if (count[kind_index(FieldKind::date)] + timestamps == all)
    return timestamps ? ColumnType::timestamp : ColumnType::date;
  return ColumnType::text;
}

Layout TableScan::read_layout(LineReader& in, std::vector<TopRow>& top) {
  const std::size_t want = std::max<std::size_t>(options_.header_rows, 1) + kHintRows + 1;
  std::vector<std::string_view> fields;
  std::string_view line;
  while (top.size() < want && in.next(line)) {
    text::split_fields(line, delimiter_, "\"", fields);
    if (blank_row(line, fields)) continue;  // counted by the second pass
    if (top.empty() && fields.size() > kMaxTableColumns)
      throw InputError(in.where(),
                       "the first row has " + std::to_string(fields.size()) + " fields; at most " +
                           std::to_string(kMaxTableColumns) + " columns are supported",
                       "check the delimiter and that this is the right file");
    if (!top.empty() && fields.size() != top.front().fields.size())
      bad_count(in, top.front().fields.size(), fields.size(), delimiter_);
    top.push_back({in.line_number(), std::vector<std::string>(fields.begin(), fields.end())});
  }
  if (top.empty()) throw InputError(in.path().string(), "file is empty (no rows)", "check that this is the right file");

  Layout layout;
  const std::vector<std::string>& first = top.front().fields;
  if (options_.header_rows > 0) {
    if (top.size() < options_.header_rows)
      throw InputError(in.path().string(),
                       "header_rows: " + std::to_string(options_.header_rows) + ", but the file has only " +
                           std::to_string(top.size()) + " rows that are not blank",
                       "set header_rows to the number of rows of column names at the top");
    layout.header_rows = options_.header_rows;
  } else if (options_.header) {
    layout.header_rows = *options_.header ? 1 : 0;
  } else if (numeric_row(first)) {
    // header: auto. A first row of numbers is data, never names.
    if (names_used(options_))
      throw InputError(in.where(top.front().line),
                       "columns are selected by name but the file has no header row (its first row is numbers)",
                       "select columns by 0-based index, e.g. columns: [\"0\", \"1\"], or set header: true if the "
                       "first row holds names");
    layout.header_rows = 0;
  } else if (std::none_of(first.begin(), first.end(), [](const std::string& f) { return parses_as_number(f); })) {
    layout.header_rows = 1;  // no number at all: names
  } else {
    // A mixed first row is a header only when the second row shows it: a field that is text in the first
    // row and a number in the second (a text field in both is a text column of the data, such as a label
    // or a record's name). Guessing "header" for a data row would turn a record into column names, so
    // doubt reads it as data.
    layout.header_rows = 0;
    if (top.size() > 1)
      for (std::size_t i = 0; i < first.size(); ++i)
        if (!first[i].empty() && !parses_as_number(first[i]) && parses_as_number(top[1].fields[i]))
          layout.header_rows = 1;
  }
  layout.guessed = layout.header_rows == 1 && !options_.header && options_.header_rows == 0;
  layout.header_line = layout.header_rows ? top[layout.header_rows - 1].line : 0;
  for (std::size_t c = 0; c < first.size(); ++c) {
    if (layout.header_rows == 0) {
      layout.names.push_back("col" + std::to_string(c));
      continue;
    }
    std::string name = top.front().fields[c];
    for (std::size_t r = 1; r < layout.header_rows; ++r) {
      const std::string& part = top[r].fields[c];
      if (part.empty()) continue;
      name += (name.empty() ? "" : std::string(kHeaderJoin)) + part;
    }
    layout.names.push_back(std::move(name));
  }
  return layout;
}

bool TableScan::row_limit_reached() const {
  // Under missing: drop a later row may replace a dropped one, so the whole file is typed.
  return options_.max_rows > 0 && options_.missing == MissingPolicy::refuse && records_ >= options_.max_rows;
}

void TableScan::tally_row(const std::vector<std::string_view>& fields, const LineReader& in, std::size_t line) {
  for (std::size_t c = 0; c < ncols_; ++c) {
    if (!tallied_[c]) continue;
    double number = 0;
    bool zoned = false;
    const FieldKind kind = classify_field(fields[c], &number, &zoned);
    tallies_[c].add(fields[c], kind, number, zoned, records_, in, line, options_.nominal != NominalEncoding::skip);
  }
  ++records_;
}

void TableScan::assume_numeric(const std::vector<std::size_t>& columns) {
  for (std::size_t c : columns) {
    tallies_[c] = ColumnTally{};
    tallies_[c].count[kind_index(FieldKind::number)] = 1;
  }
}

bool TableScan::scan_file(const fs::path& path,
                          const std::function<std::vector<bool>(const Layout&, const LineReader&)>& select, bool rows) {
  if (files_ > 0 && row_limit_reached()) return false;
  delimiter_ = resolve_delimiter(path, options_.delimiter);
  LineReader in(path);
  std::vector<TopRow> top;
  const Layout layout = read_layout(in, top);
  if (files_ == 0) {
    layout_ = layout;
    top_ = top;
    first_path_ = path;
    ncols_ = layout.names.size();
    tallied_ = select(layout_, in);
    tallies_.assign(ncols_, ColumnTally{});
  } else if (layout.names != layout_.names || layout.header_rows != layout_.header_rows) {
    throw InputError(
        in.where(top.front().line),
        "this file's columns differ from the first file's (" +
            (layout_.guessed ? std::to_string(layout_.names.size()) + " columns" : text::join(layout_.names)) + ")",
        "list only files of the same layout (same header, same number of columns) in one dataset");
  }
  ++files_;
  if (!rows) return true;
  const std::size_t before = records_;
  std::vector<std::string_view> fields;
  for (std::size_t r = layout.header_rows; r < top.size() && !row_limit_reached(); ++r) {
    fields.assign(top[r].fields.begin(), top[r].fields.end());
    tally_row(fields, in, top[r].line);
  }
  std::string_view line;
  while (!row_limit_reached() && in.next(line)) {
    text::split_fields(line, delimiter_, "\"", fields);
    if (blank_row(line, fields)) continue;
    if (fields.size() != ncols_) bad_count(in, ncols_, fields.size(), delimiter_);
    tally_row(fields, in, in.line_number());
  }
  if (records_ == before)
    throw InputError(in.where(layout.header_line ? layout.header_line : top.front().line),
                     "no data rows" + std::string(layout.header_rows ? " after the header" : ""),
                     "check that this is the right file");
  return true;
}

std::string TableScan::header_where() const {
  const std::size_t line = layout_.header_line ? layout_.header_line : top_.empty() ? 1 : top_.front().line;
  return first_path_.string() + ":" + std::to_string(line);
}

void TableScan::confirm_names(std::optional<std::size_t> label) {
  if (!layout_.guessed) return;
  const std::vector<std::string>& names = top_.front().fields;
  bool named = false;
  for (std::size_t c = 0; c < ncols_; ++c) {
    if (!tallied_[c] || (label && c == *label) || tallies_[c].type() != ColumnType::numeric || names[c].empty())
      continue;
    const FieldKind k = classify_field(names[c]);
    if (k == FieldKind::number || k == FieldKind::missing) return;  // a record could hold that above numbers
    named = true;
  }
  layout_.confirmed_by_data = named;
}

std::size_t TableScan::header_rows_hint(std::size_t* gained) const {
  if (options_.header_rows > 0 || top_.empty()) return 0;
  const std::size_t h = layout_.header_rows;
  const auto numeric_now = [&](std::size_t c) { return tallies_[c].type() == ColumnType::numeric; };
  std::size_t best_rows = 0, best_numeric = 0, best_gain = 0;
  for (std::size_t c = 0; c < ncols_; ++c) best_numeric += tallied_[c] && numeric_now(c);
  for (std::size_t t = h + 1; t <= h + kHintRows && t < top_.size(); ++t) {
    std::size_t numeric = 0, gain = 0;
    for (std::size_t c = 0; c < ncols_; ++c) {
      if (!tallied_[c]) continue;
      // The values of rows h..t-1 of this column: were they names, would everything below be numbers?
      std::size_t numbers_above = 0, others_above = 0;
      for (std::size_t r = h; r < t; ++r) {
        const FieldKind k = classify_field(top_[r].fields[c]);
        numbers_above += k == FieldKind::number;
        others_above += k != FieldKind::number && k != FieldKind::missing;
      }
      const ColumnTally& tally = tallies_[c];
      if (tally.non_numbers() != others_above || tally.count[kind_index(FieldKind::number)] <= numbers_above) continue;
      ++numeric;
      gain += !numeric_now(c);
    }
    if (numeric > best_numeric) {
      best_rows = t;
      best_numeric = numeric;
      best_gain = gain;
    }
  }
  // Most of the columns numeric below those rows must owe it to them: one stray word under a header is a
  // text value, not a header row.
  if (best_rows == 0 || best_gain * 2 < best_numeric) return 0;
  if (gained) *gained = best_gain;
  return best_rows;
}

}  // namespace dpclust::csv
