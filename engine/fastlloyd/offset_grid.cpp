// The public grid of FastLloyd's sums; see offset_grid.hpp.
#include "fastlloyd/offset_grid.hpp"

#include <algorithm>
#include <cmath>

#include "core/error.hpp"
#include "core/method.hpp"

namespace dpclust::fastlloyd {
namespace {

// GCC/Clang's 128-bit integer: a squared norm of d coordinates of up to 2^31 units each.
__extension__ typedef unsigned __int128 uint128;

constexpr int kUnitsBits = 29;          // m / g < 2^30: sums of 2^32 records fit in int64
constexpr int kLaplaceScaleBits = 38;   // b / g <= 2^38 (the exact sampler takes up to 2^40)
constexpr int kGaussianSigmaBits = 18;  // sigma m / (D g) <= 2^18; sigma / g <= 2^19 checked (sigma^2 <= 2^40)
constexpr double kMaxRoundingShare = 0.25;

int floor_log2(double x) { return std::ilogb(x); }
int ceil_log2(double x) {
  const int e = std::ilogb(x);
  return std::ldexp(1.0, e) == x ? e : e + 1;
}

// llround for |y| < 2^52 (ties away from zero), inline: y - trunc(y) is exact there, and the baseline x86-64 build
// has no rounding instruction, so the library call would cost more than the rest of a record's rounding.
std::int64_t round_units(double y) {
  auto t = static_cast<std::int64_t>(y);
  const double frac = y - static_cast<double>(t);
  if (frac >= 0.5) ++t;
  else if (frac <= -0.5) --t;
  return t;
}

[[noreturn]] void refuse(const std::string& why) {
  throw InputError(
      "params.epsilon", why,
      "raise epsilon, or lower the iterations (iterations: 2), or use sampler: textbook (not a private release)");
}

}  // namespace

OffsetGrid laplace_grid(double m, std::size_t d, double scale_per_sensitivity) {
  OffsetGrid g;
  g.noise = Noise::laplace;
  g.d = d;
  const double b = static_cast<double>(d) * m * scale_per_sensitivity;
  if (!std::isfinite(b) || !(b > 0)) refuse("the Laplace noise of the sums has no finite scale at this epsilon");
  g.exponent = std::max(floor_log2(m) - kUnitsBits, ceil_log2(b) - kLaplaceScaleBits);
  g.spacing = std::ldexp(1.0, g.exponent);
  g.coordinate_cap = static_cast<std::int64_t>(std::ceil(m / g.spacing));
  g.sensitivity = static_cast<double>(d) * static_cast<double>(g.coordinate_cap);
  g.rounding_share = static_cast<double>(g.coordinate_cap) * g.spacing / m - 1;
  if (g.rounding_share > kMaxRoundingShare)
    refuse("the sums' Laplace scale " + short_number(b) + " is " + short_number(b / m) +
           " times a record's contribution: the exact sampler's grid would raise the sensitivity by " +
           short_number(100 * g.rounding_share) + "%");
  return g;
}

OffsetGrid gaussian_grid(double m, std::size_t d, double sigma_per_sensitivity) {
  OffsetGrid g;
  g.noise = Noise::gaussian;
  g.d = d;
  const double sm = sigma_per_sensitivity * m;
  if (!std::isfinite(sm) || !(sm > 0)) refuse("the Gaussian noise of the sums has no finite scale at this epsilon");
  g.exponent = std::max(floor_log2(m) - kUnitsBits, ceil_log2(sm) - kGaussianSigmaBits);
  g.spacing = std::ldexp(1.0, g.exponent);
  const double units = m / g.spacing;  // R, exact
  const double bound = units * (1 + 0x1p-30) + std::sqrt(static_cast<double>(d)) / 2;
  g.norm2_cap = static_cast<std::uint64_t>(std::floor(bound * bound));
  g.sensitivity = std::sqrt(static_cast<double>(g.norm2_cap)) * (1 + 0x1p-50);
  g.rounding_share = g.sensitivity / units - 1;
  const double sigma_units = sigma_per_sensitivity * g.sensitivity;
  // A bound below one unit could floor the cap to 0 (every record left out, a sensitivity of 0): refused with the
  // coarse grids whose rounding adds more than a quarter.
  if (units < 1 || g.rounding_share > kMaxRoundingShare || sigma_units > 0x1p19)
    refuse("the sums' Gaussian sigma is " + short_number(sigma_per_sensitivity) +
           " times their sensitivity: the exact sampler's grid would raise the sensitivity by " +
           short_number(100 * g.rounding_share) + "% (sigma " + short_number(sigma_units) + " grid units)");
  return g;
}

bool grid_offset(const double* v, const OffsetGrid& grid, std::int64_t* z) {
  const double inv = std::ldexp(1.0, -grid.exponent);  // exact: a power of two
  if (grid.noise == Noise::laplace) {
    for (std::size_t j = 0; j < grid.d; ++j)
      z[j] = std::clamp<std::int64_t>(round_units(v[j] * inv), -grid.coordinate_cap, grid.coordinate_cap);
    return true;
  }
  uint128 norm2 = 0;
  for (std::size_t j = 0; j < grid.d; ++j) {
    z[j] = round_units(v[j] * inv);
    const auto a = static_cast<uint128>(z[j] < 0 ? -z[j] : z[j]);
    norm2 += a * a;
  }
  return norm2 <= grid.norm2_cap;
}

}  // namespace dpclust::fastlloyd
