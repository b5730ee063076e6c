// `method: python` entries: their declaration parsed into a MethodInfo registered in the catalog (see
// python_method.hpp for the schema).
#include "config/python_method.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <mutex>

#include "catalog/catalog.hpp"
#include "config/param_values.hpp"
#include "core/side_information.hpp"

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

// The parameter types a declaration may name, with the spellings a user writes (Python's, JSON Schema's).
// `choice` is a string parameter with `choices`.
struct TypeName {
  const char* name;
  ParamType type;
  bool choice;
};
constexpr TypeName kTypeNames[] = {{"real", ParamType::real, false},
                                   {"float", ParamType::real, false},
                                   {"number", ParamType::real, false},
                                   {"integer", ParamType::integer, false},
                                   {"int", ParamType::integer, false},
                                   {"boolean", ParamType::boolean, false},
                                   {"bool", ParamType::boolean, false},
                                   {"string", ParamType::string, false},
                                   {"str", ParamType::string, false},
                                   {"choice", ParamType::string, true},
                                   {"real_vector", ParamType::real_vector, false}};
const char* const kTypeList =
    "real (float), integer (int), boolean (bool), string (str), choice (a string with choices), real_vector";

const TypeName& type_named(const Located& at) {
  const std::string t = yaml::as_string(at);
  for (const auto& n : kTypeNames)
    if (t == n.name) return n;
  std::vector<std::string> names;
  for (const auto& n : kTypeNames) names.emplace_back(n.name);
  const std::string s = closest_match(t, names);
  yaml::fail(at, "unknown parameter type '" + yaml::clip(t) + "'",
             (s.empty() ? "" : "did you mean '" + s + "'? ") + "types: " + kTypeList);
}

// The type a shorthand declaration (`min_count: 5`) or a default without `type` implies: a quoted
// scalar is a string; otherwise an integer, a real number, true/false, or a string, in that order.
ParamType type_of_scalar(const Located& at) {
  if (!at.node.IsScalar())
    yaml::fail(at, "cannot tell the parameter's type from this value",
               "declare it as {type: real | int | bool | str | choice | real_vector, default: ...}");
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

InputSource source_named(const Located& at) {
  const std::string s = yaml::as_string(at);
  for (InputSource src : {InputSource::public_value, InputSource::rule, InputSource::private_estimate,
                          InputSource::data, InputSource::none})
    if (s == to_string(src)) return src;
  yaml::fail(
      at, "unknown source '" + yaml::clip(s) + "'",
      "public (given by the config), rule (computed from public inputs), private (estimated with budget the ledger "
      "records), data (taken from the data without privacy: flags the result non-private), none (not used)");
}

// `{source: S, how: "..."}` or the shorthand `S`.
std::pair<InputSource, std::string> source_and_how(const Located& at, const std::string& default_how) {
  if (!at.node.IsMap()) return {source_named(at), default_how};
  yaml::check_keys(at, {"source", "how"});
  if (!at.has("source")) yaml::fail(at, "needs a source", "e.g. {source: private, how: \"a noisy count\"}");
  return {source_named(at.child("source")), at.has("how") ? yaml::as_string(at.child("how")) : default_how};
}

std::string input_name(const Located& at) {
  const std::string name = yaml::as_string(at);
  if (!identifier(name))
    yaml::fail(
        at, "input name '" + yaml::clip(name) + "' is not an identifier",
        "name it as the built-in methods do: k, n, delta, bounds, alpha, min_pts, radius, grid, iterations, ...");
  return name;
}

// The value of a parameter a special side value names: a number for a numeric parameter, true/false for a
// boolean, one of the choices for a choice.
void check_special_value(const Located& at, const std::string& value, const ParamSpec& spec) {
  const bool numeric =
      spec.type == ParamType::real || spec.type == ParamType::integer || spec.type == ParamType::real_vector;
  char* end = nullptr;
  if (numeric && !value.empty()) std::strtod(value.c_str(), &end);
  if (numeric && (value.empty() || *end != '\0'))
    yaml::fail(at, "'" + yaml::clip(value) + "' is not a value of the " + to_string(spec.type) + " parameter '" +
                       spec.name + "'");
  if (spec.type == ParamType::boolean && value != "true" && value != "false")
    yaml::fail(at, "'" + yaml::clip(value) + "' is not a value of the boolean parameter '" + spec.name + "'",
               "true or false");
  if (!spec.choices.empty() && std::find(spec.choices.begin(), spec.choices.end(), value) == spec.choices.end())
    yaml::fail(at, "'" + yaml::clip(value) + "' is not one of the choices of '" + spec.name + "'");
}

// `gives: k`, `gives: none`, `gives: {input: n, values: {0: {source: none, how: "no public n"}}}` or
// `selects: {input: n, values: {noisy: private, data: data, public: public}}` on a declared parameter.
SideInput declared_side(const Located& at, const ParamSpec& spec, bool selector) {
  SideInput side;
  side.selector = selector;
  if (at.node.IsScalar()) {
    if (selector)
      yaml::fail(at, "selects needs the input and what each value means",
                 "e.g. selects: {input: n, values: {noisy: private, public: public}}");
    if (yaml::as_string(at) == "none") return side;
    side.input = input_name(at);
    return side;
  }
  yaml::expect_map(at);
  yaml::check_keys(at, {"input", "values"});
  if (!at.has("input")) yaml::fail(at, "needs the input the parameter stands for", "e.g. {input: n, values: {...}}");
  side.input = input_name(at.child("input"));
  if (selector && !at.has("values"))
    yaml::fail(at, "selects needs what each value means", "e.g. values: {noisy: private, public: public}");
  if (at.has("values")) {
    const Located values = at.child("values");
    yaml::expect_map(values);
    for (auto it = values.node.begin(); it != values.node.end(); ++it) {
      const std::string value = it->first.as<std::string>();
      const Located v = values.child(value);
      check_special_value(v, value, spec);
      auto [source, how] = source_and_how(v, "the value " + value + " of " + spec.name);
      side.values.push_back(SideValue{value, source, how});
    }
  }
  return side;
}

// The names of the inputs the built-in methods declare on a parameter of the same name (k, delta, alpha,
// min_pts, ...): a config's parameter of that name gives that input unless it declares otherwise.
const std::vector<std::string>& inputs_named_by_their_parameter() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> out;
    for (const auto& m : all_methods())
      for (const auto& p : m.params)
        if (p.side.declared() && !p.side.selector && p.side.input == p.name &&
            std::find(out.begin(), out.end(), p.name) == out.end())
          out.push_back(p.name);
    std::sort(out.begin(), out.end());
    return out;
  }();
  return names;
}

