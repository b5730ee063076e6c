// FastLloyd's public rules (radius, T, budget split); see noise_schedule.hpp.
#include "fastlloyd/noise_schedule.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

namespace dpclust::fastlloyd {

double domain_diagonal(std::size_t d) { return 2.0 * std::sqrt(static_cast<double>(d)); }

double radius_fraction(double alpha, std::size_t k, std::size_t d) {
  return alpha / (2.0 * std::pow(static_cast<double>(k), 1.0 / static_cast<double>(d)));
}

double radius_of(RadiusRule rule, Noise noise, std::size_t iteration, double alpha, std::size_t k, std::size_t d) {
  if (rule == RadiusRule::none) return std::numeric_limits<double>::infinity();
  const double diagonal = domain_diagonal(d);
  double r =
      rule == RadiusRule::diagonal_then_frac && iteration == 0 ? diagonal / 2 : diagonal * radius_fraction(alpha, k, d);
  // update_maxdist: a radius at or above the sensitivity it was meant to lower is the diagonal.
  const double original = noise == Noise::laplace ? static_cast<double>(d) : diagonal;
  if (r >= original) r = diagonal;
  return r;
}

std::int64_t iteration_rule(Noise noise, RadiusRule rule, double epsilon, double unit_sigma, double n, std::size_t k,
                            std::size_t d, double alpha, double rho) {
  n = std::max(n, 1.0);
  const double kd = static_cast<double>(k), dd = static_cast<double>(d);
  double t = 0;
  if (noise == Noise::laplace) {
    const double e0 = std::cbrt(4 * dd * rho * rho);
    t = epsilon / std::sqrt(500 * kd * kd * kd / (n * n) * std::pow(dd + e0, 3));
  } else if (rule == RadiusRule::none) {
    t = 0.004 * n * n / (kd * kd * kd * dd * std::pow(2 * rho + std::sqrt(dd), 2) * unit_sigma * unit_sigma);
  } else {
    const double eta = 2 * std::sqrt(dd) * radius_fraction(alpha, k, d);
    t = 0.016 * n * n / (kd * kd * kd * eta * eta * std::pow(1 + std::sqrt(4 * dd), 2) * unit_sigma * unit_sigma);
  }
  // int(max(min(t, 7), 2)): truncation of a value in [2, 7] (NaN, from an infinite sigma, gives the floor).
  const double clamped =
      std::isnan(t) ? static_cast<double>(kMinIterations)
                    : std::max(std::min(t, static_cast<double>(kMaxIterations)), static_cast<double>(kMinIterations));
  return static_cast<std::int64_t>(clamped);
}

LaplaceSplit laplace_split(double epsilon, std::int64_t iterations, std::size_t d, double rho) {
  const double dd = static_cast<double>(d), e0 = std::cbrt(4 * dd * rho * rho);
  const double per_iteration = epsilon / static_cast<double>(iterations);
  LaplaceSplit s;
  s.sum = per_iteration * dd / (dd + e0);
  // The counts take what the sums leave, so that T (sum + count) is eps up to one rounding per iteration.
  s.count = per_iteration - s.sum;
  return s;
}

GaussianShares gaussian_shares(RadiusRule rule, std::int64_t iterations, std::size_t d, double rho) {
  const double dd = static_cast<double>(d), t = static_cast<double>(iterations);
  const double sum_weight = rule == RadiusRule::none ? std::sqrt(dd) : std::sqrt(4 * dd);
  const double count_weight = rule == RadiusRule::none ? 2 * rho : 1.0;
  GaussianShares s;
  s.sum = sum_weight / (sum_weight + count_weight) / t;
  s.count = count_weight / (sum_weight + count_weight) / t;
  return s;
}

double contribution_l2_bound(RadiusRule rule, double radius, std::size_t d) {
  if (rule == RadiusRule::none) return std::sqrt(static_cast<double>(d));
  return std::min(domain_diagonal(d), radius);
}

double contribution_coordinate_bound(RadiusRule rule, double radius) {
  if (rule == RadiusRule::none) return 1.0;
  return std::min(2.0, radius);
}

}  // namespace dpclust::fastlloyd
