// The exact epsilon limits (dp_kmeans.hpp, noise.hpp): found by bisection over the doubles on the
// samplers' own conditions, so the smallest accepted double is accepted and the double below it is not,
// and both agree with the closed forms up to the samplers' upward roundings (a few ulps).
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "dpdbscan/dp_kmeans.hpp"
#include "dpdbscan/noise.hpp"

namespace dpclust::dpdbscan {
namespace {

TEST(EpsilonLimitsExact, DpKmeansBisectionMatchesTheClosedForm) {
  const Bounds b{{0, 0}, {8, 8}};
  const EpsilonLimits l = secure_epsilon_limits(5, b, 0);
  const double e0 = std::cbrt(4.0 * 2 * 0.225 * 0.225);
  EXPECT_NEAR(l.min_epsilon, 5 * (2 + e0) * (1 + 0x1p-17) / 0x1p32, 1e-13 * l.min_epsilon);
  EXPECT_NEAR(l.max_epsilon, 5 * (2 + e0) * 0x1p46 * (1 + 0x1p-17) / 0x1p32, 1e-13 * l.max_epsilon);
  EXPECT_TRUE(secure_scales_supported(l.min_epsilon, 5, b, 0));
  EXPECT_FALSE(secure_scales_supported(std::nextafter(l.min_epsilon, 0.0), 5, b, 0));
  EXPECT_TRUE(secure_scales_supported(l.max_epsilon, 5, b, 0));
  EXPECT_FALSE(secure_scales_supported(std::nextafter(l.max_epsilon, INFINITY), 5, b, 0));
  // A constant dimension spends nothing and draws nothing: d' = 1 with d = 2.
  const Bounds flat{{0, 3}, {8, 3}};
  const double flat_min = 5 * (1 + e0) * (1 + 0x1p-17) / 0x1p32;
  EXPECT_NEAR(secure_epsilon_limits(5, flat, 0).min_epsilon, flat_min, 1e-13 * flat_min);
}

TEST(EpsilonLimitsExact, GaussianBisectionMatchesTheClosedForm) {
  const double delta = 1e-6;
  auto ok = [&](double e) { return gaussian_scale_supported(e, delta, false); };
  const double limit = epsilon_boundary(1e-9, 1.0, ok);
  EXPECT_NEAR(limit, std::sqrt(2 * std::log(1.25 / delta)) / 0x1p20, 1e-14 * limit);
  EXPECT_TRUE(ok(limit));
  EXPECT_FALSE(ok(std::nextafter(limit, 0.0)));
}

TEST(EpsilonLimitsExact, LimitTextNeverCrossesTheLimit) {
  for (double x : {3.18996123456789e-9, 1.0 / 3.0, 2.0 / 3.0, 5.0506e-6, 1e-300}) {
    EXPECT_GE(std::stod(limit_text(x, true)), x) << limit_text(x, true);
    EXPECT_LE(std::stod(limit_text(x, false)), x) << limit_text(x, false);
  }
  EXPECT_EQ(limit_text(0.5, true), "0.5");
}

}  // namespace
}  // namespace dpclust::dpdbscan
