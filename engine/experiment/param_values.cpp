#include "experiment/param_values.hpp"

#include <cmath>
#include <cstdio>
#include <cstdlib>

namespace dpclust {

static double round12(double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.12g", x);
  return std::strtod(buf, nullptr);
}

ParamValue parse_param_value(const yaml::Located& at, const ParamSpec& spec) {
  ParamValue v;
  switch (spec.type) {
    case ParamType::integer: v = yaml::as_int(at); break;
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
  std::string problem = spec.check(v);
  if (!problem.empty())
    yaml::fail(at, "'" + spec.name + "' " + problem + ", got " + yaml::clip(to_display(v)),
               spec.description.empty() ? "" : spec.name + " is the " + spec.description);
  return v;
}

static std::vector<ParamValue> parse_sweep_checked(const yaml::Located& at, const ParamSpec& spec);

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
      if (item.node.IsSequence()) yaml::fail(item, "nested list", "a list is a sweep of single values; per-dimension vectors are written {per_dim: [...]}");
      out.push_back(parse_param_value(item, spec));
    }
    return out;
  }
  if (at.node.IsMap() && (at.has("from") || at.has("to") || at.has("step"))) {
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
    const auto count = static_cast<long>(std::floor((to - from) / step + 1e-9)) + 1;
    if (count > 100000) yaml::fail(at, "range has " + std::to_string(count) + " values", "use a larger step");
    for (long i = 0; i < count; ++i) {
      double x = round12(from + static_cast<double>(i) * step);
      ParamValue v = spec.type == ParamType::integer ? ParamValue(static_cast<std::int64_t>(std::llround(x))) : ParamValue(x);
      std::string problem = spec.check(v);
      if (!problem.empty()) yaml::fail(at, "'" + spec.name + "' " + problem + ", but the range contains " + to_display(v));
      out.push_back(v);
    }
    return out;
  }
  out.push_back(parse_param_value(at, spec));
  return out;
}

}  // namespace dpclust
