// Joint accounts (privacy/joint_account.hpp): the entries they record, the scales they draw at, and
// fixed-seed statistical tests of their noise against the scale they were given.
#include "privacy/joint_account.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>

namespace dpclust::privacy {
namespace {

TEST(JointAccount, RecordsTheTotalAndZeroStepsNamingIt) {
  BudgetLedger ledger(1.0, 1e-6);
  const JointAccount account(ledger, "acct", "joint account: test accountant", 1.0, 1e-6, "note");
  const JointCountNoise counts(account, 3.0, 1.0, "counts", "");
  const JointGaussianNoise sums(account, Sampler::secure, 7.5, 2.0, "sums", "");
  EXPECT_NO_THROW(ledger.verify());
  ASSERT_EQ(ledger.entries().size(), 3u);
  EXPECT_TRUE(ledger.entries()[0].joint_total);
  EXPECT_EQ(ledger.entries()[0].mechanism, "joint account: test accountant");
  EXPECT_EQ(ledger.entries()[0].measure, PrivacyMeasure::approximate);
  EXPECT_EQ(ledger.entries()[1].mechanism, "discrete_laplace");
  EXPECT_EQ(ledger.entries()[1].measure, PrivacyMeasure::pure);
  EXPECT_EQ(ledger.entries()[2].mechanism, "discrete_gaussian");
  EXPECT_EQ(ledger.entries()[2].sensitivity, 2.0);
  EXPECT_EQ(ledger.entries()[2].measure, PrivacyMeasure::approximate);
  for (std::size_t i = 1; i < 3; ++i) {
    EXPECT_EQ(ledger.entries()[i].joint, "acct");
    EXPECT_EQ(ledger.entries()[i].epsilon, 0.0);
  }
  // Scales are rounded up, never down.
  EXPECT_GE(counts.scale(), 3.0);
  EXPECT_LT(counts.scale(), 3.0 * (1 + 1e-15));
  EXPECT_GE(sums.sigma(), 7.5);
  EXPECT_LT(sums.sigma(), 7.5 * (1 + 1e-14));
  Rng rng(1);
  EXPECT_THROW(sums.real_noise(rng), std::logic_error);  // secure: integers only
  const JointGaussianNoise textbook(account, Sampler::textbook, 2.0, 1.0, "textbook sums", "");
  EXPECT_THROW(textbook.integer_noise(rng), std::logic_error);
  EXPECT_EQ(ledger.entries()[3].mechanism, "gaussian (textbook)");
}

TEST(JointAccount, RefusesWhatTheLedgerCannotCompose) {
  BudgetLedger pure(1.0);
  EXPECT_THROW(JointAccount(pure, "acct", "x", 1.0, 1e-6, ""), std::logic_error);  // delta in a pure ledger
  BudgetLedger ledger(1.0, 1e-6);
  EXPECT_THROW(JointAccount(ledger, "", "x", 1.0, 1e-6, ""), std::invalid_argument);
  EXPECT_THROW(JointAccount(ledger, "acct", "x", 0.0, 1e-6, ""), std::invalid_argument);
  EXPECT_THROW(JointAccount(ledger, "acct", "x", 1.0, 1.0, ""), std::invalid_argument);
  const JointAccount account(ledger, "acct", "x", 1.0, 1e-6, "");
  EXPECT_THROW(JointCountNoise(account, 0.0, 1.0, "counts", ""), std::invalid_argument);
  EXPECT_THROW(JointGaussianNoise(account, Sampler::secure, 1.0, -1.0, "sums", ""), std::invalid_argument);
}

// Variances over 40 000 draws: discrete Laplace of scale t, 2 e^{-1/t} / (1 - e^{-1/t})^2; discrete Gaussian
// of sigma 40 (nearly sigma^2: the discrete Gaussian's variance is below sigma^2 by less than 1e-300 here);
// textbook N(0, sigma^2). The bands (5%) are > 5 standard errors; half the noise (noise_scale 0.5) fails them.
TEST(JointAccount, NoiseHasTheGivenScaleAndFollowsTheNoiseFactor) {
  for (double factor : {1.0, 0.5, 0.0}) {
    BudgetLedger ledger(1.0, 1e-6);
    if (factor != 1.0) ledger.set_noise_scale(factor);
    const JointAccount account(ledger, "acct", "x", 1.0, 1e-6, "");
    const JointCountNoise counts(account, 20.0, 1.0, "counts", "");
    const JointGaussianNoise dg(account, Sampler::secure, 40.0, 1.0, "sums", "");
    const JointGaussianNoise cg(account, Sampler::textbook, 40.0, 1.0, "textbook sums", "");
    Rng rng(21);
    double sl = 0, sd = 0, sc = 0;
    const int m = 40000;
    for (int i = 0; i < m; ++i) {
      const double l = static_cast<double>(counts.noise(rng)), g = static_cast<double>(dg.integer_noise(rng)),
                   c = cg.real_noise(rng);
      sl += l * l;
      sd += g * g;
      sc += c * c;
    }
    if (factor == 0) {
      EXPECT_EQ(sl + sd + sc, 0.0);
      continue;
    }
    const double t = 20.0 * factor, q = std::exp(-1.0 / t);
    EXPECT_NEAR(sl / m / (2 * q / ((1 - q) * (1 - q))), 1.0, 0.05) << factor;
    EXPECT_NEAR(sd / m / (1600.0 * factor * factor), 1.0, 0.05) << factor;
    EXPECT_NEAR(sc / m / (1600.0 * factor * factor), 1.0, 0.05) << factor;
  }
}

}  // namespace
}  // namespace dpclust::privacy
