#pragma once
// The private coreset of Google's DP clustering (learning/clustering/clustering_algorithm.py,
// get_private_coreset; central_privacy_utils.py, get_private_average): one weighted point per leaf of
// the LSH tree,
//   coreset point  = (sum of the leaf's clipped points + Gaussian noise) / the leaf's private count,
//                    then clipped to the radius r ("to improve accuracy", as the reference does);
//   weight         = the leaf's private count (>= min_points_in_node >= 1; the root >= 1).
// The private count is the tree's (no second count is drawn). A record is in at most one leaf and its
// clipped point has norm <= r, so the vector of all leaf sums has l2 sensitivity r under add/remove.
//
// The sums, by sampler (the Gaussian's noise multiplier sigma / Delta is the calibrated one either way):
//   textbook  the reference's: double sums of the clipped points + N(0, sigma^2) per coordinate,
//             sigma = noise_multiplier * r (Box-Muller on doubles; not floating-point safe, flagged).
//   secure    on a public grid of spacing gamma = 2^e (sum_grid below): each clipped point is rounded to
//             z = round(x / gamma) in Z^d (an exact power-of-two scaling, then to the nearest integer, ties to even),
//             the integer sums are exact (int64), and the discrete Gaussian N_Z(0, sigma_u^2) is added to each
//             coordinate (CKS20 Alg. 3), sigma_u = noise_multiplier * Delta_u. The release gamma (S + Y)
//             lies on the grid. The l2 sensitivity after rounding, in grid units: ||z|| <= ||x|| / gamma +
//             ||z - x / gamma|| <= R + sqrt(d) / 2, R = r / gamma; Delta_u = R (1 + 2^-30) + sqrt(d) / 2
//             (the margin covers the ulps of clipping) and an exact integer check enforces ||z||^2 <=
//             floor(Delta_u^2) per point (a point over it is shrunk by 2^-20 and rounded again, which
//             the margin makes unreachable in practice). The grid is chosen from public values only: the
//             finest with R <= 2^30 (integer sums of up to 2^31 points fit in int64) and sigma_u <= 2^20
//             (the exact sampler's limit sigma^2 <= 2^40); the rounding's share sqrt(d) / (2 R) of the
//             sensitivity is reported.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/dataset.hpp"
#include "core/rng.hpp"
#include "lsh_clustering/lsh_tree.hpp"
#include "privacy/joint_account.hpp"

namespace dpclust::lsh {

// The secure sampler's public grid for the sums.
struct SumGrid {
  int exponent = 0;         // gamma = 2^exponent
  double units_radius = 0;  // R = r / gamma (exact)
  double sensitivity = 0;   // Delta_u, grid units
  double norm2_bound = 0;   // floor(Delta_u^2): every rounded point has ||z||^2 <= this (an integer)
  double spacing() const;   // gamma
};

// The grid for radius r, dimension d and the noise multiplier sigma / Delta (see above). Throws
// std::invalid_argument when even the coarsest grid (R in (1/2, 1]) needs sigma_u > 2^20.
SumGrid sum_grid(double radius, std::size_t d, double noise_multiplier);

// z = round(x / gamma) of a point with ||x|| <= r (clipped), shrunk until ||z||^2 <= grid.norm2_bound.
void grid_point(const double* x, std::size_t d, const SumGrid& grid, std::int64_t* z);

struct PrivateCoreset {
  RowMatrix points;                  // one row per leaf (centred coordinates), clipped to r
  std::vector<double> weights;       // the leaves' private counts
  RowMatrix noisy_sums;              // the released sums (real units; secure: on the grid)
  std::size_t points_in_leaves = 0;  // true number of points in the leaves (evaluation only)
};

// `points` are the clipped, centred points; `grid` is null for the textbook sampler. `noise` must be
// calibrated in the sums' units (grid units when secure, the data's otherwise).
PrivateCoreset private_coreset(const double* points, std::size_t n, std::size_t d, const LshTree& tree, double radius,
                               const SumGrid* grid, const privacy::JointGaussianNoise& noise, Rng& rng);

// Rescales every row of the n x d row-major `x` with norm above r to norm r (clip_by_radius): x * r /
// max(||x||, r). Returns the number of rows rescaled.
std::size_t clip_to_radius(double* x, std::size_t n, std::size_t d, double radius);

}  // namespace dpclust::lsh
