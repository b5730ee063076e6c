// The method `hst_clustering`: its declared parameters, the adapter from them to hst::hst_clustering(), and what
// it releases.
#include "hst_clustering/register.hpp"

#include <memory>
#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "core/named_choice.hpp"
#include "hst_clustering/cost.hpp"
#include "privacy/mechanism.hpp"

namespace dpclust {

namespace hst {
namespace {

using json = nlohmann::json;

const Named<Objective> kObjectives[] = {{"kmedian", Objective::kmedian}, {"kmeans", Objective::kmeans}};
const Named<Variant> kVariants[] = {{"exact", Variant::exact}, {"authors", Variant::authors}};

json released_tree(const HstClusteringResult& r) {
  json cells = json::array();
  for (std::size_t i = 0; i < r.tree.nodes.size(); ++i) {
    const HstNode& v = r.tree.nodes[i];
    if (v.kind == NodeKind::released || (v.kind == NodeKind::root && r.tree.root_released))
      cells.push_back({{"id", cell_id(r.tree, i)}, {"noisy_count", v.weight}});
  }
  return {{"cells", std::move(cells)}, {"split_fractions", r.splits.values()}};
}

class HstClusteringMethod final : public Method {
 public:
  MethodResult run(const Dataset& data, const ParamSet& p, Rng& rng, BudgetLedger& ledger) const override {
    const HstClusteringOptions o = options_of(p);
    HstClusteringResult r = hst_clustering(data.coords.data(), data.n, data.d, data.bounds, o, rng, ledger);
    MethodResult out;
    out.labels = std::move(r.labels);
    out.labels_are_release = false;
    out.centres = r.centres;
    out.non_private_notes = r.non_private_notes;
    out.release = {{"centers", rows_json(r.centres)}};
    if (p.boolean("release_tree")) out.release["tree"] = released_tree(r);
    const CountCalibration& c = r.calibration;
    // Functions of the release and the parameters: the tree's shape is the released cells'.
    out.diagnostics = {{"variant", to_string(o.variant)},
                       {"objective", to_string(o.objective)},
                       {"levels", r.splits.levels()},
                       {"cells_per_record", c.cells_per_record},
                       {"cells_calibrated", c.cells_calibrated},
                       {"sigma", c.sigma},
                       {"threshold", c.threshold},
                       {"released_cells", r.tree.released_cells},
                       {"tree_nodes", r.tree.nodes.size()},
                       {"completion_nodes", r.tree.completion_nodes},
                       {"leaves", r.tree.leaves},
                       {"depth", r.tree.depth},
                       {"tree_cost", r.solution.tree_cost},
                       {"centres_released", r.centres.rows()}};
    if (c.drawn_sigma != c.sigma) out.diagnostics["drawn_sigma"] = c.drawn_sigma;
    if (r.tree.root_released) out.diagnostics["root_noisy_count"] = r.tree.nodes[0].weight;
    if (o.variant == Variant::authors) out.diagnostics["epsilon_of_the_noise"] = c.true_epsilon;
    out.evaluation = {{"inertia", r.inertia},
                      {"cells_noised", r.tree.cells_noised},
                      {"points_outside_bounds", r.points_outside_bounds}};
    out.details = std::move(r);
    return out;
  }
};

}  // namespace

HstClusteringOptions options_of(const ParamSet& p) {
  HstClusteringOptions o;
  o.k = static_cast<std::size_t>(p.integer("k"));
  o.epsilon = p.real("epsilon");
  o.delta = p.real("delta");
  o.threshold_share = p.real("threshold_share");
  o.layers = static_cast<std::size_t>(p.integer("layers"));
  o.objective = kind_of(kObjectives, p, "objective");
  o.variant = kind_of(kVariants, p, "variant");
  o.sampler = privacy::sampler_of(p);
  return o;
}

const MethodInfo& hst_clustering_method_info() {
  static const MethodInfo info = [] {
    MethodInfo m;
    m.name = "hst_clustering";
    m.releases_centres = true;  // cell midpoints of the private tree
    m.labels_are_nearest_centre = true;
    m.summary =
        "HST clustering: a randomly split quadtree whose cells' counts are released above a threshold with Gaussian "
        "noise, and the k-median / k-means solution of a dynamic program on that tree; (eps, delta)-DP";
    m.reference =
        "Cohen-Addad, Epasto, Mirrokni, Narayanan & Zhong, Scalable Differentially Private Clustering via "
        "Hierarchically "
        "Separated Trees, KDD 2022 (arXiv 2206.08646); google-research/google-research hst_clustering";
    m.releases =
        "the (at most k) centres, midpoints of cells of the private tree; with release_tree the released cells (ids "
        "and "
        "noisy counts) and the split fractions";
    m.private_when = "variant: exact";
    m.differentially_private = true;
    m.needs_bounds = true;
    m.relation = NeighbourRelation::add_remove;
    m.params = {
        real_param("epsilon", 1.0, "privacy budget (epsilon) of the whole release, in [1e-6, 1e6]", 1e-6, 1e6),
        gives(real_param("delta", 1e-5,
                         "delta of (eps, delta)-DP (the authors' default 1e-5): threshold_share of it for the "
                         "threshold, the rest "
                         "for the Gaussian",
                         0.0, 1.0, true, true),
              "delta"),
        privacy::sampler_param(),
        gives(int_param("k", std::nullopt, "number of centres (k); fewer when the private tree has fewer leaves", 1),
              "k"),
        int_param(
            "layers", 10,
            "number of HST layers L: each splits every dimension once (L d binary levels, one noisy count per level a "
            "record; the authors' default 10)",
            1, 64),
        choice_param(
            "objective", "kmedian", names_of(kObjectives),
            "tree cost the dynamic program minimises: kmedian = cell diameters (the authors' exp = 1, what their "
            "run_clustering.py solves), kmeans = squared diameters (exp = 2)"),
        choice_param(
            "variant", "exact", names_of(kVariants),
            "calibration of the counts: exact = the root's count is not released, a record changes L d counts, sigma "
            "for sqrt(L d) and tau from the noise's tail; authors = their calibration (the root's count released too, "
            "sigma for L d counts where a "
            "record changes 1 + L d, tau = 1 + sqrt(2) sigma Phi^-1(1 - delta / (L d))): flagged non-private, its "
            "excess "
            "epsilon declared"),
        real_param("threshold_share", 0.5,
                   "share of delta for the threshold (the authors' 1/2); the Gaussian gets the rest", 0.0, 1.0, true,
                   true),
        bool_param("release_tree", false,
                   "also put the released cells (ids and noisy counts) and the split fractions in the release"),
    };
    m.non_private_counterpart = "kmeans";
    m.side_inputs = {{"n", InputSource::none, "the noise and the threshold depend on epsilon, delta, L and d only"}};
    m.make = [] { return std::make_unique<HstClusteringMethod>(); };
    m.cost.trial = trial_cost;
    m.python_estimator = "cluster.HSTClustering";
    m.check_shape = [](const ParamSet& p, const DataShape& shape) {
      check_at_most_points(p, shape, "k", "clusters");
      check_options(options_of(p), shape.d ? *shape.d : 0);
    };
    return m;
  }();
  return info;
}

}  // namespace hst

MethodFolder hst_clustering_folder() { return {{hst::hst_clustering_method_info()}, {}}; }

}  // namespace dpclust
