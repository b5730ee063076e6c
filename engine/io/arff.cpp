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
#include "io/missing_values.hpp"
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

// Every attribute by kind, for "Available: ..." in messages.
std::string describe_attributes(const Header& h) {
  std::string out;
  for (AttrKind k : {AttrKind::numeric, AttrKind::nominal, AttrKind::string, AttrKind::date}) {
    const std::vector<std::string> names = names_of(h, k);
    if (names.empty()) continue;
    out += (out.empty() ? "" : "; ") + std::string(kind_name(k)) + ": " + text::join(names);
  }
  return out;
}

[[noreturn]] void unknown_attribute(const fs::path& path, const std::string& name, const std::vector<std::string>& candidates,
                                    const char* kind, const std::string& available) {
  std::string what = "unknown " + std::string(kind) + " attribute '" + text::printable(name) + "'";
  const std::string guess = name.size() > 200 ? "" : closest_match(name, candidates);
  if (!guess.empty()) what += "; did you mean '" + text::printable(guess) + "'?";
  what += " Available: " + available;
  throw InputError(path.string(), what, "use one of the available attribute names");
}

std::size_t find_attribute(const Header& h, const std::string& name) {
  for (std::size_t i = 0; i < h.attrs.size(); ++i)
    if (h.attrs[i].name == name) return i;
  return h.attrs.size();
}

// Every declared value of a nominal attribute parses as a finite number ({0,1,2,3}, {1.5,2.5}).
bool numeric_values(const Attribute& a) {
  if (a.values.empty()) return false;
  for (const std::string& v : a.values) {
    double x;
    if (!text::parse_double(v, x) || !std::isfinite(x)) return false;
  }
  return true;
}

// ... and at least one of them has a fraction: the steps of a discretised reading, not class numbers.
bool fractional_values(const Attribute& a) {
  if (!numeric_values(a)) return false;
  for (const std::string& v : a.values) {
    std::int64_t x;
    if (!text::parse_int(v, x)) return true;
  }
  return false;
}

// How one attribute becomes coordinates.
enum class Encoding : unsigned char { number, code, onehot };
struct Coordinate {
  std::size_t attr;
  Encoding how;
};

std::optional<std::size_t> select_label(const Header& h, const ArffOptions& o, const fs::path& path) {
  if (!o.use_label) return std::nullopt;
  if (!o.label.empty()) {
    const std::size_t i = find_attribute(h, o.label);
    // A string label (a class written as free text) is coded like a CSV text label; a date is no class.
    if (i == h.attrs.size() || (h.attrs[i].kind != AttrKind::nominal && h.attrs[i].kind != AttrKind::string)) {
      std::vector<std::string> candidates = names_of(h, AttrKind::nominal);
      for (const std::string& s : names_of(h, AttrKind::string)) candidates.push_back(s);
      if (i < h.attrs.size())
        throw InputError(path.string(), "label attribute '" + text::printable(o.label) + "' has type " + kind_name(h.attrs[i].kind) +
                                            ": a label must be nominal (or string); Available: " + describe_attributes(h),
                         "name a nominal attribute as the label, or write label: none");
      unknown_attribute(path, o.label, candidates, "nominal or string", describe_attributes(h));
    }
    return i;
  }
  // The file's convention, and only when it is unambiguous: Weka's class is the last attribute, and it is
  // nominal. A numeric attribute is never a label unless named, and neither is a nominal one whose values
  // are numbers with fractions (a reading cut into steps), nor a nominal attribute in another position.
  if (h.attrs.empty()) return std::nullopt;
  const Attribute& last = h.attrs.back();
  if (last.kind == AttrKind::nominal && !fractional_values(last)) return h.attrs.size() - 1;
  const std::vector<std::string> nominal = names_of(h, AttrKind::nominal);
  if (last.kind == AttrKind::nominal)
    std::cerr << "warning: " << path.string() << ": no label: the last attribute '" << text::printable(last.name)
              << "' is nominal but its values are numbers with fractions (a discretised reading, not a class); `label: "
              << text::printable(last.name) << "` makes it the ground truth\n";
  else if (!nominal.empty())
    std::cerr << "warning: " << path.string() << ": no label: the last attribute '" << text::printable(last.name) << "' is "
              << kind_name(last.kind) << " (a label is taken by default only from a last attribute that is nominal); `label: NAME` names one ("
              << "nominal attributes: " << text::join(nominal, 10) << ")\n";
  return std::nullopt;
}

