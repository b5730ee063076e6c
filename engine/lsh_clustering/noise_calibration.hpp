#pragma once
// The noise of Google's DP clustering, calibrated to a target (eps, delta): the reference's
// learning/clustering/privacy_calculator.py (PrivacyCalculator, make_clustering_event) with an accountant
// at least as tight as its dp_accounting PLD accountant (continuous Gaussian), and a Renyi accountant for
// the exact discrete Gaussian of the secure sampler.
//
// What is composed (privacy_calculator.make_clustering_event), under add/remove neighbours:
//   one Gaussian release of l2 sensitivity Delta (the leaf sums: a record is in at most one leaf, and its
//     clipped point has norm <= r), noise multiplier sigma / Delta = gaussian_multiplier * alpha;
//   max_depth + 1 discrete Laplace releases of l1 sensitivity 1 (the node counts of each tree level,
//     the root included: a record is in at most one node per level), Pr[z] ∝ exp(-a |z|) with
//     a = 1 / (dlaplace_multiplier * alpha), i.e. scale t = dlaplace_multiplier * alpha;
// with the reference's PrivacyCalculatorMultiplier defaults gaussian_multiplier = 1, dlaplace_multiplier = 20,
// and alpha the smallest value whose composition is (eps, delta)-DP (mechanism_calibration.
// calibrate_dp_mechanism: bisection on alpha).
//
// Accountants (lsh_clustering's parameter `accounting`):
//   pld  the exact privacy-loss distribution of the composition, with the continuous Gaussian (the
//        reference's noise; the textbook sampler). Each discrete Laplace count's privacy loss is +a with
//        probability 1 / (1 + e^-a) and -a otherwise (the pair Y, Y + 1 dominates every neighbouring pair,
//        in both directions), so L counts lose a (L - 2J), J ~ Binomial(L, 1 / (1 + e^a)); the Gaussian's
//        loss is N(mu, 2 mu), mu = s^2 / 2, s = Delta / sigma, whose hockey-stick divergence at e is
//        delta_G(e) = E[(1 - e^{e - L})_+] = Phi(s/2 - e/s) - e^e Phi(-s/2 - e/s) for every real e
//        (Balle & Wang 2018, Thm. 8, states it for e >= 0; the expectation gives it for e < 0 as well).
//        The composed pair's divergence (Zhu, Dong & Wang 2022: the product of dominating pairs dominates
//        the adaptive composition) is therefore exactly
//            delta(eps) = sum_j Binom(L, j; 1 / (1 + e^a)) delta_G(eps - a (L - 2 j)),
//        which dp_accounting's PLD accountant approximates from above (pessimistic discretisation): for
//        eps = 1, delta = 1e-6, max_depth = 20 the reference calibrates sigma / Delta = 4.3381, this
//        4.3334 (tests/lsh_clustering/noise_calibration_test.cpp holds the compared values).
//   rdp  Renyi DP (Mironov 2017) for the discrete Gaussian of the secure sampler. The multivariate discrete
//        Gaussian has the continuous Gaussian's Renyi divergences, lambda Delta^2 / (2 sigma^2) for an
//        integer query of l2 sensitivity Delta in any dimension (Canonne, Kamath & Steinke 2020, Thm. 14;
//        dp_accounting's DiscreteGaussianDpEvent), but no exact (eps, delta) curve of the same form is
//        proven in more than one dimension, so the pld formula above is not applied to it. The discrete
//        Laplace's divergence is exact for its binary loss:
//            R_DL(lambda) = a + [log1p(e^{-a (2 lambda - 1)}) - log1p(e^{-a})] / (lambda - 1),
//        and the conversion is CKS20 Prop. 12 (dp_accounting's rdp compute_delta):
//            delta = min_{lambda > 1} exp((lambda - 1)(R(lambda) - eps + log(1 - 1/lambda)) - log lambda).
//        Looser than pld: sigma / Delta 4.6473 instead of 4.3334 at eps = 1, delta = 1e-6, max_depth 20
//        (about 7% more noise on the sums and the counts).
#include <cstdint>

namespace dpclust::lsh {

enum class Accountant { pld, rdp };
const char* to_string(Accountant a);
// The accountant as the ledger names it.
const char* accountant_description(Accountant a);

// The reference's PrivacyCalculatorMultiplier (clustering_params.py).
struct NoiseMultipliers {
  double gaussian = 1.0;   // gaussian_std_dev_multiplier: sigma / Delta = gaussian * alpha
  double dlaplace = 20.0;  // dlaplace_param_multiplier: a = 1 / (dlaplace * alpha)
};

struct Calibration {
  Accountant accountant = Accountant::pld;
  double alpha = 0;             // the calibrated parameter of mechanism_calibration
  double noise_multiplier = 0;  // sigma / Delta of the sums = multipliers.gaussian * alpha
  double count_scale = 0;       // discrete Laplace scale t = 1 / a = multipliers.dlaplace * alpha
  int count_releases = 0;       // max_depth + 1
  double delta = 0;             // the accountant's delta at the target epsilon at these scales (<= target)
};

// Balle & Wang's exact hockey-stick divergence of the Gaussian mechanism at e (any real e) for
// s = Delta / sigma > 0.
double gaussian_delta(double e, double s);
// The composition's delta at epsilon: Gaussian with sigma / Delta = noise_multiplier, `count_releases`
// discrete Laplace releases of sensitivity 1 and scale count_scale.
double composed_delta(Accountant accountant, double epsilon, double noise_multiplier, double count_scale,
                      int count_releases);
// The Renyi divergence of order lambda > 1 of the discrete Laplace pair (Y, Y + 1), scale t.
double discrete_laplace_rdp(double lambda, double scale);
// The composition's Renyi divergence of order lambda: lambda / (2 noise_multiplier^2) + count_releases
// R_DL(lambda).
double composed_rdp(double lambda, double noise_multiplier, double count_scale, int count_releases);
// CKS20 Prop. 12 on composed_rdp: the smallest delta over the orders lambda in [1.01, 1e6] (a grid of 400
// orders log-spaced in lambda - 1, then golden-section search around its best point).
double rdp_delta(double epsilon, double noise_multiplier, double count_scale, int count_releases);

// The smallest alpha (to a relative 1e-12, rounded up) with composed_delta(eps) <= delta, as the
// reference's calibrate_dp_mechanism searches it. Throws std::invalid_argument unless epsilon > 0 is
// finite, 0 < delta < 1, max_depth >= 0 and the multipliers are finite and > 0.
Calibration calibrate(Accountant accountant, double epsilon, double delta, int max_depth,
                      const NoiseMultipliers& multipliers);
// calibrate(), remembered per argument tuple for the process (a cell's trials share one calibration; the
// result is a pure function of the arguments, so reuse changes no number). Thread-safe; at most 256 entries.
Calibration calibrate_cached(Accountant accountant, double epsilon, double delta, int max_depth,
                             const NoiseMultipliers& multipliers);

}  // namespace dpclust::lsh
