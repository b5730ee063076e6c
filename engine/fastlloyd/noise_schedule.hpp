#pragma once
// FastLloyd's public rules: the radius of every iteration, the number of iterations T, and how the budget is
// split between the iterations and between the sums and the counts. Functions of the parameters (k, d, eps,
// delta, alpha, rho) and of a number of points N only; nothing here reads the data.
//
// All of it happens in the authors' domain [-1, 1]^d (every column mapped there by the public bounds), whose
// diagonal is D = 2 sqrt(d). Read in the authors' code (D-Diaa/FastLloyd, configs/params.py and
// parties/server.py; the paper's text was not readable here, so the names are the code's):
//   get_frac            frac = alpha / (2 k^(1/d))
//   update_maxdist      the radius r_i of iteration i:
//                         diagonal_then_frac (FastLloyd): r_0 = D / 2 = sqrt(d), r_i = D frac (i >= 1)
//                         frac_stay (ablation):            r_i = D frac
//                         none (SuLloyd / GLloyd):          no radius (every point counts, absolute sums)
//                       and r_i = D whenever r_i >= the mechanism's "original sensitivity" (d for Laplace, D for
//                       the Gaussian): a radius that would not lower the sensitivity is the diagonal itself.
//   calculate_iters     T = int(max(min(t, 7), 2)) with
//                         Laplace (Su et al.'s rule, as diffprivlib): t = eps / sqrt(500 k^3 / N^2 (d + cbrt(4 d
//                         rho^2))^3) Gaussian, radius:                       t = 0.016 N^2 / (k^3 eta^2 (1 +
//                         sqrt(4d))^2 sigma0^2),
//                                                                  eta = 2 sqrt(d) frac
//                         Gaussian, no radius:                    t = 0.004 N^2 / (k^3 d (2 rho + sqrt d)^2 sigma0^2)
//                       sigma0 = the unit sigma of the whole (eps, delta) (privacy/gaussian_budget.hpp). The authors
//                       take N as the true n and delta = 1 / (N ln N); here N is a noisy count, a public n or (flagged)
//                       the true n, and delta a parameter.
//   split_epsilon       Laplace, per iteration eps / T: the sums get d / (d + e0) of it, the counts e0 / (d + e0),
//                       e0 = cbrt(4 d rho^2) (Su et al.'s split, as diffprivlib's KMeans).
//   dp_setup (Gaussian) per iteration the sums get sqrt(4d) / (1 + sqrt(4d)) / T of the budget's precision, the
//                       counts 1 / (1 + sqrt(4d)) / T (radius); without a radius sqrt(d) / (2 rho + sqrt d) / T and
//                       2 rho / (2 rho + sqrt d) / T. The 2T shares add up to 1 (GaussianBudget's composition).
//   per-record bounds   with a radius every point's contribution is its offset x - c from its centre, of L2 norm
//                       <= min(D, r) (Gaussian) and |x_j - c_j| <= min(2, r) per coordinate (Laplace, L1 d min(2, r));
//                       without a radius the point itself, of L2 norm <= sqrt(d) and |x_j| <= 1 (L1 d).
#include <cstddef>
#include <cstdint>

#include "core/named_choice.hpp"

namespace dpclust::fastlloyd {

// The name of a choice in its table (the parameter's declaration), for messages and diagnostics.
template <class E, std::size_t N>
const char* name_in(const Named<E> (&table)[N], E kind) {
  for (const auto& t : table)
    if (t.kind == kind) return t.name;
  return "?";
}

// Each choice once: the enum and the table of its parameter's names (register.cpp declares the parameters from them).
enum class Noise { gaussian, laplace };
inline constexpr Named<Noise> kNoises[] = {{"gaussian", Noise::gaussian}, {"laplace", Noise::laplace}};
enum class RadiusRule { diagonal_then_frac, frac_stay, none };
inline constexpr Named<RadiusRule> kRadiusRules[] = {{"diagonal_then_frac", RadiusRule::diagonal_then_frac},
                                                     {"frac_stay", RadiusRule::frac_stay},
                                                     {"none", RadiusRule::none}};
inline const char* to_string(Noise n) { return name_in(kNoises, n); }
inline const char* to_string(RadiusRule r) { return name_in(kRadiusRules, r); }

inline constexpr std::int64_t kMinIterations = 2;  // params.py MIN_ITERATIONS
inline constexpr std::int64_t kMaxIterations = 7;  // params.py MAX_ITERATIONS
// The largest `iterations` a config may fix: every iteration records two ledger entries, and beyond a few tens the
// noise of each (the budget split T ways) swamps any update.
inline constexpr std::int64_t kMaxIterationsParam = 1000;
inline constexpr double kDefaultAlpha = 0.8;  // experiments.py --alpha
inline constexpr double kDefaultRho = 0.225;  // params.py rho (Su et al.)

double domain_diagonal(std::size_t d);                               // D = 2 sqrt(d)
double radius_fraction(double alpha, std::size_t k, std::size_t d);  // frac = alpha / (2 k^(1/d))
// r_i; +inf for RadiusRule::none (no constraint).
double radius_of(RadiusRule rule, Noise noise, std::size_t iteration, double alpha, std::size_t k, std::size_t d);

// calculate_iters on N (> 0; below 1 taken as 1). unit_sigma: the Gaussian's sigma0 (unused for Laplace).
std::int64_t iteration_rule(Noise noise, RadiusRule rule, double epsilon, double unit_sigma, double n, std::size_t k,
                            std::size_t d, double alpha, double rho);

// Laplace: the epsilon of one iteration's sums (all k x d of them together) and counts.
struct LaplaceSplit {
  double sum = 0, count = 0;
};
LaplaceSplit laplace_split(double epsilon, std::int64_t iterations, std::size_t d, double rho);

// Gaussian: the shares of the budget's precision of one iteration's sums and counts.
struct GaussianShares {
  double sum = 0, count = 0;
};
GaussianShares gaussian_shares(RadiusRule rule, std::int64_t iterations, std::size_t d, double rho);

// A point's contribution to its cluster's sum: its L2 norm bound (Gaussian) and per-coordinate bound (Laplace).
double contribution_l2_bound(RadiusRule rule, double radius, std::size_t d);
double contribution_coordinate_bound(RadiusRule rule, double radius);

}  // namespace dpclust::fastlloyd
