// Discretised nD-Laplace sampled exactly; the construction and its privacy argument are in grid_laplace.hpp.
#include "ndlaplace/grid_laplace.hpp"

#include <algorithm>
#include <boost/multiprecision/cpp_int.hpp>
#include <cmath>
#include <limits>
#include <optional>
#include <stdexcept>
#include <utility>

#include "privacy/samplers.hpp"

namespace dpclust::ndlaplace {
namespace {

using Rational = boost::multiprecision::cpp_rational;
using BigInt = boost::multiprecision::cpp_int;

// The exact value of a finite double.
Rational exact(double v) {
  if (!std::isfinite(v)) throw std::logic_error("grid Laplace: a non-finite value reached the exact arithmetic");
  if (v == 0.0) return Rational(0);
  int e = 0;
  const double m = std::frexp(v, &e);                            // v = m 2^e, 0.5 <= |m| < 1
  const auto mi = static_cast<std::int64_t>(std::ldexp(m, 53));  // exact: 53 significant bits
  e -= 53;
  BigInt num = mi;
  if (e >= 0) return Rational(BigInt(num << e));
  return Rational(num, BigInt(BigInt(1) << -e));
}

constexpr double kUnitRoundoff = 0x1.0p-53;

// T = eps sqrt(S) - q, S = sum_j (a_j - b_j)^2, q = l1 / t - c: a double estimate with a proven error
// bound, and the exact pieces on demand.
class Exponent {
 public:
  Exponent(double eps, const double* a, const double* b, std::size_t d, std::uint64_t l1, std::uint64_t t, double c,
           bool fast)
      : eps_(eps), a_(a), b_(b), d_(d), l1_(l1), t_(t), c_(c) {
    // IEEE-754 +, -, *, / and sqrt are correctly rounded (relative error <= u0 = 2^-53 each, barring
    // underflow and overflow, excluded below). diff_j: u0; diff_j^2: 3 u0; the sum of d non-negative
    // terms: (d + 2) u0; sqrt: (d + 2) / 2 + 1 u0; times eps: <= (d + 6) u0. l1 / t (both exact below
    // 2^53): u0; minus c: 2 u0 (l1 / t + c). The difference adds u0 |T_d|. The bound below doubles all.
    if (!fast || l1 >= (std::uint64_t{1} << 53) || t >= (std::uint64_t{1} << 53)) return;
    double s = 0.0;
    for (std::size_t j = 0; j < d; ++j) {
      const double diff = a[j] - b[j];
      const double sq = diff * diff;
      if (sq != 0.0 && sq < 0x1.0p-900) return;  // near underflow: the relative bounds do not hold
      s += sq;
    }
    if (!std::isfinite(s) || s > 0x1.0p900) return;
    const double A = eps * std::sqrt(s);
    if (!std::isfinite(A) || (A != 0.0 && A < 0x1.0p-900)) return;
    const double lt = static_cast<double>(l1) / static_cast<double>(t);
    const double q = lt - c;
    estimate_ = A - q;
    error_ = 2.0 * kUnitRoundoff *
                 ((static_cast<double>(d_) + 6.0) * A + 2.0 * (lt + std::fabs(c)) + std::fabs(*estimate_)) +
             0x1.0p-1000;
    error_ *= 1.0 + 1e-6;
  }

  bool has_estimate() const { return estimate_.has_value(); }
  double estimate() const { return *estimate_; }
  double error() const { return error_; }

  // Exact comparisons of a rational y with T.
  bool le(const Rational& y) const {  // y <= T  <=>  y + q <= eps sqrt(S)
    const Rational s = y + q();
    if (s <= 0) return true;
    return s * s <= e2s();
  }
  bool ge(const Rational& y) const {  // y >= T  <=>  y + q >= eps sqrt(S)
    const Rational s = y + q();
    if (s < 0) return false;
    return s * s >= e2s();
  }

 private:
  const Rational& q() const {
    if (!q_) q_ = Rational(BigInt(l1_), BigInt(t_)) - exact(c_);
    return *q_;
  }
  const Rational& e2s() const {
    if (!e2s_) {
      Rational s = 0;
      for (std::size_t j = 0; j < d_; ++j) {
        const Rational diff = exact(a_[j]) - exact(b_[j]);
        s += diff * diff;
      }
      const Rational e = exact(eps_);
      e2s_ = e * e * s;
    }
    return *e2s_;
  }

