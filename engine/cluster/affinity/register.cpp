// The method "affinity_propagation": Affinity Propagation (non-private reference baseline; the nD-Laplace thesis's
// second clustering algorithm).
#include "cluster/affinity/register.hpp"

#include <memory>
#include <string>

#include "cluster/affinity/affinity_propagation.hpp"
#include "cluster/affinity/cost.hpp"

namespace dpclust {
namespace {

class AffinityMethod final : public Method {
 public:
  MethodResult run(const Dataset& data, const ParamSet& params, Rng& /*rng*/, BudgetLedger& /*ledger*/) const override {
    AffinityOptions opt;
    opt.damping = params.real("damping");
    opt.preference = params.string("preference");
    opt.max_iter = params.integer("max_iter");
    opt.convergence_iter = params.integer("convergence_iter");
    AffinityResult ap = affinity_propagation(data.coords.data(), data.n, data.d, opt);
    MethodResult r;
    r.labels = std::move(ap.labels);
    r.labels_are_release = false;
    r.release = {{"exemplars", ap.exemplars}};
    // The exemplars are data points: the centres in the data's coordinates (scikit-learn's cluster_centers_);
    // none when the run did not converge.
    r.centres.resize(static_cast<Eigen::Index>(ap.exemplars.size()), static_cast<Eigen::Index>(data.d));
    for (std::size_t c = 0; c < ap.exemplars.size(); ++c)
      for (std::size_t j = 0; j < data.d; ++j)
        r.centres(static_cast<Eigen::Index>(c), static_cast<Eigen::Index>(j)) =
            data.coords[ap.exemplars[c] * data.d + j];
    r.diagnostics = {{"clusters", ap.exemplars.size()},
                     {"iterations", ap.n_iter},
                     {"converged", ap.converged ? 1 : 0},
                     {"preference", ap.preference}};
    return r;
  }
};

}  // namespace

const MethodInfo& affinity_propagation_method_info() {
  static const MethodInfo info = [] {
    MethodInfo m;
    m.name = "affinity_propagation";
    m.releases_centres = true;
    m.summary = "Affinity Propagation (non-private baseline; scikit-learn semantics, s(i,k) = -||x_i - x_k||^2)";
    m.reference = "Frey & Dueck, Science 2007; scikit-learn affinity_propagation; nD-Laplace thesis Sec. 2.2.1";
    m.differentially_private = false;
    m.releases = "exemplars and labels of the true data";
    m.private_when = "never";
    m.needs_bounds = false;
    m.params = {
        real_param("damping", 0.5, "damping factor (lambda), in [0.5, 1); thesis Table 5.2 keeps 0.5", 0.5, 1.0, false,
                   true),
        choice_param(
            "preference", "median", {"median", "minimum"},
            "self-similarity p of every point: median (thesis, sklearn default) or minimum of the similarities"),
        int_param("max_iter", 200,
                  "maximum message-passing iterations (sklearn default 200); at most 1e6, since each iteration costs "
                  "O(n^2) and more never helps",
                  1, kAffinityMaxIter),
        int_param("convergence_iter", 15,
                  "iterations without change of the exemplars that stop the run (sklearn 15); at most 1e6, since an "
                  "n x convergence_iter history is kept",
                  1, kAffinityMaxIter),
    };
    m.make = [] { return std::make_unique<AffinityMethod>(); };
    m.cost.trial = affinity_trial_cost;
    m.no_python_estimator =
        "scikit-learn's sklearn.cluster.AffinityPropagation is the same algorithm (its operations in its order)";
    return m;
  }();
  return info;
}

MethodFolder cluster_affinity_folder() { return {{affinity_propagation_method_info()}, {}}; }

}  // namespace dpclust
