// The DP-DBSCAN reproduction's methods: parameters in, labels + release + diagnostics + evaluation + typed details
// out (register.hpp).
#include "dpdbscan/register.hpp"

#include <limits>
#include <memory>
#include <optional>
#include <sstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "cluster/kmeans/kmeans.hpp"
#include "core/error.hpp"
#include "core/named_choice.hpp"
#include "dpdbscan/cost.hpp"
#include "dpdbscan/dp_kmeans.hpp"
#include "dpdbscan/pairwise.hpp"
#include "privacy/mechanism.hpp"

namespace dpclust::dpdbscan {
namespace {

using nlohmann::json;

const Named<HistogramChoice> kHistogramChoices[] = {
    {"auto", HistogramChoice::automatic}, {"naive", HistogramChoice::naive}, {"linear", HistogramChoice::linear}};
const Named<StorageChoice> kStorageChoices[] = {
    {"auto", StorageChoice::automatic}, {"dense", StorageChoice::dense}, {"sparse", StorageChoice::sparse}};
const Named<CoreRule> kCoreRules[] = {{"minpts_prime", CoreRule::minpts_prime}, {"lemma_5_1", CoreRule::lemma_5_1}};
const Named<bool> kNeighbouring[] = {{"unbounded", false}, {"bounded", true}};
const Named<bool> kThetaRules[] = {{"paper", false}, {"authors_code", true}};
const Named<KmeansVariant> kVariants[] = {{"dplloyd", KmeansVariant::dplloyd},
                                          {"diffprivlib", KmeansVariant::diffprivlib}};
const Named<DiffprivlibSplit> kDiffprivlibSplits[] = {{"as_run", DiffprivlibSplit::as_run},
                                                      {"as_documented", DiffprivlibSplit::as_documented}};
const Named<bool> kPairwiseSensitivity[] = {{"matrix", false}, {"entry", true}};

// At least 1e-6: below, the noise scales (1/eps, and eps/T per DP-k-means iteration) leave every count and
// sum meaningless, and a denormal epsilon (5e-324) has no finite noise scale at all.
ParamSpec epsilon_param() {
  return real_param("epsilon", 1.0, "privacy budget (epsilon), at least 1e-6 (smaller gives unbounded noise)", 1e-6);
}
// DP-k-means goes lower: the DP-DBSCAN paper runs it at eps = 1/n^2 (Sec. 8.4; 1.6e-8 for Cluto's 8,000
// points) to show its clusters are then data-independent. 1e-12 covers 1/n^2 up to n = 10^6 and still
// gives finite noise scales (a denormal epsilon does not). With the secure sampler (variant dplloyd) the
// samplers' scale limits set a higher floor that depends on T, d and the bounds (about 3.2e-9 for d = 2,
// T = 5, no n_public): check_secure_epsilon (dp_kmeans.hpp) enforces it in check_shape and in dp_kmeans().
ParamSpec kmeans_epsilon_param() {
  return real_param("epsilon", 1.0,
                    "privacy budget (epsilon), at least 1e-12 (1/n^2 up to n = 10^6, the paper's Sec. 8.4 test); with "
                    "sampler: secure (variant dplloyd) at least the secure samplers' limit for T, d and the bounds "
                    "(about 3.2e-9 for d = 2, T = 5, no n_public)",
                    1e-12);
}

// Largest grid whose noisy histogram release_histogram writes into the release (two |X|-long lists).
constexpr std::uint64_t kReleaseHistogramMaxCells = std::uint64_t{1} << 20;

void check_release_histogram(const DpDbscanOptions& o, const Dataset& data) {
  // Checked before the run, from public inputs only (the grid and the storage rule).
  const CellGrid g = make_grid(data.bounds, o.alpha, o.eta);
  if (g.universe > kReleaseHistogramMaxCells || o.storage == StorageChoice::sparse)
    throw InputError("params.release_histogram",
                     "release_histogram writes every cell of the grid, which has |X| = " + std::to_string(g.universe) +
                         " cells; at most 2^20 cells in dense storage",
                     "use release_histogram: false for this dataset, or a larger alpha / smaller domain");
}

// release_histogram (figures, e.g. the paper's Figure 5 b-c): the noisy cell counts x~ of Alg. 1 line 5
// that this trial released, and the noisy neighbourhood sums S(X) of every cell (post-processing).
json histogram_release(const DpDbscanOptions& o, const DpDbscanResult& r) {
  const CellGrid& g = r.grid;
  if (!r.dense)
    throw InputError("params.release_histogram",
                     "release_histogram needs dense storage (the grid has " + std::to_string(g.universe) + " cells)",
                     "use storage: dense, or release_histogram: false");
  const Neighbourhood nb = alpha_neighbourhood(g.d, o.eta);
  NoisyHistogram hist = r.histogram;
  // S(X) of every cell: the same row sums with a threshold every finite sum meets (the linear flag only
  // guards against thresholds <= 0, where unreleased regions would become core).
  hist.linear = false;
  CoreCells all = find_core_cells(g, nb, hist, -std::numeric_limits<double>::infinity());
  if (all.codes.size() != g.universe) throw std::logic_error("release_histogram: a neighbourhood sum is not finite");
  return {{"cells_per_dim", g.dims},
          {"order", "row-major over cells_per_dim (last dimension fastest), cell i_j spans the grid's cell_box"},
          {"noisy_counts", r.histogram.dense_values},
          {"neighbourhood_sums", std::move(all.sums)},
          {"kappa", nb.kappa()},
          {"core_threshold", r.threshold},
          {"note", r.linear ? "linear-time histogram (Alg. 2): cells not released carry 0, as the mechanism counts them"
                            : "naive histogram (Thm 2.8): every cell released"}};
}

// Parameters checked against each other and against the dataset's shape before any trial (MethodInfo::
// check_shape): what dp_dbscan() and the noise mechanism would refuse inside a trial, from public inputs
// only (parameters, d, the configured bounds; n only when n_public is given or the shape is exact).
void check_dp_dbscan_shape(const ParamSet& p, const DataShape& shape) {
  const NoiseKind noise = parse_noise(p.string("noise"));
  const double delta = p.real("delta"), epsilon = p.real("epsilon"), theta = p.real("theta");
  if (noise == NoiseKind::gaussian) {
    if (!(delta > 0 && delta < 1))
      throw InputError("params.delta", "noise: gaussian needs delta in (0, 1), got delta = " + short_number(delta),
                       "set delta, e.g. delta: 1e-6, or use noise: laplace");
    if (!(epsilon < 1))
      throw InputError(
          "params.epsilon",
          "the classic Gaussian mechanism is (eps, delta)-DP only for eps < 1, got epsilon = " + short_number(epsilon),
          "use epsilon < 1 with gaussian noise, or laplace/geometric noise");
  }
  // Laplace and geometric noise are pure eps-DP, hence (eps, delta)-DP for every delta: a delta set for the
  // dataset or the experiment (one delta for every (eps, delta) method of a comparison) is accepted and not
  // used; the side-information record says so (the `noise` selector below).
  // The secure discrete Gaussian's sigma^2 <= 2^40 (noise.hpp); laplace/geometric never reach their limit.
  check_secure_epsilon(noise, effective_sampler(noise, privacy::sampler_of(p)), epsilon, delta,
                       kind_of(kNeighbouring, p, "neighbouring"));
  if (theta < 0 && theta != -1)
    throw InputError("params.theta", "theta must be >= 0, or -1 for the automatic choice ln(|X|/n)/eps");
  const HistogramChoice histogram = kind_of(kHistogramChoices, p, "histogram");
  const StorageChoice storage = kind_of(kStorageChoices, p, "storage");
  if (theta >= 0 && histogram == HistogramChoice::naive)
    throw InputError("params.theta", "theta is the threshold of the linear-time histogram; histogram is naive",
                     "set histogram: linear, or theta: -1");
  if (histogram == HistogramChoice::naive && storage == StorageChoice::sparse)
    throw InputError("params.storage", "the naive histogram noises every cell and needs dense storage",
                     "use storage: auto or dense");
  if (rng_of(p) == RandomStream::numpy) {
    // The histogram actually used is known here only when it is forced; auto is checked at run time.
    check_numpy_stream(noise, effective_sampler(noise, privacy::sampler_of(p)), histogram == HistogramChoice::linear);
    if (histogram == HistogramChoice::automatic)
      throw InputError("params.histogram", "rng: numpy reproduces the authors' naive histogram; histogram is auto",
                       "add histogram: naive");
  }
  const double eta = p.real("eta");
  if (shape.d && neighbourhood_size(*shape.d, eta, kMaxKappa) > kMaxKappa)
    throw InputError("params.eta",
                     "the alpha-neighbourhood in d = " + std::to_string(*shape.d) + " dimensions (dataset '" +
                         shape.dataset + "') with eta = " + short_number(eta) +
                         " has more than 10^7 cells (kappa; it is at least 3^d)",
                     kappa_limit_fix(*shape.d, eta));
  if (shape.bounds.empty() || (shape.d && shape.bounds.dims() != *shape.d)) return;
  const CellGrid g = make_grid(shape.bounds, p.real("alpha"), eta);  // refuses grids beyond 2^62 cells
  const std::uint64_t n_public = static_cast<std::uint64_t>(p.integer("n_public"));
  // The count the automatic choice compares with |X| / 2: public (n_public) or exact from the data's shape.
  const bool n_known = n_public != 0 || (shape.n_exact && shape.n.has_value());
  const std::uint64_t n_pub = n_public != 0 ? n_public : shape.n.value_or(0);
  const bool naive = histogram == HistogramChoice::naive ||
                     (histogram == HistogramChoice::automatic && n_known &&
                      static_cast<double>(std::max<std::uint64_t>(1, n_pub)) > static_cast<double>(g.universe) / 2);
  if ((naive || storage == StorageChoice::dense) && g.universe > kDenseMax)
    throw InputError(
        naive ? "params.histogram" : "params.storage",
        "dense storage of the grid's |X| = " + std::to_string(g.universe) + " cells exceeds the limit of 2^26 cells",
        naive ? "use histogram: linear (Algorithm 2) or a larger alpha/eta" : "use storage: auto or sparse");
  if (p.boolean("release_histogram") && (g.universe > kReleaseHistogramMaxCells || storage == StorageChoice::sparse))
    throw InputError("params.release_histogram",
                     "release_histogram writes every cell of the grid, which has |X| = " + std::to_string(g.universe) +
                         " cells; at most 2^20 cells in dense storage",
                     "use release_histogram: false for this dataset, or a larger alpha / smaller domain");
}

// Does the true n shape the release? Only through the histogram choice of histogram: auto (Sec. 8.1:
// Alg. 2 iff n <= |X|/2) and through theta: -1 of the linear histogram (max{0, ln(|X|/n)}/eps, Thm 6.1/
// 7.1, or the authors' Gamma/kappa when |X| <= 2n). The naive histogram, or the linear one with an
// explicit theta, never reads n: their results carry no n note. (storage: auto also
// looks at n, but dense and sparse storage release the same values.)
bool release_uses_n(const DpDbscanOptions& o) {
  return o.histogram == HistogramChoice::automatic || (o.histogram == HistogramChoice::linear && o.theta < 0);
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
    o.noise = parse_noise(p.string("noise"));
    // Pure eps-DP noise leaves a delta set for the dataset or experiment unused (check_dp_dbscan_shape).
    o.delta = o.noise == NoiseKind::gaussian ? p.real("delta") : 0.0;
    o.sampler = privacy::sampler_of(p);
    o.histogram = kind_of(kHistogramChoices, p, "histogram");
    o.storage = kind_of(kStorageChoices, p, "storage");
    o.core_rule = kind_of(kCoreRules, p, "core_rule");
    o.bounded_dp = kind_of(kNeighbouring, p, "neighbouring");
    o.theta = p.real("theta");
    if (o.theta < 0 && o.theta != -1)
      throw InputError("params.theta", "theta must be >= 0, or -1 for the automatic choice ln(|X|/n)/eps");
    o.theta_authors_code = kind_of(kThetaRules, p, "theta_rule");
    o.n_public = static_cast<std::uint64_t>(p.integer("n_public"));
    o.stream = rng_of(p);
    // Only the numpy stream has a seed to take (randomness: secure has none, and refuses rng: numpy).
    o.numpy_seed = o.stream == RandomStream::numpy ? numpy_seed_of(rng) : 0;
    const bool release_histogram = p.boolean("release_histogram");
    if (release_histogram) check_release_histogram(o, data);
    o.keep_histogram = release_histogram;

    DpDbscanResult r = dp_dbscan(data.coords.data(), data.n, data.bounds, o, rng, ledger);

    MethodResult out;
    // Point labels by the span classifier (evaluation only; the runner flags them as not released).
    out.labels = SpanClassifier(r.grid, r.spans, r.dense).classify_all(data.coords.data(), data.n);
    out.labels_are_release = false;
    if (r.sampler == privacy::Sampler::textbook) out.non_private_notes.push_back(privacy::kTextbookSamplerNote);
    if (o.n_public == 0 && release_uses_n(o)) {
      const char* const note =
          "the number of points n is treated as public for the histogram choice and theta, as the paper does; set "
          "n_public "
          "to a public value for a fully private release";
      out.non_private_notes.push_back(note);
      // The release moves with the true n (theta, the histogram kind): one added record can change it with
      // certainty, so no finite epsilon bounds it (the audit measures 7.6 at a claimed 1:
      // configs/audit/dp_dbscan.yaml).
      ledger.declare_data_derived(note);
    }
    // Nothing can be found by construction when the core threshold exceeds every neighbourhood's count:
    // a cell is core only by noise then (a threshold of 1.2e6 for 1,000 points released 0 spans in every
    // trial, ARI exactly 0, without a word). n: n_public, or the dataset's n, whose value the note (a message
    // about the run, evaluation only) then does not show.
    const std::uint64_t n_bound = o.n_public ? o.n_public : data.n;
    if (r.threshold > static_cast<double>(n_bound)) {
      std::ostringstream note;
      note << "dp_dbscan finds nothing by construction here: the core threshold MinPts + Gamma = " << r.threshold
           << " exceeds "
           << (o.n_public ? "n_public = " + std::to_string(o.n_public) : std::string("the number of points n"))
           << " (Gamma = " << r.gamma << " from kappa = " << r.kappa << " neighbour cells"
           << (r.linear ? " and theta = " + std::to_string(r.theta) + " per cell" : std::string())
           << "), so no cell is core but by noise; "
           << "raise epsilon, raise eta (wider cells: fewer neighbour cells), raise beta (a looser bound Gamma) or "
              "lower min_pts"
           << (r.linear ? ", or use histogram: naive (no kappa theta term)" : "");
      out.notes.push_back(note.str());
    }
    out.release = spans_release(r);
    if (release_histogram) out.release["histogram"] = histogram_release(o, r);
    // Public: functions of the release and the parameters (and of n, flagged above unless n_public).
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
        {"sampler", privacy::to_string(r.sampler)},
        {"released_cells", r.released},
        {"rng", to_string(o.stream)},
        {"sum_cells_evaluated", r.evaluated},
    };
    if (o.stream == RandomStream::numpy) out.diagnostics["numpy_seed"] = o.numpy_seed;
    // Exact statistics of the true data: which cells are occupied, and which released cells were.
    out.evaluation = {
        {"occupied_cells", r.occupied},
        {"released_occupied_cells", r.released_occupied},
        {"empty_cells_sampled", r.sampled_empty},
    };
    r.histogram = NoisyHistogram{};  // in the release when asked for; not kept twice
    out.details = std::move(r);
    return out;
  }
};