  double eps_;
  const double *a_, *b_;
  std::size_t d_;
  std::uint64_t l1_, t_;
  double c_;
  std::optional<double> estimate_;
  double error_ = 0;
  mutable std::optional<Rational> q_, e2s_;
};

// floor(T) for T >= 0 (checked: throws when T < 0).
std::uint64_t exact_floor(const Exponent& T) {
  if (T.has_estimate()) {
    const double lo = T.estimate() - T.error(), hi = T.estimate() + T.error();
    if (hi < 0) throw std::logic_error("grid Laplace: negative acceptance exponent (proposal bound violated)");
    if (lo >= 0 && std::floor(lo) == std::floor(hi) && hi < 0x1.0p62) return static_cast<std::uint64_t>(std::floor(lo));
  }
  if (!T.le(Rational(0)))
    throw std::logic_error("grid Laplace: negative acceptance exponent (proposal bound violated)");
  std::uint64_t n = 0;
  if (T.has_estimate() && T.estimate() > 1 && T.estimate() < 0x1.0p62)
    n = static_cast<std::uint64_t>(std::floor(T.estimate())) - 1;
  while (n > 0 && !T.le(Rational(BigInt(n)))) --n;  // T >= n
  while (T.le(Rational(BigInt(n + 1)))) ++n;        // T < n + 1 (T = n + 1 exactly: floor is n + 1)
  return n;
}

// Bernoulli(f / K) with f = T - n in [0, 1): U < f / K  <=>  K U + n < T, U uniform on [0, 1) drawn
// 64 bits at a time until the interval of K U + n lies on one side of T.
bool bernoulli_fraction(Rng& rng, const Exponent& T, std::uint64_t n, std::uint64_t K) {
  std::uint64_t a = rng.next_u64();
  if (T.has_estimate() && K < (std::uint64_t{1} << 40) && n < (std::uint64_t{1} << 40)) {
    // y = K a 2^-64 + n with a rounded to a double: relative error <= 3 u0 per operation, doubled.
    const double Kd = static_cast<double>(K), nd = static_cast<double>(n);
    const double y_lo = Kd * std::ldexp(static_cast<double>(a), -64) + nd;
    const double y_hi = Kd * std::ldexp(static_cast<double>(a) + 1.0, -64) + nd;
    const double ey = 8.0 * kUnitRoundoff * (Kd + nd + 1.0);
    if (y_hi + ey < T.estimate() - T.error()) return true;   // K U + n < y_hi < T
    if (y_lo - ey > T.estimate() + T.error()) return false;  // K U + n >= y_lo > T
  }
  BigInt A = a;
  BigInt den = BigInt(1) << 64;
  const Rational nK{BigInt(n)};
  for (;;) {
    const Rational lo = Rational(BigInt(K) * A, den) + nK;
    const Rational hi = Rational(BigInt(K) * (A + 1), den) + nK;
    if (T.le(hi)) return true;   // K U + n < hi <= T
    if (T.ge(lo)) return false;  // T <= lo <= K U + n
    A = (A << 64) + rng.next_u64();
    den <<= 64;
  }
}

}  // namespace

bool bernoulli_exp_minus_distance(Rng& rng, double eps, const double* a, const double* b, std::size_t d,
                                  std::uint64_t l1, std::uint64_t t, double c, bool fast) {
  if (!(eps > 0) || !std::isfinite(eps) || t == 0 || !std::isfinite(c))
    throw std::invalid_argument("bernoulli_exp_minus_distance: eps > 0, t >= 1 and a finite c are required");
  const Exponent T(eps, a, b, d, l1, t, c, fast);
  // CKS Alg. 1 for gamma > 1: floor(T) Bernoulli(e^-1) draws, then Bernoulli(exp(-frac(T))).
  const std::uint64_t n = exact_floor(T);
  if (n > 0 && !privacy::bernoulli_exp(rng, privacy::Rational{n, 1})) return false;
  std::uint64_t K = 1;
  while (bernoulli_fraction(rng, T, n, K)) ++K;
  return K % 2 == 1;
}

double expected_proposals(std::size_t d, double eps, double step) {
  if (d == 0 || !(eps > 0) || !(step > 0)) return 1;
  const double dd = static_cast<double>(d);
  const double need = (1.0 + 1e-9) * std::sqrt(dd) / (eps * step);
  const double t = std::max(1.0, std::ceil(need));
  const double tu_e = t * step * eps;  // >= sqrt(d)
  // log of Z_target / Z_envelope, in units where e = 1.
  const double log_accept =
      std::log(2.0) + 0.5 * dd * std::log(M_PI) + std::lgamma(dd) - std::lgamma(0.5 * dd) - dd * std::log(2.0 * tu_e);
  const double log_offset = dd / (4.0 * t);
  return std::exp(std::min(700.0, std::max(0.0, -log_accept + log_offset)));
}

std::size_t largest_dimension_within(double max_proposals) {
  std::size_t d = 1;
  // The auto step: u = 0.01 / e, so t u e = ceil(100 sqrt(d)) / 100 (e cancels).
  while (d < 100000 && expected_proposals(d + 1, 1.0, 0.01) <= max_proposals) ++d;
  return d;
}

double finest_grid_step(double max_abs) { return std::ldexp(std::max(max_abs, 1.0), -40); }

double auto_grid_step(double eps, const std::vector<double>& lo, const std::vector<double>& hi) {
  if (!(eps > 0) || !std::isfinite(eps)) throw std::invalid_argument("auto_grid_step: eps must be finite and > 0");
  double u = 0.01 / eps;
  double max_abs = 1.0;
  for (std::size_t j = 0; j < lo.size() && j < hi.size(); ++j) {
    if (hi[j] > lo[j]) u = std::min(u, (hi[j] - lo[j]) / 1000.0);
    max_abs = std::max({max_abs, std::fabs(lo[j]) + std::fabs(hi[j])});
  }
  return std::max(u, std::ldexp(max_abs, -38));
}

GridLaplaceSampler::GridLaplaceSampler(std::size_t d, double eps, std::vector<double> origin, double step)
    : d_(d), eps_(eps), origin_(std::move(origin)), step_(step) {
  if (d == 0) throw std::invalid_argument("grid Laplace: d must be >= 1");
  if (!(eps > 0) || !std::isfinite(eps)) throw std::invalid_argument("grid Laplace: eps must be finite and > 0");
  if (!(step > 0) || !std::isfinite(step))
    throw std::invalid_argument("grid Laplace: the grid step must be finite and > 0");
  if (origin_.size() != d) throw std::invalid_argument("grid Laplace: the origin needs d coordinates");
  // t >= (1 + 1e-9) sqrt(d) / (e u): the 1e-9 covers the rounding of this line and of G (header).
  const double need = (1.0 + 1e-9) * std::sqrt(static_cast<double>(d)) / (eps * step);
  if (!(need < 0x1.0p40))
    throw std::invalid_argument(
        "grid Laplace: the grid step is too fine against the noise scale (sqrt(d) / (eps u) >= 2^40)");
  t_ = std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::ceil(need)));
}

