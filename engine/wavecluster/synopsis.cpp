#include "wavecluster/synopsis.hpp"

#include <algorithm>
#include <cmath>
#include <stdexcept>

namespace dpclust::wavecluster {

namespace {

// (x)^(1/d), the d-dimensional form of Qardaji et al.'s sqrt.
double root(double x, std::size_t d) { return d == 2 ? std::sqrt(x) : std::pow(x, 1.0 / static_cast<double>(d)); }

std::size_t ipow(std::size_t b, std::size_t e) {
  std::size_t r = 1;
  while (e--) r *= b;
  return r;
}

// Nearest non-negative integer of a noisy count (negative -> 0; halves round up).
std::uint64_t leaf_points(double v) { return v <= 0 ? 0 : static_cast<std::uint64_t>(std::floor(v + 0.5)); }

// Quantizes `count` uniform points of the box [lo_j + (a_j + s_j / m2) w_j, ...), given in units of
// first-level cells (a = first-level cell coords, s = sub-cell coords) into the g-grid counts.
struct Placer {
  const Quantizer& q;
  std::vector<double>& out;
  std::vector<double> x;
  void place(const std::size_t* a, const std::size_t* s, double m1, double m2, std::uint64_t count, Rng& rng) {
    const std::size_t d = q.dims();
    x.resize(d);
    for (std::uint64_t t = 0; t < count; ++t) {
      for (std::size_t j = 0; j < d; ++j) {
        const double frac = (static_cast<double>(a[j]) + (static_cast<double>(s[j]) + rng.uniform()) / m2) / m1;
        x[j] = q.lo(j) + frac * (q.hi(j) - q.lo(j));
      }
      out[q.cell_of(x.data())] += 1.0;
    }
  }
};

}  // namespace

SyntheticCounts synthetic_counts(const Dataset& data, const Quantizer& q, double eps, const SynopsisOptions& opt, Rng& rng,
                                 BudgetLedger& ledger) {
  const std::size_t d = q.dims();
  SyntheticCounts res;
  res.counts.assign(q.shape().size(), 0.0);

  // The number of records, needed by the grid-size formulas: a noisy count unless n_share = 0.
  const double eps_n = opt.n_share * eps;
  const double eps_grid = eps - eps_n;
  double n_noisy = static_cast<double>(data.n);
  if (eps_n > 0) {
    const auto mech = privacy::CountMechanism::laplace(ledger, opt.sampler, opt.sensitivity, eps_n,
                                                       "noisy N for the synopsis grid sizes (Baseline line 2)", "the record count");
    n_noisy = mech.noisy(rng, n_noisy);
  } else {
    res.used_true_n = true;
  }
  const double n_pos = std::max(0.0, n_noisy);

  // Row-major cell of a point in a grid of m cells per dimension (the quantizer's arithmetic:
  // t = (x - lo) / (hi - lo) * m, clamped).
  auto level_cells = [&](const double* p, double m, std::size_t mi, std::size_t* a) {
    for (std::size_t j = 0; j < d; ++j) {
      const double t = (p[j] - q.lo(j)) / (q.hi(j) - q.lo(j)) * m;
      std::size_t c = t > 0 ? static_cast<std::size_t>(t) : 0;
      if (c >= mi) c = mi - 1;
      a[j] = c;
    }
  };
  auto ravel = [&](const std::size_t* a, std::size_t m) {
    std::size_t idx = 0;
    for (std::size_t j = 0; j < d; ++j) idx = idx * m + a[j];
    return idx;
  };
  auto unravel_m = [&](std::size_t idx, std::size_t m, std::size_t* a) {
    for (std::size_t j = d; j-- > 0;) {
      a[j] = idx % m;
      idx /= m;
    }
  };
  std::vector<std::size_t> a(d), s(d);
  Placer placer{q, res.counts, {}};

  if (opt.type == "uniform") {
    // UG: m = ceil(sqrt(N eps / c)).
    const auto m = static_cast<std::size_t>(std::max(1.0, std::ceil(root(n_pos * eps_grid / opt.c, d))));
    const std::size_t cells = ipow(m, d);
    std::vector<double> cnt(cells, 0.0);
    for (std::size_t i = 0; i < data.n; ++i) {
      level_cells(data.point(i), static_cast<double>(m), m, a.data());
      cnt[ravel(a.data(), m)] += 1.0;
    }
    const auto mech = privacy::CountMechanism::laplace(ledger, opt.sampler, opt.sensitivity, eps_grid,
                                                       "uniform-grid noisy counts (Baseline line 2, Qardaji et al. UG)",
                                                       "parallel composition over the disjoint cells");
    std::uint64_t synthetic = 0;
    std::fill(s.begin(), s.end(), 0);
    for (std::size_t c = 0; c < cells; ++c) {
      const std::uint64_t np = leaf_points(mech.noisy(rng, cnt[c]));
      unravel_m(c, m, a.data());
      placer.place(a.data(), s.data(), static_cast<double>(m), 1.0, np, rng);
      synthetic += np;
    }
    res.info = {{"type", "uniform"}, {"noisy_n", n_noisy}, {"m", m}, {"cells", cells}, {"synthetic_points", synthetic}};
    return res;
  }
  if (opt.type != "adaptive") throw std::invalid_argument("unknown synopsis type '" + opt.type + "'");

  // AG level 1: m1 = max(10, ceil(sqrt(N eps / c) / 4)).
  const double eps1 = opt.alpha * eps_grid, eps2 = eps_grid - eps1;
  const auto m1 = static_cast<std::size_t>(std::max(10.0, std::ceil(root(n_pos * eps_grid / opt.c, d) / 4.0)));
  const std::size_t cells1 = ipow(m1, d);
  std::vector<double> v(cells1, 0.0);
  std::vector<std::uint32_t> cell1(data.n);
  for (std::size_t i = 0; i < data.n; ++i) {
    level_cells(data.point(i), static_cast<double>(m1), m1, a.data());
    cell1[i] = static_cast<std::uint32_t>(ravel(a.data(), m1));
    v[cell1[i]] += 1.0;
  }
  const auto level1 = privacy::CountMechanism::laplace(ledger, opt.sampler, opt.sensitivity, eps1,
                                                      "adaptive grid: first-level noisy counts (Baseline line 2, Qardaji et al. AG)",
                                                      "parallel composition over the m1^d cells");
  for (auto& x : v) x = level1.noisy(rng, x);

  // AG level 2: m2 per first-level cell from its noisy count; leaves stored cell after cell.
  const double c2 = opt.c / 2.0;
  std::vector<std::size_t> m2(cells1), offset(cells1 + 1, 0);
  for (std::size_t c = 0; c < cells1; ++c) {
    m2[c] = static_cast<std::size_t>(std::max(1.0, std::ceil(root(std::max(0.0, v[c]) * eps2 / c2, d))));
    offset[c + 1] = offset[c] + ipow(m2[c], d);
  }
  std::vector<double> u(offset[cells1], 0.0);
  for (std::size_t i = 0; i < data.n; ++i) {
    const std::size_t c = cell1[i];
    const std::size_t mm = m2[c];
    const double* p = data.point(i);
    std::size_t sub = 0;
    for (std::size_t j = 0; j < d; ++j) {
      const double t = (p[j] - q.lo(j)) / (q.hi(j) - q.lo(j)) * static_cast<double>(m1);
      const double f = std::min(std::max(t - std::floor(t), 0.0), 1.0);
      std::size_t sj = static_cast<std::size_t>(f * static_cast<double>(mm));
      if (t >= static_cast<double>(m1)) sj = mm - 1;  // x = hi: last sub-cell of the last cell
      if (sj >= mm) sj = mm - 1;
      sub = sub * mm + sj;
    }
    u[offset[c] + sub] += 1.0;
  }
  const auto level2 = privacy::CountMechanism::laplace(ledger, opt.sampler, opt.sensitivity, eps2,
                                                      "adaptive grid: second-level noisy counts (Baseline line 2, Qardaji et al. AG)",
                                                      "parallel composition over the leaves");
  for (auto& x : u) x = level2.noisy(rng, x);

  // Constrained inference between the levels, then synthetic points in every leaf.
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
    unravel_m(c, m1, a.data());
    for (std::size_t l = 0; l < leaves; ++l) {
      const std::uint64_t np = leaf_points(u[offset[c] + l] + adjust);
      unravel_m(l, m2[c], s.data());
      placer.place(a.data(), s.data(), static_cast<double>(m1), static_cast<double>(m2[c]), np, rng);
      synthetic += np;
    }
    m2_min = std::min(m2_min, m2[c]);
    m2_max = std::max(m2_max, m2[c]);
  }
  res.info = {{"type", "adaptive"}, {"noisy_n", n_noisy},      {"m1", m1},
              {"m2_min", m2_min},   {"m2_max", m2_max},         {"leaves", offset[cells1]},
              {"synthetic_points", synthetic}};
  return res;
}

}  // namespace dpclust::wavecluster
