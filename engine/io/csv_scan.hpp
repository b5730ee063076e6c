#pragma once
// The CSV loader's first pass (io/csv.hpp): a file's header rows and names, and the type of every column
// it may use, from the whole file (up to max_rows data rows when `missing: refuse`, when no later row is
// read anyway). Used by csv.cpp and csv_columns.cpp only.
//
// A column is typed by every value below the header (missing values aside): numbers only -> numeric;
// true/false only -> boolean; ISO 8601 dates only -> date (timestamp when any has a time); no value ->
// empty; anything else -> text, a column mixing numbers and text included (its count of values that are
// not numbers is kept for the messages, never the values).
#include <array>
#include <cstddef>
#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "io/csv.hpp"
#include "io/field_kind.hpp"
#include "io/line_reader.hpp"

namespace dpclust::csv {

// The rows header: auto looks at for names above numbers.
inline constexpr std::size_t kHintRows = 10;
// Distinct values a text column may have and still be encoded as a category (`nominal: codes | onehot`);
// past it the column is a name or free text and is left out (or refused when listed in `columns`).
inline constexpr std::size_t kMaxCategories = 1024;
// Names of header rows are joined with this between the parts (pandas' header=[0, 1, 2] keeps them as a
// tuple; "_".join is how they are usually flattened): network / node / hemi -> "network_node_hemi".
inline constexpr std::string_view kHeaderJoin = "_";

enum class ColumnType { numeric, boolean, date, timestamp, text, empty };
const char* column_type_name(ColumnType type);  // "numeric", "true/false", "date", "timestamp", "text", "empty"

// Every value of one column below the header, by kind.
struct ColumnTally {
  std::array<std::size_t, kFieldKinds> count{};
  std::size_t non_integers = 0;  // numbers with a fraction (or not finite)
  std::size_t zoned = 0;         // timestamps that state their zone
  // The first value that is neither a number nor missing: where (file:line) and its record (0-based).
  std::string first_other_where;
  std::size_t first_other_record = 0;
  // Every distinct value (missing ones aside) -> the record where it first appears, while there are at
  // most kMaxCategories of them; past that only `overflow` is kept. Only under `nominal: codes | onehot`,
  // the one use of the values (hashing every field would double the first pass's time).
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  std::unordered_map<std::string, std::size_t, Hash, std::equal_to<>> distinct;
  bool overflow = false;

  // One value of record `record` at `line`: `number` is its value when it is a number, `has_zone` whether a
  // timestamp states its zone; `values` whether to keep the distinct values.
  void add(std::string_view value, FieldKind kind, double number, bool has_zone, std::size_t record,
           const LineReader& in, std::size_t line, bool values);
  std::size_t values() const;       // non-missing values
  std::size_t non_numbers() const;  // values that are not numbers
  ColumnType type() const;
  bool mixed() const { return type() == ColumnType::text && count[static_cast<std::size_t>(FieldKind::number)] > 0; }
};

// One row of a file's top, copied out of the reader.
struct TopRow {
  std::size_t line = 0;
  std::vector<std::string> fields;
};

// How a file's first rows are read: header rows (joined into names) or none, and whether its names may be
// shown in messages.
struct Layout {
  std::size_t header_rows = 0;
  // header: auto took the first row for names (the user did not say so): until the data below confirm
  // them, they may be a record's text and are not shown.
  bool guessed = false;
  bool confirmed_by_data = false;  // header: auto's names, confirmed by the columns below (csv.hpp)
  std::vector<std::string> names;  // joined header names, or "col<i>" without a header
  std::size_t header_line = 0;     // line of the last header row (0: none)
  bool names_shown() const { return !guessed || confirmed_by_data; }
};

// The first pass over one or several files of the same layout, tallying each column's values.
class TableScan {
 public:
  explicit TableScan(const CsvOptions& options) : options_(options) {}

  // Reads `path`'s top rows and decides its layout (the first file's, or the same as the first file's);
  // for the first file, `select(layout)` then names the columns to tally (false: not needed). With `rows`,
  // tallies every data row; without, stops after the top rows (the layout alone). Returns false when
  // max_rows was reached before this file (it is then not read at all).
  bool scan_file(const std::filesystem::path& path,
                 const std::function<std::vector<bool>(const Layout&, const LineReader&)>& select, bool rows = true);
  // The one-pass read of listed numeric columns (csv.cpp): their tallies say "numbers", as a full pass
  // would have found them (the read falls back to the full pass at the first value that is not one).
  void assume_numeric(const std::vector<std::size_t>& columns);

  std::size_t columns() const { return ncols_; }
  const Layout& layout() const { return layout_; }
  const std::vector<ColumnTally>& tallies() const { return tallies_; }
  const std::vector<bool>& tallied() const { return tallied_; }
  std::size_t data_rows() const { return records_; }
  std::size_t files_scanned() const { return files_; }
  // The first file's top rows (header rows included), for header: auto's checks.
  const std::vector<TopRow>& top() const { return top_; }
  char delimiter() const { return delimiter_; }
  // "file:line" of the first file's header (its last header row), or of its first row without one.
  std::string header_where() const;

  // header: auto: the first row is names, and every typed column whose values below are numbers (the
  // label aside) names itself there with text (or leaves its name empty, as pandas writes an index
  // column): the first row cannot be a record of those numbers. Sets layout().confirmed_by_data.
  void confirm_names(std::optional<std::size_t> label);
  // When the first rows after the header look like more names -- text above numbers in the columns that
  // are numeric below them -- the number of header rows that would make them names (0: they do not).
  // `gained` receives the columns that would become numeric.
  std::size_t header_rows_hint(std::size_t* gained = nullptr) const;

 private:
  Layout read_layout(LineReader& in, std::vector<TopRow>& top);
  void tally_row(const std::vector<std::string_view>& fields, const LineReader& in, std::size_t line);
  bool row_limit_reached() const;

  const CsvOptions& options_;
  Layout layout_;
  std::vector<TopRow> top_;
  std::vector<ColumnTally> tallies_;
  std::vector<bool> tallied_;
  std::filesystem::path first_path_;
  std::size_t ncols_ = 0, records_ = 0, files_ = 0;
  char delimiter_ = ',';
};

// The field separator of `path`: the requested one, else tab for *.tsv / *.tsv.gz and comma otherwise.
char resolve_delimiter(const std::filesystem::path& path, char requested);
// A row that holds nothing: an empty line, or every field empty ("" or blanks), as a spreadsheet writes a
// blank row under its header. Skipped and counted, never a record of missing values.
bool blank_row(std::string_view line, const std::vector<std::string_view>& fields);

}  // namespace dpclust::csv
