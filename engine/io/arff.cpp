#include "io/arff.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iostream>
#include <optional>
#include <unordered_map>

#include "core/error.hpp"
#include "core/files.hpp"
#include "io/arff_header.hpp"
#include "io/csv.hpp"
#include "io/label_text.hpp"
#include "io/line_reader.hpp"
#include "io/missing_values.hpp"
#include "io/text.hpp"

// The loader's steps, beside the header's (arff_header.hpp): the attribute types are theirs.
namespace dpclust::arff {
namespace fs = std::filesystem;

namespace {

// Splits a dense data row into its values as Weka reads them: values are separated by a comma (blanks
// around it allowed) or by blanks alone ("1.0 2.0 a"); a value in single or double quotes runs to the
// matching quote (a backslash escapes the next character, as Weka writes a quote inside a value) and
// the quotes are removed. Two commas with nothing between them give an empty value, as in a comma
// file, so a missing value is reported for its attribute instead of shifting the row.
void split_values(std::string_view t, std::vector<std::string_view>& out) {
  out.clear();
  const auto blank = [](char c) { return c == ' ' || c == '\t' || c == '\r'; };
  const std::size_t n = t.size();
  std::size_t i = 0;
  for (;;) {
    while (i < n && blank(t[i])) ++i;
    if (i < n && (t[i] == '\'' || t[i] == '"')) {
      const char q = t[i];
      std::size_t j = i + 1;
      while (j < n && t[j] != q) j += (t[j] == '\\' && j + 1 < n) ? 2 : 1;
      out.push_back(t.substr(i + 1, std::min(j, n) - i - 1));  // unterminated: the rest, reported as not parsing
      i = std::min(j + 1, n);
    } else {
      const std::size_t a = i;
      while (i < n && t[i] != ',' && !blank(t[i])) ++i;
      out.push_back(t.substr(a, i - a));
    }
    while (i < n && blank(t[i])) ++i;
    if (i >= n) return;
    if (t[i] == ',') {
      ++i;
      if (i >= n) {  // "1,2," ends with an empty value, as a comma file does
        out.emplace_back();
        return;
      }
    }
  }
}

// Label of each declared nominal value, by the rule in ArffOptions::label.
Labels nominal_labels(const Attribute& a) {
  bool all_int = true;
  for (const std::string& v : a.values) {
    std::int64_t x;
    if (!text::iequals(v, "noise") && !(text::parse_int(v, x) && x >= INT32_MIN && x <= INT32_MAX)) all_int = false;
  }
  Labels out;
  Label next = 0;
  for (const std::string& v : a.values) {
    std::int64_t x = 0;
    if (text::iequals(v, "noise")) {
      out.push_back(kNoise);
    } else if (all_int) {
      text::parse_int(v, x);
      out.push_back(static_cast<Label>(x));
    } else {
      out.push_back(next++);
    }
  }
  return out;
}

// A bad value is named by its line, record index and attribute, never shown (a message never prints a
// record's values: text.hpp).
// The declared nominal set is the header's, public, and is shown.
[[noreturn, gnu::cold, gnu::noinline]] void bad_number(const LineReader& in, const Attribute& a, std::string_view v,
                                                       std::size_t record) {
  const std::string at = text::record_label(record) + ", attribute '" + text::printable(a.name) + "': ";
  double x;
  if (text::parse_double(v, x))
    throw InputError(in.where(), at + "the value is NaN or infinite: NaN/inf not allowed; remove or impute the row",
                     "drop or impute rows with missing or infinite values");
  throw InputError(in.where(), at + "the value is not a number" + text::kValueNotShown,
                   "fix the value or remove the row");
}

[[noreturn, gnu::cold, gnu::noinline]] void bad_label(const LineReader& in, const Attribute& a, std::string_view v,
                                                      std::size_t record) {
  const std::string at = text::record_label(record) + ", attribute '" + text::printable(a.name) + "': ";
  if (v == "?")
    throw InputError(in.where(), at + "missing values ('?') are not supported",
                     "remove the row or give it a declared value");
  throw InputError(
      in.where(),
      at + "the value is not declared in its nominal set {" + text::join(a.values) + "}" + text::kValueNotShown,
      "add the value to the @attribute declaration or fix the row");
}

// Declared nominal value -> label, looked up in constant time per row (a header may declare many values).
class NominalIndex {
 public:
  NominalIndex(const Attribute& a, const Labels& table) {
    for (std::size_t k = 0; k < a.values.size(); ++k) index_.emplace(a.values[k], table[k]);  // first wins
  }
  Label operator()(const LineReader& in, const Attribute& a, std::string_view v, std::size_t record) const {
    const auto it = index_.find(v);
    if (it == index_.end()) bad_label(in, a, v, record);
    return it->second;
  }
  // The label column: a value the header does not declare (clustering-benchmark's cure-t2-4k declares {0,1,2}
  // and holds 0..6) gets a label of its own after the declared ones, in order of first appearance, instead
  // of refusing the file; the caller says so (never the value). '?' is still refused.
  Label label_of(const LineReader& in, const Attribute& a, std::string_view v, std::size_t record) {
    const auto it = index_.find(v);
    if (it != index_.end()) return it->second;
    if (v == "?") bad_label(in, a, v, record);
    Label next = 0;
    for (const auto& [value, l] : index_) next = std::max(next, l + 1);
    index_.emplace(std::string(v), next);
    undeclared_.emplace_back(std::string(v), next);
    return next;
  }
  // Every undeclared value with its label, in order of first appearance.
  const std::vector<std::pair<std::string, Label>>& undeclared() const { return undeclared_; }