class DpKmeansMethod final : public Method {
 public:
  MethodResult run(const Dataset& data, const ParamSet& p, Rng& rng, BudgetLedger& ledger) const override {
    DpKmeansOptions o;
    o.k = static_cast<std::size_t>(p.integer("k"));
    o.epsilon = p.real("epsilon");
    o.variant = kind_of(kVariants, p, "variant");
    o.iterations = p.integer("iterations");
    o.n_public = static_cast<std::uint64_t>(p.integer("n_public"));
    o.sampler = privacy::sampler_of(p);
    o.diffprivlib_split = kind_of(kDiffprivlibSplits, p, "diffprivlib_split");
    const RealVector init = as_vector(p.get("initial_centers"));
    if (!init.empty()) {
      // Public, data-independent centres given in the config (row-major k x d): checked here, where d is known.
      if (init.size() != o.k * data.d)
        throw InputError("params.initial_centers",
                         "initial_centers has " + std::to_string(init.size()) +
                             " numbers, not k x d = " + std::to_string(o.k * data.d),
                         "give k rows of d coordinates, row-major: {values: [x1, y1, x2, y2, ...]}");
      o.initial_centers =
          Eigen::Map<const RowMatrix>(init.data(), static_cast<Eigen::Index>(o.k), static_cast<Eigen::Index>(data.d));
      for (Eigen::Index c = 0; c < o.initial_centers.rows(); ++c)
        if (!data.bounds.empty() && !data.bounds.contains(o.initial_centers.row(c).data()))
          throw InputError("params.initial_centers",
                           "initial centre " + std::to_string(c) + " lies outside the public domain");
    }
    DpKmeansResult r = dp_kmeans(data.coords.data(), data.n, data.bounds, o, rng, ledger);
    MethodResult out;
    out.labels = r.labels;
    out.labels_are_release = false;
    // diffprivlib draws with its own floating-point samplers whatever `sampler` says.
    if (o.variant == KmeansVariant::diffprivlib || o.sampler == privacy::Sampler::textbook)
      out.non_private_notes.push_back(privacy::kTextbookSamplerNote);
    for (const std::string& gap : r.privacy_gaps) out.non_private_notes.push_back(gap);
    json centers = json::array();
    for (Eigen::Index c = 0; c < r.centers.rows(); ++c) {
      json row = json::array();
      for (Eigen::Index j = 0; j < r.centers.cols(); ++j) row.push_back(r.centers(c, j));
      centers.push_back(std::move(row));
    }
    out.release = {{"centers", std::move(centers)}};
    out.centres = r.centers;  // in the data's coordinates (both variants): what the k-means measures read
    out.diagnostics = {{"variant", to_string(o.variant)},
                       {"iterations", r.iterations},
                       {"iteration_rule", to_string(r.iteration_rule)},
                       {"epsilon_count_per_iteration", r.epsilon_count},
                       {"epsilon_sum_per_iteration_and_dim", r.epsilon_sum}};
    if (o.variant == KmeansVariant::diffprivlib) {
      out.diagnostics["diffprivlib_split"] = to_string(o.diffprivlib_split);
      out.diagnostics["epsilon_unspent"] = r.epsilon_unspent;  // < 0: spent beyond epsilon (declared excess)
    }
    std::size_t empty = 0;
    for (std::int64_t s : r.cluster_sizes) empty += s == 0;
    out.evaluation = {{"inertia", r.inertia}, {"empty_clusters", empty}};
    // T from the true n (diffprivlib's rule without n_public): T and the budgets split by it are functions of
    // n, not public numbers; they move to the evaluation (the rule's name stays).
    if (r.iteration_rule == IterationRule::true_n)
      for (const char* key :
           {"iterations", "epsilon_count_per_iteration", "epsilon_sum_per_iteration_and_dim", "epsilon_unspent"}) {
        out.evaluation[key] = out.diagnostics[key];
        out.diagnostics.erase(key);
      }
    out.details = std::move(r);
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
    o.per_entry_sensitivity = kind_of(kPairwiseSensitivity, p, "sensitivity");
    o.border = border_rule_of(p);
    o.max_n = static_cast<std::size_t>(p.integer("max_n"));
    o.sampler = privacy::sampler_of(p);
    PairwiseResult r = pairwise_noisy_dbscan(data.coords.data(), data.n, data.bounds, o, rng, ledger);
    MethodResult out;
    out.labels = r.labels;
    out.labels_are_release = true;  // this baseline publishes the labels
    if (o.sampler == privacy::Sampler::textbook) out.non_private_notes.push_back(privacy::kTextbookSamplerNote);
    if (o.per_entry_sensitivity)
      out.non_private_notes.push_back(
          "pairwise baseline with per-entry sensitivity D: the distance matrix is not eps-DP (one point moves n-1 "
          "entries)");
    // Functions of the released labels and of the public n (replace-one neighbours).
    out.diagnostics = {{"clusters", r.clusters},
                       {"core_points", r.core_points},
                       {"domain_diameter", r.diameter},
                       {"sensitivity", r.sensitivity},
                       {"noise_scale", r.noise_scale}};
    out.details = std::move(r);
    return out;
  }
};

}  // namespace

