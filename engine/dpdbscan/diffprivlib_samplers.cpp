// diffprivlib's floating-point samplers (the DP-k-means baseline only); see diffprivlib_samplers.hpp.
#include "dpdbscan/diffprivlib_samplers.hpp"

#include <algorithm>
#include <cmath>

namespace dpclust::dpdbscan {
namespace {

double laplace_cdf(double x, double b) { return x < 0 ? 0.5 * std::exp(x / b) : 1.0 - 0.5 * std::exp(-x / b); }

}  // namespace

std::int64_t two_sided_geometric(Rng& rng, double eps) {
  const double lq = -eps;  // ln q
  const auto g1 = static_cast<std::int64_t>(std::floor(std::log(rng.uniform_open()) / lq));
  const auto g2 = static_cast<std::int64_t>(std::floor(std::log(rng.uniform_open()) / lq));
  return g1 - g2;
}

double bounded_laplace_scale(double epsilon, double sensitivity, double width) {
  const double dq = sensitivity, D = width;
  auto delta_c = [&](double b) {
    return (2.0 - std::exp(-dq / b) - std::exp(-(D - dq) / b)) / (1.0 - std::exp(-D / b));
  };
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

}  // namespace dpclust::dpdbscan
