// The thresholded Gaussian counts (privacy/gaussian_thresholding.hpp): its two typed ledger entries add up to
// (eps, delta); sigma is the calibration's (Balle & Wang's analytic sigma on doubles, the zCDP sigma for the
// discrete Gaussian); tau is the smallest threshold the tail allows (for the discrete Gaussian exactly the next
// integer fails); zero noise releases every occupied cell; the noise drawn has the calibrated variance (fixed
// seed); the threshold is only ever raised; the authors' published sigma at their parameters.
#include "privacy/gaussian_thresholding.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>

#include "privacy/gaussian_calibration.hpp"
#include "privacy/samplers.hpp"

using namespace dpclust;
using namespace dpclust::privacy;

namespace {

double normal_tail(double x) { return 0.5 * std::erfc(x / std::sqrt(2.0)); }

TEST(GaussianThresholding, TwoTypedEntriesAddUpToEpsilonAndDelta) {
  for (Sampler sampler : {Sampler::secure, Sampler::textbook}) {
    BudgetLedger ledger(0.8, 2e-5);
    const auto g = GaussianThresholding::build(ledger, sampler, 40, 0.8, 2e-5, 0.25, "cells", "a note");
    ASSERT_EQ(ledger.entries().size(), 2u);
    EXPECT_NO_THROW(ledger.verify());
    const BudgetEntry &gauss = ledger.entries()[0], &threshold = ledger.entries()[1];
    EXPECT_EQ(gauss.epsilon, 0.8);
    EXPECT_DOUBLE_EQ(gauss.delta, 1.5e-5);
    EXPECT_EQ(gauss.sensitivity_norm, "l2");
    EXPECT_DOUBLE_EQ(gauss.sensitivity, std::sqrt(40.0));
    EXPECT_EQ(threshold.epsilon, 0.0);
    EXPECT_DOUBLE_EQ(threshold.delta, 0.5e-5);
    EXPECT_EQ(threshold.sensitivity_norm, "l0");
    EXPECT_EQ(threshold.sensitivity, 40.0);
    EXPECT_EQ(threshold.measure, PrivacyMeasure::approximate);
    const char* name = sampler == Sampler::secure ? "discrete_gaussian" : "gaussian (textbook)";
    EXPECT_EQ(gauss.mechanism, name);
    EXPECT_EQ(threshold.mechanism, name);  // the noise of the threshold's cells is the same draw
    EXPECT_DOUBLE_EQ(g.gaussian_delta() + g.threshold_delta(), 2e-5);
    const double expected = sampler == Sampler::secure ? zcdp_gaussian_sigma(0.8, 1.5e-5, std::sqrt(40.0))
                                                       : analytic_gaussian_sigma(0.8, 1.5e-5, std::sqrt(40.0));
    EXPECT_EQ(g.sigma(), expected);
  }
}

TEST(GaussianThresholding, ThresholdIsTheSmallestTheTailAllows) {
  // Continuous: m Pr[Z >= tau - 1] = delta_T to the bisection's precision (and the 1e-9 margin).
  {
    BudgetLedger ledger(1.0, 1e-5);
    const auto g = GaussianThresholding::build(ledger, Sampler::textbook, 20, 1.0, 1e-5, 0.5, "cells", "");
    const double p = 20 * normal_tail((g.threshold() - 1) / g.sigma());
    EXPECT_LE(p, 5e-6);
    EXPECT_GT(p, 5e-6 * (1 - 1e-6));
    EXPECT_NEAR(20 * g.single_record_release_probability(), p, 1e-9 * p);
  }
  // Discrete: an integer tau; one less would release a single record's cell too often.
  {
    BudgetLedger ledger(1.0, 1e-5);
    const auto g = GaussianThresholding::build(ledger, Sampler::secure, 20, 1.0, 1e-5, 0.5, "cells", "");
    const double tau = g.threshold();
    EXPECT_EQ(tau, std::floor(tau));
    const double s2 = g.sigma() * g.sigma();
    EXPECT_LE(20 * discrete_gaussian_tail_probability(s2, static_cast<std::int64_t>(tau) - 1), 5e-6);
    EXPECT_GT(20 * discrete_gaussian_tail_probability(s2, static_cast<std::int64_t>(tau) - 2), 5e-6);
  }
}

TEST(GaussianThresholding, TheAuthorsSigmaAtTheirDefaults) {
  // google-research hst_clustering, gaussian_thresholding.get_gaussian_thresholding_params(1, l0, 1.0, 1e-5) as
  // their code computes it (scipy root_scalar on Balle & Wang's Algorithm 1): sigma 17.37040574655219 for
  // l0 = 20 (d = 2, 10 layers) and 38.841408046043675 for l0 = 100 (d = 10).
  for (auto [m, sigma] : {std::pair<std::uint64_t, double>{20, 17.37040574655219}, {100, 38.841408046043675}}) {
    BudgetLedger ledger(1.0, 1e-5);
    const auto g = GaussianThresholding::build(ledger, Sampler::textbook, m, 1.0, 1e-5, 0.5, "cells", "");
    EXPECT_NEAR(g.sigma(), sigma, 1e-9 * sigma) << m;
  }
}

TEST(GaussianThresholding, ZeroNoiseReleasesEveryOccupiedCellExactly) {
  BudgetLedger ledger(1.0, 1e-5);
  ledger.set_noise_scale(0);
  const auto g = GaussianThresholding::build(ledger, Sampler::secure, 20, 1.0, 1e-5, 0.5, "cells", "");
  EXPECT_EQ(g.threshold(), 1.0);
  Rng rng(1);
  EXPECT_EQ(g.release(rng, 1), std::optional<double>(1.0));
  EXPECT_EQ(g.release(rng, 37), std::optional<double>(37.0));
  EXPECT_THROW((void)g.release(rng, 0), std::invalid_argument);
}

TEST(GaussianThresholding, NoiseHasTheCalibratedVariance) {
  // 20,000 draws on a count far above tau (always released): the sample variance of the noise within 4% of
  // sigma^2 (about 4 standard errors; a sigma mis-scaled by 5% moves the variance by 10%). Fixed seed.
  for (Sampler sampler : {Sampler::secure, Sampler::textbook}) {
    BudgetLedger ledger(1.0, 1e-5);
    const auto g = GaussianThresholding::build(ledger, sampler, 20, 1.0, 1e-5, 0.5, "cells", "");
    Rng rng(2024);
    const int draws = 20000;
    double s = 0, s2 = 0;
    for (int i = 0; i < draws; ++i) {
      const auto v = g.release(rng, 1000000);
      ASSERT_TRUE(v.has_value());
      const double z = *v - 1000000;
      if (sampler == Sampler::secure) {
        ASSERT_EQ(z, std::floor(z));
      }
      s += z;
      s2 += z * z;
    }
    const double mean = s / draws, var = s2 / draws - mean * mean;
    EXPECT_NEAR(mean, 0.0, 4 * g.sigma() / std::sqrt(static_cast<double>(draws)));
    EXPECT_NEAR(var / (g.sigma() * g.sigma()), 1.0, 0.04);
  }
}

TEST(GaussianThresholding, ACellOfOneRecordIsReleasedAsRarelyAsTheTailSays) {
  // A large delta puts tau within the noise: the release rate of a count of 1 is Pr[Z >= tau - 1] (within 5
  // binomial standard deviations over 40,000 draws).
  BudgetLedger ledger(1.0, 0.4);
  const auto g = GaussianThresholding::build(ledger, Sampler::textbook, 1, 1.0, 0.4, 0.5, "cells", "");
  Rng rng(5);
  const int draws = 40000;
  int released = 0;
  for (int i = 0; i < draws; ++i) released += g.release(rng, 1).has_value();
  const double p = g.single_record_release_probability();
  EXPECT_NEAR(p, 0.2, 1e-6);  // delta_T / m = 0.2, met with equality by the continuous tail
  EXPECT_NEAR(released, draws * p, 5 * std::sqrt(draws * p * (1 - p)));
}

TEST(GaussianThresholding, ThresholdIsOnlyRaised) {
  BudgetLedger ledger(1.0, 1e-5);
  auto g = GaussianThresholding::build(ledger, Sampler::secure, 20, 1.0, 1e-5, 0.5, "cells", "");
  const double tau = g.threshold();
  g.raise_threshold(tau - 10);
  EXPECT_EQ(g.threshold(), tau);
  g.raise_threshold(tau + 2.5);
  EXPECT_EQ(g.threshold(), tau + 3);  // integer counts: the next integer
  EXPECT_THROW(GaussianThresholding::build(ledger, Sampler::secure, 0, 1.0, 1e-5, 0.5, "cells", ""),
               std::invalid_argument);
  EXPECT_THROW(GaussianThresholding::build(ledger, Sampler::secure, 20, 1.0, 1e-5, 1.0, "cells", ""),
               std::invalid_argument);
}

}  // namespace
