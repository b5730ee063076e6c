// `method: python` entries: their declaration parsed into a MethodInfo registered in the catalog (see
// python_method.hpp for the schema).
#include "config/python_method.hpp"

#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <mutex>

#include "catalog/catalog.hpp"
#include "config/param_values.hpp"

namespace dpclust {
namespace fs = std::filesystem;
using yaml::Located;

namespace {

std::mutex backend_mu;
std::shared_ptr<const PythonMethodBackend> backend;

std::shared_ptr<const PythonMethodBackend> current_backend() {
  std::lock_guard<std::mutex> lock(backend_mu);
  return backend;
}

bool identifier(const std::string& s) {
  if (s.empty() || (s[0] >= '0' && s[0] <= '9')) return false;
  for (unsigned char c : s)
    if (!((c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_')) return false;
  return true;
}

// "a.b.c": identifiers separated by dots.
bool dotted(const std::string& s) {
  std::size_t a = 0;
  while (true) {
    const std::size_t b = s.find('.', a);
    if (!identifier(s.substr(a, b == std::string::npos ? std::string::npos : b - a))) return false;
    if (b == std::string::npos) return true;
    a = b + 1;
  }
}

const char* const kTypeNames[] = {"real", "integer", "boolean", "string", "real_vector"};

ParamType type_named(const Located& at) {
  const std::string t = yaml::as_string(at);
  if (t == "real") return ParamType::real;
  if (t == "integer") return ParamType::integer;
  if (t == "boolean") return ParamType::boolean;
  if (t == "string") return ParamType::string;
  if (t == "real_vector") return ParamType::real_vector;
  const std::string s = closest_match(t, kTypeNames);
  yaml::fail(at, "unknown parameter type '" + yaml::clip(t) + "'",
             (s.empty() ? "" : "did you mean '" + s + "'? ") + "types: real, integer, boolean, string, real_vector");
}

// The type a shorthand declaration (`min_count: 5`) or a default without `type` implies: a quoted
// scalar is a string; otherwise an integer, a real number, true/false, or a string, in that order.
ParamType type_of_scalar(const Located& at) {
  if (!at.node.IsScalar())
    yaml::fail(at, "cannot tell the parameter's type from this value",
               "declare it as {type: real | integer | boolean | string | real_vector, default: ...}");
  const std::string& s = at.node.Scalar();
  if (at.node.Tag() == "!") return ParamType::string;
  std::int64_t i = 0;
  if (auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), i); ec == std::errc() && p == s.data() + s.size())
    return ParamType::integer;
  char* end = nullptr;
  const double x = s.empty() ? 0 : std::strtod(s.c_str(), &end);
  if (!s.empty() && end == s.c_str() + s.size() && std::isfinite(x)) return ParamType::real;
  if (s == "true" || s == "false") return ParamType::boolean;
  return ParamType::string;
}

ParamSpec declared_param(const Located& at, const std::string& name, const std::string& callable) {
  if (!identifier(name))
    yaml::fail(at, "parameter name '" + yaml::clip(name) + "' is not an identifier", "use letters, digits and _ (it becomes a Python keyword)");
  ParamSpec spec;
  spec.name = name;
  spec.description = "parameter of " + callable;
  if (!at.node.IsMap()) {  // shorthand: the value is the default
    spec.type = type_of_scalar(at);
    spec.default_value = parse_param_value(at, spec);
    return spec;
  }
  yaml::check_keys(at, {"type", "default", "description", "min", "max", "min_open", "max_open", "choices", "whole"});
  if (!at.has("type") && !at.has("default"))
    yaml::fail(at, "parameter '" + name + "' needs a type (or a default to tell it from)", "e.g. {type: real, min: 0}");
  spec.type = at.has("type") ? type_named(at.child("type")) : type_of_scalar(at.child("default"));
  const bool numeric = spec.type == ParamType::real || spec.type == ParamType::integer || spec.type == ParamType::real_vector;
  for (const char* k : {"min", "max", "min_open", "max_open", "whole"})
    if (at.has(k) && !numeric) yaml::fail(at.child(k), std::string(k) + " applies to numeric parameters only");
  if (at.has("choices") && spec.type != ParamType::string) yaml::fail(at.child("choices"), "choices apply to string parameters only");
  if (at.has("description")) spec.description = yaml::as_string(at.child("description"));
  if (at.has("min")) spec.min = yaml::as_double(at.child("min"));
  if (at.has("max")) spec.max = yaml::as_double(at.child("max"));
  if (at.has("min_open")) spec.min_open = yaml::as_bool(at.child("min_open"));
  if (at.has("max_open")) spec.max_open = yaml::as_bool(at.child("max_open"));
  if (at.has("whole")) spec.whole = yaml::as_bool(at.child("whole"));
  if (spec.min && spec.max && !(*spec.min <= *spec.max)) yaml::fail(at, "min is above max");
  if (at.has("choices")) {
    spec.choices = yaml::as_string_list(at.child("choices"));
    if (spec.choices.empty()) yaml::fail(at.child("choices"), "empty list of choices");
  }
  if (at.has("default")) spec.default_value = parse_param_value(at.child("default"), spec);  // checked against the spec
  return spec;
}

// Whether every value spec allows lies in the interval from lo to hi (each end open or closed as given).
bool range_within(const ParamSpec& spec, double lo, bool lo_open, double hi, bool hi_open) {
  if (spec.type != ParamType::real || !spec.min) return false;
  const bool lo_ok = *spec.min > lo || (*spec.min == lo && (spec.min_open || !lo_open));
  if (!std::isfinite(hi)) return lo_ok;
  const bool hi_ok = spec.max && (*spec.max < hi || (*spec.max == hi && (spec.max_open || !hi_open)));
  return lo_ok && hi_ok;
}

}  // namespace

void set_python_method_backend(PythonMethodBackend b) {
  std::lock_guard<std::mutex> lock(backend_mu);
  backend = std::make_shared<const PythonMethodBackend>(std::move(b));
}

bool has_python_method_backend() { return current_backend() != nullptr; }

const std::vector<std::string>& python_method_keys() {
  static const std::vector<std::string> keys = {"callable", "declare", "private", "needs_bounds", "relation"};
  return keys;
}

std::string python_function_name(const std::string& callable) {
  const std::size_t colon = callable.find(':');
  const std::string qual = colon == std::string::npos ? callable : callable.substr(colon + 1);
  const std::size_t dot = qual.rfind('.');
  return dot == std::string::npos ? qual : qual.substr(dot + 1);
}

const MethodInfo& declare_python_method(const Located& entry, const fs::path& config_dir) {
  if (!entry.has("callable"))
    yaml::fail(entry, "method: python needs a 'callable'", "callable: \"my_module:my_mechanism\" (a function importable from Python)");
  const Located at_callable = entry.child("callable");
  const std::string callable = yaml::as_string(at_callable);
  const std::size_t colon = callable.find(':');
  if (colon == std::string::npos || !dotted(callable.substr(0, colon)) || !dotted(callable.substr(colon + 1)))
    yaml::fail(at_callable, "callable '" + yaml::clip(callable) + "' is not \"module:function\"",
               "e.g. callable: \"my_mechanisms:noisy_grid\" (module importable from Python; a module next to the config is found)");
  const auto b = current_backend();
  if (!b)
    throw PythonMethodUnavailable(entry.where(), "method: python (callable " + yaml::clip(callable) + ") runs in the dpclust Python package",
                                  "run the config with `python3 -m dpclust run CONFIG` (docs/python.md), or from Python: "
                                  "dpclust.run(\"CONFIG\")");

  MethodInfo m;
  m.name = "python:" + callable;
  m.summary = "Python mechanism " + callable + " (method: python)";
  m.reference = "declared in the experiment config (docs/python.md)";
  m.differentially_private = entry.has("private") ? yaml::as_bool(entry.child("private")) : true;
  m.needs_bounds = entry.has("needs_bounds") ? yaml::as_bool(entry.child("needs_bounds")) : m.differentially_private;
  if (entry.has("relation")) {
    const std::string r = yaml::as_string(entry.child("relation"));
    if (r == "add_remove") m.relation = NeighbourRelation::add_remove;
    else if (r == "replace_one") m.relation = NeighbourRelation::replace_one;
    else yaml::fail(entry.child("relation"), "relation must be add_remove or replace_one", "the neighbouring relation of the mechanism's sensitivities");
  }

  std::vector<ParamSpec> declared;
  if (entry.has("declare")) {
    const Located decl = entry.child("declare");
    yaml::expect_map(decl);
    for (auto it = decl.node.begin(); it != decl.node.end(); ++it) {
      const std::string name = it->first.as<std::string>();
      declared.push_back(declared_param(decl.child(name), name, callable));
    }
  }
  auto find = [&](const char* name) -> ParamSpec* {
    for (auto& p : declared)
      if (p.name == name) return &p;
    return nullptr;
  };
  if (m.differentially_private) {
    // The runner builds the trial's ledger from epsilon (and delta when declared): trial_ledger.
    if (const ParamSpec* eps = find("epsilon")) {
      if (!range_within(*eps, 0, true, std::numeric_limits<double>::infinity(), false))
        yaml::fail(entry.child("declare").child("epsilon"), "a private method's epsilon must be a real number declared with min > 0",
                   "e.g. epsilon: {type: real, default: 1.0, min: 0, min_open: true}");
    } else {
      declared.insert(declared.begin(), real_param("epsilon", std::nullopt,
                                                   "privacy budget (epsilon) of the mechanism: its ledger must add up to it", 0.0,
                                                   std::nullopt, true));
    }
    if (const ParamSpec* delta = find("delta"); delta && !range_within(*delta, 0, false, 1, true))
      yaml::fail(entry.child("declare").child("delta"), "delta must be a real number declared within [0, 1)",
                 "e.g. delta: {type: real, default: 0.0, min: 0, max: 1, max_open: true}");
  }
  m.params = std::move(declared);

  std::string digest;
  try {
    digest = b->resolve(callable, config_dir);
  } catch (const InputError& e) {  // at the entry's `callable:` line
    throw InputError(at_callable.where(), e.problem(), e.fix());
  }
  nlohmann::json params = nlohmann::json::array();
  for (const auto& p : m.params) params.push_back(p.to_json());
  m.definition = {{"callable", callable},
                  {"private", m.differentially_private},
                  {"needs_bounds", m.needs_bounds},
                  {"relation", to_string(m.relation)},
                  {"params", std::move(params)},
                  {"source_sha256", digest}};
  m.make = [b, callable, config_dir] { return b->make(callable, config_dir); };
  return register_runtime_method(std::move(m));
}

}  // namespace dpclust
