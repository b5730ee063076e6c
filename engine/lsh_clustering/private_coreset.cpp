// The private coreset: noisy leaf sums over noisy leaf counts; see private_coreset.hpp.
#include "lsh_clustering/private_coreset.hpp"

#include <cmath>
#include <limits>
#include <stdexcept>
#include <string>

namespace dpclust::lsh {
namespace {

__extension__ typedef __int128 I128;

// 2^20 (1 - 2^-20): the discrete Gaussian sampler takes sigma^2 <= 2^40, and JointGaussianNoise rounds sigma^2 up.
constexpr double kMaxSigmaUnits = 1048576.0 - 1.0;
constexpr int kMaxGridBits = 30;  // R <= 2^30

int ceil_log2(double x) {
  int e = 0;
  const double f = std::frexp(x, &e);  // x = f 2^e, f in [1/2, 1)
  return f == 0.5 ? e - 1 : e;
}

I128 norm2_of(const std::int64_t* z, std::size_t d) {
  I128 s = 0;
  for (std::size_t j = 0; j < d; ++j) s += static_cast<I128>(z[j]) * z[j];
  return s;
}

}  // namespace

double SumGrid::spacing() const { return std::ldexp(1.0, exponent); }

SumGrid sum_grid(double radius, std::size_t d, double noise_multiplier) {
  if (!(radius > 0) || !std::isfinite(radius))
    throw std::invalid_argument("sum_grid: the radius must be finite and > 0");
  if (!(noise_multiplier > 0) || !std::isfinite(noise_multiplier))
    throw std::invalid_argument("sum_grid: the noise multiplier must be finite and > 0");
  const int er = ceil_log2(radius);
  const double half_diagonal = std::sqrt(static_cast<double>(d)) / 2.0;
  for (int m = kMaxGridBits; m >= 0; --m) {
    SumGrid g;
    g.exponent = er - m;
    g.units_radius = std::ldexp(radius, m - er);  // in (2^(m-1), 2^m], exact
    const double delta0 =
        std::nextafter(g.units_radius * (1.0 + 0x1p-30) + half_diagonal, std::numeric_limits<double>::infinity());
    g.norm2_bound = std::floor(delta0 * delta0);  // an integer (every double >= 2^53 is one)
    g.sensitivity = std::nextafter(std::sqrt(g.norm2_bound), std::numeric_limits<double>::infinity());
    if (noise_multiplier * g.sensitivity <= kMaxSigmaUnits) return g;
  }
  throw std::invalid_argument(
      "sum_grid: the noise multiplier " + std::to_string(noise_multiplier) +
      " needs a discrete Gaussian above the exact sampler's sigma = 2^20 even on the coarsest grid");
}

void grid_point(const double* x, std::size_t d, const SumGrid& grid, std::int64_t* z) {
  const auto bound = static_cast<I128>(grid.norm2_bound);
  const double unit = std::ldexp(1.0, -grid.exponent);  // 1 / gamma, a power of two: the products are exact
  // Rounding to the nearest integer (ties to even) by adding and subtracting 1.5 * 2^52, exact for |q| < 2^51
  // (here |q| <= 2^30 (1 + 2^-30)) under the default rounding mode: branch-free, no library call.
  constexpr double kRound = 6755399441055744.0;  // 1.5 * 2^52
  double shrink = 1.0;
  for (;;) {
    for (std::size_t j = 0; j < d; ++j) {
      const double q = x[j] * shrink * unit;
      z[j] = static_cast<std::int64_t>((q + kRound) - kRound);
    }
    if (norm2_of(z, d) <= bound) return;
    shrink *= 1.0 - 0x1p-20;  // never reached for a point of norm <= r (the margin of sum_grid)
  }
}

std::size_t clip_to_radius(double* x, std::size_t n, std::size_t d, double radius) {
  std::size_t clipped = 0;
  for (std::size_t i = 0; i < n; ++i) {
    double* row = x + i * d;
    double s = 0;
    for (std::size_t j = 0; j < d; ++j) s += row[j] * row[j];
    const double norm = std::sqrt(s);
    if (norm > radius) {
      const double scale = radius / norm;
      for (std::size_t j = 0; j < d; ++j) row[j] *= scale;
      ++clipped;
    }
  }
  return clipped;
}

PrivateCoreset private_coreset(const double* points, std::size_t n, std::size_t d, const LshTree& tree, double radius,
                               const SumGrid* grid, const privacy::JointGaussianNoise& noise, Rng& rng) {
  (void)n;
  const std::size_t leaves = tree.leaves.size();
  const bool secure = grid != nullptr;
  if (secure != (noise.sampler() == privacy::Sampler::secure))
    throw std::logic_error("private_coreset: the grid and the noise's sampler disagree");
  PrivateCoreset c;
  c.points.resize(static_cast<Eigen::Index>(leaves), static_cast<Eigen::Index>(d));
  c.noisy_sums.resize(static_cast<Eigen::Index>(leaves), static_cast<Eigen::Index>(d));
  c.weights.resize(leaves);
  std::vector<std::int64_t> z(d), isum(d);
  std::vector<double> rsum(d);
  for (std::size_t l = 0; l < leaves; ++l) {
    const LshNode& leaf = tree.leaves[l];
    c.points_in_leaves += leaf.size();
    const auto row = static_cast<Eigen::Index>(l);
    if (secure) {
      std::fill(isum.begin(), isum.end(), 0);
      for (std::size_t t = leaf.begin; t < leaf.end; ++t) {
        grid_point(points + tree.order[t] * d, d, *grid, z.data());
        for (std::size_t j = 0; j < d; ++j) isum[j] += z[j];
      }
      for (std::size_t j = 0; j < d; ++j)
        c.noisy_sums(row, static_cast<Eigen::Index>(j)) =
            std::ldexp(static_cast<double>(isum[j] + noise.integer_noise(rng)), grid->exponent);
    } else {
      std::fill(rsum.begin(), rsum.end(), 0.0);
      for (std::size_t t = leaf.begin; t < leaf.end; ++t) {
        const double* x = points + tree.order[t] * d;
        for (std::size_t j = 0; j < d; ++j) rsum[j] += x[j];
      }
      for (std::size_t j = 0; j < d; ++j)
        c.noisy_sums(row, static_cast<Eigen::Index>(j)) = rsum[j] + noise.real_noise(rng);
    }
    // get_private_average: the noisy sum over the leaf's private count (>= 1), post-processing.
    const double count = static_cast<double>(leaf.private_count);
    c.weights[l] = count;
    for (std::size_t j = 0; j < d; ++j)
      c.points(row, static_cast<Eigen::Index>(j)) = c.noisy_sums(row, static_cast<Eigen::Index>(j)) / count;
  }
  clip_to_radius(c.points.data(), leaves, d, radius);
  return c;
}

}  // namespace dpclust::lsh
