// The accountants of Google's DP clustering and the calibration of its noise; see noise_calibration.hpp.
#include "lsh_clustering/noise_calibration.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <mutex>
#include <stdexcept>
#include <string>
#include <tuple>

namespace dpclust::lsh {
namespace {

constexpr double kSqrt2 = 1.41421356237309504880;

// log Phi(x), the standard normal CDF, accurate far into the lower tail (where erfc underflows the
// asymptotic series of Mills' ratio takes over).
double log_phi(double x) {
  if (x > -30.0) return std::log(0.5 * std::erfc(-x / kSqrt2));
  const double x2 = x * x;
  // Phi(x) = phi(x) / |x| (1 - 1/x^2 + 3/x^4 - 15/x^6 ...), x -> -inf
  return -0.5 * x2 - 0.5 * std::log(2.0 * 3.14159265358979323846) - std::log(-x) +
         std::log1p(-1.0 / x2 + 3.0 / (x2 * x2) - 15.0 / (x2 * x2 * x2));
}

double phi_cdf(double x) { return 0.5 * std::erfc(-x / kSqrt2); }

void check_scales(double noise_multiplier, double count_scale, int count_releases) {
  if (!(noise_multiplier > 0) || !std::isfinite(noise_multiplier))
    throw std::invalid_argument("lsh_clustering: the noise multiplier must be finite and > 0");
  if (count_releases > 0 && (!(count_scale > 0) || !std::isfinite(count_scale)))
    throw std::invalid_argument("lsh_clustering: the count scale must be finite and > 0");
  if (count_releases < 0) throw std::invalid_argument("lsh_clustering: the number of count releases must be >= 0");
}

// The smallest log delta of CKS20 Prop. 12 over lambda = 1 + 10^u, u in [u_lo, u_hi], by golden-section
// search (the bound is unimodal in practice; any order gives a valid bound, so a missed minimum only
// costs tightness).
template <class F>
double golden_min(F f, double lo, double hi) {
  const double g = 0.61803398874989484820;
  double a = lo, b = hi, c = b - g * (b - a), d = a + g * (b - a);
  double fc = f(c), fd = f(d);
  for (int i = 0; i < 100 && b - a > 1e-12; ++i) {
    if (fc < fd) {
      b = d;
      d = c;
      fd = fc;
      c = b - g * (b - a);
      fc = f(c);
    } else {
      a = c;
      c = d;
      fc = fd;
      d = a + g * (b - a);
      fd = f(d);
    }
  }
  return std::min(fc, fd);
}

}  // namespace

const char* to_string(Accountant a) { return a == Accountant::pld ? "pld" : "rdp"; }

const char* accountant_description(Accountant a) {
  return a == Accountant::pld
             ? "joint account: exact privacy loss distribution (Gaussian + discrete Laplace)"
             : "joint account: Renyi DP (discrete Gaussian zCDP + discrete Laplace), CKS20 Prop. 12 conversion";
}

double gaussian_delta(double e, double s) {
  const double first = phi_cdf(s / 2.0 - e / s);
  const double log_second = e + log_phi(-s / 2.0 - e / s);
  const double second = log_second < -745.0 ? 0.0 : std::exp(log_second);
  return std::max(0.0, first - second);
}

double composed_delta(Accountant accountant, double epsilon, double noise_multiplier, double count_scale,
                      int count_releases) {
  check_scales(noise_multiplier, count_scale, count_releases);
  if (accountant == Accountant::rdp) return rdp_delta(epsilon, noise_multiplier, count_scale, count_releases);
  const double s = 1.0 / noise_multiplier;
  if (count_releases == 0) return gaussian_delta(epsilon, s);
  const double a = 1.0 / count_scale;
  const int L = count_releases;
  // J ~ Binomial(L, p), p = 1 / (1 + e^a): the number of counts whose privacy loss is -a.
  const double log_p = -std::log1p(std::exp(a)), log_q = -std::log1p(std::exp(-a));
  double log_w = L * log_q;  // log Pr[J = 0]
  double delta = 0;
  for (int j = 0; j <= L; ++j) {
    delta += std::exp(log_w) * gaussian_delta(epsilon - a * (L - 2 * j), s);
    log_w += std::log(static_cast<double>(L - j) / static_cast<double>(j + 1)) + log_p - log_q;
  }
  return std::min(1.0, delta);
}

double discrete_laplace_rdp(double lambda, double scale) {
  if (!(lambda > 1)) throw std::invalid_argument("lsh_clustering: a Renyi order must be > 1");
  const double a = 1.0 / scale;
  return a + (std::log1p(std::exp(-a * (2.0 * lambda - 1.0))) - std::log1p(std::exp(-a))) / (lambda - 1.0);
}

double composed_rdp(double lambda, double noise_multiplier, double count_scale, int count_releases) {
  double r = lambda / (2.0 * noise_multiplier * noise_multiplier);
  if (count_releases > 0) r += count_releases * discrete_laplace_rdp(lambda, count_scale);
  return r;
}

double rdp_delta(double epsilon, double noise_multiplier, double count_scale, int count_releases) {
  check_scales(noise_multiplier, count_scale, count_releases);
  auto log_delta = [&](double u) {
    const double lambda = 1.0 + std::pow(10.0, u);
    const double r = composed_rdp(lambda, noise_multiplier, count_scale, count_releases);
    return (lambda - 1.0) * (r - epsilon + std::log1p(-1.0 / lambda)) - std::log(lambda);
  };
  constexpr int kGrid = 400;
  constexpr double kLo = -2.0, kHi = 6.0;  // lambda - 1 in [0.01, 1e6]
  int best = 0;
  double best_value = std::numeric_limits<double>::infinity();
  for (int i = 0; i <= kGrid; ++i) {
    const double v = log_delta(kLo + (kHi - kLo) * i / kGrid);
    if (v < best_value) {
      best_value = v;
      best = i;
    }
  }
  const double step = (kHi - kLo) / kGrid;
  const double lo = kLo + std::max(0, best - 1) * step, hi = kLo + std::min(kGrid, best + 1) * step;
  best_value = std::min(best_value, golden_min(log_delta, lo, hi));
  return best_value >= 0 ? 1.0 : std::exp(best_value);
}

Calibration calibrate(Accountant accountant, double epsilon, double delta, int max_depth, const NoiseMultipliers& m) {
  if (!(epsilon > 0) || !std::isfinite(epsilon))
    throw std::invalid_argument("lsh_clustering: epsilon must be finite and > 0");
  if (!(delta > 0 && delta < 1)) throw std::invalid_argument("lsh_clustering: delta must be in (0, 1)");
  if (max_depth < 0) throw std::invalid_argument("lsh_clustering: max_depth must be >= 0");
  if (!(m.gaussian > 0) || !std::isfinite(m.gaussian) || !(m.dlaplace > 0) || !std::isfinite(m.dlaplace))
    throw std::invalid_argument("lsh_clustering: the noise multipliers must be finite and > 0");
  const int releases = max_depth + 1;
  auto delta_at = [&](double alpha) {
    return composed_delta(accountant, epsilon, m.gaussian * alpha, m.dlaplace * alpha, releases);
  };
  // A bracket [lo, hi] with delta_at(lo) > delta >= delta_at(hi) (delta_at decreases in alpha: more noise).
  double lo = 1.0, hi = 1.0;
  if (delta_at(1.0) <= delta) {
    while (lo > 1e-12 && delta_at(lo) <= delta) lo /= 2.0;
    hi = 2.0 * lo;
  } else {
    while (delta_at(hi) > delta) {
      hi *= 2.0;
      if (hi > 1e15) throw std::invalid_argument("lsh_clustering: no noise scale below 1e15 reaches (epsilon, delta)");
    }
    lo = hi / 2.0;
  }
  for (int i = 0; i < 200 && hi / lo - 1.0 > 1e-12; ++i) {
    const double mid = std::sqrt(lo * hi);
    if (delta_at(mid) > delta) lo = mid;
    else hi = mid;
  }
  Calibration c;
  c.accountant = accountant;
  c.alpha = hi;
  c.noise_multiplier = m.gaussian * hi;
  c.count_scale = m.dlaplace * hi;
  c.count_releases = releases;
  c.delta = delta_at(hi);
  return c;
}

Calibration calibrate_cached(Accountant accountant, double epsilon, double delta, int max_depth,
                             const NoiseMultipliers& m) {
  using Key = std::tuple<int, double, double, int, double, double>;
  static std::mutex mu;
  static std::map<Key, Calibration> cache;
  const Key key{static_cast<int>(accountant), epsilon, delta, max_depth, m.gaussian, m.dlaplace};
  {
    std::lock_guard<std::mutex> lock(mu);
    if (const auto it = cache.find(key); it != cache.end()) return it->second;
  }
  const Calibration c = calibrate(accountant, epsilon, delta, max_depth, m);  // may throw: nothing is cached then
  std::lock_guard<std::mutex> lock(mu);
  if (cache.size() >= 256) cache.clear();
  cache.emplace(key, c);
  return c;
}

}  // namespace dpclust::lsh
