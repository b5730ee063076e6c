#pragma once
// The grid of Algorithm 1 (lines 3-4) and the alpha-neighbourhood NB(X) of a cell (Sec. 5.2).
//
//   w = eta * alpha / (4 sqrt(d))            (Sec. 8.4.2; eta = 4 gives the paper's w = alpha / sqrt(d))
//   cell of x: floor((x_j - lo_j) * (1/w)) per dimension, over the PUBLIC domain [lo, hi] (config bounds);
//   cells per dimension: floor((hi_j - lo_j) / w) + 1, so x_j = hi_j still falls in a cell (the
//   authors' code sizes its grid the same way, over the data's bounding box instead);
//   |X| = product of the cells per dimension; a cell is named by its row-major code (last dimension
//   fastest), a 64-bit integer. |X| is capped at 2^62 (checked without overflow) so codes, code
//   arithmetic and the binomial draw of Alg. 2 (trials < 2^63) never overflow.
//
// NB(X) = the cells whose minimum distance to X is below alpha, the cell itself included. For an offset
// o (in cells) the gap along dimension j is max(0, |o_j| - 1) cells, so the condition is
//   sum_j max(0, |o_j| - 1)^2 < (alpha / w)^2 = 16 d / eta^2,
// an integer left side: exact for eta = 4 (right side d). kappa = |NB(X)|: 3 / 21 / 117 in 1/2/3-D with
// eta = 4 (the paper's Figure 3 shows the 21). Merging (Sec. 5.3) uses the same set: two cells are
// merged when their minimum distance is below alpha.
//
// Along the last dimension the offsets sharing the first d-1 coordinates form one contiguous run
// [-r, r] (the gap grows with |o_j|), so NB(X) is also stored as "rows": (prefix, half width r). The
// neighbourhood sums of a dense histogram are then a few shifted row additions.
#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "core/dataset.hpp"

namespace dpclust::dpdbscan {

inline constexpr std::uint64_t kMaxUniverse = std::uint64_t{1} << 62;

struct CellGrid {
  std::size_t d = 0;
  std::vector<double> lo, hi;          // the public domain
  double width = 0;                    // w
  double inv_width = 0;                // 1 / w (a multiplication per coordinate instead of a division)
  std::vector<std::uint64_t> dims;     // cells per dimension
  std::vector<std::uint64_t> strides;  // row-major: strides[d-1] = 1
  std::uint64_t universe = 0;          // |X|

  // Cell index along dimension j of coordinate x, clamped to the grid (points outside the domain are
  // projected onto it, a per-record transformation that keeps the histogram's sensitivity).
  std::uint64_t index(std::size_t j, double x) const {
    const double q = (x - lo[j]) * inv_width;
    if (!(q > 0)) return 0;  // also NaN
    const double top = static_cast<double>(dims[j] - 1);
    return q >= top ? dims[j] - 1 : static_cast<std::uint64_t>(q);
  }
  std::uint64_t code(const double* p) const {
    std::uint64_t c = 0;
    for (std::size_t j = 0; j < d; ++j) c += index(j, p[j]) * strides[j];
    return c;
  }
  // True when p lies in the domain [lo, hi] (the classifier's notion of "inside the grid").
  bool contains(const double* p) const {
    for (std::size_t j = 0; j < d; ++j)
      if (!(p[j] >= lo[j] && p[j] <= hi[j])) return false;
    return true;
  }
  void decode(std::uint64_t code, std::int64_t* idx) const {
    for (std::size_t j = 0; j < d; ++j) {
      idx[j] = static_cast<std::int64_t>(code / strides[j]);
      code %= strides[j];
    }
  }
  // Box of the cell with integer coordinates idx: [lo_j + idx_j w, lo_j + (idx_j + 1) w).
  double cell_lo(std::size_t j, std::int64_t i) const { return lo[j] + static_cast<double>(i) * width; }
  double cell_hi(std::size_t j, std::int64_t i) const { return lo[j] + static_cast<double>(i + 1) * width; }
};

// Throws InputError when the bounds are missing/degenerate, alpha or eta are not finite positive
// numbers, or |X| would exceed 2^62 cells.
CellGrid make_grid(const Bounds& bounds, double alpha, double eta);

struct Neighbourhood {
  std::size_t d = 0;
  // All kappa offsets (the zero offset included), lexicographic order, d entries each.
  std::vector<std::int32_t> offsets;
  // Row form: prefixes (d-1 entries each, lexicographic) and the half width r of each run.
  std::vector<std::int32_t> prefixes;
  std::vector<std::int32_t> half_width;

  std::size_t kappa() const { return d == 0 ? 0 : offsets.size() / d; }
  std::size_t rows() const { return half_width.size(); }
  const std::int32_t* offset(std::size_t k) const { return offsets.data() + k * d; }
  const std::int32_t* prefix(std::size_t k) const { return prefixes.data() + k * (d - 1); }
};

// NB(X) for dimension d and eta (threshold 16 d / eta^2 in squared cells). Throws InputError when
// kappa would exceed 10^7 (tiny eta in high dimension).
Neighbourhood alpha_neighbourhood(std::size_t d, double eta);
// kappa = the number of offsets alpha_neighbourhood(d, eta) would store, counted without storing any,
// saturated at cap + 1 (validation and the cost model use it; cheap for any d and eta).
std::uint64_t neighbourhood_size(std::size_t d, double eta, std::uint64_t cap);
// Largest alpha-neighbourhood (kappa offsets) DP-DBSCAN builds.
inline constexpr std::uint64_t kMaxKappa = 10'000'000;
// The fix for a neighbourhood over kMaxKappa at dimension d and this eta, naming what works at this d: the
// smallest eta that brings kappa under the limit and the largest column count that fits at this eta, or,
// when d >= 15 (kappa >= 3^d > 10^7 for every eta), that no eta does and how many columns fit.
std::string kappa_limit_fix(std::size_t d, double eta);

}  // namespace dpclust::dpdbscan