 private:
  struct Hash {
    using is_transparent = void;
    std::size_t operator()(std::string_view s) const { return std::hash<std::string_view>{}(s); }
  };
  std::unordered_map<std::string, Label, Hash, std::equal_to<>> index_;
  std::vector<std::pair<std::string, Label>> undeclared_;
};

// Every attribute that is neither a coordinate nor the label: left out, said once on stderr, by name and
// type only (never a value); returned as provenance["skipped_attributes"].
nlohmann::json skipped_attributes(const Header& h, std::optional<std::size_t> label,
                                  const std::vector<Coordinate>& coords, const LineReader& in) {
  nlohmann::json skipped = nlohmann::json::array();
  std::vector<std::string> skipped_nominal;
  for (std::size_t i = 0; i < h.attrs.size(); ++i) {
    if ((label && i == *label) || h.attrs[i].kind == AttrKind::numeric ||
        std::any_of(coords.begin(), coords.end(), [&](const Coordinate& c) { return c.attr == i; }))
      continue;
    skipped.push_back({{"name", h.attrs[i].name}, {"type", kind_name(h.attrs[i].kind)}});
    if (h.attrs[i].kind == AttrKind::nominal) {
      skipped_nominal.push_back(h.attrs[i].name);
      continue;
    }
    std::cerr << "warning: " << in.where(h.attrs[i].line) << ": attribute '" << text::printable(h.attrs[i].name)
              << "' has type " << kind_name(h.attrs[i].kind)
              << ": skipped (not a coordinate; it is listed in the provenance as skipped_attributes)\n";
  }
  if (!skipped_nominal.empty())
    std::cerr << "warning: " << in.path().string() << ": " << skipped_nominal.size() << " of " << h.attrs.size()
              << " attributes are nominal and left out (neither coordinates nor the label): "
              << text::join(skipped_nominal)
              << "; list those whose values are numbers in `columns`, or set `nominal: codes` or `nominal: onehot` on "
                 "the dataset to "
                 "use them (they are listed in the provenance as skipped_attributes)\n";
  return skipped;
}

// The coordinates' names: the attribute's, or "attribute=value" for each one-hot coordinate.
std::vector<std::string> coordinate_names(const Header& h, const std::vector<Coordinate>& coords) {
  std::vector<std::string> names;
  for (const Coordinate& c : coords) {
    const Attribute& a = h.attrs[c.attr];
    if (c.how == Encoding::onehot)
      for (const std::string& v : a.values) names.push_back(a.name + "=" + v);
    else names.push_back(a.name);
  }
  return names;
}

// The selected values of one data row as coordinates: numbers as they are, a nominal value by its code or
// one-hot; a missing value ('?') is noted (MissingValues decides the row's fate at its end).
class RowEncoder {
 public:
  RowEncoder(const Header& h, const std::vector<Coordinate>& coords)
      : h_(h), coords_(coords), positions_(coords.size()) {
    // Nominal coordinates by code or one-hot: each declared value's position.
    for (std::size_t c = 0; c < coords.size(); ++c) {
      if (coords[c].how == Encoding::number) continue;
      const Attribute& a = h.attrs[coords[c].attr];
      Labels pos(a.values.size());
      for (std::size_t k = 0; k < pos.size(); ++k) pos[k] = static_cast<Label>(k);
      positions_[c].emplace(a, pos);
    }
  }

