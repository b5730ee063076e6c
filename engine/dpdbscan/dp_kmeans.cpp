// DP-k-means (DPLloyd, diffprivlib's variant); see dp_kmeans.hpp.
#include "dpdbscan/dp_kmeans.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

#include "core/error.hpp"

namespace dpclust::dpdbscan {
namespace {

constexpr double kRho = 0.225;

double laplace_cdf(double x, double b) { return x < 0 ? 0.5 * std::exp(x / b) : 1.0 - 0.5 * std::exp(-x / b); }

// Two-sided geometric with ratio q = exp(-eps) (sensitivity 1), as a difference of geometrics.
std::int64_t two_sided_geometric(Rng& rng, double eps) {
  const double lq = -eps;  // ln q
  const auto g1 = static_cast<std::int64_t>(std::floor(std::log(rng.uniform_open()) / lq));
  const auto g2 = static_cast<std::int64_t>(std::floor(std::log(rng.uniform_open()) / lq));
  return g1 - g2;
}

// Nearest centre of every point (ties: lowest index); returns the inertia.
double assign(const double* x, std::size_t n, std::size_t d, const RowMatrix& c, Labels& labels) {
  const auto k = static_cast<std::size_t>(c.rows());
  double inertia = 0;
  for (std::size_t i = 0; i < n; ++i) {
    double best = std::numeric_limits<double>::infinity();
    Label arg = 0;
    for (std::size_t a = 0; a < k; ++a) {
      double s = 0;
      for (std::size_t j = 0; j < d; ++j) {
        const double t = x[i * d + j] - c(static_cast<Eigen::Index>(a), static_cast<Eigen::Index>(j));
        s += t * t;
      }
      if (s < best) {
        best = s;
        arg = static_cast<Label>(a);
      }
    }
    labels[i] = arg;
    inertia += best;
  }
  return inertia;
}

}  // namespace

std::int64_t diffprivlib_iterations(double epsilon, std::size_t k, std::size_t n, std::size_t d) {
  const double kd = static_cast<double>(k), nd = static_cast<double>(n), dd = static_cast<double>(d);
  const double eps_m = std::sqrt(500.0 * kd * kd * kd / (nd * nd) * std::pow(dd + std::cbrt(4.0 * dd * kRho * kRho), 3.0));
  return static_cast<std::int64_t>(std::max(std::min(epsilon / eps_m, 7.0), 2.0));
}

double bounded_laplace_scale(double epsilon, double sensitivity, double width) {
  const double dq = sensitivity, D = width;
  auto delta_c = [&](double b) { return (2.0 - std::exp(-dq / b) - std::exp(-(D - dq) / b)) / (1.0 - std::exp(-D / b)); };
  auto f = [&](double b) { return dq / (epsilon - std::log(delta_c(b))); };
  // f(b) - b decreases in b; f(left) >= left (dC >= 1) and f(right) <= right, so bisect the fixed point.
  double left = dq / epsilon;
  double right = f(left);
  for (int it = 0; it < 200 && right - left > 1e-15 * right; ++it) {
    const double mid = 0.5 * (left + right);
    const double fm = f(mid);
    if (fm >= mid) left = mid;
    if (fm <= mid) right = mid;
  }
  return 0.5 * (left + right);
}

double bounded_laplace(Rng& rng, double value, double lower, double upper, double scale) {
  value = std::clamp(value, lower, upper);
  // Inverse CDF restricted to [lower, upper]: w uniform on [F(lower - v), F(upper - v)).
  const double flo = laplace_cdf(lower - value, scale), fhi = laplace_cdf(upper - value, scale);
  const double u = flo + rng.uniform() * (fhi - flo) - 0.5;
  const double x = value - scale * (u < 0 ? -1.0 : 1.0) * std::log(1.0 - 2.0 * std::fabs(u));
  return std::clamp(x, lower, upper);
}

DpKmeansResult dp_kmeans(const double* coords, std::size_t n, const Bounds& bounds, const DpKmeansOptions& o, Rng& rng,
                         BudgetLedger* ledger) {
  if (bounds.empty())
    throw InputError("dataset bounds", "DP-k-means needs the public domain bounds of the data", "add bounds: [[lo, hi], ...]");
  if (o.k < 1) throw InputError("params.k", "k must be >= 1");
  if (!(o.epsilon > 0) || !std::isfinite(o.epsilon)) throw InputError("params.epsilon", "epsilon must be a finite number > 0");
  if (n == 0) throw InputError("dataset", "DP-k-means needs at least one point");
  const std::size_t d = bounds.dims();
  const auto K = static_cast<Eigen::Index>(o.k), Dm = static_cast<Eigen::Index>(d);

  DpKmeansResult r;
  r.iterations = o.iterations > 0 ? o.iterations : diffprivlib_iterations(o.epsilon, o.k, n, d);
  const double e0 = std::cbrt(4.0 * static_cast<double>(d) * kRho * kRho);
  const double norm = o.epsilon / static_cast<double>(r.iterations) / (static_cast<double>(d) + e0);
  r.epsilon_sum = norm;
  r.epsilon_count = e0 * norm;

  // Initial centres, data-independent.
  std::vector<double> range(d);
  for (std::size_t j = 0; j < d; ++j) range[j] = bounds.hi[j] - bounds.lo[j];
  double margin = *std::min_element(range.begin(), range.end()) / 2.0;
  r.centers = RowMatrix::Zero(K, Dm);
  bool placed = false;
  if (o.k == 1) {
    for (std::size_t j = 0; j < d; ++j) r.centers(0, static_cast<Eigen::Index>(j)) = bounds.lo[j] + range[j] / 2.0;
    placed = true;
  }
  while (!placed && margin > 0) {
    std::size_t have = 0;
    int retry = 0;
    std::vector<double> cand(d);
    while (retry < 100 && have < o.k) {
      for (std::size_t j = 0; j < d; ++j) cand[j] = rng.uniform() * (range[j] - 2.0 * margin) + bounds.lo[j] + margin;
      double min_d2 = std::numeric_limits<double>::infinity();
      for (std::size_t a = 0; a < have; ++a) {
        double s = 0;
        for (std::size_t j = 0; j < d; ++j) {
          const double t = r.centers(static_cast<Eigen::Index>(a), static_cast<Eigen::Index>(j)) - cand[j];
          s += t * t;
        }
        min_d2 = std::min(min_d2, s);
      }
      if (have == 0 || std::sqrt(min_d2) >= 2.0 * margin) {
        for (std::size_t j = 0; j < d; ++j) r.centers(static_cast<Eigen::Index>(have), static_cast<Eigen::Index>(j)) = cand[j];
        ++have;
        retry = 0;
      } else {
        ++retry;
      }
    }
    if (have == o.k) placed = true;
    else margin /= 2.0;
  }
  if (!placed) throw std::logic_error("dp_kmeans: could not place the initial centres");

  r.labels.assign(n, 0);
  assign(coords, n, d, r.centers, r.labels);
  std::vector<double> sums(o.k * d);
  std::vector<std::int64_t> counts(o.k);
  for (std::int64_t it = 0; it < r.iterations; ++it) {
    if (ledger) {
      const std::string t = " (DP-k-means iteration " + std::to_string(it + 1) + ")";
      ledger->spend("noisy cluster counts" + t, r.epsilon_count,
                    "two-sided geometric, sensitivity 1, folded into [0.5, inf); disjoint clusters (parallel composition)");
      ledger->spend("noisy cluster coordinate sums" + t, static_cast<double>(d) * r.epsilon_sum,
                    "bounded-domain Laplace per dimension (eps " + std::to_string(r.epsilon_sum) +
                        " each), sensitivity hi - lo; disjoint clusters");
    }
    std::fill(sums.begin(), sums.end(), 0.0);
    std::fill(counts.begin(), counts.end(), 0);
    for (std::size_t i = 0; i < n; ++i) {
      const auto c = static_cast<std::size_t>(r.labels[i]);
      ++counts[c];
      for (std::size_t j = 0; j < d; ++j) sums[c * d + j] += coords[i * d + j];
    }
    for (std::size_t c = 0; c < o.k; ++c) {
      if (counts[c] == 0) continue;
      double nc = static_cast<double>(counts[c] + two_sided_geometric(rng, r.epsilon_count));
      while (nc < 0.5) nc = 1.0 - nc;  // fold at the lower bound 0.5
      for (std::size_t j = 0; j < d; ++j) {
        const double lo = nc * bounds.lo[j], hi = nc * bounds.hi[j];
        double s;
        if (range[j] > 0) {
          const double b = bounded_laplace_scale(r.epsilon_sum, range[j], hi - lo);
          s = bounded_laplace(rng, sums[c * d + j], lo, hi, b);
        } else {
          s = lo;  // a constant dimension carries no information
        }
        r.centers(static_cast<Eigen::Index>(c), static_cast<Eigen::Index>(j)) = s / nc;
      }
    }
    r.inertia = assign(coords, n, d, r.centers, r.labels);
  }
  return r;
}

}  // namespace dpclust::dpdbscan
