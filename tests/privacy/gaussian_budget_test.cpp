// GaussianBudget: an (eps, delta) budget spent as Gaussian releases that compose into one Gaussian mechanism. The
// account and its steps in the ledger, sigma = D sigma0 / sqrt(share) against the calibrations, shares beyond the
// budget refused, and the composed releases' privacy checked against the (eps, delta) they were calibrated for.
#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

#include "core/ledger.hpp"
#include "privacy/gaussian_budget.hpp"
#include "privacy/gaussian_calibration.hpp"

namespace dpclust::privacy {
namespace {

TEST(GaussianBudget, RecordsOneAccountAndTypedSteps) {
  for (Sampler s : {Sampler::secure, Sampler::textbook}) {
    BudgetLedger ledger(0.8, 1e-6);
    GaussianBudget budget(ledger, s, 0.8, 1e-6, "iterations", "note");
    const double sigma0 = budget.unit_sigma();
    EXPECT_EQ(sigma0,
              s == Sampler::secure ? zcdp_gaussian_sigma(0.8, 1e-6, 1.0) : analytic_gaussian_sigma(0.8, 1e-6, 1.0));
    // Two releases of a quarter each and one of a half: the whole budget.
    const JointGaussianNoise a = budget.release(0.25, 3.0, "sums", "");
    const JointGaussianNoise b = budget.release(0.25, 1.0, "counts", "");
    const JointGaussianNoise c = budget.release(0.5, 2.0, "more sums", "");
    EXPECT_NEAR(budget.shares_used(), 1.0, 1e-15);
    // sigma_i = D_i sigma0 / sqrt(w_i), raised by 2^-40 (the secure sampler rounds sigma^2 up again).
    EXPECT_NEAR(a.sigma() / (3.0 * sigma0 / 0.5), 1.0, 1e-9);
    EXPECT_NEAR(b.sigma() / (sigma0 / 0.5), 1.0, 1e-9);
    EXPECT_NEAR(c.sigma() / (2.0 * sigma0 / std::sqrt(0.5)), 1.0, 1e-9);
    EXPECT_GE(a.sigma(), 3.0 * sigma0 / 0.5);
    // The precisions add up to at most the unit mechanism's: sum (D_i / sigma_i)^2 <= 1 / sigma0^2.
    const double precision = std::pow(3.0 / a.sigma(), 2) + std::pow(1.0 / b.sigma(), 2) + std::pow(2.0 / c.sigma(), 2);
    EXPECT_LE(precision, 1.0 / (sigma0 * sigma0));
    EXPECT_NO_THROW(ledger.verify());
    ASSERT_EQ(ledger.entries().size(), 4u);
    EXPECT_TRUE(ledger.entries()[0].joint_total);
    EXPECT_EQ(ledger.entries()[0].epsilon, 0.8);
    EXPECT_EQ(ledger.entries()[0].delta, 1e-6);
    for (std::size_t i = 1; i < 4; ++i) {
      EXPECT_EQ(ledger.entries()[i].joint, "iterations");
      EXPECT_EQ(ledger.entries()[i].epsilon, 0.0);
      EXPECT_EQ(ledger.entries()[i].sensitivity_norm, "l2");
      EXPECT_EQ(ledger.entries()[i].mechanism, s == Sampler::secure ? "discrete_gaussian" : "gaussian (textbook)");
    }
    EXPECT_EQ(ledger.entries()[1].sensitivity, 3.0);
  }
}

TEST(GaussianBudget, TheComposedReleasesAreTheUnitMechanism) {
  // Continuous Gaussians compose as mu-GDP with mu^2 = sum (D_i / sigma_i)^2 (Dong, Roth & Su, Cor. 3.3), which is
  // the Gaussian mechanism of sensitivity mu at sigma 1: its (eps, delta) by Balle & Wang's condition must be
  // within the budget's delta.
  BudgetLedger ledger(0.5, 1e-5);
  GaussianBudget budget(ledger, Sampler::textbook, 0.5, 1e-5, "all", "");
  double precision = 0;
  for (int i = 0; i < 7; ++i) {
    const double d = 0.3 + i;
    precision += std::pow(d / budget.release(1.0 / 7, d, "step", "").sigma(), 2);
  }
  EXPECT_LE(analytic_gaussian_delta(1.0, 0.5, std::sqrt(precision)), 1e-5);
  EXPECT_GT(analytic_gaussian_delta(1.0, 0.5, std::sqrt(precision) * 1.01), 1e-5);  // and no noise is wasted
}

TEST(GaussianBudget, MoreThanTheBudgetIsRefused) {
  BudgetLedger ledger(1.0, 1e-6);
  GaussianBudget budget(ledger, Sampler::secure, 1.0, 1e-6, "b", "");
  budget.release(0.6, 1.0, "first", "");
  EXPECT_THROW(budget.release(0.5, 1.0, "second", ""), std::logic_error);
  EXPECT_THROW(budget.release(0.0, 1.0, "nothing", ""), std::invalid_argument);
  // delta 0 is refused before anything is recorded.
  BudgetLedger pure(1.0, 1e-6);
  EXPECT_THROW(GaussianBudget(pure, Sampler::textbook, 1.0, 0.0, "x", ""), std::invalid_argument);
  EXPECT_TRUE(pure.entries().empty());
}

}  // namespace
}  // namespace dpclust::privacy
