#include "privacy/gaussian_calibration.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>

namespace dpclust::privacy {

namespace {

void check_arguments(double epsilon, double delta, double l2) {
  if (!(epsilon > 0) || !std::isfinite(epsilon))
    throw std::invalid_argument("Gaussian calibration: epsilon must be finite and > 0");
  if (!(delta > 0 && delta < 1)) throw std::invalid_argument("Gaussian calibration: delta must be in (0, 1)");
  if (!(l2 > 0) || !std::isfinite(l2))
    throw std::invalid_argument("Gaussian calibration: the L2 sensitivity must be finite and > 0");
}

// Phi(x) = erfc(-x / sqrt 2) / 2, accurate in the lower tail.
double normal_cdf(double x) { return 0.5 * std::erfc(-x / std::sqrt(2.0)); }

// The smallest sigma (relative to D = 1) with delta_of(sigma) <= delta, delta_of decreasing: bracket, then
// bisection to 1e-13 relative; returns the upper end, where the condition holds.
template <class F>
double smallest_sigma(F delta_of, double delta) {
  double lo = 0, hi = 1;
  while (delta_of(hi) > delta) {
    lo = hi;
    hi *= 2;
    if (hi > 1e30) throw std::invalid_argument("Gaussian calibration: no sigma below 1e30 reaches this delta");
  }
  for (int i = 0; i < 300 && hi - lo > 1e-13 * hi; ++i) {
    const double mid = 0.5 * (lo + hi);
    if (delta_of(mid) > delta) lo = mid;
    else hi = mid;
  }
  return hi;
}

}  // namespace

double analytic_gaussian_delta(double sigma, double epsilon, double l2) {
  const double a = l2 / (2 * sigma), b = epsilon * sigma / l2;
  const double first = normal_cdf(a - b);
  // e^eps Phi(-a - b) in logs; an underflow makes the subtracted term 0 (a larger delta: the safe side).
  const double tail = normal_cdf(-a - b);
  const double second = tail > 0 ? std::exp(epsilon + std::log(tail)) : 0.0;
  return first - second;
}

double analytic_gaussian_sigma(double epsilon, double delta, double l2) {
  check_arguments(epsilon, delta, l2);
  return l2 * smallest_sigma([&](double s) { return analytic_gaussian_delta(s, epsilon, 1.0); }, delta);
}

double zcdp_delta(double rho, double epsilon) {
  // log delta(alpha) = (alpha - 1)(alpha rho - eps) - log(alpha - 1) + alpha log(1 - 1/alpha), alpha = 1 + e^t:
  // a grid over t in [-30, 30], then golden-section refinement around the best grid point.
  auto log_delta = [&](double t) {
    const double am1 = std::exp(t), alpha = 1 + am1;
    return am1 * (alpha * rho - epsilon) - t + alpha * std::log1p(-1 / alpha);
  };
  const int steps = 600;
  double best_t = -30, best = log_delta(best_t);
  for (int i = 1; i <= steps; ++i) {
    const double t = -30 + 60.0 * i / steps;
    const double v = log_delta(t);
    if (v < best) best = v, best_t = t;
  }
  double a = best_t - 0.1, b = best_t + 0.1;
  const double g = (std::sqrt(5.0) - 1) / 2;
  for (int i = 0; i < 80; ++i) {
    const double c = b - g * (b - a), d = a + g * (b - a);
    if (log_delta(c) < log_delta(d)) b = d;
    else a = c;
  }
  best = std::min(best, log_delta(0.5 * (a + b)));
  return std::min(1.0, std::exp(best));
}

double zcdp_gaussian_sigma(double epsilon, double delta, double l2) {
  check_arguments(epsilon, delta, l2);
  return l2 * smallest_sigma([&](double s) { return zcdp_delta(1.0 / (2 * s * s), epsilon); }, delta);
}

}  // namespace dpclust::privacy
