// Google's DP clustering, end to end; see lsh_clustering.hpp.
#include "lsh_clustering/lsh_clustering.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <optional>
#include <sstream>
#include <stdexcept>

#include "core/error.hpp"
#include "core/method.hpp"
#include "privacy/joint_account.hpp"

namespace dpclust::lsh {
namespace {

using Idx = Eigen::Index;

constexpr std::size_t kMaxSecurePoints = std::size_t{1} << 31;  // integer sums of |z_j| <= 2^30 + 1 fit in int64

// Nearest centre of every point (ties: the lowest index) and the sum of the squared distances, summed in
// point order whatever the threads. Each distance is the sum over j in order of (x_j - c_j)^2 (no
// ||x||^2 - 2 x.c + ||c||^2 cancellation); the centres are read transposed (d x k) so that the loop over the
// centres is contiguous.
double nearest_centres(const double* x, std::size_t n, std::size_t d, const RowMatrix& c, Labels& labels) {
  const auto k = static_cast<std::size_t>(c.rows());
  std::vector<double> ct(d * k);
  for (std::size_t a = 0; a < k; ++a)
    for (std::size_t j = 0; j < d; ++j) ct[j * k + a] = c(static_cast<Idx>(a), static_cast<Idx>(j));
  labels.assign(n, 0);
  std::vector<double> best(n, 0.0);
  // Threads only where the work pays for waking them (a busy machine makes an idle team costly).
#pragma omp parallel if (n * k * d >= (std::size_t{1} << 20))
  {
    std::vector<double> dist(k);
#pragma omp for schedule(static)
    for (std::int64_t ii = 0; ii < static_cast<std::int64_t>(n); ++ii) {
      const auto i = static_cast<std::size_t>(ii);
      const double* xi = x + i * d;
      std::fill(dist.begin(), dist.end(), 0.0);
      for (std::size_t j = 0; j < d; ++j) {
        const double xj = xi[j];
        const double* cj = ct.data() + j * k;
        for (std::size_t a = 0; a < k; ++a) {
          const double t = xj - cj[a];
          dist[a] += t * t;
        }
      }
      double b = dist[0];
      Label arg = 0;
      for (std::size_t a = 1; a < k; ++a)
        if (dist[a] < b) {
          b = dist[a];
          arg = static_cast<Label>(a);
        }
      labels[i] = arg;
      best[i] = b;
    }
  }
  double inertia = 0;
  for (double b : best) inertia += b;
  return inertia;
}

std::string number(double x) {
  std::ostringstream o;
  o.precision(6);
  o << x;
  return o.str();
}

}  // namespace

const char* to_string(Centre c) {
  switch (c) {
    case Centre::bounds: return "bounds";
    case Centre::origin: return "origin";
    case Centre::data: return "data";
  }
  return "?";
}

Calibration check_options(const LshClusteringOptions& o, std::size_t d) {
  if (o.k < 1) throw InputError("params.k", "k must be >= 1");
  if (!(o.epsilon > 0) || !std::isfinite(o.epsilon))
    throw InputError("params.epsilon", "epsilon must be a finite number > 0");
  if (!(o.delta > 0 && o.delta < 1))
    throw InputError("params.delta", "delta must be in (0, 1): the sums' Gaussian noise needs delta > 0");
  if (o.max_depth < 0 || o.max_depth > 63) throw InputError("params.max_depth", "max_depth must be in [0, 63]");
  if (o.accountant == Accountant::pld && o.sampler == privacy::Sampler::secure)
    throw InputError(
        "params.accounting",
        "accounting: pld is the exact privacy loss distribution of the continuous Gaussian (the textbook "
        "sampler); the secure sampler's multivariate discrete Gaussian is certified by its Renyi divergences",
        "use accounting: auto or rdp with sampler: secure, or sampler: textbook (flagged non-private) with pld");
  if (o.min_points_in_branching_node > 0 && o.min_points_in_node == 0)
    throw InputError("params.min_points_in_branching_node",
                     "min_points_in_branching_node needs min_points_in_node (0 = both automatic)",
                     "set min_points_in_node too, or leave both 0");
  if (o.min_points_in_node > 0 && o.min_points_in_branching_node > 0 &&
      o.min_points_in_branching_node < o.min_points_in_node)
    throw InputError("params.min_points_in_branching_node",
                     "min_points_in_branching_node (" + std::to_string(o.min_points_in_branching_node) +
                         ") is below min_points_in_node (" + std::to_string(o.min_points_in_node) +
                         "); the reference's TreeParam refuses it",
                     "use min_points_in_branching_node >= min_points_in_node, or 0 for 3 min_points_in_node");
  Calibration c;
  try {
    c = calibrate_cached(o.accountant, o.epsilon, o.delta, o.max_depth, o.multipliers);
  } catch (const std::invalid_argument& e) {
    throw InputError("params.epsilon", std::string("no noise scale reaches this (epsilon, delta): ") + e.what(),
                     "use a larger epsilon or delta");
  }
  if (o.sampler == privacy::Sampler::secure && d > 0) {
    try {
      (void)sum_grid(1.0, d, c.noise_multiplier);
    } catch (const std::invalid_argument& e) {
      throw InputError("params.epsilon",
                       "epsilon = " + short_number(o.epsilon) + " with delta = " + short_number(o.delta) +
                           " needs noise the exact " + "discrete Gaussian sampler cannot draw in " + std::to_string(d) +
                           " dimensions (" + e.what() + ")",
                       "use a larger epsilon or delta, or sampler: textbook (flagged non-private)");
    }
  }
  return c;
}

void centre_and_radius(const LshClusteringOptions& o, const double* coords, std::size_t n, std::size_t d,
                       const Bounds& bounds, std::vector<double>& centre, double& radius,
                       std::vector<std::string>& notes) {
  const bool have_bounds = !bounds.empty() && bounds.dims() == d;
  centre.assign(d, 0.0);
  switch (o.centre) {
    case Centre::bounds:
      if (!have_bounds)
        throw InputError(
            "params.centre",
            "centre: bounds centres the data on the midpoint of the public bounds, which this dataset has not",
            "give the dataset's public bounds, or centre: origin (data already centred on 0)");
      for (std::size_t j = 0; j < d; ++j) centre[j] = 0.5 * (bounds.lo[j] + bounds.hi[j]);
      break;
    case Centre::origin: break;
    case Centre::data:
      for (std::size_t i = 0; i < n; ++i)
        for (std::size_t j = 0; j < d; ++j) centre[j] += coords[i * d + j];
      for (std::size_t j = 0; j < d; ++j) centre[j] /= static_cast<double>(n);
      notes.push_back(
          "lsh_clustering centre: data: the data are centred on their true mean (not private; the reference "
          "README's benchmarks were centred so)");
      break;
  }
  if (o.radius_from_data) {
    double m2 = 0;
    for (std::size_t i = 0; i < n; ++i) {
      double s = 0;
      for (std::size_t j = 0; j < d; ++j) s += (coords[i * d + j] - centre[j]) * (coords[i * d + j] - centre[j]);
      m2 = std::max(m2, s);
    }
    radius = m2 > 0 ? std::sqrt(m2) : 1.0;
    notes.push_back(
        "lsh_clustering radius_from_data: the radius is the largest norm of the centred data (not private; the "
        "reference README's benchmarks computed it exactly)");
    return;
  }
  if (o.radius > 0) {
    radius = o.radius;
    return;
  }
  if (!have_bounds)
    throw InputError("params.radius", "radius: 0 takes the radius from the public bounds, which this dataset has not",
                     "give radius > 0 (a public bound on the norm of the centred points), or the dataset's bounds");
  double s = 0;
  for (std::size_t j = 0; j < d; ++j) {
    const double a = std::fabs(bounds.lo[j] - centre[j]), b = std::fabs(bounds.hi[j] - centre[j]);
    s += std::max(a, b) * std::max(a, b);
  }
  radius = std::sqrt(s);
  if (!(radius > 0) || !std::isfinite(radius))
    throw InputError("params.radius",
                     "the public bounds give the ball radius " + short_number(radius) + " around the centre",
                     "give radius > 0");
}

LshClusteringResult lsh_clustering(const double* coords, std::size_t n, std::size_t d, const Bounds& bounds,
                                   const LshClusteringOptions& o, Rng& rng, BudgetLedger& ledger) {
  if (n == 0 || d == 0)
    throw InputError("dataset", "lsh_clustering needs at least one point of at least one dimension");
  const Calibration calibration = check_options(o, d);
  for (std::size_t i = 0; i < n * d; ++i)
    if (!std::isfinite(coords[i]))
      throw InputError("dataset", "lsh_clustering needs finite coordinates (a coordinate is NaN or infinite)",
                       "drop or impute the rows with missing values");
  if (o.sampler == privacy::Sampler::secure && n > kMaxSecurePoints)
    throw InputError("dataset", "lsh_clustering's exact integer sums take at most 2^31 points", "subsample the data");
  LshClusteringResult r;
  centre_and_radius(o, coords, n, d, bounds, r.centre, r.radius, r.non_private_notes);
  // A centre or a radius taken from the data moves every later step with a value of the true data (one
  // outlier more is a larger ball, and every sum's noise with it): no finite epsilon bounds that, as for every
  // other data-derived choice (wc_baseline's n_share: 0, bounds: data).
  for (const std::string& note : r.non_private_notes) ledger.declare_data_derived(note);
  if (o.sampler == privacy::Sampler::textbook) r.non_private_notes.push_back(privacy::kTextbookSamplerNote);

  // Centre, then clip to the ball of radius r (clip_by_radius): what every later step sees.
  std::vector<double> x(coords, coords + n * d);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < d; ++j) x[i * d + j] -= r.centre[j];
  r.points_clipped = clip_to_radius(x.data(), n, d, r.radius);

