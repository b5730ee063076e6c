// HST clustering end to end; see hst_clustering.hpp.
#include "hst_clustering/hst_clustering.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <sstream>
#include <stdexcept>

#include "core/cell_streams.hpp"
#include "core/error.hpp"
#include "core/method.hpp"
#include "metrics/nearest_centre.hpp"
#include "privacy/gaussian_calibration.hpp"
#include "privacy/gaussian_thresholding.hpp"

namespace dpclust::hst {
namespace {

constexpr std::uint32_t kSplitLane = 0x48535401;  // "HST", 1: the split fractions
constexpr std::uint32_t kNoiseLane = 0x48535402;  // "HST", 2: the cells' count noise
// The exact discrete Gaussian sampler takes sigma^2 <= 2^40 (privacy/samplers.hpp).
constexpr double kMaxSecureSigma2 = 1099511627776.0;

std::uint64_t levels_of(const HstClusteringOptions& o, std::size_t d) {
  return static_cast<std::uint64_t>(o.layers) * d;
}

}  // namespace

const char* to_string(Variant v) { return v == Variant::authors ? "authors" : "exact"; }

double gaussian_epsilon(privacy::Sampler sampler, double sigma, double l2, double delta) {
  if (!(sigma > 0 && l2 > 0 && delta > 0 && delta < 1))
    throw std::invalid_argument("gaussian_epsilon: need sigma, l2 > 0 and delta in (0, 1)");
  auto delta_at = [&](double epsilon) {
    return sampler == privacy::Sampler::secure ? privacy::zcdp_delta(l2 * l2 / (2 * sigma * sigma), epsilon)
                                               : privacy::analytic_gaussian_delta(sigma, epsilon, l2);
  };
  double lo = 0, hi = 1;
  while (delta_at(hi) > delta) {
    lo = hi;
    hi *= 2;
    if (hi > 1e12) throw std::invalid_argument("gaussian_epsilon: no epsilon below 1e12");
  }
  for (int i = 0; i < 300 && hi - lo > 1e-13 * hi; ++i) {
    const double mid = 0.5 * (lo + hi);
    if (delta_at(mid) > delta) lo = mid;
    else hi = mid;
  }
  return hi;
}

void check_options(const HstClusteringOptions& o, std::size_t d) {
  if (o.k < 1) throw InputError("params.k", "k must be >= 1", "give the number of centres, k >= 1");
  if (!(o.epsilon > 0) || !std::isfinite(o.epsilon))
    throw InputError("params.epsilon", "epsilon must be a finite number > 0");
  if (!(o.delta > 0 && o.delta < 1))
    throw InputError("params.delta",
                     "delta must be in (0, 1): the Gaussian noise and the threshold each take a part of it",
                     "use e.g. delta: 1e-5 (the authors' default)");
  if (!(o.threshold_share > 0 && o.threshold_share < 1))
    throw InputError("params.threshold_share",
                     "threshold_share must be in (0, 1): the threshold and the Gaussian each need a part of delta",
                     "use threshold_share: 0.5 (the authors' delta / 2)");
  if (o.layers < 1 || o.layers > 64)
    throw InputError("params.layers", "layers must be in [1, 64]", "use layers: 10 (the authors' default)");
  if (d == 0) return;
  const std::uint64_t levels = levels_of(o, d);
  if (levels > kMaxLevels)
    throw InputError("params.layers",
                     "layers x d = " + std::to_string(levels) +
                         " binary levels, above the limit 2^20 (a record's count at every level is noised)",
                     "use fewer layers, or reduce the dimension first");
  if (o.sampler == privacy::Sampler::secure) {
    // The sigma the discrete Gaussian needs is above 2^20 exactly when sigma = 2^20 does not reach delta_G (delta
    // falls as sigma grows): one evaluation, the calibration itself only for the message.
    const double delta_gaussian = o.delta - o.threshold_share * o.delta, m = static_cast<double>(levels);
    if (privacy::zcdp_delta(m / (2 * kMaxSecureSigma2), o.epsilon) > delta_gaussian) {
      const double sigma = privacy::zcdp_gaussian_sigma(o.epsilon, delta_gaussian, std::sqrt(m));
      throw InputError("params.epsilon",
                       "epsilon = " + short_number(o.epsilon) + " with delta = " + short_number(o.delta) + " and " +
                           std::to_string(levels) + " levels needs a discrete Gaussian of sigma " +
                           short_number(sigma) + ", above the exact sampler's 2^20",
                       "use a larger epsilon or delta, fewer layers, or sampler: textbook (flagged non-private)");
    }
  }
}

HstClusteringResult hst_clustering(const double* coords, std::size_t n, std::size_t d, const Bounds& bounds,
                                   const HstClusteringOptions& o, Rng& rng, BudgetLedger& ledger) {
  if (n == 0 || d == 0)
    throw InputError("dataset", "hst_clustering needs at least one point of at least one dimension");
  if (bounds.empty() || bounds.dims() != d)
    throw InputError("dataset bounds", "hst_clustering splits the public box of the data, which this dataset has not",
                     "add bounds: [[lo, hi], ...] (the public domain of each dimension)");
  for (std::size_t j = 0; j < d; ++j)
    if (!std::isfinite(bounds.lo[j]) || !std::isfinite(bounds.hi[j]) || bounds.lo[j] > bounds.hi[j])
      throw InputError("dataset bounds",
                       "the public box needs finite lo <= hi in every dimension (dimension " + std::to_string(j) + ")",
                       "fix the bounds");
  check_options(o, d);
  for (std::size_t i = 0; i < n * d; ++i)
    if (!std::isfinite(coords[i]))
      throw InputError("dataset", "hst_clustering needs finite coordinates (a coordinate is NaN or infinite)",
                       "drop or impute the rows with missing values");
  if (n > std::numeric_limits<std::uint32_t>::max())
    throw InputError("dataset", "hst_clustering takes at most 2^32 - 1 points", "subsample the data");

  HstClusteringResult r;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < d; ++j)
      if (coords[i * d + j] < bounds.lo[j] || coords[i * d + j] > bounds.hi[j]) {
        ++r.points_outside_bounds;
        break;
      }
  if (o.sampler == privacy::Sampler::textbook) r.non_private_notes.push_back(privacy::kTextbookSamplerNote);

