// The method `dpm`: its declared parameters, the adapter from them to dpm::dpm(), and what it releases.
#include "dpm/register.hpp"

#include <memory>
#include <nlohmann/json.hpp>

#include "core/error.hpp"
#include "core/named_choice.hpp"
#include "dpm/cost.hpp"
#include "dpm/dpm.hpp"
#include "privacy/mechanism.hpp"

namespace dpclust {

namespace dpm {
namespace {

using json = nlohmann::json;

const Named<GapStatistic> kGapStatistics[] = {{"pooled", GapStatistic::pooled}, {"rank_mean", GapStatistic::rank_mean}};
const Named<HistogramBins> kHistogramBins[] = {{"reference", HistogramBins::reference},
                                               {"aligned", HistogramBins::aligned}};

class DpmMethod final : public Method {
 public:
  MethodResult run(const Dataset& data, const ParamSet& p, Rng& rng, BudgetLedger& ledger) const override {
    const DpmOptions o = options_of(p);
    DpmResult r = dpm(data.coords.data(), data.n, data.d, data.bounds, o, rng, ledger);
    MethodResult out;
    out.labels = r.labels;
    out.labels_are_release = false;
    out.centres = r.centres;
    if (o.sampler == privacy::Sampler::textbook) out.non_private_notes.push_back(privacy::kTextbookSamplerNote);
    for (const std::string& gap : r.privacy_gaps) out.non_private_notes.push_back(gap);
    json splits = json::array();
    for (const Split& s : r.splits)
      splits.push_back({{"level", s.level}, {"path", s.path}, {"dimension", s.dimension}, {"position", s.position}});
    out.release = {{"centers", rows_json(r.centres)},
                   {"root_noisy_count", r.root_noisy_count},
                   {"gap_percentile", r.interval.gap_percentile},
                   {"interval_size", r.interval.interval},
                   {"splits", std::move(splits)},
                   {"leaf_noisy_counts", r.leaf_noisy_counts}};
    // Functions of the release and the parameters.
    out.diagnostics = {{"leaves", r.leaf_noisy_counts.size()},
                       {"candidates_per_dimension", r.candidates},
                       {"codebook_n", r.interval.codebook_n},
                       {"codebook_sigma", r.interval.sigma},
                       {"split_limit", r.split_limit},
                       {"leaf_levels", r.leaf_levels},
                       {"sum_sigma", r.sum_sigma},
                       {"sum_grid", r.sum_grid},
                       {"gap_statistic", to_string(o.gap_statistic)},
                       {"histogram_bins", to_string(o.histogram_bins)}};
    out.evaluation = {
        {"inertia", r.inertia}, {"leaf_sizes", r.leaf_sizes}, {"clamped_coordinates", r.clamped_coordinates}};
    out.details = std::move(r);
    return out;
  }
};

}  // namespace

DpmOptions options_of(const ParamSet& p) {
  DpmOptions o;
  o.epsilon = p.real("epsilon");
  o.delta = p.real("delta");
  o.sampler = privacy::sampler_of(p);
  o.levels = static_cast<int>(p.integer("levels"));
  o.share_interval = p.real("share_interval");
  o.share_counts = p.real("share_counts");
  o.share_splits = p.real("share_splits");
  o.share_centres = p.real("share_centres");
  o.weights.t = p.real("t");
  o.weights.q = p.real("q");
  o.weights.w_c = p.real("w_c");
  o.weights.w_e = p.real("w_e");
  o.gap_statistic = kind_of(kGapStatistics, p, "gap_statistic");
  o.histogram_bins = kind_of(kHistogramBins, p, "histogram_bins");
  return o;
}

const MethodInfo& dpm_method_info() {
  static const MethodInfo info = [] {
    MethodInfo m;
    m.name = "dpm";
    m.releases_centres = true;  // the noisy leaf averages, in the data's coordinates
    m.labels_are_nearest_centre = true;
    m.summary =
        "DPM: recursive axis-aligned splits at low-density separators (exponential mechanism), no k; noisy leaf means "
        "as centres";
    m.reference =
        "Liebenow et al., DPM: Clustering Sensitive Data through Separation, CCS 2024 (arXiv 2307.02969); "
        "UzL-PrivSec/dp-mondrian-clustering dpm.py";
    m.releases =
        "up to 2^levels noisy centres (one per leaf), the kept separators, the leaves' noisy counts, the interval size";
    m.private_when = "gap_statistic: pooled, or d = 1";
    m.differentially_private = true;
    m.needs_bounds = true;
    m.relation = NeighbourRelation::add_remove;
    m.params = {
        real_param("epsilon", 1.0, "privacy budget (epsilon), at least 1e-9", 1e-9),
        gives(real_param("delta", 1e-5,
                         "delta of (eps, delta)-DP (the paper's 1e-5; the artifact's script 1/(n sqrt n)): 0.8 delta "
                         "for the centres' "
                         "Gaussian, 0.2 delta for the counts' lower bound",
                         0.0, 1.0, true, true),
              "delta"),
        privacy::sampler_param(),
        int_param("levels", 7, "split levels L (at most 2^L leaves)", 1, 16),
        real_param("share_interval", 0.04,
                   "budget share of the interval-size estimation (shares are normalised to sum to 1)", 0.0,
                   std::nullopt, true),
        real_param("share_counts", 0.18,
                   "budget share of the noisy counts (over the levels proportionally to sqrt(2^l))", 0.0, std::nullopt,
                   true),
        real_param("share_splits", 0.18,
                   "budget share of the split choices (over the levels proportionally to sqrt(2^l))", 0.0, std::nullopt,
                   true),
        real_param("share_centres", 0.6, "budget share of the centres' noisy sums", 0.0, std::nullopt, true),
        real_param("t", 0.3, "centreness at the q-quantiles (t)", 0.0, 1.0, true, true),
        real_param("q", 1.0 / 12.0, "outer quantile of the centreness ramp (q)", 0.0, 0.5, true, true),
        real_param("w_c", 1.0, "weight of the centreness score (w_c)", 0.0),
        real_param("w_e", 5.0, "weight of the emptiness score (w_e)", 0.0),
        choice_param(
            "gap_statistic", "pooled", names_of(kGapStatistics),
            "gaps whose private 65th percentile sets the interval size: pooled = every dimension's gaps (rank "
            "sensitivity 2d); rank_mean = the reference's mean of the i-th gaps over the dimensions (charged with "
            "sensitivity 2, which holds for d = 1 only: flagged for d > 1)"),
        choice_param(
            "histogram_bins", "reference", names_of(kHistogramBins),
            "emptiness counts: reference = the reference's histogram of m bins over [lo, hi] (not aligned with the "
            "candidates unless w divides hi - lo); aligned = each candidate's own interval of width w"),
    };
    m.non_private_counterpart = "kmeans";
    // DPM takes no k and no n: it estimates the size and the interval width privately (dpm.hpp).
    m.side_inputs = {{"n", InputSource::private_estimate, "a noisy root count N (the split threshold N / 2^L)"},
                     {"k", InputSource::none, "DPM chooses its number of leaves itself (at most 2^levels)"}};
    m.make = [] { return std::make_unique<DpmMethod>(); };
    m.cost.trial = trial_cost;
    m.python_estimator = "cluster.DPM";
    m.check_shape = [](const ParamSet& p, const DataShape& shape) {
      const DpmOptions o = options_of(p);
      const bool bounds_known = !shape.bounds.empty() && (!shape.d || shape.bounds.dims() == *shape.d);
      check_dpm_options(o, bounds_known ? shape.bounds : Bounds{});
      if (shape.n && shape.n_exact && *shape.n >= (std::uint64_t{1} << 32))
        throw InputError("dataset",
                         "DPM takes at most 2^32 - 1 points; '" + shape.dataset + "' has " + std::to_string(*shape.n),
                         "sample the dataset (sample: N)");
    };
    return m;
  }();
  return info;
}

}  // namespace dpm

MethodFolder dpm_folder() { return {{dpm::dpm_method_info()}, {}}; }

}  // namespace dpclust
