// The cost model of cost_model.hpp: sizes from the parameters and the dataset's known shape, never from
// the data.
#include "loading/cost_model.hpp"

#include <omp.h>
#include <sys/resource.h>
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <limits>
#include <optional>

#include "core/error.hpp"
#include "dpdbscan/grid.hpp"
#include "ndlaplace/grid_laplace.hpp"
#include "ndlaplace/mechanism.hpp"
#include "catalog/catalog.hpp"
#include "eugkm/methods.hpp"
#include "fastlloyd/cost.hpp"
#include "io/byte_size.hpp"
#include "loading/dataset_loading.hpp"
#include "metrics/kmeans_measures.hpp"
#include "cluster/kmeans/kmeans_reference.hpp"

namespace dpclust {

namespace {

constexpr double kDouble = 8;
constexpr double kProcessMemory = 24.0 * 1024 * 1024;

bool is_wavecluster(const std::string& m) {
  return m == "wavecluster" || m == "wc_baseline" || m == "privqt" || m == "privthr" || m == "privthr_em";
}

double real_or(const ParamSet& p, const char* name, double def) {
  if (!p.has(name)) return def;
  const ParamValue& v = p.get(name);
  if (std::holds_alternative<double>(v)) return std::get<double>(v);
  if (std::holds_alternative<std::int64_t>(v)) return static_cast<double>(std::get<std::int64_t>(v));
  return def;
}

struct Sizes {
  double memory, work;
};

Sizes kmeans_cost(double n, double d, double k, double n_init, double max_iter) {
  return {kDouble * n * (4 + std::log(std::max(1.0, k))) + 3 * kDouble * k * d, n_init * max_iter * n * k * d};
}
Sizes affinity_cost(double n, double max_iter) { return {3 * kDouble * n * n, max_iter * 4 * n * n}; }
Sizes dbscan_cost(double n, double d) { return {48 * n, 32 * n * d}; }

// The clustering nd_laplace runs on its perturbed (and, for the metrics, original) points.
Sizes nd_cluster_cost(const ParamSet& p, double n, double d) {
  const std::string& algo = p.string("cluster");
  if (algo == "affinity") return affinity_cost(n, real_or(p, "ap_max_iter", 200));
  if (algo == "dbscan") return dbscan_cost(n, d);
  return kmeans_cost(n, d, real_or(p, "k", 4), real_or(p, "n_init", 10), 300);
}

bool names_metric(const ExperimentConfig& cfg, const char* metric) {
  return std::find(cfg.metrics.begin(), cfg.metrics.end(), metric) != cfg.metrics.end();
}

// The k-means measures a trial computes (metrics/kmeans_measures.hpp; only when named): the nearest released
// centres (n k d), the silhouette (below), the non-private reference (10 k-means runs, once per dataset and k: its
// work spread over the cell's trials).
// k: the method's `k`, else 64 (the number of true classes is not known before the data are read).
Sizes measures_cost(const ExperimentConfig& cfg, const Cell& cell, double n, double d) {
  Sizes s{0, 0};
  if (cfg.metrics.empty()) return s;  // not computed by default
  const MethodInfo* info = find_method(cell.method);
  const double k = real_or(cell.params, "k", 64);
  const bool centres = info != nullptr && info->releases_centres;
  if (centres && (names_metric(cfg, "inertia") || names_metric(cfg, "inertia_per_point") || names_metric(cfg, "normalized_kmeans_cost") ||
                  names_metric(cfg, "centre_distance") || names_metric(cfg, "silhouette") || names_metric(cfg, "accuracy") ||
                  names_metric(cfg, "purity"))) {
    s.memory += 12 * n + kDouble * 3 * k * d;
    s.work += n * k * d;
  }
  if (centres && (names_metric(cfg, "normalized_kmeans_cost") || names_metric(cfg, "centre_distance"))) {
    const Sizes ref = kmeans_cost(n, d, k, static_cast<double>(kReferenceRestarts), 300);
    s.memory = std::max(s.memory, kDouble * n * d + 6 * kDouble * n + ref.memory);  // the centred copy, bounds
    s.work += ref.work / static_cast<double>(std::max<std::int64_t>(cfg.trials, 1));
  }
  if (names_metric(cfg, "silhouette")) {
    // On every point, or on about m (a stratified sample adds at most 50 points per cluster): m^2 d / 2 pairs,
    // m x (2 d + k) memory and the jackknife's m x k x 17 sums, at most 2^22 (metrics/silhouette.hpp).
    const auto sample = static_cast<double>(cfg.evaluation.silhouette_sample);
    const double m = sample == 0 || n <= sample ? n : std::min(n, sample + 50 * k);
    s.memory += kDouble * m * (2 * d + 2 + k + 128) + (m < n ? kDouble * std::min(m * k * 17, 4194304.0) : 0);
    s.work += m * m * d / 2;
  }
  return s;
}

// EUGkM (eugkm/eugkm.hpp): the m^d-cell histogram (true and noisy counts, 16 bytes a cell) and the weighted
// k-means of its positive cells (about half the empty cells draw positive noise, plus the occupied ones), whose
// centres hold d + 1 doubles; the noise is one exact draw a cell (about 40 basic operations). The hybrid adds
// DPLloyd's iterations on the data (at most 7 by its rule).
Sizes eugkm_cost(const DataShape& shape, const ParamSet& p, bool hybrid, double n, double d) {
  const eugkm::EugkmOptions o = eugkm::eugkm_options(p);
  eugkm::HybridOptions h;
  double epsilon_histogram = eugkm::planned_histogram_epsilon(o);
  if (hybrid) {
    // The hybrid's plan at the known size: EUGkM's share, or all of it when DPLloyd cannot follow.
    h = eugkm::hybrid_options(p);
    epsilon_histogram = eugkm::plan_hybrid(h, n, epsilon_histogram, static_cast<std::size_t>(d), static_cast<std::size_t>(d)).epsilon_eugkm;
  }
  const std::optional<eugkm::GridSize> g = eugkm::expected_grid(o, epsilon_histogram > 0 ? epsilon_histogram : o.epsilon, shape);
  const double cells = g ? static_cast<double>(g->cells) : static_cast<double>(o.max_cells);
  const double positive = std::min(cells, cells / 2 + n);
  const Sizes km = kmeans_cost(positive, d, static_cast<double>(o.k), static_cast<double>(o.kmeans.n_init),
                               static_cast<double>(o.kmeans.max_iter));
  Sizes s{16 * cells + kDouble * positive * (d + 1) + km.memory + 16 * n, 40 * cells + n * d + km.work};
  if (hybrid) {
    const double t = h.iterations > 0 ? static_cast<double>(h.iterations) : static_cast<double>(eugkm::kMaxHybridIterations);
    s.work += kmeans_cost(n, d, static_cast<double>(o.k), 1, t).work;
  }
  return s;
}

bool computes_cv(const ExperimentConfig& cfg) {
  if (cfg.metrics.empty()) return true;
  for (const auto& m : cfg.metrics)
    if (m == "ocm" || m == "two_ce") return true;
  return false;
}

std::string format_count(double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, x < 1e6 ? "%.0f" : "%.2g", x);
  return buf;
}

}  // namespace

