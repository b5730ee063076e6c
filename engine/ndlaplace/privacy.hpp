#pragma once
// The privacy figures of the thesis's Table 5.4 ("geo-indistinguishability as an error metric"):
//
//   p_e(x, x') = 1 / (1 + e^{eps d(x, x')})   (Oya, Troncoso, Perez-Gonzalez 2017; thesis Eq. 2.2)
//
// the lower bound on an adversary's error when guessing which of two locations x, x' produced a report.
// The thesis reports an "average p_e" per epsilon without saying over what it averages. The readings:
//   perturbed  all ordered pairs (i, j) of released points z, i = j included (the mean of the full
//              n x n matrix, what np.mean over a pairwise-distance matrix gives). Default: with the
//              diagonal's p_e = 1/2 it matches the shape of Table 5.4 (p_e levels off near 1/(2n) + c/eps^2).
//   original   the same over the original points x.
//   cross      all pairs (x_i, z_j).
//   self       each point with its own report: d(x_i, z_i).
// When n^2 exceeds max_pairs the mean over the ordered pairs is estimated from max_pairs pairs drawn
// uniformly with replacement (i and j independent), so the estimate targets the same full-matrix mean.
#include <cstddef>
#include <cstdint>
#include <string>

#include "core/rng.hpp"

namespace dpclust::ndlaplace {

enum class PePairs { perturbed, original, cross, self };
PePairs parse_pe_pairs(const std::string& name);

// thesis Eq. 2.2.
double pe(double eps, double distance);
// Euclidean distance of two d-dimensional points (p_e, the attacks and the Eq. 3.1 check share it).
double euclidean_distance(const double* a, const double* b, std::size_t d);

struct PeEstimate {
  double value = 0;
  std::uint64_t pairs = 0;  // pairs averaged
  bool estimated = false;   // sampled instead of exhaustive
};

// x: original points, z: released points, both n x d row-major; eps: rate per unit distance.
// rng is used only when the pairs are sampled.
PeEstimate average_pe(const double* x, const double* z, std::size_t n, std::size_t d, double eps, PePairs pairs,
                      std::uint64_t max_pairs, Rng& rng);

}  // namespace dpclust::ndlaplace
