#pragma once
// The types shared by the two DP histograms of Alg. 1 line 5 (naive_histogram.hpp: Thm 2.8;
// linear_histogram.hpp: Algorithm 2) and the cell counts x_i of Alg. 1 line 4 (cell_counts.cpp).
//
// Storage follows the universe: "dense" keeps |X|-long arrays indexed by the cell code (fast,
// cache-friendly, chosen when |X| is at most a small multiple of n); "sparse" keeps sorted (code, value)
// lists and hash sets keyed by the 64-bit code, for universes far larger than memory (Cabs-like grids
// with tiny alpha, HAR70+ in 3-D). Both storages consume the random stream identically, so they release
// the same histogram; a test checks it.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "dpdbscan/grid.hpp"

namespace dpclust::dpdbscan {

struct CellCounts {
  bool dense = false;
  std::uint64_t universe = 0;
  std::vector<std::uint32_t> dense_counts;  // dense: |X| counts
  std::vector<std::uint64_t> codes;         // sparse: occupied cells, ascending
  std::vector<std::uint32_t> counts;        // sparse: their counts
  std::size_t occupied = 0;                 // |F|
};

// Alg. 1 line 4: counts the points per cell (points outside the domain are clamped onto it; see
// CellGrid::index). Throws std::invalid_argument for n >= 2^32.
CellCounts count_cells(const CellGrid& grid, const double* coords, std::size_t n, bool dense);

// A released histogram. Cells not in the output have released value 0 (for the linear-time histogram
// a released value is always >= theta > 0, so 0 means "not released").
struct NoisyHistogram {
  bool dense = false;
  bool linear = false;
  std::uint64_t universe = 0;
  std::vector<double> dense_values;  // dense: |X| released values (0 = not released)
  std::vector<std::uint64_t> codes;  // sparse: released cells, ascending
  std::vector<double> values;        // sparse: their released values
  std::uint64_t released = 0;        // cells carrying a released value (naive: |X|); public
  // Linear only; exact statistics of the true data (which released cells are occupied), evaluation only:
  std::uint64_t released_occupied = 0;  // occupied cells kept (Alg. 2 lines 4-7)
  std::uint64_t sampled_empty = 0;      // m (line 9)
  double theta = 0;                     // linear: the threshold applied
  double p = 0;                         // linear: Pr[Z >= theta]
};

}  // namespace dpclust::dpdbscan
