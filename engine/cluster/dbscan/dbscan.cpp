// Exact grid DBSCAN; semantics in dbscan.hpp.
//
// Outline (n points, d dimensions, eps2 = alpha * alpha):
//   1. index (dbscan_index.hpp): bucket the points by cell (counting sort, contiguous arrays, coordinates copied
//      in cell order), list every occupied cell's occupied neighbour cells once (CSR);
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

#include "cluster/dbscan/dbscan_index.hpp"

namespace dpclust {
namespace {

using dbscan_detail::i64;
using dbscan_detail::Index;
using dbscan_detail::Kind;
using dbscan_detail::kNone;
using dbscan_detail::u32;
using dbscan_detail::u64;
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

// Step 2 of the outline: which points are core.
template <int D>
std::vector<std::uint8_t> core_flags(const Index& ix, double eps2, std::size_t minp) {
  const std::size_t n = ix.n, d = ix.d, ncells = ix.ncells;
  const bool fine = ix.kind == Kind::fine;
  const auto P = [&](std::size_t p) { return &ix.pts[p * d]; };
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

  return core;
}

// Step 3: the core points first inside every cell (stable, in place); returns each cell's number of core points.
std::vector<u32> core_points_first(Index& ix, std::vector<std::uint8_t>& core) {
  const std::size_t d = ix.d, ncells = ix.ncells;
  const auto P = [&](std::size_t p) { return &ix.pts[p * d]; };
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
  return ncore;
}

// Step 4, fine grid: one element per cell; two neighbouring core cells are joined when an early-exit search finds a
// close core pair (only the points within alpha of the other cell's core bounding box take part).
template <int D>
void join_core_cells(const Index& ix, const std::vector<u32>& ncore, double eps2, UnionFind& uf) {
  const std::size_t d = ix.d, ncells = ix.ncells;
  const auto P = [&](std::size_t p) { return &ix.pts[p * d]; };
  const auto cores_end = [&](std::size_t c) { return ix.start[c] + ncore[c]; };
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
}

// Step 4, coarse grid or brute force: one element per core point.
template <int D>
void join_core_points(const Index& ix, const std::vector<u32>& ncore, double eps2, UnionFind& uf) {
  const std::size_t d = ix.d, ncells = ix.ncells;
  const auto P = [&](std::size_t p) { return &ix.pts[p * d]; };
  const auto cores_end = [&](std::size_t c) { return ix.start[c] + ncore[c]; };
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

// Step 6, fine grid: the smallest cluster id among the core points within alpha; a cell's core points all belong to
// one cluster, so whole cells with a larger or equal id are skipped, and a cell entirely within alpha needs no
// distance.
template <int D>
void assign_borders_by_cell(const Index& ix, const std::vector<std::uint8_t>& core, const std::vector<u32>& ncore,
                            const std::vector<Label>& cid, UnionFind& uf, double eps2, Labels& labels) {
  const std::size_t n = ix.n, d = ix.d, ncells = ix.ncells;
  const auto np = static_cast<std::ptrdiff_t>(n);
  const auto P = [&](std::size_t p) { return &ix.pts[p * d]; };
  const auto cores_end = [&](std::size_t c) { return ix.start[c] + ncore[c]; };
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
}

// Step 6, coarse grid or brute force: the smallest cluster id among the core points within alpha, point by point.
template <int D>
void assign_borders_by_point(const Index& ix, const std::vector<std::uint8_t>& core, const std::vector<u32>& ncore,
                             double eps2, Labels& labels) {
  const std::size_t n = ix.n, d = ix.d;
  const auto np = static_cast<std::ptrdiff_t>(n);
  const auto P = [&](std::size_t p) { return &ix.pts[p * d]; };
  const auto cores_end = [&](std::size_t c) { return ix.start[c] + ncore[c]; };
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

template <int D>
Labels run(Index& ix, double alpha, std::size_t minp, BorderRule border, DbscanStats* stats) {
  const std::size_t n = ix.n, ncells = ix.ncells;
  const double eps2 = alpha * alpha;
  const bool fine = ix.kind == Kind::fine;
  std::vector<std::uint8_t> core = core_flags<D>(ix, eps2, minp);
  const std::vector<u32> ncore = core_points_first(ix, core);
  UnionFind uf(fine ? ncells : n);
  if (fine) join_core_cells<D>(ix, ncore, eps2, uf);
  else join_core_points<D>(ix, ncore, eps2, uf);

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
  if (border == BorderRule::assign) {
    if (fine) assign_borders_by_cell<D>(ix, core, ncore, cid, uf, eps2, labels);
    else assign_borders_by_point<D>(ix, core, ncore, eps2, labels);
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
  const std::size_t minp = static_cast<u64>(min_pts) > static_cast<u64>(n) ? n + 1 : static_cast<std::size_t>(min_pts);
  Index ix = dbscan_detail::build_index(coords, n, d, alpha);
  switch (d) {
    case 1: return run<1>(ix, alpha, minp, border, stats);
    case 2: return run<2>(ix, alpha, minp, border, stats);
    case 3: return run<3>(ix, alpha, minp, border, stats);
    default: return run<0>(ix, alpha, minp, border, stats);
  }
}

}  // namespace dpclust