std::uint64_t default_max_memory() {
  const long pages = sysconf(_SC_PHYS_PAGES), page = sysconf(_SC_PAGE_SIZE);
  std::uint64_t limit = pages <= 0 || page <= 0 ? std::uint64_t{4} << 30 : static_cast<std::uint64_t>(pages) * static_cast<std::uint64_t>(page) / 2;
  // A process address-space limit (ulimit -v, prlimit --as, a batch system's) is a harder bound than the
  // RAM: an allocation over it fails. Keep 3/4 of it for the estimate (the rest: libraries, threads'
  // stacks, the allocator's slack).
  struct rlimit as {};
  if (::getrlimit(RLIMIT_AS, &as) == 0 && as.rlim_cur != RLIM_INFINITY)
    limit = std::min<std::uint64_t>(limit, static_cast<std::uint64_t>(as.rlim_cur) / 4 * 3);
  return limit;
}

double parse_count(const std::string& text, const std::string& option) {
  const std::string fix = "write a positive whole number, e.g. " + option + " 5000000 or " + option + " 5e6";
  bool ok = !text.empty() && text.size() <= 30;
  for (char c : text) ok = ok && (std::isdigit(static_cast<unsigned char>(c)) || c == 'e' || c == 'E' || c == '.' || c == '+');
  char* end = nullptr;
  const double v = ok ? std::strtod(text.c_str(), &end) : 0;
  if (!ok || end != text.c_str() + text.size() || !(v >= 1) || v != std::floor(v) || v > 1.8e19)
    throw InputError(option, "expected a positive whole number, got '" + text.substr(0, 40) + "'", fix);
  return v;
}

namespace {

// The truncation a cell's nD-Laplace uses at this shape (truncation: auto decides by the shape's bounds,
// ndlaplace::choose_truncation; unknown bounds count as none, which the run then judges on the data's).
ndlaplace::Truncation nd_laplace_truncation(const ParamSet& p, const DataShape& shape) {
  const std::string name = p.has("truncation") ? p.string("truncation") : "auto";
  const bool thesis = p.has("resampling_budget") && p.string("resampling_budget") == "thesis";
  const std::size_t d = shape.d.value_or(0);
  return ndlaplace::choose_truncation(name, real_or(p, "epsilon", 1), real_or(p, "radius", 1),
                                      thesis ? ndlaplace::ResamplingBudget::thesis : ndlaplace::ResamplingBudget::halve,
                                      static_cast<std::int64_t>(real_or(p, "max_retries", 1e4)), d,
                                      shape.bounds.dims() == d ? shape.bounds : Bounds{})
      .truncation;
}

}  // namespace

double nd_laplace_draw_rate(const ParamSet& p, const DataShape& shape) {
  const bool secure = p.has("sampler") && p.string("sampler") == "secure";
  const bool resample = nd_laplace_truncation(p, shape) == ndlaplace::Truncation::resample;
  const bool thesis = resample && p.has("resampling_budget") && p.string("resampling_budget") == "thesis";
  const double rate = real_or(p, "epsilon", 1) / real_or(p, "radius", 1);
  // NdLaplaceMechanism::create: halved when the normaliser depends on x (resampling, or the grid), unless
  // the thesis's reading is asked for.
  return (resample || secure) && !thesis ? rate / 2 : rate;
}

double nd_laplace_sampler_seconds(const ParamSet& p, const DataShape& shape) {
  if (!shape.n || !shape.d || *shape.d == 0) return 0;
  const std::size_t d = *shape.d;
  const double points = static_cast<double>(*shape.n) + 2 * real_or(p, "privacy_probe_draws", 0);
  double draws = resample_draws_per_point(p, shape);
  if (draws <= 0) draws = 1;
  draws = std::min(draws, real_or(p, "max_retries", 1e4));
  if (!(p.has("sampler") && p.string("sampler") == "secure")) return points * draws * kSecondsPerNoiseDraw;
  const double rate = nd_laplace_draw_rate(p, shape);
  double step = real_or(p, "grid_step", 0);
  if (!(step > 0)) {
    const Bounds& b = shape.bounds;
    step = ndlaplace::auto_grid_step(std::max(rate, 1e-300), b.dims() == d ? b.lo : std::vector<double>{}, b.dims() == d ? b.hi : std::vector<double>{});
  }
  const double proposals = ndlaplace::expected_proposals(d, rate, step);
  return points * draws * proposals * static_cast<double>(d) * kSecondsPerCoordinateProposal;
}

