// The "nd_laplace" method (thesis Alg. 2 generalised to n dimensions): its declared parameters, the adapter from them
// to the mechanism (mechanism.hpp) and the clustering of the released points, and what a trial releases.
#include "ndlaplace/register.hpp"

#include <cmath>
#include <memory>
#include <string>

#include "cluster/affinity/affinity_propagation.hpp"
#include "cluster/kmeans/kmeans.hpp"
#include "core/error.hpp"
#include "ndlaplace/cost.hpp"
#include "ndlaplace/geo_check.hpp"
#include "ndlaplace/mechanism.hpp"
#include "ndlaplace/nd_laplace.hpp"
#include "ndlaplace/paper_metrics.hpp"
#include "ndlaplace/privacy.hpp"
#include "privacy/mechanism.hpp"

namespace dpclust::ndlaplace {
namespace {

// The released (perturbed) points are stored in the trial record only up to this many coordinates.
constexpr std::size_t kReleaseLimit = 10000;

// Evaluation of the mechanism (geo_check.hpp): `draws` reports for each of the probe inputs c (the centre
// of the public box, the origin without one) and c + distance e_1, drawn with the trial's mechanism (so a
// ledger noise_scale reaches them) from a generator of their own (the release's stream is untouched).
// Nothing drawn here is released; only the check's numbers go to the result's evaluation.
void probe_mechanism(const NdLaplaceMechanism& mech, const Dataset& data, double distance, std::size_t draws,
                     std::uint64_t trial_seed, NdLaplaceResult& res) {
  const std::size_t d = data.d;
  const bool have_bounds = data.bounds.dims() == d;
  std::vector<double> c(d, 0.0);
  if (have_bounds)
    for (std::size_t j = 0; j < d; ++j) c[j] = 0.5 * (data.bounds.lo[j] + data.bounds.hi[j]);
  std::vector<double> cp = c;
  cp[0] += distance;
  if (have_bounds && cp[0] > data.bounds.hi[0])
    throw InputError(
        "params.gi_distance",
        "the probe pair (the public box's centre and the centre + gi_distance along the first axis) leaves the "
        "domain: gi_distance " +
            short_number(distance) + " exceeds half the box's first side",
        "choose a smaller gi_distance (0 = radius)");
  Rng prng(splitmix64(trial_seed ^ 0x6e646c70726f6265ULL));  // "ndlprobe"
  std::vector<double> xs(draws * d), xps(draws * d);
  for (std::size_t i = 0; i < draws; ++i)
    for (std::size_t j = 0; j < d; ++j) {
      xs[i * d + j] = c[j];
      xps[i * d + j] = cp[j];
    }
  const std::vector<double> zx = mech.perturb(xs.data(), draws, data.bounds, prng);
  const std::vector<double> zxp = mech.perturb(xps.data(), draws, data.bounds, prng);
  // Eq. 3.1 is checked against the recorded rate epsilon / radius (what the ledger entry claims).
  res.gi = geo_indistinguishability_check(c.data(), cp.data(), d, zx.data(), draws, zxp.data(), draws, mech.rate());
  res.area = p_area(c.data(), zx.data(), draws, d);
  res.probed = true;
}

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
    set.resampling_budget = parse_resampling_budget(params.string("resampling_budget"));
    set.grid_step = params.real("grid_step");
    set.max_retries = params.integer("max_retries");
    const TruncationChoice truncation = choose_truncation(params.string("truncation"), set.epsilon, set.radius,
                                                          set.resampling_budget, set.max_retries, data.d, data.bounds);
    set.truncation = truncation.truncation;

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
    res.pe =
        average_pe(data.coords.data(), z.data(), data.n, data.d, res.rate, parse_pe_pairs(params.string("pe_pairs")),
                   static_cast<std::uint64_t>(params.integer("pe_max_pairs")), rng);
    // Chapter 4 evaluation of the mechanism (off by default; its own generator, after the release).
    if (const std::int64_t draws = params.integer("privacy_probe_draws"); draws > 0) {
      const double dist = params.real("gi_distance") > 0 ? params.real("gi_distance") : set.radius;
      // A secure trial has no seed: the probe's generator is then a fresh secure one (nothing recorded).
      probe_mechanism(mech, data, dist, static_cast<std::size_t>(draws), rng.is_secure() ? rng.next_u64() : rng.seed(),
                      res);
    }

