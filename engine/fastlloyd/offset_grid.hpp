#pragma once
// The public grid of one iteration's sums. A point's contribution (its offset x - c from its centre with a radius,
// the point itself without) is rounded to the grid of spacing g = 2^e and summed as integers, so the sums are
// exact (no order of additions, no thread count and no record can move them by more than the sensitivity:
// Casacuberta et al., CCS 2022, on sums of clamped doubles), the secure sampler's discrete noise applies to
// them directly, and the release g (S + Y) lies on the grid. The textbook sampler adds its continuous noise
// to the same integer sums.
//
// Sensitivity in grid units, for a record whose offset v has |v_j| <= m (Laplace) or ||v|| <= m (Gaussian):
//   laplace   z_j = round(v_j / g) clamped to +-M, M = ceil(m / g) (|round(y)| <= ceil(|y|), so the clamp only
//             catches rounding anomalies): L1 sensitivity d M.
//   gaussian  z = round(v / g); ||z|| <= ||v|| / g + ||z - v / g|| <= R + sqrt(d) / 2, R = m / g; a record is
//             kept only when the exact integer ||z||^2 <= N2 = floor(((R (1 + 2^-30) + sqrt(d) / 2)^2), the 2^-30
//             covering the doubles of the offset and the radius test (a kept point within the radius always
//             passes; the test makes the bound exact whatever the doubles did): L2 sensitivity sqrt(N2), recorded
//             rounded up.
// The grid is chosen from public values only: the finest g with m / g <= 2^30 (sums of up to 2^32 records in
// int64) whose noise scale in units stays within the exact samplers' limits (discrete Laplace scale b / g <=
// 2^38 < 2^40; discrete Gaussian sigma / g <= 2^19, sigma^2 < 2^40). The rounding raises the sensitivity by the
// share `rounding_share` (Laplace about g / m <= 2^-30; Gaussian sqrt(d) / (2R): 2^-28 on synth_10d's defaults,
// more at tiny epsilon); a grid whose rounding would add more than a quarter is refused (InputError on epsilon).
#include <cstddef>
#include <cstdint>

#include "fastlloyd/noise_schedule.hpp"

namespace dpclust::fastlloyd {

struct OffsetGrid {
  Noise noise = Noise::gaussian;
  int exponent = 0;    // g = 2^exponent
  double spacing = 1;  // g
  std::size_t d = 0;
  std::int64_t coordinate_cap = 0;  // laplace: M
  std::uint64_t norm2_cap = 0;      // gaussian: N2
  double sensitivity = 0;           // grid units: L1 (laplace) or L2 (gaussian)
  double rounding_share = 0;        // sensitivity g / (the bound without rounding) - 1
};

// Laplace: per-coordinate bound m, noise scale per unit of L1 sensitivity 1 / eps_sum (b = d m / eps_sum).
// Gaussian: L2 bound m, sigma per unit of L2 sensitivity. Throw InputError("params.epsilon", ...) when no grid
// keeps the rounding share within a quarter and the noise within the samplers' limits.
OffsetGrid laplace_grid(double coordinate_bound, std::size_t d, double scale_per_sensitivity);
OffsetGrid gaussian_grid(double l2_bound, std::size_t d, double sigma_per_sensitivity);

// z = the grid units of the d-vector v; false when the record is left out (gaussian: ||z||^2 > N2).
bool grid_offset(const double* v, const OffsetGrid& grid, std::int64_t* z);

}  // namespace dpclust::fastlloyd
