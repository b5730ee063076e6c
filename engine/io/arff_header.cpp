#include "io/arff_header.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <iostream>

#include "core/error.hpp"
#include "io/label_text.hpp"
#include "io/text.hpp"

namespace dpclust::arff {
namespace fs = std::filesystem;

const char* kind_name(AttrKind k) {
  switch (k) {
    case AttrKind::numeric: return "numeric";
    case AttrKind::nominal: return "nominal";
    case AttrKind::string: return "string";
    case AttrKind::date: return "date";
  }
  return "?";
}

namespace {

bool is_text(AttrKind k) { return k == AttrKind::string || k == AttrKind::date; }

// Attributes a header may declare (a file with more is not a point set this harness can use).
constexpr std::size_t kMaxAttributes = std::size_t{1} << 20;

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
      throw InputError(in.where(), "nominal attribute '" + text::printable(a.name) + "': missing closing '}'",
                       "close the value list with '}'");
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
    throw InputError(
        in.where(),
        "attribute '" + text::printable(a.name) + "' has type relational: multi-instance ARFF files are not supported",
        "flatten the file to one row per point, or convert it to a CSV");
  throw InputError(in.where(),
                   "attribute '" + text::printable(a.name) + "' has unknown type '" + text::printable(rest) + "'",
                   "use numeric, real, integer or a nominal {v1,v2,...} list");
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

[[noreturn]] void unknown_attribute(const fs::path& path, const std::string& name,
                                    const std::vector<std::string>& candidates, const char* kind,
                                    const std::string& available) {
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

}  // namespace

bool is_comment_or_blank(std::string_view t) { return t.empty() || t.front() == '%'; }

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
      // The line is not shown: in a file whose @data line is missing it is the first data row, and a
      // message never shows a record's values.
      throw InputError(in.where(),
                       "unexpected line in the ARFF header: it is not @relation, @attribute, @data or a % comment"
                       " (the line is not shown: if the @data line is missing, it is a data row)",
                       "add the line @data before the first data row; header lines are @relation, @attribute or @data; "
                       "comments start with %");
    }
  }
  throw InputError(in.where(), "no @data section", "an ARFF file needs @attribute lines followed by @data");
}

std::optional<std::size_t> select_label(const Header& h, const ArffOptions& o, const fs::path& path) {
  if (!o.use_label) return std::nullopt;
  if (!o.label.empty()) {
    const std::size_t i = find_attribute(h, o.label);
    // A string label (a class written as free text) is coded like a CSV text label; a date is no class.
    if (i == h.attrs.size() || (h.attrs[i].kind != AttrKind::nominal && h.attrs[i].kind != AttrKind::string)) {
      std::vector<std::string> candidates = names_of(h, AttrKind::nominal);
      for (const std::string& s : names_of(h, AttrKind::string)) candidates.push_back(s);
      if (i < h.attrs.size())
        throw InputError(path.string(),
                         "label attribute '" + text::printable(o.label) + "' has type " + kind_name(h.attrs[i].kind) +
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
  // Else the one nominal or string attribute named class, label or target (UCI wine's ARFF declares
  // `class {1,2,3}` first), said on stderr: a file that names its class so means it, wherever it stands.
  std::vector<std::size_t> named;
  for (std::size_t i = 0; i < h.attrs.size(); ++i)
    if ((h.attrs[i].kind == AttrKind::nominal || h.attrs[i].kind == AttrKind::string) &&
        !fractional_values(h.attrs[i]) && label_like_name(h.attrs[i].name))
      named.push_back(i);
  if (named.size() == 1) {
    std::cerr << "warning: " << path.string() << ": attribute '" << text::printable(h.attrs[named[0]].name) << "' ("
              << kind_name(h.attrs[named[0]].kind)
              << ") is taken as the label, as its name says (the last attribute is not nominal); `label: NAME` names "
                 "another, "
                 "`label: none` takes none\n";
    return named[0];
  }
  const std::vector<std::string> nominal = names_of(h, AttrKind::nominal);
  if (last.kind == AttrKind::nominal)
    std::cerr << "warning: " << path.string() << ": no label: the last attribute '" << text::printable(last.name)
              << "' is nominal but its values are numbers with fractions (a discretised reading, not a class); `label: "
              << text::printable(last.name) << "` makes it the ground truth\n";
  else if (!nominal.empty())
    std::cerr << "warning: " << path.string() << ": no label: the last attribute '" << text::printable(last.name)
              << "' is " << kind_name(last.kind)
              << " (a label is taken by default only from a last attribute that is nominal); `label: NAME` names one ("
              << "nominal attributes: " << text::join(nominal, 10) << ")\n";
  return std::nullopt;
}

std::vector<Coordinate> select_coords(const Header& h, const ArffOptions& o, std::optional<std::size_t> label,
                                      const LineReader& in) {
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
      throw InputError(
          in.where(a.line),
          "attribute '" + text::printable(name) + "' has type " + kind_name(a.kind) +
              ": a string or date attribute cannot be a coordinate",
          "remove it from `columns` (numeric attributes: " + text::join(names_of(h, AttrKind::numeric)) + ")");
    if (label && i == *label)
      throw InputError(path.string(),
                       "attribute '" + text::printable(name) + "' is selected both as a coordinate and as the label",
                       "remove it from `columns`, or name another label (label: NAME, or label: none)");
    Encoding how = Encoding::number;
    if (a.kind == AttrKind::nominal) {
      how = nominal_how(a);
      if (how == Encoding::code && o.nominal == NominalEncoding::skip)
        throw InputError(
            in.where(a.line),
            "attribute '" + text::printable(name) + "' is nominal and its declared values {" +
                text::join(a.values, 12) + "} are not all numbers, so they are no coordinate as they stand",
            "set `nominal: codes` (each value its 0-based position in the declaration) or `nominal: onehot` (one 0/1 "
            "coordinate per value) on the dataset, or remove it from `columns`");
    }
    if (std::find_if(out.begin(), out.end(), [&](const Coordinate& c) { return c.attr == i; }) != out.end())
      throw InputError(path.string(), "attribute '" + text::printable(name) + "' is selected twice",
                       "list each column once");
    out.push_back({i, how});
  }
  if (out.empty())
    throw InputError(
        path.string(),
        "no coordinates: the file has no numeric attribute" +
            std::string(names_of(h, AttrKind::nominal).empty() ? "" : " (and its nominal attributes are left out)") +
            "; attributes: " + describe_attributes(h),
        names_of(h, AttrKind::nominal).empty()
            ? "the points need numeric/real attributes"
            : "set `nominal: codes` or `nominal: onehot` on the dataset to use the nominal attributes");
  return out;
}

}  // namespace dpclust::arff