ParamSpec declared_param(const Located& at, const std::string& name, const std::string& callable) {
  if (!identifier(name))
    yaml::fail(at, "parameter name '" + yaml::clip(name) + "' is not an identifier",
               "use letters, digits and _ (it becomes a Python keyword)");
  ParamSpec spec;
  spec.name = name;
  spec.description = "parameter of " + callable;
  const auto& named = inputs_named_by_their_parameter();
  const bool named_input = std::find(named.begin(), named.end(), name) != named.end();
  if (!at.node.IsMap()) {  // shorthand: the value is the default
    spec.type = type_of_scalar(at);
    spec.default_value = parse_param_value(at, spec);
    if (named_input) spec.side = SideInput{name, {}, false};
    return spec;
  }
  yaml::check_keys(at, {"type", "default", "description", "min", "max", "min_open", "max_open", "choices", "whole",
                        "gives", "selects"});
  if (!at.has("type") && !at.has("default"))
    yaml::fail(at, "parameter '" + name + "' needs a type (or a default to tell it from)", "e.g. {type: real, min: 0}");
  bool choice = false;
  if (at.has("type")) {
    const TypeName& t = type_named(at.child("type"));
    spec.type = t.type;
    choice = t.choice;
  } else {
    spec.type = type_of_scalar(at.child("default"));
  }
  const bool numeric =
      spec.type == ParamType::real || spec.type == ParamType::integer || spec.type == ParamType::real_vector;
  for (const char* k : {"min", "max", "min_open", "max_open", "whole"})
    if (at.has(k) && !numeric) yaml::fail(at.child(k), std::string(k) + " applies to numeric parameters only");
  if (at.has("choices") && spec.type != ParamType::string)
    yaml::fail(at.child("choices"), "choices apply to string parameters only");
  if (choice && !at.has("choices"))
    yaml::fail(at, "a choice parameter needs its choices", "e.g. {type: choice, choices: [a, b], default: a}");
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
  if (at.has("gives") && at.has("selects"))
    yaml::fail(at, "a parameter either gives an input or selects where it comes from, not both");
  if (at.has("gives")) spec.side = declared_side(at.child("gives"), spec, false);
  else if (at.has("selects")) spec.side = declared_side(at.child("selects"), spec, true);
  else if (named_input) spec.side = SideInput{name, {}, false};
  return spec;
}