double resample_draws_per_point(const ParamSet& p, const DataShape& shape) {
  if (!shape.d || shape.bounds.dims() != *shape.d || nd_laplace_truncation(p, shape) != ndlaplace::Truncation::resample) return 0;
  return ndlaplace::expected_resample_draws(*shape.d, nd_laplace_draw_rate(p, shape), shape.bounds);
}

DpDbscanCost dp_dbscan_cost(const ParamSet& p, double n, std::size_t d, const Bounds& bounds) {
  DpDbscanCost c;
  const double eta = real_or(p, "eta", 4);
  c.kappa = static_cast<double>(dpdbscan::neighbourhood_size(d, eta, dpdbscan::kMaxKappa));
  c.universe = -1;
  double slab = -1;  // cells with a given first grid coordinate: |X| / dims[0]
  if (!bounds.empty() && bounds.dims() == d) {
    try {
      const dpdbscan::CellGrid g = dpdbscan::make_grid(bounds, real_or(p, "alpha", 1), eta);
      c.universe = static_cast<double>(g.universe);
      slab = c.universe / static_cast<double>(g.dims[0]);
    } catch (const InputError&) {
      c.universe = -1;  // check_shape reports it
    }
  }
  const std::string hist = p.has("histogram") ? p.string("histogram") : "auto";
  const std::string storage = p.has("storage") ? p.string("storage") : "auto";
  const double n_pub = real_or(p, "n_public", 0) > 0 ? real_or(p, "n_public", 0) : n;
  c.naive = hist == "naive" || (hist == "auto" && c.universe >= 0 && n_pub > c.universe / 2);
  c.dense = c.universe >= 0 && (c.naive || storage == "dense" ||
                                (storage == "auto" && c.universe <= std::min(33554432.0, std::max(1048576.0, 32 * n_pub))));
  const double dd = static_cast<double>(d);
  // The offsets of NB (d int32 each, the row form) and, once the sums split, their run ends (d uint32 each).
  const double offsets = 12 * dd * c.kappa;
  if (c.dense) {
    // Counts (4), released values (8), the merge and classifier tables (4 + 4), a row of sums: 24 |X|.
    c.memory = 24 * c.universe + 16 * n + offsets;
    // Naive: one exact draw (~50 operations) per cell; the row sums: kappa additions per cell.
    c.work = n * dd + c.kappa * c.universe + (c.naive ? 50 * c.universe : 0);
    c.released = c.naive ? c.universe : 2 * n;
  } else {
    // Linear-time histogram (Alg. 2): about n occupied cells released plus m ~ n empty ones (theta =
    // ln(|X|/n)/eps' makes E[m] about n); when |X| is small every cell may be released.
    c.released = c.universe >= 0 ? std::min(2 * n, c.universe) : 2 * n;
    c.pairs = c.released * c.kappa;
    // Bounded neighbourhood sums (dpdbscan/neighbourhood_sums.hpp): one group's map, the released cells'
    // coordinates and lists, the core cells. A group's targets are distinct cells: at most its pairs
    // (<= 2^21) and |X|; once the sums surely split (at least min(n, |X|) / 2 cells are released, the
    // occupied ones or E[m] ~ n/2 empty ones), a group shares its first grid coordinate, so at most
    // |X| / dims[0] (2^21 counted 5x what clustered 3-D and 4-D data touch, bench/dpdbscan_memory.py).
    // Groups hold at most 2^16 pairs (neighbourhood_sums.hpp), or a box of 2^18 cells (9 bytes a cell).
    double group = std::min(c.pairs, 65536.0);
    if (c.universe >= 0) {
      group = std::min(group, c.universe);
      if (std::min(n, c.universe) / 2 * c.kappa > 65536.0) group = std::min(group, slab);
    }
    c.memory += 9 * 262144.0;
    // The map (flat_map.hpp) of T targets: a power-of-two capacity >= 2T (at least 2^17 slots), 16 bytes
    // a slot, and the old half alive while it grows: 24 bytes a slot (96 MiB for 2^21 targets).
    const double slots = std::exp2(std::ceil(std::log2(std::max(131072.0, 2 * group))));
    c.memory += 56 * n + c.released * (8 * dd + 96) + offsets + 24 * slots;
    // Every (released cell, offset) pair is one hash-map addition (~10 ns, counted as 10 operations).
    c.work = n * dd + 10 * c.pairs + c.kappa * c.released / 2;
  }
  // The release (methods.cpp, spans_release): every core cell's coordinates and box as JSON values, about
  // 64 + 96 d bytes a core cell (800 measured in 8-D). The core cells are not known from the shape (up to
  // every cell a released one reaches); 2n covers every run of bench/dpdbscan_memory.py (at most 1.98 n,
  // in 8-D with n = 10^4) but overstates dense 8-D data with n = 10^6 (0.15 n) about 6x.
  const double core = std::min(c.dense ? c.universe : (c.universe >= 0 ? std::min(c.universe, c.pairs) : c.pairs), 2 * n);
  c.memory += core * (64 + 96 * dd);
  return c;
}