json spans_release(const DpDbscanResult& r) {
  const CellGrid& g = r.grid;
  json grid = {{"lo", g.lo},
               {"hi", g.hi},
               {"cell_width", g.width},
               {"cells_per_dim", g.dims},
               {"universe_cells", g.universe},
               {"cell_box", "[lo_j + i_j * cell_width, lo_j + (i_j + 1) * cell_width) per dimension"}};
  std::vector<json> spans(r.spans.n_spans);
  std::vector<std::vector<double>> bbox_lo(r.spans.n_spans, std::vector<double>(g.d, 0)),
      bbox_hi(r.spans.n_spans, std::vector<double>(g.d, 0));
  std::vector<std::int64_t> idx(g.d);
  for (std::size_t s = 0; s < spans.size(); ++s)
    spans[s] = {{"span", s}, {"cells", json::array()}, {"boxes", json::array()}};
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
          {"classifier",
           "a point belongs to the span whose cell contains it; otherwise (or outside the domain) it is noise"}};
}

const MethodInfo& dp_dbscan_method_info() {
  static const MethodInfo info = [] {
    MethodInfo m;
    m.name = "dp_dbscan";
    m.summary =
        "DP-DBSCAN: approximate spans from a DP cell histogram (naive or linear-time), core cells merged by union-find";
    m.reference = "Qiu & Yi, Approximate DBSCAN under Differential Privacy, Alg. 1-2, Sec. 5-7";
    m.releases = "the spans (rectangles of dense cells, Sec. 5); with release_histogram the noisy histogram";
    m.private_when =
        "n_public > 0, or histogram: naive, or histogram: linear with theta >= 0 (n not used); and rng: dpclust";
    m.differentially_private = true;
    m.needs_bounds = true;
    m.relation = NeighbourRelation::add_remove;
    std::vector<std::string> noises;
    for (const NoiseName& nn : kNoiseNames) noises.emplace_back(nn.name);
    m.params = {
        epsilon_param(),
        privacy::sampler_param(),
        rng_param(),
        gives(real_param("delta", 0.0,
                         "delta of (eps, delta)-DP; used by gaussian noise only (laplace and geometric noise are pure "
                         "eps-DP and leave it unused)",
                         0.0, 1.0, false, true),
              "delta", {{"0", InputSource::none, "pure eps-DP (no delta)"}}),
        gives(real_param("alpha", std::nullopt, "DBSCAN radius (alpha)", 0.0, std::nullopt, true), "alpha"),
        gives(int_param("min_pts", std::nullopt,
                        "MinPts; a cell is core when its noisy neighbourhood sum >= MinPts + Gamma", 1),
              "min_pts"),
        real_param("eta", 4.0, "cell width w = eta * alpha / (4 sqrt d) (eta; 4 gives w = alpha / sqrt d)", 0.0,
                   std::nullopt, true),
        real_param("beta", 0.5, "failure probability of the error bound Gamma (beta)", 0.0, 1.0, true, true),
        selects(
            choice_param(
                "histogram", "auto", names_of(kHistogramChoices),
                "DP histogram: naive Laplace over all |X| cells, linear-time Alg. 2, or auto (linear when n <= |X|/2)"),
            "n", {{"naive", InputSource::none, "the naive histogram does not use n"}}),
        selects(choice_param(
                    "noise", "laplace", noises,
                    "histogram noise: laplace (discrete Laplace when sampler is secure), geometric (the two-sided "
                    "geometric = "
                    "discrete Laplace, always exact), gaussian (discrete Gaussian when secure; needs delta, eps < 1)"),
                "delta",
                {{"laplace", InputSource::none, "pure eps-DP noise: delta not used"},
                 {"geometric", InputSource::none, "pure eps-DP noise: delta not used"},
                 {"gaussian", InputSource::public_value, ""}}),
        choice_param(
            "neighbouring", "unbounded", names_of(kNeighbouring),
            "neighbouring datasets: add/remove a point (sensitivity 1, the paper's) or change one (sensitivity 2)"),
        real_param("theta", -1.0, "threshold of Alg. 2 (theta); -1 = by theta_rule"),
        choice_param(
            "theta_rule", "paper", names_of(kThetaRules),
            "automatic theta: max{0, ln(|X|/n)}/eps (Thm 6.1/7.1), or the authors' code (Gamma/kappa when |X| <= 2n)"),
        gives(
            int_param(
                "n_public", 0,
                "public n for the histogram choice and theta; 0 = the dataset's n (treated as public, as in the paper, "
                "and flagged when used: histogram auto, or linear with theta -1)",
                0),
            "n",
            {{"0", InputSource::data,
              "the dataset's true n, treated as public as in the paper (used by histogram: auto, or linear with theta "
              "-1)"}}),
        choice_param("core_rule", "minpts_prime", names_of(kCoreRules),
                     "core when S >= MinPts + Gamma (Sec. 7.2, MinPts' = MinPts + tau) or S >= MinPts - Gamma (Alg. 1 "
                     "literally)"),
        choice_param("storage", "auto", names_of(kStorageChoices),
                     "cell storage: dense arrays over |X| or hash maps keyed by the 64-bit cell code (same results)"),
        bool_param("release_histogram", false,
                   "also put the noisy cell counts and the noisy neighbourhood sums S(X) of every cell in the release "
                   "(figures; grids of at most 2^20 cells in dense storage; no extra privacy cost)"),
    };
    m.non_private_counterpart = "dbscan";
    m.make = [] { return std::make_unique<DpDbscanMethod>(); };
    m.check_shape = check_dp_dbscan_shape;
    m.cost.trial = dp_dbscan_trial_cost;
    m.cost.advice = dp_dbscan_cost_advice;
    m.python_estimator = "cluster.DPDBSCAN";
    return m;
  }();
  return info;
}

