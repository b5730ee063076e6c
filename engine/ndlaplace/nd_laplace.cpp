// The "nd_laplace" method (thesis Alg. 2 generalised to n dimensions) and its metrics.
#include "ndlaplace/nd_laplace.hpp"

#include <any>
#include <cmath>
#include <limits>
#include <memory>
#include <string>

#include "cluster/affinity/affinity_propagation.hpp"
#include "cluster/dbscan/dbscan.hpp"
#include "cluster/kmeans/kmeans.hpp"
#include "core/error.hpp"
#include "data/transforms.hpp"
#include "metrics/clustering_scores.hpp"
#include "ndlaplace/mechanism.hpp"
#include "ndlaplace/privacy.hpp"
#include "privacy/mechanism.hpp"

namespace dpclust::ndlaplace {
namespace {

constexpr const char* kMethod = "nd_laplace";
constexpr const char* kReferenceKey = "nd_laplace/reference_labels";
// The released (perturbed) points are stored in the trial record only up to this many coordinates.
constexpr std::size_t kReleaseLimit = 10000;

}  // namespace

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
      throw InputError("params.k", "k = " + std::to_string(k) + " exceeds the number of points (" + std::to_string(n) + ")",
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

namespace {

class NdLaplaceMethod final : public Method {
 public:
  MethodResult run(const Dataset& data, const ParamSet& params, Rng& rng, BudgetLedger& ledger) const override {
    NdLaplaceSettings set;
    set.epsilon = params.real("epsilon");
    // thesis Sec. 3.1.3: eps = l / r. `epsilon` is the privacy level l reached at distance `radius`;
    // the rate per unit distance is l / r (radius = 1: epsilon is the rate itself).
    set.radius = params.real("radius");
    set.sampler = privacy::sampler_of(params);
    set.continuous = parse_continuous_sampler(params.string("continuous_sampler"), data.d);
    set.truncation = parse_truncation(params.string("truncation"));
    set.resampling_budget = parse_resampling_budget(params.string("resampling_budget"));
    set.grid_step = params.real("grid_step");
    set.max_retries = params.integer("max_retries");

    // Local mechanism: the whole budget is one typed entry, applied to every point separately.
    const NdLaplaceMechanism mech = NdLaplaceMechanism::create(ledger, set, data.d, data.bounds);
    NdLaplaceResult res;
    std::vector<double> z = mech.perturb(data.coords.data(), data.n, data.bounds, rng, &res.perturbation);
    res.rate = mech.rate();
    res.draw_rate = mech.draw_rate();
    res.grid_step = mech.grid_step();

    // Clustering of the released points only (post-processing).
    EvalClustering cl = cluster_for_evaluation(z, data.n, data.d, params, rng);
    res.converged = cl.converged;

    // Privacy figures of Table 5.4 (evaluation only: they use the original points). p_e is computed at
    // the recorded rate epsilon / radius (what the thesis reports per epsilon).
    res.pe = average_pe(data.coords.data(), z.data(), data.n, data.d, res.rate, parse_pe_pairs(params.string("pe_pairs")),
                        static_cast<std::uint64_t>(params.integer("pe_max_pairs")), rng);

    MethodResult r;
    r.labels = std::move(cl.labels);
    r.labels_are_release = true;  // computed from the perturbed points alone
    r.release = {{"mechanism", mech.mechanism()},
                 {"sampler", privacy::to_string(set.sampler)},
                 {"rate_per_unit_distance", res.rate},
                 {"draw_rate", res.draw_rate},
                 {"truncation", params.string("truncation")},
                 {"n", data.n},
                 {"d", data.d}};
    if (set.sampler == privacy::Sampler::secure) r.release["grid_step"] = res.grid_step;
    if (data.n * data.d <= kReleaseLimit) {
      nlohmann::json pts = nlohmann::json::array();
      for (std::size_t i = 0; i < data.n; ++i) pts.push_back(std::vector<double>(z.begin() + static_cast<std::ptrdiff_t>(i * data.d),
                                                                                  z.begin() + static_cast<std::ptrdiff_t>((i + 1) * data.d)));
      r.release["points"] = std::move(pts);
    } else {
      r.release["points"] = "not stored: n * d = " + std::to_string(data.n * data.d) + " > " + std::to_string(kReleaseLimit);
    }
    // Public numbers: the clustering of the release, the parameters' rates, points outside the public box.
    r.diagnostics = std::move(cl.diagnostics);
    r.diagnostics["rate"] = res.rate;
    r.diagnostics["draw_rate"] = res.draw_rate;
    if (set.sampler == privacy::Sampler::secure) r.diagnostics["grid_step"] = res.grid_step;
    r.diagnostics["outside_points"] = res.perturbation.outside;
    // Exact statistics of the true points (draw counts, distances to the true points, p_e).
    const PerturbStats& st = res.perturbation;
    r.evaluation["avg_pe"] = res.pe.value;
    r.evaluation["pe_pairs_evaluated"] = res.pe.pairs;
    r.evaluation["pe_estimated"] = res.pe.estimated ? 1 : 0;
    r.evaluation["avg_distance"] = st.avg_distance;
    r.evaluation["draws_per_point"] = data.n ? static_cast<double>(st.draws) / static_cast<double>(data.n) : 0.0;
    r.evaluation["max_draws_point"] = st.max_draws_point;
    r.evaluation["remapped_points"] = st.remapped;
    r.non_private_notes = mech.non_private_notes();
    r.details = std::move(res);
    return r;
  }
};

// The same algorithm on the unperturbed data, computed once per trial and shared by the metrics.
struct Reference {
  Labels labels;
  bool converged = true;  // false when Affinity Propagation did not converge (every label -1)
};
const Reference& reference(const MetricInput& in) {
  auto it = in.cache.find(kReferenceKey);
  if (it == in.cache.end()) {
    Rng rng(in.seed);
    EvalClustering ref = cluster_for_evaluation(in.data.coords, in.data.n, in.data.d, in.params, rng);
    Reference r;
    r.converged = ref.converged;
    r.labels = std::move(ref.labels);
    it = in.cache.emplace(kReferenceKey, std::move(r)).first;
  }
  return std::any_cast<const Reference&>(it->second);
}

// ARI/AMI against the original-data clustering. NaN (left out of the averages, counted as missing)
// when Affinity Propagation did not converge on either side: its all -1 labels would otherwise score a
// meaningless 1.0 against another unconverged run.
// The typed result the method put in MethodResult::details.
const NdLaplaceResult& details_of(const MetricInput& in) {
  const auto* r = std::any_cast<NdLaplaceResult>(&in.result.details);
  if (!r) throw std::logic_error("nd_laplace metrics need the NdLaplaceResult of an nd_laplace run in MethodResult::details");
  return *r;
}

template <class Score>
double vs_original(const MetricInput& in, Score score) {
  const Reference& ref = reference(in);
  if (!ref.converged || !details_of(in).converged) return std::numeric_limits<double>::quiet_NaN();
  return score(ref.labels, in.result.labels);
}

}  // namespace

const MethodInfo& nd_laplace_method_info() {
  static const MethodInfo info = [] {
    MethodInfo m;
    m.name = kMethod;
    m.summary = "nD-Laplace (geo-indistinguishability) local perturbation of every point, then K-Means / Affinity "
                "Propagation / DBSCAN on the standard-scaled perturbed data";
    m.reference = "van der Ende, nD-Laplace thesis draft: Sec. 3.1 (planar Laplace, Eq. 3.3), Alg. 1 (truncation), "
                  "Alg. 2, Sec. 5.3; Andres et al. CCS 2013 (geo-indistinguishability)";
    m.differentially_private = true;
    m.local_privacy = true;  // metric (geo-indistinguishability) guarantee per record: a local ledger
    m.needs_bounds = true;   // truncation to the public domain
    m.params = {
        real_param("epsilon", std::nullopt,
                   "geo-indistinguishability level: the privacy level l reached at distance `radius` (eps = l / r, "
                   "thesis Sec. 3.1.3); with radius 1 the rate per unit distance; at least 1e-6 (a denormal level has no "
                   "finite noise scale)",
                   1e-6),
        real_param("radius", 1.0, "radius r in data units at which the level `epsilon` holds; rate = epsilon / radius",
                   0.0, std::nullopt, true),
        privacy::sampler_param(),
        choice_param("continuous_sampler", "auto", {"auto", "planar", "nd"},
                     "the continuous noise of sampler: textbook: planar = polar Laplace with the Lambert W_-1 inverse CDF "
                     "(thesis Eq. 3.3, d = 2 only); nd = Gamma(d, 1/eps) radius and uniform direction; auto = planar for "
                     "d = 2, nd otherwise"),
        real_param("grid_step", 0.0,
                   "sampler: secure: step u of the grid the reports lie on (data units); 0 = auto (1/100 of the noise "
                   "scale, at most 1/1000 of the domain's narrowest side)",
                   0.0),
        choice_param("truncation", "resample", {"resample", "remap", "none"},
                     "keeping reports in the domain: resample (thesis Alg. 1), remap to the nearest admissible point "
                     "(Andres et al. step 5), none"),
        choice_param("resampling_budget", "halve", {"halve", "thesis"},
                     "reading of epsilon under truncation: resample (the normaliser of the truncated noise depends on x, "
                     "which doubles the guarantee): halve = draw at epsilon / 2 so the release is epsilon-geo-"
                     "indistinguishable; thesis = draw at epsilon as the thesis does (the release is only 2 epsilon-geo-"
                     "indistinguishable; flagged non-private). The secure grid sampler always draws at epsilon / 2 "
                     "otherwise"),
        int_param("max_retries", 10000, "noise draws allowed per point under truncation = resample, at most 1e6", 1,
                  1'000'000),
        choice_param("cluster", "kmeans", {"kmeans", "affinity", "dbscan"},
                     "clustering algorithm run on the perturbed data (and on the original data by *_vs_original)"),
        int_param("k", 4, "number of clusters for K-Means (thesis dataset 1 has 4 centres)", 1),
        int_param("n_init", 10, "K-Means restarts (scikit-learn 1.0's default n_init = 10, which the thesis used), at most 1e4",
                  1, kKMeansMaxInit),
        real_param("damping", 0.5, "Affinity Propagation damping (thesis Table 5.2: 0.5)", 0.5, 1.0, false, true),
        choice_param("preference", "median", {"median", "minimum"},
                     "Affinity Propagation preference: median similarity (thesis Table 5.2) or the minimum"),
        int_param("ap_max_iter", 200, "Affinity Propagation iterations at most (sklearn default 200), at most 1e6; without "
                                      "convergence every label is -1", 1, kAffinityMaxIter),
        real_param("alpha", 0.5, "DBSCAN radius (sklearn eps) in the units of the (scaled) clustering input", 0.0,
                   std::nullopt, true),
        int_param("min_pts", 4, "DBSCAN MinPts (thesis Table 5.3: 2 * d, i.e. 4 for d = 2)", 1),
        bool_param("scale_after", true, "standard-scale before clustering, after the perturbation (thesis Sec. 5.3.3)"),
        choice_param("pe_pairs", "perturbed", {"perturbed", "original", "cross", "self"},
                     "what the average p_e of Table 5.4 averages over: all pairs of perturbed points (diagonal "
                     "included), of original points, original x perturbed, or each point with its own report"),
        int_param("pe_max_pairs", 4000000,
                  "average p_e exactly when n^2 <= this, else from this many random pairs; at most 1e9", 1, 1'000'000'000),
    };
    m.make = [] { return std::make_unique<NdLaplaceMethod>(); };
    m.check_shape = [](const ParamSet& p, const DataShape& shape) {
      const double rate = p.real("epsilon") / p.real("radius");
      if (!(std::isfinite(rate) && rate >= 1e-12))
        throw InputError("params.radius",
                         "the noise rate epsilon / radius = " + short_number(p.real("epsilon")) + " / " +
                             short_number(p.real("radius")) + " is not finite or below 1e-12 per data unit: the noise "
                             "would have no finite scale",
                         "choose a radius in data units comparable to the domain");
      if (p.string("cluster") == "kmeans") check_at_most_points(p, shape, "k", "K-Means clusters");
      // The planar (polar Laplace) sampler exists in 2 dimensions only; parse_continuous_sampler refuses it otherwise.
      if (shape.d) parse_continuous_sampler(p.string("continuous_sampler"), *shape.d);
    };
    return m;
  }();
  return info;
}

std::vector<MetricInfo> nd_laplace_metrics() {
  return {
      {"ari_vs_original",
       "ARI of the clustering of the perturbed data against the same algorithm (same parameters, same scaling) on "
       "the original data (nD-Laplace thesis Sec. 5.3.2); NaN when Affinity Propagation did not converge",
       false,
       [](const MetricInput& in) {
         return vs_original(in, [](const Labels& a, const Labels& b) { return adjusted_rand_score(a, b); });
       },
       {kMethod}},
      {"ami_vs_original",
       "AMI (arithmetic) of the clustering of the perturbed data against the same algorithm on the original data "
       "(nD-Laplace thesis Sec. 5.3.2); NaN when Affinity Propagation did not converge",
       false,
       [](const MetricInput& in) {
         return vs_original(in, [](const Labels& a, const Labels& b) { return adjusted_mutual_info_score(a, b); });
       },
       {kMethod}},
      {"avg_pe",
       "average p_e = 1/(1 + exp(eps d(x, x'))) (Oya et al. 2017; thesis Eq. 2.2, Table 5.4), over the pairs named by "
       "param pe_pairs",
       false, [](const MetricInput& in) { return details_of(in).pe.value; }, {kMethod}},
      {"avg_distance", "average perturbation distance ||z_i - x_i|| in data units (thesis Table 5.4 'distance')", false,
       [](const MetricInput& in) { return details_of(in).perturbation.avg_distance; }, {kMethod}},
  };
}

}  // namespace dpclust::ndlaplace