  // PrivacyCalculator: one alpha for the sums' Gaussian and every level's counts.
  r.calibration = calibration;
  const Calibration& cal = r.calibration;
  std::ostringstream account_note;
  account_note
      << "Google's DP clustering (privacy_calculator.py): one Gaussian release (the leaf sums, l2 sensitivity r) and "
      << cal.count_releases << " discrete Laplace releases (the node counts of tree levels 0.." << o.max_depth
      << ", l1 sensitivity 1 each) composed by the " << to_string(cal.accountant)
      << " accountant; alpha = " << number(cal.alpha) << ", sigma / Delta = " << number(cal.noise_multiplier)
      << ", count scale = " << number(cal.count_scale) << ", delta at epsilon = " << number(cal.delta);
  const privacy::JointAccount account(ledger, "lsh_clustering: LSH tree counts and leaf sums",
                                      accountant_description(cal.accountant), o.epsilon, o.delta, account_note.str());
  const privacy::JointCountNoise counts(
      account, cal.count_scale, 1.0,
      "LSH tree: private count of every node, levels 0.." + std::to_string(o.max_depth) + " (lsh_tree.py)",
      "count + discrete Laplace per node; a record is in at most one node per level (sensitivity 1 a level); all " +
          std::to_string(cal.count_releases) + " levels are charged whatever depth the tree reaches");
  r.count_scale = counts.scale();