std::optional<TrialCost> estimate_trial_cost(const ExperimentConfig& cfg, const Cell& cell, const DataShape& shape) {
  if (!shape.n || !shape.d) return std::nullopt;
  const double n = static_cast<double>(*shape.n), d = static_cast<double>(*shape.d);
  const ParamSet& p = cell.params;
  const std::string& m = cell.method;
  Sizes s{16 * n, n * d};  // labels and a pass over the data: every method
  double noise_draws = 0;
  if (m == "dbscan") {
    s = dbscan_cost(n, d);
  } else if (m == "uniform_centres") {
    // k centres drawn from the bounds, then every point's nearest centre (cluster/uniform_centres).
    const double k = real_or(p, "k", 1);
    s = {16 * n + kDouble * k * d, n * k * d};
  } else if (m == "kmeans") {
    s = kmeans_cost(n, d, real_or(p, "k", 1), real_or(p, "n_init", 1), real_or(p, "max_iter", 300));
  } else if (m == "dp_kmeans") {
    const double t = real_or(p, "iterations", 0) > 0 ? real_or(p, "iterations", 0) : 7;
    s = kmeans_cost(n, d, real_or(p, "k", 1), 1, t);
  } else if (m == "eugkm" || m == "hybrid_kmeans") {
    s = eugkm_cost(shape, p, m == "hybrid_kmeans", n, d);
  } else if (m == "lsh_clustering") {
    // The centred, clipped copy of the data, the tree's index order and partition buffers; one projection per
    // point and level, the leaf sums, weighted k-means on the coreset, the labels (lsh_clustering.hpp). The
    // leaves: at most 2^max_depth, about 2 n / m with m the automatic min_points_in_node, min(10 sqrt(d)
    // sigma/Delta, n / 2k), sigma/Delta taken as the classic Gaussian's sqrt(2 ln(1.25/delta)) / eps.
    const double k = real_or(p, "k", 1), depth = real_or(p, "max_depth", 20);
    const double eps = std::max(real_or(p, "epsilon", 1), 1e-12), delta = std::clamp(real_or(p, "delta", 1e-6), 1e-300, 0.5);
    double per_leaf = real_or(p, "min_points_in_node", 0);
    if (per_leaf <= 0) per_leaf = std::max(1.0, std::min(10 * std::sqrt(d) * std::sqrt(2 * std::log(1.25 / delta)) / eps, n / (2 * k)));
    const double leaves = std::max(1.0, std::min({std::exp2(depth), 2 * n / per_leaf, n}));
    const Sizes c = kmeans_cost(leaves, d, std::min(k, leaves), real_or(p, "n_init", 10), real_or(p, "max_iter", 300));
    s.memory = kDouble * n * (d + 4) + 2 * kDouble * leaves * d + c.memory;
    s.work = n * d * (depth + 2) + c.work + n * k * d;
  } else if (m == "fastlloyd") {
    const fastlloyd::TrialCost c = fastlloyd::trial_cost(p, n, d);
    s = {c.memory, c.work};
  } else if (m == "affinity_propagation") {
    s = affinity_cost(n, real_or(p, "max_iter", 200));
  } else if (is_wavecluster(m)) {
    double cells = 1;
    const ParamValue& g = p.get("g");
    if (std::holds_alternative<RealVector>(g)) {
      for (double x : std::get<RealVector>(g)) cells *= x;
    } else {
      cells = std::pow(real_or(p, "g", 2), d);
    }
    const double level = real_or(p, "level", 1);
    // Five arrays over the G cells (counts, transform, significance, components, the synopsis or noisy
    // copy), measured at 22 columns and g = 2 (4.2 million cells): 172 MB against 5 x 8 G = 168 MB.
    s = {5 * kDouble * cells + 16 * n, 4 * (level + 1) * cells + n * d};
    if (computes_cv(cfg)) {
      // OCM/2CE: C4.5 over the cells of the average subband (ceil(g / 2^level) per dimension): their
      // lattice coordinates and per-attribute orders (12 d bytes a cell), two nodes a cell at most.
      double sub = 1;
      const double shrink = std::pow(2.0, level);
      if (std::holds_alternative<RealVector>(g)) {
        for (double x : std::get<RealVector>(g)) sub *= std::ceil(x / shrink);
      } else {
        sub = std::pow(std::ceil(real_or(p, "g", 2) / shrink), d);
      }
      s.memory += sub * (12 * d + 2 * 48);
    }
    if (m == "wc_baseline") s.memory += kDouble * n * d;  // the synthetic points
    if (computes_cv(cfg)) s.work *= 1 + real_or(p, "cv_folds", 10);
  } else if (m == "dp_dbscan") {
    const DpDbscanCost c = dp_dbscan_cost(p, n, *shape.d, shape.bounds);
    s = {c.memory, c.work};
  } else if (m == "dp_dbscan_pairwise") {
    s = {n * n / 8 + 48 * n, 2 * n * n * d};
  } else if (m == "nd_laplace") {
    const Sizes c = nd_cluster_cost(p, n, d);
    s.memory = 2 * kDouble * n * d + c.memory;
    s.work = 20 * n * d + 2 * c.work + std::min(n * n, real_or(p, "pe_max_pairs", 4e6)) * d;
    // Truncation by resampling redraws a point's noise until it lands in the box: with noise of mean
    // radius d / rate against box sides L_j, roughly prod_j (1 + radius / L_j) draws per point (capped
    // by max_retries); at small epsilon in 5-D that dominates everything else. Counted apart from the
    // work: each draw is a full d-dimensional sample (microseconds), not one basic operation.
    // Each report is drawn by a rejection sampler: counted in noise draws (d-dimensional samples, 0.95 us
    // each for the textbook sampler); the secure grid sampler's proposals grow like (2 d / (pi e))^(d/2)
    // (grid_laplace.hpp expected_proposals), each of d coordinates.
    noise_draws = nd_laplace_sampler_seconds(p, shape) / kSecondsPerNoiseDraw;
  } else if (m == "dpm") {
    // engine/dpm: the clamped copy (n d doubles), the gaps of the interval-size percentile (pooled: d (n - 1)
    // doubles, sorted, plus the exponential mechanism's weights: 16 bytes and 8 + 8 per interval), the index
    // order (4 n); work: d sorts of n, then L levels of one pass per dimension plus one partition.
    const double levels = real_or(p, "levels", 7);
    const bool pooled = !p.has("gap_statistic") || p.string("gap_statistic") == "pooled";
    const double gaps = pooled ? n * d : n;
    s.memory = kDouble * n * d + 40 * gaps + 4 * n + 16 * n;
    s.work = d * n * std::log2(std::max(n, 2.0)) + 4 * gaps + levels * n * (d + 2) + n * d * std::exp2(std::min(levels, 16.0));
  } else if (m == "drbt") {
    const double k_dims = real_or(p, "k_dims", 1);
    const Sizes c = kmeans_cost(n, k_dims, real_or(p, "k", 1), real_or(p, "n_init", 1), 300);
    s.memory = kDouble * n * (d + 1 + k_dims) + c.memory;
    s.work = n * d * k_dims + 2 * c.work + std::min(n * n / 2, real_or(p, "stress_pairs", 2e6)) * d;
  }
  const Sizes measures = measures_cost(cfg, cell, n, d);
  return TrialCost{s.memory + measures.memory, s.work + measures.work, noise_draws};
}

