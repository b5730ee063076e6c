// Alg. 1 line 4: the cell counts x_i = |X_i ∩ P| (dense arrays or sorted sparse lists); see histogram.hpp.
#include "dpdbscan/histogram.hpp"

#include <algorithm>
#include <limits>
#include <stdexcept>

#include <omp.h>

namespace dpclust::dpdbscan {
namespace {

constexpr std::size_t kParallelPoints = std::size_t{1} << 20;

// Cell code of point p; D > 0 fixes the dimension at compile time (the common 1-3-D cases).
template <int D>
inline std::uint64_t code_of(const CellGrid& g, const double* p) {
  if constexpr (D == 0) {
    return g.code(p);
  } else {
    std::uint64_t c = 0;
    for (int j = 0; j < D; ++j)
      c += g.index(static_cast<std::size_t>(j), p[j]) * g.strides[static_cast<std::size_t>(j)];
    return c;
  }
}

// Integer counts: the atomic increments give the same result for any thread count (plain
// increments when only one thread is available, e.g. inside the runner's parallel trials).
template <int D>
void bin_dense(const CellGrid& g, const double* coords, std::size_t n, std::uint32_t* counts) {
  const std::size_t d = g.d;
  if (n >= kParallelPoints && omp_get_max_threads() > 1 && !omp_in_parallel()) {
#pragma omp parallel for schedule(static)
    for (std::size_t i = 0; i < n; ++i) {
      const std::uint64_t c = code_of<D>(g, coords + i * d);
#pragma omp atomic
      ++counts[c];
    }
    return;
  }
  for (std::size_t i = 0; i < n; ++i) ++counts[code_of<D>(g, coords + i * d)];
}

template <int D>
void codes_of(const CellGrid& g, const double* coords, std::size_t n, std::uint64_t* out) {
  const std::size_t d = g.d;
#pragma omp parallel for schedule(static) if (n >= kParallelPoints)
  for (std::size_t i = 0; i < n; ++i) out[i] = code_of<D>(g, coords + i * d);
}

// LSD radix sort of 64-bit keys below 2^bits, 16 bits per pass.
void radix_sort(std::vector<std::uint64_t>& keys, unsigned bits) {
  std::vector<std::uint64_t> tmp(keys.size());
  std::vector<std::size_t> hist(1u << 16);
  for (unsigned shift = 0; shift < bits; shift += 16) {
    std::fill(hist.begin(), hist.end(), 0);
    for (std::uint64_t k : keys) ++hist[(k >> shift) & 0xffff];
    std::size_t sum = 0;
    for (auto& h : hist) {
      const std::size_t c = h;
      h = sum;
      sum += c;
    }
    for (std::uint64_t k : keys) tmp[hist[(k >> shift) & 0xffff]++] = k;
    keys.swap(tmp);
  }
}

}  // namespace

CellCounts count_cells(const CellGrid& grid, const double* coords, std::size_t n, bool dense) {
  if (n >= std::numeric_limits<std::uint32_t>::max())
    throw std::invalid_argument("count_cells: more than 2^32 - 2 points");
  CellCounts c;
  c.dense = dense;
  c.universe = grid.universe;
  if (dense) {
    c.dense_counts.assign(grid.universe, 0);
    switch (grid.d) {
      case 1: bin_dense<1>(grid, coords, n, c.dense_counts.data()); break;
      case 2: bin_dense<2>(grid, coords, n, c.dense_counts.data()); break;
      case 3: bin_dense<3>(grid, coords, n, c.dense_counts.data()); break;
      default: bin_dense<0>(grid, coords, n, c.dense_counts.data()); break;
    }
    c.occupied = static_cast<std::size_t>(
        std::count_if(c.dense_counts.begin(), c.dense_counts.end(), [](std::uint32_t v) { return v != 0; }));
    return c;
  }
  std::vector<std::uint64_t> keys(n);
  switch (grid.d) {
    case 1: codes_of<1>(grid, coords, n, keys.data()); break;
    case 2: codes_of<2>(grid, coords, n, keys.data()); break;
    case 3: codes_of<3>(grid, coords, n, keys.data()); break;
    default: codes_of<0>(grid, coords, n, keys.data()); break;
  }
  unsigned bits = 0;
  while (bits < 64 && (grid.universe - 1) >> bits) ++bits;
  radix_sort(keys, bits);
  for (std::size_t i = 0; i < n;) {
    std::size_t e = i;
    while (e < n && keys[e] == keys[i]) ++e;
    c.codes.push_back(keys[i]);
    c.counts.push_back(static_cast<std::uint32_t>(e - i));
    i = e;
  }
  c.occupied = c.codes.size();
  return c;
}

}  // namespace dpclust::dpdbscan
