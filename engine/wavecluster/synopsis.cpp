#include "wavecluster/synopsis.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <stdexcept>
#include <string>

#include "core/error.hpp"
#include "core/method.hpp"
#include "wavecluster/uniform_points.hpp"

namespace dpclust::wavecluster {

const char* const kTrueNNote = "Baseline used the true number of records for its grid sizes (n_share = 0)";

namespace {

// (x)^(1/d), the d-dimensional form of Qardaji et al.'s sqrt.
double root(double x, std::size_t d) { return d == 2 ? std::sqrt(x) : std::pow(x, 1.0 / static_cast<double>(d)); }

// The number of cells per dimension from a grid-size formula value (>= lo): refuses a non-finite value
// or one above kSynopsisMaxPerDim before it is converted to an integer.
std::size_t grid_side(double x, const char* what, const SynopsisOptions& opt, double eps) {
  if (!(x <= static_cast<double>(kSynopsisMaxPerDim)))  // also catches NaN and inf
    throw InputError("wc_baseline." + std::string(what),
                     std::string(what) + " = " + short_number(x) +
                         " cells per dimension (epsilon = " + short_number(eps) + ", ag_c = " + short_number(opt.c) +
                         ") exceeds the cap of " + std::to_string(kSynopsisMaxPerDim),
                     "lower epsilon, raise ag_c, or raise n_share so the noisy record count is less noisy");
  return static_cast<std::size_t>(x);
}

// b^e with a cap on the result: the synopsis never holds more than kSynopsisMaxCells cells.
std::size_t cells_of(std::size_t b, std::size_t e, const char* what) {
  std::size_t r = 1;
  for (std::size_t i = 0; i < e; ++i)
    if (__builtin_mul_overflow(r, b, &r) || r > kSynopsisMaxCells)
      throw InputError("wc_baseline." + std::string(what),
                       "the synopsis grid would have " + std::to_string(b) + "^" + std::to_string(e) +
                           " cells, above the cap of " + std::to_string(kSynopsisMaxCells),
                       "lower epsilon, raise ag_c, or use data with fewer dimensions");
  return r;
}

// The Laplace scale sensitivity / eps of one synopsis step must be finite and at most kSynopsisMaxNoiseScale
// (a tinier share of epsilon draws astronomically large counts, or never terminates).
void check_step_epsilon(double step_eps, double sensitivity, const char* param, const char* step, const char* fix) {
  const double scale = sensitivity / step_eps;
  if (!(step_eps > 0) || !(scale <= kSynopsisMaxNoiseScale))
    throw InputError(std::string("wc_baseline.") + param,
                     std::string("the ") + step + " gets epsilon " + short_number(step_eps) +
                         ", a Laplace noise scale of " + short_number(scale) + " (above " +
                         short_number(kSynopsisMaxNoiseScale) + ")",
                     fix);
}

// Nearest non-negative integer of a noisy count (negative -> 0; halves round up), added to the running
// total of synthetic points, which may not exceed kSynopsisMaxSyntheticPoints.
std::uint64_t leaf_points(double v, std::uint64_t& total) {
  if (!(v > 0)) return 0;
  const double r = std::floor(v + 0.5);
  if (!(r <= static_cast<double>(kSynopsisMaxSyntheticPoints - total)))
    throw InputError("wc_baseline.epsilon",
                     "the noisy synopsis asks for more than " + std::to_string(kSynopsisMaxSyntheticPoints) +
                         " synthetic points (a leaf count of " + short_number(v) + ")",
                     "raise epsilon (less noise per cell) or ag_c (fewer cells)");
  const auto np = static_cast<std::uint64_t>(r);
  total += np;
  return np;
}

// std::floor(t), without the library call for the values every point gives (0 <= t < 2^52, where the
// conversion to an integer truncates exactly and truncation is the floor).
double floor_of(double t) {
  return t >= 0 && t < 0x1p52 ? static_cast<double>(static_cast<std::int64_t>(t)) : std::floor(t);
}

// Quantizes `count` uniform points of the box [lo_j + (a_j + s_j / m2) w_j, ...), given in units of
// first-level cells (a = first-level cell coords, s = sub-cell coords) into the g-grid counts.
struct Placer {
  const Quantizer& q;
  std::vector<double>& out;
  void place(const std::size_t* a, const std::size_t* s, double m1, double m2, std::uint64_t count, Rng& rng) {
    place_uniform_points(q, out, count, rng, [&](std::size_t j, double u) {
      const double frac = (static_cast<double>(a[j]) + (static_cast<double>(s[j]) + u) / m2) / m1;
      return q.lo(j) + frac * (q.hi(j) - q.lo(j));
    });
  }
};

// Row-major cell of a point in a grid of m cells per dimension (the quantizer's arithmetic:
// t = (x - lo) / (hi - lo) * m, clamped).
void level_cells(const Quantizer& q, const double* p, double m, std::size_t mi, std::size_t* a) {
  for (std::size_t j = 0; j < q.dims(); ++j) {
    const double t = (p[j] - q.lo(j)) / (q.hi(j) - q.lo(j)) * m;
    // Clamped before the cast: a point far outside the domain would overflow size_t.
    a[j] = !(t > 0)                       ? 0
           : t >= static_cast<double>(mi) ? mi - 1
                                          : static_cast<std::size_t>(static_cast<std::int64_t>(t));
  }
}
std::size_t ravel_cell(const std::size_t* a, std::size_t m, std::size_t d) {
  std::size_t idx = 0;
  for (std::size_t j = 0; j < d; ++j) idx = idx * m + a[j];
  return idx;
}
void unravel_cell(std::size_t idx, std::size_t m, std::size_t d, std::size_t* a) {
  for (std::size_t j = d; j-- > 0;) {
    a[j] = idx % m;
    idx /= m;
  }
}

// Every step's noise scale, checked before anything is spent or allocated.
void check_step_budgets(double eps_n, double eps_grid, const SynopsisOptions& opt) {
  if (opt.n_share > 0)
    check_step_epsilon(
        eps_n, opt.sensitivity, "n_share", "noisy record count (n_share * epsilon)",
        "raise n_share (e.g. the default 0.05) or epsilon; n_share: 0 uses the true count (non-private)");
  if (opt.type == "uniform") {
    check_step_epsilon(eps_grid, opt.sensitivity, "epsilon", "uniform grid", "raise epsilon");
  } else {
    check_step_epsilon(opt.alpha * eps_grid, opt.sensitivity, "epsilon", "adaptive grid's first level",
                       "raise epsilon, or ag_alpha towards 0.5");
    check_step_epsilon(eps_grid - opt.alpha * eps_grid, opt.sensitivity, "epsilon", "adaptive grid's second level",
                       "raise epsilon, or ag_alpha towards 0.5");
  }
}

// UG: m = ceil(sqrt(N eps / c)) cells per dimension, their noisy counts, synthetic points in every cell.
nlohmann::json uniform_synopsis(const Dataset& data, const Quantizer& q, double eps, double eps_grid, double n_pos,
                                const SynopsisOptions& opt, Rng& rng, BudgetLedger& ledger, Placer& placer,
                                const nlohmann::json& released_n) {
  const std::size_t d = q.dims();
  std::vector<std::size_t> a(d), s(d);
  const std::size_t m = grid_side(std::max(1.0, std::ceil(root(n_pos * eps_grid / opt.c, d))), "m", opt, eps);
  const std::size_t cells = cells_of(m, d, "m");
  std::vector<double> cnt(cells, 0.0);
  for (std::size_t i = 0; i < data.n; ++i) {
    level_cells(q, data.point(i), static_cast<double>(m), m, a.data());
    cnt[ravel_cell(a.data(), m, d)] += 1.0;
  }
  const auto mech = privacy::CountMechanism::laplace(ledger, opt.sampler, opt.sensitivity, eps_grid,
                                                     "uniform-grid noisy counts (Baseline line 2, Qardaji et al. UG)",
                                                     "parallel composition over the disjoint cells");
  std::uint64_t synthetic = 0;
  std::fill(s.begin(), s.end(), 0);
  for (std::size_t c = 0; c < cells; ++c) {
    const std::uint64_t np = leaf_points(mech.noisy(rng, cnt[c]), synthetic);
    unravel_cell(c, m, d, a.data());
    placer.place(a.data(), s.data(), static_cast<double>(m), 1.0, np, rng);
  }
  return {{"type", "uniform"}, {"noisy_n", released_n}, {"m", m}, {"cells", cells}, {"synthetic_points", synthetic}};
}

// AG's first level: m1 = max(10, ceil(sqrt(N eps / c) / 4)) cells per dimension and their noisy counts v; each
// point's cell and its t = (x - lo) / (hi - lo) * m1 per dimension, kept for level 2 (the same doubles it would
// compute again).
struct FirstLevel {
  std::size_t m1 = 0, cells1 = 0;
  std::vector<double> v, t1;
  std::vector<std::uint32_t> cell1;
};

FirstLevel first_level(const Dataset& data, const Quantizer& q, double eps, double eps1, double eps_grid, double n_pos,
                       const SynopsisOptions& opt, Rng& rng, BudgetLedger& ledger) {
  const std::size_t d = q.dims();
  std::vector<std::size_t> a(d);
  FirstLevel f;
  f.m1 = grid_side(std::max(10.0, std::ceil(root(n_pos * eps_grid / opt.c, d) / 4.0)), "m1", opt, eps);
  f.cells1 = cells_of(f.m1, d, "m1");
  const std::size_t m1 = f.m1;
  f.v.assign(f.cells1, 0.0);
  f.cell1.resize(data.n);
  f.t1.resize(data.n * d);
  for (std::size_t i = 0; i < data.n; ++i) {
    const double* p = data.point(i);
    for (std::size_t j = 0; j < d; ++j) {
      const double t = (p[j] - q.lo(j)) / (q.hi(j) - q.lo(j)) * static_cast<double>(m1);  // level_cells' t
      f.t1[i * d + j] = t;
      a[j] = !(t > 0)                       ? 0
             : t >= static_cast<double>(m1) ? m1 - 1
                                            : static_cast<std::size_t>(static_cast<std::int64_t>(t));
    }
    f.cell1[i] = static_cast<std::uint32_t>(ravel_cell(a.data(), m1, d));
    f.v[f.cell1[i]] += 1.0;
  }
  const auto level1 =
      privacy::CountMechanism::laplace(ledger, opt.sampler, opt.sensitivity, eps1,
                                       "adaptive grid: first-level noisy counts (Baseline line 2, Qardaji et al. AG)",
                                       "parallel composition over the m1^d cells");
  for (auto& x : f.v) x = level1.noisy(rng, x);
  return f;
}

// AG's second level: m2 per first-level cell from its noisy count; the leaves' noisy counts u, stored cell after
// cell (offset[c] is cell c's first leaf).
struct SecondLevel {
  std::vector<std::size_t> m2, offset;
  std::vector<double> u;
};

SecondLevel second_level(const Dataset& data, std::size_t d, const FirstLevel& f, double eps, double eps2,
                         const SynopsisOptions& opt, Rng& rng, BudgetLedger& ledger) {
  const std::size_t m1 = f.m1, cells1 = f.cells1;
  SecondLevel sl;
  const double c2 = opt.c / 2.0;
  sl.m2.resize(cells1);
  sl.offset.assign(cells1 + 1, 0);
  std::vector<std::size_t>& m2 = sl.m2;
  std::vector<std::size_t>& offset = sl.offset;
  for (std::size_t c = 0; c < cells1; ++c) {
    m2[c] = grid_side(std::max(1.0, std::ceil(root(std::max(0.0, f.v[c]) * eps2 / c2, d))), "m2", opt, eps);
    if (__builtin_add_overflow(offset[c], cells_of(m2[c], d, "m2"), &offset[c + 1]) ||
        offset[c + 1] > kSynopsisMaxCells)
      throw InputError("wc_baseline.epsilon",
                       "the adaptive grid's second level would have more than " + std::to_string(kSynopsisMaxCells) +
                           " leaves in all",
                       "lower epsilon, raise ag_c, or use data with fewer dimensions");
  }
  sl.u.assign(offset[cells1], 0.0);
  for (std::size_t i = 0; i < data.n; ++i) {
    const std::size_t c = f.cell1[i];
    const std::size_t mm = m2[c];
    std::size_t sub = 0;
    for (std::size_t j = 0; j < d; ++j) {
      const double t = f.t1[i * d + j];
      const double fr = std::min(std::max(t - floor_of(t), 0.0), 1.0);
      std::size_t sj =
          static_cast<std::size_t>(static_cast<std::int64_t>(fr * static_cast<double>(mm)));  // 0 <= f mm <= mm
      if (t >= static_cast<double>(m1)) sj = mm - 1;  // x = hi: last sub-cell of the last cell
      if (sj >= mm) sj = mm - 1;
      sub = sub * mm + sj;
    }
    sl.u[offset[c] + sub] += 1.0;
  }
  const auto level2 =
      privacy::CountMechanism::laplace(ledger, opt.sampler, opt.sensitivity, eps2,
                                       "adaptive grid: second-level noisy counts (Baseline line 2, Qardaji et al. AG)",
                                       "parallel composition over the leaves");
  for (auto& x : sl.u) x = level2.noisy(rng, x);
  return sl;
}

// Constrained inference between the levels, then synthetic points in every leaf.
nlohmann::json place_adaptive(std::size_t d, const FirstLevel& f, const SecondLevel& sl, const SynopsisOptions& opt,
                              Rng& rng, Placer& placer, const nlohmann::json& released_n) {
  const std::size_t m1 = f.m1, cells1 = f.cells1;
  const std::vector<double>& v = f.v;
  const std::vector<double>& u = sl.u;
  const std::vector<std::size_t>& m2 = sl.m2;
  const std::vector<std::size_t>& offset = sl.offset;
  std::vector<std::size_t> a(d), s(d);
  const double a2 = opt.alpha * opt.alpha, b2 = (1 - opt.alpha) * (1 - opt.alpha);
  std::uint64_t synthetic = 0;
  std::size_t m2_min = static_cast<std::size_t>(-1), m2_max = 0;
  for (std::size_t c = 0; c < cells1; ++c) {
    const std::size_t leaves = offset[c + 1] - offset[c];
    const double mm = static_cast<double>(leaves);
    double sum_u = 0;
    for (std::size_t l = offset[c]; l < offset[c + 1]; ++l) sum_u += u[l];
    const double v_star = (a2 * mm * v[c] + b2 * sum_u) / (a2 * mm + b2);
    const double adjust = (v_star - sum_u) / mm;
    unravel_cell(c, m1, d, a.data());
    for (std::size_t l = 0; l < leaves; ++l) {
      const std::uint64_t np = leaf_points(u[offset[c] + l] + adjust, synthetic);
      unravel_cell(l, m2[c], d, s.data());
      placer.place(a.data(), s.data(), static_cast<double>(m1), static_cast<double>(m2[c]), np, rng);
    }
    m2_min = std::min(m2_min, m2[c]);
    m2_max = std::max(m2_max, m2[c]);
  }
  return {
      {"type", "adaptive"},       {"noisy_n", released_n},        {"m1", m1}, {"m2_min", m2_min}, {"m2_max", m2_max},
      {"leaves", offset[cells1]}, {"synthetic_points", synthetic}};
}

}  // namespace

void check_synopsis_inputs(double eps, const SynopsisOptions& opt) {
  if (!(eps > 0) || !std::isfinite(eps))
    throw InputError("wc_baseline.epsilon", "epsilon must be finite and > 0, got " + short_number(eps),
                     "set epsilon in (0, 1e6]");
  if (!(opt.c > 0) || !std::isfinite(opt.c))
    throw InputError("wc_baseline.ag_c", "ag_c must be finite and > 0, got " + short_number(opt.c),
                     "use the paper's ag_c: 10");
}

SyntheticCounts synthetic_counts(const Dataset& data, const Quantizer& q, double eps, const SynopsisOptions& opt,
                                 Rng& rng, BudgetLedger& ledger) {
  const std::size_t d = q.dims();
  check_synopsis_inputs(eps, opt);

  // The number of records, needed by the grid-size formulas: a noisy count unless n_share = 0.
  const double eps_n = opt.n_share * eps;
  const double eps_grid = eps - eps_n;
  check_step_budgets(eps_n, eps_grid, opt);
  SyntheticCounts res;
  res.counts.assign(q.shape().size(), 0.0);
  double n_noisy = static_cast<double>(data.n);
  if (eps_n > 0) {
    const auto mech =
        privacy::CountMechanism::laplace(ledger, opt.sampler, opt.sensitivity, eps_n,
                                         "noisy N for the synopsis grid sizes (Baseline line 2)", "the record count");
    n_noisy = mech.noisy(rng, n_noisy);
  } else {
    res.used_true_n = true;
    // The grid sizes are functions of the true n: one added record can change them with certainty.
    ledger.declare_data_derived(kTrueNNote);
  }
  // What the synopsis publishes of N: the noisy count, or nothing when it is the true one.
  const nlohmann::json released_n = res.used_true_n ? nlohmann::json(nullptr) : nlohmann::json(n_noisy);
  const double n_pos = std::max(0.0, n_noisy);

  Placer placer{q, res.counts};
  if (opt.type == "uniform") {
    res.info = uniform_synopsis(data, q, eps, eps_grid, n_pos, opt, rng, ledger, placer, released_n);
    return res;
  }
  if (opt.type != "adaptive") throw std::invalid_argument("unknown synopsis type '" + opt.type + "'");
  const double eps1 = opt.alpha * eps_grid, eps2 = eps_grid - eps1;
  const FirstLevel f = first_level(data, q, eps, eps1, eps_grid, n_pos, opt, rng, ledger);
  const SecondLevel sl = second_level(data, d, f, eps, eps2, opt, rng, ledger);
  res.info = place_adaptive(d, f, sl, opt, rng, placer, released_n);
  return res;
}

}  // namespace dpclust::wavecluster
