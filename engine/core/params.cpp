#include "core/params.hpp"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <sstream>
#include <stdexcept>

namespace dpclust {

const char* to_string(ParamType t) {
  switch (t) {
    case ParamType::integer: return "integer";
    case ParamType::real: return "real";
    case ParamType::boolean: return "boolean";
    case ParamType::string: return "string";
    case ParamType::real_vector: return "per-dimension vector";
  }
  return "?";
}

static std::string num(double x) {
  std::ostringstream os;
  os << x;
  return os.str();
}

std::string ParamSpec::allowed() const {
  std::string s;
  switch (type) {
    case ParamType::integer: s = "an integer"; break;
    case ParamType::real: s = whole ? "a whole number" : "a real number"; break;
    case ParamType::boolean: return "true or false";
    case ParamType::string: {
      if (choices.empty()) return "a string";
      s = "one of";
      for (std::size_t i = 0; i < choices.size(); ++i) s += (i ? ", " : " ") + choices[i];
      return s;
    }
    case ParamType::real_vector:
      s = whole ? "a whole number or {per_dim: [whole numbers]} with every entry"
                : "a number or {per_dim: [numbers]} with every entry";
      break;
  }
  if (min && max) {
    s += std::string(" in ") + (min_open ? "(" : "[") + num(*min) + ", " + num(*max) + (max_open ? ")" : "]");
  } else if (min) {
    s += (min_open ? " > " : " >= ") + num(*min);
  } else if (max) {
    s += (max_open ? " < " : " <= ") + num(*max);
  }
  return s;
}

std::string ParamSpec::check(const ParamValue& v) const {
  auto in_range = [&](double x) -> bool {
    if (!std::isfinite(x)) return false;
    if (whole && x != std::floor(x)) return false;
    if (min && (min_open ? !(x > *min) : !(x >= *min))) return false;
    if (max && (max_open ? !(x < *max) : !(x <= *max))) return false;
    return true;
  };
  const std::string want = "must be " + allowed();
  switch (type) {
    case ParamType::integer:
      if (!std::holds_alternative<std::int64_t>(v)) return want;
      return in_range(static_cast<double>(std::get<std::int64_t>(v))) ? "" : want;
    case ParamType::real: {
      double x;
      if (std::holds_alternative<double>(v)) x = std::get<double>(v);
      else if (std::holds_alternative<std::int64_t>(v)) x = static_cast<double>(std::get<std::int64_t>(v));
      else return want;
      return in_range(x) ? "" : want;
    }
    case ParamType::boolean: return std::holds_alternative<bool>(v) ? "" : want;
    case ParamType::string: {
      if (!std::holds_alternative<std::string>(v)) return want;
      if (choices.empty()) return "";
      for (const auto& c : choices)
        if (c == std::get<std::string>(v)) return "";
      return want;
    }
    case ParamType::real_vector: {
      if (std::holds_alternative<std::int64_t>(v))
        return in_range(static_cast<double>(std::get<std::int64_t>(v))) ? "" : want;
      if (std::holds_alternative<double>(v)) return in_range(std::get<double>(v)) ? "" : want;
      if (!std::holds_alternative<RealVector>(v)) return want;
      // An empty vector is acceptable only where it is the default ("not given").
      if (std::get<RealVector>(v).empty())
        return std::holds_alternative<RealVector>(default_value) && std::get<RealVector>(default_value).empty() ? ""
                                                                                                                : want;
      for (double x : std::get<RealVector>(v))
        if (!in_range(x)) return want;
      return "";
    }
  }
  return want;
}

nlohmann::json ParamSpec::to_json() const {
  nlohmann::json j{{"name", name}, {"type", to_string(type)}, {"allowed", allowed()}, {"description", description}};
  j["default"] = required() ? nlohmann::json("required") : dpclust::to_json(default_value);
  return j;
}

ParamSpec real_param(std::string name, std::optional<double> def, std::string description, std::optional<double> min,
                     std::optional<double> max, bool min_open, bool max_open) {
  ParamSpec s;
  s.name = std::move(name);
  s.type = ParamType::real;
  if (def) s.default_value = *def;
  s.description = std::move(description);
  s.min = min;
  s.max = max;
  s.min_open = min_open;
  s.max_open = max_open;
  return s;
}

ParamSpec int_param(std::string name, std::optional<std::int64_t> def, std::string description,
                    std::optional<std::int64_t> min, std::optional<std::int64_t> max) {
  ParamSpec s;
  s.name = std::move(name);
  s.type = ParamType::integer;
  if (def) s.default_value = *def;
  s.description = std::move(description);
  if (min) s.min = static_cast<double>(*min);
  if (max) s.max = static_cast<double>(*max);
  return s;
}

ParamSpec bool_param(std::string name, bool def, std::string description) {
  ParamSpec s;
  s.name = std::move(name);
  s.type = ParamType::boolean;
  s.default_value = def;
  s.description = std::move(description);
  return s;
}

ParamSpec real_vector_param(std::string name, RealVector def, std::string description, std::optional<double> min,
                            bool min_open) {
  ParamSpec s;
  s.name = std::move(name);
  s.type = ParamType::real_vector;
  s.default_value = std::move(def);
  s.description = std::move(description);
  s.min = min;
  s.min_open = min_open;
  return s;
}

RealVector as_vector(const ParamValue& v) {
  if (std::holds_alternative<RealVector>(v)) return std::get<RealVector>(v);
  if (std::holds_alternative<double>(v)) return {std::get<double>(v)};
  return {static_cast<double>(std::get<std::int64_t>(v))};
}

ParamSpec choice_param(std::string name, std::string def, std::vector<std::string> choices, std::string description) {
  ParamSpec s;
  s.name = std::move(name);
  s.type = ParamType::string;
  s.default_value = std::move(def);
  s.choices = std::move(choices);
  s.description = std::move(description);
  return s;
}

namespace {

// A special value the parameter can never take would never match (side_information compares the cell's value
// with it), and the cell's record would silently fall back to "public": a value of a choice must be one of its
// choices, of a flag "true" or "false", of a number a number. A declaration error, found when the catalog is
// built.
void check_side_values(const ParamSpec& spec, const std::vector<SideValue>& values) {
  for (const auto& sv : values) {
    bool ok = true;
    switch (spec.type) {
      case ParamType::string:
        ok =
            spec.choices.empty() || std::find(spec.choices.begin(), spec.choices.end(), sv.value) != spec.choices.end();
        break;
      case ParamType::boolean: ok = sv.value == "true" || sv.value == "false"; break;
      case ParamType::integer:
      case ParamType::real: {
        char* end = nullptr;
        (void)std::strtod(sv.value.c_str(), &end);
        ok = !sv.value.empty() && end && *end == '\0';
        break;
      }
      case ParamType::real_vector: ok = false; break;
    }
    if (!ok)
      throw std::logic_error("parameter '" + spec.name + "': the side-information value '" + sv.value +
                             "' is not a value the parameter can take");
  }
}

}  // namespace

ParamSpec gives(ParamSpec spec, std::string input, std::vector<SideValue> values) {
  check_side_values(spec, values);
  spec.side = SideInput{std::move(input), std::move(values), false};
  return spec;
}

ParamSpec selects(ParamSpec spec, std::string input, std::vector<SideValue> values) {
  check_side_values(spec, values);
  spec.side = SideInput{std::move(input), std::move(values), true};
  return spec;
}

nlohmann::json to_json(const ParamValue& v) {
  return std::visit(
      [](const auto& x) -> nlohmann::json {
        using T = std::decay_t<decltype(x)>;
        if constexpr (std::is_same_v<T, std::monostate>) return nullptr;
        else if constexpr (std::is_same_v<T, RealVector>) return nlohmann::json{{"per_dim", x}};
        else return x;
      },
      v);
}

std::string to_display(const ParamValue& v) {
  if (std::holds_alternative<std::string>(v)) return std::get<std::string>(v);
  return to_json(v).dump();
}

const ParamValue& ParamSet::get(const std::string& name) const {
  auto it = values_.find(name);
  if (it == values_.end()) throw std::logic_error("parameter '" + name + "' is not set");
  return it->second;
}

double ParamSet::real(const std::string& name) const {
  const auto& v = get(name);
  if (std::holds_alternative<double>(v)) return std::get<double>(v);
  if (std::holds_alternative<std::int64_t>(v)) return static_cast<double>(std::get<std::int64_t>(v));
  throw std::logic_error("parameter '" + name + "' is not a number");
}

std::int64_t ParamSet::integer(const std::string& name) const {
  const auto& v = get(name);
  if (std::holds_alternative<std::int64_t>(v)) return std::get<std::int64_t>(v);
  throw std::logic_error("parameter '" + name + "' is not an integer");
}

bool ParamSet::boolean(const std::string& name) const {
  const auto& v = get(name);
  if (std::holds_alternative<bool>(v)) return std::get<bool>(v);
  throw std::logic_error("parameter '" + name + "' is not a boolean");
}

const std::string& ParamSet::string(const std::string& name) const {
  const auto& v = get(name);
  if (std::holds_alternative<std::string>(v)) return std::get<std::string>(v);
  throw std::logic_error("parameter '" + name + "' is not a string");
}

RealVector ParamSet::per_dim(const std::string& name, std::size_t d) const {
  const auto& v = get(name);
  if (std::holds_alternative<RealVector>(v)) {
    const auto& vec = std::get<RealVector>(v);
    if (vec.size() != d)
      throw std::invalid_argument("parameter '" + name + "' has " + std::to_string(vec.size()) +
                                  " per-dimension entries but the data has " + std::to_string(d) + " dimensions");
    return vec;
  }
  return RealVector(d, real(name));
}

nlohmann::json ParamSet::to_json() const {
  nlohmann::json j = nlohmann::json::object();
  for (const auto& [k, v] : values_) j[k] = dpclust::to_json(v);
  return j;
}

std::string ParamSet::canonical() const {
  std::string s;
  for (const auto& [k, v] : values_) {
    if (!s.empty()) s += ';';
    s += k + '=' + dpclust::to_json(v).dump();
  }
  return s;
}

}  // namespace dpclust