RunCost estimate_run_cost(const ExperimentConfig& cfg, const std::vector<Cell>& cells, int threads, const std::vector<DataShape>* given) {
  RunCost r;
  r.cells = cells.size();
  std::vector<DataShape> shapes;
  for (std::size_t i = 0; i < cfg.datasets.size(); ++i) {
    const auto& ds = cfg.datasets[i];
    shapes.push_back(given && i < given->size() ? (*given)[i] : known_shape(ds));
    const DataShape& s = shapes.back();
    if (s.n && s.d) r.data_memory += 2 * kDouble * static_cast<double>(*s.n) * static_cast<double>(*s.d + 1);
    else r.unknown.push_back(ds.name);
  }
  for (const auto& c : cells) {
    const auto t = estimate_trial_cost(cfg, c, shapes[c.dataset_index]);
    if (!t) continue;
    if (const MethodInfo* info = find_method(c.method); info && n_is_private(*info, shapes[c.dataset_index])) r.private_sizes = true;
    r.work += t->work * static_cast<double>(cfg.trials);
    if (t->memory > r.trial_memory) {
      r.trial_memory = t->memory;
      r.largest_trial = "method '" + c.method_label + "' on dataset '" + c.dataset + "'";
      r.largest_where = cfg.methods[c.method_index].where;
    }
  }
  int workers = threads > 0 ? threads : omp_get_max_threads();
  if (cfg.threads > 0) workers = std::min(workers, cfg.threads);  // the config's cap (runner.cpp)
  const double tasks = static_cast<double>(cells.size()) * static_cast<double>(cfg.trials);
  r.parallel = static_cast<int>(std::max(1.0, std::min(static_cast<double>(workers), tasks)));
  // The process itself (binary, libraries, OpenMP's threads): about 18.5 MiB measured (bench/dpdbscan_memory.py).
  r.peak_memory = kProcessMemory + r.data_memory + r.parallel * r.trial_memory;
  return r;
}

