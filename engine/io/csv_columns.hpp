#pragma once
// What the CSV loader (io/csv.hpp) makes of each column, decided once from the first pass
// (io/csv_scan.hpp) so the row loop only indexes: the coordinates and how each is encoded, the label,
// and every column left out with its type and the reason. Used by csv.cpp only.
#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "io/csv.hpp"
#include "io/csv_scan.hpp"

namespace dpclust::csv {

// The columns the config names (`columns`, `label`), resolved against the first file's layout.
struct ColumnRefs {
  std::vector<std::size_t> columns;  // in the config's order
  std::optional<std::size_t> label;
  std::vector<bool> typed;  // names the config typed: the user knows them, so they may be shown
};

// Resolves the config's column references (names or 0-based indices); InputError at the header for a
// name or index that is not there, a column selected twice or both as a coordinate and the label.
ColumnRefs resolve_refs(const CsvOptions& options, const Layout& layout, const LineReader& in);
// The columns the first pass must type: every column when `columns` is not given, else those listed, the
// label and those named like a label (class, label, target: the label by convention).
std::vector<bool> columns_to_type(const CsvOptions& options, const Layout& layout, const ColumnRefs& refs);

// A column as a message names it: 'name' when names may be shown (given by the user, confirmed by the data,
// or typed in the config), else its 0-based index and how to have names shown.
std::string shown_column(const Layout& layout, const std::vector<bool>& typed, std::size_t column);
// The same without quotes or the explanation ('name' -> name, #3), for lists and counts per column.
std::string short_column(const Layout& layout, const std::vector<bool>& typed, std::size_t column);

// How one column becomes coordinates.
enum class CoordKind : unsigned char { number, boolean, code, onehot, date };

// A text column's values as categories: in code order, and value -> code.
struct Categories {
  std::vector<std::string> values;
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  std::unordered_map<std::string, std::size_t, Hash, std::equal_to<>> code;
};

struct PlannedCoordinate {
  std::size_t column = 0;
  CoordKind kind = CoordKind::number;
  std::size_t width() const;               // coordinates it gives (a one-hot column: one per value)
  const Categories* categories = nullptr;  // code and onehot
};

struct SkippedColumn {
  std::size_t column = 0;
  ColumnType type = ColumnType::text;
  std::string reason;  // why it is no coordinate, with the key that would make it one
};

struct ColumnPlan {
  std::vector<PlannedCoordinate> coords;
  std::optional<std::size_t> label;
  bool label_by_name = false;  // the label is the column named class, label or target (no label in the config)
  std::vector<SkippedColumn> skipped;
  std::vector<bool> typed;
  std::map<std::size_t, Categories> categories;  // by column (std::map: the coordinates point into it)
  std::size_t width() const;
};

// The label: the one the config names, else the one column named class, label or target whose values can
// be classes (text, true/false, integers) and that `columns` does not list; `candidates` lists every such
// column (several: no label).
struct LabelChoice {
  std::optional<std::size_t> label;
  bool by_name = false;
  std::vector<std::size_t> candidates;
};
LabelChoice choose_label(const CsvOptions& options, const TableScan& scan, const ColumnRefs& refs);

// Decides every other column's role from the first pass; prints the warnings (the label taken by its name;
// the columns left out, named once). InputError for a listed column whose type needs a key the config does
// not set, and when no coordinate is left.
ColumnPlan plan_columns(const CsvOptions& options, const TableScan& scan, ColumnRefs refs, const LabelChoice& label,
                        const std::string& source);

}  // namespace dpclust::csv
