#pragma once
// DBSCAN's index (dbscan.cpp, step 1 of its outline): the points bucketed by grid cell (counting sort, contiguous
// arrays, coordinates copied in cell order) and every occupied cell's occupied neighbour cells listed once (CSR). The
// cell side and its margins, and why they make the grid exact under floating point, are explained in dbscan.cpp.
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <string>
#include <vector>

namespace dpclust::dbscan_detail {

using u32 = std::uint32_t;
using u64 = std::uint64_t;
using i64 = std::int64_t;
inline constexpr u32 kNone = std::numeric_limits<u32>::max();

inline u64 mix64(u64 x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

enum class Kind { fine, coarse, brute };

// Points bucketed by cell, plus the occupied-neighbour lists of the cells.
struct Index {
  Kind kind = Kind::brute;
  bool dense = false;
  std::size_t n = 0, d = 0;
  double side = 0, pad = 0;
  std::vector<double> origin;  // lo corner of cell (0, ..., 0)
  std::vector<i64> extent;     // cells per dimension
  std::vector<u64> stride;     // dense code strides
  std::vector<u32> table;      // dense: code -> cell or kNone
  std::vector<u32> slots;      // hash: open addressing, cell ids
  u64 mask = 0;
  std::size_t ncells = 0;
  std::vector<u32> start;        // ncells + 1: cell c holds positions [start[c], start[c+1])
  std::vector<u32> perm;         // position -> original index
  std::vector<u32> cell_of;      // position -> cell
  std::vector<double> pts;       // n x d coordinates in position order
  std::vector<i64> ccoord;       // ncells x d integer cell coordinates
  std::vector<u32> nstart, nbr;  // CSR: occupied neighbour cells of every cell (itself excluded)

  std::size_t size(std::size_t c) const { return start[c + 1] - start[c]; }

  void cell_coords(const double* x, i64* c) const {
    for (std::size_t j = 0; j < d; ++j) {
      const double q = std::floor((x[j] - origin[j]) / side);
      i64 v = static_cast<i64>(q);
      c[j] = std::clamp<i64>(v, 0, extent[j] - 1);
    }
  }
  u64 hash(const i64* c) const {
    u64 h = 0x9e3779b97f4a7c15ULL;
    for (std::size_t j = 0; j < d; ++j) h = mix64(h ^ static_cast<u64>(c[j]));
    return h;
  }
  bool same(u32 cell, const i64* c) const {
    const i64* e = &ccoord[static_cast<std::size_t>(cell) * d];
    for (std::size_t j = 0; j < d; ++j)
      if (e[j] != c[j]) return false;
    return true;
  }
  // The cell with integer coordinates c, or kNone. Coordinates out of range are empty.
  u32 lookup(const i64* c) const {
    for (std::size_t j = 0; j < d; ++j)
      if (c[j] < 0 || c[j] >= extent[j]) return kNone;
    if (dense) {
      u64 code = 0;
      for (std::size_t j = 0; j < d; ++j) code += static_cast<u64>(c[j]) * stride[j];
      return table[code];
    }
    for (u64 s = hash(c) & mask;; s = (s + 1) & mask) {
      const u32 id = slots[s];
      if (id == kNone) return kNone;
      if (same(id, c)) return id;
    }
  }
  // Where cell b lies relative to the ball of radius alpha around x, judged on the cell's box padded by
  // `pad` (so that rounding in the cell assignment cannot put a point outside it): kFar = no point of b
  // is within alpha, kInside = every point of b is within alpha (the computed distances included, see
  // the margins above), kPartial = the points must be checked.
  enum Relation { kFar, kPartial, kInside };
  Relation relation(const double* x, std::size_t b, double eps2) const {
    const i64* c = &ccoord[b * d];
    double nearest = 0.0, farthest = 0.0;
    for (std::size_t j = 0; j < d; ++j) {
      // Relative to the origin, as in the cell assignment, so every rounding error is O(Q side 2^-52)
      // (absolute coordinates far from 0 would bring errors of ulp(|x|), unrelated to the margin).
      const double xr = x[j] - origin[j];
      const double lo = static_cast<double>(c[j]) * side - pad;
      const double hi = static_cast<double>(c[j] + 1) * side + pad;
      double t = 0.0;
      if (xr < lo) t = lo - xr;
      else if (xr > hi) t = xr - hi;
      nearest += t * t;
      const double f = std::max(xr - lo, hi - xr);
      farthest += f * f;
    }
    if (nearest > eps2) return kFar;
    return farthest <= eps2 ? kInside : kPartial;
  }
  bool far(const double* x, std::size_t b, double eps2) const { return relation(x, b, eps2) == kFar; }
  std::string name() const {
    if (kind == Kind::brute) return "brute";
    return std::string(kind == Kind::fine ? "grid-fine-" : "grid-coarse-") + (dense ? "dense" : "hash");
  }
};

// The index of the n x d points X for radius alpha: a fine grid (side alpha / sqrt(d), d <= 3), a coarse one (side
// alpha, d <= 8), or one cell holding everything (brute force: higher d, extreme magnitudes). Throws
// std::invalid_argument for a coordinate that is not a finite number.
Index build_index(const double* X, std::size_t n, std::size_t d, double alpha);

}  // namespace dpclust::dbscan_detail