namespace {

double trial_memory(const ExperimentConfig& cfg, const Cell& cell, const DataShape& shape) {
  const auto t = estimate_trial_cost(cfg, cell, shape);
  return t ? t->memory : 0;
}

// The largest value in [lo, hi] for which fits(value) holds (fits monotone decreasing), or 0 when none.
std::uint64_t largest_fitting(std::uint64_t lo, std::uint64_t hi, const std::function<bool(std::uint64_t)>& fits) {
  if (hi < lo || !fits(lo)) return 0;
  while (lo < hi) {
    const std::uint64_t mid = lo + (hi - lo + 1) / 2;
    if (fits(mid)) lo = mid;
    else hi = mid - 1;
  }
  return lo;
}

// A value for a message: two significant digits, rounded up (a larger eta fits better).
std::string round_up_2(double x) {
  const double p = std::pow(10.0, std::floor(std::log10(x)) - 1);
  const double r = std::ceil(x / p - 1e-9) * p;
  char buf[32];
  std::snprintf(buf, sizeof buf, "%g", r);
  return buf;
}

// What brings one trial of `cell` under `budget` bytes (empty when nothing does by one parameter).
std::vector<std::string> memory_fixes(const ExperimentConfig& cfg, const Cell& cell, const DataShape& shape, double budget) {
  std::vector<std::string> fixes;
  const double n = static_cast<double>(*shape.n);
  const std::size_t d = *shape.d;
  auto with = [&](const char* name, ParamValue v) {
    Cell c = cell;
    c.params.set(name, std::move(v));
    return c;
  };
  if (cell.method == "dp_dbscan") {
    const DpDbscanCost now = dp_dbscan_cost(cell.params, n, d, shape.bounds);
    if (now.dense) {
      // The linear-time histogram in sparse storage: O(n) instead of O(|X|).
      const Cell alt = with("storage", std::string("sparse"));
      Cell alt2 = alt;
      alt2.params.set("histogram", std::string("linear"));
      if (!now.naive && trial_memory(cfg, alt, shape) <= budget) fixes.push_back("storage: sparse");
      else if (trial_memory(cfg, alt2, shape) <= budget) fixes.push_back("histogram: linear with storage: sparse (Algorithm 2, O(n) cells)");
    }
    // A larger eta: a coarser grid and fewer neighbours.
    for (double eta : {6.0, 8.0, 12.0, 16.0, 24.0, 32.0, 64.0, 128.0}) {
      if (eta <= real_or(cell.params, "eta", 4)) continue;
      if (trial_memory(cfg, with("eta", eta), shape) <= budget) {
        fixes.push_back("eta: " + round_up_2(eta));
        break;
      }
    }
  }
  // Fewer points (max_rows, or sample:) for any method.
  const std::uint64_t rows = largest_fitting(1, *shape.n, [&](std::uint64_t m) {
    DataShape s = shape;
    s.n = m;
    return trial_memory(cfg, cell, s) <= budget;
  });
  if (rows > 0 && rows < *shape.n) fixes.push_back("max_rows: " + std::to_string(rows) + " (or sample: " + std::to_string(rows) + ") on this dataset");
  return fixes;
}


// The same shape with only its first `d` columns (and their bounds).
DataShape first_columns(const DataShape& shape, std::size_t d) {
  DataShape s = shape;
  s.d = d;
  if (shape.bounds.dims() >= d) {
    s.bounds.lo.assign(shape.bounds.lo.begin(), shape.bounds.lo.begin() + static_cast<std::ptrdiff_t>(d));
    s.bounds.hi.assign(shape.bounds.hi.begin(), shape.bounds.hi.begin() + static_cast<std::ptrdiff_t>(d));
  }
  return s;
}

std::string format_seconds(double s) {
  char buf[64];
  if (s < 1) return "under 1 s";
  if (s < 120) std::snprintf(buf, sizeof buf, "%.0f s", s);
  else if (s < 7200) std::snprintf(buf, sizeof buf, "%.0f min", s / 60);
  else if (s < 172800) std::snprintf(buf, sizeof buf, "%.0f h", s / 3600);
  else if (s < 3.2e9) std::snprintf(buf, sizeof buf, "%.2g days", s / 86400);
  else std::snprintf(buf, sizeof buf, "%.2g years", s / 3.15e7);
  return buf;
}

// nD-Laplace's two rejection samplers against their limits, with fixes that apply at this shape.
std::optional<InputError> nd_laplace_sampler_problem(const ExperimentConfig& cfg, const Cell& cell, const DataShape& shape,
                                                     double max_trial_seconds) {
  const std::string where = cfg.methods[cell.method_index].where;
  const std::size_t d = *shape.d;
  const ParamSet& p = cell.params;
  const double rate = nd_laplace_draw_rate(p, shape), full_rate = real_or(p, "epsilon", 1) / real_or(p, "radius", 1);
  const std::string rate_text = "the noise is drawn at rate " + round_up_2(rate) + " per data unit (epsilon / radius = " + round_up_2(full_rate) +
                                (rate < full_rate ? ", halved: the truncated or grid noise's normaliser depends on the point, mechanism.hpp)" : ")");
  const std::string head = "method '" + cell.method_label + "' on dataset '" + cell.dataset + "' (n = " + std::to_string(*shape.n) +
                           ", d = " + std::to_string(d) + "): ";
  // Truncation by resampling (thesis Alg. 1) redraws a point until its noise lands in the domain; when the
  // expected draws are far past max_retries, every trial would fail after minutes of draws.
  const double draws = resample_draws_per_point(p, shape), retries = real_or(p, "max_retries", 1e4);
  if (draws > 10 * retries) {
    const std::size_t fit = static_cast<std::size_t>(largest_fitting(1, d, [&](std::uint64_t m) {
      return resample_draws_per_point(p, first_columns(shape, m)) <= 10 * retries;
    }));
    std::string fix = "truncation: remap; or raise epsilon or lower radius (" + rate_text + ")";
    if (fit > 0) fix += "; or fewer columns: at most " + std::to_string(fit) + " fit (list them in `columns`)";
    return InputError(where, head + "truncation by resampling needs " + (draws >= 1e12 ? std::string("more than 1e+12") : "about " + format_count(draws)) +
                                 " draws per point to land in the domain (the noise's mean length d / rate = " + round_up_2(static_cast<double>(d) / rate) +
                                 " against the domain's sides), over max_retries = " + format_count(retries),
                      fix);
  }
  const double seconds = nd_laplace_sampler_seconds(p, shape);
  if (seconds <= max_trial_seconds) return std::nullopt;
  const bool secure = p.has("sampler") && p.string("sampler") == "secure";
  std::string problem = head + "drawing the reports takes about " + format_seconds(seconds) + " a trial, over the limit of " +
                        format_seconds(max_trial_seconds) + " (--max-trial-seconds)";
  if (secure) {
    double step = real_or(p, "grid_step", 0);
    if (!(step > 0))
      step = ndlaplace::auto_grid_step(std::max(rate, 1e-300), shape.bounds.dims() == d ? shape.bounds.lo : std::vector<double>{},
                                       shape.bounds.dims() == d ? shape.bounds.hi : std::vector<double>{});
    problem += ": the secure sampler's exact rejection step needs about " + format_count(ndlaplace::expected_proposals(d, rate, step)) +
               " proposals a point in " + std::to_string(d) + " dimensions (its envelope accepts a share that falls like (2 d / (pi e))^(-d/2))";
  }
  std::vector<std::string> fixes;
  const std::size_t fit = static_cast<std::size_t>(
      largest_fitting(1, d, [&](std::uint64_t m) { return nd_laplace_sampler_seconds(p, first_columns(shape, m)) <= max_trial_seconds; }));
  if (fit > 0) fixes.push_back("fewer columns: at most " + std::to_string(fit) + " fit (list them in `columns`, or project the data)");
  if (secure) {
    Cell textbook = cell;
    textbook.params.set("sampler", std::string("textbook"));
    const double t = nd_laplace_sampler_seconds(textbook.params, shape);
    if (t <= max_trial_seconds)
      fixes.push_back("sampler: textbook (about " + format_seconds(t) + " a trial; floating-point noise: the results are flagged as not a private release)");
  }
  const double per_point = seconds / static_cast<double>(*shape.n);
  const auto rows = static_cast<std::uint64_t>(max_trial_seconds / per_point);
  if (rows >= 1 && rows < *shape.n) fixes.push_back("max_rows: " + std::to_string(rows) + " (or sample: " + std::to_string(rows) + ")");
  fixes.push_back("--max-trial-seconds " + format_count(std::ceil(seconds)) + " if you can wait " + format_seconds(seconds) + " a trial");
  std::string fix;
  for (std::size_t i = 0; i < fixes.size(); ++i) fix += (i ? "; or " : "") + fixes[i];
  return InputError(where, problem, fix);
}

// A trial over the memory limit whose estimate counts the private number of points: the limit and the fixes
// that do not depend on that number (a fix chosen by searching at the true n would tell it).
InputError private_memory_problem(const ExperimentConfig& cfg, const Cell& cell, const DataShape& shape, double max_memory, int parallel) {
  const std::string problem =
      "method '" + cell.method_label + "' on dataset '" + cell.dataset + "' (d = " + std::to_string(*shape.d) +
      "): one trial is estimated to need more than the memory limit of " + format_bytes(max_memory) +
      (parallel > 1 ? " allows for " + std::to_string(parallel) + " trials at once" : std::string(" allows")) +
      " (the estimate counts the points read, which are private to this method: no number computed from them is shown)";
  // The parameters that size the method's largest structures besides the points (the model above).
  std::vector<std::string> fixes;
  if (cell.method == "dp_dbscan") {
    if (!(cell.params.has("storage") && cell.params.string("storage") == "sparse"))
      fixes.push_back("histogram: linear with storage: sparse (Algorithm 2: memory in the number of points, not in |X|)");
    fixes.push_back("a larger eta (a coarser grid, fewer neighbour cells)");
  } else if (cell.method == "eugkm" || cell.method == "hybrid_kmeans") {
    fixes.push_back("a smaller grid_size or max_grid_cells (16 bytes a grid cell)");
  } else if (is_wavecluster(cell.method)) {
    fixes.push_back("a smaller g (about 40 bytes a grid cell)");
  }
  fixes.push_back("fewer points (max_rows: N or sample: N on this dataset)");
  if (parallel > 1) fixes.push_back("--threads 1 (one trial at a time)");
  fixes.push_back("--max-memory SIZE if the machine has it");
  std::string fix;
  for (std::size_t i = 0; i < fixes.size(); ++i) fix += (i ? "; or " : "") + fixes[i];
  return InputError(cfg.methods[cell.method_index].where, problem, fix);
}

}  // namespace