void GridLaplaceSampler::draw(const double* x, Rng& rng, double* out, std::uint64_t* proposals) const {
  double max_abs = step_;
  for (std::size_t j = 0; j < d_; ++j) max_abs = std::max(max_abs, std::fabs(origin_[j]) + std::fabs(x[j]) + step_);
  if (step_ < finest_grid_step(max_abs))
    throw std::invalid_argument(
        "the grid step is finer than the doubles of the grid resolve (2^-40 of the coordinates' magnitude)");
  std::vector<std::int64_t> k0(d_);
  double dist1 = 0.0;  // ||x - G(k0)||_1
  for (std::size_t j = 0; j < d_; ++j) {
    k0[j] = std::llround((x[j] - origin_[j]) / step_);
    dist1 += std::fabs(x[j] - coordinate(j, k0[j]));
  }
  const double td = static_cast<double>(t_);
  const double c = (1.0 + 1e-6) * (dist1 + static_cast<double>(d_) * step_ / 1024.0) / (td * step_);
  constexpr std::uint64_t kMaxProposals = 100000000;
  for (std::uint64_t p = 1;; ++p) {
    std::uint64_t l1 = 0;
    for (std::size_t j = 0; j < d_; ++j) {
      const std::int64_t m = privacy::discrete_laplace(rng, privacy::Rational{t_, 1});
      l1 += static_cast<std::uint64_t>(m < 0 ? -m : m);
      out[j] = coordinate(j, k0[j] + m);
    }
    if (bernoulli_exp_minus_distance(rng, eps_, out, x, d_, l1, t_, c)) {
      if (proposals) *proposals += p;
      return;
    }
    if (p >= kMaxProposals) throw std::logic_error("grid Laplace: no proposal accepted in 10^8 proposals");
  }
}

}  // namespace dpclust::ndlaplace
