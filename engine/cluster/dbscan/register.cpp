// The method "dbscan": exact DBSCAN (non-private reference baseline), its parameters and what it reports.
#include "cluster/dbscan/register.hpp"

#include <memory>
#include <string>
#include <vector>

#include "cluster/dbscan/cost.hpp"
#include "cluster/dbscan/dbscan.hpp"
#include "core/error.hpp"

namespace dpclust {
namespace {

// The choice `border`, declared once: its names and values come from this table only.
struct NamedBorder {
  const char* name;
  BorderRule rule;
};
constexpr NamedBorder kBorderRules[] = {{"assign", BorderRule::assign}, {"noise", BorderRule::noise}};

class DbscanMethod final : public Method {
 public:
  MethodResult run(const Dataset& data, const ParamSet& params, Rng& /*rng*/, BudgetLedger& /*ledger*/) const override {
    DbscanStats stats;
    MethodResult r;
    r.labels = dbscan(data, params.real("alpha"), params.integer("min_pts"), &stats, border_rule_of(params));
    r.labels_are_release = false;
    r.release = nlohmann::json::object();  // non-private: nothing is published
    r.diagnostics = {
        {"core_points", stats.core_points}, {"clusters", stats.clusters}, {"noise_points", stats.noise_points}};
    return r;
  }
};

}  // namespace

const char* to_string(BorderRule b) {
  for (const NamedBorder& n : kBorderRules)
    if (n.rule == b) return n.name;
  return "?";
}

ParamSpec border_param() {
  std::vector<std::string> names;
  for (const NamedBorder& n : kBorderRules) names.emplace_back(n.name);
  return choice_param(
      "border", "assign", std::move(names),
      "border points (non-core, within alpha of a core point): assign = join the first cluster that reaches "
      "them (scikit-learn, Ester et al. 1996); noise = stay noise, clusters are core points only (Qiu & Yi, "
      "Sec. 2, and the authors' evaluation code)");
}

BorderRule border_rule_of(const ParamSet& params) {
  if (!params.has("border")) return BorderRule::assign;
  const std::string& s = params.string("border");
  for (const NamedBorder& n : kBorderRules)
    if (s == n.name) return n.rule;
  throw InputError("params.border", "unknown border rule '" + s + "'", "use border: assign or border: noise");
}

const MethodInfo& dbscan_method_info() {
  static const MethodInfo info = [] {
    MethodInfo m;
    m.name = "dbscan";
    m.summary = "exact DBSCAN (non-private baseline): clusters of density-connected core points, the rest noise";
    m.reference = "Ester et al. KDD 1996; scikit-learn semantics (border: assign) or Qiu & Yi Sec. 2 (border: noise)";
    m.differentially_private = false;
    m.releases = "labels of the true data";
    m.private_when = "never";
    m.needs_bounds = false;
    m.params = {
        gives(real_param("alpha", std::nullopt, "neighbourhood radius (alpha; sklearn eps)", 0.0, std::nullopt, true),
              "alpha"),
        gives(int_param("min_pts", std::nullopt, "MinPts, counting the point itself", 1), "min_pts"),
        border_param(),
    };
    m.make = [] { return std::make_unique<DbscanMethod>(); };
    m.cost.trial = dbscan_trial_cost;
    m.no_python_estimator =
        "scikit-learn's sklearn.cluster.DBSCAN is the same algorithm (label for label: docs/methods.md)";
    return m;
  }();
  return info;
}

MethodFolder cluster_dbscan_folder() { return {{dbscan_method_info()}, {}}; }

}  // namespace dpclust