    MethodResult r;
    r.labels = std::move(cl.labels);
    r.labels_are_release = true;  // computed from the perturbed points alone
    r.release = {{"mechanism", mech.mechanism()},
                 {"sampler", privacy::to_string(set.sampler)},
                 {"rate_per_unit_distance", res.rate},
                 {"draw_rate", res.draw_rate},
                 {"truncation", truncation_name(truncation.truncation)},
                 {"n", data.n},
                 {"d", data.d}};
    if (set.sampler == privacy::Sampler::secure) r.release["grid_step"] = res.grid_step;
    // truncation: auto's choice, from public numbers only (the parameters, d, the bounds).
    if (truncation.automatic)
      r.release["truncation_auto"] = {{"chosen", truncation_name(truncation.truncation)},
                                      {"expected_draws_per_point", truncation.expected_draws},
                                      {"corner_draws", truncation.corner_draws},
                                      {"limit", truncation.limit},
                                      {"reason", truncation.reason}};
    if (data.n * data.d <= kReleaseLimit) {
      nlohmann::json pts = nlohmann::json::array();
      for (std::size_t i = 0; i < data.n; ++i)
        pts.push_back(std::vector<double>(z.begin() + static_cast<std::ptrdiff_t>(i * data.d),
                                          z.begin() + static_cast<std::ptrdiff_t>((i + 1) * data.d)));
      r.release["points"] = std::move(pts);
    } else {
      r.release["points"] =
          "not stored: n * d = " + std::to_string(data.n * data.d) + " > " + std::to_string(kReleaseLimit);
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
    if (res.probed) {
      r.evaluation["gi_max_log_ratio"] = res.gi.max_log_ratio;
      r.evaluation["gi_max_lower_bound"] = res.gi.max_lower_bound;
      r.evaluation["gi_bound"] = res.gi.bound;
      r.evaluation["gi_events"] = res.gi.events;
      r.evaluation["gi_violated"] = res.gi.violated ? 1 : 0;
      r.evaluation["p_area_radius"] = res.area.radius;
      r.evaluation["p_area_volume"] = res.area.volume;
    }
    res.released = std::move(z);
    r.non_private_notes = mech.non_private_notes();
    r.details = std::move(res);
    return r;
  }
};

}  // namespace

