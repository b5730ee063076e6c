#pragma once
// Noise scales of the Gaussian mechanism for (eps, delta)-DP at any epsilon, with no eps < 1 condition:
//
//   analytic_gaussian_sigma   the continuous Gaussian's smallest sigma, Balle & Wang 2018 ("Improving the
//                             Gaussian Mechanism for Differential Privacy", ICML), Theorem 8: N(0, sigma^2)
//                             added to a query of L2 sensitivity D is (eps, delta)-DP iff
//                               Phi(D / (2 sigma) - eps sigma / D) - e^eps Phi(-D / (2 sigma) - eps sigma / D) <=
//                               delta.
//                             What diffprivlib's GaussianAnalytic (and so DPM's reference code) calibrates.
//   zcdp_gaussian_sigma       the discrete Gaussian's sigma through concentrated DP: adding independent
//                             discrete Gaussians N_Z(0, sigma^2) to an integer vector query of L2 sensitivity D
//                             is rho-zCDP with rho = D^2 / (2 sigma^2) (Canonne, Kamath & Steinke 2020,
//                             Theorem 14), and rho-zCDP implies (eps, delta)-DP with
//                               delta = inf_{alpha > 1} exp((alpha - 1)(alpha rho - eps)) / (alpha - 1) (1 -
//                               1/alpha)^alpha
//                             (ibid., Corollary 13). About 6-10% more noise than the analytic continuous sigma
//                             for eps in [0.06, 1.2] and delta in [1e-8, 1e-5]; the price of a sampler that
//                             needs no floating point.
// Both are found by bisection on the exact condition and returned rounded UP (the condition holds at the
// returned sigma): a numerical error can only add noise. A term that underflows is dropped where that
// makes the computed delta larger (more noise), never smaller.
namespace dpclust::privacy {

// sigma / D for the continuous Gaussian; eps > 0 finite, 0 < delta < 1 (std::invalid_argument otherwise).
double analytic_gaussian_sigma(double epsilon, double delta, double l2_sensitivity);
// delta of the continuous Gaussian at (sigma, D, eps) by Theorem 8 (for tests and the ledger's notes).
double analytic_gaussian_delta(double sigma, double epsilon, double l2_sensitivity);

// sigma for the discrete Gaussian through rho-zCDP; same arguments.
double zcdp_gaussian_sigma(double epsilon, double delta, double l2_sensitivity);
// delta of rho-zCDP at eps (Corollary 13, the infimum over alpha found numerically; any alpha gives a valid,
// larger, delta, so the search's error is on the safe side).
double zcdp_delta(double rho, double epsilon);

}  // namespace dpclust::privacy
