// The method "lsh_clustering" (Google's DP clustering); see register.hpp and lsh_clustering.hpp.
#include "lsh_clustering/register.hpp"

#include <memory>
#include <string>
#include <vector>

#include "cluster/kmeans/kmeans.hpp"
#include "core/error.hpp"
#include "core/named_choice.hpp"
#include "lsh_clustering/cost.hpp"
#include "privacy/mechanism.hpp"

namespace dpclust::lsh {
namespace {

using nlohmann::json;

enum class AccountantChoice { automatic, pld, rdp };
const Named<Centre> kCentres[] = {{"bounds", Centre::bounds}, {"origin", Centre::origin}, {"data", Centre::data}};
const Named<AccountantChoice> kAccountants[] = {
    {"auto", AccountantChoice::automatic}, {"pld", AccountantChoice::pld}, {"rdp", AccountantChoice::rdp}};

class LshClusteringMethod final : public Method {
 public:
  MethodResult run(const Dataset& data, const ParamSet& p, Rng& rng, BudgetLedger& ledger) const override {
    const LshClusteringOptions o = options_of(p);
    LshClusteringResult r = lsh_clustering(data.coords.data(), data.n, data.d, data.bounds, o, rng, ledger);
    MethodResult out;
    out.labels = std::move(r.labels);
    out.labels_are_release = false;
    out.non_private_notes = r.non_private_notes;
    out.centres = r.centres;
    out.release = {{"centers", rows_json(r.centres)}};
    if (p.boolean("release_coreset")) {
      RowMatrix points = r.coreset.points;  // in the data's coordinates, as the centres
      for (Eigen::Index c = 0; c < points.rows(); ++c)
        for (Eigen::Index j = 0; j < points.cols(); ++j) points(c, j) += r.centre[static_cast<std::size_t>(j)];
      out.release["coreset"] = {{"points", rows_json(points)}, {"weights", r.coreset.weights}};
    }
    out.diagnostics = {{"accounting", to_string(r.calibration.accountant)},
                       {"alpha", r.calibration.alpha},
                       {"noise_multiplier", r.calibration.noise_multiplier},
                       {"count_scale", r.count_scale},
                       {"count_levels", r.calibration.count_releases},
                       {"tree_automatic", r.automatic_tree},
                       {"min_points_in_node", r.tree.min_points_in_node},
                       {"min_points_in_branching_node", r.tree.min_points_in_branching_node},
                       {"root_private_count", r.root_private_count},
                       {"depth", r.depth},
                       {"leaves", r.coreset.weights.size()},
                       {"count_draws", r.count_draws},
                       {"centres_released", r.centres.rows()},
                       {"kmeans_iterations", r.kmeans_iterations}};
    // The radius and the centre are public unless taken from the data; then they are data statistics, and so
    // is the sums' noise, calibrated to r: sigma = multiplier x r, the grid 2^e with r in its units, and the
    // delta certified at the drawn sigma (its upward rounding depends on r in units).
    json& where = (o.radius_from_data || o.centre == Centre::data) ? out.evaluation : out.diagnostics;
    where["radius"] = r.radius;
    where["centre"] = r.centre;
    where["sum_sigma"] = r.sum_sigma;
    where["certified_delta"] = r.certified_delta;
    if (r.on_grid) {
      where["sum_grid_exponent"] = r.grid.exponent;
      where["sum_sensitivity_units"] = r.grid.sensitivity;
      where["rounding_share_of_sensitivity"] = r.grid.sensitivity / r.grid.units_radius - 1.0;
    }
    out.evaluation["inertia"] = r.inertia;
    out.evaluation["points_clipped"] = r.points_clipped;
    out.evaluation["points_in_leaves"] = r.coreset.points_in_leaves;
    out.details = std::move(r);
    return out;
  }
};

}  // namespace

LshClusteringOptions options_of(const ParamSet& p) {
  LshClusteringOptions o;
  o.k = static_cast<std::size_t>(p.integer("k"));
  o.epsilon = p.real("epsilon");
  o.delta = p.real("delta");
  o.radius = p.real("radius");
  o.radius_from_data = p.boolean("radius_from_data");
  o.centre = kind_of(kCentres, p, "centre");
  o.max_depth = static_cast<int>(p.integer("max_depth"));
  o.min_points_in_node = p.integer("min_points_in_node");
  o.min_points_in_branching_node = p.integer("min_points_in_branching_node");
  o.multipliers.gaussian = p.real("gaussian_multiplier");
  o.multipliers.dlaplace = p.real("dlaplace_multiplier");
  o.sampler = privacy::sampler_of(p);
  switch (kind_of(kAccountants, p, "accounting")) {
    case AccountantChoice::automatic:
      o.accountant = o.sampler == privacy::Sampler::secure ? Accountant::rdp : Accountant::pld;
      break;
    case AccountantChoice::pld: o.accountant = Accountant::pld; break;
    case AccountantChoice::rdp: o.accountant = Accountant::rdp; break;
  }
  o.kmeans.n_init = p.integer("n_init");
  o.kmeans.max_iter = p.integer("max_iter");
  o.kmeans.tol = p.real("tol");
  // Exact pruning (KMeansOptions::triangle_pruning): the same centres double for double, fewer distances.
  o.kmeans.triangle_pruning = true;
  return o;
}

const MethodInfo& lsh_clustering_method_info() {
  static const MethodInfo info = [] {
    MethodInfo m;
    m.name = "lsh_clustering";
    m.releases_centres = true;  // the centres of the weighted k-means on the private coreset
    m.labels_are_nearest_centre = true;
    m.summary =
        "Google's DP clustering: an LSH prefix tree grown on private counts, a private coreset of leaf averages and "
        "counts, weighted k-means on the coreset; (eps, delta)-DP with one accountant for all its noise";
    m.reference =
        "Chang & Kamath 2021 (Google, learning/clustering of google/differential-privacy); Chang, Ghazi, Kumar & "
        "Manurangsi, ICML 2021";
    m.releases = "the (at most k) centres; with release_coreset the private coreset (leaf averages and counts)";
    m.private_when = "radius_from_data: false and centre: bounds or origin";
    m.differentially_private = true;
    // The defaults take the centre and the radius from the public bounds (as dp_kmeans needs them); with
    // radius > 0 and centre: origin the bounds only check the data (points outside them are refused).
    m.needs_bounds = true;
    m.relation = NeighbourRelation::add_remove;
    m.params = {
        real_param("epsilon", 1.0, "privacy budget (epsilon) of the whole release, in [1e-6, 1e6]", 1e-6, 1e6),
        gives(
            real_param("delta", 1e-6, "delta of (eps, delta)-DP (the reference's default 1e-6)", 0.0, 1.0, true, true),
            "delta"),
        privacy::sampler_param(),
        gives(int_param("k", std::nullopt,
                        "number of clusters (k); fewer centres when the coreset has fewer than k points", 1),
              "k"),
        gives(real_param(
                  "radius", 0.0,
                  "public radius r of the ball (around `centre`) every point is clipped to; 0 = the smallest such ball "
                  "holding the public bounds",
                  0.0),
              "radius", {{"0", InputSource::rule, "the smallest ball around the centre holding the public bounds"}}),
        selects(bool_param("radius_from_data", false,
                           "take r as the largest norm of the centred data, as the reference README's benchmarks did "
                           "(not private: "
                           "flagged)"),
                "radius",
                {{"true", InputSource::data, "the largest norm of the centred data (radius_from_data, flagged)"}}),
        selects(
            choice_param(
                "centre", "bounds", names_of(kCentres),
                "the origin of the ball and of the SimHash hyperplanes: the midpoint of the public bounds, the origin "
                "(data already centred), or the true mean (not private: flagged)"),
            "centre",
            {{"bounds", InputSource::rule, "the midpoint of the public bounds"},
             {"origin", InputSource::public_value, "the origin (the data taken as centred)"},
             {"data", InputSource::data, "the true mean of the data (centre: data, flagged)"}}),
        int_param("max_depth", kDefaultMaxDepth,
                  "levels of the LSH prefix tree below the root (the reference's 20); every level's counts are charged",
                  0, 63),
        int_param(
            "min_points_in_node", 0,
            "a child joins the tree when its private count is at least this; 0 = automatic: max(1, min(int(10 sqrt(d) "
            "sigma/Delta), floor(n~ / 2k)))",
            0),
        int_param("min_points_in_branching_node", 0,
                  "a node branches when its private count is at least this; 0 = 3 min_points_in_node", 0),
        real_param("gaussian_multiplier", 1.0,
                   "PrivacyCalculatorMultiplier.gaussian_std_dev_multiplier: sigma / Delta = this times alpha", 0.0,
                   std::nullopt, true),
        real_param("dlaplace_multiplier", 20.0,
                   "PrivacyCalculatorMultiplier.dlaplace_param_multiplier: the counts' discrete Laplace scale = this "
                   "times alpha",
                   0.0, std::nullopt, true),
        choice_param(
            "accounting", "auto", names_of(kAccountants),
            "the accountant calibrating alpha: pld = exact privacy loss distribution of the continuous Gaussian "
            "(textbook sampler; at least as tight as the reference's dp_accounting PLD), rdp = Renyi DP (the secure "
            "sampler's discrete Gaussian); auto = rdp when secure, pld when textbook"),
        int_param("n_init", 10,
                  "k-means++ restarts on the coreset (scikit-learn < 1.4's KMeans default, as the reference ran), at "
                  "most 1e4",
                  1, kKMeansMaxInit),
        int_param("max_iter", 300, "Lloyd iterations per restart on the coreset, at most 1e6", 1, kKMeansMaxIter),
        real_param("tol", 1e-4, "k-means tolerance on the coreset (scikit-learn tol)", 0.0),
        bool_param("release_coreset", false, "also put the private coreset (leaf averages and counts) in the release"),
    };
    m.non_private_counterpart = "kmeans";
    m.side_inputs = {{"n", InputSource::private_estimate, "the root's noisy count n~ (the automatic node thresholds)"}};
    m.make = [] { return std::make_unique<LshClusteringMethod>(); };
    m.cost.trial = trial_cost;
    m.python_estimator = "cluster.LSHClustering";
    m.check_shape = [](const ParamSet& p, const DataShape& shape) {
      check_at_most_points(p, shape, "k", "clusters");
      const LshClusteringOptions o = options_of(p);
      // Whether the bounds a default needs exist is known only at run time (bounds: data, Python):
      // lsh_clustering() refuses their absence there, before any noise.
      check_options(o, shape.d ? *shape.d : 0);
    };
    return m;
  }();
  return info;
}

}  // namespace dpclust::lsh

namespace dpclust {

MethodFolder lsh_clustering_folder() { return {{lsh::lsh_clustering_method_info()}, {}}; }

}  // namespace dpclust