// `side_inputs: {n: {source: private, how: "..."}, ...}`: the inputs a mechanism takes without a parameter.
std::vector<FixedSideInput> declared_side_inputs(const Located& at) {
  yaml::expect_map(at);
  std::vector<FixedSideInput> out;
  for (auto it = at.node.begin(); it != at.node.end(); ++it) {
    const std::string key = it->first.as<std::string>();
    const Located entry = at.child(key);
    if (!identifier(key))
      yaml::fail(entry, "input name '" + yaml::clip(key) + "' is not an identifier", "e.g. n, k, bounds, radius");
    auto [source, how] = source_and_how(entry, "declared in the config");
    out.push_back(FixedSideInput{key, source, how});
  }
  return out;
}

// The JSON of a side declaration, for the definition (the cells' fingerprint).
nlohmann::json side_json(const SideInput& side) {
  nlohmann::json values = nlohmann::json::array();
  for (const auto& v : side.values)
    values.push_back({{"value", v.value}, {"source", to_string(v.source)}, {"how", v.how}});
  return {{"input", side.input}, {"selector", side.selector}, {"values", std::move(values)}};
}

// The non_private note of a result whose method takes an input from the data by its own declaration.
// A `method: python` entry that says an input comes from the data (a parameter's special value, or
// side_inputs) makes every result of such a cell non-private, as the built-in methods flag their own
// data-derived choices.
class FlagsDeclaredDataInputs final : public Method {
 public:
  FlagsDeclaredDataInputs(std::unique_ptr<Method> inner, MethodInfo sides)
      : inner_(std::move(inner)), sides_(std::move(sides)) {}
  MethodResult run(const Dataset& data, const ParamSet& params, Rng& rng, BudgetLedger& ledger) const override {
    inner_->set_labels_needed(labels_needed());
    MethodResult r = inner_->run(data, params, rng, ledger);
    for (const auto& record : side_information(sides_, params, DatasetSideInputs{}))
      if (record.source == InputSource::data)
        r.non_private_notes.push_back(record.input + " taken from the data without privacy (" + record.how +
                                      "), as the method's entry in the config declares");
    return r;
  }

 private:
  std::unique_ptr<Method> inner_;
  MethodInfo sides_;  // the declarations only: parameters and side_inputs
};

bool declares_data_input(const MethodInfo& m) {
  for (const auto& f : m.side_inputs)
    if (f.source == InputSource::data) return true;
  for (const auto& p : m.params)
    for (const auto& v : p.side.values)
      if (v.source == InputSource::data) return true;
  return false;
}

// Whether every value spec allows lies in the interval from lo to hi (each end open or closed as given).
bool range_within(const ParamSpec& spec, double lo, bool lo_open, double hi, bool hi_open) {
  if (spec.type != ParamType::real || !spec.min) return false;
  const bool lo_ok = *spec.min > lo || (*spec.min == lo && (spec.min_open || !lo_open));
  if (!std::isfinite(hi)) return lo_ok;
  const bool hi_ok = spec.max && (*spec.max < hi || (*spec.max == hi && (spec.max_open || !hi_open)));
  return lo_ok && hi_ok;
}

// A "module:function" value of the entry's `key`.
std::string module_function(const Located& at, const char* key, const char* example) {
  const std::string text = yaml::as_string(at);
  const std::size_t colon = text.find(':');
  if (colon == std::string::npos || !dotted(text.substr(0, colon)) || !dotted(text.substr(colon + 1)))
    yaml::fail(at, std::string(key) + " '" + yaml::clip(text) + "' is not \"module:function\"",
               std::string("e.g. ") + key + ": \"my_mechanisms:" + example +
                   "\" (module importable from Python; a module next to the config is found)");
  return text;
}

}  // namespace

