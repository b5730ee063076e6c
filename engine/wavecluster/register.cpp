// The catalog entries of the DP WaveCluster reproduction (Chen, Yu, Chirkova; arXiv/KDD): five methods
// (mechanism.hpp runs them) and the paper's measures (paper_metrics.hpp). Every method declares the same
// WaveCluster parameters, plus the parameters of the cross-validated metrics (the runner hands a metric the
// cell's method parameters, so cv_folds, the C4.5 options and c0_grids live there).
#include "wavecluster/register.hpp"

#include <any>
#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <utility>

#include "core/error.hpp"
#include "privacy/mechanism.hpp"
#include "wavecluster/choice.hpp"
#include "wavecluster/cost.hpp"
#include "wavecluster/grid.hpp"
#include "wavecluster/mechanism.hpp"
#include "wavecluster/paper_metrics.hpp"
#include "wavecluster/privthr_em.hpp"
#include "wavecluster/synopsis.hpp"

namespace dpclust {

namespace {

using namespace dpclust::wavecluster;

std::vector<ParamSpec> wavecluster_params() {
  ParamSpec g;
  g.name = "g";
  g.type = ParamType::real_vector;
  g.description =
      "num_grid g: grid cells per dimension over the public domain (arXiv Sec. 3.2), whole numbers in [2, 1e7]; the "
      "grid (g^d cells in all) may have at most 2^28 cells, checked once the data dimension is known";
  g.min = 2;
  g.max = 1e7;
  g.whole = true;
  return {
      gives(g, "grid"),
      gives(real_param("p", std::nullopt,
                       "density threshold p: share of the positive transformed values that are not significant, k = "
                       "ceil((1-p)|L|)",
                       0.0, 1.0, false, true),
            "density_threshold"),
      choice_spec(
          "wavelet", Wavelet::haar,
          "wavelet of the transform (the paper's experiments: haar; bior2.2 = CDF 5/3 as in the authors' code; db2 = "
          "Daubechies 4-tap, named in the arXiv text)"),
      int_param("level", 1, "wavelet decomposition level (the paper: 1)", 1, 10),
      choice_spec("boundary", Boundary::zero,
                  "signal extension at the domain border (matters for bior2.2 and db2, and for Haar with odd g)"),
      choice_param("connectivity", "full", {"full", "face"},
                   "adjacency of significant cells: full = corner-touching cells too (8 in 2D, SPEC.md), face = shared "
                   "faces only"),
      choice_param("ties", "include", {"include", "exclude", "index"},
                   "cells tied with the k-th largest value: include (>= d, percentile reading), exclude (> d, literal "
                   "pseudocode prose), index (exactly k, lower cell index first)"),
      int_param("cv_folds", 10, "OCM/2CE: cross-validation folds (the authors: 10, train 90% / test 10%)", 2, 1000),
      bool_param("c45_pruning", false,
                 "OCM/2CE: prune the C4.5 trees (J48 default); the authors ran J48 -U (unpruned)"),
      real_param("c45_cf", 0.25, "OCM/2CE: C4.5 pruning confidence CF (J48 -C), used when c45_pruning", 0.0, 0.5, true,
                 false),
      int_param("c45_min_leaf", 2, "OCM/2CE: minimum instances per C4.5 leaf (J48 -M)", 1),
      choice_param(
          "c0_grids", "all", {"all", "positive"},
          "OCM/2CE: non-significant cells used as C0 training instances: all cells of the average subband, or only "
          "those with a positive value"),
      // The authors' code (measures.hpp ocm_authors, weka_folds.hpp); the defaults are the paper's reading.
      choice_spec(
          "ocm_matching", OcmMatching::max_intersection,
          "OCM: max_intersection = Hungarian matching maximising the common test points (Sec. 6.2); "
          "authors_set_difference = the authors' code (UsefulnessHungarianMapping...IncludingC0.java): Hungarian "
          "on the minimum set difference max(|Ci\\Cj|, |Cj\\Ci|), then the matched intersections counted"),
      choice_spec(
          "ocm_folds", CvFolds::dpclust,
          "OCM/2CE folds: dpclust = shuffled with the trial's seed; weka = the authors' fixed folds "
          "(CrossValidationSingleRunUsingGridTraining.java: Weka randomize(new Random(1)) + stratify on the labels)"),
  };
}

// Bounded to [1e-6, 1e6]: below, the Laplace scales (1/eps per cell) reach astronomical counts (5e-324 never
// terminates); above, Baseline's grid-size formulas (N eps / c) overflow.
ParamSpec epsilon_param() {
  return real_param(
      "epsilon", std::nullopt,
      "privacy budget (epsilon), in [1e-6, 1e6]: smaller gives unbounded noise, larger overflows the grid sizes", 1e-6,
      1e6);
}

// g against the dimension: one entry per dimension, and at most 2^28 cells in all (g^d), before any
// trial allocates the grid (MethodInfo::check_shape).
void check_grid_shape(const ParamSet& p, const DataShape& shape) {
  // Budget splits: every part of epsilon a mechanism spends must keep a finite noise scale (a rho of
  // 5e-324 would leave eps1 = rho eps denormal, as epsilon itself is bounded below by 1e-6).
  if (p.has("epsilon")) {
    const double eps = p.real("epsilon");
    auto part = [&](const char* key, double share) {
      if (share > 0 && eps * share < 1e-9)
        throw InputError(std::string("params.") + key,
                         std::string(key) + " leaves a share of epsilon of " + short_number(eps * share) +
                             " (below 1e-9) for one of the mechanism's steps: its noise would have no usable scale",
                         std::string("choose ") + key + " so that every share of epsilon is at least 1e-9");
    };
    if (p.has("rho")) {
      part("rho", p.real("rho"));
      part("rho", 1 - p.real("rho"));
    }
    if (p.has("n_share")) {
      part("n_share", p.real("n_share"));
      part("n_share", 1 - p.real("n_share"));
    }
    if (p.has("ag_alpha")) {
      part("ag_alpha", p.real("ag_alpha"));
      part("ag_alpha", 1 - p.real("ag_alpha"));
    }
  }
  if (p.has("ag_variant") && p.has("synopsis") && p.string("ag_variant") == "flat_origin" &&
      p.string("synopsis") != "adaptive")
    throw InputError(
        "params.ag_variant",
        "ag_variant: flat_origin is a variant of the adaptive grid, not of synopsis: " + p.string("synopsis"),
        "use synopsis: adaptive with ag_variant: flat_origin, or ag_variant: paper");
  if (!shape.d) return;
  const std::size_t d = *shape.d;
  const ParamValue& g = p.get("g");
  if (std::holds_alternative<RealVector>(g) && std::get<RealVector>(g).size() != d)
    throw InputError("params.g",
                     "g has " + std::to_string(std::get<RealVector>(g).size()) +
                         " per-dimension entries but dataset '" + shape.dataset + "' has " + std::to_string(d) +
                         " dimensions",
                     "give one entry per coordinate column, g: {per_dim: [...]} of length " + std::to_string(d) +
                         ", or one number for every dimension");
  std::vector<std::size_t> dims;
  for (double x : p.per_dim("g", d)) dims.push_back(static_cast<std::size_t>(x));
  checked_cell_count(dims);  // InputError("params.g", ...) beyond 2^28 cells
  // Baseline's adaptive synopsis has at least 10 cells per dimension at its first level (Qardaji et al.'s
  // m1 = max(10, ...)): 10^d cells, over the synopsis cap past 7 dimensions whatever epsilon is.
  if (p.has("synopsis") && p.string("synopsis") == "adaptive") {
    std::size_t fit = 0;
    for (std::size_t cells = 1; fit < d && cells * 10 <= kSynopsisMaxCells; cells *= 10) ++fit;
    if (fit < d)
      throw InputError(
          "params.synopsis",
          "the adaptive synopsis (Qardaji et al.'s grid, at least 10 cells per dimension) has at least 10^" +
              std::to_string(d) + " cells in " + std::to_string(d) + " dimensions, over its cap of " +
              std::to_string(kSynopsisMaxCells) + " cells",
          "synopsis: uniform (its cells per dimension shrink with d), or fewer columns: at most " +
              std::to_string(fit) + " fit (list them in `columns`, or project the data)");
  }
}

MethodInfo info(std::string name, std::string summary, std::string reference, bool priv, std::vector<ParamSpec> extra) {
  MethodInfo m;
  m.name = name;
  m.summary = std::move(summary);
  m.reference = std::move(reference);
  m.differentially_private = priv;
  m.needs_bounds = true;  // the grid is laid over the public domain
  // Sensitivities are argued for one record added or removed (arXiv Sec. 4.2); central, pure DP.
  m.relation = NeighbourRelation::add_remove;
  m.local_privacy = false;
  m.params = wavecluster_params();
  if (priv) {
    m.params.push_back(epsilon_param());
    m.params.push_back(privacy::sampler_param());
  }
  for (auto& p : extra) m.params.push_back(std::move(p));
  m.make = [name] { return std::unique_ptr<Method>(make_mechanism(name)); };
  m.check_shape = check_grid_shape;
  const bool synthetic_points = name == "wc_baseline";
  m.cost.trial = [synthetic_points](const CostInputs& in) { return trial_cost(in, synthetic_points); };
  m.cost.advice = cost_advice;
  return m;
}

}  // namespace

// The grid mechanisms' release_counts (declared once for PrivQT, PrivTHR, PrivTHR_EM).
ParamSpec release_counts_param() {
  return bool_param(
      "release_counts", false,
      "also put the noisy count matrix M' in the release (row-major; grids of at most 2^20 cells; no extra "
      "privacy cost: the cells are computed from it), e.g. for `dpclust audit`");
}

// What each WaveCluster method releases and when that release is private (MethodInfo::releases, the
// docs/privacy.md's method table).
void describe_release(MethodInfo& m) {
  const std::string cells = "the significant cells of the (noisy) transformed grid and their cluster ids";
  const std::string counts = "; with release_counts the noisy count matrix M'";
  if (m.name == "wavecluster")
    m.releases = "the significant cells and clusters of the true data", m.private_when = "never";
  if (m.name == "wc_baseline")
    m.releases = "the DP synopsis' sizes and " + cells, m.private_when = "n_share > 0 and ag_variant: paper";
  if (m.name == "privqt") m.releases = cells + counts, m.private_when = "always";
  if (m.name == "privthr") m.releases = cells + " (k' from the noisy |Z|)" + counts, m.private_when = "always";
  if (m.name == "privthr_em")
    m.releases = cells + " and the threshold d', a point of the public lattice threshold_grid" + counts,
    m.private_when = "em_upper > 0, threshold_output: lattice, em_repeats_budget: split";
}

std::vector<MethodInfo> wavecluster_methods() {
  const std::string ref = "Chen, Yu, Chirkova, WaveCluster with Differential Privacy (KDD 2015 / arXiv)";
  std::vector<MethodInfo> methods{
      info("wavecluster",
           "WaveCluster (non-private): quantize, wavelet transform, top-k significant grids, connected components",
           "Sheikholeslami et al. VLDB 1998; " + ref + ", Sec. 3.2", false, {}),
      info("wc_baseline", "Baseline: DP synopsis (adaptive grid) -> synthetic points -> WaveCluster",
           ref + ", arXiv Alg. Baseline (Sec. 4.1); Qardaji, Yang, Li ICDE 2013", true,
           {choice_param("synopsis", "adaptive", {"adaptive", "uniform"},
                         "DP synopsis: Qardaji et al.'s adaptive grid (the paper) or uniform grid"),
            real_param("ag_c", 10.0,
                       "Qardaji et al.'s constant c in the grid sizes (c2 = c/2), in [1e-3, 1e6]: a tiny c makes the "
                       "grids N eps / c cells wide",
                       1e-3, 1e6),
            real_param("ag_alpha", 0.5, "adaptive grid: share of the grid budget for the first level (alpha)", 0.0, 1.0,
                       true, true),
            selects(real_param("n_share", 0.05,
                               "share of epsilon spent on the noisy record count N for the grid sizes (0: true N, "
                               "flagged non-private)",
                               0.0, 1.0, false, true),
                    "n", {{"0", InputSource::data, "the true N (n_share: 0, flagged)"}}),
            selects(
                choice_spec(
                    "ag_variant", AgVariant::paper,
                    "adaptive grid: paper = Qardaji et al. as the paper describes it; flat_origin = the authors' "
                    "flat_origin.py (m1 = 10, a cell split only when its noisy count >= 4 c2, leaf counts truncated, "
                    "no noisy N: n_share unused, grid over the data's box: flagged non-private)"),
                "bounds",
                {{"flat_origin", InputSource::data,
                  "the grid over the data's own bounding box (ag_variant: flat_origin, flagged)"}})}),
      info("privqt", "PrivQT: Laplace noise on every cell of the count matrix, then WaveCluster",
           ref + ", arXiv Alg. PrivQT (Sec. 4.2)", true, {release_counts_param()}),
      info("privthr", "PrivTHR: PrivQT counts plus a noisy |Z| to drop |Z|'/2 noisy positive values before k'",
           ref + ", Algorithm 1 (Sec. 4.3)", true,
           {real_param("rho", 0.9, "budget split rho: eps1 = rho eps on the counts, eps2 = (1-rho) eps on |Z|", 0.0,
                       1.0, true, true),
            release_counts_param()}),
      info(
          "privthr_em", "PrivTHR_EM: PrivQT counts plus a significance threshold by the exponential mechanism",
          ref + ", Algorithm 2 (Sec. 4.4)", true,
          {real_param("rho", 0.7, "budget split rho: eps1 = rho eps on the counts, eps2 = (1-rho) eps on the threshold",
                      0.0, 1.0, true, true),
           gives(real_param(
                     "em_upper", 0.0,
                     "public upper end of the threshold range (0, em_upper]; 0 = the largest true value, as the paper "
                     "defines it (data-dependent: the result is flagged non-private)",
                     0.0),
                 "threshold_range",
                 {{"0", InputSource::data, "the largest true transformed value (em_upper: 0, flagged)"}}),
           int_param("em_repeats", 1,
                     "threshold draws averaged: 1 = the paper's single draw (Alg. 2 line 12); the authors' code "
                     "(ExponentialMech.noisyPercentileValue) averages 10",
                     1, 1000),
           choice_spec(
               "em_repeats_budget", EmRepeatsBudget::split,
               "budget of em_repeats > 1 draws: split = eps2 / em_repeats each (eps-DP); authors = eps2 each, as "
               "their code (real cost em_repeats x eps2, recorded in the ledger, result flagged non-private)"),
           choice_spec(
               "threshold_output", ThresholdOutput::lattice,
               "threshold of Alg. 2 line 13: lattice = a point of the public lattice of spacing threshold_grid, "
               "chosen with exact probabilities (private); continuous = the paper's real-valued draw in doubles, "
               "which leaks through its low bits (flagged non-private; for comparing figures)"),
           int_param("lattice_bits", 20,
                     "threshold_output: lattice: the lattice has 2^(lattice_bits - 1) to 2^lattice_bits points in the "
                     "threshold range; its spacing threshold_grid is the power of two U / 2^lattice_bits rounded up",
                     1, 40),
           release_counts_param()}),
  };
  for (MethodInfo& m : methods) {
    describe_release(m);
    if (m.differentially_private) m.non_private_counterpart = "wavecluster";
    if (m.name == "wc_baseline")  // a noisy N with n_share of epsilon, unless n_share is 0 (the selector above)
      m.side_inputs = {
          {"n", InputSource::private_estimate, "a noisy record count N with n_share of epsilon (the grid sizes)"}};
  }
  const std::pair<const char*, const char*> estimators[] = {{"wavecluster", "cluster.WaveCluster"},
                                                            {"wc_baseline", "cluster.WCBaseline"},
                                                            {"privqt", "cluster.PrivQT"},
                                                            {"privthr", "cluster.PrivTHR"},
                                                            {"privthr_em", "cluster.PrivTHREM"}};
  for (MethodInfo& m : methods)
    for (const auto& [method, estimator] : estimators)
      if (m.name == method) m.python_estimator = estimator;
  return methods;
}

MethodFolder wavecluster_folder() { return {wavecluster_methods(), wavecluster_metrics()}; }

}  // namespace dpclust
