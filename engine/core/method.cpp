#include "core/method.hpp"

#include <cstdio>

#include "core/error.hpp"

namespace dpclust {

std::string short_number(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.6g", x);
  return buf;
}

void check_at_most_points(const ParamSet& params, const DataShape& shape, const std::string& key,
                          const std::string& what) {
  if (!shape.n || !params.has(key)) return;
  const std::int64_t v = params.integer(key);
  if (v < 0 || static_cast<std::uint64_t>(v) <= *shape.n) return;
  const std::string n = std::to_string(*shape.n);
  throw InputError("params." + key,
                   key + " = " + std::to_string(v) + " (" + what + ") exceeds the number of points of dataset '" +
                       shape.dataset + "' (" + (shape.n_exact ? "" : "at most ") + n + ")",
                   "choose " + key + " <= " + n + ", or a larger dataset");
}

std::string privacy_notion(const MethodInfo& info) {
  if (!info.differentially_private) return "none";
  if (info.trivial_baseline) return "0-DP (the output does not depend on the data)";
  if (info.local_privacy) return "eps-geo-indistinguishability (local: per record, eps per unit distance)";
  const std::string relation =
      info.relation == NeighbourRelation::replace_one ? "replace one record" : "add/remove one record";
  const ParamSpec* delta = nullptr;
  for (const auto& p : info.params)
    if (p.name == "delta") delta = &p;
  if (!delta) return "eps-DP (" + relation + ")";
  // A delta declared strictly positive (lsh_clustering's Gaussian sums): never pure.
  if (delta->min && *delta->min == 0 && delta->min_open) return "(eps, delta)-DP (" + relation + ")";
  return "eps-DP, or (eps, delta)-DP with Gaussian noise (" + relation + ")";
}

nlohmann::json MethodInfo::to_json() const {
  nlohmann::json ps = nlohmann::json::array();
  for (const auto& p : params) ps.push_back(p.to_json());
  nlohmann::json j{{"name", name},
                   {"summary", summary},
                   {"reference", reference},
                   {"differentially_private", differentially_private},
                   {"needs_bounds", needs_bounds},
                   {"privacy_notion", privacy_notion(*this)},
                   {"releases", releases},
                   {"private_when", private_when},
                   {"releases_centres", releases_centres},
                   {"params", ps}};
  if (!non_private_counterpart.empty()) j["non_private_counterpart"] = non_private_counterpart;
  if (trivial_baseline) j["trivial_baseline"] = true;
  if (!python_estimator.empty()) j["python_estimator"] = "dpclust." + python_estimator;
  if (!no_python_estimator.empty()) j["no_python_estimator"] = no_python_estimator;
  if (!definition.is_null()) j["definition"] = definition;
  return j;
}

bool n_is_private(const MethodInfo& info, const DataShape& shape) {
  if (!info.differentially_private || info.trivial_baseline || info.local_privacy ||
      info.relation == NeighbourRelation::replace_one)
    return false;
  if (!shape.n) return false;
  // Public when n is the declared number itself: a shape known from the config (an exact size or an upper
  // bound), or loaded data whose count is the declared exact size.
  const bool declared = shape.declared_n && *shape.declared_n == *shape.n && (shape.declared_n_exact || !shape.n_exact);
  return !declared;
}

DataShape shape_for_checks(const MethodInfo& info, DataShape shape) {
  if (!n_is_private(info, shape)) return shape;
  shape.n = shape.declared_n;
  shape.n_exact = shape.declared_n.has_value() && shape.declared_n_exact;
  return shape;
}

DataShape shape_of(const Dataset& data) {
  DataShape s;
  s.dataset = data.name;
  s.n = data.n;
  s.n_exact = true;
  s.d = data.d;
  s.bounds = data.bounds;
  return s;
}

}  // namespace dpclust
