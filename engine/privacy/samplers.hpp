#pragma once
// Floating-point-safe noise: exact integer samplers for counts and the snapping mechanism for reals.
//
// Why: noise drawn on doubles leaks through its least significant bits. Mironov (2012), "On
// significance of the least significant bits for differential privacy" (CCS), shows that inverse-CDF
// Laplace on doubles reaches different sets of doubles from neighbouring inputs, so the support alone
// can tell them apart. The fix used here:
//   * counts get integer-valued noise sampled EXACTLY with integer arithmetic on rational parameters,
//     following Canonne, Kamath & Steinke (2020), "The Discrete Gaussian for Differential Privacy"
//     (NeurIPS; "CKS20" below):
//       Alg. 1  Bernoulli(exp(-gamma)), gamma rational    -> bernoulli_exp
//       Alg. 2  discrete Laplace, rational scale           -> discrete_laplace (and its tail)
//       Alg. 3  discrete Gaussian, rational sigma^2        -> discrete_gaussian (and its tail)
//     Only Rng::next_u64() and Rng::below() are used; no floating point touches a sampled value.
//   * real-valued outputs use the snapping mechanism (Mironov 2012, Sec. 5.2) -> SnappingLaplace.
//   * laplace_textbook / gaussian_textbook keep the papers' continuous samplers for bit-level
//     comparison; they are NOT floating-point safe.
//
// Exactness: every sampler below has exactly the stated distribution given ideal random bits, with
// one documented caveat: an output that would not fit in std::int64_t throws std::overflow_error.
// Under the parameter limits (scale <= 2^40, sigma^2 <= 2^40) that needs a geometric variable beyond
// 2^22 (probability below exp(-2^22)), i.e. it does not happen.
//
// Cost (expected loop iterations, independent of the parameters within the limits):
//   bernoulli_exp          <= 1.6 Bernoulli(exp(-1)) draws for the integer part of gamma, then at
//                          most e ~ 2.7 rounds of Alg. 1, each a few random bits;
//   discrete_laplace       <= 1 / ((1 - 1/e) * 1/2) ~ 3.2 rounds of Alg. 2;
//   discrete_gaussian      <= 1 / 0.44 ~ 2.3 rounds of Alg. 3 (acceptance computed numerically over
//                          sigma^2 in [1e-6, 1e6]; ~0.76 for large sigma);
//   discrete_*_tail        <= 2 (Laplace, k < 0), 1 (Laplace, k >= 0), <= 6.3 (Gaussian, k <= sigma),
//                          <= 1.53 (Gaussian, k > sigma) rounds; see samplers.cpp.
#include <cstdint>

#include "core/rng.hpp"

