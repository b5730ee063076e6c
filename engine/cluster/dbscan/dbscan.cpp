// Exact grid DBSCAN; semantics in dbscan.hpp.
//
// Outline (n points, d dimensions, eps2 = alpha * alpha):
//   1. index: bucket the points by cell (counting sort, contiguous arrays, coordinates copied in cell
//      order), list every occupied cell's occupied neighbour cells once (CSR);
//   2. core flags: fine cells holding >= min_pts points are all core without any distance, cells whose
//      whole neighbourhood holds < min_pts points have no core point. Otherwise, per point, every
//      neighbour cell is classified against the alpha-ball from its (padded) box: far cells are
//      skipped, cells entirely inside are counted wholesale, and only the partially covered ones are
//      scanned, branch-free in blocks of 32 points, stopping as soon as the count reaches min_pts or the
//      points left cannot reach it;
//   3. inside every cell the core points are moved first (stable, in place), so later passes scan core
//      ranges only;
//   4. components: union-find. Fine grid: one element per cell (the core points of a cell are within
//      alpha of each other), two neighbouring core cells are joined when an early-exit search finds a
//      close core pair (only the points within alpha of the other cell's core bounding box take part).
//      Coarse grid / brute force: one element per core point;
//   5. cluster ids by the lowest original index of each component (sklearn's discovery order);
//   6. borders: the smallest cluster id among the core points within alpha (a fine cell's core points
//      all belong to one cluster, so whole cells with a larger or equal id are skipped, and a cell
//      entirely within alpha needs no distance).
//
// Cost: O(n) memory (about 40 bytes per 2-D point besides the input), O(n) for the index; the distance
// work is proportional to the points in partially covered neighbour cells, which is small unless
// min_pts is in the thousands AND alpha spans cells of tens of thousands of points (e.g. cabs-tiny
// with alpha = 1 km, min_pts = 20000 takes ~5 s; the targeted alpha = 0.05 km, min_pts = 1000 ~0.4 s).
//
// Exactness under floating point. A point x falls in cell floor((x_j - lo_j) / side) per dimension.
// With Q = the largest coordinate range in cells, that quotient is off by at most ~Q * 2^-52 cells,
// and a computed squared distance is off by a relative ~(d + 2) * 2^-53. The side is therefore shrunk
// (fine grid) or enlarged (coarse grid) by the relative margin m = 1e-9 + 16 (Q + 2 + d) 2^-52, and
// Q is capped at 2^40 (m <= ~0.004); then "two points of one fine cell are within alpha", "points two
// coarse cells apart are farther than alpha" and the neighbour offsets (fine: sum_j max(0,|o_j|-1)^2
// <= d) hold for the computed distances, not only for the real ones. Cell boxes used for pruning are
// padded by 4 m side and evaluated in coordinates relative to the grid origin (so a large offset of
// the data, e.g. 1e9 + steps of 1e-3, brings no error beyond the margin). Extreme magnitudes (alpha
// outside [1e-100, 1e100] or a |coordinate| above 1e100, where squares underflow or overflow) and
// Q > 2^40 take the brute-force path, which is exact by construction.
#include "cluster/dbscan/dbscan.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <numeric>
#include <stdexcept>
#include <string>
#include <vector>

