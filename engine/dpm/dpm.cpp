#include "dpm/dpm.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "core/error.hpp"
#include "core/method.hpp"
#include "privacy/exponential.hpp"
#include "privacy/gaussian_calibration.hpp"

namespace dpclust::dpm {

namespace {

using Idx = Eigen::Index;
// GCC/Clang's 128-bit integer: the sums of grid units (n < 2^32 points of at most 2^62 units each).
__extension__ typedef __int128 int128;

std::string level_text(std::size_t l) { return "level " + std::to_string(l); }

// Shares proportional to sqrt(2^l), l = 0..count-1, of `total` (the reference's epsilon_*_per_split).
std::vector<double> sqrt_doubling_split(double total, std::size_t count) {
  std::vector<double> w(count);
  double sum = 0;
  for (std::size_t l = 0; l < count; ++l) sum += w[l] = std::sqrt(std::ldexp(1.0, static_cast<int>(l)));
  for (double& x : w) x = total * x / sum;
  return w;
}

double max_abs(double lo, double hi) { return std::max(std::abs(lo), std::abs(hi)); }

// The per-leaf Gaussian sums and the centres (the reference's _averaging).
void release_centres(const double* clamped, std::size_t d, const Bounds& bounds, const SplitTree& tree,
                     const DpmOptions& o, const DpmBudget& budget, Rng& rng, BudgetLedger& ledger, DpmResult& r) {
  double l2 = 0;
  for (std::size_t j = 0; j < d; ++j) l2 += max_abs(bounds.lo[j], bounds.hi[j]) * max_abs(bounds.lo[j], bounds.hi[j]);
  l2 = std::sqrt(l2);
  const std::size_t leaves = tree.leaves.size();
  r.centres = RowMatrix::Zero(static_cast<Idx>(leaves), static_cast<Idx>(d));
  const std::string step = "noisy leaf sums (centres)";
  const std::string note =
      "every coordinate of every leaf's sum of clamped points, one Gaussian per coordinate; L2 sensitivity sqrt(sum_j "
      "max(|lo_j|, |hi_j|)^2) (the reference's max_norm); disjoint leaves (parallel composition); divided by the "
      "leaf's "
      "noisy count from the tree";
  std::vector<double> sums(d);
  if (o.sampler == privacy::Sampler::textbook) {
    const privacy::CountMechanism mech = privacy::CountMechanism::gaussian_tight(ledger, o.sampler, l2, budget.centres,
                                                                                 budget.delta_centres, step, note);
    r.sum_sigma = mech.scale();
    for (std::size_t c = 0; c < leaves; ++c) {
      const Leaf& leaf = tree.leaves[c];
      std::fill(sums.begin(), sums.end(), 0.0);
      for (std::size_t s = leaf.begin; s < leaf.end; ++s)
        for (std::size_t j = 0; j < d; ++j) sums[j] += clamped[static_cast<std::size_t>(tree.order[s]) * d + j];
      const double divisor = leaf.noisy_count >= 1 ? leaf.noisy_count : 1.0;
      for (std::size_t j = 0; j < d; ++j)
        r.centres(static_cast<Idx>(c), static_cast<Idx>(j)) = mech.noisy(rng, sums[j]) / divisor;
    }
    return;
  }
  // Secure: every coordinate rounded to the public grid g = 2^(floor(log2 sigma) - 16) and clamped to
  // +-floor(M_j / g) units, the units summed as integers (exact: no rounding moves a sum by more than the
  // sensitivity), discrete Gaussian noise in units (sigma / g in [2^16, 2^17), sigma^2 far below 2^40).
  const double sigma = privacy::zcdp_gaussian_sigma(budget.centres, budget.delta_centres, l2);
  int e = 0;
  std::frexp(sigma, &e);  // 2^(e-1) <= sigma < 2^e
  const double grid = std::ldexp(1.0, e - 1 - 16);
  std::vector<std::int64_t> cap(d);
  double l2_units = 0;
  for (std::size_t j = 0; j < d; ++j) {
    cap[j] = static_cast<std::int64_t>(std::floor(max_abs(bounds.lo[j], bounds.hi[j]) / grid));
    l2_units += static_cast<double>(cap[j]) * static_cast<double>(cap[j]);
  }
  l2_units = std::sqrt(l2_units);
  const privacy::CountMechanism mech = privacy::CountMechanism::gaussian_tight(
      ledger, o.sampler, l2_units, budget.centres, budget.delta_centres, step,
      note + "; coordinates on the public grid " + std::to_string(grid) + " (sums and sensitivity in its units)");
  r.sum_sigma = mech.scale() * grid;
  r.sum_grid = grid;
  std::vector<int128> units(d);
  for (std::size_t c = 0; c < leaves; ++c) {
    const Leaf& leaf = tree.leaves[c];
    std::fill(units.begin(), units.end(), 0);
    for (std::size_t s = leaf.begin; s < leaf.end; ++s) {
      const double* x = clamped + static_cast<std::size_t>(tree.order[s]) * d;
      for (std::size_t j = 0; j < d; ++j) {
        const auto u = static_cast<std::int64_t>(std::llround(x[j] / grid));
        units[j] += std::clamp(u, -cap[j], cap[j]);
      }
    }
    const double divisor = leaf.noisy_count >= 1 ? leaf.noisy_count : 1.0;
    for (std::size_t j = 0; j < d; ++j)
      r.centres(static_cast<Idx>(c), static_cast<Idx>(j)) =
          mech.noisy(rng, static_cast<double>(units[j])) * grid / divisor;
  }
}

}  // namespace

DpmBudget dpm_budget(const DpmOptions& o) {
  DpmBudget b;
  const double total = o.share_interval + o.share_counts + o.share_splits + o.share_centres;
  b.interval = o.epsilon * o.share_interval / total;
  b.counts = o.epsilon * o.share_counts / total;
  b.splits = o.epsilon * o.share_splits / total;
  // The centres take what the others leave, so that the four add up to epsilon exactly.
  b.centres = o.epsilon - b.interval - b.counts - b.splits;
  const auto levels = static_cast<std::size_t>(o.levels);
  b.count_per_level = sqrt_doubling_split(b.counts, levels + 1);
  b.split_per_level = sqrt_doubling_split(b.splits, levels);
  b.delta_centres = o.delta * o.delta_share_centres;
  b.delta_count_per_level = (o.delta - b.delta_centres) / static_cast<double>(levels + 1);
  return b;
}

void check_dpm_options(const DpmOptions& o, const Bounds& bounds) {
  if (!(o.epsilon > 0) || !std::isfinite(o.epsilon))
    throw InputError("params.epsilon", "epsilon must be finite and > 0");
  if (!(o.delta > 0 && o.delta < 1))
    throw InputError("params.delta", "DPM's centres are released with Gaussian noise, which needs delta in (0, 1)",
                     "set delta, e.g. 1e-5 (the paper) or 1 / (n sqrt n) (the artifact)");
  if (o.levels < 1 || o.levels > 16) throw InputError("params.levels", "levels must be in [1, 16]", "the paper uses 7");
  const double shares[] = {o.share_interval, o.share_counts, o.share_splits, o.share_centres};
  const char* keys[] = {"share_interval", "share_counts", "share_splits", "share_centres"};
  for (int i = 0; i < 4; ++i)
    if (!(shares[i] > 0) || !std::isfinite(shares[i]))
      throw InputError(std::string("params.") + keys[i],
                       std::string(keys[i]) + " must be finite and > 0: every step of DPM spends budget",
                       "the reference's shares are 0.04, 0.18, 0.18, 0.6");
  if (!(o.weights.q > 0 && o.weights.q < 0.5))
    throw InputError("params.q", "q must be in (0, 1/2)", "the reference uses 1/12");
  if (!(o.weights.t > 0 && o.weights.t < 1))
    throw InputError("params.t", "t must be in (0, 1)", "the reference uses 0.3");
  if (!(o.weights.w_c + o.weights.w_e > 0))
    throw InputError("params.w_e", "w_c and w_e cannot both be 0 (every split would be uniform)",
                     "the reference uses w_c = 1, w_e = 5");
  if (bounds.empty()) return;
  double norm = 0;
  for (std::size_t j = 0; j < bounds.dims(); ++j) norm = std::max(norm, max_abs(bounds.lo[j], bounds.hi[j]));
  if (!(norm > 0))
    throw InputError("bounds",
                     "DPM needs a box with a point other than the origin: the centres' sensitivity max |bound| is 0",
                     "widen the bounds");
  if (o.sampler == privacy::Sampler::secure) {
    const DpmBudget b = dpm_budget(o);
    // The exact discrete Laplace takes scales up to 2^40: the smallest level's count budget must be >= 2^-40.
    if (b.count_per_level.front() < 0x1p-40)
      throw InputError("params.epsilon",
                       "epsilon " + short_number(o.epsilon) + " leaves the root's count " +
                           short_number(b.count_per_level.front()) +
                           ", below the exact sampler's smallest epsilon 2^-40",
                       "raise epsilon or share_counts");
  }
}

double nearest_centres(const double* coords, std::size_t n, std::size_t d, const RowMatrix& centres, Labels& labels) {
  labels.assign(n, 0);
  const auto k = static_cast<std::size_t>(centres.rows());
  if (k == 0) return 0.0;
  const Eigen::VectorXd cc = centres.rowwise().squaredNorm();
  double total = 0;
  const std::size_t block = 4096;
  for (std::size_t start = 0; start < n; start += block) {
    const std::size_t m = std::min(block, n - start);
    const Eigen::Map<const RowMatrix> x(coords + start * d, static_cast<Idx>(m), static_cast<Idx>(d));
    const Eigen::MatrixXd cross = x * centres.transpose();
    for (std::size_t i = 0; i < m; ++i) {
      // Distances by the expanded form pick the candidate; the exact distance of the winner is summed.
      std::size_t best = 0;
      double best_v = std::numeric_limits<double>::infinity();
      for (std::size_t c = 0; c < k; ++c) {
        const double v = cc(static_cast<Idx>(c)) - 2 * cross(static_cast<Idx>(i), static_cast<Idx>(c));
        if (v < best_v) best_v = v, best = c;
      }
      labels[start + i] = static_cast<int>(best);
      total += (x.row(static_cast<Idx>(i)) - centres.row(static_cast<Idx>(best))).squaredNorm();
    }
  }
  return total;
}

DpmResult dpm(const double* coords, std::size_t n, std::size_t d, const Bounds& bounds, const DpmOptions& o, Rng& rng,
              BudgetLedger& ledger) {
  if (bounds.dims() != d)
    throw InputError("bounds", "DPM needs public bounds for each of the " + std::to_string(d) + " dimensions",
                     "set bounds: [[lo, hi], ...] in the dataset entry");
  check_dpm_options(o, bounds);
  if (n >= (std::size_t{1} << 32))
    throw InputError("dataset", "DPM takes at most 2^32 - 1 points", "sample the dataset (sample: N)");
  DpmResult r;
  r.budget = dpm_budget(o);
  const DpmBudget& b = r.budget;
  const auto levels = static_cast<std::size_t>(o.levels);

  // Every coordinate into the public box (a public per-record map: the sensitivities below assume it).
  std::vector<double> clamped(coords, coords + n * d);
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < d; ++j) {
      double& v = clamped[i * d + j];
      const double c = std::min(std::max(v, bounds.lo[j]), bounds.hi[j]);
      r.clamped_coordinates += c != v;
      v = c;
    }

