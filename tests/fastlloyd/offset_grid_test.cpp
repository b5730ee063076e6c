// The public grid of FastLloyd's sums: a record's rounded contribution never exceeds the sensitivity the grid
// records (checked exactly on the integers), the grid follows the noise's scale, and grids too coarse for the
// bound are refused.
#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "core/error.hpp"
#include "core/rng.hpp"
#include "fastlloyd/offset_grid.hpp"

namespace dpclust::fastlloyd {
namespace {

TEST(OffsetGrid, GaussianGridIsTwoToTheMinus18OfSigmaAndBoundsEveryKeptRecord) {
  // Bound m = 1.5 in d = 3, sigma 10 per unit sensitivity: sigma m = 15 -> g = 2^(4 - 18) = 2^-14, R = 1.5 * 2^14 =
  // 24576 units; N2 = floor((R (1 + 2^-30) + sqrt(3) / 2)^2).
  const OffsetGrid g = gaussian_grid(1.5, 3, 10.0);
  EXPECT_EQ(g.exponent, -14);
  const double bound = 24576.0 * (1 + 0x1p-30) + std::sqrt(3.0) / 2;
  EXPECT_EQ(g.norm2_cap, static_cast<std::uint64_t>(std::floor(bound * bound)));
  EXPECT_GE(g.sensitivity, std::sqrt(static_cast<double>(g.norm2_cap)));
  EXPECT_NEAR(g.rounding_share, std::sqrt(3.0) / 2 / 24576.0, 1e-7);
  // Offsets drawn on the sphere of radius m (the largest a kept record can have) and inside it: every one is kept,
  // and its integer norm is within the cap.
  Rng rng(1);
  std::int64_t z[3];
  for (int t = 0; t < 20000; ++t) {
    double v[3], norm = 0;
    for (double& x : v) {
      x = rng.normal();
      norm += x * x;
    }
    const double scale = (t % 2 ? 1.5 : 1.5 * rng.uniform()) / std::sqrt(norm);
    for (double& x : v) x *= scale;
    ASSERT_TRUE(grid_offset(v, g, z)) << t;
    const double n2 = static_cast<double>(z[0] * z[0] + z[1] * z[1] + z[2] * z[2]);
    ASSERT_LE(n2, static_cast<double>(g.norm2_cap));
  }
  // Beyond the bound by more than the margin: left out (whatever the radius test in doubles did).
  const double far[3] = {1.5 + 0x1p-10, 0, 0};
  EXPECT_FALSE(grid_offset(far, g, z));
}

TEST(OffsetGrid, LaplaceGridClampsEveryCoordinate) {
  // Per-coordinate bound 2 in d = 4, Laplace scale per unit L1 sensitivity 1 / 0.25: b = 4 * 2 * 4 = 32 -> the finest
  // grid, 2^(1 - 29) (b / g = 2^33 <= 2^38); M = 2 / 2^-28 = 2^29 units, L1 sensitivity 4 M.
  const OffsetGrid g = laplace_grid(2.0, 4, 4.0);
  EXPECT_EQ(g.exponent, -28);
  EXPECT_EQ(g.coordinate_cap, std::int64_t{1} << 29);
  EXPECT_EQ(g.sensitivity, 4.0 * static_cast<double>(std::int64_t{1} << 29));
  EXPECT_EQ(g.rounding_share, 0.0);
  std::int64_t z[4];
  const double v[4] = {2.0, -2.0, 3.0, 0x1p-29};  // 3.0: a coordinate beyond the bound is clamped to it
  EXPECT_TRUE(grid_offset(v, g, z));
  EXPECT_EQ(z[0], g.coordinate_cap);
  EXPECT_EQ(z[1], -g.coordinate_cap);
  EXPECT_EQ(z[2], g.coordinate_cap);
  EXPECT_EQ(z[3], 1);  // half a unit (2^-29 / 2^-28): ties round away from zero (llround)
}

TEST(OffsetGrid, GridsTooCoarseForTheBoundAreRefused) {
  // sigma 1e6 times the sensitivity: the exact sampler's sigma^2 <= 2^40 forces a grid of about a unit across the
  // bound, whose rounding would be most of the sensitivity.
  try {
    gaussian_grid(1.0, 10, 1e6);
    FAIL() << "a grid of one unit accepted";
  } catch (const InputError& e) {
    EXPECT_EQ(e.where(), "params.epsilon");
  }
  EXPECT_THROW(laplace_grid(1.0, 10, 1e40), InputError);
  EXPECT_NO_THROW(gaussian_grid(1.0, 10, 1e3));
}

}  // namespace
}  // namespace dpclust::fastlloyd
