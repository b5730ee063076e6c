// The nD-Laplace thesis's measures as metrics of nd_laplace (paper_metrics.hpp): the utility against the same
// clustering of the original data (Sec. 5.3.2), the Chapter 4 attacks and checks of the mechanism, and the
// parameter-selection diagnostics of Sec. 5.3.
#include "ndlaplace/paper_metrics.hpp"

#include <any>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>

#include "data/transforms.hpp"
#include "metrics/clustering_scores.hpp"
#include "ndlaplace/attacks.hpp"
#include "ndlaplace/centroid_error.hpp"
#include "ndlaplace/nd_laplace.hpp"
#include "ndlaplace/parameter_selection.hpp"

namespace dpclust::ndlaplace {
namespace {

constexpr const char* kReferenceKey = "nd_laplace/reference_labels";

// The same algorithm on the unperturbed data, computed once per trial and shared by the metrics.
struct Reference {
  Labels labels;
  bool converged = true;  // false when Affinity Propagation did not converge (every label -1)
};
Reference reference_of(const MetricInput& in) {
  Rng rng(in.seed);
  EvalClustering ref = cluster_for_evaluation(in.data.coords, in.data.n, in.data.d, in.params, rng);
  Reference r;
  r.converged = ref.converged;
  r.labels = std::move(ref.labels);
  return r;
}
// Affinity Propagation and DBSCAN draw no random number: on the original data their clustering is the same in
// every trial and every cell with the same clustering parameters, so the run computes it once per dataset
// (DatasetCache) instead of once per trial (K-Means seeds from the trial's metric seed: per trial).
std::string exact_text(double x) {  // every bit of x: "%a"
  char buf[64];
  std::snprintf(buf, sizeof buf, "%a", x);
  return buf;
}
std::string shared_reference_key(const ParamSet& p) {
  const std::string& algo = p.string("cluster");
  std::string key = "nd_laplace.reference|" + algo + "|scale_after=" + (p.boolean("scale_after") ? "1" : "0");
  if (algo == "affinity")
    return key + "|damping=" + exact_text(p.real("damping")) + "|preference=" + p.string("preference") +
           "|max_iter=" + std::to_string(p.integer("ap_max_iter"));
  if (algo == "dbscan")
    return key + "|alpha=" + exact_text(p.real("alpha")) + "|min_pts=" + std::to_string(p.integer("min_pts"));
  return "";
}
const Reference& reference(const MetricInput& in) {
  auto it = in.cache.find(kReferenceKey);
  if (it == in.cache.end()) {
    const std::string key = in.dataset_cache ? shared_reference_key(in.params) : "";
    if (key.empty()) {
      it = in.cache.emplace(kReferenceKey, reference_of(in)).first;
    } else {
      const auto shared = in.dataset_cache->get<Reference>(key, [&] { return reference_of(in); });
      it = in.cache.emplace(kReferenceKey, *shared).first;
    }
  }
  return std::any_cast<const Reference&>(it->second);
}

// ARI/AMI against the original-data clustering. NaN (left out of the averages, counted as missing)
// when Affinity Propagation did not converge on either side: its all -1 labels would otherwise score a
// meaningless 1.0 against another unconverged run.
// The typed result the method put in MethodResult::details.
const NdLaplaceResult& details_of(const MetricInput& in) {
  const auto* r = std::any_cast<NdLaplaceResult>(&in.result.details);
  if (!r)
    throw std::logic_error("nd_laplace metrics need the NdLaplaceResult of an nd_laplace run in MethodResult::details");
  return *r;
}

// The clustering input of the original data as the method sees it (standard-scaled when scale_after).
std::vector<double> original_clustering_input(const MetricInput& in) {
  if (!in.params.boolean("scale_after")) return in.data.coords;
  Dataset tmp;
  tmp.name = "clustering input";
  tmp.n = in.data.n;
  tmp.d = in.data.d;
  tmp.coords = in.data.coords;
  standard_scale(tmp);
  return std::move(tmp.coords);
}

double nan_unless(bool ok, double v) { return ok ? v : std::numeric_limits<double>::quiet_NaN(); }

template <class Score>
double vs_original(const MetricInput& in, Score score) {
  const Reference& ref = reference(in);
  if (!ref.converged || !details_of(in).converged) return std::numeric_limits<double>::quiet_NaN();
  return score(ref.labels, in.result.labels);
}

}  // namespace

namespace {

// The utility of the release (thesis Sec. 5.3.2, Table 5.4).
std::vector<MetricInfo> utility_metrics() {
  return {
      {"ari_vs_original",
       "ARI of the clustering of the perturbed data against the same algorithm (same parameters, same scaling) on "
       "the original data (nD-Laplace thesis Sec. 5.3.2); NaN when Affinity Propagation did not converge",
       false,
       [](const MetricInput& in) {
         return vs_original(in, [](const Labels& a, const Labels& b) { return adjusted_rand_score(a, b); });
       },
       {kNdLaplaceMethod}},
      {"ami_vs_original",
       "AMI (arithmetic) of the clustering of the perturbed data against the same algorithm on the original data "
       "(nD-Laplace thesis Sec. 5.3.2); NaN when Affinity Propagation did not converge",
       false,
       [](const MetricInput& in) {
         return vs_original(in, [](const Labels& a, const Labels& b) { return adjusted_mutual_info_score(a, b); });
       },
       {kNdLaplaceMethod}},
      {"avg_pe",
       "average p_e = 1/(1 + exp(eps d(x, x'))) (Oya et al. 2017; thesis Eq. 2.2, Table 5.4), over the pairs named by "
       "param pe_pairs",
       false,
       [](const MetricInput& in) { return details_of(in).pe.value; },
       {kNdLaplaceMethod}},
      {"avg_distance",
       "average perturbation distance ||z_i - x_i|| in data units (thesis Table 5.4 'distance')",
       false,
       [](const MetricInput& in) { return details_of(in).perturbation.avg_distance; },
       {kNdLaplaceMethod}},
  };
}

// The thesis's Chapter 4 attacks on the release (attacks.hpp).
std::vector<MetricInfo> attack_metrics() {
  return {
      {"mia_advantage",
       "membership inference advantage TPR - FPR (thesis Sec. 4.3, Yeom et al. 2018) of the nearest-report threshold "
       "attack at the public expected noise distance d / draw rate, members vs the release without the point",
       false,
       [](const MetricInput& in) {
         const NdLaplaceResult& r = details_of(in);
         const double tau = expected_noise_distance(in.data.d, r.draw_rate);
         return membership_inference(in.data.coords.data(), r.released.data(), in.data.n, in.data.d, tau).advantage;
       },
       {kNdLaplaceMethod}},
      {"mia_advantage_best",
       "membership inference advantage TPR - FPR of the same attack at the best threshold in hindsight (the strongest "
       "threshold adversary)",
       false,
       [](const MetricInput& in) {
         const NdLaplaceResult& r = details_of(in);
         return membership_inference_best(in.data.coords.data(), r.released.data(), in.data.n, in.data.d).advantage;
       },
       {kNdLaplaceMethod}},
      {"reconstruction_error",
       "reconstruction attack (thesis Sec. 4.2): mean distance of the adversary's posterior-mean estimate (Laplace "
       "likelihood at the public draw rate, the release as prior) to the true point, data units",
       false,
       [](const MetricInput& in) {
         const NdLaplaceResult& r = details_of(in);
         const std::vector<double> est =
             reconstruct_posterior_mean(r.released.data(), in.data.n, in.data.d, r.draw_rate);
         return mean_distance(est.data(), in.data.coords.data(), in.data.n, in.data.d);
       },
       {kNdLaplaceMethod}},
  };
}

// Checks of the mechanism itself on probe points (geo_check.hpp; privacy_probe_draws > 0).
std::vector<MetricInfo> mechanism_checks() {
  return {
      {"gi_ratio",
       "empirical check of geo-indistinguishability (thesis Eq. 3.1): the largest estimated log-ratio of report "
       "probabilities for the probe pair divided by eps d(x, x') (<= 1 when Eq. 3.1 holds); NaN unless "
       "privacy_probe_draws > 0",
       false,
       [](const MetricInput& in) {
         const auto& r = details_of(in);
         return nan_unless(r.probed, r.gi.ratio());
       },
       {kNdLaplaceMethod}},
      {"gi_violation",
       "1 when some event's log-ratio exceeds eps d(x, x') significantly (lower confidence bound, z = 4), else 0 "
       "(thesis Eq. 3.1); NaN unless privacy_probe_draws > 0",
       false,
       [](const MetricInput& in) {
         const auto& r = details_of(in);
         return nan_unless(r.probed, r.gi.violated ? 1.0 : 0.0);
       },
       {kNdLaplaceMethod}},
      {"p_area_radius",
       "P_area radius (thesis Eq. 3.4): mean distance of privacy_probe_draws reports of the probe point to it, data "
       "units; NaN unless privacy_probe_draws > 0",
       false,
       [](const MetricInput& in) {
         const auto& r = details_of(in);
         return nan_unless(r.probed, r.area.radius);
       },
       {kNdLaplaceMethod}},
  };
}

// The centroids' error and the parameter-selection diagnostics of Sec. 5.3 (parameter_selection.hpp).
std::vector<MetricInfo> selection_metrics() {
  return {
      {"centroid_rel_error",
       "relative error of the centroids (thesis Sec. 2.2.2): mean over the original-data clustering's centroids c of "
       "||c - nearest centroid of the release's clustering|| / ||c||, data units; NaN without clusters",
       false,
       [](const MetricInput& in) {
         const Reference& ref = reference(in);
         const NdLaplaceResult& r = details_of(in);
         std::size_t k_ref = 0, k_est = 0;
         const auto c_ref = cluster_centroids(in.data.coords.data(), in.data.n, in.data.d, ref.labels, &k_ref);
         const auto c_est = cluster_centroids(r.released.data(), in.data.n, in.data.d, in.result.labels, &k_est);
         return centroid_relative_error(c_ref, k_ref, c_est, k_est, in.data.d);
       },
       {kNdLaplaceMethod}},
      {"elbow_k_original",
       "K-Means k at the elbow of the inertia curve k = 1..elbow_k_max of the original (scaled) data (thesis Table "
       "5.1; "
       "knee rule in parameter_selection.hpp); a non-private diagnostic",
       false,
       [](const MetricInput& in) {
         Rng rng(in.seed);
         const std::vector<double> x = original_clustering_input(in);
         const auto curve =
             inertia_curve(x.data(), in.data.n, in.data.d, static_cast<std::size_t>(in.params.integer("elbow_k_max")),
                           in.params.integer("n_init"), rng);
         return static_cast<double>(elbow_k(curve));
       },
       {kNdLaplaceMethod}},
      {"kdistance_alpha_original",
       "DBSCAN radius at the knee of the sorted min_pts-distance curve of the original (scaled) data (thesis Table "
       "5.3; "
       "knee rule in parameter_selection.hpp); a non-private diagnostic",
       false,
       [](const MetricInput& in) {
         const std::vector<double> x = original_clustering_input(in);
         const auto k = static_cast<std::size_t>(
             std::min<std::int64_t>(in.params.integer("min_pts"), static_cast<std::int64_t>(in.data.n)));
         return knee_radius(k_distance(x.data(), in.data.n, in.data.d, k));
       },
       {kNdLaplaceMethod}},
  };
}

}  // namespace

std::vector<MetricInfo> nd_laplace_metrics() {
  std::vector<MetricInfo> all = utility_metrics();
  for (auto* group : {&attack_metrics, &mechanism_checks, &selection_metrics})
    for (MetricInfo& m : group()) all.push_back(std::move(m));
  return all;
}

}  // namespace dpclust::ndlaplace