  // The counts of every level (root = level 0), one Laplace release per level (disjoint nodes).
  LevelMechanisms mech;
  mech.count_epsilon = b.count_per_level;
  mech.split_epsilon = b.split_per_level;
  mech.delta_count = b.delta_count_per_level;
  mech.noise_scale = ledger.noise_scale();
  for (std::size_t l = 0; l <= levels; ++l)
    mech.counts.push_back(privacy::CountMechanism::laplace(
        ledger, o.sampler, 1.0, b.count_per_level[l], "noisy counts, " + level_text(l),
        l == 0 ? "the root's count (all points)"
               : "the counts of both children of every node split at level " + std::to_string(l - 1) +
                     " (disjoint nodes: parallel composition); eps_c proportional to sqrt(2^l)"));
  r.root_noisy_count = mech.counts[0].noisy(rng, static_cast<double>(n));

  // The interval size (its own ledger entry), then the public candidate grid.
  r.interval = estimate_interval_size(clamped.data(), n, d, bounds, r.root_noisy_count, b.interval, o.gap_statistic,
                                      o.sampler, rng, ledger);
  if (o.gap_statistic == GapStatistic::rank_mean && d > 1) {
    // The charged sensitivity 2 is not the statistic's (up to n - 1 averaged gaps move), and no other finite
    // one is known: the trial is unbounded, not at its configured epsilon.
    r.privacy_gaps.push_back(kRankMeanNote);
    ledger.declare_unbounded(kRankMeanNote);
  }
  const CandidateGrid grid = candidate_grid(bounds.lo, bounds.hi, r.interval.interval, o.histogram_bins);
  r.candidates = grid.count;

