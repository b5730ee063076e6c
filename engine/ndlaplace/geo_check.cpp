// Empirical geo-indistinguishability check (thesis Eq. 3.1) and P_area (Eq. 3.4); see geo_check.hpp.
#include "ndlaplace/geo_check.hpp"

#include <algorithm>
#include <cmath>
#include <numbers>
#include <stdexcept>

#include "ndlaplace/privacy.hpp"

namespace dpclust::ndlaplace {
namespace {}  // namespace

GeoCheck geo_indistinguishability_check(const double* x, const double* xp, std::size_t d, const double* zx,
                                        std::size_t n_x, const double* zxp, std::size_t n_xp, double eps,
                                        const GeoCheckOptions& o) {
  if (d == 0 || n_x == 0 || n_xp == 0) throw std::invalid_argument("geo-indistinguishability check: no reports");
  if (o.thresholds < 2) throw std::invalid_argument("geo-indistinguishability check: thresholds must be >= 2");
  GeoCheck g;
  g.distance = euclidean_distance(x, xp, d);
  if (!(g.distance > 0)) throw std::invalid_argument("geo-indistinguishability check: x and x' must differ");
  g.bound = eps * g.distance;
  // s(z) of every report.
  auto stat = [&](const double* z) { return euclidean_distance(z, xp, d) - euclidean_distance(z, x, d); };
  std::vector<double> sx(n_x), sxp(n_xp);
  for (std::size_t i = 0; i < n_x; ++i) sx[i] = stat(zx + i * d);
  for (std::size_t i = 0; i < n_xp; ++i) sxp[i] = stat(zxp + i * d);
  bool any = false;
  auto consider = [&](std::uint64_t a, std::size_t n_num, std::uint64_t b, std::size_t n_den) {
    if (a < o.min_count) return;
    const double na = static_cast<double>(n_num), nb = static_cast<double>(n_den);
    const double fa = static_cast<double>(a), fb = static_cast<double>(b);
    double l = 0, lower = 0;
    if (b >= o.min_count) {
      l = std::log(fa / na) - std::log(fb / nb);
      lower = l - o.z * std::sqrt(std::max(0.0, 1.0 / fa - 1.0 / na + 1.0 / fb - 1.0 / nb));
    } else {
      // Too few (maybe no) reports on the denominator side: the point estimate uses max(b, 1/2), the lower
      // bound the upper confidence count b + z sqrt(b) + z^2 (so a mechanism that never reports an event
      // for x' that it reports min_count times for x, e.g. no noise at all, is caught).
      l = std::log(fa / na) - std::log(std::max(fb, 0.5) / nb);
      lower = std::log(fa / na) - o.z * std::sqrt(std::max(0.0, 1.0 / fa - 1.0 / na)) -
              std::log((fb + o.z * std::sqrt(fb) + o.z * o.z) / nb);
    }
    if (!any || l > g.max_log_ratio) g.max_log_ratio = l;
    if (!any || lower > g.max_lower_bound) g.max_lower_bound = lower;
    any = true;
    ++g.events;
  };
  const double t_count = static_cast<double>(o.thresholds);
  for (std::size_t k = 1; k < o.thresholds; ++k) {
    const double t = g.distance * (-1.0 + 2.0 * static_cast<double>(k) / t_count);
    std::uint64_t ge_x = 0, ge_xp = 0, le_x = 0, le_xp = 0;
    for (double s : sx) {
      ge_x += s >= t ? 1 : 0;
      le_x += s <= t ? 1 : 0;
    }
    for (double s : sxp) {
      ge_xp += s >= t ? 1 : 0;
      le_xp += s <= t ? 1 : 0;
    }
    consider(ge_x, n_x, ge_xp, n_xp);  // P[s >= t | x] / P[s >= t | x']
    consider(le_xp, n_xp, le_x, n_x);  // P[s <= t | x'] / P[s <= t | x]
  }
  g.violated = any && g.max_lower_bound > g.bound;
  return g;
}

double ball_volume(std::size_t d, double radius) {
  const double h = 0.5 * static_cast<double>(d);
  return std::exp(h * std::log(std::numbers::pi) - std::lgamma(h + 1.0)) * std::pow(radius, static_cast<double>(d));
}

PArea p_area(const double* x0, const double* reports, std::size_t n, std::size_t d) {
  if (n == 0) throw std::invalid_argument("P_area needs at least one report");
  PArea a;
  a.center.assign(x0, x0 + d);
  double s = 0.0;
  for (std::size_t i = 0; i < n; ++i) s += euclidean_distance(reports + i * d, x0, d);
  a.radius = s / static_cast<double>(n);
  a.volume = ball_volume(d, a.radius);
  return a;
}

}  // namespace dpclust::ndlaplace