const MethodInfo& dp_kmeans_method_info() {
  static const MethodInfo info = [] {
    MethodInfo m;
    m.name = "dp_kmeans";
    m.releases_centres = true;
    m.labels_are_nearest_centre = true;
    m.summary =
        "DP-k-means (DPLloyd): noisy counts and sums of every cluster per iteration within public bounds; "
        "variant diffprivlib = the paper's baseline (IBM diffprivlib), flagged";
    m.reference = "Su et al. CODASPY 2016; diffprivlib models.KMeans (Holohan et al. 2019); DP-DBSCAN paper Table 2";
    m.releases = "the k noisy centres";
    m.private_when = "variant: dplloyd";
    m.differentially_private = true;
    m.needs_bounds = true;
    m.relation = NeighbourRelation::add_remove;
    m.params = {
        kmeans_epsilon_param(),
        privacy::sampler_param(),
        gives(int_param("k", std::nullopt, "number of clusters (k)", 1), "k"),
        choice_param(
            "variant", "dplloyd", names_of(kVariants),
            "dplloyd: DPLloyd made eps-DP (centred sums with sensitivity half the width, every cluster noised, T "
            "never from the true n); diffprivlib: IBM diffprivlib's KMeans bit for bit, the paper's baseline, with "
            "its own floating-point samplers whatever `sampler` says and its privacy gaps flagged"),
        choice_param(
            "diffprivlib_split", "as_run", names_of(kDiffprivlibSplits),
            "variant diffprivlib's budget split per iteration, norm = eps / (T (d + e0)), e0 = cbrt(4 d 0.225^2): "
            "as_run = what diffprivlib 0.6.6 draws (its _split_epsilon's values unpacked the other way round: "
            "count at norm, each sum at e0 norm; the ledger records the difference to eps as unspent or excess); "
            "as_documented = its docstring's split (count e0 norm, each sum norm; dpclust's numbers before the fix)"),
        gives(int_param(
                  "iterations", 0,
                  "Lloyd iterations T, at most 1e6; 0 = diffprivlib's rule int(max(min(eps/eps_m, 7), 2)) on n_public, "
                  "else (dplloyd) 5, (diffprivlib) the rule on the true n (flagged)",
                  0, kKMeansMaxIter),
              "iterations",
              {{"0", InputSource::rule,
                "diffprivlib's rule int(max(min(eps/eps_m, 7), 2)) on n_public, else 5 (variant diffprivlib: on the "
                "true n, flagged)"}}),
        gives(int_param(
                  "n_public", 0,
                  "a public number of points for the iteration rule and the sums' clamp bound, at most 2^52; 0 = none",
                  0, std::int64_t{1} << 52),
              "n", {{"0", InputSource::none, "no public n: the iteration rule and the sums' clamp do without it"}}),
        real_vector_param(
            "initial_centers", RealVector{},
            "public initial centres, row-major k x d {values: [x1, y1, x2, y2, ...]}, inside the bounds; empty = "
            "the data-independent draw (uniform in the shrunk bounds)"),
    };
    m.non_private_counterpart = "kmeans";
    m.make = [] { return std::make_unique<DpKmeansMethod>(); };
    m.cost.trial = dp_kmeans_trial_cost;
    m.python_estimator = "cluster.DPKMeans";
    m.check_shape = [](const ParamSet& p, const DataShape& shape) {
      check_at_most_points(p, shape, "k", "clusters");
      // The secure samplers' epsilon limits (dp_kmeans.hpp), from the configured bounds; without them
      // (bounds: data, Python) dp_kmeans() applies the same check before drawing any noise.
      if (shape.bounds.empty() || (shape.d && shape.bounds.dims() != *shape.d)) return;
      DpKmeansOptions o;
      o.k = static_cast<std::size_t>(p.integer("k"));
      o.epsilon = p.real("epsilon");
      o.variant = kind_of(kVariants, p, "variant");
      o.iterations = p.integer("iterations");
      o.n_public = static_cast<std::uint64_t>(p.integer("n_public"));
      o.sampler = privacy::sampler_of(p);
      check_secure_epsilon(o, shape.bounds);
    };
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
    m.releases = "every point's cluster label (DBSCAN on the noisy distance matrix)";
    m.private_when = "sensitivity: matrix (n is public under replace-one)";
    m.differentially_private = true;
    m.needs_bounds = true;
    // The matrix's sensitivity (n - 1) D is that of changing one point; n is public (pairwise.hpp).
    m.relation = NeighbourRelation::replace_one;
    m.params = {
        epsilon_param(),
        privacy::sampler_param(),
        gives(real_param("alpha", std::nullopt, "DBSCAN radius (alpha)", 0.0, std::nullopt, true), "alpha"),
        gives(int_param("min_pts", std::nullopt, "MinPts, counting the point itself", 1), "min_pts"),
        choice_param(
            "sensitivity", "matrix", names_of(kPairwiseSensitivity),
            "Laplace sensitivity: (n-1) D for the whole matrix (eps-DP under replace-one) or D per entry (as the "
            "baselines state; not eps-DP)"),
        int_param("max_n", 20000, "refuse datasets larger than this (n^2 work and n^2/8 bytes), at most 1e6", 2,
                  1'000'000),
        border_param(),
    };
    m.non_private_counterpart = "dbscan";
    // Replace-one neighbours make n public by definition (pairwise.hpp).
    m.side_inputs = {
        {"n", InputSource::public_value, "public under replace-one neighbours (the matrix's sensitivity uses it)"}};
    m.make = [] { return std::make_unique<PairwiseMethod>(); };
    m.cost.trial = pairwise_trial_cost;
    m.no_python_estimator =
        "a label-publishing baseline of the DP-DBSCAN paper's evaluation (Sec. 8.1) for configs: n^2 memory, "
        "its labels the whole release";
    m.check_shape = [](const ParamSet& p, const DataShape& shape) {
      const auto max_n = static_cast<std::uint64_t>(p.integer("max_n"));
      if (shape.n && shape.n_exact && *shape.n > max_n)
        throw InputError("params.max_n",
                         "dataset '" + shape.dataset + "' has " + std::to_string(*shape.n) +
                             " points, more than max_n = " + std::to_string(max_n),
                         "run it on a smaller dataset (sample: N) or raise max_n (memory n^2/8 bytes, time ~n^2)");
    };
    return m;
  }();
  return info;
}

}  // namespace dpclust::dpdbscan

namespace dpclust {

MethodFolder dpdbscan_folder() {
  return {{dpdbscan::dp_dbscan_method_info(), dpdbscan::dp_kmeans_method_info(), dpdbscan::pairwise_method_info()}, {}};
}

}  // namespace dpclust