  // The split choices of every level: one exponential mechanism release per level (disjoint nodes). The
  // counts' delta share (the reference's delta_c per count level) is recorded on the levels whose score
  // sensitivity uses the lower bound N' it buys.
  const double split_delta = (o.delta - b.delta_centres) / static_cast<double>(levels);
  const double units = static_cast<double>(kQualityUnits) + 2;
  for (std::size_t l = 0; l < levels; ++l) {
    const std::string step = "split choices, " + level_text(l);
    const std::string note =
        "one separator per node of level " + std::to_string(l) +
        " (disjoint nodes: parallel composition); score w_c C + w_e E, sensitivity w_c max(t/q, 2(1-t)/(1-2q)) / N' + "
        "w_e / N', "
        "N' = max(N + ln(2 delta_c) / eps_c, 1); delta = the reference's share for that lower bound" +
        std::string(o.sampler == privacy::Sampler::secure
                        ? "; scores in units of sensitivity / 4096, charged as 4098 units"
                        : "");
    if (o.sampler == privacy::Sampler::secure) {
      mech.exact.push_back(
          privacy::ExponentialMechanism::unrecorded(b.split_per_level[l], units, ledger.noise_scale()));
      privacy::charge(ledger, step, b.split_per_level[l], "exponential_exact", units, "utility", note, split_delta);
    } else {
      privacy::charge(ledger, step, b.split_per_level[l], "exponential (textbook)", 1.0, "utility", note, split_delta);
    }
  }

  TreeOptions to;
  to.levels = o.levels;
  to.weights = o.weights;
  to.sampler = o.sampler;
  const SplitTree tree = build_split_tree(clamped.data(), n, d, grid, r.root_noisy_count, to, mech, rng);
  r.splits = tree.splits;
  r.split_limit = tree.split_limit;
  for (const Leaf& leaf : tree.leaves) {
    r.leaf_noisy_counts.push_back(leaf.noisy_count);
    r.leaf_levels.push_back(leaf.level);
    r.leaf_sizes.push_back(leaf.end - leaf.begin);
  }

  release_centres(clamped.data(), d, bounds, tree, o, b, rng, ledger, r);
  r.inertia = nearest_centres(coords, n, d, r.centres, r.labels);
  return r;
}

}  // namespace dpclust::dpm