namespace dpclust {
namespace {

using u32 = std::uint32_t;
using u64 = std::uint64_t;
using i64 = std::int64_t;
constexpr u32 kNone = std::numeric_limits<u32>::max();
constexpr Label kNoLabel = std::numeric_limits<Label>::max();
constexpr std::size_t kParallelMin = 20000;  // below this the OpenMP overhead is not worth it

// Squared Euclidean distance, terms added in dimension order (D = 0: run-time dimension).
template <int D>
inline double sqdist(const double* a, const double* b, std::size_t d) {
  double s = 0.0;
  if constexpr (D > 0) {
    (void)d;
    for (int j = 0; j < D; ++j) {
      const double t = a[j] - b[j];
      s += t * t;
    }
  } else {
    for (std::size_t j = 0; j < d; ++j) {
      const double t = a[j] - b[j];
      s += t * t;
    }
  }
  return s;
}

struct UnionFind {
  std::vector<u32> parent;
  explicit UnionFind(std::size_t n) : parent(n) { std::iota(parent.begin(), parent.end(), u32{0}); }
  u32 find(u32 x) {
    while (parent[x] != x) {
      parent[x] = parent[parent[x]];
      x = parent[x];
    }
    return x;
  }
  void unite(u32 a, u32 b) {
    a = find(a);
    b = find(b);
    if (a == b) return;
    if (a < b) parent[b] = a;
    else parent[a] = b;
  }
};

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
  std::vector<double> origin;   // lo corner of cell (0, ..., 0)
  std::vector<i64> extent;      // cells per dimension
  std::vector<u64> stride;      // dense code strides
  std::vector<u32> table;       // dense: code -> cell or kNone
  std::vector<u32> slots;       // hash: open addressing, cell ids
  u64 mask = 0;
  std::size_t ncells = 0;
  std::vector<u32> start;       // ncells + 1: cell c holds positions [start[c], start[c+1])
  std::vector<u32> perm;        // position -> original index
  std::vector<u32> cell_of;     // position -> cell
  std::vector<double> pts;      // n x d coordinates in position order
  std::vector<i64> ccoord;      // ncells x d integer cell coordinates
  std::vector<u32> nstart, nbr; // CSR: occupied neighbour cells of every cell (itself excluded)

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

Index build_index(const double* X, std::size_t n, std::size_t d, double alpha) {
  Index ix;
  ix.n = n;
  ix.d = d;
  std::vector<double> lo(d, std::numeric_limits<double>::infinity()), hi(d, -std::numeric_limits<double>::infinity());
  double maxabs = 0.0;
  for (std::size_t i = 0; i < n; ++i)
    for (std::size_t j = 0; j < d; ++j) {
      const double v = X[i * d + j];
      if (!std::isfinite(v))
        throw std::invalid_argument("dbscan: coordinate " + std::to_string(j) + " of point " + std::to_string(i) +
                                    " is not a finite number");
      lo[j] = std::min(lo[j], v);
      hi[j] = std::max(hi[j], v);
      maxabs = std::max(maxabs, std::fabs(v));
    }

  Kind kind = d <= 3 ? Kind::fine : d <= 8 ? Kind::coarse : Kind::brute;
  if (!(alpha >= 1e-100 && alpha <= 1e100 && maxabs <= 1e100)) kind = Kind::brute;
  if (kind != Kind::brute) {
    const double s0 = kind == Kind::fine ? alpha / std::sqrt(static_cast<double>(d)) : alpha;
    double q = 0.0;
    for (std::size_t j = 0; j < d; ++j) q = std::max(q, (hi[j] - lo[j]) / s0);
    if (!(q <= 0x1.0p40)) {
      kind = Kind::brute;
    } else {
      const double m = 1e-9 + 16.0 * (q + 2.0 + static_cast<double>(d)) * 0x1.0p-52;
      ix.side = kind == Kind::fine ? s0 * (1.0 - m) : s0 * (1.0 + m);
      ix.pad = 4.0 * m * ix.side;
    }
  }
  ix.kind = kind;

  if (kind == Kind::brute) {
    // One cell holding everything, no neighbours.
    ix.ncells = 1;
    ix.start = {0, static_cast<u32>(n)};
    ix.perm.resize(n);
    std::iota(ix.perm.begin(), ix.perm.end(), u32{0});
    ix.cell_of.assign(n, 0);
    ix.pts.assign(X, X + n * d);
    ix.nstart = {0, 0};
    return ix;
  }

  ix.origin = lo;
  ix.extent.resize(d);
  double total = 1.0;
  for (std::size_t j = 0; j < d; ++j) {
    ix.extent[j] = static_cast<i64>(std::floor((hi[j] - lo[j]) / ix.side)) + 1;
    total *= static_cast<double>(ix.extent[j]);
  }
  ix.dense = total <= std::max(4.0 * static_cast<double>(n), 4194304.0);

  std::vector<u32> key(n);  // cell id of every point
  std::vector<u32> sizes;
  std::vector<i64> c(d);
  if (ix.dense) {
    const std::size_t cells = static_cast<std::size_t>(total);
    ix.stride.assign(d, 1);
    for (std::size_t j = d - 1; j > 0; --j) ix.stride[j - 1] = ix.stride[j] * static_cast<u64>(ix.extent[j]);
    const auto code_of = [&](std::size_t i) {
      ix.cell_coords(X + i * d, c.data());
      u64 k = 0;
      for (std::size_t j = 0; j < d; ++j) k += static_cast<u64>(c[j]) * ix.stride[j];
      return k;
    };
    ix.table.assign(cells, 0);  // counts first
    for (std::size_t i = 0; i < n; ++i) ++ix.table[code_of(i)];
    for (std::size_t k = 0; k < cells; ++k) {
      if (ix.table[k] == 0) {
        ix.table[k] = kNone;
      } else {
        sizes.push_back(ix.table[k]);
        ix.table[k] = static_cast<u32>(sizes.size() - 1);
      }
    }
    for (std::size_t i = 0; i < n; ++i) key[i] = ix.table[code_of(i)];  // recomputed: no n-sized code array
  } else {
    std::size_t cap = 16;
    while (cap < 2 * n) cap *= 2;
    ix.slots.assign(cap, kNone);
    ix.mask = cap - 1;
    for (std::size_t i = 0; i < n; ++i) {
      ix.cell_coords(X + i * d, c.data());
      for (u64 s = ix.hash(c.data()) & ix.mask;; s = (s + 1) & ix.mask) {
        const u32 id = ix.slots[s];
        if (id == kNone) {
          const u32 fresh = static_cast<u32>(sizes.size());
          ix.slots[s] = fresh;
          ix.ccoord.insert(ix.ccoord.end(), c.begin(), c.end());
          sizes.push_back(1);
          key[i] = fresh;
          break;
        }
        if (ix.same(id, c.data())) {
          ++sizes[id];
          key[i] = id;
          break;
        }
      }
    }
  }
  ix.ncells = sizes.size();

  // Counting sort by cell (stable: a cell's points stay in index order).
  ix.start.assign(ix.ncells + 1, 0);
  for (std::size_t k = 0; k < ix.ncells; ++k) ix.start[k + 1] = ix.start[k] + sizes[k];
  {
    std::vector<u32> next(ix.start.begin(), ix.start.end() - 1);
    ix.perm.resize(n);
    for (std::size_t i = 0; i < n; ++i) ix.perm[next[key[i]]++] = static_cast<u32>(i);
  }
  ix.cell_of.resize(n);
  ix.pts.resize(n * d);
  for (std::size_t k = 0; k < ix.ncells; ++k)
    for (u32 p = ix.start[k]; p < ix.start[k + 1]; ++p) {
      ix.cell_of[p] = static_cast<u32>(k);
      std::copy_n(X + static_cast<std::size_t>(ix.perm[p]) * d, d, ix.pts.begin() + static_cast<std::ptrdiff_t>(p * d));
    }
  if (ix.dense) {
    ix.ccoord.resize(ix.ncells * d);
    for (std::size_t k = 0; k < ix.ncells; ++k) ix.cell_coords(&ix.pts[ix.start[k] * d], &ix.ccoord[k * d]);
  }

  // Neighbour offsets: fine cells whose minimum distance can be <= alpha, or the 3^d - 1 coarse ones.
  const i64 r = kind == Kind::fine ? 1 + static_cast<i64>(std::floor(std::sqrt(static_cast<double>(d)))) : 1;
  std::vector<i64> offsets;
  {
    std::vector<i64> o(d, -r);
    for (;;) {
      bool zero = true;
      i64 gap = 0;
      for (std::size_t j = 0; j < d; ++j) {
        if (o[j] != 0) zero = false;
        const i64 g = std::max<i64>(0, (o[j] < 0 ? -o[j] : o[j]) - 1);
        gap += g * g;
      }
      if (!zero && (kind == Kind::coarse || gap <= static_cast<i64>(d))) offsets.insert(offsets.end(), o.begin(), o.end());
      std::size_t j = 0;
      while (j < d && o[j] == r) o[j++] = -r;
      if (j == d) break;
      ++o[j];
    }
  }
  const std::size_t noff = offsets.size() / d;
  ix.nstart.assign(ix.ncells + 1, 0);
  if (kind == Kind::coarse && noff > ix.ncells) {
    // Few occupied cells: comparing all pairs of cells is cheaper than probing 3^d - 1 offsets.
    for (std::size_t a = 0; a < ix.ncells; ++a) {
      for (std::size_t b = 0; b < ix.ncells; ++b) {
        if (a == b) continue;
        bool adjacent = true;
        for (std::size_t j = 0; j < d && adjacent; ++j) {
          const i64 diff = ix.ccoord[a * d + j] - ix.ccoord[b * d + j];
          adjacent = diff >= -1 && diff <= 1;
        }
        if (adjacent) ix.nbr.push_back(static_cast<u32>(b));
      }
      ix.nstart[a + 1] = static_cast<u32>(ix.nbr.size());
    }
  } else {
    for (std::size_t a = 0; a < ix.ncells; ++a) {
      for (std::size_t o = 0; o < noff; ++o) {
        for (std::size_t j = 0; j < d; ++j) c[j] = ix.ccoord[a * d + j] + offsets[o * d + j];
        const u32 b = ix.lookup(c.data());
        if (b != kNone) ix.nbr.push_back(b);
      }
      ix.nstart[a + 1] = static_cast<u32>(ix.nbr.size());
    }
  }
  return ix;
}

template <int D>
Labels run(Index& ix, double alpha, std::size_t minp, BorderRule border, DbscanStats* stats) {
  const std::size_t n = ix.n, d = ix.d, ncells = ix.ncells;
  const double eps2 = alpha * alpha;
  const bool fine = ix.kind == Kind::fine;
  const auto P = [&](std::size_t p) { return &ix.pts[p * d]; };

  // ---- 2. core flags -------------------------------------------------------------------------------
  std::vector<std::size_t> upper(ncells);
  for (std::size_t c = 0; c < ncells; ++c) {
    std::size_t u = ix.size(c);
    for (u32 k = ix.nstart[c]; k < ix.nstart[c + 1]; ++k) u += ix.size(ix.nbr[k]);
    upper[c] = u;
  }
  std::vector<std::uint8_t> core(n, 0);
  const auto np = static_cast<std::ptrdiff_t>(n);
#pragma omp parallel if (n >= kParallelMin)
  {
    std::vector<u32> partial;  // cells that must be checked point by point
#pragma omp for schedule(dynamic, 256)
    for (std::ptrdiff_t sp = 0; sp < np; ++sp) {
      const auto p = static_cast<std::size_t>(sp);
      const u32 c = ix.cell_of[p];
      if (upper[c] < minp) continue;
      if (fine && ix.size(c) >= minp) {
        core[p] = 1;
        continue;
      }
      const double* x = P(p);
      // cnt = points known to be within alpha, avail = points not yet examined that might be.
      std::size_t cnt = 0, avail = 0;
      partial.clear();
      if (fine) {
        cnt = ix.size(c);
      } else {
        partial.push_back(c);
        avail = ix.size(c);
      }
      for (u32 k = ix.nstart[c]; k < ix.nstart[c + 1]; ++k) {
        const u32 b = ix.nbr[k];
        switch (ix.relation(x, b, eps2)) {
          case Index::kFar: break;
          case Index::kInside: cnt += ix.size(b); break;
          case Index::kPartial:
            partial.push_back(b);
            avail += ix.size(b);
            break;
        }
      }
      if (cnt >= minp) {
        core[p] = 1;
        continue;
      }
      if (cnt + avail < minp) continue;
      std::size_t need = minp - cnt;  // early exit either way: need reaches 0, or avail drops below need
      // Branch-free counting in blocks of up to 32 points, the exits tested between blocks.
      const auto decide = [&] {
        for (u32 b : partial)
          for (u32 q0 = ix.start[b]; q0 < ix.start[b + 1]; q0 += 32) {
            const u32 q1 = std::min<u32>(q0 + 32, ix.start[b + 1]);
            std::size_t hits = 0;
            for (u32 q = q0; q < q1; ++q) hits += sqdist<D>(x, P(q), d) <= eps2 ? 1 : 0;
            if (hits >= need) return true;
            need -= hits;
            avail -= q1 - q0;
            if (avail < need) return false;
          }
        return false;
      };
      if (decide()) core[p] = 1;
    }
  }

  // ---- 3. core points first inside every cell (stable) --------------------------------------------
  std::vector<u32> ncore(ncells, 0);
  {
    // In place, cell by cell; the non-core points wait in a buffer of at most one cell.
    std::vector<u32> tmp_perm;
    std::vector<double> tmp_pts;
    for (std::size_t c = 0; c < ncells; ++c) {
      u32 w = ix.start[c];
      tmp_perm.clear();
      tmp_pts.clear();
      for (u32 p = ix.start[c]; p < ix.start[c + 1]; ++p) {
        if (core[p]) {
          if (w != p) {
            ix.perm[w] = ix.perm[p];
            std::copy_n(P(p), d, &ix.pts[static_cast<std::size_t>(w) * d]);
            core[w] = 1;
          }
          ++w;
        } else {
          tmp_perm.push_back(ix.perm[p]);
          tmp_pts.insert(tmp_pts.end(), P(p), P(p) + d);
        }
      }
      ncore[c] = w - ix.start[c];
      for (std::size_t t = 0; t < tmp_perm.size(); ++t, ++w) {
        ix.perm[w] = tmp_perm[t];
        std::copy_n(&tmp_pts[t * d], d, &ix.pts[static_cast<std::size_t>(w) * d]);
        core[w] = 0;
      }
    }
  }
  const auto cores_end = [&](std::size_t c) { return ix.start[c] + ncore[c]; };

  // ---- 4. connected components ---------------------------------------------------------------------
  UnionFind uf(fine ? ncells : n);
  if (fine) {
    // Bounding boxes of the core points of every cell.
    std::vector<double> blo(ncells * d), bhi(ncells * d);
    for (std::size_t c = 0; c < ncells; ++c) {
      if (ncore[c] == 0) continue;
      std::copy_n(P(ix.start[c]), d, &blo[c * d]);
      std::copy_n(P(ix.start[c]), d, &bhi[c * d]);
      for (u32 p = ix.start[c] + 1; p < cores_end(c); ++p)
        for (std::size_t j = 0; j < d; ++j) {
          blo[c * d + j] = std::min(blo[c * d + j], P(p)[j]);
          bhi[c * d + j] = std::max(bhi[c * d + j], P(p)[j]);
        }
    }
    // Distance from x to the core box of cell b, computed so that it never exceeds the computed
    // distance from x to any point of the box (rounding is monotone): an exact filter.
    const auto box_dist = [&](const double* x, std::size_t b) {
      double s = 0.0;
      for (std::size_t j = 0; j < d; ++j) {
        double t = 0.0;
        if (x[j] < blo[b * d + j]) t = blo[b * d + j] - x[j];
        else if (x[j] > bhi[b * d + j]) t = x[j] - bhi[b * d + j];
        s += t * t;
      }
      return s;
    };
    std::vector<u32> fa, fb;
    const auto close_pair = [&](std::size_t a, std::size_t b) {
      fa.clear();
      fb.clear();
      for (u32 p = ix.start[a]; p < cores_end(a); ++p)
        if (box_dist(P(p), b) <= eps2) fa.push_back(p);
      if (fa.empty()) return false;
      for (u32 q = ix.start[b]; q < cores_end(b); ++q)
        if (box_dist(P(q), a) <= eps2) fb.push_back(q);
      for (u32 p : fa)
        for (u32 q : fb)
          if (sqdist<D>(P(p), P(q), d) <= eps2) return true;
      return false;
    };
    for (std::size_t a = 0; a < ncells; ++a) {
      if (ncore[a] == 0) continue;
      for (u32 k = ix.nstart[a]; k < ix.nstart[a + 1]; ++k) {
        const u32 b = ix.nbr[k];
        if (b < a || ncore[b] == 0) continue;
        if (uf.find(static_cast<u32>(a)) == uf.find(b)) continue;
        if (close_pair(a, b)) uf.unite(static_cast<u32>(a), b);
      }
    }
  } else {
    for (std::size_t a = 0; a < ncells; ++a) {
      for (u32 p = ix.start[a]; p < cores_end(a); ++p) {
        const double* x = P(p);
        u32 rp = uf.find(p);
        for (u32 q = p + 1; q < cores_end(a); ++q) {
          if (uf.find(q) == rp || sqdist<D>(x, P(q), d) > eps2) continue;
          uf.unite(p, q);
          rp = uf.find(p);
        }
        for (u32 k = ix.nstart[a]; k < ix.nstart[a + 1]; ++k) {
          const u32 b = ix.nbr[k];
          if (b < a || ncore[b] == 0 || ix.far(x, b, eps2)) continue;
          for (u32 q = ix.start[b]; q < cores_end(b); ++q) {
            if (uf.find(q) == rp || sqdist<D>(x, P(q), d) > eps2) continue;
            uf.unite(p, q);
            rp = uf.find(p);
          }
        }
      }
    }
  }

  // ---- 5. cluster ids in sklearn's discovery order --------------------------------------------------
  std::vector<u32> pos_of(n);
  for (std::size_t p = 0; p < n; ++p) pos_of[ix.perm[p]] = static_cast<u32>(p);
  Labels labels(n, kNoise);
  std::vector<Label> cid(uf.parent.size(), kNoise);
  Label next = 0;
  std::size_t ncore_total = 0;
  for (std::size_t i = 0; i < n; ++i) {
    const u32 p = pos_of[i];
    if (!core[p]) continue;
    ++ncore_total;
    const u32 root = uf.find(fine ? ix.cell_of[p] : p);
    if (cid[root] == kNoise) cid[root] = next++;
    labels[i] = cid[root];
  }

  // ---- 6. border points (BorderRule::noise: the paper's core-only clusters, nothing to do) -----------
  if (border == BorderRule::noise) {
  } else if (fine) {
    std::vector<Label> cell_label(ncells, kNoLabel);
    for (std::size_t c = 0; c < ncells; ++c)
      if (ncore[c] > 0) cell_label[c] = cid[uf.find(static_cast<u32>(c))];
#pragma omp parallel for schedule(dynamic, 256) if (n >= kParallelMin)
    for (std::ptrdiff_t sp = 0; sp < np; ++sp) {
      const auto p = static_cast<std::size_t>(sp);
      if (core[p]) continue;
      const u32 c = ix.cell_of[p];
      const double* x = P(p);
      Label best = cell_label[c];
      for (u32 k = ix.nstart[c]; k < ix.nstart[c + 1] && best > 0; ++k) {
        const u32 b = ix.nbr[k];
        if (cell_label[b] >= best) continue;
        const auto rel = ix.relation(x, b, eps2);
        if (rel == Index::kFar) continue;
        if (rel == Index::kInside) {
          best = cell_label[b];
          continue;
        }
        for (u32 q = ix.start[b]; q < cores_end(b); ++q)
          if (sqdist<D>(x, P(q), d) <= eps2) {
            best = cell_label[b];
            break;
          }
      }
      if (best != kNoLabel) labels[ix.perm[p]] = best;
    }
  } else {
#pragma omp parallel for schedule(dynamic, 256) if (n >= kParallelMin)
    for (std::ptrdiff_t sp = 0; sp < np; ++sp) {
      const auto p = static_cast<std::size_t>(sp);
      if (core[p]) continue;
      const u32 c = ix.cell_of[p];
      const double* x = P(p);
      Label best = kNoLabel;
      const auto scan = [&](std::size_t b) {
        for (u32 q = ix.start[b]; q < cores_end(b); ++q) {
          const Label l = labels[ix.perm[q]];
          if (l < best && sqdist<D>(x, P(q), d) <= eps2) best = l;
        }
      };
      scan(c);
      for (u32 k = ix.nstart[c]; k < ix.nstart[c + 1] && best > 0; ++k) {
        const u32 b = ix.nbr[k];
        if (ncore[b] == 0 || ix.far(x, b, eps2)) continue;
        scan(b);
      }
      if (best != kNoLabel) labels[ix.perm[p]] = best;
    }
  }

  if (stats) {
    stats->core_points = ncore_total;
    stats->clusters = static_cast<std::size_t>(next);
    stats->noise_points = static_cast<std::size_t>(std::count(labels.begin(), labels.end(), kNoise));
    stats->cells = ncells;
    stats->index = ix.name();
  }
  return labels;
}

}  // namespace

Labels dbscan(const double* coords, std::size_t n, std::size_t d, double alpha, std::int64_t min_pts,
              DbscanStats* stats, BorderRule border) {
  if (!(std::isfinite(alpha) && alpha > 0))
    throw std::invalid_argument("dbscan: alpha must be a finite number > 0, got " + std::to_string(alpha));
  if (min_pts < 1) throw std::invalid_argument("dbscan: min_pts must be >= 1, got " + std::to_string(min_pts));
  if (n >= kNone) throw std::invalid_argument("dbscan: too many points (" + std::to_string(n) + ")");
  if (stats) *stats = DbscanStats{};
  if (n == 0) {
    if (stats) stats->index = "empty";
    return {};
  }
  if (d == 0) throw std::invalid_argument("dbscan: points have no coordinates (d = 0)");
  const std::size_t minp =
      static_cast<u64>(min_pts) > static_cast<u64>(n) ? n + 1 : static_cast<std::size_t>(min_pts);
  Index ix = build_index(coords, n, d, alpha);
  switch (d) {
    case 1: return run<1>(ix, alpha, minp, border, stats);
    case 2: return run<2>(ix, alpha, minp, border, stats);
    case 3: return run<3>(ix, alpha, minp, border, stats);
    default: return run<0>(ix, alpha, minp, border, stats);
  }
}

}  // namespace dpclust