  // The tree's split positions: public, from their own stream.
  r.splits = draw_split_fractions(o.layers, d, CellStreams::for_trial(rng, kSplitLane));

  // The counts: a record is in one cell per level (and in the root, whose count only the authors release).
  const std::uint64_t levels = levels_of(o, d);
  const bool authors = o.variant == Variant::authors;
  std::ostringstream note;
  note << "the HST's cells below released cells, L = " << o.layers << " layers x d = " << d
       << " dimensions: one cell per level";
  if (authors)
    note << "; variant: authors also releases the root's count (1 + L d counts a record) but calibrates for L d";
  auto counts =
      privacy::GaussianThresholding::build(ledger, o.sampler, levels, o.epsilon, o.delta, o.threshold_share,
                                           "HST cell counts (dp_hst.py GaussianThresholdMechansimFn)", note.str());
  CountCalibration& cal = r.calibration;
  cal.cells_calibrated = levels;
  cal.cells_per_record = authors ? levels + 1 : levels;
  cal.sigma = counts.sigma();
  cal.drawn_sigma = counts.drawn_sigma();
  cal.true_epsilon = o.epsilon;
  if (authors) {
    // gaussian_threshold(1, L d, sigma, delta_T): 1 + sqrt(2) sigma Phi^-1(1 - 2 delta_T / (L d)).
    const double p = std::min(0.5, 2 * counts.threshold_delta() / static_cast<double>(levels));
    if (cal.drawn_sigma > 0)
      counts.raise_threshold(1.0 + std::sqrt(2.0) * cal.drawn_sigma * privacy::standard_normal_upper_quantile(p));
    // The root's count makes 1 + L d counts a record changes: the Gaussian's epsilon at its delta for that.
    cal.true_epsilon =
        gaussian_epsilon(o.sampler, cal.sigma, std::sqrt(static_cast<double>(levels + 1)), counts.gaussian_delta());
    std::ostringstream why;
    why << "variant: authors: the root's count is released as well, so a record changes 1 + L d = " << levels + 1
        << " counts while sigma is calibrated for L d = " << levels << " (l2 sensitivity sqrt(" << levels + 1
        << ") at sigma " << short_number(cal.sigma) << " is (" << short_number(cal.true_epsilon) << ", "
        << short_number(counts.gaussian_delta()) << ")-DP, not epsilon = " << short_number(o.epsilon) << ")";
    if (cal.true_epsilon > o.epsilon)
      ledger.charge_excess("HST cell counts: the root's count (variant: authors)", cal.true_epsilon - o.epsilon,
                           why.str());
    r.non_private_notes.push_back(why.str());
    if (static_cast<double>(levels + 1) * counts.single_record_release_probability() > counts.threshold_delta())
      r.non_private_notes.push_back("variant: authors: the threshold's delta is exceeded for 1 + L d cells a record");
  }
  cal.threshold = counts.threshold();

  r.tree = build_private_hst(coords, n, d, bounds, r.splits, counts, authors, CellStreams::for_trial(rng, kNoiseLane));
  r.solution = solve_on_tree(r.tree, o.k, o.objective);

  // get_centers_from_hst: the chosen cells' midpoints; an empty sibling takes its parent's.
  r.centres.resize(static_cast<Eigen::Index>(r.solution.centre_nodes.size()), static_cast<Eigen::Index>(d));
  for (std::size_t c = 0; c < r.solution.centre_nodes.size(); ++c) {
    std::int32_t node = r.solution.centre_nodes[c];
    if (r.tree.nodes[static_cast<std::size_t>(node)].kind == NodeKind::completion)
      node = r.tree.nodes[static_cast<std::size_t>(node)].parent;
    const std::vector<double> mid = cell_midpoint(r.tree, static_cast<std::size_t>(node), bounds, r.splits);
    for (std::size_t j = 0; j < d; ++j) r.centres(static_cast<Eigen::Index>(c), static_cast<Eigen::Index>(j)) = mid[j];
  }
  NearestCentres nc = nearest_centres(coords, n, d, r.centres);
  r.labels = std::move(nc.labels);
  r.inertia = nc.cost;
  return r;
}

}  // namespace dpclust::hst