std::optional<InputError> cell_cost_problem(const ExperimentConfig& cfg, const Cell& cell, const DataShape& shape, double max_memory,
                                            int parallel, double data_memory, double max_trial_seconds) {
  if (!shape.n || !shape.d) return std::nullopt;
  const double mem = trial_memory(cfg, cell, shape);
  const double budget = (max_memory - kProcessMemory - data_memory) / std::max(1, parallel);
  const std::string where = cfg.methods[cell.method_index].where;
  if (cell.method == "nd_laplace")
    if (auto p = nd_laplace_sampler_problem(cfg, cell, shape, max_trial_seconds)) return p;
  if (mem <= budget) return std::nullopt;
  if (const MethodInfo* info = find_method(cell.method); info && n_is_private(*info, shape))
    return private_memory_problem(cfg, cell, shape, max_memory, parallel);
  std::string problem = "method '" + cell.method_label + "' on dataset '" + cell.dataset + "' (n = " + std::to_string(*shape.n) +
                        ", d = " + std::to_string(*shape.d) + "): one trial needs about " + format_bytes(mem);
  if (cell.method == "dp_dbscan") {
    const DpDbscanCost c = dp_dbscan_cost(cell.params, static_cast<double>(*shape.n), *shape.d, shape.bounds);
    problem += c.dense ? " (dense storage of |X| = " + format_count(c.universe) + " grid cells)"
                       : " (kappa = " + format_count(c.kappa) + " neighbour cells per released cell)";
  }
  problem += ", over the memory limit of " + format_bytes(max_memory) +
             (parallel > 1 ? " for " + std::to_string(parallel) + " trials at once" : std::string());
  std::vector<std::string> fixes = memory_fixes(cfg, cell, shape, budget);
  if (parallel > 1 && mem <= max_memory - data_memory) fixes.push_back("--threads 1 (one trial at a time)");
  fixes.push_back("--max-memory SIZE above " + format_bytes(data_memory + std::max(1, parallel) * mem) + " if the machine has it");
  std::string fix;
  for (std::size_t i = 0; i < fixes.size(); ++i) fix += (i ? "; or " : "") + fixes[i];
  return InputError(where, problem, fix);
}

