// Gamma (Sec. 7.1) against the paper's worked example, and theta (Thm 6.1 / 7.1), computed from the
// histogram's privacy::CountMechanism.
#include "dpdbscan/error_bounds.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace dpclust::dpdbscan {
namespace {

privacy::CountMechanism mech(NoiseKind kind, double eps, double delta = 0, bool bounded = false,
                             privacy::Sampler sampler = privacy::Sampler::textbook) {
  BudgetLedger ledger(eps, delta);
  return histogram_mechanism(ledger, kind, sampler, eps, delta, bounded, "histogram", "");
}

TEST(ErrorBounds, PaperWorkedExample) {
  // Sec. 7.1: eps = 1, beta = 1/3, kappa = 21, |X| = 1000 gives Gamma_Lap = 38.2 and Gamma_Geom = 252
  // (the geometric bound is forced to its first form because kappa < e^eps ln(2|X|/beta)).
  EXPECT_NEAR(gamma_laplace(1.0, 1.0 / 3.0, 21, 1000), 38.2, 0.05);
  EXPECT_NEAR(gamma_geometric(1.0, 1.0 / 3.0, 21, 1000), 252.0, 0.5);
  const auto lap = mech(NoiseKind::laplace, 1.0), geo = mech(NoiseKind::geometric, 1.0);
  EXPECT_DOUBLE_EQ(gamma_noise(NoiseKind::laplace, lap, 1.0, 1.0 / 3.0, 21, 1000),
                   gamma_laplace(1.0, 1.0 / 3.0, 21, 1000));
  EXPECT_DOUBLE_EQ(gamma_noise(NoiseKind::geometric, geo, 1.0, 1.0 / 3.0, 21, 1000),
                   gamma_geometric(1.0, 1.0 / 3.0, 21, 1000));
  // The secure discrete Laplace keeps Gamma_Lap (its MGF is below the Laplace one; next test).
  const auto dlap = mech(NoiseKind::laplace, 1.0, 0, false, privacy::Sampler::secure);
  EXPECT_DOUBLE_EQ(gamma_noise(NoiseKind::laplace, dlap, 1.0, 1.0 / 3.0, 21, 1000),
                   gamma_laplace(1.0, 1.0 / 3.0, 21, 1000));
  // geometric is always the exact discrete Laplace, whatever the requested sampler.
  EXPECT_EQ(geo.sampler(), privacy::Sampler::secure);
}

TEST(ErrorBounds, DiscreteLaplaceMomentGeneratingFunctionIsBelowLaplace) {
  // The argument of error_bounds.hpp for using Gamma_Lap with the discrete Laplace of scale b:
  // (1-q)^2 / ((1 - q e^l)(1 - q e^-l)) <= 1 / (1 - b^2 l^2) for |l| < 1/b, q = e^{-1/b}.
  for (double b : {0.05, 0.3, 1.0, 2.0, 7.5, 100.0}) {
    const double q = std::exp(-1.0 / b);
    for (double f = -0.999; f < 1.0; f += 0.003) {
      const double l = f / b;
      const double discrete = (1 - q) * (1 - q) / ((1 - q * std::exp(l)) * (1 - q * std::exp(-l)));
      const double laplace = 1.0 / (1.0 - b * b * l * l);
      ASSERT_LE(discrete, laplace * (1 + 1e-12)) << "b " << b << " lambda " << l;
    }
  }
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
  const auto g = mech(NoiseKind::gaussian, eps, delta);
  EXPECT_NEAR(gamma_noise(NoiseKind::gaussian, g, 1.0, beta, kappa, X),
              2 / eps * std::sqrt(kappa * std::log(1.25 / delta) * std::log(2 * X / beta)), 1e-9);
}

TEST(ErrorBounds, BoundedDpDoublesTheLaplaceBound) {
  const auto unb = mech(NoiseKind::laplace, 1.0), bnd = mech(NoiseKind::laplace, 1.0, 0, true);
  EXPECT_NEAR(gamma_noise(NoiseKind::laplace, bnd, 1.0, 0.5, 21, 1e4),
              2 * gamma_noise(NoiseKind::laplace, unb, 1.0, 0.5, 21, 1e4), 1e-9);
}

TEST(ErrorBounds, FollowTheNoiseScale) {
  // Gamma and theta bound the noise really drawn: half the noise halves them, no noise zeroes them.
  for (NoiseKind kind : {NoiseKind::laplace, NoiseKind::geometric}) {
    const auto m = mech(kind, 1.0);
    EXPECT_EQ(gamma_noise(kind, m, 0.0, 0.5, 21, 1e6), 0.0);
    EXPECT_EQ(default_theta(kind, m, 0.0, 1e6, 1e3), 0.0);
    EXPECT_NEAR(default_theta(kind, m, 0.5, 1e6, 1e3), 0.5 * default_theta(kind, m, 1.0, 1e6, 1e3), 1e-12);
  }
  const auto l = mech(NoiseKind::laplace, 1.0);
  EXPECT_NEAR(gamma_noise(NoiseKind::laplace, l, 0.5, 0.5, 21, 1e6),
              0.5 * gamma_noise(NoiseKind::laplace, l, 1.0, 0.5, 21, 1e6), 1e-9);
  const auto g = mech(NoiseKind::gaussian, 0.5, 1e-6);
  EXPECT_EQ(gamma_noise(NoiseKind::gaussian, g, 0.0, 0.5, 21, 1e6), 0.0);
  EXPECT_EQ(default_theta(NoiseKind::gaussian, g, 0.0, 1e6, 1e3), 0.0);
}

TEST(ErrorBounds, ThetaAndTheorem71) {
  const auto lap = mech(NoiseKind::laplace, 2.0);
  EXPECT_NEAR(default_theta(NoiseKind::laplace, lap, 1.0, 1e6, 1e3), std::log(1e3) / 2.0, 1e-12);
  EXPECT_EQ(default_theta(NoiseKind::laplace, lap, 1.0, 1e3, 1e6), 0.0);  // max{0, ln(|X|/n)}
  // The linear histogram's p = Pr[Lap >= theta] = n / (2|X|).
  EXPECT_NEAR(lap.tail_probability(default_theta(NoiseKind::laplace, lap, 1.0, 1e6, 1e3)), 1e3 / 2e6, 1e-15);
  // Secure: the integer tail Pr[Z >= ceil(theta)] is at most the continuous one's n / (2|X|) bound up to
  // the factor 2 / (1 + q) of the discrete law (Pr[Z >= k] = q^k / (1 + q) <= q^theta / (1 + q)).
  const auto dlap = mech(NoiseKind::laplace, 2.0, 0, false, privacy::Sampler::secure);
  const double th = default_theta(NoiseKind::laplace, dlap, 1.0, 1e6, 1e3);
  EXPECT_LE(dlap.tail_probability(th), 2 * 1e3 / 2e6 / (1 + std::exp(-2.0)) + 1e-15);
  // Gaussian: theta chosen so that p = n / (2|X|) too.
  const auto g = mech(NoiseKind::gaussian, 0.5, 1e-6);
  EXPECT_NEAR(g.tail_probability(default_theta(NoiseKind::gaussian, g, 1.0, 1e6, 1e3)), 1e3 / 2e6, 1e-12);
  // Theorem 7.1: tau = 2 (kappa theta + Gamma_Lap) with theta = ln(|X|/n)/eps.
  const double eps = 1, beta = 0.5, kappa = 21, X = 4.4e6, n = 1e5;
  const auto l1 = mech(NoiseKind::laplace, eps);
  const double tau = 2 * (kappa * default_theta(NoiseKind::laplace, l1, 1.0, X, n) +
                          gamma_noise(NoiseKind::laplace, l1, 1.0, beta, kappa, X));
  const double L = std::log(2 * X / beta);
  EXPECT_NEAR(tau, 2 * kappa / eps * std::log(X / n) + 4 * std::sqrt(2.0) / eps * std::max(std::sqrt(kappa * L), L),
              1e-9);
}

}  // namespace
}  // namespace dpclust::dpdbscan
