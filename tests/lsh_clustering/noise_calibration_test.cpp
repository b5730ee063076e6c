// The accountants of lsh_clustering against the reference's calibration (google/differential-privacy,
// learning/clustering/privacy_calculator.py with dp_accounting's PLD accountant) and against direct
// computations.
//
// Published facts, produced on Debian 12 (python3 3.11, numpy 1.24.2, scipy 1.10.1, python3-absl,
// python3-attr, python3-mpmath) from google/differential-privacy at commit b5b0286e:
//   git archive HEAD learning/clustering python/dp_accounting | tar -x -C REF
//   PYTHONPATH=REF/learning:REF/python/dp_accounting python3 -c '
//     from clustering import privacy_calculator as pc, clustering_params as cp
//     c = pc.PrivacyCalculator(cp.DifferentialPrivacyParam(EPS, DELTA), 1.0, DEPTH, cp.PrivacyCalculatorMultiplier())
//     print(c.average_privacy_param.gaussian_standard_deviation)'
// (radius 1, so the printed sigma is sigma / Delta = alpha). bench/reference_lsh_clustering.py
// --calibration prints the same table.
#include "lsh_clustering/noise_calibration.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <stdexcept>
#include <vector>

namespace dpclust::lsh {
namespace {

struct ReferenceSigma {
  double epsilon, delta;
  int max_depth;
  double reference_alpha;  // privacy_calculator (dp_accounting PLD, default discretisation)
  double exact_alpha;      // the exact PLD formula evaluated with scipy (independent of the C++ code)
};

// exact_alpha: scipy.stats.norm / binom evaluation of noise_calibration.hpp's delta(eps) formula, bisection on
// alpha to 200 halvings (/tmp script, formula as in the header).
const std::vector<ReferenceSigma> kReference = {
    {1.0, 1e-6, 20, 4.338105816410237, 4.3334419302790765},
    {0.1, 1e-6, 20, 37.640350570891, 37.24103988084079},
    {0.5, 1e-6, 20, 8.282309533216235, 8.265189968277669},
    {2.0, 1e-6, 20, 2.2889815030300853, 2.28785286722904},
    {1.0, 1e-5, 20, 3.8304378536113033, 3.8268217295084144},
    {1.0, 3.162277660168379e-08, 20, 5.023726445994069,
     5.018812337144899},  // delta = 1 / (n sqrt n), n = 1e5 (DPM's artifact)
    {1.0, 1e-6, 10, 4.283969571585616, 4.281985493345526},
    {4.0, 1e-6, 20, 1.2244932326033737, 1.2241848561510482},
};

TEST(NoiseCalibration, PldIsAtLeastAsTightAsTheReference) {
  for (const auto& r : kReference) {
    const Calibration c = calibrate(Accountant::pld, r.epsilon, r.delta, r.max_depth, NoiseMultipliers{});
    SCOPED_TRACE("eps " + std::to_string(r.epsilon) + " delta " + std::to_string(r.delta) + " depth " +
                 std::to_string(r.max_depth));
    // dp_accounting discretises the privacy loss pessimistically: the reference's alpha is an upper bound of
    // the exact one, within about 1% (0.1% at eps >= 0.5).
    EXPECT_LE(c.alpha, r.reference_alpha);
    EXPECT_GT(c.alpha, r.reference_alpha * 0.985);
    EXPECT_NEAR(c.alpha, r.exact_alpha, 1e-9 * r.exact_alpha);
    // The reference's parametrisation: sigma / Delta = alpha, count scale 20 alpha (a = 1 / (20 alpha)).
    EXPECT_DOUBLE_EQ(c.noise_multiplier, c.alpha);
    EXPECT_DOUBLE_EQ(c.count_scale, 20.0 * c.alpha);
    EXPECT_EQ(c.count_releases, r.max_depth + 1);
    EXPECT_LE(c.delta, r.delta);
    EXPECT_GT(c.delta, r.delta * (1 - 1e-9));
    // The reference's noise certified by the exact formula: below its target (it is more noise than needed).
    EXPECT_LT(composed_delta(Accountant::pld, r.epsilon, r.reference_alpha, 20.0 * r.reference_alpha, r.max_depth + 1),
              r.delta);
  }
}

TEST(NoiseCalibration, PldMatchesDpAccountingAsItsDiscretisationRefines) {
  // dp_accounting PLDAccountant(value_discretization_interval=v) on ComposedDpEvent([GaussianDpEvent(alpha),
  // SelfComposedDpEvent(DiscreteLaplaceDpEvent(1 / (20 alpha), 1), 21)]).get_delta(1.0):
  //   alpha 4.3334419302790765: v = 1e-4 -> 1.021288260444687e-06, v = 1e-5 -> 1.0017360808332806e-06
  //   alpha 4.338105816410237:  v = 1e-4 -> 9.999997018014779e-07, v = 1e-5 -> 9.799738278660124e-07
  // Pessimistic estimates converging from above to the exact value.
  const double a1 = 4.3334419302790765, a2 = 4.338105816410237;
  const double d1 = composed_delta(Accountant::pld, 1.0, a1, 20 * a1, 21),
               d2 = composed_delta(Accountant::pld, 1.0, a2, 20 * a2, 21);
  EXPECT_NEAR(d1, 1e-6, 1e-15);
  EXPECT_LT(d1, 1.0017360808332806e-06);
  EXPECT_GT(d1, 1.0017360808332806e-06 * 0.995);
  EXPECT_LT(d2, 9.799738278660124e-07);
  EXPECT_GT(d2, 9.799738278660124e-07 * 0.995);
}

TEST(NoiseCalibration, GaussianProfileMatchesTheAnalyticGaussian) {
  // dp_accounting.pld.accountant.get_smallest_gaussian_noise(DifferentialPrivacyParameters(eps, delta), 1,
  // sensitivity=1) (the reference's lower bracket for alpha): the smallest sigma for (eps, delta).
  struct Case {
    double eps, delta, sigma;
  };
  for (const Case& c :
       {Case{1.0, 1e-6, 4.224678930001968}, Case{0.5, 1e-5, 7.0318267420168326}, Case{2.0, 1e-8, 2.65292680528351}}) {
    EXPECT_NEAR(gaussian_delta(c.eps, 1.0 / c.sigma), c.delta, 1e-3 * c.delta);
    EXPECT_NEAR(composed_delta(Accountant::pld, c.eps, c.sigma, 1.0, 0), c.delta, 1e-3 * c.delta);
  }
  // E[(1 - e^{e - L})_+] for L ~ N(mu, 2 mu): at e -> -inf it tends to 1 - e^e.
  EXPECT_NEAR(gaussian_delta(-5.0, 1.0), 1.0 - std::exp(-5.0), 1e-6);
  EXPECT_EQ(gaussian_delta(60.0, 0.5), 0.0);
}

TEST(NoiseCalibration, DiscreteLaplaceRenyiDivergenceByDirectSummation) {
  // D_lambda(P || Q) for P = DLap(t), Q = 1 + DLap(t), summed over the integers.
  for (double t : {0.7, 5.0, 86.7}) {
    const double a = 1.0 / t, log_c = std::log(std::tanh(a / 2.0));  // pmf c e^{-a |x|}, c = tanh(a / 2)
    for (double lambda : {1.5, 2.0, 8.0, 40.0}) {
      double s = 0;
      for (int x = -20000; x <= 20000; ++x)  // p(x)^lambda q(x)^(1 - lambda), in logs
        s += std::exp(log_c - a * (lambda * std::abs(x) + (1 - lambda) * std::abs(x - 1)));
      EXPECT_NEAR(discrete_laplace_rdp(lambda, t), std::log(s) / (lambda - 1), 1e-9)
          << "t " << t << " lambda " << lambda;
    }
    EXPECT_NEAR(discrete_laplace_rdp(1e7, t), a, 1e-6);  // lambda -> inf: the pure epsilon a
  }
}

TEST(NoiseCalibration, RdpIsLooserThanPldAndMatchesScipy) {
  // rdp_facts: the same formulas with scipy.optimize.minimize_scalar over the order (same grid, then a
  // bounded search), bisection on alpha.
  struct Case {
    double eps, delta, alpha;
  };
  for (const Case& c :
       {Case{1.0, 1e-6, 4.647272296475244}, Case{0.1, 1e-6, 40.479666627042846}, Case{2.0, 1e-6, 2.4427211600660153}}) {
    const Calibration rdp = calibrate(Accountant::rdp, c.eps, c.delta, 20, NoiseMultipliers{});
    const Calibration pld = calibrate(Accountant::pld, c.eps, c.delta, 20, NoiseMultipliers{});
    EXPECT_NEAR(rdp.alpha, c.alpha, 1e-6 * c.alpha);
    EXPECT_GT(rdp.alpha, pld.alpha);
    EXPECT_LT(rdp.alpha, 1.1 * pld.alpha);
    // Renyi is a valid bound, hence above the exact delta at the same noise.
    EXPECT_GE(composed_delta(Accountant::rdp, c.eps, pld.alpha, 20 * pld.alpha, 21), c.delta);
  }
}

TEST(NoiseCalibration, DeltaDecreasesWithNoiseAndEpsilon) {
  for (Accountant acc : {Accountant::pld, Accountant::rdp}) {
    double last = 1.0;
    for (double alpha = 1.0; alpha < 10.0; alpha *= 1.3) {
      const double d = composed_delta(acc, 1.0, alpha, 20 * alpha, 21);
      EXPECT_LT(d, last);
      last = d;
    }
    EXPECT_GT(composed_delta(acc, 0.5, 4.0, 80.0, 21), composed_delta(acc, 1.0, 4.0, 80.0, 21));
  }
}

TEST(NoiseCalibration, MultipliersShiftTheNoise) {
  NoiseMultipliers m;
  m.dlaplace = 5.0;  // less count noise per alpha: alpha must grow
  const Calibration c = calibrate(Accountant::pld, 1.0, 1e-6, 20, m);
  EXPECT_GT(c.alpha, calibrate(Accountant::pld, 1.0, 1e-6, 20, NoiseMultipliers{}).alpha);
  EXPECT_DOUBLE_EQ(c.count_scale, 5.0 * c.alpha);
  EXPECT_LE(composed_delta(Accountant::pld, 1.0, c.noise_multiplier, c.count_scale, 21), 1e-6);
}

TEST(NoiseCalibration, RefusesUnusableTargets) {
  EXPECT_THROW(calibrate(Accountant::pld, 0.0, 1e-6, 20, {}), std::invalid_argument);
  EXPECT_THROW(calibrate(Accountant::pld, 1.0, 0.0, 20, {}), std::invalid_argument);
  EXPECT_THROW(calibrate(Accountant::pld, 1.0, 1.0, 20, {}), std::invalid_argument);
  EXPECT_THROW(calibrate(Accountant::rdp, std::nan(""), 1e-6, 20, {}), std::invalid_argument);
  EXPECT_THROW(calibrate(Accountant::pld, 1.0, 1e-6, -1, {}), std::invalid_argument);
  EXPECT_THROW(calibrate(Accountant::pld, 1.0, 1e-6, 20, NoiseMultipliers{0.0, 20.0}), std::invalid_argument);
}

}  // namespace
}  // namespace dpclust::lsh