std::vector<Coordinate> select_coords(const Header& h, const ArffOptions& o, std::optional<std::size_t> label, const LineReader& in) {
  const fs::path& path = in.path();
  auto nominal_how = [&](const Attribute& a) {
    if (o.nominal == NominalEncoding::onehot) return Encoding::onehot;
    return numeric_values(a) ? Encoding::number : Encoding::code;
  };
  std::vector<Coordinate> out;
  if (o.columns.empty()) {
    for (std::size_t i = 0; i < h.attrs.size(); ++i) {
      if (h.attrs[i].kind == AttrKind::numeric) out.push_back({i, Encoding::number});
      else if (h.attrs[i].kind == AttrKind::nominal && o.nominal != NominalEncoding::skip && !(label && i == *label))
        out.push_back({i, nominal_how(h.attrs[i])});
    }
  }
  for (const std::string& name : o.columns) {
    const std::size_t i = find_attribute(h, name);
    if (i == h.attrs.size()) {
      std::vector<std::string> candidates = names_of(h, AttrKind::numeric);
      for (const std::string& s : names_of(h, AttrKind::nominal)) candidates.push_back(s);
      unknown_attribute(path, name, candidates, "numeric or nominal", describe_attributes(h));
    }
    const Attribute& a = h.attrs[i];
    if (is_text(a.kind))
      throw InputError(in.where(a.line), "attribute '" + text::printable(name) + "' has type " + kind_name(a.kind) +
                                             ": a string or date attribute cannot be a coordinate",
                       "remove it from `columns` (numeric attributes: " + text::join(names_of(h, AttrKind::numeric)) + ")");
    if (label && i == *label)
      throw InputError(path.string(), "attribute '" + text::printable(name) + "' is selected both as a coordinate and as the label",
                       "remove it from `columns`, or name another label (label: NAME, or label: none)");
    Encoding how = Encoding::number;
    if (a.kind == AttrKind::nominal) {
      how = nominal_how(a);
      if (how == Encoding::code && o.nominal == NominalEncoding::skip)
        throw InputError(in.where(a.line), "attribute '" + text::printable(name) + "' is nominal and its declared values {" + text::join(a.values, 12) +
                                               "} are not all numbers, so they are no coordinate as they stand",
                         "set `nominal: codes` (each value its 0-based position in the declaration) or `nominal: onehot` (one 0/1 "
                         "coordinate per value) on the dataset, or remove it from `columns`");
    }
    if (std::find_if(out.begin(), out.end(), [&](const Coordinate& c) { return c.attr == i; }) != out.end())
      throw InputError(path.string(), "attribute '" + text::printable(name) + "' is selected twice", "list each column once");
    out.push_back({i, how});
  }
  if (out.empty())
    throw InputError(path.string(), "no coordinates: the file has no numeric attribute" +
                                        std::string(names_of(h, AttrKind::nominal).empty() ? "" : " (and its nominal attributes are left out)") +
                                        "; attributes: " + describe_attributes(h),
                     names_of(h, AttrKind::nominal).empty() ? "the points need numeric/real attributes"
                                                            : "set `nominal: codes` or `nominal: onehot` on the dataset to use the nominal attributes");
  return out;
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
  const std::optional<std::size_t> label = select_label(h, options, path);
  const std::vector<Coordinate> coords = select_coords(h, options, label, in);
  const bool text_label = label && h.attrs[*label].kind == AttrKind::string;
  const Labels table = label && !text_label ? nominal_labels(h.attrs[*label]) : Labels{};
  NominalIndex label_of(label && !text_label ? h.attrs[*label] : Attribute{}, table);
  LabelText label_text;
  // Nominal coordinates by code or one-hot: each declared value's position.
  std::vector<std::optional<NominalIndex>> positions(coords.size());
  for (std::size_t c = 0; c < coords.size(); ++c) {
    if (coords[c].how == Encoding::number) continue;
    const Attribute& a = h.attrs[coords[c].attr];
    Labels pos(a.values.size());
    for (std::size_t k = 0; k < pos.size(); ++k) pos[k] = static_cast<Label>(k);
    positions[c].emplace(a, pos);
  }

  // Every attribute that is neither a coordinate nor the label: left out, said once on stderr and in the
  // provenance, by name and type only (never a value).
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
    std::cerr << "warning: " << in.where(h.attrs[i].line) << ": attribute '" << text::printable(h.attrs[i].name) << "' has type "
              << kind_name(h.attrs[i].kind) << ": skipped (not a coordinate; it is listed in the provenance as skipped_attributes)\n";
  }
  if (!skipped_nominal.empty())
    std::cerr << "warning: " << path.string() << ": " << skipped_nominal.size() << " of " << h.attrs.size() << " attributes are nominal and left out "
              << "(neither coordinates nor the label): " << text::join(skipped_nominal)
              << "; list those whose values are numbers in `columns`, or set `nominal: codes` or `nominal: onehot` on the dataset to "
                 "use them (they are listed in the provenance as skipped_attributes)\n";

  Dataset ds;
  ds.name = options.name.empty() ? dataset_stem(path) : options.name;
  for (std::size_t c = 0; c < coords.size(); ++c) {
    const Attribute& a = h.attrs[coords[c].attr];
    if (coords[c].how == Encoding::onehot)
      for (const std::string& v : a.values) ds.column_names.push_back(a.name + "=" + v);
    else
      ds.column_names.push_back(a.name);
  }
  ds.d = ds.column_names.size();
  MissingValues missing(options.missing);
  std::vector<double> row(ds.d);
  std::vector<std::string_view> fields;
  std::string_view line;
  std::size_t rows_read = 0;
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
    ++rows_read;
    std::size_t out = 0;
    for (std::size_t c = 0; c < coords.size(); ++c) {
      const Attribute& a = h.attrs[coords[c].attr];
      const std::string_view v = fields[coords[c].attr];
      const std::size_t width = coords[c].how == Encoding::onehot ? a.values.size() : 1;
      if (is_missing_value(v)) {
        missing.note(a.name, in.where());
        out += width;
        continue;
      }
      if (coords[c].how == Encoding::number) {
        double x;
        if (!text::parse_double(v, x) || !std::isfinite(x)) bad_number(in, a, v, ds.n);
        row[out++] = x;
      } else {
        const Label k = (*positions[c])(in, a, v, ds.n);
        if (coords[c].how == Encoding::code) {
          row[out++] = static_cast<double>(k);
        } else {
          for (std::size_t j = 0; j < width; ++j) row[out + j] = j == static_cast<std::size_t>(k) ? 1.0 : 0.0;
          out += width;
        }
      }
    }
    if (label && is_missing_value(fields[*label])) missing.note(h.attrs[*label].name, in.where());
    if (missing.end_row()) continue;
    ds.coords.insert(ds.coords.end(), row.begin(), row.end());
    if (text_label) ds.labels.push_back(label_text.code(fields[*label], in, h.attrs[*label].name, ds.n));
    else if (label) ds.labels.push_back(label_of.label_of(in, h.attrs[*label], fields[*label], ds.n));
    ++ds.n;
    in.check_values(ds.coords.size() + ds.labels.size());
  }
  missing.finish(path.string(), rows_read);
  if (ds.n == 0)
    throw InputError(in.where(h.data_line),
                     missing.rows() ? "no data rows with every selected value present (" + std::to_string(missing.rows()) + " dropped by missing: drop)"
                                    : std::string("no data rows after @data"),
                     missing.rows() ? "leave the columns with missing values out of `columns`" : "check that this is the right file");
  if (text_label) label_text.finish(ds.labels);

  nlohmann::json cols = nlohmann::json::array();
  for (const std::string& c : ds.column_names) cols.push_back(c);
  ds.provenance["files"] = nlohmann::json::array({file_fingerprint(path)});
  ds.provenance["format"] = "arff";
  ds.provenance["relation"] = h.relation;
  ds.provenance["columns"] = cols;
  ds.provenance["rows"] = ds.n;
  if (std::any_of(coords.begin(), coords.end(), [&](const Coordinate& c) { return h.attrs[c.attr].kind == AttrKind::nominal; })) {
    nlohmann::json nominal = nlohmann::json::object();
    for (const Coordinate& c : coords)
      if (h.attrs[c.attr].kind == AttrKind::nominal)
        nominal[h.attrs[c.attr].name] = c.how == Encoding::number ? "number" : c.how == Encoding::code ? "code" : "onehot";
    ds.provenance["nominal_coordinates"] = nominal;
  }
  if (options.missing == MissingPolicy::drop) ds.provenance["missing"] = missing.provenance();
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
