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
#include <cstdint>

#include "dpdbscan/noise.hpp"

namespace dpclust::dpdbscan {

double gamma_laplace(double eps_unit, double beta, double kappa, double universe);
double gamma_geometric(double eps_unit, double beta, double kappa, double universe);
double gamma_gaussian(double sigma, double beta, double kappa, double universe);
// Gamma of the noise alone (the naive histogram).
double gamma_noise(const Noise& noise, double beta, double kappa, double universe);

// theta of Alg. 2 when not given: Laplace/geometric max{0, ln(|X|/n)} / eps' (Thm 6.1 / 7.1);
// gaussian the upper quantile at n / (2|X|) (0 when n >= |X|).
double default_theta(const Noise& noise, double universe, double n);

}  // namespace dpclust::dpdbscan
