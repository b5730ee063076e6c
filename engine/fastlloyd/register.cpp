// The method "fastlloyd"; see register.hpp and fastlloyd.hpp.
#include "fastlloyd/register.hpp"

#include <memory>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/named_choice.hpp"
#include "fastlloyd/cost.hpp"
#include "privacy/mechanism.hpp"

namespace dpclust::fastlloyd {
namespace {

using nlohmann::json;

json plan_json(const FastLloydResult& r, Noise noise) {
  json steps = json::array();
  for (const IterationPlan& p : r.plan) {
    json s = {{"radius", std::isinf(p.radius) ? json(nullptr) : json(p.radius)},
              {"sum_scale", p.sum_scale},
              {"count_scale", p.count_scale},
              {"grid_exponent", p.grid.exponent},
              {"sum_sensitivity_units", p.grid.sensitivity},
              {"rounding_share_of_sensitivity", p.grid.rounding_share}};
    if (noise == Noise::laplace) {
      s["epsilon_sum"] = p.epsilon_sum;
      s["epsilon_count"] = p.epsilon_count;
    } else {
      s["share_sum"] = p.share_sum;
      s["share_count"] = p.share_count;
    }
    steps.push_back(std::move(s));
  }
  return steps;
}

class FastLloydMethod final : public Method {
 public:
  MethodResult run(const Dataset& data, const ParamSet& p, Rng& rng, BudgetLedger& ledger) const override {
    FastLloydOptions o = options_of(p);
    o.labels = labels_needed();
    FastLloydResult r = fastlloyd(data.coords.data(), data.n, data.d, data.bounds, o, rng, ledger);
    MethodResult out;
    out.labels = r.labels;
    out.labels_are_release = false;
    out.centres = r.centres;
    out.non_private_notes = r.non_private_notes;
    out.release = {{"centers", rows_json(r.centres)}, {"noisy_counts", r.noisy_counts}};
    if (r.iteration_source == IterationSource::noisy_n) out.release["n_estimate"] = r.noisy_n;
    // Public: the parameters' plan (T is a function of the noisy N, n_public or, flagged, the true n).
    out.diagnostics = {{"iterations", r.iterations},
                       {"iteration_source", to_string(r.iteration_source)},
                       {"noise", to_string(o.noise)},
                       {"radius_rule", to_string(o.radius_rule)},
                       {"variant", to_string(o.variant)},
                       {"epsilon_n", r.epsilon_n},
                       {"epsilon_iterations", r.epsilon_iterations},
                       {"initial_centers", rows_json(r.initial_centres)},
                       {"plan", plan_json(r, o.noise)}};
    if (o.noise == Noise::gaussian) out.diagnostics["unit_sigma"] = r.unit_sigma;
    out.evaluation = {{"unassigned_per_iteration", r.unassigned}, {"clamped_points", r.clamped_points}};
    if (o.labels) out.evaluation["inertia"] = r.inertia;
    out.details = std::move(r);
    return out;
  }
};

}  // namespace

FastLloydOptions options_of(const ParamSet& p) {
  FastLloydOptions o;
  o.k = static_cast<std::size_t>(p.integer("k"));
  o.epsilon = p.real("epsilon");
  o.sampler = privacy::sampler_of(p);
  o.noise = kind_of(kNoises, p, "noise");
  // Pure eps-DP noise leaves a delta set for the dataset or experiment unused, so that one dataset-level delta serves
  // every (eps, delta) method of a config (docs/config.md); check_options refuses a Laplace delta given to the library.
  o.delta = o.noise == Noise::laplace ? 0.0 : p.real("delta");
  o.radius_rule = kind_of(kRadiusRules, p, "radius_rule");
  o.alpha = p.real("radius_alpha");
  o.rho = p.real("split_rho");
  o.post = kind_of(kPosts, p, "post");
  o.clip_moves = p.boolean("clip_moves");
  o.iterations = p.integer("iterations");
  o.n_source = kind_of(kSizeSources, p, "n_source");
  o.n_fraction = p.real("n_fraction");
  o.n_public = static_cast<std::uint64_t>(p.integer("n_public"));
  o.variant = kind_of(kVariants, p, "variant");
  const RealVector init = as_vector(p.get("initial_centers"));
  if (!init.empty()) {
    if (init.size() % o.k != 0)
      throw InputError("params.initial_centers",
                       "initial_centers holds " + std::to_string(init.size()) +
                           " numbers, not a multiple of k = " + std::to_string(o.k),
                       "give k rows of d coordinates, row-major");
    const std::size_t d = init.size() / o.k;
    o.initial_centres = RowMatrix(static_cast<Eigen::Index>(o.k), static_cast<Eigen::Index>(d));
    for (std::size_t i = 0; i < init.size(); ++i)
      o.initial_centres(static_cast<Eigen::Index>(i / d), static_cast<Eigen::Index>(i % d)) = init[i];
  }
  return o;
}

const MethodInfo& fastlloyd_method_info() {
  static const MethodInfo info = [] {
    // The parameters' defaults are the options' (fastlloyd.hpp), declared there once.
    const FastLloydOptions defaults;
    MethodInfo m;
    m.name = "fastlloyd";
    m.releases_centres = true;
    m.summary =
        "FastLloyd's central DP k-means: Lloyd iterations whose clusters keep the points within a radius of their "
        "centre and whose updates are noisy sums of offsets from it; analytic Gaussian (default) or Laplace noise";
    m.reference =
        "Diaa, Humphries & Kerschbaum, FastLloyd, USENIX Security 2025 (arXiv 2405.02437); D-Diaa/FastLloyd "
        "(central path; the federated protocol is out of scope)";
    m.releases = "the k centres, every iteration's noisy counts (and the noisy N when the iteration rule runs on it)";
    m.private_when = "variant: fastlloyd and n_source: noisy or public (or iterations > 0)";
    m.differentially_private = true;
    m.needs_bounds = true;
    m.relation = NeighbourRelation::add_remove;
    m.params = {
        real_param("epsilon", 1.0, "privacy budget (epsilon), at least 1e-6", 1e-6),
        gives(real_param(
                  "delta", defaults.delta,
                  "delta of (eps, delta)-DP for noise: gaussian (the authors: 1 / (n ln n) of the true n; give it on a "
                  "public n to match them); noise: laplace is pure eps-DP and leaves it unused",
                  0.0, 1.0, false, true),
              "delta", {{"0", InputSource::none, "pure eps-DP (noise: laplace)"}}),
        privacy::sampler_param(),
        gives(int_param("k", std::nullopt, "number of clusters (k)", 1), "k"),
        selects(
            choice_param(
                "noise", to_string(defaults.noise), names_of(kNoises),
                "noise of the sums and counts: gaussian = one analytic Gaussian budget split over all the iterations "
                "(the "
                "authors' FastLloyd; discrete Gaussian through zCDP when sampler is secure); laplace = eps / T per "
                "iteration "
                "split d : cbrt(4 d rho^2) between the sums and the counts (Su et al.'s split, the authors' SuLloyd)"),
            "delta",
            {{"laplace", InputSource::none, "pure eps-DP noise: delta not used"},
             {"gaussian", InputSource::public_value, ""}}),
        choice_param(
            "radius_rule", to_string(defaults.radius_rule), names_of(kRadiusRules),
            "radius r_i of the clusters in [-1, 1]^d (the authors' max_dist method): diagonal_then_frac = sqrt(d) in "
            "iteration 1, then 2 sqrt(d) frac, frac = radius_alpha / (2 k^(1/d)); frac_stay = 2 sqrt(d) frac always; "
            "none = no radius and absolute sums (the authors' SuLloyd / GLloyd baselines)"),
        real_param("radius_alpha", kDefaultAlpha,
                   "alpha of the radius rule's frac = alpha / (2 k^(1/d)) (the authors' --alpha, 0.8)", 0.0,
                   std::nullopt, true),
        real_param("split_rho", kDefaultRho,
                   "rho of Su et al. (0.225): in the Laplace split d : cbrt(4 d rho^2), the Gaussian split without a "
                   "radius and "
                   "the iteration rule",
                   0.0, std::nullopt, true),
        choice_param("post", to_string(defaults.post), names_of(kPosts),
                     "post-processing of every centre coordinate after an update: fold = reflected into the domain "
                     "(the authors' default), "
                     "truncate = clipped to it, none"),
        bool_param(
            "clip_moves", defaults.clip_moves,
            "whether a centre moves at most r_i per iteration when there is a radius (the authors' clip_distance)"),
        gives(int_param("iterations", 0,
                        "Lloyd iterations T, at most 1000; 0 = the authors' rule int(max(min(t, 7), 2)) "
                        "(calculate_iters) on the "
                        "N of n_source",
                        0, kMaxIterationsParam),
              "iterations", {{"0", InputSource::rule, "the authors' calculate_iters on the N of n_source"}}),
        selects(choice_param("n_source", to_string(defaults.n_source), names_of(kSizeSources),
                             "source of N, the iteration rule's number of points (iterations: 0): noisy = a Laplace "
                             "count with n_fraction of epsilon; "
                             "public = n_public; data = the true n (the authors'; flagged non-private)"),
                "n",
                {{"noisy", InputSource::private_estimate, "a Laplace count with n_fraction of epsilon"},
                 {"public", InputSource::public_value, "n_public (n_source: public)"},
                 {"data", InputSource::data, "the true n (n_source: data, flagged)"}}),
        real_param("n_fraction", kDefaultSizeFraction,
                   "share of epsilon for the noisy N (n_source: noisy, iterations: 0), in (0, 1)", 0.0, 1.0, true,
                   true),
        gives(int_param("n_public", 0,
                        "public number of points: N of the iteration rule when n_source is public (at most 2^52)", 0,
                        std::int64_t{1} << 52),
              "n", {{"0", InputSource::none, "no public n"}}),
        real_vector_param(
            "initial_centers", RealVector{},
            "public initial centres, row-major k x d {values: [x1, y1, x2, y2, ...]}, inside the bounds; empty = "
            "the authors' data-independent draw (init_centroids)"),
        choice_param("variant", to_string(defaults.variant), names_of(kVariants),
                     "implementation: fastlloyd = every use of randomness its own stream, exact noise; authors = the "
                     "authors' noise as their "
                     "server.py draws it (iteration i's sums and counts from seed x i, truncated toward zero; an empty "
                     "cluster counted 1; division by N~ + 1e-9), sampler: textbook only, flagged non-private"),
    };
    m.non_private_counterpart = "kmeans";
    m.make = [] { return std::make_unique<FastLloydMethod>(); };
    m.cost.trial = trial_cost;
    m.python_estimator = "cluster.FastLloyd";
    m.check_shape = [](const ParamSet& p, const DataShape& shape) {
      check_at_most_points(p, shape, "k", "clusters");
      const FastLloydOptions o = options_of(p);
      check_options(o);
      if (!shape.d || *shape.d == 0) return;
      if (o.initial_centres.size() > 0 && static_cast<std::size_t>(o.initial_centres.cols()) != *shape.d)
        throw InputError("params.initial_centers",
                         "initial_centers holds " + std::to_string(o.initial_centres.size()) +
                             " numbers, not k x d = " + std::to_string(o.k) + " x " + std::to_string(*shape.d),
                         "give k rows of d coordinates, row-major");
      // The exact samplers' limits at the planned T, or at the rule's largest (its noise is the largest).
      const std::int64_t planned = planned_iterations(o, *shape.d);
      plan_iterations(o, *shape.d, planned > 0 ? planned : kMaxIterations, iterations_epsilon(o));
    };
    return m;
  }();
  return info;
}

}  // namespace dpclust::fastlloyd

namespace dpclust {

MethodFolder fastlloyd_folder() { return {{fastlloyd::fastlloyd_method_info()}, {}}; }

}  // namespace dpclust
