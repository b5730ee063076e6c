// Cell counts and the naive / linear-time DP histograms; see histogram.hpp.
#include "dpdbscan/histogram.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include <omp.h>

#include "dpdbscan/flat_map.hpp"

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
    for (int j = 0; j < D; ++j) c += g.index(static_cast<std::size_t>(j), p[j]) * g.strides[static_cast<std::size_t>(j)];
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
  if (n >= std::numeric_limits<std::uint32_t>::max()) throw std::invalid_argument("count_cells: more than 2^32 - 2 points");
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

NoisyHistogram naive_histogram(const CellCounts& counts, const Noise& noise, Rng& rng) {
  if (!counts.dense) throw std::logic_error("naive_histogram needs dense cell counts");
  NoisyHistogram h;
  h.dense = true;
  h.linear = false;
  h.universe = counts.universe;
  const std::uint64_t X = counts.universe;
  h.dense_values.resize(X);
  // Thm 2.8: x~_i = x_i + Z_i for all i in X. The cells are noised in blocks of kNoiseBlock codes,
  // block b from its own generator seeded by the b-th draw of the trial's Rng, so the blocks can be
  // filled in parallel and the histogram does not depend on the thread count.
  const std::uint64_t blocks = (X + kNoiseBlock - 1) / kNoiseBlock;
  std::vector<std::uint64_t> seeds(blocks);
  for (auto& s : seeds) s = rng.next_u64();
  const std::int64_t nb = static_cast<std::int64_t>(blocks);
#pragma omp parallel for schedule(dynamic, 1) if (blocks > 1)
  for (std::int64_t b = 0; b < nb; ++b) {
    Rng block_rng(seeds[static_cast<std::size_t>(b)]);
    const std::uint64_t lo = static_cast<std::uint64_t>(b) * kNoiseBlock, hi = std::min(X, lo + kNoiseBlock);
    for (std::uint64_t i = lo; i < hi; ++i)
      h.dense_values[i] = static_cast<double>(counts.dense_counts[i]) + noise.draw(block_rng);
  }
  h.released = X;
  return h;
}

NoisyHistogram linear_histogram(const CellCounts& counts, const Noise& noise, double theta, Rng& rng) {
  if (!(theta >= 0) || !std::isfinite(theta)) throw std::invalid_argument("linear_histogram: theta must be >= 0");
  NoisyHistogram h;
  h.dense = counts.dense;
  h.linear = true;
  h.universe = counts.universe;
  h.theta = theta;
  const std::uint64_t X = counts.universe;

  if (counts.dense) {
    h.dense_values.assign(X, 0.0);
    // Alg. 2 lines 4-7: noise on each occupied cell, kept when >= theta.
    for (std::uint64_t i = 0; i < X; ++i) {
      if (counts.dense_counts[i] == 0) continue;
      const double v = static_cast<double>(counts.dense_counts[i]) + noise.draw(rng);
      if (v >= theta) {
        h.dense_values[i] = v;
        ++h.released_occupied;
      }
    }
  } else {
    for (std::size_t k = 0; k < counts.codes.size(); ++k) {
      const double v = static_cast<double>(counts.counts[k]) + noise.draw(rng);
      if (v >= theta) {
        h.codes.push_back(counts.codes[k]);
        h.values.push_back(v);
        ++h.released_occupied;
      }
    }
  }

  // Lines 8-9: M empty cells, each independently above theta with probability p.
  const std::uint64_t M = X - counts.occupied;
  h.p = noise.tail_probability(theta);
  const std::uint64_t m = M == 0 ? 0 : rng.binomial(M, h.p);
  h.sampled_empty = m;

  // Lines 10-13: a simple random sample of m empty cells (uniform codes, redrawn when occupied or
  // already drawn), each with a value from the tail above theta.
  if (counts.dense) {
    std::vector<std::uint64_t> drawn((X + 63) / 64, 0);
    for (std::uint64_t t = 0; t < m; ++t) {
      std::uint64_t j;
      do {
        j = rng.below(X);
      } while (counts.dense_counts[j] != 0 || ((drawn[j >> 6] >> (j & 63)) & 1));
      drawn[j >> 6] |= std::uint64_t{1} << (j & 63);
      h.dense_values[j] = noise.draw_tail(rng, theta);
    }
  } else {
    FlatMap<char> taken(counts.occupied + m);
    for (std::uint64_t code : counts.codes) taken.insert(code, 1);
    std::vector<std::pair<std::uint64_t, double>> extra;
    extra.reserve(m);
    for (std::uint64_t t = 0; t < m; ++t) {
      std::uint64_t j;
      do {
        j = rng.below(X);
      } while (!taken.insert(j, 1));
      extra.emplace_back(j, noise.draw_tail(rng, theta));
    }
    // Merge the sampled cells into the ascending released list.
    std::sort(extra.begin(), extra.end());
    std::vector<std::uint64_t> codes;
    std::vector<double> values;
    codes.reserve(h.codes.size() + extra.size());
    values.reserve(h.codes.size() + extra.size());
    std::size_t a = 0, b = 0;
    while (a < h.codes.size() || b < extra.size()) {
      if (b == extra.size() || (a < h.codes.size() && h.codes[a] < extra[b].first)) {
        codes.push_back(h.codes[a]);
        values.push_back(h.values[a]);
        ++a;
      } else {
        codes.push_back(extra[b].first);
        values.push_back(extra[b].second);
        ++b;
      }
    }
    h.codes.swap(codes);
    h.values.swap(values);
  }
  h.released = h.released_occupied + m;
  return h;
}

}  // namespace dpclust::dpdbscan
