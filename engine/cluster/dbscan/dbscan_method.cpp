// The "dbscan" method: exact DBSCAN (non-private reference baseline).
#include <memory>

#include "cluster/dbscan/dbscan.hpp"

namespace dpclust {
namespace {

class DbscanMethod final : public Method {
 public:
  MethodResult run(const Dataset& data, const ParamSet& params, Rng& /*rng*/, BudgetLedger& /*ledger*/) const override {
    DbscanStats stats;
    MethodResult r;
    r.labels = dbscan(data, params.real("alpha"), params.integer("min_pts"), &stats);
    r.labels_are_release = false;
    r.release = nlohmann::json::object();  // non-private: nothing is published
    r.diagnostics = {{"core_points", stats.core_points}, {"clusters", stats.clusters}, {"noise_points", stats.noise_points}};
    return r;
  }
};

}  // namespace

const MethodInfo& dbscan_method_info() {
  static const MethodInfo info = [] {
    MethodInfo m;
    m.name = "dbscan";
    m.summary = "exact DBSCAN (non-private baseline): clusters of density-connected core points, the rest noise";
    m.reference = "Ester et al. KDD 1996; scikit-learn semantics";
    m.differentially_private = false;
    m.releases = "labels of the true data";
    m.private_when = "never";
    m.needs_bounds = false;
    m.params = {
        real_param("alpha", std::nullopt, "neighbourhood radius (alpha; sklearn eps)", 0.0, std::nullopt, true),
        int_param("min_pts", std::nullopt, "MinPts, counting the point itself", 1),
    };
    m.make = [] { return std::make_unique<DbscanMethod>(); };
    return m;
  }();
  return info;
}

}  // namespace dpclust