void set_python_method_backend(PythonMethodBackend b) {
  std::lock_guard<std::mutex> lock(backend_mu);
  backend = std::make_shared<const PythonMethodBackend>(std::move(b));
}

bool has_python_method_backend() { return current_backend() != nullptr; }

const std::vector<std::string>& python_method_keys() {
  static const std::vector<std::string> keys = {"callable", "declare",          "private", "needs_bounds",
                                                "relation", "releases_centres", "init",    "side_inputs"};
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
    yaml::fail(entry, "method: python needs a 'callable'",
               "callable: \"my_module:my_mechanism\" (a function importable from Python)");
  const Located at_callable = entry.child("callable");
  const std::string callable = module_function(at_callable, "callable", "noisy_grid");
  const std::string init = entry.has("init") ? module_function(entry.child("init"), "init", "random_start") : "";
  const auto b = current_backend();
  if (!b)
    throw PythonMethodUnavailable(
        entry.where(), "method: python (callable " + yaml::clip(callable) + ") runs in the dpclust Python package",
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
    else
      yaml::fail(entry.child("relation"), "relation must be add_remove or replace_one",
                 "the neighbouring relation of the mechanism's sensitivities");
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
        yaml::fail(entry.child("declare").child("epsilon"),
                   "a private method's epsilon must be a real number declared with min > 0",
                   "e.g. epsilon: {type: real, default: 1.0, min: 0, min_open: true}");
    } else {
      declared.insert(
          declared.begin(),
          real_param("epsilon", std::nullopt, "privacy budget (epsilon) of the mechanism: its ledger must add up to it",
                     0.0, std::nullopt, true));
    }
    if (const ParamSpec* delta = find("delta"); delta && !range_within(*delta, 0, false, 1, true))
      yaml::fail(entry.child("declare").child("delta"), "delta must be a real number declared within [0, 1)",
                 "e.g. delta: {type: real, default: 0.0, min: 0, max: 1, max_open: true}");
  }
  m.params = std::move(declared);
  if (entry.has("side_inputs")) m.side_inputs = declared_side_inputs(entry.child("side_inputs"));
  m.releases_centres = entry.has("releases_centres") && yaml::as_bool(entry.child("releases_centres"));

  auto resolve = [&](const std::string& name, const Located& at) {
    try {
      return b->resolve(name, config_dir);
    } catch (const InputError& e) {  // at the entry's `callable:` (or `init:`) line
      throw InputError(at.where(), e.problem(), e.fix());
    }
  };
  const std::string digest = resolve(callable, at_callable);
  nlohmann::json params = nlohmann::json::array();
  for (const auto& p : m.params) {
    nlohmann::json j = p.to_json();
    if (p.side.declared()) j["side"] = side_json(p.side);
    params.push_back(std::move(j));
  }
  m.definition = {{"callable", callable},           {"private", m.differentially_private},
                  {"needs_bounds", m.needs_bounds}, {"relation", to_string(m.relation)},
                  {"params", std::move(params)},    {"source_sha256", digest}};
  // Keys a definition holds only when used, so that the cells of an entry without them keep their fingerprint.
  if (m.releases_centres) m.definition["releases_centres"] = true;
  if (!init.empty()) m.definition["init"] = {{"callable", init}, {"source_sha256", resolve(init, entry.child("init"))}};
  if (!m.side_inputs.empty()) {
    nlohmann::json fixed = nlohmann::json::array();
    for (const auto& f : m.side_inputs)
      fixed.push_back({{"input", f.input}, {"source", to_string(f.source)}, {"how", f.how}});
    m.definition["side_inputs"] = std::move(fixed);
  }
  const PythonCallable call{callable, init, m.releases_centres, config_dir};
  if (declares_data_input(m)) {
    MethodInfo sides;
    sides.params = m.params;
    sides.side_inputs = m.side_inputs;
    m.make = [b, call, sides] { return std::make_unique<FlagsDeclaredDataInputs>(b->make(call), sides); };
  } else {
    m.make = [b, call] { return b->make(call); };
  }
  return register_runtime_method(std::move(m));
}

}  // namespace dpclust
