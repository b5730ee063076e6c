#include "config/param_values.hpp"

#include <charconv>
#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace dpclust {

static double round12(double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.12g", x);
  return std::strtod(buf, nullptr);
}

std::int64_t as_whole_number(const yaml::Located& at, const std::string& key, const std::string& allowed) {
  if (at.node && at.node.IsScalar()) {
    const std::string& s = at.node.Scalar();
    std::int64_t i = 0;
    auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), i);
    if (ec == std::errc() && p == s.data() + s.size()) return i;
    // 1e9, 1.0e6, 99999999999999999999: a number, but not an int64 as written; typed here so that the
    // message names the allowed range instead of "expected an integer".
    char* end = nullptr;
    const double x = s.empty() ? 0 : std::strtod(s.c_str(), &end);
    if (!s.empty() && end == s.c_str() + s.size() && s.find_first_of("xXnN") == std::string::npos) {
      if (std::isfinite(x) && x == std::floor(x) && std::fabs(x) < 9.2e18) return static_cast<std::int64_t>(x);
      const bool huge = !(std::isfinite(x) && std::fabs(x) < 9.2e18);
      yaml::fail(at,
                 "'" + key + "' must be " + allowed + ", got " + yaml::clip(s, 40) + (huge ? " (out of range)" : ""),
                 huge ? "write a smaller number" : "write a whole number");
    }
  }
  return yaml::as_int(at);  // the standard message for what is not a number at all
}

ParamValue parse_param_value(const yaml::Located& at, const ParamSpec& spec) {
  ParamValue v;
  switch (spec.type) {
    case ParamType::integer: v = as_whole_number(at, spec.name, spec.allowed()); break;
    case ParamType::real: v = yaml::as_double(at); break;
    case ParamType::boolean: v = yaml::as_bool(at); break;
    case ParamType::string: v = yaml::as_string(at); break;
    case ParamType::real_vector:
      if (at.node.IsMap()) {
        // {per_dim: [...]} for per-dimension values; {values: [...]} for other vectors (e.g. blob centres).
        yaml::check_keys(at, {"per_dim", "values"});
        auto list = at.child(at.has("values") ? "values" : "per_dim");
        yaml::expect_sequence(list);
        RealVector vec;
        for (std::size_t i = 0; i < list.node.size(); ++i) vec.push_back(yaml::as_double(list.item(i)));
        v = vec;
      } else {
        v = yaml::as_double(at);
      }
      break;
  }
  check_param_value(spec, v, at.where());
  return v;
}

void check_param_value(const ParamSpec& spec, const ParamValue& v, const std::string& where) {
  const std::string problem = spec.check(v);
  if (problem.empty()) return;
  throw InputError(where, yaml::clip("'" + spec.name + "' " + problem + ", got " + yaml::clip(to_display(v)), 600),
                   yaml::clip(spec.description.empty() ? "" : spec.name + " is the " + spec.description, 2000));
}

static std::vector<ParamValue> parse_sweep_checked(const yaml::Located& at, const ParamSpec& spec);

// A {from, to, step} range: its checks and its number of values (at most 100,000), without any value.
static long range_count(const yaml::Located& at, const ParamSpec& spec) {
  yaml::check_keys(at, {"from", "to", "step"});
  for (const char* k : {"from", "to", "step"})
    if (!at.has(k))
      yaml::fail(at, "the range for '" + spec.name + "' has no '" + k + "'",
                 "a range needs all three: {from: a, to: b, step: s}");
  if (spec.type != ParamType::real && spec.type != ParamType::integer)
    yaml::fail(at, "a {from, to, step} range needs a numeric parameter");
  const double from = yaml::as_double(at.child("from")), to = yaml::as_double(at.child("to")),
               step = yaml::as_double(at.child("step"));
  if (!(step > 0)) yaml::fail(at.child("step"), "range step must be > 0");
  if (to < from) yaml::fail(at.child("to"), "range 'to' is below 'from'");
  const double count = std::floor((to - from) / step + 1e-9) + 1;  // a double first: (1e300 - 0) / 1e-300 is no long
  if (!(count <= 100000)) {
    char buf[64];
    std::snprintf(buf, sizeof buf, count < 1e15 ? "%.0f" : "%.3g", count);
    yaml::fail(at, std::string("range has ") + buf + " values (at most 100000)", "use a larger step");
  }
  return static_cast<long>(count);
}

std::size_t sweep_length(const yaml::Located& at, const ParamSpec& spec) {
  try {
    if (at.node.IsSequence()) return at.node.size() == 0 ? parse_param_sweep(at, spec).size() : at.node.size();
    if (at.node.IsMap() && (at.has("from") || at.has("to") || at.has("step")))
      return static_cast<std::size_t>(range_count(at, spec));
  } catch (const YAML::Exception& e) {
    yaml::fail(at, "cannot read '" + spec.name + "': " + yaml::clip(e.msg),
               "write a value, a list of values or {from: a, to: b, step: s}");
  }
  return 1;
}

std::vector<ParamValue> parse_param_sweep(const yaml::Located& at, const ParamSpec& spec) {
  try {
    return parse_sweep_checked(at, spec);
  } catch (const YAML::Exception& e) {
    // The helpers in yaml_reader check every node; this net keeps a yaml-cpp message from leaking alone.
    yaml::fail(at, "cannot read '" + spec.name + "': " + yaml::clip(e.msg),
               "write a value, a list of values or {from: a, to: b, step: s}");
  }
}

static std::vector<ParamValue> parse_sweep_checked(const yaml::Located& at, const ParamSpec& spec) {
  std::vector<ParamValue> out;
  if (at.node.IsSequence()) {
    if (at.node.size() == 0) yaml::fail(at, "empty list for '" + spec.name + "'", "give at least one value");
    for (std::size_t i = 0; i < at.node.size(); ++i) {
      auto item = at.item(i);
      if (item.node.IsSequence())
        yaml::fail(item, "nested list",
                   "a list is a sweep of single values; per-dimension vectors are written {per_dim: [...]}");
      out.push_back(parse_param_value(item, spec));
    }
    return out;
  }
  if (at.node.IsMap() && (at.has("from") || at.has("to") || at.has("step"))) {
    const long count = range_count(at, spec);
    const double from = yaml::as_double(at.child("from")), step = yaml::as_double(at.child("step"));
    for (long i = 0; i < count; ++i) {
      double x = round12(from + static_cast<double>(i) * step);
      ParamValue v =
          spec.type == ParamType::integer ? ParamValue(static_cast<std::int64_t>(std::llround(x))) : ParamValue(x);
      std::string problem = spec.check(v);
      if (!problem.empty())
        yaml::fail(at, "'" + spec.name + "' " + problem + ", but the range contains " + to_display(v));
      out.push_back(v);
    }
    return out;
  }
  out.push_back(parse_param_value(at, spec));
  return out;
}

}  // namespace dpclust