  void encode(const std::vector<std::string_view>& fields, const LineReader& in, std::size_t record,
              MissingValues& missing, std::vector<double>& row) const {
    std::size_t out = 0;
    for (std::size_t c = 0; c < coords_.size(); ++c) {
      const Attribute& a = h_.attrs[coords_[c].attr];
      const std::string_view v = fields[coords_[c].attr];
      const std::size_t width = coords_[c].how == Encoding::onehot ? a.values.size() : 1;
      if (is_missing_value(v)) {
        missing.note(a.name, in.where());
        out += width;
        continue;
      }
      if (coords_[c].how == Encoding::number) {
        double x;
        if (!text::parse_double(v, x) || !std::isfinite(x)) bad_number(in, a, v, record);
        row[out++] = x;
        continue;
      }
      const Label k = (*positions_[c])(in, a, v, record);
      if (coords_[c].how == Encoding::code) {
        row[out++] = static_cast<double>(k);
      } else {
        for (std::size_t j = 0; j < width; ++j) row[out + j] = j == static_cast<std::size_t>(k) ? 1.0 : 0.0;
        out += width;
      }
    }
  }

 private:
  const Header& h_;
  const std::vector<Coordinate>& coords_;
  std::vector<std::optional<NominalIndex>> positions_;
};

// The label attribute's values as labels: a nominal one by ArffOptions::label's rule (a value the header
// does not declare gets a label of its own), a string one as a CSV text label is coded.
class LabelColumn {
 public:
  LabelColumn(const Header& h, std::optional<std::size_t> label)
      : h_(h),
        label_(label),
        text_(label && h.attrs[*label].kind == AttrKind::string),
        table_(label && !text_ ? nominal_labels(h.attrs[*label]) : Labels{}),
        nominal_(label && !text_ ? h.attrs[*label] : Attribute{}, table_) {}

  bool present() const { return label_.has_value(); }
  // The label attribute's value in `fields` is missing ('?').
  bool missing_in(const std::vector<std::string_view>& fields) const {
    return label_ && is_missing_value(fields[*label_]);
  }
  const std::string& name() const { return h_.attrs[*label_].name; }

  Label code(const std::vector<std::string_view>& fields, const LineReader& in, std::size_t record) {
    const std::string_view v = fields[*label_];
    return text_ ? text_codes_.code(v, in, name(), record) : nominal_.label_of(in, h_.attrs[*label_], v, record);
  }
  // After the last row: text labels get their final codes.
  void finish(Labels& labels) const {
    if (text_) text_codes_.finish(labels);
  }
  // provenance "label", "label_map" and "undeclared_label_values"; a warning when values were undeclared.
  void record(nlohmann::json& provenance, const fs::path& path) const {
    if (!label_) {
      provenance["label"] = nullptr;
      return;
    }
    provenance["label"] = name();
    if (text_) {
      if (!text_codes_.integer()) provenance["label_map"] = text_codes_.mapping();
      return;
    }
    nlohmann::json map = nlohmann::json::object();
    for (std::size_t k = 0; k < table_.size(); ++k) map[h_.attrs[*label_].values[k]] = table_[k];
    for (const auto& [value, l] : nominal_.undeclared()) map[value] = l;
    provenance["label_map"] = map;
    if (nominal_.undeclared().empty()) return;
    // Said without the values (a message never prints a record's value); the label map, an evaluation
    // field of the results, has them.
    provenance["undeclared_label_values"] = nominal_.undeclared().size();
    std::cerr << "warning: " << path.string() << ": label attribute '" << text::printable(name())
              << "': " << nominal_.undeclared().size()
              << " value(s) not declared in its @attribute set; each got a label of its own "
              << "(declare them in the header to silence this)\n";
  }

