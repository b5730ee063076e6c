#include "privacy/samplers.hpp"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <limits>
#include <numbers>
#include <stdexcept>
#include <string>

// Implemented from the papers' pseudocode:
//   CKS20 = Canonne, Kamath & Steinke, "The Discrete Gaussian for Differential Privacy", NeurIPS 2020,
//           Algorithms 1 (Bernoulli(exp(-gamma))), 2 (discrete Laplace), 3 (discrete Gaussian).
//   M12   = Mironov, "On significance of the least significant bits for differential privacy", CCS 2012,
//           Sec. 5.2 (the snapping mechanism) and its Theorem 1.

namespace dpclust::privacy {

__extension__ typedef unsigned __int128 u128;  // GCC/Clang extension; -Wpedantic knows it as such

namespace {

constexpr u128 kU128Max = ~static_cast<u128>(0);
constexpr std::uint64_t kInt64Max = static_cast<std::uint64_t>(std::numeric_limits<std::int64_t>::max());
constexpr std::uint64_t kMaxScale = std::uint64_t{1} << 40;  // scale and sigma^2 limit (see header)

std::string str(double x) {
  char buf[64];
  std::snprintf(buf, sizeof buf, "%.17g", x);
  return buf;
}

// ---------------------------------------------------------------------------------------------------
// A 256-bit unsigned integer, just wide enough for the Bernoulli(exp(-gamma)) parameters of the Gaussian
// samplers: gamma = (|y| t d - n)^2 / (2 n t^2 d) has a numerator up to 2^256 and a denominator below
// 2^171 (n, d < 2^64, t <= 2^20 + 1). Only what Alg. 1 needs: multiply, compare, subtract, double.
struct U256 {
  u128 hi = 0, lo = 0;
  U256() = default;
  U256(u128 v) : lo(v) {}  // widening, like the built-in integer conversions
};

U256 mul(u128 a, u128 b) {
  const auto a0 = static_cast<std::uint64_t>(a), a1 = static_cast<std::uint64_t>(a >> 64);
  const auto b0 = static_cast<std::uint64_t>(b), b1 = static_cast<std::uint64_t>(b >> 64);
  const u128 p00 = static_cast<u128>(a0) * b0, p01 = static_cast<u128>(a0) * b1;
  const u128 p10 = static_cast<u128>(a1) * b0, p11 = static_cast<u128>(a1) * b1;
  // a b = p00 + (p01 + p10) 2^64 + p11 2^128; `mid` collects the 2^64 column (< 3 * 2^64).
  const u128 mid = (p00 >> 64) + static_cast<std::uint64_t>(p01) + static_cast<std::uint64_t>(p10);
  U256 r;
  r.lo = (mid << 64) | static_cast<std::uint64_t>(p00);
  r.hi = p11 + (p01 >> 64) + (p10 >> 64) + (mid >> 64);
  return r;
}
bool operator>=(const U256& a, const U256& b) { return a.hi != b.hi ? a.hi > b.hi : a.lo >= b.lo; }
bool is_zero(const U256& a) { return a.hi == 0 && a.lo == 0; }
U256 operator-(const U256& a, const U256& b) {  // a >= b
  U256 r;
  r.lo = a.lo - b.lo;
  r.hi = a.hi - b.hi - (a.lo < b.lo ? 1 : 0);
  return r;
}
U256 twice(const U256& a) {  // a < 2^255
  U256 r;
  r.hi = (a.hi << 1) | (a.lo >> 127);
  r.lo = a.lo << 1;
  return r;
}

// ---------------------------------------------------------------------------------------------------
// Bernoulli(num / den) for 0 <= num <= den < 2^255, exactly: compare a uniform U = 0.u1u2... (random
// bits) with p = num/den = 0.p1p2... (long division) bit by bit; U < p iff at the first differing bit
// u = 0 and p = 1. Each bit differs with probability 1/2, so 2 bits are read on average (one 64-bit word
// except with probability 2^-64); the loop ends with probability 1 for every p.
// The same comparison a whole 64-bit word at a time for den < 2^63: every call of the discrete Laplace
// sampler with a scale numerator below 2^63, i.e. all of this project's noisy counts. With W the next
// word and P = floor(num 2^64 / den) the next 64 bits of p (the long division's next 64 quotient bits),
// the first differing bit is a 1 of P iff W < P, i.e. (W + 1) den <= num 2^64, and a 1 of W iff W > P,
// i.e. W den > num 2^64; when W = P the next word decides against the remainder num 2^64 - W den (< den),
// which is where the bit loop stands after those 64 bits. So it reads the same words and returns the same
// bits as the 256-bit loop below (test Samplers.BernoulliRatioNarrowPathEqualsTheWideOne), with two
// 64 x 64 -> 128-bit products per word instead of a shift, a compare and an unpredictable branch per bit.
bool bernoulli_ratio_narrow(Rng& rng, std::uint64_t num, std::uint64_t den) {
  for (;;) {
    const std::uint64_t word = rng.next_u64();
    const u128 scaled = static_cast<u128>(num) << 64;     // num 2^64 < 2^127
    const u128 word_den = static_cast<u128>(word) * den;  // W den < 2^127
    if (word_den + den <= scaled) return true;            // W < P
    if (word_den > scaled) return false;                  // W > P
    num = static_cast<std::uint64_t>(scaled - word_den);  // W = P: the remainder, < den
  }
}

bool bernoulli_ratio(Rng& rng, U256 num, const U256& den) {
  if (is_zero(num)) return false;
  if (num >= den) return true;
  if (den.hi == 0 && (den.lo >> 63) == 0)  // and so num < den < 2^63
    return bernoulli_ratio_narrow(rng, static_cast<std::uint64_t>(num.lo), static_cast<std::uint64_t>(den.lo));
  for (;;) {
    const std::uint64_t word = rng.next_u64();
    for (int i = 63; i >= 0; --i) {
      num = twice(num);
      const bool p_bit = num >= den;
      if (p_bit) num = num - den;
      const bool u_bit = ((word >> i) & 1) != 0;
      if (u_bit != p_bit) return p_bit;
    }
  }
}

// CKS20 Alg. 1 for gamma = num/den in [0, 1]: K <- 1; repeat A ~ Bernoulli(gamma / K), K <- K + 1 while
// A = 1; return [K odd]. Pr[K odd] = sum_j (-gamma)^j / j! = exp(-gamma). Bernoulli(gamma / K) is drawn as
// Bernoulli(1/K) AND Bernoulli(num/den) (independent, so the product of the probabilities), which keeps
// den * K out of the arithmetic. E[K] = e^gamma <= e.
bool bernoulli_exp_unit(Rng& rng, const U256& num, const U256& den) {
  std::uint64_t k = 1;
  for (;;) {
    const bool a = (k == 1 || rng.below(k) == 0) && bernoulli_ratio(rng, num, den);
    if (!a) break;
    ++k;
  }
  return (k & 1) != 0;
}

// CKS20 Alg. 1 for any gamma = num/den >= 0 (den < 2^255): exp(-gamma) = exp(-1)^floor(gamma) *
// exp(-frac(gamma)). The integer part is peeled off by subtraction, one Bernoulli(exp(-1)) per unit,
// stopping at the first failure, so at most 1 / (1 - 1/e) ~ 1.6 rounds are expected however large gamma is.
bool bernoulli_exp_wide(Rng& rng, U256 num, const U256& den) {
  const U256 one(1);
  while (num >= den) {
    if (!bernoulli_exp_unit(rng, one, one)) return false;
    num = num - den;
  }
  return bernoulli_exp_unit(rng, num, den);
}

// The two Bernoulli draws of Alg. 2 on 64-bit integers, for t < 2^63 (every noisy count): the same words read
// and the same outcomes as bernoulli_exp_unit(U256(num), U256(den)) and bernoulli_exp_unit(1, 1), without
// the 256-bit wrappers (tests: SamplersDiscreteLaplace.SameDrawsAsTheBitByBitTranscription).
// Bernoulli(exp(-num/den)) for 0 <= num < den < 2^63. num = 0: Bernoulli(0) fails at K = 1 before any word.
bool bernoulli_exp_unit_narrow(Rng& rng, std::uint64_t num, std::uint64_t den) {
  if (num == 0) return true;
  std::uint64_t k = 1;
  while ((k == 1 || rng.below(k) == 0) && bernoulli_ratio_narrow(rng, num, den)) ++k;
  return (k & 1) != 0;
}
// Bernoulli(exp(-1)): Bernoulli(1 / K) alone, as Bernoulli(num/den = 1) is true without reading a word.
bool bernoulli_exp_minus_one(Rng& rng) {
  std::uint64_t k = 2;
  while (rng.below(k) == 0) ++k;
  return (k & 1) != 0;
}

// CKS20 Alg. 2, lines 2-7 (before the sign): X = U + t V with U uniform on {0..t-1} kept with probability
// exp(-U/t) and V geometric with Pr[V = v] ∝ exp(-v), so Pr[X = x] ∝ exp(-x/t); returns floor(X / s),
// which is geometric on {0, 1, ...} with ratio exp(-s/t). The U step is accepted with probability
// (1 - 1/e) / (t (1 - e^{-1/t})) >= 1 - 1/e, so <= 1.6 rounds are expected. t >= 1, s >= 1.
u128 geometric_floor(Rng& rng, std::uint64_t t, u128 s) {
  const bool narrow = (t >> 63) == 0;
  for (;;) {
    const std::uint64_t u = rng.below(t);  // u < t: bernoulli_exp_wide(u / t) is bernoulli_exp_unit(u / t)
    if (!(narrow ? bernoulli_exp_unit_narrow(rng, u, t) : bernoulli_exp_unit(rng, U256(u), U256(t)))) continue;
    std::uint64_t v = 0;
    while (bernoulli_exp_minus_one(rng)) ++v;
    const u128 x = u + static_cast<u128>(t) * v;  // v < 2^64 so no overflow
    // s is a power of two for every scale rational_at_least makes (all noisy counts): a shift, the same
    // quotient as the 128-bit division (a library call).
    if ((s & (s - 1)) == 0) {
      const auto low = static_cast<std::uint64_t>(s);
      return x >> (low != 0 ? std::countr_zero(low) : 64 + std::countr_zero(static_cast<std::uint64_t>(s >> 64)));
    }
    return x / s;
  }
}

// CKS20 Alg. 2 with scale t / s: Y = geometric_floor(t, s), B a fair sign bit, reject (B = 1, Y = 0) so
// that 0 is not counted twice, return (1 - 2B) Y. Pr[Z = z] ∝ exp(-|z| s / t). Acceptance >= 1/2.
std::int64_t discrete_laplace_ts(Rng& rng, std::uint64_t t, u128 s) {
  for (;;) {
    const u128 y = geometric_floor(rng, t, s);
    const bool negative = (rng.next_u64() >> 63) != 0;
    if (negative && y == 0) continue;
    if (y > kInt64Max)
      throw std::overflow_error("discrete_laplace: sample beyond the int64 range (probability < exp(-2^22))");
    const auto m = static_cast<std::int64_t>(y);
    return negative ? -m : m;
  }
}

void check_scale(const char* fn, const char* name, Rational r) {
  if (r.num == 0 || r.den == 0)
    throw std::invalid_argument(std::string(fn) + ": " + name + " " + std::to_string(r.num) + "/" +
                                std::to_string(r.den) + " must be a positive rational (num, den >= 1)");
  if (static_cast<u128>(r.num) > static_cast<u128>(r.den) * kMaxScale)
    throw std::invalid_argument(std::string(fn) + ": " + name + " " + std::to_string(r.num) + "/" +
                                std::to_string(r.den) +
                                " exceeds the supported maximum 2^40 (the 64-bit integer arithmetic and "
                                "int64 outputs are sized for it)");
}

// floor(sqrt(n / d)) for n / d <= 2^40, exactly: the largest m with m^2 d <= n (m <= 2^20).
std::uint64_t floor_sqrt(std::uint64_t n, std::uint64_t d) {
  auto m = static_cast<std::uint64_t>(std::sqrt(static_cast<double>(n) / static_cast<double>(d)));
  auto fits = [&](std::uint64_t v) { return static_cast<u128>(v) * v * d <= n; };
  while (m > 0 && !fits(m)) --m;
  while (fits(m + 1)) ++m;
  return m;
}

std::int64_t add_checked(std::int64_t k, u128 j, const char* fn) {
  if (j > kInt64Max - static_cast<std::uint64_t>(k < 0 ? 0 : k))
    throw std::overflow_error(std::string(fn) + ": sample beyond the int64 range");
  return k + static_cast<std::int64_t>(j);
}

double round_up(double x, int ulps) {
  for (int i = 0; i < ulps; ++i) x = std::nextafter(x, std::numeric_limits<double>::infinity());
  return x;
}

}  // namespace

// ---------------------------------------------------------------------------------------------------
Rational rational_at_least(double x) {
  if (!std::isfinite(x) || !(x > 0))
    throw std::invalid_argument("rational_at_least: x = " + str(x) + " must be finite and > 0");
  if (x >= 0x1p64) throw std::invalid_argument("rational_at_least: x = " + str(x) + " must be below 2^64");
  int e = 0;
  std::frexp(x, &e);  // x in [2^(e-1), 2^e)
  int k = 52 - e;     // x 2^k < 2^52
  if (k < 0) k = 0;
  if (k > 63) k = 63;
  // ldexp by a non-negative power keeps every bit (no overflow: x 2^k < 2^64), so the ceiling is of the
  // exact product and num / 2^k >= x with equality iff x is a multiple of 2^-k.
  auto num = static_cast<std::uint64_t>(std::ceil(std::ldexp(x, k)));
  while (k > 0 && (num & 1) == 0) {
    num >>= 1;
    --k;
  }
  return {num, std::uint64_t{1} << k};
}

bool bernoulli_exp(Rng& rng, Rational gamma) {
  if (gamma.den == 0) throw std::invalid_argument("bernoulli_exp: gamma has denominator 0");
  return bernoulli_exp_wide(rng, U256(gamma.num), U256(gamma.den));
}

std::int64_t discrete_laplace(Rng& rng, Rational scale) {
  check_scale("discrete_laplace", "scale", scale);
  // CKS20 Alg. 2 takes the scale as t / s: t = num, s = den.
  return discrete_laplace_ts(rng, scale.num, scale.den);
}

std::int64_t discrete_gaussian(Rng& rng, Rational sigma2) {
  check_scale("discrete_gaussian", "sigma2", sigma2);
  const std::uint64_t n = sigma2.num, d = sigma2.den;
  // CKS20 Alg. 3: t = floor(sigma) + 1; repeat Y ~ DLap(t), C ~ Bernoulli(exp(-(|Y| - sigma^2/t)^2 /
  // (2 sigma^2))) until C = 1; return Y. With sigma^2 = n/d the exponent is the rational
  //   gamma = (|Y| t d - n)^2 / (2 n t^2 d).
  const std::uint64_t t = floor_sqrt(n, d) + 1;  // <= 2^20 + 1
  const U256 gamma_den = mul(static_cast<u128>(n) * (t * t) * 2, d);
  for (;;) {
    const std::int64_t y = discrete_laplace_ts(rng, t, 1);
    const std::uint64_t a = y < 0 ? 0 - static_cast<std::uint64_t>(y) : static_cast<std::uint64_t>(y);
    const u128 a_t = static_cast<u128>(a) * t;
    // |Y| t d < 2^128 unless |Y| >= 2^43, which for DLap(t <= 2^21) has probability < exp(-2^22).
    if (a_t > kU128Max / d)
      throw std::overflow_error("discrete_gaussian: |Y| beyond the 128-bit range (probability < exp(-2^22))");
    const u128 a_t_d = a_t * d;
    const u128 w = a_t_d >= n ? a_t_d - n : n - a_t_d;
    if (bernoulli_exp_wide(rng, mul(w, w), gamma_den)) return y;
  }
}

std::int64_t discrete_laplace_tail(Rng& rng, Rational scale, std::int64_t k) {
  check_scale("discrete_laplace_tail", "scale", scale);
  if (k < 0) {
    // Not geometric below 0: reject from the two-sided sampler (Pr[Z >= k] >= Pr[Z >= 0] > 1/2).
    for (;;) {
      const std::int64_t z = discrete_laplace(rng, scale);
      if (z >= k) return z;
    }
  }
  // Pr[Z = z | Z >= k] = exp(-(z - k)/scale) (1 - exp(-1/scale)) for z >= k >= 0: k + G with G the
  // geometric variable of Alg. 2 before its sign step (memorylessness).
  return add_checked(k, geometric_floor(rng, scale.num, scale.den), "discrete_laplace_tail");
}

std::int64_t discrete_gaussian_tail(Rng& rng, Rational sigma2, std::int64_t k) {
  check_scale("discrete_gaussian_tail", "sigma2", sigma2);
  const std::uint64_t n = sigma2.num, d = sigma2.den;
  if (k <= 0 || static_cast<std::uint64_t>(k) <= floor_sqrt(n, d)) {
    // k <= sigma: plain rejection. Pr[Z >= k] >= Pr[Z >= floor(sigma)], which is >= 0.158 (its infimum is
    // the large-sigma limit 1 - Phi(1)), so <= 6.3 rounds are expected.
    for (;;) {
      const std::int64_t z = discrete_gaussian(rng, sigma2);
      if (z >= k) return z;
    }
  }
  // k > sigma: proposal z = k + j, j geometric with ratio exp(-k / sigma^2) (the Alg. 2 geometric with
  // scale sigma^2 / k = n / (d k), i.e. t = n, s = d k), accepted with probability
  // exp(-j^2 / (2 sigma^2)) = exp(-j^2 d / (2 n)). Proposal x acceptance ∝ exp(-(2 k j + j^2) / (2 sigma^2))
  // = exp(-(z^2 - k^2) / (2 sigma^2)) ∝ exp(-z^2 / (2 sigma^2)) on z >= k: the exact conditional law.
  // Acceptance >= 0.65 for k > sigma (continuous limit at k = sigma: sqrt(2 pi) e^{1/2} (1 - Phi(1))).
  const u128 s = static_cast<u128>(d) * static_cast<std::uint64_t>(k);
  const U256 gamma_den(static_cast<u128>(n) * 2);
  for (;;) {
    const u128 j = geometric_floor(rng, n, s);
    const std::int64_t z = add_checked(k, j, "discrete_gaussian_tail");  // also j < 2^63
    if (bernoulli_exp_wide(rng, mul(j * j, d), gamma_den)) return z;
  }
}

std::uint64_t geometric_failures(Rng& rng, std::uint64_t t) {
  if (t == 0) throw std::invalid_argument("geometric_failures: t must be at least 1");
  // geometric_floor(t, 1) is X with Pr[X = x] ∝ exp(-x/t) on {0, 1, ...}: exactly this law.
  const u128 g = geometric_floor(rng, t, 1);
  return g > std::numeric_limits<std::uint64_t>::max() ? std::numeric_limits<std::uint64_t>::max()
                                                       : static_cast<std::uint64_t>(g);
}

double discrete_laplace_tail_probability(double scale, std::int64_t k) {
  if (!std::isfinite(scale) || !(scale > 0))
    throw std::invalid_argument("discrete_laplace_tail_probability: scale = " + str(scale) + " must be finite and > 0");
  // Pr[Z = z] = (1 - q) / (1 + q) q^|z|, so Pr[Z >= k] = q^k / (1 + q) for k >= 0.
  const double q = std::exp(-1.0 / scale);
  if (k >= 0) return std::exp(-static_cast<double>(k) / scale) / (1.0 + q);
  return 1.0 - std::exp(-(1.0 - static_cast<double>(k)) / scale) / (1.0 + q);
}

double discrete_gaussian_tail_probability(double sigma2, std::int64_t k) {
  if (!std::isfinite(sigma2) || !(sigma2 > 0) || sigma2 > 0x1p40)
    throw std::invalid_argument("discrete_gaussian_tail_probability: sigma2 = " + str(sigma2) +
                                " must be finite, > 0 and <= 2^40");
  // By symmetry Pr[Z >= k] = 1 - Pr[Z >= 1 - k] for k <= 0.
  if (k <= 0) return 1.0 - discrete_gaussian_tail_probability(sigma2, 1 - k);
  // Normaliser sum_z exp(-z^2 / (2 sigma2)): Poisson summation gives sqrt(2 pi sigma2) sum_m
  // exp(-2 pi^2 sigma2 m^2); for sigma2 >= 4 the m != 0 terms are below 1e-34 relative.
  double norm = 0;
  if (sigma2 >= 4) {
    norm = std::sqrt(2 * std::numbers::pi * sigma2);
  } else {
    norm = 1;
    for (std::int64_t z = 1;; ++z) {
      const double term = 2 * std::exp(-static_cast<double>(z) * static_cast<double>(z) / (2 * sigma2));
      norm += term;
      if (term < 1e-20 * norm) break;
    }
  }
  // Tail written as exp(-k^2 / (2 sigma2)) sum_j exp(-(2 k j + j^2) / (2 sigma2)) so that it keeps its
  // relative accuracy until exp(-k^2 / (2 sigma2)) itself underflows. Terms decrease, stop at 1e-20.
  const auto kd = static_cast<double>(k);
  double sum = 0;
  for (std::int64_t j = 0;; ++j) {
    const auto jd = static_cast<double>(j);
    const double term = std::exp(-(2 * kd * jd + jd * jd) / (2 * sigma2));
    sum += term;
    if (term < 1e-20 * sum) break;
  }
  return std::exp(-kd * kd / (2 * sigma2)) * sum / norm;
}

// ---------------------------------------------------------------------------------------------------
double uniform_full_precision(Rng& rng) {
  // Binade: k = 1 + (leading zeros of the random bit stream), Pr[k] = 2^-k; the value lies in
  // (2^-k, 2^(1-k)]. Capped at 1022 so that every value is a normal double (probability 2^-1022).
  int k = 1;
  for (;;) {
    const std::uint64_t w = rng.next_u64();
    if (w != 0) {
      k += std::countl_zero(w);
      break;
    }
    k += 64;
    if (k > 1022) break;
  }
  if (k > 1022) k = 1022;
  // Mantissa: j uniform on {1, ..., 2^52}; 2^-k (1 + j 2^-52) is exact and covers the 2^52 doubles of
  // (2^-k, 2^(1-k)], each with probability 2^-k 2^-52 = its distance to the double below.
  const std::uint64_t j = (rng.next_u64() >> 12) + 1;
  // ldexp(m, -k) as a product with the double 2^-k (normal for k <= 1022): exact, so the same value.
  const double two_to_minus_k = std::bit_cast<double>(static_cast<std::uint64_t>(1023 - k) << 52);
  return (1.0 + static_cast<double>(j) * 0x1p-52) * two_to_minus_k;
}

SnappingLaplace::SnappingLaplace(double epsilon, double sensitivity, double bound) : bound_(bound) {
  auto positive = [](double v) { return std::isfinite(v) && v > 0; };
  if (!positive(epsilon))
    throw std::invalid_argument("snapping mechanism: epsilon = " + str(epsilon) + " must be finite and > 0");
  if (!positive(sensitivity))
    throw std::invalid_argument("snapping mechanism: sensitivity = " + str(sensitivity) + " must be finite and > 0");
  if (!positive(bound))
    throw std::invalid_argument("snapping mechanism: bound = " + str(bound) + " must be finite and > 0");
  const double b0 = bound / sensitivity;
  if (!(b0 < 0x1p48))
    throw std::invalid_argument("snapping mechanism: bound / sensitivity = " + str(b0) +
                                " must be below 2^48 (Mironov 2012's slack 2^-49 B / lambda would dominate)");
  // The unit. If sensitivity is a power of two, value / sensitivity is exact and the unit-scaled query has
  // sensitivity 1. Otherwise each quotient is off by at most 2^-53 B once clamped to [-B, B] (rounding is
  // monotone and B is a double, so a clamped quotient is either B itself or within half an ulp of an
  // exact one), so two of them differ by at most sensitivity / u + 2^-52 B; that is <= 1 when
  // u >= sensitivity / (1 - 2^-52 B). u = sensitivity (1 + 2^-50 B), rounded up twice, satisfies this with
  // room to spare for the rounding of the sum and the product (B = bound / u <= b0 < 2^48). Quotients in
  // the subnormal range (|value| < 2^-1022 u) are off by up to 2^-1075 instead, which this ignores.
  int exp2 = 0;
  const bool power_of_two = std::frexp(sensitivity, &exp2) == 0.5;
  unit_ = power_of_two ? sensitivity : round_up(sensitivity * (1.0 + 0x1p-50 * b0), 2);
  bound_units_ = bound / unit_;
  // M12 Theorem 1: (1/lambda + 2^-49 B / lambda)-DP, so lambda = (1 + 2^-49 B) / epsilon. Two roundings
  // (each <= 2^-53 relative) are covered by three ulps up: lambda is never below the exact value.
  lambda_units_ = round_up((1.0 + 0x1p-49 * bound_units_) / epsilon, 3);
  if (!(lambda_units_ < bound_units_))
    throw std::invalid_argument(
        "snapping mechanism: needs lambda < B (Mironov 2012, Theorem 1), but lambda = " + str(lambda_units_) +
        " >= B = " + str(bound_units_) + " (in units of the sensitivity): raise the bound or epsilon");
  if (!(bound_units_ < 0x1p46 * lambda_units_))
    throw std::invalid_argument(
        "snapping mechanism: needs B < 2^46 lambda (Mironov 2012, Theorem 1), but B = " + str(bound_units_) +
        " and lambda = " + str(lambda_units_) + " (in units of the sensitivity): lower the bound or epsilon");
  // Lambda: the smallest power of two >= lambda.
  const double mant = std::frexp(lambda_units_, &exp2);
  grid_units_ = mant == 0.5 ? lambda_units_ : std::ldexp(1.0, exp2);
  grid_bound_ = std::floor(bound_units_ / grid_units_) * grid_units_;  // exact: power-of-two division
  if (grid_bound_ == 0)
    throw std::invalid_argument("snapping mechanism: B = " + str(bound_units_) + " is below the grid Lambda = " +
                                str(grid_units_) + " (in units of the sensitivity): every release would be 0");
}

double SnappingLaplace::release(Rng& rng, double value) const {
  if (std::isnan(value)) throw std::invalid_argument("snapping mechanism: value is NaN");
  // std::clamp rather than fmin(fmax(...)): the same value for every non-NaN input when the bounds are
  // not zero (no signed-zero tie; NaN is refused above and cannot arise below), without libm calls.
  const double x = std::clamp(value / unit_, -bound_units_, bound_units_);  // clamp_B(f(D))
  const double u = uniform_full_precision(rng);                             // U*
  const bool negative = (rng.next_u64() >> 63) != 0;                        // S
  double noise = lambda_units_ * std::log(u);                               // lambda (x) LN(U*), <= 0
  if (negative) noise = -noise;                                             // exact
  const double y = x + noise;                                               // one rounding, as in M12
  // Round to the nearest multiple of Lambda, ties towards +infinity (M12 Sec. 5.2). y / Lambda is exact
  // (power of two) and so is r - floor(r); |r| < 2^47 + 2^11, so m Lambda is exact too.
  const double r = y / grid_units_;
  double m = std::floor(r);
  if (r - m >= 0.5) m += 1;
  double snapped = m * grid_units_;
  // M12 clamps to [-B, B]; clamping further to the largest multiple of Lambda inside it is post-processing.
  snapped = std::clamp(snapped, -grid_bound_, grid_bound_);
  const double out = snapped * unit_;
  return std::clamp(out, -bound_, bound_);  // the product can exceed bound by an ulp
}

// ---------------------------------------------------------------------------------------------------
namespace detail {

double open_unit_from_word(std::uint64_t w) {
  // 2 (w >> 12) + 1 < 2^53 is exact, so u is in [2^-53, 1 - 2^-53] and never rounds to 0 or 1.
  return static_cast<double>(2 * (w >> 12) + 1) * 0x1p-53;
}

double laplace_inverse_cdf(double u, double scale) {
  // F^-1(u) = scale ln(2u) for u < 1/2, -scale ln(2 (1 - u)) otherwise; 1 - u is exact for u >= 1/2.
  if (u < 0.5) return scale * std::log(2 * u);
  return -scale * std::log(2 * (1 - u));
}

}  // namespace detail

double laplace_textbook(Rng& rng, double scale) {
  return detail::laplace_inverse_cdf(detail::open_unit_from_word(rng.next_u64()), scale);
}

double gaussian_textbook(Rng& rng, double sigma) {
  // Box-Muller: sqrt(-2 ln U1) cos(2 pi U2) is N(0, 1) for independent uniforms; U1 on the open interval
  // keeps the logarithm finite. The sine branch is dropped so the sampler keeps no state.
  const double u1 = detail::open_unit_from_word(rng.next_u64());
  const double u2 = static_cast<double>(rng.next_u64() >> 11) * 0x1p-53;
  return sigma * std::sqrt(-2 * std::log(u1)) * std::cos(2 * std::numbers::pi * u2);
}

}  // namespace dpclust::privacy
