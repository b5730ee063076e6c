// The method "kmeans": k-means (Lloyd, k-means++), the non-private reference baseline.
#include "cluster/kmeans/register.hpp"

#include <memory>
#include <string>

#include "cluster/kmeans/cost.hpp"
#include "cluster/kmeans/kmeans.hpp"
#include "cluster/kmeans/kmeans_reference.hpp"
#include "core/error.hpp"
#include "core/named_choice.hpp"

namespace dpclust {
namespace {

// Where the k-means++ restarts draw from: the trial's generator (n_init restarts, scikit-learn's KMeans), or the
// k-means measures' reference (kReferenceRestarts restarts seeded from the data and k, kmeans_reference.hpp): the
// clustering normalized_kmeans_cost divides by, the ceiling a benchmark's reference row must be (`baselines: true`
// sets it), so that no private method beats the ceiling only because the ceiling ran fewer restarts.
enum class Seeding { trial, reference };
const Named<Seeding> kSeedings[] = {{"trial", Seeding::trial}, {"reference", Seeding::reference}};

class KMeansMethod final : public Method {
 public:
  MethodResult run(const Dataset& data, const ParamSet& params, Rng& rng, BudgetLedger& /*ledger*/) const override {
    const std::int64_t k = params.integer("k");
    if (static_cast<std::uint64_t>(k) > data.n)
      throw InputError("params.k",
                       "k = " + std::to_string(k) + " exceeds the number of points of dataset '" + data.name + "' (" +
                           std::to_string(data.n) + ")",
                       "choose k <= " + std::to_string(data.n));
    KMeansResult km;
    if (kind_of(kSeedings, params, "seeding") == Seeding::reference) {
      const auto kk = static_cast<std::size_t>(k);
      KMeansReference ref =
          kmeans_reference(data.coords.data(), data.n, data.d, kk,
                           reference_seed(coordinates_fingerprint(data.coords.data(), data.n, data.d), kk));
      km.centers = std::move(ref.centres[ref.best]);
      km.labels = std::move(ref.best_labels);
      km.inertia = ref.best_cost();
      km.n_iter = ref.best_iterations;
    } else {
      KMeansOptions opt;
      opt.n_init = params.integer("n_init");
      opt.max_iter = params.integer("max_iter");
      opt.tol = params.real("tol");
      km = kmeans(data, static_cast<std::size_t>(k), opt, rng);
    }

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
    m.labels_are_nearest_centre = true;
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
        real_param("tol", 1e-4,
                   "convergence tolerance on the total squared centre shift, relative to the mean "
                   "per-dimension variance of the data (sklearn tol)",
                   0.0),
        choice_param(
            "seeding", "trial", names_of(kSeedings),
            "where the k-means++ restarts draw from: trial (n_init restarts from the trial's generator) or "
            "reference (the k-means measures' reference: 10 restarts seeded from the data and k, max_iter 300, "
            "tol 1e-4, the normaliser of normalized_kmeans_cost; n_init, max_iter and tol must keep their "
            "defaults); `baselines: true` sets reference"),
    };
    m.as_ceiling = {{"seeding", "reference"}};
    m.make = [] { return std::make_unique<KMeansMethod>(); };
    m.cost.trial = kmeans_trial_cost;
    m.no_python_estimator = "scikit-learn's sklearn.cluster.KMeans (greedy k-means++, Lloyd) is the same algorithm";
    m.check_shape = [](const ParamSet& p, const DataShape& shape) {
      check_at_most_points(p, shape, "k", "clusters");
      // The reference runs with KMeansOptions' defaults (kmeans_reference.cpp): the settings must be those.
      const KMeansOptions reference;
      if (kind_of(kSeedings, p, "seeding") == Seeding::reference &&
          (p.integer("n_init") != reference.n_init || p.integer("max_iter") != reference.max_iter ||
           p.real("tol") != reference.tol))
        throw InputError(
            "params.seeding",
            "seeding: reference runs the k-means measures' reference (10 restarts, max_iter 300, tol 1e-4); n_init, "
            "max_iter and tol cannot be changed with it",
            "leave n_init, max_iter and tol at their defaults, or use seeding: trial");
    };
    return m;
  }();
  return info;
}

MethodFolder cluster_kmeans_folder() { return {{kmeans_method_info()}, {}}; }

}  // namespace dpclust
