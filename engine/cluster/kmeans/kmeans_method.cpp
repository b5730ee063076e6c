// The "kmeans" method: k-means (Lloyd, k-means++), non-private reference baseline.
#include <memory>
#include <string>

#include "cluster/kmeans/kmeans.hpp"
#include "core/error.hpp"

namespace dpclust {
namespace {

class KMeansMethod final : public Method {
 public:
  MethodResult run(const Dataset& data, const ParamSet& params, Rng& rng, BudgetLedger& /*ledger*/) const override {
    const std::int64_t k = params.integer("k");
    if (static_cast<std::uint64_t>(k) > data.n)
      throw InputError("params.k", "k = " + std::to_string(k) + " exceeds the number of points of dataset '" +
                                       data.name + "' (" + std::to_string(data.n) + ")",
                       "choose k <= " + std::to_string(data.n));
    KMeansOptions opt;
    opt.n_init = params.integer("n_init");
    opt.max_iter = params.integer("max_iter");
    opt.tol = params.real("tol");
    KMeansResult km = kmeans(data, static_cast<std::size_t>(k), opt, rng);

    MethodResult r;
    r.labels = std::move(km.labels);
    r.labels_are_release = false;
    nlohmann::json centers = nlohmann::json::array();
    for (Eigen::Index c = 0; c < km.centers.rows(); ++c) {
      nlohmann::json row = nlohmann::json::array();
      for (Eigen::Index j = 0; j < km.centers.cols(); ++j) row.push_back(km.centers(c, j));
      centers.push_back(std::move(row));
    }
    r.release = {{"centers", std::move(centers)}};
    r.centres = km.centers;
    r.diagnostics = {{"inertia", km.inertia}, {"iterations", km.n_iter}};
    return r;
  }
};

}  // namespace

const MethodInfo& kmeans_method_info() {
  static const MethodInfo info = [] {
    MethodInfo m;
    m.name = "kmeans";
    m.releases_centres = true;
    m.summary = "k-means (Lloyd iterations, k-means++ seeding; non-private baseline, scikit-learn semantics)";
    m.reference = "Lloyd 1982; Arthur & Vassilvitskii SODA 2007 (k-means++); scikit-learn KMeans(algorithm='lloyd')";
    m.differentially_private = false;
    m.releases = "centres and labels of the true data";
    m.private_when = "never";
    m.needs_bounds = false;
    m.params = {
        gives(int_param("k", std::nullopt, "number of clusters (k)", 1), "k"),
        int_param("n_init", 1,
                  "number of k-means++ restarts, the lowest inertia kept (sklearn >= 1.4 n_init='auto' = 1 run for "
                  "k-means++); at most 1e4",
                  1, kKMeansMaxInit),
        int_param("max_iter", 300, "maximum Lloyd iterations per run, at most 1e6", 1, kKMeansMaxIter),
        real_param("tol", 1e-4, "convergence tolerance on the total squared centre shift, relative to the mean "
                                "per-dimension variance of the data (sklearn tol)",
                   0.0),
    };
    m.make = [] { return std::make_unique<KMeansMethod>(); };
    m.check_shape = [](const ParamSet& p, const DataShape& shape) { check_at_most_points(p, shape, "k", "clusters"); };
    return m;
  }();
  return info;
}

}  // namespace dpclust
