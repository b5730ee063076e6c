#pragma once
// How many of M independent draws of an exact count noise Z land at or above k: m ~ Bin(M, Pr[Z >= k]),
// sampled EXACTLY (no floating-point number decides it) in time proportional to 1 + M Pr[Z >= k], so that
// DP-DBSCAN's linear-time histogram (Alg. 2 line 9) stays linear and exact with M up to 2^64.
//
// The algorithm: the M trials are scanned by geometric skips, then thinned.
//   1. candidates  each trial is a candidate independently with probability c = 1 - exp(-1/t), t an
//                  integer chosen so that c >= p = Pr[Z >= k] and c is within a few percent of p (c = 1,
//                  every trial, when p > 1/2). The gap to the next candidate is geometric with ratio
//                  exp(-1/t): geometric_failures (samplers.hpp), CKS20 Alg. 2's exact geometric.
//   2. thinning    a candidate counts with probability r = p / c <= 1, decided by comparing a uniform U,
//                  whose bits are drawn lazily, with lower and upper bounds of r computed by MPFR with
//                  directed rounding (one 64-bit word decides it unless U falls within about 2^-64 of r;
//                  then the bounds are recomputed at increasing precision, as the exponential mechanism's
//                  acceptance is: exponential.hpp).
// Each trial is then counted independently with probability c * r = p, so the count is Bin(M, p) exactly.
// Expected work: M c + 1 candidates, M c <= 1.1 M p + 4.
//
// p is enclosed exactly from the noise's rational parameter (the one the exact samplers draw with):
//   discrete Laplace, scale s = num/den, q = exp(-1/s):  Pr[Z >= k] = q^k / (1 + q) for k >= 0 and
//                                                         1 - q^(1-k) / (1 + q) for k < 0 (CKS20 Sec. 2);
//   discrete Gaussian, sigma^2 = num/den:                 Pr[Z >= k] = sum_{z >= k} e^(-z^2 / 2 sigma^2) / N,
//     N = sqrt(2 pi sigma^2) (1 + 2 sum_{m >= 1} e^(-2 pi^2 sigma^2 m^2)) (Poisson summation, exact) for
//     sigma^2 >= 1, else summed directly; every infinite sum is cut where its terms fall below the
//     precision and the rest bounded by a geometric series. Cost O(min(k, sigma sqrt(bits))) terms, once
//     per call.
#include <cstdint>

#include "core/rng.hpp"
#include "privacy/samplers.hpp"

namespace dpclust::privacy {

enum class ExactNoise { discrete_laplace, discrete_gaussian };

// m ~ Bin(trials, Pr[Z >= k]) exactly, Z the discrete Laplace of scale `param` or the discrete Gaussian of
// variance `param` (each as its sampler takes it: num, den >= 1, at most 2^40; std::invalid_argument
// otherwise).
std::uint64_t binomial_tail_count(Rng& rng, std::uint64_t trials, ExactNoise noise, Rational param, std::int64_t k);

namespace detail {
// Pr[Z >= k] enclosed at `bits` of precision: lo <= p <= hi (doubles rounded outwards; for the tests).
void tail_probability_bounds(ExactNoise noise, Rational param, std::int64_t k, long bits, double& lo, double& hi);
// The candidate parameter t of step 1 for a probability near p_estimate (0: every trial is a candidate).
std::uint64_t candidate_t(double p_estimate);
}  // namespace detail

}  // namespace dpclust::privacy
