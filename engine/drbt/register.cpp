// The "drbt" method (Oliveira & Zaiane, Sec. 4 and 6.2) and its metrics.
#include "drbt/register.hpp"

#include <algorithm>
#include <any>
#include <memory>
#include <stdexcept>
#include <string>

#include "cluster/kmeans/kmeans.hpp"
#include "core/error.hpp"
#include "drbt/cost.hpp"
#include "drbt/fmeasure.hpp"
#include "drbt/projection.hpp"

namespace dpclust::drbt {
namespace {

constexpr const char* kMethod = "drbt";
constexpr const char* kReferenceKey = "drbt/reference_labels";
// The disguised data is stored in the trial record only up to this many values.
constexpr std::size_t kReleaseLimit = 10000;

// K-means as Sec. 6.2 step 4 uses it: one run per trial (its random seeding is why the paper repeats
// every experiment 10 times), here k-means++ seeding with n_init restarts (default 1).
// skip = true: the labels are not needed (Method::labels_needed: DRBT's stress tables score only the stress);
// the generator moves past the words K-means would have read (kmeans_skip_draws), so the stress's row sample
// that follows is the one of a run with the clustering, and the labels are all kNoise.
Labels kmeans_labels(const RowMatrix& m, const ParamSet& params, Rng& rng, bool skip = false) {
  const std::int64_t k = params.integer("k");
  if (static_cast<std::uint64_t>(k) > static_cast<std::uint64_t>(m.rows()))
    throw InputError("params.k",
                     "k = " + std::to_string(k) + " exceeds the number of points (" + std::to_string(m.rows()) + ")",
                     "choose k <= " + std::to_string(m.rows()));
  KMeansOptions opt;
  opt.n_init = params.integer("n_init");
  // The distances the triangle inequality rules out are skipped: the same labels, centres and generator
  // state, double for double (KMeansOptions::triangle_pruning), with less work.
  opt.triangle_pruning = true;
  const auto n = static_cast<std::size_t>(m.rows());
  if (skip) {
    kmeans_skip_draws(m.data(), n, static_cast<std::size_t>(m.cols()), static_cast<std::size_t>(k), opt, rng);
    return Labels(n, kNoise);
  }
  return kmeans(m.data(), n, static_cast<std::size_t>(m.cols()), static_cast<std::size_t>(k), opt, rng).labels;
}

class DrbtMethod final : public Method {
 public:
  MethodResult run(const Dataset& data, const ParamSet& params, Rng& rng,
                   BudgetLedger& /*ledger: not private*/) const override {
    const RowMatrix X = prepare_original(data, params);
    const auto d = static_cast<std::size_t>(X.cols());
    const auto k_dims = static_cast<std::size_t>(params.integer("k_dims"));
    const auto parties = static_cast<std::size_t>(params.integer("parties"));
    if (k_dims > d)
      throw InputError("params.k_dims",
                       "k_dims = " + std::to_string(k_dims) + " exceeds the " + std::to_string(d) +
                           " attributes of dataset '" + data.name + "' (DRBT reduces the dimension)",
                       "choose k_dims <= " + std::to_string(d));
    if (parties > d || parties > k_dims)
      throw InputError("params.parties",
                       std::to_string(parties) + " parties need at least as many attributes (" + std::to_string(d) +
                           ") and target dimensions (k_dims = " + std::to_string(k_dims) + ")",
                       "choose parties <= min(d, k_dims)");

    // Sec. 4.2 step 2 / Sec. 4.3 steps 1-2: project (per party) and join.
    Disguised D = transform(X, parse_projection(params.string("projection")),
                            parse_normalization(params.string("normalization")), parties, k_dims, rng);
    // Sec. 6.2 step 4: K-means on the disguised data (skipped, its words too, when nothing reads the labels).
    Labels labels = kmeans_labels(D.data, params, rng, !labels_needed());
    // Sec. 4.2 step 3: the data owner's check of the distortion (Eq. 6).
    StressOptions so;
    so.squared = params.string("stress_form") == "squared";
    so.scale = params.boolean("stress_scaled");
    so.max_pairs = static_cast<std::uint64_t>(params.integer("stress_pairs"));
    const double s = stress(X, D.data, so, rng);

    MethodResult r;
    r.labels = std::move(labels);
    r.labels_are_release =
        labels_needed();  // the central party shares the clustering of the disguised data (Sec. 4.3 step 3)
    nlohmann::json plan = nlohmann::json::array();
    for (const Party& p : D.parties)
      plan.push_back({{"first_attribute", p.first}, {"attributes", p.cols}, {"dims", p.dims}});
    r.release = {
        {"projection", params.string("projection")}, {"d_original", d}, {"d_reduced", k_dims}, {"parties", plan}};
    const auto n = static_cast<std::size_t>(D.data.rows());
    if (n * k_dims <= kReleaseLimit) {
      nlohmann::json rows = nlohmann::json::array();
      for (Eigen::Index i = 0; i < D.data.rows(); ++i) {
        std::vector<double> row(D.data.row(i).data(), D.data.row(i).data() + D.data.cols());
        rows.push_back(std::move(row));
      }
      r.release["disguised"] = std::move(rows);
    } else {
      r.release["disguised"] =
          "not stored: n * k_dims = " + std::to_string(n * k_dims) + " > " + std::to_string(kReleaseLimit);
    }
    // Public: shapes fixed by the parameters. The stress compares with the original data, an exact
    // statistic of it: evaluation (DRBT is not private, but the split is the same for every method).
    r.diagnostics = {{"d_original", d}, {"d_reduced", k_dims}, {"parties", parties}};
    // Table 10's split: the largest and smallest party's attributes and target dimensions.
    const PartySizes sizes = party_sizes(D.parties);
    r.diagnostics["party_attributes_max"] = sizes.attributes_max;
    r.diagnostics["party_attributes_min"] = sizes.attributes_min;
    r.diagnostics["party_dims_max"] = sizes.dims_max;
    r.diagnostics["party_dims_min"] = sizes.dims_min;
    r.evaluation = {{"stress", s}};
    r.details = DrbtResult{s, std::move(D.data)};
    r.non_private_notes.push_back(
        "DRBT is not differentially private: random projection gives no formal privacy guarantee (the paper argues "
        "only that a projection to fewer dimensions is not invertible, Sec. 4.4), and it preserves the distances "
        "between records by design");
    if (params.boolean("zscore"))
      r.non_private_notes.push_back("z-score normalisation uses the data's own means and standard deviations");
    if (params.boolean("class_attribute"))
      r.non_private_notes.push_back(
          "the ground-truth class is one of the clustered attributes (class_attribute: true)");
    return r;
  }
};

// K-means with the same k on the (prepared) original data, once per trial, with the metric seed.
const Labels& reference_labels(const MetricInput& in) {
  auto it = in.cache.find(kReferenceKey);
  if (it == in.cache.end()) {
    Rng rng(in.seed);
    it = in.cache.emplace(kReferenceKey, kmeans_labels(prepare_original(in.data, in.params), in.params, rng)).first;
  }
  return std::any_cast<const Labels&>(it->second);
}

}  // namespace

PartySizes party_sizes(const std::vector<Party>& parties) {
  if (parties.empty()) throw std::invalid_argument("party_sizes: no parties");
  PartySizes s{parties.front().cols, parties.front().cols, parties.front().dims, parties.front().dims};
  for (const Party& p : parties) {
    s.attributes_max = std::max(s.attributes_max, p.cols);
    s.attributes_min = std::min(s.attributes_min, p.cols);
    s.dims_max = std::max(s.dims_max, p.dims);
    s.dims_min = std::min(s.dims_min, p.dims);
  }
  return s;
}

RowMatrix prepare_original(const Dataset& data, const ParamSet& params) {
  const bool with_class = params.boolean("class_attribute");
  if (with_class && !data.has_labels())
    throw InputError("params.class_attribute",
                     "class_attribute: true needs ground-truth labels, but dataset '" + data.name + "' has none",
                     "name the label column (label: <column>) or set class_attribute: false");
  RowMatrix X(static_cast<Eigen::Index>(data.n), static_cast<Eigen::Index>(data.d + (with_class ? 1 : 0)));
  for (std::size_t i = 0; i < data.n; ++i) {
    for (std::size_t j = 0; j < data.d; ++j)
      X(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(j)) = data.point(i)[j];
    // Table 9 counts d_o = 5 for Iris's 4 measurements: the class (coded 0, 1, 2) was an attribute too.
    if (with_class)
      X(static_cast<Eigen::Index>(i), static_cast<Eigen::Index>(data.d)) = static_cast<double>(data.labels[i]);
  }
  if (params.boolean("zscore")) zscore(X);  // Sec. 6.2 step 1, Eq. 3
  return X;
}

const MethodInfo& drbt_method_info() {
  static const MethodInfo info = [] {
    MethodInfo m;
    m.name = kMethod;
    m.summary =
        "DRBT: z-score, random projection (RP1 Gaussian / RP2 sparse) to k_dims dimensions, per party under "
        "vertical partitioning, then K-means (not differentially private)";
    m.reference =
        "Oliveira & Zaiane, DRBT: Sec. 2.4 (Eq. 7, 9), 4.2-4.5 (Eq. 6, 11-14), 6.2-6.4 (Tables 4, 8-11), App. A-B "
        "(Tables 12-20)";
    m.differentially_private = false;
    m.needs_bounds = false;
    m.releases = "the projected (disguised) data and its K-means labels (Sec. 4.3)";
    m.private_when = "never: a random projection is not differential privacy";
    m.params = {
        choice_param(
            "projection", "rp2", {"rp1", "rp2"},
            "random matrix: rp1 = i.i.d. N(0,1) entries; rp2 = sqrt(3) * {+1, 0, -1} w.p. 1/6, 2/3, 1/6 (Eq. 9)"),
        int_param("k_dims", std::nullopt, "target dimension d_r of the disguised data (the paper's k in Table 4)", 1),
        int_param("parties", 1,
                  "parties holding disjoint groups of attributes (vertical partitioning, Sec. 4.3); 1 = centralised",
                  1),
        gives(int_param("k", std::nullopt, "number of K-means clusters (the paper varies 2..5)", 1), "k"),
        bool_param("zscore", true, "z-score normalisation of every attribute first (Sec. 6.2 step 1, Eq. 3)"),
        choice_param("normalization", "unit", {"unit", "orthonormal", "none"},
                     "columns of the random matrix: unit length (Sec. 2.4; Table 5 shows RP2 normalised too), "
                     "orthonormal (Gram-Schmidt), or none"),
        bool_param("class_attribute", false,
                   "append the ground-truth class as one more attribute (Table 9 counts d_o = 5 for Iris)"),
        int_param("n_init", 1, "K-means restarts per clustering (the paper runs K-means once per trial), at most 1e4",
                  1, kKMeansMaxInit),
        choice_param("stress_form", "squared", {"squared", "root"},
                     "report Eq. 6's stress^2 (matches the magnitudes of Table 4) or its square root"),
        bool_param("stress_scaled", false, "scale reduced-space distances by sqrt(d/k) (Eq. 8) in the stress"),
        int_param("stress_pairs", 2000000,
                  "stress over all pairs when n(n-1)/2 <= this, else over all pairs among m random rows, m the largest "
                  "with m(m-1)/2 <= this; at most 1e9",
                  1, 1'000'000'000),
        choice_param("of_matching", "best", {"best", "hungarian"},
                     "overall F-measure: each original cluster takes its best transformed cluster (Eq. 14) or a "
                     "one-to-one Hungarian matching"),
    };
    m.make = [] { return std::make_unique<DrbtMethod>(); };
    m.cost.trial = trial_cost;
    m.python_estimator = "transform.DRBT";
    m.check_shape = [](const ParamSet& p, const DataShape& shape) {
      check_at_most_points(p, shape, "k", "K-means clusters");
      const auto k_dims = static_cast<std::size_t>(p.integer("k_dims"));
      const auto parties = static_cast<std::size_t>(p.integer("parties"));
      if (parties > k_dims)
        throw InputError("params.parties",
                         std::to_string(parties) + " parties need at least as many target dimensions (k_dims = " +
                             std::to_string(k_dims) + ")",
                         "choose parties <= k_dims");
      if (!shape.d) return;
      // The original data has d attributes, one more with class_attribute: true.
      const std::size_t d = *shape.d + (p.boolean("class_attribute") ? 1 : 0);
      if (k_dims > d)
        throw InputError("params.k_dims",
                         "k_dims = " + std::to_string(k_dims) + " exceeds the " + std::to_string(d) +
                             " attributes of dataset '" + shape.dataset + "' (DRBT reduces the dimension)",
                         "choose k_dims <= " + std::to_string(d));
      if (parties > d)
        throw InputError("params.parties",
                         std::to_string(parties) + " parties need at least as many attributes (" + std::to_string(d) +
                             " in dataset '" + shape.dataset + "')",
                         "choose parties <= " + std::to_string(d));
    };
    return m;
  }();
  return info;
}

std::vector<MetricInfo> drbt_metric_list() {
  return {
      {"stress",
       "DRBT Eq. 6: relative error of the pairwise distances after the projection (stress^2 by default, param "
       "stress_form)",
       false,
       [](const MetricInput& in) {
         const auto* r = std::any_cast<DrbtResult>(&in.result.details);
         if (!r)
           throw std::logic_error("the stress metric needs the DrbtResult of a drbt run in MethodResult::details");
         return r->stress;
       },
       {kMethod},
       /*needs_centres=*/false,
       /*by_default=*/true,
       /*reads_labels=*/false},  // the stress only: a trial scoring nothing else skips the K-means step
      {"of",
       "DRBT Eq. 14: overall F-measure of the K-means clusters of the disguised data against K-means (same k) on the "
       "original data",
       false,
       [](const MetricInput& in) {
         return overall_f_measure(reference_labels(in), in.result.labels,
                                  parse_of_matching(in.params.string("of_matching")));
       },
       {kMethod}},
  };
}

}  // namespace dpclust::drbt

namespace dpclust {

// stress (Eq. 6) and of (overall F-measure, Eq. 14); the min/avg/max/std over trials of Tables 8-11 are the
// runner's per-metric summary.
MethodFolder drbt_folder() { return {{drbt::drbt_method_info()}, drbt::drbt_metric_list()}; }

}  // namespace dpclust
