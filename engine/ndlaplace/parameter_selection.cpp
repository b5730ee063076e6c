// Elbow and k-distance parameter selection (thesis Sec. 2.2.1, Tables 5.1 / 5.3); see parameter_selection.hpp.
#include "ndlaplace/parameter_selection.hpp"

#include <algorithm>
#include <cmath>
#include <functional>
#include <stdexcept>

#include "cluster/kmeans/kmeans.hpp"

namespace dpclust::ndlaplace {

std::size_t knee_index(const std::vector<double>& y) {
  if (y.empty()) throw std::invalid_argument("knee_index: empty curve");
  const std::size_t m = y.size();
  if (m < 3) return 0;
  const auto [lo, hi] = std::minmax_element(y.begin(), y.end());
  const double span = *hi - *lo;
  if (!(span > 0)) return 0;
  // Scaled points (x_i, y_i) in [0, 1]^2; distance to the chord from point 0 to point m-1 (up to a
  // constant factor, the same for every point).
  const double y0 = (y.front() - *lo) / span, y1 = (y.back() - *lo) / span;
  std::size_t best = 0;
  double best_d = -1.0;
  for (std::size_t i = 0; i < m; ++i) {
    const double xi = static_cast<double>(i) / static_cast<double>(m - 1);
    const double yi = (y[i] - *lo) / span;
    // line through (0, y0) and (1, y1): (y1 - y0) x - y + y0 = 0
    const double dd = std::fabs((y1 - y0) * xi - yi + y0);
    if (dd > best_d) {
      best_d = dd;
      best = i;
    }
  }
  return best;
}

std::vector<double> inertia_curve(const double* coords, std::size_t n, std::size_t d, std::size_t k_max,
                                  std::int64_t n_init, Rng& rng) {
  std::vector<double> out;
  KMeansOptions opt;
  opt.n_init = n_init;
  for (std::size_t k = 1; k <= std::min(k_max, n); ++k) out.push_back(kmeans(coords, n, d, k, opt, rng).inertia);
  return out;
}

std::size_t elbow_k(const std::vector<double>& inertia) { return knee_index(inertia) + 1; }

std::vector<double> k_distance(const double* coords, std::size_t n, std::size_t d, std::size_t k) {
  if (k < 1 || k > n) throw std::invalid_argument("k_distance: k must be in [1, n]");
  std::vector<double> out(n), row(n);
  for (std::size_t i = 0; i < n; ++i) {
    for (std::size_t j = 0; j < n; ++j) {
      double s = 0.0;
      for (std::size_t c = 0; c < d; ++c)
        s += (coords[i * d + c] - coords[j * d + c]) * (coords[i * d + c] - coords[j * d + c]);
      row[j] = std::sqrt(s);
    }
    std::nth_element(row.begin(), row.begin() + static_cast<std::ptrdiff_t>(k - 1), row.end());
    out[i] = row[k - 1];
  }
  std::sort(out.begin(), out.end(), std::greater<>());
  return out;
}

double knee_radius(const std::vector<double>& k_dist) { return k_dist.at(knee_index(k_dist)); }

}  // namespace dpclust::ndlaplace
