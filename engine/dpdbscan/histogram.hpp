#pragma once
// Cell counts x_i (Alg. 1 line 4) and the two DP histograms of Alg. 1 line 5:
//
//   naive   x~_i = x_i + Z_i for every one of the |X| cells (Thm 2.8): O(|X|) time and memory;
//   linear  Algorithm 2 (Sec. 6): noise only on the occupied cells, keeping x~_i >= theta (lines 4-7);
//           m ~ Bin(M, p) of the M = |X| - |F| empty cells, p = Pr[Z >= theta] (lines 8-9); m empty
//           cells drawn uniformly without replacement (line 10: uniform codes, redrawn when occupied or
//           already drawn, which yields a simple random sample of X - F); each gets a draw from the
//           noise's upper tail above theta (lines 11-13). Expected O(n) when theta >= ln(|X|/n)/eps'.
//           Cells not in the output have released value 0.
//
// Storage follows the universe: "dense" keeps |X|-long arrays indexed by the cell code (fast,
// cache-friendly, chosen when |X| is at most a small multiple of n); "sparse" keeps sorted (code, value)
// lists and hash sets keyed by the 64-bit code, for universes far larger than memory (Cabs-like grids
// with tiny alpha, HAR70+ in 3-D). Both storages consume the random stream identically (noise in
// ascending code order of the occupied cells, then the same rejection draws), so they release the
// same histogram; a test checks it.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/rng.hpp"
#include "dpdbscan/grid.hpp"
#include "dpdbscan/noise.hpp"

namespace dpclust::dpdbscan {

struct CellCounts {
  bool dense = false;
  std::uint64_t universe = 0;
  std::vector<std::uint32_t> dense_counts;  // dense: |X| counts
  std::vector<std::uint64_t> codes;         // sparse: occupied cells, ascending
  std::vector<std::uint32_t> counts;        // sparse: their counts
  std::size_t occupied = 0;                 // |F|
};

// Counts the points per cell (points outside the domain are clamped onto it; see CellGrid::index).
// Throws std::invalid_argument for n >= 2^32.
CellCounts count_cells(const CellGrid& grid, const double* coords, std::size_t n, bool dense);

struct NoisyHistogram {
  bool dense = false;
  bool linear = false;
  std::uint64_t universe = 0;
  std::vector<double> dense_values;  // dense: |X| released values (0 = not released)
  std::vector<std::uint64_t> codes;  // sparse: released cells, ascending
  std::vector<double> values;        // sparse: their released values
  std::uint64_t released = 0;        // cells carrying a released value (naive: |X|)
  std::uint64_t released_occupied = 0;  // linear: occupied cells kept (lines 4-7)
  std::uint64_t sampled_empty = 0;      // linear: m (line 9)
  double theta = 0;                     // linear: threshold
  double p = 0;                         // linear: Pr[Z >= theta]
};

// Alg. 1 line 5 with Thm 2.8: every cell noised. Needs dense counts. The noise of cells
// [b B, (b+1) B), B = kNoiseBlock, comes from a generator seeded by the b-th 64-bit draw of `rng`
// (parallel, independent of the thread count).
inline constexpr std::uint64_t kNoiseBlock = std::uint64_t{1} << 16;
NoisyHistogram naive_histogram(const CellCounts& counts, const Noise& noise, Rng& rng);
// Algorithm 2 with threshold theta >= 0.
NoisyHistogram linear_histogram(const CellCounts& counts, const Noise& noise, double theta, Rng& rng);

}  // namespace dpclust::dpdbscan
