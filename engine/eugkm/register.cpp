// The eugkm and hybrid_kmeans methods: parameters, runs, results; see register.hpp.
#include "eugkm/register.hpp"

#include <cmath>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/named_choice.hpp"
#include "eugkm/cost.hpp"

namespace dpclust::eugkm {
namespace {

using nlohmann::json;

const Named<SizeSource> kSizeSources[] = {
    {"noisy", SizeSource::noisy}, {"public", SizeSource::public_n}, {"data", SizeSource::data}};
const Named<HybridFallback> kFallbacks[] = {{"auto", HybridFallback::automatic}, {"none", HybridFallback::none}};

constexpr std::int64_t kMaxGridSize = std::int64_t{1} << 31;
constexpr std::int64_t kMaxCellsParam = std::int64_t{1} << 28;

std::vector<ParamSpec> eugkm_params() {
  return {
      real_param(
          "epsilon", 1.0,
          "privacy budget (epsilon), at least 1e-6: the noisy count of N (n_fraction of it, n_source: noisy) and the "
          "noisy grid histogram (the rest)",
          1e-6),
      privacy::sampler_param(),
      gives(int_param("k", std::nullopt, "number of clusters (k)", 1), "k"),
      selects(choice_param(
                  "n_source", "noisy", names_of(kSizeSources),
                  "where the grid rule's number of points N comes from: noisy = a Laplace count with n_fraction of "
                  "epsilon; "
                  "public = n_public; data = the true n (the paper's analysis takes N as given; flagged non-private)"),
              "n",
              {{"noisy", InputSource::private_estimate, "a Laplace count with n_fraction of epsilon"},
               {"public", InputSource::public_value, "n_public (n_source: public)"},
               {"data", InputSource::data, "the true n (n_source: data, flagged)"}}),
      real_param("n_fraction", kDefaultSizeFraction, "share of epsilon for the noisy N (n_source: noisy), in (0, 1)",
                 0.0, 1.0, true, true),
      gives(int_param("n_public", 0,
                      "a public number of points: N of the grid rule when n_source is public (at most 2^52)", 0,
                      std::int64_t{1} << 52),
            "n", {{"0", InputSource::none, "no public n"}}),
      real_param("grid_constant", kGridConstant,
                 "theta of the grid rule m = floor((N eps / theta)^(2 / (2 + d))): 10, UG's c (Qardaji et al. 2013)",
                 0.0, std::nullopt, true),
      gives(int_param("grid_size", 0, "cells per dimension m instead of the grid rule; 0 = the rule", 0, kMaxGridSize),
            "grid", {{"0", InputSource::rule, "m = floor((N eps / 10)^(2/(2+d))) on the N above"}}),
      int_param(
          "max_grid_cells", static_cast<std::int64_t>(kDefaultMaxCells),
          "largest grid (m^d cells, about 16 bytes each): grid_size or the rule at n_public above it is refused before "
          "any work, a grid from the noisy (or true) N is capped to it; at most 2^28",
          1, kMaxCellsParam),
      int_param("n_init", 1,
                "k-means++ restarts on the synopsis (post-processing), the lowest weighted inertia kept, at most 1e4",
                1, kKMeansMaxInit),
      int_param("max_iter", 300, "Lloyd iterations per restart on the synopsis, at most 1e6", 1, kKMeansMaxIter),
      real_param("tol", 1e-4, "convergence tolerance of the synopsis' k-means (scikit-learn tol)", 0.0),
  };
}

std::size_t informative_of(const DataShape& shape) {
  if (!shape.bounds.empty() && (!shape.d || shape.bounds.dims() == *shape.d)) {
    std::size_t n = 0;
    for (std::size_t j = 0; j < shape.bounds.dims(); ++j) n += shape.bounds.hi[j] > shape.bounds.lo[j];
    return n;
  }
  return shape.d ? *shape.d : 0;
}

// The grid check before any work (check_shape): the rule's grid at N = n_public must fit in max_cells, with a
// fix that applies. Only public inputs decide it (planned_grid).
void check_grid(const EugkmOptions& o, double epsilon_histogram, const DataShape& shape) {
  const std::optional<GridSize> g = planned_grid(o, epsilon_histogram, shape);
  if (!g || g->cells <= o.max_cells) return;
  const std::size_t d = informative_of(shape);
  const std::int64_t fits = largest_cells_per_dim(d, o.max_cells);
  const bool huge = g->cells == std::numeric_limits<std::uint64_t>::max();
  const std::string cells = huge ? std::string("more than 1.8e19") : short_number(static_cast<double>(g->cells));
  std::string fix = "set grid_size: " + std::to_string(fits) + " (the largest m with m^" + std::to_string(d) +
                    " <= max_grid_cells; coarser than the rule)";
  if (!huge && g->cells <= static_cast<std::uint64_t>(kMaxCellsParam))
    fix += ", or raise max_grid_cells to " + std::to_string(g->cells) + " (about " +
           short_number(16.0 * static_cast<double>(g->cells) / 1048576.0) + " MiB for the counts)";
  throw InputError("params.max_grid_cells",
                   "EUGkM's grid rule (N eps / " + short_number(o.grid_constant) +
                       ")^(2 / (2 + d)) at N = n_public = " + std::to_string(o.n_public) +
                       " gives m = " + std::to_string(g->cells_per_dim) + " cells per dimension for dataset '" +
                       shape.dataset + "' (d = " + std::to_string(d) + "): " + cells +
                       " cells, above max_grid_cells = " + std::to_string(o.max_cells),
                   fix);
}

// The diagnostics of EUGkM's synopsis: public (the parameters, N~, and functions of the noisy histogram).
json grid_diagnostics(const EugkmResult& e) {
  return {{"cells_per_dim", e.grid.cells_per_dim},
          {"cells", e.grid.cells},
          {"grid_rule", e.grid.rule},
          {"grid_raised_for_k", e.grid.raised_for_k},
          {"grid_capped", e.grid.capped},
          {"positive_cells", e.positive_cells},
          {"smoothed", e.smoothed},
          {"epsilon_n", e.size.epsilon},
          {"epsilon_histogram", e.epsilon_histogram},
          {"synopsis_inertia", e.synopsis_inertia},
          {"kmeans_iterations", e.kmeans_iterations}};
}

void common_notes(const EugkmOptions& o, MethodResult& out) {
  if (o.sampler == privacy::Sampler::textbook) out.non_private_notes.push_back(privacy::kTextbookSamplerNote);
  if (o.n_source == SizeSource::data) out.non_private_notes.push_back(kTrueSizeNote);
}

// With n_source: data the grid (m, the cells, the rule's value) and everything computed on it or from N (the
// hybrid's plan, split and T) are functions of the true n, not public numbers: they move to the evaluation,
// and the diagnostics keep the parameter alone.
void keep_public_diagnostics(const EugkmOptions& o, MethodResult& out) {
  if (o.n_source != SizeSource::data) return;
  for (auto it = out.diagnostics.begin(); it != out.diagnostics.end(); ++it)
    if (it.key() != "n_source") out.evaluation[it.key()] = it.value();
  out.diagnostics = {{"n_source", to_string(o.n_source)}};
}

class EugkmMethod final : public Method {
 public:
  MethodResult run(const Dataset& data, const ParamSet& p, Rng& rng, BudgetLedger& ledger) const override {
    const EugkmOptions o = eugkm_options(p);
    EugkmResult r = eugkm(data.coords.data(), data.n, data.bounds, o, rng, ledger);
    MethodResult out;
    out.labels = r.labels;
    out.labels_are_release = false;
    common_notes(o, out);
    out.release = {{"centers", rows_json(r.centers)}};
    if (o.n_source == SizeSource::noisy) out.release["n_estimate"] = r.size.value;
    out.centres = r.centers;
    out.diagnostics = grid_diagnostics(r);
    out.diagnostics["n_source"] = to_string(o.n_source);
    out.evaluation = {{"inertia", r.inertia}, {"occupied_cells", r.occupied_cells}};
    keep_public_diagnostics(o, out);
    out.details = std::move(r);
    return out;
  }
};

class HybridMethod final : public Method {
 public:
  MethodResult run(const Dataset& data, const ParamSet& p, Rng& rng, BudgetLedger& ledger) const override {
    const HybridOptions o = hybrid_options(p);
    HybridResult r = hybrid_kmeans(data.coords.data(), data.n, data.bounds, o, rng, ledger);
    MethodResult out;
    out.labels = r.labels;
    out.labels_are_release = false;
    common_notes(o.eugkm, out);
    out.release = {{"centers", rows_json(r.centers)}};
    if (o.eugkm.n_source == SizeSource::noisy) out.release["n_estimate"] = r.size.value;
    if (r.eugkm) out.release["eugkm_centers"] = rows_json(r.eugkm->centers);  // DPLloyd's public starting point
    out.centres = r.centers;
    out.diagnostics = r.eugkm ? grid_diagnostics(*r.eugkm) : json::object();
    out.diagnostics["n_source"] = to_string(o.eugkm.n_source);
    out.diagnostics["plan"] = to_string(r.plan);
    out.diagnostics["epsilon_eugkm"] = r.epsilon_eugkm;
    out.diagnostics["epsilon_dplloyd"] = r.epsilon_dplloyd;
    out.diagnostics["epsilon_m"] = r.epsilon_m;
    out.diagnostics["grid_rule_at_share"] = r.grid_rule_at_share;
    out.diagnostics["dplloyd_iterations"] = r.iterations;
    out.evaluation = {{"inertia", r.inertia}};
    if (r.eugkm) out.evaluation["eugkm_inertia"] = r.eugkm_inertia;
    keep_public_diagnostics(o.eugkm, out);
    out.details = std::move(r);
    return out;
  }
};

MethodInfo base_info() {
  MethodInfo m;
  m.differentially_private = true;
  m.needs_bounds = true;
  m.relation = NeighbourRelation::add_remove;
  m.non_private_counterpart = "kmeans";
  return m;
}

}  // namespace

EugkmOptions eugkm_options(const ParamSet& p) {
  EugkmOptions o;
  o.k = static_cast<std::size_t>(p.integer("k"));
  o.epsilon = p.real("epsilon");
  o.sampler = privacy::sampler_of(p);
  o.n_source = kind_of(kSizeSources, p, "n_source");
  o.n_fraction = p.real("n_fraction");
  o.n_public = static_cast<std::uint64_t>(p.integer("n_public"));
  o.grid_constant = p.real("grid_constant");
  o.grid_size = p.integer("grid_size");
  o.max_cells = static_cast<std::uint64_t>(p.integer("max_grid_cells"));
  o.kmeans.n_init = p.integer("n_init");
  o.kmeans.max_iter = p.integer("max_iter");
  o.kmeans.tol = p.real("tol");
  // Exact pruning (KMeansOptions::triangle_pruning): the same centres double for double, fewer distances.
  o.kmeans.triangle_pruning = true;
  return o;
}

HybridOptions hybrid_options(const ParamSet& p) {
  HybridOptions o;
  o.eugkm = eugkm_options(p);
  o.eugkm_fraction = p.real("eugkm_fraction");
  o.iterations = p.integer("iterations");
  o.fallback = kind_of(kFallbacks, p, "fallback");
  return o;
}

double planned_histogram_epsilon(const EugkmOptions& o, const HybridOptions* hybrid) {
  const double shared = o.n_source == SizeSource::noisy ? o.epsilon * (1 - o.n_fraction) : o.epsilon;
  return hybrid ? hybrid->eugkm_fraction * shared : shared;
}

std::optional<GridSize> planned_grid(const EugkmOptions& o, double epsilon_histogram, const DataShape& shape) {
  if (!shape.d) return std::nullopt;
  const std::size_t d = informative_of(shape);
  if (o.grid_size > 0)
    return grid_size(1, epsilon_histogram, d, o.k, o.grid_constant, o.grid_size,
                     std::numeric_limits<std::uint64_t>::max());
  if (o.n_source != SizeSource::public_n || o.n_public == 0) return std::nullopt;
  return grid_size(static_cast<double>(o.n_public), epsilon_histogram, d, o.k, o.grid_constant, 0,
                   std::numeric_limits<std::uint64_t>::max());
}

std::optional<GridSize> expected_grid(const EugkmOptions& o, double epsilon_histogram, const DataShape& shape) {
  std::optional<GridSize> g = planned_grid(o, epsilon_histogram, shape);
  if (!g && shape.d && shape.n && *shape.n >= 1)
    g = grid_size(static_cast<double>(*shape.n), epsilon_histogram, informative_of(shape), o.k, o.grid_constant, 0,
                  std::numeric_limits<std::uint64_t>::max());
  if (g && g->cells > o.max_cells) {
    g->cells_per_dim = largest_cells_per_dim(informative_of(shape), o.max_cells);
    g->cells = grid_cells(g->cells_per_dim, informative_of(shape));
    g->capped = true;
  }
  return g;
}

const MethodInfo& eugkm_method_info() {
  static const MethodInfo info = [] {
    MethodInfo m = base_info();
    m.name = "eugkm";
    m.releases_centres = true;
    m.labels_are_nearest_centre = true;
    m.summary =
        "EUGkM: k-means on a noisy uniform grid histogram (m = floor((N eps / 10)^(2/(2+d))) cells per dimension), "
        "weighted by the noisy counts";
    m.reference =
        "Su, Cao, Li, Bertino, Lin & Jin, VLDB Journal 2017 (arXiv 1504.05998); grid rule from Qardaji, Yang & Li, "
        "ICDE 2013 (UG)";
    m.releases = "the k centres (and the noisy N when n_source is noisy)";
    m.private_when = "n_source: noisy or public";
    m.params = eugkm_params();
    m.make = [] { return std::make_unique<EugkmMethod>(); };
    m.cost.trial = [](const CostInputs& in) { return trial_cost(in, /*hybrid=*/false); };
    m.cost.advice = cost_advice;
    m.python_estimator = "cluster.EUGkM";
    m.check_shape = [](const ParamSet& p, const DataShape& shape) {
      check_at_most_points(p, shape, "k", "clusters");
      const EugkmOptions o = eugkm_options(p);
      if (shape.d) check_options(o, informative_of(shape));
      check_grid(o, planned_histogram_epsilon(o), shape);
    };
    return m;
  }();
  return info;
}

const MethodInfo& hybrid_kmeans_method_info() {
  static const MethodInfo info = [] {
    MethodInfo m = base_info();
    m.name = "hybrid_kmeans";
    m.releases_centres = true;
    m.labels_are_nearest_centre = true;
    m.summary =
        "EUGkM's centres improved by DPLloyd (dp_kmeans, variant dplloyd) with the rest of the budget; either step "
        "alone when the other cannot help";
    m.reference = "Su, Cao, Li, Bertino, Lin & Jin, VLDB Journal 2017 (arXiv 1504.05998), the hybrid approach";
    m.releases = "the k centres after DPLloyd (and EUGkM's centres, and the noisy N when n_source is noisy)";
    m.private_when = "n_source: noisy or public";
    m.params = eugkm_params();
    m.params.push_back(real_param("eugkm_fraction", kDefaultEugkmFraction,
                                  "EUGkM's share of the budget left after N, in (0, 1); DPLloyd gets the rest", 0.0,
                                  1.0, true, true));
    m.params.push_back(
        gives(int_param("iterations", 0,
                        "DPLloyd iterations T after EUGkM, at most 1e6; 0 = floor(eps_D / eps_m), at most 7 (eps_m: "
                        "sqrt(500 k^3 / N^2 (d + cbrt(4 d 0.225^2))^3))",
                        0, kKMeansMaxIter),
              "iterations", {{"0", InputSource::rule, "floor(eps_D / eps_m), at most 7, on the N above"}}));
    m.params.push_back(
        choice_param("fallback", "auto", names_of(kFallbacks),
                     "auto: EUGkM alone when T = 0, DPLloyd alone when EUGkM's grid at its share has fewer "
                     "than 2 cells per dimension; none: always both steps (T >= 1)"));
    m.make = [] { return std::make_unique<HybridMethod>(); };
    m.cost.trial = [](const CostInputs& in) { return trial_cost(in, /*hybrid=*/true); };
    m.cost.advice = cost_advice;
    m.python_estimator = "cluster.HybridKMeans";
    m.check_shape = [](const ParamSet& p, const DataShape& shape) {
      check_at_most_points(p, shape, "k", "clusters");
      const HybridOptions o = hybrid_options(p);
      if (shape.d) check_parameters(o.eugkm, informative_of(shape));
      if (!shape.d) return;
      // The grid of the planned run, from public inputs only (planned_grid): a fixed grid_size whatever the
      // plan; the rule at the hybrid's plan when N = n_public (so that EUGkM alone, T = 0, is checked at the
      // whole shared budget). With N~ or the true n the plan is the run's, which caps the grid (and runs DPLloyd
      // alone where the grid would have one cell a dimension: then no grid need hold k).
      if (o.eugkm.grid_size > 0) {
        check_grid(o.eugkm, planned_histogram_epsilon(o.eugkm), shape);
        return;
      }
      if (o.eugkm.n_source != SizeSource::public_n || o.eugkm.n_public == 0) return;
      const double shared = planned_histogram_epsilon(o.eugkm);
      const HybridSplit plan =
          plan_hybrid(o, static_cast<double>(o.eugkm.n_public), shared, *shape.d, informative_of(shape));
      if (plan.plan == HybridPlan::dplloyd_only) return;
      check_grid_hosts_k(o.eugkm, informative_of(shape));
      check_grid(o.eugkm, plan.epsilon_eugkm, shape);
    };
    return m;
  }();
  return info;
}

}  // namespace dpclust::eugkm

namespace dpclust {

MethodFolder eugkm_folder() { return {{eugkm::eugkm_method_info(), eugkm::hybrid_kmeans_method_info()}, {}}; }

}  // namespace dpclust