 private:
  const Header& h_;
  const std::optional<std::size_t> label_;
  const bool text_;
  const Labels table_;
  NominalIndex nominal_;
  LabelText text_codes_;
};

// The data rows after @data (at most `max_rows` kept; 0 = all) into `ds`; returns the rows read, kept or
// dropped for a missing value.
std::size_t read_rows(LineReader& in, const Header& h, const RowEncoder& encoder, LabelColumn& labels,
                      MissingValues& missing, std::size_t max_rows, Dataset& ds) {
  std::vector<double> row(ds.d);
  std::vector<std::string_view> fields;
  std::string_view line;
  std::size_t rows_read = 0;
  while ((max_rows == 0 || ds.n < max_rows) && in.next(line)) {
    const std::string_view t = text::trim(line);
    if (is_comment_or_blank(t)) continue;
    if (t.front() == '{')
      throw InputError(in.where(), "sparse ARFF rows ({index value, ...}) are not supported",
                       "convert the file to dense rows (one value per attribute)");
    split_values(t, fields);
    if (fields.size() != h.attrs.size())
      throw InputError(in.where(),
                       "expected " + std::to_string(h.attrs.size()) + " values (one per @attribute), found " +
                           std::to_string(fields.size()) + " (values are separated by commas or blanks)",
                       "fix or remove the row; a value holding a blank or a comma must be quoted");
    ++rows_read;
    encoder.encode(fields, in, ds.n, missing, row);
    if (labels.missing_in(fields)) missing.note(labels.name(), in.where());
    if (missing.end_row()) continue;
    ds.coords.insert(ds.coords.end(), row.begin(), row.end());
    if (labels.present()) ds.labels.push_back(labels.code(fields, in, ds.n));
    ++ds.n;
    in.check_values(ds.coords.size() + ds.labels.size());
  }
  return rows_read;
}

// What the dataset was read from and how: the file's fingerprint, the relation, the columns, the encoding
// of nominal coordinates, the missing-value policy's counts, the attributes left out, the row cap.
void record_provenance(Dataset& ds, const fs::path& path, const Header& h, const std::vector<Coordinate>& coords,
                       const ArffOptions& options, const MissingValues& missing, const nlohmann::json& skipped) {
  nlohmann::json cols = nlohmann::json::array();
  for (const std::string& c : ds.column_names) cols.push_back(c);
  ds.provenance["files"] = nlohmann::json::array({file_fingerprint(path)});
  ds.provenance["format"] = "arff";
  ds.provenance["relation"] = h.relation;
  ds.provenance["columns"] = cols;
  ds.provenance["rows"] = ds.n;
  if (std::any_of(coords.begin(), coords.end(),
                  [&](const Coordinate& c) { return h.attrs[c.attr].kind == AttrKind::nominal; })) {
    nlohmann::json nominal = nlohmann::json::object();
    for (const Coordinate& c : coords)
      if (h.attrs[c.attr].kind == AttrKind::nominal)
        nominal[h.attrs[c.attr].name] = c.how == Encoding::number ? "number"
                                        : c.how == Encoding::code ? "code"
                                                                  : "onehot";
    ds.provenance["nominal_coordinates"] = nominal;
  }
  if (options.missing == MissingPolicy::drop) ds.provenance["missing"] = missing.provenance();
  if (!skipped.empty()) ds.provenance["skipped_attributes"] = skipped;
  if (options.max_rows) ds.provenance["max_rows"] = options.max_rows;
}

}  // namespace
}  // namespace dpclust::arff

namespace dpclust {

Dataset load_arff(const std::filesystem::path& path, const ArffOptions& options) {
  using namespace arff;
  LineReader in(path);
  const Header h = read_header(in);
  if (h.attrs.empty())
    throw InputError(in.where(h.data_line), "@data before any @attribute", "declare the attributes first");
  const std::optional<std::size_t> label = select_label(h, options, path);
  const std::vector<Coordinate> coords = select_coords(h, options, label, in);
  const nlohmann::json skipped = skipped_attributes(h, label, coords, in);

  Dataset ds;
  ds.name = options.name.empty() ? dataset_stem(path) : options.name;
  ds.column_names = coordinate_names(h, coords);
  ds.d = ds.column_names.size();
  const RowEncoder encoder(h, coords);
  LabelColumn labels(h, label);
  MissingValues missing(options.missing);
  const std::size_t rows_read = read_rows(in, h, encoder, labels, missing, options.max_rows, ds);
  missing.finish(path.string(), rows_read);
  if (ds.n == 0)
    throw InputError(in.where(h.data_line),
                     missing.rows() ? "no data rows with every selected value present (" +
                                          std::to_string(missing.rows()) + " dropped by missing: drop)"
                                    : std::string("no data rows after @data"),
                     missing.rows() ? "leave the columns with missing values out of `columns`"
                                    : "check that this is the right file");
  labels.finish(ds.labels);
  record_provenance(ds, path, h, coords, options, missing, skipped);
  labels.record(ds.provenance, path);
  return ds;
}

}  // namespace dpclust