std::string slow_trial_note(const ExperimentConfig& cfg, const Cell& cell, const DataShape& shape, double seconds) {
  // The note and its numbers are functions of n: none for a cell whose n is private (cost_model.hpp).
  if (const MethodInfo* info = find_method(cell.method); info && n_is_private(*info, shape)) return "";
  const auto t = estimate_trial_cost(cfg, cell, shape);
  // About 1e9 basic operations a second on one core, plus a rejection sampler's draws.
  const double trial_seconds = t ? t->work / 1e9 + t->noise_draws * kSecondsPerNoiseDraw : 0;
  if (!t || trial_seconds <= seconds) return "";
  std::string note = "method '" + cell.method_label + "' on dataset '" + cell.dataset + "': about " + format_count(trial_seconds) +
                     " s a trial (" + format_count(trial_seconds * static_cast<double>(cfg.trials)) + " s for its " +
                     std::to_string(cfg.trials) + " trials)";
  if (cell.method == "dp_dbscan" && shape.n && shape.d) {
    const double n = static_cast<double>(*shape.n);
    const DpDbscanCost c = dp_dbscan_cost(cell.params, n, *shape.d, shape.bounds);
    note += ": kappa = " + format_count(c.kappa) + " neighbour cells in d = " + std::to_string(*shape.d);
    for (double eta : {6.0, 8.0, 12.0, 16.0, 24.0, 32.0}) {
      if (eta <= real_or(cell.params, "eta", 4)) continue;
      Cell alt = cell;
      alt.params.set("eta", eta);
      const auto ta = estimate_trial_cost(cfg, alt, shape);
      if (ta && ta->work / 1e9 <= seconds) {
        note += "; eta: " + round_up_2(eta) + " (kappa " + format_count(dp_dbscan_cost(alt.params, n, *shape.d, shape.bounds).kappa) +
                ") brings it under " + format_count(seconds) + " s";
        break;
      }
    }
  }
  return note;
}

std::string describe_cost(const RunCost& c) {
  if (c.private_sizes)
    return "cost of the loaded data not shown: it counts the number of points, which a private method keeps private (a "
           "size the config declares, a generator's n_samples or a registry file's rows, gives a public estimate)";
  if (c.data_memory == 0 && c.trial_memory == 0 && !c.unknown.empty()) {
    std::string s = "cost not estimated: the size of";
    for (std::size_t i = 0; i < c.unknown.size() && i < 5; ++i) s += (i ? ", " : " ") + c.unknown[i];
    return s + (c.unknown.size() > 5 ? ", ..." : "") + " is known only once loaded";
  }
  std::string s = "estimated peak memory " + format_bytes(c.peak_memory) + " (datasets " + format_bytes(c.data_memory) + " + " +
                  std::to_string(c.parallel) + " parallel trial" + (c.parallel == 1 ? "" : "s") + " x " + format_bytes(c.trial_memory) +
                  "), work ~" + format_count(c.work) + " operations";
  if (!c.unknown.empty()) {
    s += "; not counted (size known only once loaded):";
    for (std::size_t i = 0; i < c.unknown.size() && i < 5; ++i) s += (i ? ", " : " ") + c.unknown[i];
    if (c.unknown.size() > 5) s += ", ...";
  }
  return s;
}

namespace {
// The whole run's estimated work against --max-work.
void check_work(const ExperimentConfig& cfg, const RunCost& cost, const RunLimits& limits) {
  if (cost.work <= limits.max_work) return;
  throw InputError(cfg.file.string(),
                   describe_cost(cost) + ". This exceeds the work limit of " + format_count(limits.max_work) +
                       " operations (about a day of computing)",
                   "sweep fewer values, run fewer trials or smaller datasets, lower iteration counts, or raise the limit with "
                   "--max-work N (e.g. --max-work 1e17)");
}
}  // namespace

RunCost check_run_cost(const ExperimentConfig& cfg, const RunLimits& limits, bool cells_may_be_skipped) {
  // 1. The grid, counted before it is expanded.
  count_cells(cfg, limits.max_cells);
  const std::vector<Cell> cells = expand_grid(cfg, limits.max_cells);
  // 2. Every cell's parameters against what the config says of its dataset's shape, and its memory: every
  //    problem of the config in one pass (issue 33), each said once.
  std::vector<DataShape> shapes;
  for (const auto& ds : cfg.datasets) shapes.push_back(known_shape(ds));
  RunCost cost = estimate_run_cost(cfg, cells, limits.threads);
  const double max_memory = static_cast<double>(limits.max_memory ? limits.max_memory : default_max_memory());
  ProblemList problems;
  std::vector<Cell> runnable;
  for (const auto& c : cells) {
    if (!problems.collect([&] { check_cell_shape(cfg, c, shapes[c.dataset_index]); })) continue;
    if (auto p = cell_cost_problem(cfg, c, shapes[c.dataset_index], max_memory, cost.parallel, cost.data_memory, limits.max_trial_seconds))
      problems.add(*p);
    else runnable.push_back(c);
  }
  if (cells_may_be_skipped) {
    // run --keep-going: the cells with a problem will be skipped (and recorded) by the run; the work limit
    // applies to the others. Their memory is checked per cell, against the same limit, once loaded.
    cost = estimate_run_cost(cfg, runnable, limits.threads);
    check_work(cfg, cost, limits);
    return cost;
  }
  problems.throw_if_any();
  // 3. The whole run's memory and work.
  if (cost.peak_memory > max_memory)
    throw InputError(cost.largest_where.empty() ? cfg.file.string() : cost.largest_where,
                     describe_cost(cost) + "; the largest trial is " + cost.largest_trial + ". This exceeds the memory limit of " +
                         format_bytes(max_memory) + (limits.max_memory ? "" : " (default: half of the physical memory)"),
                     "lower the sizes that dominate (grid sizes g, the number of points via sample:, k, ...), run fewer trials "
                     "at once (--threads 1), or raise the limit with --max-memory SIZE (e.g. --max-memory 64G)");
  check_work(cfg, cost, limits);
  return cost;
}

}  // namespace dpclust
