#include "experiment/yaml_reader.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <unordered_map>

#include <yaml-cpp/depthguard.h>  // YAML::DeepRecursion

namespace dpclust::yaml {

std::string clip(const std::string& user_text, std::size_t max) {
  std::string out;
  std::size_t n = 0;
  for (unsigned char c : user_text) {
    if (n == max) {
      // Do not end inside a UTF-8 character: drop its continuation bytes and its lead byte.
      while (!out.empty() && (static_cast<unsigned char>(out.back()) & 0xC0) == 0x80) out.pop_back();
      if (!out.empty() && (static_cast<unsigned char>(out.back()) & 0xC0) == 0xC0) out.pop_back();
      return out + "...";
    }
    if (c < 0x20 || c == 0x7f) {
      char buf[8];
      std::snprintf(buf, sizeof buf, "\\x%02x", c);
      out += buf;
    } else {
      out += static_cast<char>(c);
    }
    ++n;
  }
  return out;
}

// A key path may nest many long keys; keep its end, which says where the value is.
static std::string clip_path(const std::string& path) {
  constexpr std::size_t kMax = 200;
  if (path.size() <= kMax) return clip(path, kMax);
  return "..." + clip(path.substr(path.size() - kMax), kMax);
}

static std::string mark_text(const YAML::Mark& m) {
  return ":" + std::to_string(m.line + 1) + ":" + std::to_string(m.column + 1);
}

std::string Located::where() const {
  std::string w = file;
  // A null value ("key:" with nothing after it) is marked where the next line starts; its key is clearer.
  if (node && !node.IsNull() && node.Mark().line >= 0) w += mark_text(node.Mark());
  else if (parent_mark.line >= 0) w += mark_text(parent_mark);
  else if (node && node.Mark().line >= 0) w += mark_text(node.Mark());
  if (!path.empty()) w += " " + clip_path(path);
  return w;
}

Located Located::child(const std::string& key) const {
  if (overrides && overrides.IsMap() && overrides[key])
    return Located(node.IsMap() ? node[key] : YAML::Node(), overrides_file, overrides_path + "." + key);
  // An absent key is an Undefined node. (yaml-cpp's const operator[] returns an invalid "zombie" node
  // for a missing key, and assigning that node throws InvalidNode, so it is never assigned.)
  const bool present = node.IsMap() && node[key];
  Located c(present ? YAML::Node(node[key]) : YAML::Node(YAML::NodeType::Undefined), file, path.empty() ? key : path + "." + key);
  if (!present) {
    c.parent_mark = node ? node.Mark() : parent_mark;
  } else if (c.node.IsNull()) {
    for (auto it = node.begin(); it != node.end(); ++it)
      if (it->first.IsScalar() && it->first.Scalar() == key) { c.parent_mark = it->first.Mark(); break; }
  }
  return c;
}

Located Located::item(std::size_t i) const { return Located(node[i], file, path + "[" + std::to_string(i) + "]"); }

static std::string node_kind(const YAML::Node& n) {
  if (!n) return "nothing";
  if (n.IsNull()) return "an empty value (null)";
  if (n.IsSequence()) return "a list";
  if (n.IsMap()) return "a mapping";
  return "'" + clip(n.Scalar()) + "'";
}

void check_document(const YAML::Node& root, const std::string& file_label) {
  struct Item {
    YAML::Node node;
    std::string path;
  };
  std::vector<Item> stack{{root, ""}};
  std::size_t visits = 0;
  while (!stack.empty()) {
    Item cur = std::move(stack.back());
    stack.pop_back();
    if (++visits > kMaxNodes)
      throw InputError(file_label + (root.Mark().line >= 0 ? mark_text(root.Mark()) : ""),
                       "the YAML expands to more than " + std::to_string(kMaxNodes) + " nodes (alias bomb?)",
                       "write the values out instead of nesting aliases (*name) of aliases");
    const YAML::Node& n = cur.node;
    if (n.IsSequence()) {
      for (std::size_t i = n.size(); i-- > 0;) stack.push_back({n[i], cur.path + "[" + std::to_string(i) + "]"});
    } else if (n.IsMap()) {
      std::unordered_map<std::string, YAML::Mark> seen;
      std::vector<Item> children;
      for (auto it = n.begin(); it != n.end(); ++it) {
        const YAML::Node k = it->first;
        Located at(k, file_label, cur.path);
        if (!k.IsScalar())
          fail(at, "a key is " + node_kind(k) + "; keys must be plain names",
               k.IsNull() ? "write a name before the colon (an empty key or ~ is not a name)"
                          : "write a name before the colon, not a list or mapping");
        const std::string key = k.Scalar();
        const std::string path = cur.path.empty() ? key : cur.path + "." + key;
        auto [first, inserted] = seen.emplace(key, k.Mark());
        if (!inserted)
          fail(Located(k, file_label, path), "duplicate key '" + clip(key) + "' (first at " + file_label + mark_text(first->second) + ")",
               "keep one of them; YAML keys must be unique in a mapping");
        children.push_back({it->second, path});
      }
      for (auto c = children.rbegin(); c != children.rend(); ++c) stack.push_back(std::move(*c));
      if (stack.size() > kMaxNodes) throw InputError(file_label, "the YAML has more than " + std::to_string(kMaxNodes) + " nodes", "split it up");
    }
  }
}

// yaml-cpp reads CR LF and LF; a lone CR (old Mac line endings) would glue lines together.
static std::string normalise_line_ends(const std::string& text) {
  if (text.find('\r') == std::string::npos) return text;
  std::string out;
  out.reserve(text.size());
  for (std::size_t i = 0; i < text.size(); ++i) {
    if (text[i] == '\r') {
      out += '\n';
      if (i + 1 < text.size() && text[i + 1] == '\n') ++i;
    } else {
      out += text[i];
    }
  }
  return out;
}

YAML::Node load_string(const std::string& text, const std::string& file_label) {
  std::vector<YAML::Node> docs;
  try {
    docs = YAML::LoadAll(normalise_line_ends(text));
  } catch (const YAML::DeepRecursion& e) {  // yaml-cpp's own guard, whose message says "bad file"
    throw InputError(file_label + mark_text(e.mark), "the YAML nests lists and mappings too deeply (" + std::to_string(e.depth()) + " levels)",
                     "flatten this value; a config needs only a few levels");
  } catch (const YAML::ParserException& e) {
    throw InputError(file_label + mark_text(e.mark), "malformed YAML: " + clip(e.msg),
                     "check indentation, colons and brackets near this line");
  } catch (const YAML::Exception& e) {
    throw InputError(file_label, "malformed YAML: " + clip(e.msg), "check the file's syntax");
  }
  if (docs.size() > 1) {
    const YAML::Mark m = docs[1].Mark();
    throw InputError(file_label + (m.line >= 0 ? mark_text(m) : ""),
                     "the file holds " + std::to_string(docs.size()) + " YAML documents (separated by ---); only one is read",
                     "keep one document per file: remove the second '---' and what follows, or split it into another file");
  }
  YAML::Node root = docs.empty() ? YAML::Node() : docs[0];
  check_document(root, file_label);
  return root;
}

void check_file_size(const std::string& file) {
  std::error_code ec;
  const auto bytes = std::filesystem::file_size(file, ec);
  if (!ec && bytes > kMaxFileBytes)
    throw InputError(file, "the file has " + std::to_string(bytes) + " bytes; a config is read only up to " +
                               std::to_string(kMaxFileBytes) + " bytes",
                     "check that this is the config you meant (data belongs in a data file, not in the YAML)");
}

YAML::Node load_file(const std::string& file) {
  check_file_size(file);
  std::ifstream in(file, std::ios::binary);
  if (!in) throw InputError(file, "cannot open the config file", "check the path");
  std::ostringstream ss;
  ss << in.rdbuf();
  return load_string(ss.str(), file);
}

void fail(const Located& at, const std::string& what, const std::string& fix) {
  // Messages quote user text; keep them short and free of control characters whatever the caller did.
  throw InputError(at.where(), clip(what, 600), clip(fix, 2000));
}

void expect_map(const Located& at) {
  if (!at.node.IsMap()) fail(at, "expected a mapping (key: value pairs)");
}

void expect_sequence(const Located& at) {
  if (!at.node.IsSequence()) fail(at, "expected a list");
}

void check_keys(const Located& at, const std::vector<std::string>& allowed) {
  expect_map(at);
  for (auto it = at.node.begin(); it != at.node.end(); ++it) {
    const std::string key = it->first.as<std::string>();
    bool ok = false;
    for (const auto& a : allowed) ok = ok || a == key;
    if (ok) continue;
    Located k = at.child(key);
    k.node = it->first;  // point at the key itself
    std::string suggestion = key.size() > 200 ? "" : closest_match(key, allowed);
    std::string list;
    for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
    fail(k, "unknown key '" + clip(key) + "'",
         suggestion.empty() ? "valid keys here: " + list : "did you mean '" + suggestion + "'? valid keys here: " + list);
  }
}

static std::string scalar_text(const Located& at, const char* what) {
  if (!at.node) fail(at, std::string("missing: expected ") + what, "add the key with a value");
  if (!at.node.IsScalar())
    fail(at, std::string("expected ") + what + ", got " + node_kind(at.node),
         at.node.IsNull() ? "write a value after the colon" : "write a single value here");
  return at.node.Scalar();
}

std::string as_string(const Located& at) { return scalar_text(at, "a string"); }

std::int64_t as_int(const Located& at) {
  const std::string s = scalar_text(at, "an integer");
  std::int64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec == std::errc::result_out_of_range)
    fail(at, "integer '" + clip(s) + "' is out of range", "integers here are between -9223372036854775808 and 9223372036854775807");
  if (ec != std::errc() || p != s.data() + s.size()) fail(at, "expected an integer, got '" + clip(s) + "'");
  return v;
}

