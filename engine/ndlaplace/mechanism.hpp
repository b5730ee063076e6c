#pragma once
// The nD-Laplace perturbation (thesis draft "nD-Laplace", T. van der Ende): every point x is replaced by
// z = x + noise whose density is proportional to exp(-eps * ||z - x||), eps-geo-indistinguishability
// (Andres et al. 2012; thesis Eq. 3.1). A local mechanism: each point is perturbed independently.
//
//   planar (d = 2, thesis Sec. 3.1.1): polar coordinates (r, theta): theta uniform on [0, 2 pi), r drawn
//     by inverting its CDF C_eps(r) = 1 - (1 + eps r) e^{-eps r} with the -1 branch of Lambert W
//     (thesis Eq. 3.3): r = C_eps^{-1}(p) = -(1/eps) (W_{-1}((p - 1)/e) + 1), p uniform on (0, 1).
//   nD (any d, the generalisation the thesis leaves open in Sec. 3.3): the density exp(-eps ||z - x||) in
//     R^d has radial density proportional to r^{d-1} e^{-eps r}, i.e. r ~ Gamma(d, 1/eps), and a uniform
//     direction on the unit sphere (d standard normals, normalised). For d = 2 this is exactly planar
//     Laplace: Gamma(2, 1/eps) has CDF 1 - (1 + eps r) e^{-eps r} = C_eps(r).
//
// Truncation to the public domain (a box, thesis Sec. 3.1.2 / 5.3.4):
//   resample  thesis Algorithm 1: draw fresh noise for the same x until z lies in the domain (at most
//             max_retries draws per point, then InputError). Conditioning on the domain makes the
//             normaliser depend on x, so the guarantee becomes 2 eps d(x, x') (not eps d(x, x')).
//   remap     Andres et al. step 5: z is mapped to the nearest admissible point (coordinate-wise clamp
//             for a box); post-processing, the eps d(x, x') guarantee is kept.
//   none      z is released as drawn (may leave the domain).
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/dataset.hpp"
#include "core/rng.hpp"

namespace dpclust::ndlaplace {

// C_eps(r) = 1 - (1 + eps r) e^{-eps r}, the CDF of the planar Laplace radius (Andres et al. 2012).
double planar_radius_cdf(double eps, double r);
// thesis Eq. 3.3: C_eps^{-1}(p) = -(1/eps) (W_{-1}((p - 1)/e) + 1), p in [0, 1) (Boost.Math lambert_wm1).
double planar_radius_inverse_cdf(double eps, double p);

enum class Sampler { planar, nd };
enum class Truncation { resample, remap, none };
Sampler parse_sampler(const std::string& name, std::size_t d);  // "auto" | "planar" | "nd"
Truncation parse_truncation(const std::string& name);           // "resample" | "remap" | "none"

// One noise vector of dimension d with density proportional to exp(-eps ||v||), written to out[0..d).
// planar needs d == 2 (std::invalid_argument otherwise). Draw order: planar p then theta; nd the
// Gamma radius then d normals (redrawn in the measure-zero case of a zero vector).
void draw_noise(std::size_t d, double eps, Sampler sampler, Rng& rng, double* out);

struct PerturbOptions {
  double eps = 1.0;  // rate per unit distance of the data's coordinates
  Sampler sampler = Sampler::nd;
  Truncation truncation = Truncation::resample;
  std::int64_t max_retries = 10000;  // noise draws allowed per point under resample
};

struct PerturbStats {
  std::uint64_t draws = 0;            // noise vectors drawn in total (n without resampling)
  std::uint64_t max_draws_point = 0;  // the most draws one point needed
  std::size_t remapped = 0;           // points clamped into the domain (remap)
  std::size_t outside = 0;            // points released outside the domain (none)
  double avg_distance = 0;            // mean ||z_i - x_i|| of the released points
};

// Perturbs the n x d row-major points; returns the released points (same layout). The bounds are the
// public domain (required unless truncation is none). Throws InputError when a point lies outside the
// domain or when resampling does not reach the domain within max_retries draws.
std::vector<double> perturb(const double* coords, std::size_t n, std::size_t d, const Bounds& bounds,
                            const PerturbOptions& options, Rng& rng, PerturbStats* stats = nullptr);

}  // namespace dpclust::ndlaplace
