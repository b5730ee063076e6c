// The clustering step of the nD-Laplace thesis (Sec. 5.3.3), shared by the method (on the perturbed points) and the
// metrics that compare with the original data; see nd_laplace.hpp.
#include "ndlaplace/nd_laplace.hpp"

#include <string>

#include "cluster/affinity/affinity_propagation.hpp"
#include "cluster/dbscan/dbscan.hpp"
#include "cluster/kmeans/kmeans.hpp"
#include "core/error.hpp"
#include "data/transforms.hpp"
#include "metrics/clustering_scores.hpp"

namespace dpclust::ndlaplace {

EvalClustering cluster_for_evaluation(std::vector<double> coords, std::size_t n, std::size_t d, const ParamSet& params,
                                      Rng& rng) {
  if (params.boolean("scale_after")) {
    // thesis Sec. 5.3.3: StandardScaler, only for clustering, after the perturbation. It uses the
    // (perturbed) data's own mean and sd: post-processing of the released points.
    Dataset tmp;
    tmp.name = "clustering input";
    tmp.n = n;
    tmp.d = d;
    tmp.coords = std::move(coords);
    standard_scale(tmp);
    coords = std::move(tmp.coords);
  }
  EvalClustering out;
  const std::string& algo = params.string("cluster");
  if (algo == "kmeans") {
    const std::int64_t k = params.integer("k");
    if (static_cast<std::uint64_t>(k) > n)
      throw InputError("params.k",
                       "k = " + std::to_string(k) + " exceeds the number of points (" + std::to_string(n) + ")",
                       "choose k <= " + std::to_string(n));
    KMeansOptions opt;
    opt.n_init = params.integer("n_init");
    KMeansResult km = kmeans(coords.data(), n, d, static_cast<std::size_t>(k), opt, rng);
    out.labels = std::move(km.labels);
    out.diagnostics = {{"inertia", km.inertia}, {"iterations", km.n_iter}};
  } else if (algo == "affinity") {
    AffinityOptions opt;
    opt.damping = params.real("damping");
    opt.preference = params.string("preference");
    opt.max_iter = params.integer("ap_max_iter");
    AffinityResult ap = affinity_propagation(coords.data(), n, d, opt);
    out.labels = std::move(ap.labels);
    out.converged = ap.converged;
    out.diagnostics = {{"iterations", ap.n_iter}, {"converged", ap.converged ? 1 : 0}, {"preference", ap.preference}};
  } else if (algo == "dbscan") {
    DbscanStats st;
    out.labels = dbscan(coords.data(), n, d, params.real("alpha"), params.integer("min_pts"), &st);
    out.diagnostics = {{"core_points", st.core_points}};
  } else {
    throw std::invalid_argument("unknown cluster algorithm '" + algo + "'");
  }
  out.diagnostics["clusters"] = n_clusters(out.labels);
  out.diagnostics["noise_points"] = n_noise(out.labels);
  return out;
}

}  // namespace dpclust::ndlaplace