std::uint64_t as_uint(const Located& at) {
  const std::string s = scalar_text(at, "a non-negative integer");
  std::uint64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec == std::errc::result_out_of_range)
    fail(at, "integer '" + clip(s) + "' is out of range", "integers here are between 0 and 18446744073709551615");
  if (ec != std::errc() || p != s.data() + s.size()) fail(at, "expected a non-negative integer, got '" + clip(s) + "'");
  return v;
}

double as_double(const Located& at) {
  const std::string s = scalar_text(at, "a number");
  double v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec == std::errc::result_out_of_range && p == s.data() + s.size()) {
    // from_chars does not say which way; strtod does (HUGE_VAL for overflow, ~0 for underflow).
    const double approx = std::strtod(std::string(s).c_str(), nullptr);
    if (std::isinf(approx))
      fail(at, "number '" + clip(s) + "' is out of range (the largest finite double is ~1.8e308)", "write a smaller number");
    fail(at, "number '" + clip(s) + "' is too close to zero (the smallest positive double is ~4.9e-324)", "write 0 or a larger number");
  }
  if (ec != std::errc() || p != s.data() + s.size() || !std::isfinite(v))
    fail(at, "expected a finite number, got '" + clip(s) + "'");
  return v;
}

bool as_bool(const Located& at) {
  const std::string s = scalar_text(at, "true or false");
  if (s == "true" || s == "True" || s == "yes") return true;
  if (s == "false" || s == "False" || s == "no") return false;
  fail(at, "expected true or false, got '" + clip(s) + "'");
}

std::vector<std::string> as_string_list(const Located& at) {
  std::vector<std::string> out;
  if (at.node.IsScalar()) {
    out.push_back(at.node.Scalar());
  } else if (at.node.IsSequence()) {
    for (std::size_t i = 0; i < at.node.size(); ++i) out.push_back(as_string(at.item(i)));
  } else {
    fail(at, "expected a name or a list of names, got " + node_kind(at.node));
  }
  return out;
}

}  // namespace dpclust::yaml
