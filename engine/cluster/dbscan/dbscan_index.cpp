// The index of DBSCAN's points; see dbscan_index.hpp, and dbscan.cpp for the grid's exactness.
#include "cluster/dbscan/dbscan_index.hpp"

#include <numeric>
#include <stdexcept>

namespace dpclust::dbscan_detail {
namespace {

// The data's box and largest magnitude; refuses a coordinate that is not a finite number.
struct DataBox {
  std::vector<double> lo, hi;
  double maxabs = 0.0;
};

DataBox data_box(const double* X, std::size_t n, std::size_t d) {
  DataBox box{std::vector<double>(d, std::numeric_limits<double>::infinity()),
              std::vector<double>(d, -std::numeric_limits<double>::infinity())};
  std::vector<double>& lo = box.lo;
  std::vector<double>& hi = box.hi;
  double& maxabs = box.maxabs;
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
  return box;
}

// The grid's kind, side and padding (the margins of dbscan.cpp's "Exactness under floating point").
void choose_grid(Index& ix, const DataBox& box, double alpha) {
  const std::size_t d = ix.d;
  const std::vector<double>& lo = box.lo;
  const std::vector<double>& hi = box.hi;
  const double maxabs = box.maxabs;
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
}

// One cell holding everything, no neighbours.
void brute_force_index(Index& ix, const double* X) {
  const std::size_t n = ix.n, d = ix.d;
  ix.ncells = 1;
  ix.start = {0, static_cast<u32>(n)};
  ix.perm.resize(n);
  std::iota(ix.perm.begin(), ix.perm.end(), u32{0});
  ix.cell_of.assign(n, 0);
  ix.pts.assign(X, X + n * d);
  ix.nstart = {0, 0};
}

// Dense grid: every point's cell id through a table over all codes (counts first, then ids).
void key_points_dense(Index& ix, const double* X, double total, std::vector<u32>& key, std::vector<u32>& sizes) {
  const std::size_t n = ix.n, d = ix.d;
  std::vector<i64> c(d);
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
}

// Sparse grid: every point's cell id through an open-addressing table of the occupied cells.
void key_points_hash(Index& ix, const double* X, std::vector<u32>& key, std::vector<u32>& sizes) {
  const std::size_t n = ix.n, d = ix.d;
  std::vector<i64> c(d);
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

// Counting sort by cell (stable: a cell's points stay in index order), the coordinates copied in cell order.
void order_by_cell(Index& ix, const double* X, const std::vector<u32>& key, const std::vector<u32>& sizes) {
  const std::size_t n = ix.n, d = ix.d;
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
}

// Neighbour offsets: fine cells whose minimum distance can be <= alpha, or the 3^d - 1 coarse ones.
std::vector<i64> neighbour_offsets(Kind kind, std::size_t d) {
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
      if (!zero && (kind == Kind::coarse || gap <= static_cast<i64>(d)))
        offsets.insert(offsets.end(), o.begin(), o.end());
      std::size_t j = 0;
      while (j < d && o[j] == r) o[j++] = -r;
      if (j == d) break;
      ++o[j];
    }
  }
  return offsets;
}

// Every occupied cell's occupied neighbour cells (CSR), by probing the offsets or, with few occupied cells on the
// coarse grid, by comparing all pairs of cells.
void link_neighbours(Index& ix, const std::vector<i64>& offsets) {
  const std::size_t d = ix.d;
  const Kind kind = ix.kind;
  std::vector<i64> c(d);
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
}

}  // namespace

Index build_index(const double* X, std::size_t n, std::size_t d, double alpha) {
  Index ix;
  ix.n = n;
  ix.d = d;
  const DataBox box = data_box(X, n, d);
  choose_grid(ix, box, alpha);
  if (ix.kind == Kind::brute) {
    brute_force_index(ix, X);
    return ix;
  }
  ix.origin = box.lo;
  ix.extent.resize(d);
  double total = 1.0;
  for (std::size_t j = 0; j < d; ++j) {
    ix.extent[j] = static_cast<i64>(std::floor((box.hi[j] - box.lo[j]) / ix.side)) + 1;
    total *= static_cast<double>(ix.extent[j]);
  }
  ix.dense = total <= std::max(4.0 * static_cast<double>(n), 4194304.0);
  std::vector<u32> key(n);  // cell id of every point
  std::vector<u32> sizes;
  if (ix.dense) key_points_dense(ix, X, total, key, sizes);
  else key_points_hash(ix, X, key, sizes);
  ix.ncells = sizes.size();
  order_by_cell(ix, X, key, sizes);
  link_neighbours(ix, neighbour_offsets(ix.kind, d));
  return ix;
}

}  // namespace dpclust::dbscan_detail
