// Gamma (Sec. 7.1) against the paper's worked example, and theta (Thm 6.1 / 7.1).
#include "dpdbscan/error_bounds.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace dpclust::dpdbscan {
namespace {

TEST(ErrorBounds, PaperWorkedExample) {
  // Sec. 7.1: eps = 1, beta = 1/3, kappa = 21, |X| = 1000 gives Gamma_Lap = 38.2 and Gamma_Geom = 252
  // (the geometric bound is forced to its first form because kappa < e^eps ln(2|X|/beta)).
  EXPECT_NEAR(gamma_laplace(1.0, 1.0 / 3.0, 21, 1000), 38.2, 0.05);
  EXPECT_NEAR(gamma_geometric(1.0, 1.0 / 3.0, 21, 1000), 252.0, 0.5);
  const Noise lap(NoiseKind::laplace, 1.0, 0, false), geo(NoiseKind::geometric, 1.0, 0, false);
  EXPECT_DOUBLE_EQ(gamma_noise(lap, 1.0 / 3.0, 21, 1000), gamma_laplace(1.0, 1.0 / 3.0, 21, 1000));
  EXPECT_DOUBLE_EQ(gamma_noise(geo, 1.0 / 3.0, 21, 1000), gamma_geometric(1.0, 1.0 / 3.0, 21, 1000));
}

TEST(ErrorBounds, GeometricSecondFormWhenKappaIsLarge) {
  // kappa >= e^eps L switches to 4 sqrt(e^eps)/(e^eps - 1) sqrt(kappa L), which is smaller.
  const double L = std::log(2.0 * 1000 / 0.5);
  const double kappa = std::ceil(std::exp(1.0) * L) + 1;
  const double e = std::exp(1.0);
  EXPECT_NEAR(gamma_geometric(1.0, 0.5, kappa, 1000), 4 * std::sqrt(e) / (e - 1) * std::sqrt(kappa * L), 1e-9);
  EXPECT_LT(gamma_geometric(1.0, 0.5, kappa, 1000), 4 * e / (e - 1) * std::sqrt(kappa) * L);
}

TEST(ErrorBounds, GaussianMatchesPaperFormula) {
  // Gamma_Gauss = (2/eps) sqrt(kappa ln(1.25/delta) ln(2|X|/beta)) with unit L2 sensitivity.
  const double eps = 0.5, delta = 1e-5, beta = 0.5, kappa = 21, X = 1e6;
  const Noise g(NoiseKind::gaussian, eps, delta, false);
  EXPECT_NEAR(gamma_noise(g, beta, kappa, X), 2 / eps * std::sqrt(kappa * std::log(1.25 / delta) * std::log(2 * X / beta)), 1e-9);
}

TEST(ErrorBounds, BoundedDpDoublesTheLaplaceBound) {
  const Noise unb(NoiseKind::laplace, 1.0, 0, false), bnd(NoiseKind::laplace, 1.0, 0, true);
  EXPECT_NEAR(gamma_noise(bnd, 0.5, 21, 1e4), 2 * gamma_noise(unb, 0.5, 21, 1e4), 1e-9);
}

TEST(ErrorBounds, ThetaAndTheorem71) {
  const Noise lap(NoiseKind::laplace, 2.0, 0, false);
  EXPECT_NEAR(default_theta(lap, 1e6, 1e3), std::log(1e3) / 2.0, 1e-12);
  EXPECT_EQ(default_theta(lap, 1e3, 1e6), 0.0);  // max{0, ln(|X|/n)}
  // The linear histogram's p = Pr[Lap >= theta] = n / (2|X|).
  EXPECT_NEAR(lap.tail_probability(default_theta(lap, 1e6, 1e3)), 1e3 / 2e6, 1e-15);
  // Gaussian: theta chosen so that p = n / (2|X|) too.
  const Noise g(NoiseKind::gaussian, 0.5, 1e-6, false);
  EXPECT_NEAR(g.tail_probability(default_theta(g, 1e6, 1e3)), 1e3 / 2e6, 1e-12);
  // Theorem 7.1: tau = 2 (kappa theta + Gamma_Lap) with theta = ln(|X|/n)/eps.
  const double eps = 1, beta = 0.5, kappa = 21, X = 4.4e6, n = 1e5;
  const Noise l1(NoiseKind::laplace, eps, 0, false);
  const double tau = 2 * (kappa * default_theta(l1, X, n) + gamma_noise(l1, beta, kappa, X));
  const double L = std::log(2 * X / beta);
  EXPECT_NEAR(tau, 2 * kappa / eps * std::log(X / n) + 4 * std::sqrt(2.0) / eps * std::max(std::sqrt(kappa * L), L), 1e-9);
}

}  // namespace
}  // namespace dpclust::dpdbscan
