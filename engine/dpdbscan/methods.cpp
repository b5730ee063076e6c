// Method adapters: parameters in, labels + release + diagnostics out; see methods.hpp.
#include "dpdbscan/methods.hpp"

#include <limits>
#include <memory>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "dpdbscan/dp_kmeans.hpp"
#include "dpdbscan/histogram.hpp"
#include "dpdbscan/pairwise.hpp"

namespace dpclust::dpdbscan {
namespace {

using nlohmann::json;

ParamSpec epsilon_param() {
  return real_param("epsilon", 1.0, "privacy budget (epsilon)", 0.0, std::nullopt, true);
}

HistogramChoice parse_histogram(const std::string& s) {
  if (s == "naive") return HistogramChoice::naive;
  if (s == "linear") return HistogramChoice::linear;
  return HistogramChoice::automatic;
}

StorageChoice parse_storage(const std::string& s) {
  if (s == "dense") return StorageChoice::dense;
  if (s == "sparse") return StorageChoice::sparse;
  return StorageChoice::automatic;
}

// Largest grid whose noisy histogram release_histogram writes into the release (two |X|-long lists).
constexpr std::uint64_t kReleaseHistogramMaxCells = std::uint64_t{1} << 20;

// release_histogram (figures, e.g. the paper's Figure 5 b-c): the noisy cell counts x~ of Alg. 1 line 5
// that this trial released, and the noisy neighbourhood sums S(X) of every cell (post-processing).
// dp_dbscan() frees its histogram, so it is rebuilt here from a copy of the trial's generator taken
// before the run: the grid and the histogram are the first (and only) things that draw from it, so
// the copy replays exactly the same noise. The replay is checked: its core cells must be the run's.
json histogram_release(const Dataset& data, const DpDbscanOptions& o, const DpDbscanResult& r, Rng replay) {
  const CellGrid& g = r.grid;
  if (!r.dense || g.universe > kReleaseHistogramMaxCells)
    throw InputError("params.release_histogram",
                     "release_histogram writes every cell of the grid, which has |X| = " + std::to_string(g.universe) +
                         " cells (" + (r.dense ? "dense" : "sparse") + " storage); at most 2^20 cells in dense storage",
                     "use release_histogram: false for this dataset, or a larger alpha / smaller domain");
  const Neighbourhood nb = alpha_neighbourhood(g.d, o.eta);
  const Noise noise(o.noise, o.epsilon, o.delta, o.bounded_dp);
  CellCounts counts = count_cells(g, data.coords.data(), data.n, true);
  NoisyHistogram hist = r.linear ? linear_histogram(counts, noise, r.theta, replay) : naive_histogram(counts, noise, replay);
  if (find_core_cells(g, nb, hist, r.threshold).codes != r.core.codes)
    throw std::logic_error("release_histogram: the replayed histogram does not give the run's core cells");
  // S(X) of every cell: the same row sums with a threshold every finite sum meets (the linear flag only
  // guards against thresholds <= 0, where unreleased regions would become core).
  hist.linear = false;
  CoreCells all = find_core_cells(g, nb, hist, -std::numeric_limits<double>::infinity());
  if (all.codes.size() != g.universe) throw std::logic_error("release_histogram: a neighbourhood sum is not finite");
  return {{"cells_per_dim", g.dims},
          {"order", "row-major over cells_per_dim (last dimension fastest), cell i_j spans the grid's cell_box"},
          {"noisy_counts", hist.dense_values},
          {"neighbourhood_sums", std::move(all.sums)},
          {"kappa", nb.kappa()},
          {"core_threshold", r.threshold},
          {"note", r.linear ? "linear-time histogram (Alg. 2): cells not released carry 0, as the mechanism counts them"
                            : "naive histogram (Thm 2.8): every cell released"}};
}

class DpDbscanMethod final : public Method {
 public:
  MethodResult run(const Dataset& data, const ParamSet& p, Rng& rng, BudgetLedger& ledger) const override {
    DpDbscanOptions o;
    o.alpha = p.real("alpha");
    o.min_pts = p.integer("min_pts");
    o.eta = p.real("eta");
    o.beta = p.real("beta");
    o.epsilon = p.real("epsilon");
    o.delta = p.real("delta");
    o.noise = parse_noise(p.string("noise"));
    o.histogram = parse_histogram(p.string("histogram"));
    o.storage = parse_storage(p.string("storage"));
    o.core_rule = p.string("core_rule") == "lemma_5_1" ? CoreRule::lemma_5_1 : CoreRule::minpts_prime;
    o.bounded_dp = p.string("neighbouring") == "bounded";
    o.theta = p.real("theta");
    if (o.theta < 0 && o.theta != -1)
      throw InputError("params.theta", "theta must be >= 0, or -1 for the automatic choice ln(|X|/n)/eps");
    o.theta_authors_code = p.string("theta_rule") == "authors_code";
    o.n_public = static_cast<std::uint64_t>(p.integer("n_public"));
    const bool release_histogram = p.boolean("release_histogram");
    std::optional<Rng> replay;  // release_histogram: a copy of the generator's state before the run
    if (release_histogram) replay.emplace(rng);

    DpDbscanResult r = dp_dbscan(data.coords.data(), data.n, data.bounds, o, rng, &ledger);

    MethodResult out;
    // Point labels by the span classifier (evaluation only; the runner flags them as not released).
    out.labels = SpanClassifier(r.grid, r.spans, r.dense).classify_all(data.coords.data(), data.n);
    out.labels_are_release = false;
    if (o.n_public == 0)
      out.non_private_notes.push_back(
          "the number of points n is treated as public for the histogram choice and theta, as the paper does; set n_public "
          "to a public value for a fully private release");
    out.release = spans_release(r);
    if (replay) out.release["histogram"] = histogram_release(data, o, r, *replay);
    out.diagnostics = {
        {"spans", r.spans.n_spans},
        {"core_cells", r.core.codes.size()},
        {"kappa", r.kappa},
        {"universe_cells", r.grid.universe},
        {"cell_width", r.grid.width},
        {"gamma", r.gamma},
        {"gamma_noise", r.gamma_noise},
        {"tau", r.tau},
        {"theta", r.theta},
        {"core_threshold", r.threshold},
        {"min_pts_prime", r.min_pts_prime},
        {"histogram", r.linear ? "linear" : "naive"},
        {"histogram_linear", r.linear ? 1 : 0},
        {"storage", r.dense ? "dense" : "sparse"},
        {"released_cells", r.released},
        {"released_occupied_cells", r.released_occupied},
        {"empty_cells_sampled", r.sampled_empty},
        {"occupied_cells", r.occupied},
        {"sum_cells_evaluated", r.evaluated},
    };
    return out;
  }
};

class DpKmeansMethod final : public Method {
 public:
  MethodResult run(const Dataset& data, const ParamSet& p, Rng& rng, BudgetLedger& ledger) const override {
    DpKmeansOptions o;
    o.k = static_cast<std::size_t>(p.integer("k"));
    o.epsilon = p.real("epsilon");
    o.iterations = p.integer("iterations");
    DpKmeansResult r = dp_kmeans(data.coords.data(), data.n, data.bounds, o, rng, &ledger);
    MethodResult out;
    out.labels = std::move(r.labels);
    out.labels_are_release = false;
    json centers = json::array();
    for (Eigen::Index c = 0; c < r.centers.rows(); ++c) {
      json row = json::array();
      for (Eigen::Index j = 0; j < r.centers.cols(); ++j) row.push_back(r.centers(c, j));
      centers.push_back(std::move(row));
    }
    out.release = {{"centers", std::move(centers)}};
    out.diagnostics = {{"iterations", r.iterations},
                       {"epsilon_count_per_iteration", r.epsilon_count},
                       {"epsilon_sum_per_iteration_and_dim", r.epsilon_sum},
                       {"inertia", r.inertia}};
    return out;
  }
};

class PairwiseMethod final : public Method {
 public:
  MethodResult run(const Dataset& data, const ParamSet& p, Rng& rng, BudgetLedger& ledger) const override {
    PairwiseOptions o;
    o.alpha = p.real("alpha");
    o.min_pts = p.integer("min_pts");
    o.epsilon = p.real("epsilon");
    o.per_entry_sensitivity = p.string("sensitivity") == "entry";
    o.max_n = static_cast<std::size_t>(p.integer("max_n"));
    PairwiseResult r = pairwise_noisy_dbscan(data.coords.data(), data.n, data.bounds, o, rng, &ledger);
    MethodResult out;
    out.labels = std::move(r.labels);
    out.labels_are_release = true;  // this baseline publishes the labels
    if (o.per_entry_sensitivity)
      out.non_private_notes.push_back(
          "pairwise baseline with per-entry sensitivity D: the distance matrix is not eps-DP (one point moves n-1 entries)");
    out.diagnostics = {{"clusters", r.clusters}, {"core_points", r.core_points}, {"domain_diameter", r.diameter},
                       {"noise_scale", r.noise_scale}};
    return out;
  }
};

}  // namespace

json spans_release(const DpDbscanResult& r) {
  const CellGrid& g = r.grid;
  json grid = {{"lo", g.lo}, {"hi", g.hi}, {"cell_width", g.width}, {"cells_per_dim", g.dims}, {"universe_cells", g.universe},
               {"cell_box", "[lo_j + i_j * cell_width, lo_j + (i_j + 1) * cell_width) per dimension"}};
  std::vector<json> spans(r.spans.n_spans);
  std::vector<std::vector<double>> bbox_lo(r.spans.n_spans, std::vector<double>(g.d, 0)),
      bbox_hi(r.spans.n_spans, std::vector<double>(g.d, 0));
  std::vector<std::int64_t> idx(g.d);
  for (std::size_t s = 0; s < spans.size(); ++s) spans[s] = {{"span", s}, {"cells", json::array()}, {"boxes", json::array()}};
  for (std::size_t i = 0; i < r.spans.codes.size(); ++i) {
    const auto s = static_cast<std::size_t>(r.spans.span[i]);
    g.decode(r.spans.codes[i], idx.data());
    json box = json::array();
    const bool first = spans[s]["cells"].empty();
    for (std::size_t j = 0; j < g.d; ++j) {
      const double lo = g.cell_lo(j, idx[j]), hi = g.cell_hi(j, idx[j]);
      box.push_back({lo, hi});
      if (first || lo < bbox_lo[s][j]) bbox_lo[s][j] = lo;
      if (first || hi > bbox_hi[s][j]) bbox_hi[s][j] = hi;
    }
    spans[s]["cells"].push_back(idx);
    spans[s]["boxes"].push_back(std::move(box));
  }
  json list = json::array();
  for (std::size_t s = 0; s < spans.size(); ++s) {
    json bb = json::array();
    for (std::size_t j = 0; j < g.d; ++j) bb.push_back({bbox_lo[s][j], bbox_hi[s][j]});
    spans[s]["n_cells"] = spans[s]["cells"].size();
    spans[s]["bbox"] = std::move(bb);
    list.push_back(std::move(spans[s]));
  }
  return {{"grid", std::move(grid)},
          {"spans", std::move(list)},
          {"classifier", "a point belongs to the span whose cell contains it; otherwise (or outside the domain) it is noise"}};
}

const MethodInfo& dp_dbscan_method_info() {
  static const MethodInfo info = [] {
    MethodInfo m;
    m.name = "dp_dbscan";
    m.summary = "DP-DBSCAN: approximate spans from a DP cell histogram (naive or linear-time), core cells merged by union-find";
    m.reference = "Qiu & Yi, Approximate DBSCAN under Differential Privacy, Alg. 1-2, Sec. 5-7";
    m.differentially_private = true;
    m.needs_bounds = true;
    m.params = {
        epsilon_param(),
        real_param("delta", 0.0, "delta of (eps, delta)-DP; gaussian noise only", 0.0, 1.0, false, true),
        real_param("alpha", std::nullopt, "DBSCAN radius (alpha)", 0.0, std::nullopt, true),
        int_param("min_pts", std::nullopt, "MinPts; a cell is core when its noisy neighbourhood sum >= MinPts + Gamma", 1),
        real_param("eta", 4.0, "cell width w = eta * alpha / (4 sqrt d) (eta; 4 gives w = alpha / sqrt d)", 0.0, std::nullopt, true),
        real_param("beta", 0.5, "failure probability of the error bound Gamma (beta)", 0.0, 1.0, true, true),
        choice_param("histogram", "auto", {"auto", "naive", "linear"},
                     "DP histogram: naive Laplace over all |X| cells, linear-time Alg. 2, or auto (linear when n <= |X|/2)"),
        choice_param("noise", "laplace", {"laplace", "geometric", "gaussian"}, "histogram noise (gaussian needs delta, eps < 1)"),
        choice_param("neighbouring", "unbounded", {"unbounded", "bounded"},
                     "neighbouring datasets: add/remove a point (sensitivity 1, the paper's) or change one (sensitivity 2)"),
        real_param("theta", -1.0, "threshold of Alg. 2 (theta); -1 = by theta_rule"),
        choice_param("theta_rule", "paper", {"paper", "authors_code"},
                     "automatic theta: max{0, ln(|X|/n)}/eps (Thm 6.1/7.1), or the authors' code (Gamma/kappa when |X| <= 2n)"),
        int_param("n_public", 0, "public n for the histogram choice and theta; 0 = the dataset's n (treated as public, as in the paper)", 0),
        choice_param("core_rule", "minpts_prime", {"minpts_prime", "lemma_5_1"},
                     "core when S >= MinPts + Gamma (Sec. 7.2, MinPts' = MinPts + tau) or S >= MinPts - Gamma (Alg. 1 literally)"),
        choice_param("storage", "auto", {"auto", "dense", "sparse"},
                     "cell storage: dense arrays over |X| or hash maps keyed by the 64-bit cell code (same results)"),
        bool_param("release_histogram", false,
                   "also put the noisy cell counts and the noisy neighbourhood sums S(X) of every cell in the release "
                   "(figures; grids of at most 2^20 cells in dense storage; no extra privacy cost)"),
    };
    m.make = [] { return std::make_unique<DpDbscanMethod>(); };
    return m;
  }();
  return info;
}

const MethodInfo& dp_kmeans_method_info() {
  static const MethodInfo info = [] {
    MethodInfo m;
    m.name = "dp_kmeans";
    m.summary = "DP-k-means (DPLloyd as IBM diffprivlib implements it): noisy counts and sums per iteration within public bounds";
    m.reference = "Su et al. CODASPY 2016; diffprivlib models.KMeans (Holohan et al. 2019); DP-DBSCAN paper Table 2";
    m.differentially_private = true;
    m.needs_bounds = true;
    m.params = {
        epsilon_param(),
        int_param("k", std::nullopt, "number of clusters (k)", 1),
        int_param("iterations", 0, "Lloyd iterations; 0 = diffprivlib's rule int(max(min(eps/eps_m, 7), 2))", 0),
    };
    m.make = [] { return std::make_unique<DpKmeansMethod>(); };
    return m;
  }();
  return info;
}

const MethodInfo& pairwise_method_info() {
  static const MethodInfo info = [] {
    MethodInfo m;
    m.name = "dp_dbscan_pairwise";
    m.summary = "label-publishing baseline: DBSCAN over a Laplace-perturbed pairwise distance matrix (small n only)";
    m.reference = "Qiu & Yi Sec. 8.1 (refs [29, 38, 42, 43]); ARI = AMI = 0 reported";
    m.differentially_private = true;
    m.needs_bounds = true;
    m.params = {
        epsilon_param(),
        real_param("alpha", std::nullopt, "DBSCAN radius (alpha)", 0.0, std::nullopt, true),
        int_param("min_pts", std::nullopt, "MinPts, counting the point itself", 1),
        choice_param("sensitivity", "matrix", {"matrix", "entry"},
                     "Laplace sensitivity: (n-1) D for the whole matrix (eps-DP) or D per entry (as the baselines state; not eps-DP)"),
        int_param("max_n", 20000, "refuse datasets larger than this (n^2 work and n^2/8 bytes)", 2),
    };
    m.make = [] { return std::make_unique<PairwiseMethod>(); };
    return m;
  }();
  return info;
}

}  // namespace dpclust::dpdbscan
