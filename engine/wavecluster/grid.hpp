#pragma once
// Quantization of the public domain into a regular grid (WaveCluster step 1, arXiv Sec. 3.2
// "Quantization"; SPEC.md pins the formula on DS2).
//
// Cell index along dimension j: floor((x - lo_j) / (hi_j - lo_j) * g_j), clamped to [0, g_j - 1] so
// that x = hi_j falls into the last cell. The arithmetic is written in exactly this order because
// a reordered expression ((x - lo) * (g / (hi - lo))) rounds differently on cell boundaries, and the
// published DS2 numbers (k = 144, |Z| = 241) depend on the boundary cases of integer coordinates.
// Cells are stored row-major (the last dimension varies fastest), any dimension d >= 1.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/dataset.hpp"

namespace dpclust::wavecluster {

// Shape of a d-dimensional row-major array.
struct GridShape {
  std::vector<std::size_t> dims;
  std::size_t size() const;
  std::vector<std::size_t> strides() const;  // row-major: stride of the last dimension is 1
  // Shape after `level` halvings (ceil(n / 2) per level and dimension), the size of the average subband.
  GridShape coarsened(int level) const;
  bool operator==(const GridShape& o) const { return dims == o.dims; }
};

class Quantizer {
 public:
  // g[j] >= 1 cells per dimension over the box [lo_j, hi_j] (hi_j > lo_j). Throws std::invalid_argument, or
  // dpclust::InputError for more than kMaxGridCells cells.
  Quantizer(std::vector<std::size_t> g, const Bounds& bounds);
  const GridShape& shape() const { return shape_; }
  std::size_t dims() const { return shape_.dims.size(); }
  // Cell index along dimension j of coordinate x.
  std::size_t cell_1d(std::size_t j, double x) const {
    const double t = (x - lo_[j]) / span_[j] * g_[j];
    if (!(t > 0)) return 0;                     // also catches NaN: the loader rejects such points anyway
    if (t >= g_[j]) return shape_.dims[j] - 1;  // before the cast: a point far outside the domain overflows size_t
    // 0 < t < g <= 2^28: through int64 (one instruction on x86-64; the unsigned conversion is a branch and
    // two), the same integer.
    return static_cast<std::size_t>(static_cast<std::int64_t>(t));
  }
  // Row-major index of the cell of a point, at full resolution (shift = 0) or of the cell of the
  // average subband after `shift` Haar/bior halvings (the per-dimension index is divided by 2^shift).
  // Inline: Baseline's synopsis calls it for every synthetic point.
  std::size_t cell_of(const double* p, int shift = 0) const {
    std::size_t idx = 0;
    for (std::size_t j = 0; j < shape_.dims.size(); ++j) {
      std::size_t n = shape_.dims[j];
      for (int l = 0; l < shift; ++l) n = (n + 1) / 2;
      idx = idx * n + (cell_1d(j, p[j]) >> shift);
    }
    return idx;
  }
  // The count matrix M of the points (one linear pass, no allocation besides the result).
  std::vector<double> counts(const Dataset& data) const;
  // Per-point row-major cell index in the average subband after `shift` halvings.
  void coarse_cells(const Dataset& data, int shift, std::vector<std::uint32_t>& out) const;
  double lo(std::size_t j) const { return lo_[j]; }
  double hi(std::size_t j) const { return hi_[j]; }

 private:
  GridShape shape_;
  std::vector<double> lo_, hi_, span_, g_;
};

// Largest grid WaveCluster quantizes into: 2^28 cells (2 GiB of double counts, before the wavelet copies).
inline constexpr std::size_t kMaxGridCells = std::size_t{1} << 28;

// The number of cells g_1 * ... * g_d, computed with overflow checks; throws dpclust::InputError naming
// params.g when it exceeds kMaxGridCells (or wraps around 64 bits).
std::size_t checked_cell_count(const std::vector<std::size_t>& g);

// Coordinates of the cell with row-major index `index` in `shape`.
void unravel(std::size_t index, const GridShape& shape, std::size_t* coords);

}  // namespace dpclust::wavecluster
