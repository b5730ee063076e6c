// The authors' adaptive grid (flat_origin.py); what it is and where it departs from the paper is in
// flat_origin.hpp.
#include "wavecluster/flat_origin.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <string>
#include <vector>

#include "core/error.hpp"
#include "core/method.hpp"
#include "privacy/mechanism.hpp"
#include "wavecluster/uniform_points.hpp"

namespace dpclust::wavecluster {

const char* const kFlatOriginBoundsNote =
    "Baseline ag_variant: flat_origin lays its adaptive grid over the data's own bounding box (the authors' "
    "flat_origin.py, construct_from_ndarray: min - 1e-6, max + 1e-6), not over the public domain";

namespace {

double root(double x, std::size_t d) { return d == 2 ? std::sqrt(x) : std::pow(x, 1.0 / static_cast<double>(d)); }

// b^e, refused above kSynopsisMaxCells.
std::size_t power_capped(std::size_t b, std::size_t e, const char* what) {
  std::size_t r = 1;
  for (std::size_t i = 0; i < e; ++i)
    if (__builtin_mul_overflow(r, b, &r) || r > kSynopsisMaxCells)
      throw InputError(std::string("wc_baseline.") + what,
                       "the flat_origin adaptive grid would have " + std::to_string(b) + "^" + std::to_string(e) +
                           " cells, above the cap of " + std::to_string(kSynopsisMaxCells),
                       "use data with fewer dimensions, or ag_variant: paper");
  return r;
}

void check_step(double step_eps, double sensitivity, const char* step) {
  if (!(step_eps > 0) || !(sensitivity / step_eps <= kSynopsisMaxNoiseScale))
    throw InputError("wc_baseline.epsilon",
                     std::string("the ") + step + " gets epsilon " + short_number(step_eps) +
                         ", a Laplace noise scale above " + short_number(kSynopsisMaxNoiseScale),
                     "raise epsilon, or ag_alpha towards 0.5");
}

// Index in [0, m) of x in cells of width `step` starting at `lo` (flat_origin.py: int((x - xmin) / xstep)),
// clamped (the data box contains every point, the clamp only guards rounding).
std::size_t index_in(double x, double lo, double step, std::size_t m) {
  const double t = (x - lo) / step;
  if (!(t > 0)) return 0;
  if (t >= static_cast<double>(m)) return m - 1;
  return static_cast<std::size_t>(static_cast<std::int64_t>(t));  // 0 < t < m: the same integer, one instruction
}

}  // namespace

std::uint64_t flat_origin_leaf_points(double v) {
  if (!(v >= 1)) return 0;  // "%d" of v in (-1, 1) is 0, negatives are skipped (count > 0)
  return static_cast<std::uint64_t>(std::trunc(v));
}

namespace {

// The first-level grid: the data's bounding box widened by 1e-6 (construct_from_ndarray), or the public domain when
// there is no point to take a box from, cut into m1 = 10 steps per dimension.
struct FlatGrid {
  std::vector<double> lo, hi, step;
  // A first-level cell starts at lo + a step (Node(x, x + xstep, ...), x = xmin + i * xstep); its sub-cells are
  // ((x + xstep) - x) / m2 wide (Node.partition's xstep).
  double node_lo(std::size_t j, std::size_t aj) const { return lo[j] + static_cast<double>(aj) * step[j]; }
  double sub_step(std::size_t j, std::size_t aj, std::size_t mm) const {
    const double x0 = node_lo(j, aj);
    return (x0 + step[j] - x0) / static_cast<double>(mm);
  }
};

FlatGrid flat_grid(const Dataset& data, const Quantizer& q) {
  const std::size_t d = q.dims();
  FlatGrid g{std::vector<double>(d), std::vector<double>(d), std::vector<double>(d)};
  std::vector<double>& lo = g.lo;
  std::vector<double>& hi = g.hi;
  for (std::size_t j = 0; j < d; ++j) {
    if (data.n == 0) {
      lo[j] = q.lo(j), hi[j] = q.hi(j);
      continue;
    }
    double mn = std::numeric_limits<double>::infinity(), mx = -mn;
    for (std::size_t i = 0; i < data.n; ++i) {
      mn = std::min(mn, data.point(i)[j]);
      mx = std::max(mx, data.point(i)[j]);
    }
    lo[j] = mn - kFlatOriginWiden, hi[j] = mx + kFlatOriginWiden;
  }
  for (std::size_t j = 0; j < d; ++j) g.step[j] = (hi[j] - lo[j]) / static_cast<double>(kFlatOriginM1);
  return g;
}

void unravel_flat(std::size_t idx, std::size_t m, std::size_t d, std::size_t* out) {
  for (std::size_t j = d; j-- > 0;) {
    out[j] = idx % m;
    idx /= m;
  }
}

// Which cells are split, and into how many sub-cells per dimension (Node.partition): m2 per cell (1 = kept whole),
// the leaves stored cell after cell (offset[c] is cell c's first).
struct FlatSplit {
  std::vector<std::size_t> m2, offset;
  std::size_t split_cells = 0, m2_min = 0, m2_max = 0;
};

FlatSplit flat_split(const std::vector<double>& v, std::size_t d, double eps, double eps2, const SynopsisOptions& opt) {
  const std::size_t cells1 = v.size();
  const double c2 = opt.c / 2.0;                        // partition_par = 5
  const double split_at = kFlatOriginSplitFactor * c2;  // partition_par * 4 = 20
  FlatSplit sp;
  sp.m2.assign(cells1, 1);
  sp.offset.assign(cells1 + 1, 0);
  std::vector<std::size_t>& m2 = sp.m2;
  std::vector<std::size_t>& offset = sp.offset;
  std::size_t& split_cells = sp.split_cells;
  std::size_t& m2_min = sp.m2_min;
  std::size_t& m2_max = sp.m2_max;
  for (std::size_t c = 0; c < cells1; ++c) {
    std::size_t leaves = 1;
    if (v[c] >= split_at) {
      const double side = std::ceil(root(v[c] * eps2 / c2, d));
      if (!(side <= static_cast<double>(kSynopsisMaxPerDim)))
        throw InputError("wc_baseline.m2",
                         "m2 = " + short_number(side) + " cells per dimension (epsilon = " + short_number(eps) +
                             ", ag_c = " + short_number(opt.c) + ") exceeds the cap of " +
                             std::to_string(kSynopsisMaxPerDim),
                         "lower epsilon or raise ag_c");
      m2[c] = static_cast<std::size_t>(side);
      leaves = power_capped(m2[c], d, "m2");
      ++split_cells;
      m2_min = split_cells == 1 ? m2[c] : std::min(m2_min, m2[c]);
      m2_max = std::max(m2_max, m2[c]);
    }
    if (__builtin_add_overflow(offset[c], leaves, &offset[c + 1]) || offset[c + 1] > kSynopsisMaxCells)
      throw InputError(
          "wc_baseline.epsilon",
          "the flat_origin adaptive grid would have more than " + std::to_string(kSynopsisMaxCells) + " leaves",
          "lower epsilon or raise ag_c");
  }
  return sp;
}

// Second-level true counts: the sub-cell of each point of a split cell (int((x - node.xmin) / node.xstep)); a cell
// kept whole counts its points once more.
std::vector<double> flat_leaf_counts(const Dataset& data, std::size_t d, const FlatGrid& g, const FlatSplit& sp,
                                     const std::vector<std::uint32_t>& cell1) {
  const std::size_t m1 = kFlatOriginM1, cells1 = sp.m2.size();
  const std::vector<std::size_t>& m2 = sp.m2;
  const std::vector<std::size_t>& offset = sp.offset;
  std::vector<double> u(offset[cells1], 0.0);
  std::vector<std::size_t> a(d);
  // Each split cell's sub-cell origin and width per dimension, computed once per cell (the same doubles as
  // per point).
  std::vector<double> sub_lo(cells1 * d), sub_width(cells1 * d);
  for (std::size_t c = 0; c < cells1; ++c) {
    if (m2[c] == 1) continue;
    unravel_flat(c, m1, d, a.data());
    for (std::size_t j = 0; j < d; ++j) {
      sub_lo[c * d + j] = g.node_lo(j, a[j]);
      sub_width[c * d + j] = g.sub_step(j, a[j], m2[c]);
    }
  }
  for (std::size_t i = 0; i < data.n; ++i) {
    const std::size_t c = cell1[i];
    if (m2[c] == 1) {
      u[offset[c]] += 1.0;  // one leaf: the second count is of the whole cell
      continue;
    }
    std::size_t sub = 0;
    for (std::size_t j = 0; j < d; ++j)
      sub = sub * m2[c] + index_in(data.point(i)[j], sub_lo[c * d + j], sub_width[c * d + j], m2[c]);
    u[offset[c] + sub] += 1.0;
  }
  return u;
}

// Cell after cell: the second-level noise, the combination with the first level, synthetic points. Returns the
// synthetic points placed.
std::uint64_t flat_place(const Quantizer& q, const FlatGrid& g, const FlatSplit& sp, const std::vector<double>& v,
                         std::vector<double> u, const privacy::CountMechanism& level2, const SynopsisOptions& opt,
                         Rng& rng, std::vector<double>& counts) {
  const std::size_t d = q.dims(), m1 = kFlatOriginM1, cells1 = sp.m2.size();
  const std::vector<std::size_t>& m2 = sp.m2;
  const std::vector<std::size_t>& offset = sp.offset;
  std::vector<std::size_t> a(d);
  const double a2 = opt.alpha * opt.alpha, b2 = (1 - opt.alpha) * (1 - opt.alpha);
  std::uint64_t synthetic = 0;
  std::vector<std::size_t> s(d);
  auto place = [&](const std::vector<double>& box_lo, const std::vector<double>& box_w, std::uint64_t n_points) {
    if (n_points > kSynopsisMaxSyntheticPoints - synthetic)
      throw InputError(
          "wc_baseline.epsilon",
          "the noisy synopsis asks for more than " + std::to_string(kSynopsisMaxSyntheticPoints) + " synthetic points",
          "raise epsilon (less noise per cell)");
    synthetic += n_points;
    place_uniform_points(q, counts, n_points, rng,
                         [&](std::size_t j, double draw) { return box_lo[j] + draw * box_w[j]; });
  };
  std::vector<double> box_lo(d), box_w(d);
  for (std::size_t c = 0; c < cells1; ++c) {
    const std::size_t leaves = offset[c + 1] - offset[c];
    for (std::size_t l = offset[c]; l < offset[c + 1]; ++l) u[l] = level2.noisy(rng, u[l]);
    double sum_u = 0;
    for (std::size_t l = offset[c]; l < offset[c + 1]; ++l) sum_u += u[l];
    // Constrained inference (Node.partition): v' = (alpha^2 m v + (1-alpha)^2 sum u) / (alpha^2 m + (1-alpha)^2),
    // m = the number of leaves (1 for a cell kept whole), each leaf shifted by (v' - sum u) / m.
    const double m = static_cast<double>(leaves);
    const double v_star = (a2 * m * v[c] + b2 * sum_u) / (a2 * m + b2);
    const double adjust = (v_star - sum_u) / m;
    unravel_flat(c, m1, d, a.data());
    for (std::size_t l = 0; l < leaves; ++l) {
      unravel_flat(l, m2[c], d, s.data());
      for (std::size_t j = 0; j < d; ++j) {
        box_w[j] = g.sub_step(j, a[j], m2[c]);
        box_lo[j] = g.node_lo(j, a[j]) + static_cast<double>(s[j]) * box_w[j];
      }
      // A cell kept whole releases max(0, v') (anonymize(non_neg=True)); a leaf of a split cell
      // u + adjust; both written with "%d" and drawn when > 0.
      place(box_lo, box_w, flat_origin_leaf_points(u[offset[c] + l] + adjust));
    }
  }
  return synthetic;
}

}  // namespace

SyntheticCounts flat_origin_counts(const Dataset& data, const Quantizer& q, double eps, const SynopsisOptions& opt,
                                   Rng& rng, BudgetLedger& ledger) {
  const std::size_t d = q.dims();
  check_synopsis_inputs(eps, opt);
  // The grid is laid over the data's own bounding box: one extreme record moves every cell edge, so no
  // finite epsilon bounds the release (as bounds: data).
  ledger.declare_data_derived(kFlatOriginBoundsNote);
  const double eps1 = opt.alpha * eps, eps2 = eps - eps1;  // flat_origin.py: top_eps, bottom_eps
  check_step(eps1, opt.sensitivity, "adaptive grid's first level");
  check_step(eps2, opt.sensitivity, "adaptive grid's second level");

  const FlatGrid g = flat_grid(data, q);
  const std::size_t m1 = kFlatOriginM1;
  const std::size_t cells1 = power_capped(m1, d, "ag_variant");

  // First level: true counts, then noisy counts with alpha eps (Node.add_noise), every cell first.
  std::vector<double> count(cells1, 0.0), v(cells1, 0.0);
  std::vector<std::uint32_t> cell1(data.n);
  for (std::size_t i = 0; i < data.n; ++i) {
    std::size_t idx = 0;
    for (std::size_t j = 0; j < d; ++j) idx = idx * m1 + index_in(data.point(i)[j], g.lo[j], g.step[j], m1);
    cell1[i] = static_cast<std::uint32_t>(idx);
    count[idx] += 1.0;
  }
  const auto level1 = privacy::CountMechanism::laplace(
      ledger, opt.sampler, opt.sensitivity, eps1,
      "adaptive grid, the authors' flat_origin.py: first-level noisy counts (Baseline line 2)",
      "parallel composition over the 10^d first-level cells");
  const auto level2 = privacy::CountMechanism::laplace(
      ledger, opt.sampler, opt.sensitivity, eps2,
      "adaptive grid, the authors' flat_origin.py: second level, sub-cell counts of the split cells and a second count "
      "of the others (Baseline line 2)",
      "parallel composition over disjoint cells");
  for (std::size_t c = 0; c < cells1; ++c) v[c] = level1.noisy(rng, count[c]);

  const FlatSplit sp = flat_split(v, d, eps, eps2, opt);
  SyntheticCounts res;
  res.counts.assign(q.shape().size(), 0.0);
  const std::uint64_t synthetic =
      flat_place(q, g, sp, v, flat_leaf_counts(data, d, g, sp, cell1), level2, opt, rng, res.counts);
  res.info = {{"type", "adaptive"},
              {"variant", "flat_origin"},
              {"m1", m1},
              {"split_cells", sp.split_cells},
              {"m2_min", sp.m2_min},
              {"m2_max", sp.m2_max},
              {"leaves", sp.offset[cells1]},
              {"synthetic_points", synthetic}};
  return res;
}

}  // namespace dpclust::wavecluster
