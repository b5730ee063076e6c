#include "io/csv_columns.hpp"

#include <algorithm>
#include <cstdint>
#include <iostream>

#include "core/error.hpp"
#include "io/label_text.hpp"
#include "io/text.hpp"

namespace dpclust::csv {

namespace {

// A column reference of digits as an index; absurdly long ones saturate (and are reported out of range).
std::size_t reference_index(const std::string& ref) {
  std::int64_t v = 0;
  return ref.size() <= 18 && text::parse_int(ref, v) ? static_cast<std::size_t>(v) : SIZE_MAX;
}

std::size_t resolve_one(const std::string& ref, const Layout& layout, std::vector<bool>& typed, const LineReader& in,
                        const char* role) {
  const std::size_t ncols = layout.names.size();
  if (layout.header_rows > 0) {
    const auto it = std::find(layout.names.begin(), layout.names.end(), ref);
    if (it != layout.names.end()) {
      const auto idx = static_cast<std::size_t>(it - layout.names.begin());
      typed[idx] = true;
      return idx;
    }
  }
  const std::string where = in.where(layout.header_line ? layout.header_line : 1);
  if (text::is_digits(ref)) {
    const std::size_t idx = reference_index(ref);
    if (idx >= ncols)
      throw InputError(where,
                       std::string(role) + " index " + text::printable(ref, 40) + " is out of range: the file has " +
                           std::to_string(ncols) + " columns (0.." + std::to_string(ncols - 1) + ")",
                       "use a 0-based index below " + std::to_string(ncols) + " or a column name");
    return idx;
  }
  if (layout.header_rows == 0)
    throw InputError(where,
                     std::string(role) + " '" + text::printable(ref) + "' is a name but the file has no header row",
                     "select columns by 0-based index, e.g. columns: [\"0\", \"1\"] (the file has " +
                         std::to_string(ncols) + " columns), or set header: true if the first row holds names");
  std::string what = "unknown " + std::string(role) + " '" + text::printable(ref) + "'";
  if (layout.guessed)
    throw InputError(
        where,
        what + ": header: auto took the first row, of " + std::to_string(ncols) +
            " fields, for column names; they are not shown, since a guessed header may be a record",
        "set header: true if the first row holds names (they are then listed), or select columns by 0-based index "
        "(0.." +
            std::to_string(ncols - 1) + ")");
  const std::string guess = ref.size() > 200 ? "" : closest_match(ref, layout.names);
  if (!guess.empty()) what += "; did you mean '" + text::printable(guess) + "'?";
  what += " Available columns: " + text::join(layout.names);
  throw InputError(where, what, "use one of the available column names or a 0-based index");
}

bool integer_numbers(const ColumnTally& t) { return t.type() == ColumnType::numeric && t.non_integers == 0; }

// A column the label may be by its name: text, true/false, or integers (a class written as numbers).
bool label_by_its_values(const ColumnTally& t) {
  return t.type() == ColumnType::text || t.type() == ColumnType::boolean || integer_numbers(t);
}

// A text column whose values are mostly distinct names its records (a person, a car model) or holds free
// text: no category to encode. More than 50 values, and more than one for every two rows that have one.
bool names_records(const ColumnTally& t) {
  return t.overflow || (t.distinct.size() > 50 && t.distinct.size() * 2 > t.values());
}

// "3 of 6433 values are not numbers, the first at taxis.csv:12, record 10 (0-based)" for a column mixing both.
std::string mixed_text(const ColumnTally& t) {
  return std::to_string(t.non_numbers()) + " of " + std::to_string(t.values()) +
         (t.non_numbers() == 1 ? " values is not a number" : " values are not numbers") + ", the first at " +
         t.first_other_where + ", " + text::record_label(t.first_other_record);
}

Categories categories_of(const ColumnTally& t, NominalOrder order) {
  std::vector<std::pair<std::string, std::size_t>> values(t.distinct.begin(), t.distinct.end());
  if (order == NominalOrder::sorted)
    std::sort(values.begin(), values.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
  else std::sort(values.begin(), values.end(), [](const auto& a, const auto& b) { return a.second < b.second; });
  Categories c;
  for (auto& [value, first] : values) {
    c.code.emplace(value, c.values.size());
    c.values.push_back(std::move(value));
  }
  return c;
}

// The error for a listed column that needs a key to be a coordinate.
[[noreturn]] void listed_needs_key(const ColumnTally& t, const std::string& column, const std::string& where) {
  const ColumnType type = t.type();
  if (type == ColumnType::date || type == ColumnType::timestamp)
    throw InputError(where,
                     "column " + column + " holds ISO 8601 " + (type == ColumnType::date ? "dates" : "timestamps") +
                         ", which are no number as they stand (never read as their year)",
                     "set `dates: days` or `dates: seconds` on the dataset (days or seconds since 1970-01-01 UTC), or "
                     "remove it from `columns`");
  if (t.mixed())
    throw InputError(t.first_other_where,
                     text::record_label(t.first_other_record) + ", column " + column + ": the value is not a number" +
                         text::kValueNotShown + "; the column holds " + mixed_text(t),
                     "fix the values or remove the rows; to use the column as categories set `nominal: codes` or "
                     "`nominal: onehot` on the "
                     "dataset; if this is a text column, leave it out of `columns`");
  throw InputError(where,
                   "column " + column + " is " + column_type_name(t.type()) + " (" + std::to_string(t.values()) +
                       " values, none of them a number): no number as it stands",
                   "set `nominal: codes` (one coordinate: each value's 0-based position) or `nominal: onehot` (one 0/1 "
                   "coordinate per value) on "
                   "the dataset, or remove it from `columns`");
}

constexpr std::size_t kMixedShown = 4;

// Parts already made printable, joined whole (text::join would cut each at 200 bytes).
std::string joined(const std::vector<std::string>& parts, const char* separator) {
  std::string out;
  for (const std::string& p : parts) out += (out.empty() ? "" : separator) + p;
  return out;
}

// The columns left out, grouped by why, for the one warning: names and counts, never a value.
std::string describe_left_out(const ColumnPlan& plan, const Layout& layout, const std::vector<ColumnTally>& tallies) {
  std::map<std::string, std::vector<std::string>> by_type;  // type name -> columns
  std::vector<std::string> type_order, groups, by_dates, by_nominal, mixed, names, empty;
  std::size_t mixed_columns = 0;
  for (const SkippedColumn& s : plan.skipped) {
    const std::string shown = short_column(layout, plan.typed, s.column);
    const ColumnTally& t = tallies[s.column];
    if (s.type == ColumnType::empty) {
      empty.push_back(shown);
    } else if (s.reason.rfind("mixed: ", 0) == 0) {
      // Each with its count and first place, the first few: a file whose columns all hold a word above
      // their numbers (a second header row) would otherwise repeat the same words for every column.
      if (mixed.size() < kMixedShown) mixed.push_back(shown + " (" + mixed_text(t) + ")");
      ++mixed_columns;
    } else if (s.reason == "dates: skip" || s.reason == "nominal: skip") {
      const std::string type = column_type_name(s.type);
      if (by_type[type].empty()) type_order.push_back(type);
      by_type[type].push_back(shown);
    } else {
      names.push_back(shown + " (" + s.reason + ")");
    }
  }
  for (const std::string& type : type_order) {
    const std::string list = type + ": " + text::join(by_type[type]);
    (type == "date" || type == "timestamp" ? by_dates : by_nominal).push_back(list);
  }
  if (!by_dates.empty())
    groups.push_back(joined(by_dates, "; ") + " (`dates: days` or `dates: seconds` makes coordinates of them)");
  if (!by_nominal.empty())
    groups.push_back(joined(by_nominal, "; ") + " (`nominal: codes` or `nominal: onehot` encodes them)");
  if (!mixed.empty())
    groups.push_back("text mixing numbers and words: " + joined(mixed, ", ") +
                     (mixed_columns > mixed.size()
                          ? ", and " + std::to_string(mixed_columns - mixed.size()) + " more such columns"
                          : ""));
  if (!names.empty()) groups.push_back("text naming records, no category: " + joined(names, ", "));
  if (!empty.empty()) groups.push_back("empty (every value missing): " + text::join(empty));
  return joined(groups, "; ");
}

}  // namespace

std::size_t PlannedCoordinate::width() const { return kind == CoordKind::onehot ? categories->values.size() : 1; }

std::size_t ColumnPlan::width() const {
  std::size_t w = 0;
  for (const PlannedCoordinate& c : coords) w += c.width();
  return w;
}

std::string shown_column(const Layout& layout, const std::vector<bool>& typed, std::size_t column) {
  if (layout.names_shown() || typed[column]) return "'" + text::printable(layout.names[column]) + "'";
  return "#" + std::to_string(column) + " (0-based; header: auto, names not shown; `header: true` shows them)";
}

std::string short_column(const Layout& layout, const std::vector<bool>& typed, std::size_t column) {
  return layout.names_shown() || typed[column] ? text::printable(layout.names[column]) : "#" + std::to_string(column);
}

ColumnRefs resolve_refs(const CsvOptions& o, const Layout& layout, const LineReader& in) {
  ColumnRefs refs;
  refs.typed.assign(layout.names.size(), false);
  if (o.use_label && !o.label.empty()) refs.label = resolve_one(o.label, layout, refs.typed, in, "label column");
  const std::string where = in.where(layout.header_line ? layout.header_line : 1);
  for (const std::string& ref : o.columns) {
    const std::size_t idx = resolve_one(ref, layout, refs.typed, in, "column");
    if (std::find(refs.columns.begin(), refs.columns.end(), idx) != refs.columns.end())
      throw InputError(where, "column " + shown_column(layout, refs.typed, idx) + " is selected twice",
                       "list each coordinate column once");
    if (refs.label && idx == *refs.label)
      throw InputError(
          where,
          "column " + shown_column(layout, refs.typed, idx) + " is selected both as a coordinate and as the label",
          "remove it from `columns` or choose another label column");
    refs.columns.push_back(idx);
  }
  if (!o.columns.empty() && refs.columns.empty())
    throw InputError(where, "no coordinate columns", "list at least one column in `columns`");
  return refs;
}

std::vector<bool> columns_to_type(const CsvOptions& o, const Layout& layout, const ColumnRefs& refs) {
  if (o.columns.empty()) return std::vector<bool>(layout.names.size(), true);
  std::vector<bool> out(layout.names.size(), false);
  for (std::size_t c : refs.columns) out[c] = true;
  if (refs.label) out[*refs.label] = true;
  if (o.use_label && o.label.empty() && layout.header_rows > 0)
    for (std::size_t c = 0; c < layout.names.size(); ++c) out[c] = out[c] || label_like_name(layout.names[c]);
  return out;
}

LabelChoice choose_label(const CsvOptions& o, const TableScan& scan, const ColumnRefs& refs) {
  LabelChoice choice;
  choice.label = refs.label;
  if (choice.label || !o.use_label || !o.label.empty() || scan.layout().header_rows == 0) return choice;
  for (std::size_t c = 0; c < scan.columns(); ++c)
    if (scan.tallied()[c] && label_like_name(scan.layout().names[c]) && label_by_its_values(scan.tallies()[c]) &&
        std::find(refs.columns.begin(), refs.columns.end(), c) == refs.columns.end())
      choice.candidates.push_back(c);
  if (choice.candidates.size() == 1) {
    choice.label = choice.candidates.front();
    choice.by_name = true;
  }
  return choice;
}

ColumnPlan plan_columns(const CsvOptions& o, const TableScan& scan, ColumnRefs refs, const LabelChoice& label,
                        const std::string& source) {
  const Layout& layout = scan.layout();
  const std::vector<ColumnTally>& tallies = scan.tallies();
  const std::size_t ncols = scan.columns();
  ColumnPlan plan;
  plan.typed = std::move(refs.typed);
  plan.label = label.label;
  plan.label_by_name = label.by_name;
  const auto name = [&](std::size_t c) { return shown_column(layout, plan.typed, c); };
  const std::string header_where = scan.header_where();

  // The label by convention, said once: a column named like the class is one, as the file's author meant.
  if (label.by_name) {
    std::cerr << "warning: " << source << ": column " << name(*plan.label) << " ("
              << column_type_name(tallies[*plan.label].type())
              << ") is taken as the label, as its name says, since the config names none; `label: NAME` names another, "
                 "`label: none` takes none\n";
  } else if (label.candidates.size() > 1) {
    std::vector<std::string> names;
    for (std::size_t c : label.candidates) names.push_back(short_column(layout, plan.typed, c));
    std::cerr << "warning: " << source << ": no label: " << label.candidates.size() << " columns are named like one ("
              << text::join(names) << "); `label: NAME` names the class\n";
  }

  const auto add = [&](std::size_t c, CoordKind kind) {
    PlannedCoordinate p;
    p.column = c;
    p.kind = kind;
    if (kind == CoordKind::code || kind == CoordKind::onehot) {
      const auto it = plan.categories.emplace(c, categories_of(tallies[c], o.nominal_order)).first;
      p.categories = &it->second;
    }
    plan.coords.push_back(p);
  };
  const CoordKind text_kind = o.nominal == NominalEncoding::onehot ? CoordKind::onehot : CoordKind::code;
  if (!refs.columns.empty()) {
    for (std::size_t c : refs.columns) {
      const ColumnTally& t = tallies[c];
      switch (t.type()) {
        case ColumnType::numeric:
        case ColumnType::empty: add(c, CoordKind::number); break;  // an empty column: the missing-value rule speaks
        case ColumnType::boolean: add(c, CoordKind::boolean); break;
        case ColumnType::date:
        case ColumnType::timestamp:
          if (o.dates == DateEncoding::skip) listed_needs_key(t, name(c), header_where);
          add(c, CoordKind::date);
          break;
        case ColumnType::text:
          if (o.nominal == NominalEncoding::skip) listed_needs_key(t, name(c), header_where);
          if (t.overflow)
            throw InputError(header_where,
                             "column " + name(c) + " has more than " + std::to_string(kMaxCategories) +
                                 " distinct values: too many to encode as categories",
                             "remove it from `columns`");
          add(c, text_kind);
          break;
      }
    }
  } else {
    for (std::size_t c = 0; c < ncols; ++c) {
      if (plan.label && c == *plan.label) continue;
      const ColumnTally& t = tallies[c];
      const ColumnType type = t.type();
      if (type == ColumnType::numeric) {
        add(c, CoordKind::number);
      } else if (type == ColumnType::boolean) {
        if (o.nominal == NominalEncoding::skip) plan.skipped.push_back({c, type, "nominal: skip"});
        else add(c, CoordKind::boolean);
      } else if (type == ColumnType::date || type == ColumnType::timestamp) {
        if (o.dates == DateEncoding::skip) plan.skipped.push_back({c, type, "dates: skip"});
        else add(c, CoordKind::date);
      } else if (type == ColumnType::empty) {
        plan.skipped.push_back({c, type, "every value is missing"});
      } else if (t.mixed() && o.nominal == NominalEncoding::skip) {
        plan.skipped.push_back({c, type, "mixed: " + mixed_text(t)});
      } else if (o.nominal == NominalEncoding::skip) {
        plan.skipped.push_back({c, type, "nominal: skip"});
      } else if (names_records(t)) {
        plan.skipped.push_back(
            {c, type,
             (t.overflow ? "more than " + std::to_string(kMaxCategories) : std::to_string(t.distinct.size())) +
                 " distinct values in " + std::to_string(t.values()) + " rows: a name or free text, not a category"});
      } else {
        add(c, text_kind);
      }
    }
  }
  std::size_t hint_gain = 0;
  const std::size_t hint_rows = scan.header_rows_hint(&hint_gain);
  std::string hint;
  if (hint_rows == 1 && layout.header_rows == 0)
    hint = "the first row looks like column names above numbers (in " + std::to_string(hint_gain) +
           " columns every value below it is a number): set `header: true`";
  else if (hint_rows > 0)
    hint = "the first " + std::to_string(hint_rows) + " rows look like column names above numbers (in " +
           std::to_string(hint_gain) +
           " more columns every value below them is a number): set `header_rows: " + std::to_string(hint_rows) +
           "` to read them as one header (each column's names joined with '" + std::string(kHeaderJoin) + "')";
  const std::string left_out = describe_left_out(plan, layout, tallies);
  if (plan.coords.empty())
    throw InputError(
        header_where,
        "no coordinates: none of the file's " + std::to_string(ncols) + " columns is numeric" +
            (left_out.empty() ? std::string() : " (" + left_out + ")") + (hint.empty() ? "" : "; " + hint),
        hint.empty()
            ? "set `nominal: codes` or `nominal: onehot` to encode text and true/false columns, `dates: days` or "
              "`dates: seconds` to use dates, or check the delimiter"
            : hint);
  if (!left_out.empty() || !hint.empty()) {
    std::cerr << "warning: " << source << ": ";
    if (!left_out.empty()) {
      std::cerr << plan.skipped.size() << " of " << ncols << " columns are left out of the coordinates: " << left_out
                << "; they are listed in the provenance as skipped_attributes";
      if (!layout.names_shown())
        std::cerr
            << " (names not shown: header: auto could not confirm the first row as names; `header: true` shows them)";
      const bool class_like = std::any_of(plan.skipped.begin(), plan.skipped.end(), [](const SkippedColumn& sk) {
        return sk.type == ColumnType::text || sk.type == ColumnType::boolean;
      });
      if (!plan.label && o.use_label && o.label.empty() && class_like)
        std::cerr << "; no label is taken (`label: NAME` names the class)";
    }
    if (!hint.empty()) std::cerr << (left_out.empty() ? "" : "; ") << hint;
    std::cerr << "\n";
  }
  return plan;
}

}  // namespace dpclust::csv
