#pragma once
// Gamma and tau (Sec. 5.2, 7.1, Theorem 7.1): the data-independent amount by which the noisy
// neighbourhood sum of kappa cells may fall short of the true one, simultaneously for all |X| cells
// with probability >= 1 - beta (union bound: each cell gets beta_0 = beta / |X|). With
// L = ln(2 |X| / beta) and eps' = eps / Delta_1 (the per-unit privacy parameter):
//
//   Gamma_Lap   = (2 sqrt 2 / eps') max{ sqrt(kappa L), L }                   (Thm 2.9 + union bound, Sec. 7.1)
//   Gamma_Geom  = 4 sqrt(e^eps') / (e^eps' - 1) * sqrt(kappa L)  if kappa >= e^eps' L,
//                 4 e^eps' / (e^eps' - 1) * sqrt(kappa) * L      otherwise    (Thm 2.10 + union bound)
//   Gamma_Gauss = sigma sqrt(2 kappa L) = (2/eps) sqrt(kappa ln(1.25/delta) L) for Delta_2 = 1   (Sec. 7.1)
//
// The paper's worked example (eps = 1, beta = 1/3, kappa = 21, |X| = 1000) gives Gamma_Lap = 38.2 and
// Gamma_Geom = 252 (tests/dpdbscan). For the linear-time histogram every entry may additionally lose
// up to theta (a count truncated below theta is released as 0), so Theorem 7.1:
//
//   Gamma_linear = kappa theta + Gamma_noise,     theta = max{0, ln(|X|/n)} / eps'  (Laplace/Geometric)
//
// (Theorem 7.1 states it for Laplace; the same argument applies to the other two noises, with the
// gaussian theta chosen so that Pr[Z >= theta] = n / (2|X|), the p of the Laplace choice.)
// tau = 2 Gamma (Lemma 5.1), MinPts' = MinPts + tau (Sec. 7.2).
//
// The authors' code takes, for the Laplace noise, the minimum of this bound and two looser ones
// (kappa times the single-cell bound, and a Hoeffding bound); with kappa >= 3 those are never
// smaller except marginally for d = 1, so only the paper's formula is implemented.
//
// The bounds are computed from the scale of the noise the mechanism really draws: its calibrated
// scale (privacy::CountMechanism::scale) times the ledger's noise_scale, so a zero-noise run has
// Gamma = 0 (and theta = 0): the rho-approximate non-private skeleton, UB(X) >= MinPts.
//
// The secure samplers (engine/privacy) draw integers, and the bounds still hold:
//   discrete Laplace of scale b (q = e^{-1/b}): its moment generating function is at most that of the
//     continuous Laplace(b) for every |lambda| < 1/b. With a = 1/b and g(x) = (1 - e^{-x}) / x,
//     E e^{lambda Z} / (1 / (1 - b^2 lambda^2)) = g(a)^2 / (g(a - lambda) g(a + lambda)) <= 1, because
//     g(x) = int_0^1 e^{-xs} ds is log-convex (a Laplace transform of a positive measure). Thm 2.9 (the
//     sum-of-Laplace concentration bound) is proved from this MGF bound alone, so Gamma_Lap holds.
//     The geometric noise IS this discrete Laplace; it keeps the paper's own (looser) Gamma_Geom.
//   discrete Gaussian of variance parameter sigma^2: sub-Gaussian with parameter sigma,
//     E e^{lambda Z} <= e^{lambda^2 sigma^2 / 2} (Canonne, Kamath & Steinke 2020), the only property the
//     Gamma_Gauss tail of a sum of kappa noises uses.
// The secure samplers take the scale as a rational rounded up (privacy/samplers.hpp), i.e. marginally
// more noise than the double scale the bounds are computed from.
#include <cstdint>

#include "dpdbscan/noise.hpp"
#include "privacy/mechanism.hpp"

namespace dpclust::dpdbscan {

// eps_unit = eps / Delta_1 = 1 / b, the per-unit privacy parameter of the concentration bounds.
double gamma_laplace(double eps_unit, double beta, double kappa, double universe);
double gamma_geometric(double eps_unit, double beta, double kappa, double universe);
double gamma_gaussian(double sigma, double beta, double kappa, double universe);
// Gamma of the noise alone (the naive histogram) that `mechanism` draws with the ledger's noise_scale
// `noise_factor` applied (eps' = eps / (Delta_1 factor), sigma factor); 0 when the factor is 0.
double gamma_noise(NoiseKind kind, const privacy::CountMechanism& mechanism, double noise_factor, double beta,
                   double kappa, double universe);

// theta of Alg. 2 when not given: Laplace/geometric max{0, ln(|X|/n)} / eps' (Thm 6.1 / 7.1); gaussian
// the upper quantile of the mechanism's noise at n / (2|X|) (0 when n >= |X|). With the noise factor
// applied as for gamma_noise (0 for no noise).
double default_theta(NoiseKind kind, const privacy::CountMechanism& mechanism, double noise_factor, double universe,
                     double n);

}  // namespace dpclust::dpdbscan