namespace dpclust::privacy {

// A non-negative rational num / den with 64-bit parts (den > 0).
struct Rational {
  std::uint64_t num;
  std::uint64_t den;
};

// The smallest num / 2^k >= x with k in [0, 63] as large as keeps num < 2^52 (num < 2^64 when x >= 2^52),
// reduced to lowest terms: a noise scale is only ever rounded UP (more noise, never less privacy).
// 0.5 -> 1/2, 3 -> 3/1, 1/3 -> 3002399751580331/2^53 (> 1/3). The round-up is below 2^-51 x for
// x >= 2^-11 and below 2^-63 (absolute) under it, where the denominator stops at 2^63. Throws
// std::invalid_argument unless x is finite and 0 < x < 2^64.
Rational rational_at_least(double x);

// Pr[true] = exp(-gamma), gamma = num/den >= 0 of any size (CKS20 Alg. 1, with its loop of
// Bernoulli(exp(-1)) draws for the integer part of gamma). Throws std::invalid_argument if den == 0.
bool bernoulli_exp(Rng& rng, Rational gamma);

// Pr[Z = z] ∝ exp(-|z| / scale) on the integers (CKS20 Alg. 2). scale = num/den with num, den >= 1
// and scale <= 2^40 (std::invalid_argument otherwise).
std::int64_t discrete_laplace(Rng& rng, Rational scale);

// Pr[Z = z] ∝ exp(-z^2 / (2 sigma2)) on the integers (CKS20 Alg. 3). sigma2 = num/den with num, den >= 1
// and sigma2 <= 2^40 (std::invalid_argument otherwise).
std::int64_t discrete_gaussian(Rng& rng, Rational sigma2);

// The discrete Laplace conditioned on Z >= k. For k >= 0 this is k + G, G geometric on {0, 1, ...} with
// ratio exp(-1/scale) (memorylessness), sampled exactly by the first half of Alg. 2; for k < 0 it is
// rejection from discrete_laplace (acceptance >= Pr[Z >= 0] > 1/2).
std::int64_t discrete_laplace_tail(Rng& rng, Rational scale, std::int64_t k);

// The number of failures before the first success of independent trials that each succeed with
// probability 1 - exp(-1/t): Pr[G = g] = (1 - e^(-1/t)) e^(-g/t), g >= 0 (the geometric variable of Alg. 2
// with scale t, exactly). t >= 1 (std::invalid_argument otherwise), any size up to 2^64 - 1; a value beyond
// 2^64 - 1 is returned as 2^64 - 1. Expected cost <= 1.6 rounds, whatever t. The exact binomial's skips
// (exact_binomial.hpp).
std::uint64_t geometric_failures(Rng& rng, std::uint64_t t);

// Pr[Z >= k] for the discrete Laplace with scale s: q^k / (1 + q) for k >= 0, q = exp(-1/s), and
// 1 - q^(1-k) / (1 + q) for k < 0 (double; for planning, not sampling). s finite > 0.
double discrete_laplace_tail_probability(double scale, std::int64_t k);

// Pr[Z >= k] for the discrete Gaussian (double; tail summed term by term, the normaliser by Poisson
// summation for sigma2 >= 4). Cost O(sigma) terms when k is near 0. 0 < sigma2 <= 2^40.
double discrete_gaussian_tail_probability(double sigma2, std::int64_t k);

// The discrete Gaussian conditioned on Z >= k, exactly:
//   k <= sigma (incl. k <= 0): rejection from discrete_gaussian (acceptance Pr[Z >= k] >= 0.158);
//   k >  sigma: proposal k + G, G geometric with ratio exp(-k / sigma2) (discrete_laplace_tail with
//     scale sigma2 / k), accepted with probability exp(-(z - k)^2 / (2 sigma2)). The product of the two
//     is exp(-(z^2 - k^2) / (2 sigma2)) ∝ exp(-z^2 / (2 sigma2)) on z >= k, so the accepted value has
//     exactly the conditional law; the acceptance rate is >= 0.65 (-> 1 as k / sigma grows).
std::int64_t discrete_gaussian_tail(Rng& rng, Rational sigma2, std::int64_t k);

// The snapping mechanism (Mironov 2012, Sec. 5.2, Theorem 1) for a real query of L1 sensitivity
// `sensitivity` clamped to [-bound, bound]:
//   clamp_B(round_Lambda(clamp_B(x) + S * lambda * ln(U*)))
// computed in units u ~ sensitivity (x = value / u, B = bound / u), U* = uniform_full_precision, S a random
// sign, Lambda the smallest power of two >= lambda, rounding to the nearest multiple of Lambda with ties
// towards +infinity (as Mironov specifies). Theorem 1: for a sensitivity-1 query and lambda < B < 2^46
// lambda the output is (1/lambda + 2^-49 B/lambda)-DP, so lambda = (1 + 2^-49 B) / epsilon (rounded up).
//
// The unit u: value / sensitivity is a rounded division, so the unit-scaled query can have sensitivity
// slightly above 1 (by up to 2^-52 B). When `sensitivity` is a power of two the division is exact and
// u = sensitivity; otherwise u = sensitivity * (1 + 2^-50 B) (rounded up), which makes the rounded
// quotient's sensitivity <= 1 again (see samplers.cpp). The result is finally clamped to the largest
// multiple of Lambda inside [-B, B] (post-processing, so every output is a multiple of Lambda) and
// multiplied back by u.
//
// Throws std::invalid_argument (with the violated condition in the message) when epsilon, sensitivity or
// bound is not finite and positive, bound / sensitivity >= 2^48, lambda >= B, B >= 2^46 lambda, or
// B < Lambda (every output would be 0). Assumes std::log is correctly rounded as Mironov does (glibc's is
// within 1 ulp).
class SnappingLaplace {
 public:
  SnappingLaplace(double epsilon, double sensitivity, double bound);
  double lambda() const { return lambda_units_ * unit_; }  // the Laplace scale used (query units)
  double Lambda() const { return grid_units_ * unit_; }    // the snapping grid (query units)
  double bound() const { return bound_; }
  // One release; `value` must not be NaN (std::invalid_argument). Always a multiple of Lambda() (exactly,
  // in units; to within one rounding after multiplying back by the unit) inside [-bound, bound].
  double release(Rng& rng, double value) const;

 private:
  double bound_;
  double unit_;          // u: the query unit (sensitivity, possibly inflated)
  double bound_units_;   // B = bound / u
  double lambda_units_;  // lambda in units of u
  double grid_units_;    // Lambda in units of u
  double grid_bound_;    // the largest multiple of Lambda <= B, in units of u
};

// Uniform on (0, 1] with full precision: a binade 2^-k drawn with probability 2^-k (geometric, from the
// leading zeros of random words) and 52 random mantissa bits, so every double x in (0, 1] has probability
// x - (the double below x) -- the law of a uniform real rounded up to a double (Mironov 2012's U*).
// Binades below 2^-1022 (probability 2^-1022) are folded into the lowest normal one.
double uniform_full_precision(Rng& rng);

// Textbook continuous samplers, kept for bit-level comparison with the papers (NOT floating-point safe):
// Laplace(0, scale) by inverse CDF from a uniform on the open interval (0, 1), so never +-inf
// (|x| <= 36.05 scale).
double laplace_textbook(Rng& rng, double scale);
// N(0, sigma^2) by Box-Muller (cosine branch only, so no state is kept between calls; |x| <= 8.6 sigma).
double gaussian_textbook(Rng& rng, double sigma);

namespace detail {
// (2 floor(w / 2^12) + 1) 2^-53: a uniform on the open interval (0, 1) from one random word; the
// extremes are 2^-53 and 1 - 2^-53 (all values exact, unlike Rng::uniform_open near 1).
double open_unit_from_word(std::uint64_t w);
// Inverse CDF of Laplace(0, scale) at u in (0, 1).
double laplace_inverse_cdf(double u, double scale);
}  // namespace detail

}  // namespace dpclust::privacy
