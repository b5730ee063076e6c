// Parameters checked against their declarations; see param_checks.hpp.
#include "config/param_checks.hpp"

#include <stdexcept>

#include "config/param_values.hpp"
#include "core/error.hpp"

namespace dpclust {

ParamSet complete_params(const std::vector<ParamSpec>& specs, const std::string& owner,
                         const std::map<std::string, ParamValue>& given, const std::string& where) {
  std::vector<std::string> names;
  for (const auto& spec : specs) names.push_back(spec.name);
  for (const auto& [name, value] : given) {
    bool known = false;
    for (const auto& n : names) known = known || n == name;
    if (known) continue;
    const std::string s = closest_match(name, names);
    throw InputError(
        where, "'" + name + "' is not a parameter of " + owner,
        (s.empty() ? "" : "did you mean '" + s + "'? ") + "see `dpclust list` for each method's parameters");
  }
  ParamSet out;
  for (const auto& spec : specs) {
    auto it = given.find(spec.name);
    if (it != given.end() && !std::holds_alternative<std::monostate>(it->second)) {
      check_param_value(spec, it->second, where + "." + spec.name);
      out.set(spec.name, it->second);
    } else if (!spec.required()) {
      out.set(spec.name, spec.default_value);
    } else {
      throw InputError(where, owner + " needs parameter '" + spec.name + "' (" + spec.description + ")",
                       "set " + spec.name + "=...");
    }
  }
  return out;
}

void check_trial_inputs(const MethodInfo& info, const ParamSet& params, const Dataset& data, const std::string& where) {
  if (info.needs_bounds && data.bounds.empty())
    throw InputError(
        where, "method '" + info.name + "' needs the public domain bounds of the data",
        "pass bounds=(lower, upper) (public knowledge), or bounds='data' (derived from the data; flagged non-private)");
  if (!info.check_shape) return;
  try {
    info.check_shape(params, shape_for_checks(info, shape_of(data)));
  } catch (const InputError& e) {
    const std::string& w = e.where();
    throw InputError(w.rfind("params.", 0) == 0 ? where + "." + w.substr(7) : where + (w.empty() ? "" : " (" + w + ")"),
                     "method '" + info.name + "': " + e.problem(), e.fix());
  } catch (const std::invalid_argument& e) {
    throw InputError(where, "method '" + info.name + "': " + e.what(),
                     "check this method's parameters against the data");
  }
}

void check_randomness(Randomness mode, const ParamSet& params, const std::string& where) {
  if (mode != Randomness::secure || !params.has("rng")) return;
  const ParamValue& v = params.get("rng");
  if (const auto* s = std::get_if<std::string>(&v); s && *s == "numpy")
    throw InputError(
        where + ".rng",
        "rng: numpy draws the authors' numpy stream from a seed (RandomState(seed)), which randomness: secure "
        "does not have: a seeded stream cannot be a secure release",
        "use rng: dpclust (the harness's samplers) with randomness: secure, or randomness: seeded to reproduce the "
        "authors' runs");
}

}  // namespace dpclust