  // default_tree_param: the root's private count, then the thresholds from it.
  r.root_private_count = static_cast<std::int64_t>(n) + counts.noise(rng);
  if (o.min_points_in_node > 0) {
    r.automatic_tree = false;
    r.tree.min_points_in_node = o.min_points_in_node;
    r.tree.min_points_in_branching_node =
        o.min_points_in_branching_node > 0 ? o.min_points_in_branching_node : 3 * o.min_points_in_node;
    r.tree.max_depth = o.max_depth;
  } else {
    r.tree = default_tree_params(o.k, d, cal.noise_multiplier, r.root_private_count, o.max_depth);
  }

  const RowMatrix projections = simhash_projections(d, o.max_depth, rng);
  const LshTree tree = build_lsh_tree(x.data(), n, d, projections, r.tree, r.root_private_count, counts, rng);
  r.depth = tree.depth();
  r.count_draws = tree.count_draws + 1;

  // The leaves' sums: on the public grid with the discrete Gaussian (secure), or on doubles (textbook).
  const bool secure = o.sampler == privacy::Sampler::secure;
  std::optional<privacy::JointGaussianNoise> gauss;
  const std::string sum_step =
      "private coreset: noisy coordinate sums of every leaf (central_privacy_utils.get_private_average)";
  if (secure) {
    r.on_grid = true;
    r.grid = sum_grid(r.radius, d, cal.noise_multiplier);
    std::ostringstream note;
    note << "each clipped point rounded to the grid of spacing 2^" << r.grid.exponent
         << " (r = " << number(r.grid.units_radius)
         << " units), integer sums exact; l2 sensitivity after rounding r + sqrt(d)/2 units (with a 2^-30 margin, "
            "enforced per "
            "point) = "
         << number(r.grid.sensitivity) << " units; a record is in at most one leaf";
    gauss.emplace(account, privacy::Sampler::secure, cal.noise_multiplier * r.grid.sensitivity, r.grid.sensitivity,
                  sum_step, note.str());
    r.sum_sigma = gauss->sigma() * r.grid.spacing();
  } else {
    gauss.emplace(
        account, privacy::Sampler::textbook, cal.noise_multiplier * r.radius, r.radius, sum_step,
        "sums of the clipped points on doubles (the reference's); a record is in at most one leaf, norm <= r");
    r.sum_sigma = gauss->sigma();
  }
  // validate_accounting: the accountant's delta at the scales actually drawn (rounded up, never down).
  if (ledger.noise_scale() == 1.0) {
    const double drawn_multiplier = secure ? gauss->sigma() / r.grid.sensitivity : gauss->sigma() / r.radius;
    r.certified_delta = composed_delta(cal.accountant, o.epsilon, drawn_multiplier, counts.scale(), cal.count_releases);
    if (r.certified_delta > o.delta * (1.0 + 1e-9))
      throw std::logic_error("lsh_clustering: the drawn noise certifies delta " + number(r.certified_delta) + " > " +
                             number(o.delta));
  }
  r.coreset = private_coreset(x.data(), n, d, tree, r.radius, secure ? &r.grid : nullptr, *gauss, rng);

  // Non-private k-means on the coreset, weighted by the leaves' private counts; then back to the data's
  // coordinates. Post-processing of the counts and the sums.
  const std::size_t leaves = static_cast<std::size_t>(r.coreset.points.rows());
  const std::size_t k = std::min(o.k, leaves);
  KMeansResult km = kmeans(r.coreset.points.data(), leaves, d, k, o.kmeans, rng, r.coreset.weights.data());
  r.kmeans_iterations = km.n_iter;
  r.centres = km.centers;
  for (Idx c = 0; c < r.centres.rows(); ++c)
    for (std::size_t j = 0; j < d; ++j) r.centres(c, static_cast<Idx>(j)) += r.centre[j];
  r.inertia = nearest_centres(coords, n, d, r.centres, r.labels);
  return r;
}

}  // namespace dpclust::lsh