const MethodInfo& nd_laplace_method_info() {
  static const MethodInfo info = [] {
    MethodInfo m;
    m.name = kNdLaplaceMethod;
    m.summary =
        "nD-Laplace (geo-indistinguishability) local perturbation of every point, then K-Means / Affinity "
        "Propagation / DBSCAN on the standard-scaled perturbed data";
    m.reference =
        "van der Ende, nD-Laplace thesis draft: Sec. 3.1 (planar Laplace, Eq. 3.3), Alg. 1 (truncation), "
        "Alg. 2, Sec. 5.3; Andres et al. CCS 2013 (geo-indistinguishability)";
    m.differentially_private = true;
    m.local_privacy = true;
    m.releases = "every point perturbed (and the clustering computed from the perturbed points alone)";
    m.private_when = "resampling_budget: halve (or truncation remap / none)";  // metric (geo-indistinguishability)
                                                                               // guarantee per record: a local ledger
    m.needs_bounds = true;                                                     // truncation to the public domain
    m.params = {
        real_param(
            "epsilon", std::nullopt,
            "geo-indistinguishability level: the privacy level l reached at distance `radius` (eps = l / r, "
            "thesis Sec. 3.1.3); with radius 1 the rate per unit distance; at least 1e-6 (a denormal level has no "
            "finite noise scale)",
            1e-6),
        real_param("radius", 1.0, "radius r in data units at which the level `epsilon` holds; rate = epsilon / radius",
                   0.0, std::nullopt, true),
        privacy::sampler_param(),
        choice_param(
            "continuous_sampler", "auto", {"auto", "planar", "nd"},
            "the continuous noise of sampler: textbook: planar = polar Laplace with the Lambert W_-1 inverse CDF "
            "(thesis Eq. 3.3, d = 2 only); nd = Gamma(d, 1/eps) radius and uniform direction; auto = planar for "
            "d = 2, nd otherwise"),
        real_param("grid_step", 0.0,
                   "sampler: secure: step u of the grid the reports lie on (data units); 0 = auto (1/100 of the noise "
                   "scale, at most 1/1000 of the domain's narrowest side)",
                   0.0),
        choice_param(
            "truncation", "auto", {"auto", "resample", "remap", "none"},
            "keeping reports in the domain: resample (thesis Alg. 1), remap to the nearest admissible point "
            "(Andres et al. step 5), none; auto = resample when its expected draws per point and 2^d are at most "
            "max_retries / 10 (or under resampling_budget: thesis), else remap (recorded in the release)"),
        choice_param(
            "resampling_budget", "halve", {"halve", "thesis"},
            "reading of epsilon under truncation: resample (the normaliser of the truncated noise depends on x, "
            "which doubles the guarantee): halve = draw at epsilon / 2 so the release is epsilon-geo-"
            "indistinguishable; thesis = draw at epsilon as the thesis does (the release is only 2 epsilon-geo-"
            "indistinguishable; flagged non-private). The secure grid sampler always draws at epsilon / 2 "
            "otherwise"),
        int_param("max_retries", 10000, "noise draws allowed per point under truncation = resample, at most 1e6", 1,
                  1'000'000),
        choice_param("cluster", "kmeans", {"kmeans", "affinity", "dbscan"},
                     "clustering algorithm run on the perturbed data (and on the original data by *_vs_original)"),
        gives(int_param("k", 4, "number of clusters for K-Means (thesis dataset 1 has 4 centres)", 1), "k"),
        int_param("n_init", 10,
                  "K-Means restarts (scikit-learn 1.0's default n_init = 10, which the thesis used), at most 1e4", 1,
                  kKMeansMaxInit),
        real_param("damping", 0.5, "Affinity Propagation damping (thesis Table 5.2: 0.5)", 0.5, 1.0, false, true),
        choice_param("preference", "median", {"median", "minimum"},
                     "Affinity Propagation preference: median similarity (thesis Table 5.2) or the minimum"),
        int_param("ap_max_iter", 200,
                  "Affinity Propagation iterations at most (sklearn default 200), at most 1e6; without "
                  "convergence every label is -1",
                  1, kAffinityMaxIter),
        real_param("alpha", 0.5, "DBSCAN radius (sklearn eps) in the units of the (scaled) clustering input", 0.0,
                   std::nullopt, true),
        int_param("min_pts", 4, "DBSCAN MinPts (thesis Table 5.3: 2 * d, i.e. 4 for d = 2)", 1),
        bool_param("scale_after", true, "standard-scale before clustering, after the perturbation (thesis Sec. 5.3.3)"),
        choice_param("pe_pairs", "perturbed", {"perturbed", "original", "cross", "self"},
                     "what the average p_e of Table 5.4 averages over: all pairs of perturbed points (diagonal "
                     "included), of original points, original x perturbed, or each point with its own report"),
        int_param("pe_max_pairs", 4000000,
                  "average p_e exactly when n^2 <= this, else from this many random pairs; at most 1e9", 1,
                  1'000'000'000),
        int_param(
            "privacy_probe_draws", 0,
            "evaluation only (metrics gi_ratio, gi_violation, p_area_radius): reports drawn for each of two probe "
            "inputs, the public box's centre c and c + gi_distance e_1, to check geo-indistinguishability (thesis "
            "Eq. 3.1) and P_area (Eq. 3.4); never released; 0 = off; at most 1e7",
            0, 10'000'000),
        real_param("gi_distance", 0.0,
                   "distance d(x, x') of the probe pair in data units (0 = radius); at most half the box's first side",
                   0.0),
        int_param("elbow_k_max", 10, "largest k of the elbow plot of metric elbow_k_original (thesis Table 5.1)", 2,
                  1000),
    };
    m.make = [] { return std::make_unique<NdLaplaceMethod>(); };
    m.cost.trial = trial_cost;
    m.cost.limits = sampler_limits;
    m.python_estimator = "transform.NDLaplace";
    m.check_shape = [](const ParamSet& p, const DataShape& shape) {
      const double rate = p.real("epsilon") / p.real("radius");
      if (!(std::isfinite(rate) && rate >= 1e-12))
        throw InputError("params.radius",
                         "the noise rate epsilon / radius = " + short_number(p.real("epsilon")) + " / " +
                             short_number(p.real("radius")) +
                             " is not finite or below 1e-12 per data unit: the noise "
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

}  // namespace dpclust::ndlaplace

namespace dpclust {

MethodFolder ndlaplace_folder() { return {{ndlaplace::nd_laplace_method_info()}, ndlaplace::nd_laplace_metrics()}; }

}  // namespace dpclust
