#include "experiment/yaml_reader.hpp"

#include <charconv>
#include <cmath>

namespace dpclust::yaml {

std::string Located::where() const {
  std::string w = file;
  if (node && node.Mark().line >= 0) w += ":" + std::to_string(node.Mark().line + 1) + ":" + std::to_string(node.Mark().column + 1);
  if (!path.empty()) w += " " + path;
  return w;
}

Located Located::child(const std::string& key) const {
  if (overrides && overrides.IsMap() && overrides[key])
    return Located(node.IsMap() ? node[key] : YAML::Node(), overrides_file, overrides_path + "." + key);
  // An absent key is an Undefined node. (yaml-cpp's const operator[] returns an invalid "zombie" node
  // for a missing key, and assigning that node throws InvalidNode, so it is never assigned.)
  const bool present = node.IsMap() && node[key];
  return Located(present ? YAML::Node(node[key]) : YAML::Node(YAML::NodeType::Undefined), file, path.empty() ? key : path + "." + key);
}

Located Located::item(std::size_t i) const { return Located(node[i], file, path + "[" + std::to_string(i) + "]"); }

static std::string mark_text(const YAML::Mark& m) {
  return ":" + std::to_string(m.line + 1) + ":" + std::to_string(m.column + 1);
}

YAML::Node load_string(const std::string& text, const std::string& file_label) {
  try {
    return YAML::Load(text);
  } catch (const YAML::ParserException& e) {
    throw InputError(file_label + mark_text(e.mark), "malformed YAML: " + e.msg,
                     "check indentation, colons and brackets near this line");
  }
}

YAML::Node load_file(const std::string& file) {
  try {
    return YAML::LoadFile(file);
  } catch (const YAML::BadFile&) {
    throw InputError(file, "cannot open the config file", "check the path");
  } catch (const YAML::ParserException& e) {
    throw InputError(file + mark_text(e.mark), "malformed YAML: " + e.msg,
                     "check indentation, colons and brackets near this line");
  }
}

void fail(const Located& at, const std::string& what, const std::string& fix) { throw InputError(at.where(), what, fix); }

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
    std::string suggestion = closest_match(key, allowed);
    std::string list;
    for (const auto& a : allowed) list += (list.empty() ? "" : ", ") + a;
    fail(k, "unknown key '" + key + "'",
         suggestion.empty() ? "valid keys here: " + list : "did you mean '" + suggestion + "'? valid keys here: " + list);
  }
}

static std::string scalar_text(const Located& at, const char* what) {
  if (!at.node || !at.node.IsScalar()) fail(at, std::string("expected ") + what);
  return at.node.Scalar();
}

std::string as_string(const Located& at) { return scalar_text(at, "a string"); }

std::int64_t as_int(const Located& at) {
  const std::string s = scalar_text(at, "an integer");
  std::int64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) fail(at, "expected an integer, got '" + s + "'");
  return v;
}

std::uint64_t as_uint(const Located& at) {
  const std::string s = scalar_text(at, "a non-negative integer");
  std::uint64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) fail(at, "expected a non-negative integer, got '" + s + "'");
  return v;
}

double as_double(const Located& at) {
  const std::string s = scalar_text(at, "a number");
  double v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size() || !std::isfinite(v))
    fail(at, "expected a finite number, got '" + s + "'");
  return v;
}

bool as_bool(const Located& at) {
  const std::string s = scalar_text(at, "true or false");
  if (s == "true" || s == "True" || s == "yes") return true;
  if (s == "false" || s == "False" || s == "no") return false;
  fail(at, "expected true or false, got '" + s + "'");
}

std::vector<std::string> as_string_list(const Located& at) {
  std::vector<std::string> out;
  if (at.node.IsScalar()) {
    out.push_back(at.node.Scalar());
  } else if (at.node.IsSequence()) {
    for (std::size_t i = 0; i < at.node.size(); ++i) out.push_back(as_string(at.item(i)));
  } else {
    fail(at, "expected a name or a list of names");
  }
  return out;
}

}  // namespace dpclust::yaml
