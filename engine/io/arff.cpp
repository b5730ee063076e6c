#include "io/arff.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <optional>
#include <unordered_map>

#include <iostream>

#include "core/error.hpp"
#include "core/files.hpp"
#include "io/csv.hpp"
#include "io/label_text.hpp"
#include "io/line_reader.hpp"
#include "io/text.hpp"

namespace dpclust {
namespace fs = std::filesystem;

namespace {

// string and date attributes hold text per record (a sequence name, a timestamp): never a coordinate,
// skipped unless they are the label (a string label is coded like a CSV text label).
enum class AttrKind { numeric, nominal, string, date };

const char* kind_name(AttrKind k) {
  switch (k) {
    case AttrKind::numeric: return "numeric";
    case AttrKind::nominal: return "nominal";
    case AttrKind::string: return "string";
    case AttrKind::date: return "date";
  }
  return "?";
}

bool is_text(AttrKind k) { return k == AttrKind::string || k == AttrKind::date; }

struct Attribute {
  std::string name;
  AttrKind kind = AttrKind::numeric;
  std::vector<std::string> values;  // nominal values in declaration order
  std::size_t line = 0;
};

// Attributes a header may declare (a file with more is not a point set this harness can use).
constexpr std::size_t kMaxAttributes = std::size_t{1} << 20;

struct Header {
  std::string relation;
  std::vector<Attribute> attrs;
  std::size_t data_line = 0;  // line of @data
};

bool is_comment_or_blank(std::string_view t) { return t.empty() || t.front() == '%'; }

// The keyword at the start of a header line ("@attribute"), lower-cased, and the rest of the line.
std::pair<std::string, std::string_view> keyword(std::string_view t) {
  std::size_t k = 0;
  while (k < t.size() && t[k] != ' ' && t[k] != '\t') ++k;
  return {text::lower(t.substr(0, k)), text::trim(t.substr(k))};
}

// A possibly quoted name at the start of `s`; `s` is advanced past it.
std::string take_name(std::string_view& s, const LineReader& in) {
  if (!s.empty() && (s.front() == '\'' || s.front() == '"')) {
    const std::size_t close = s.find(s.front(), 1);
    if (close == std::string_view::npos)
      throw InputError(in.where(), "unterminated quoted name", "close the quote around the attribute name");
    std::string name(s.substr(1, close - 1));
    s = text::trim(s.substr(close + 1));
    return name;
  }
  std::size_t k = 0;
  while (k < s.size() && s[k] != ' ' && s[k] != '\t' && s[k] != '{') ++k;
  std::string name(s.substr(0, k));
  s = text::trim(s.substr(k));
  return name;
}

Attribute parse_attribute(std::string_view rest, const LineReader& in) {
  Attribute a;
  a.line = in.line_number();
  a.name = take_name(rest, in);
  if (a.name.empty()) throw InputError(in.where(), "@attribute without a name", "write @attribute <name> <type>");
  if (!rest.empty() && rest.front() == '{') {
    if (rest.back() != '}')
      throw InputError(in.where(), "nominal attribute '" + text::printable(a.name) + "': missing closing '}'", "close the value list with '}'");
    a.kind = AttrKind::nominal;
    std::vector<std::string_view> vals;
    text::split_fields(rest.substr(1, rest.size() - 2), ',', "'\"", vals);
    for (std::string_view v : vals) a.values.emplace_back(v);
    return a;
  }
  const std::string type = text::lower(rest.substr(0, rest.find_first_of(" \t")));
  if (type == "numeric" || type == "real" || type == "integer") return a;
  if (type == "string" || type == "date") {
    a.kind = type == "string" ? AttrKind::string : AttrKind::date;
    return a;
  }
  if (type == "relational")
    throw InputError(in.where(), "attribute '" + text::printable(a.name) + "' has type relational: multi-instance ARFF files are not supported",
                     "flatten the file to one row per point, or convert it to a CSV");
  throw InputError(in.where(), "attribute '" + text::printable(a.name) + "' has unknown type '" + text::printable(rest) + "'",
                   "use numeric, real, integer or a nominal {v1,v2,...} list");
}

Header read_header(LineReader& in) {
  Header h;
  std::string_view line;
  while (in.next(line)) {
    const std::string_view t = text::trim(line);
    if (is_comment_or_blank(t)) continue;
    auto [kw, rest] = keyword(t);
    if (kw == "@relation") {
      h.relation = std::string(text::unquote(rest));
    } else if (kw == "@attribute") {
      if (h.attrs.size() == kMaxAttributes)
        throw InputError(in.where(), "more than " + std::to_string(kMaxAttributes) + " @attribute lines",
                         "check that this is the right file");
      h.attrs.push_back(parse_attribute(rest, in));
    } else if (kw == "@data") {
      h.data_line = in.line_number();
      return h;
    } else {
      // The line is not shown: in a file whose @data line is missing it is the first data row (issue 34 item 7).
      throw InputError(in.where(), "unexpected line in the ARFF header: it is not @relation, @attribute, @data or a % comment"
                                   " (the line is not shown: if the @data line is missing, it is a data row)",
                       "add the line @data before the first data row; header lines are @relation, @attribute or @data; comments start with %");
    }
  }
  throw InputError(in.where(), "no @data section", "an ARFF file needs @attribute lines followed by @data");
}

std::vector<std::string> names_of(const Header& h, AttrKind kind) {
  std::vector<std::string> out;
  for (const Attribute& a : h.attrs)
    if (a.kind == kind) out.push_back(a.name);
  return out;
}

[[noreturn]] void unknown_attribute(const fs::path& path, const std::string& name, const std::vector<std::string>& candidates,
                                    const char* kind) {
  std::string what = "unknown " + std::string(kind) + " attribute '" + text::printable(name) + "'";
  const std::string guess = name.size() > 200 ? "" : closest_match(name, candidates);
  if (!guess.empty()) what += "; did you mean '" + text::printable(guess) + "'?";
  what += " Available: " + text::join(candidates);
  throw InputError(path.string(), what, "use one of the available attribute names");
}

std::size_t find_attribute(const Header& h, const std::string& name) {
  for (std::size_t i = 0; i < h.attrs.size(); ++i)
    if (h.attrs[i].name == name) return i;
  return h.attrs.size();
}

std::vector<std::size_t> select_coords(const Header& h, const ArffOptions& o, const LineReader& in) {
  const fs::path& path = in.path();
  std::vector<std::size_t> out;
  if (o.columns.empty()) {
    for (std::size_t i = 0; i < h.attrs.size(); ++i)
      if (h.attrs[i].kind == AttrKind::numeric) out.push_back(i);
  }
  for (const std::string& name : o.columns) {
    const std::size_t i = find_attribute(h, name);
    if (i < h.attrs.size() && is_text(h.attrs[i].kind))
      throw InputError(in.where(h.attrs[i].line), "attribute '" + text::printable(name) + "' has type " + kind_name(h.attrs[i].kind) +
                                                      ": a string or date attribute cannot be a coordinate",
                       "remove it from `columns` (numeric attributes: " + text::join(names_of(h, AttrKind::numeric)) + ")");
    if (i == h.attrs.size() || h.attrs[i].kind != AttrKind::numeric)
      unknown_attribute(path, name, names_of(h, AttrKind::numeric), "numeric");
    if (std::find(out.begin(), out.end(), i) != out.end())
      throw InputError(path.string(), "attribute '" + text::printable(name) + "' is selected twice", "list each column once");
    out.push_back(i);
  }
  if (out.empty()) throw InputError(path.string(), "no numeric attributes", "the points need numeric/real attributes");
  return out;
}

std::optional<std::size_t> select_label(const Header& h, const ArffOptions& o, const fs::path& path) {
  if (!o.use_label) return std::nullopt;
  if (!o.label.empty()) {
    const std::size_t i = find_attribute(h, o.label);
    // A string label (a class written as free text) is coded like a CSV text label; a date is no class.
    if (i == h.attrs.size() || (h.attrs[i].kind != AttrKind::nominal && h.attrs[i].kind != AttrKind::string)) {
      std::vector<std::string> candidates = names_of(h, AttrKind::nominal);
      for (const std::string& s : names_of(h, AttrKind::string)) candidates.push_back(s);
      unknown_attribute(path, o.label, candidates, "nominal or string");
    }
    return i;
  }
  // The default label is the last nominal attribute, never a string one: a string attribute is more
  // often a record's name (yeast's SequenceName) than its class.
  for (std::size_t i = h.attrs.size(); i-- > 0;)
    if (h.attrs[i].kind == AttrKind::nominal) return i;
  return std::nullopt;
}

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

// A bad value is named by its line, record index and attribute, never shown (issue 22 item 7; text.hpp).
// The declared nominal set is the header's, public, and is shown.
[[noreturn, gnu::cold, gnu::noinline]] void bad_number(const LineReader& in, const Attribute& a, std::string_view v,
                                                       std::size_t record) {
  const std::string at = text::record_label(record) + ", attribute '" + text::printable(a.name) + "': ";
  if (v == "?")
    throw InputError(in.where(), at + "missing values ('?') are not supported", "remove or impute the row");
  double x;
  if (text::parse_double(v, x))
    throw InputError(in.where(), at + "the value is NaN or infinite: NaN/inf not allowed; remove or impute the row",
                     "drop or impute rows with missing or infinite values");
  throw InputError(in.where(), at + "the value is not a number" + text::kValueNotShown, "fix the value or remove the row");
}

[[noreturn, gnu::cold, gnu::noinline]] void bad_label(const LineReader& in, const Attribute& a, std::string_view v,
                                                      std::size_t record) {
  const std::string at = text::record_label(record) + ", attribute '" + text::printable(a.name) + "': ";
  if (v == "?")
    throw InputError(in.where(), at + "missing values ('?') are not supported", "remove the row or give it a declared value");
  throw InputError(in.where(), at + "the value is not declared in its nominal set {" + text::join(a.values) + "}" +
                                   text::kValueNotShown,
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

}  // namespace

Dataset load_arff(const fs::path& path, const ArffOptions& options) {
  LineReader in(path);
  const Header h = read_header(in);
  if (h.attrs.empty()) throw InputError(in.where(h.data_line), "@data before any @attribute", "declare the attributes first");
  const std::vector<std::size_t> coords = select_coords(h, options, in);
  const std::optional<std::size_t> label = select_label(h, options, path);
  const bool text_label = label && h.attrs[*label].kind == AttrKind::string;
  const Labels table = label && !text_label ? nominal_labels(h.attrs[*label]) : Labels{};
  NominalIndex label_of(label && !text_label ? h.attrs[*label] : Attribute{}, table);
  LabelText label_text;

  // String and date attributes that are neither a coordinate nor the label: skipped, said once on
  // stderr and in the provenance, by name and type only (never a value).
  nlohmann::json skipped = nlohmann::json::array();
  for (std::size_t i = 0; i < h.attrs.size(); ++i) {
    if (!is_text(h.attrs[i].kind) || (label && i == *label)) continue;
    skipped.push_back({{"name", h.attrs[i].name}, {"type", kind_name(h.attrs[i].kind)}});
    std::cerr << "warning: " << in.where(h.attrs[i].line) << ": attribute '" << text::printable(h.attrs[i].name) << "' has type "
              << kind_name(h.attrs[i].kind) << ": skipped (not a coordinate; it is listed in the provenance as skipped_attributes)\n";
  }

  Dataset ds;
  ds.name = options.name.empty() ? dataset_stem(path) : options.name;
  ds.d = coords.size();
  for (std::size_t c : coords) ds.column_names.push_back(h.attrs[c].name);
  std::vector<std::string_view> fields;
  std::string_view line;
  while ((options.max_rows == 0 || ds.n < options.max_rows) && in.next(line)) {
    const std::string_view t = text::trim(line);
    if (is_comment_or_blank(t)) continue;
    if (t.front() == '{')
      throw InputError(in.where(), "sparse ARFF rows ({index value, ...}) are not supported",
                       "convert the file to dense rows (one value per attribute)");
    split_values(t, fields);
    if (fields.size() != h.attrs.size())
      throw InputError(in.where(), "expected " + std::to_string(h.attrs.size()) + " values (one per @attribute), found " +
                                       std::to_string(fields.size()) + " (values are separated by commas or blanks)",
                       "fix or remove the row; a value holding a blank or a comma must be quoted");
    for (std::size_t c : coords) {
      double v;
      if (!text::parse_double(fields[c], v) || !std::isfinite(v)) bad_number(in, h.attrs[c], fields[c], ds.n);
      ds.coords.push_back(v);
    }
    if (text_label) {
      if (fields[*label] == "?") bad_label(in, h.attrs[*label], fields[*label], ds.n);
      ds.labels.push_back(label_text.code(fields[*label], in, h.attrs[*label].name, ds.n));
    } else if (label) {
      ds.labels.push_back(label_of.label_of(in, h.attrs[*label], fields[*label], ds.n));
    }
    ++ds.n;
    in.check_values(ds.coords.size() + ds.labels.size());
  }
  if (ds.n == 0) throw InputError(in.where(h.data_line), "no data rows after @data", "check that this is the right file");
  if (text_label) label_text.finish(ds.labels);

  nlohmann::json cols = nlohmann::json::array();
  for (std::size_t c : coords) cols.push_back(h.attrs[c].name);
  ds.provenance["files"] = nlohmann::json::array({file_fingerprint(path)});
  ds.provenance["format"] = "arff";
  ds.provenance["relation"] = h.relation;
  ds.provenance["columns"] = cols;
  ds.provenance["rows"] = ds.n;
  if (!skipped.empty()) ds.provenance["skipped_attributes"] = skipped;
  if (options.max_rows) ds.provenance["max_rows"] = options.max_rows;
  if (text_label) {
    ds.provenance["label"] = h.attrs[*label].name;
    if (!label_text.integer()) ds.provenance["label_map"] = label_text.mapping();
  } else if (label) {
    ds.provenance["label"] = h.attrs[*label].name;
    nlohmann::json map = nlohmann::json::object();
    for (std::size_t k = 0; k < table.size(); ++k) map[h.attrs[*label].values[k]] = table[k];
    for (const auto& [value, l] : label_of.undeclared()) map[value] = l;
    ds.provenance["label_map"] = map;
    if (!label_of.undeclared().empty()) {
      // Said without the values (a message never prints a record's value); the label map, an evaluation
      // field of the results, has them.
      ds.provenance["undeclared_label_values"] = label_of.undeclared().size();
      std::cerr << "warning: " << path.string() << ": label attribute '" << text::printable(h.attrs[*label].name) << "': "
                << label_of.undeclared().size() << " value(s) not declared in its @attribute set; each got a label of its own "
                << "(declare them in the header to silence this)\n";
    }
  } else {
    ds.provenance["label"] = nullptr;
  }
  return ds;
}

}  // namespace dpclust
