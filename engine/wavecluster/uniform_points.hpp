#pragma once
// Synthetic points drawn uniformly in a box and quantized into WaveCluster's grid (Alg. Baseline line 3:
// "generate synthetic points uniformly in each leaf", for the paper's synopsis (synopsis.cpp) and the
// authors' flat_origin one (flat_origin.cpp)). Only the points' cells are kept, never the points.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/rng.hpp"
#include "wavecluster/grid.hpp"

namespace dpclust::wavecluster {

// The largest value Rng::uniform() returns: (2^53 - 1) / 2^53.
inline constexpr double kLargestUniform = 0x1.fffffffffffffp-1;

// The definition: every point drawn and quantized on its own.
template <class Coord>
void place_uniform_points_one_by_one(const Quantizer& q, std::vector<double>& counts, std::uint64_t count, Rng& rng,
                                     Coord&& coord, std::vector<double>& scratch) {
  const std::size_t d = q.dims();
  scratch.resize(d);
  for (std::uint64_t t = 0; t < count; ++t) {
    for (std::size_t j = 0; j < d; ++j) scratch[j] = coord(j, rng.uniform());
    counts[q.cell_of(scratch.data())] += 1.0;
  }
}

// Adds `count` points to `counts` (q's count matrix). Point after point, coordinate after coordinate,
// x_j = coord(j, u) with u = rng.uniform(): d words per point, in that order.
//
// Shortcut, same counts and same words: coord(j, u) must be monotone in u (each caller's is a chain of
// additions and multiplications or divisions by a fixed sign, and IEEE rounding is monotone), and
// Quantizer::cell_1d is monotone in x, so the cell along j of every point lies between the cells of
// u = 0 and u = kLargestUniform. When those agree in every dimension, the whole box falls into one grid
// cell (a leaf smaller than a grid cell, as at high epsilon or on fine grids; on Figure 3's grids most
// leaves straddle cells and take the loop): its count grows by `count` (integers below 2^53 add exactly,
// as `count` additions of 1.0 would) and the count * d words are skipped (count is capped at
// kSynopsisMaxSyntheticPoints = 2^27 by both callers, so the product cannot wrap), and the generator
// ends where the point-by-point loop would have left it (test Synopsis.UniformPointsShortcutEqualsPointByPoint).
template <class Coord>
void place_uniform_points(const Quantizer& q, std::vector<double>& counts, std::uint64_t count, Rng& rng,
                          Coord&& coord, std::vector<double>& scratch) {
  if (count == 0) return;
  const std::size_t d = q.dims();
  std::size_t cell = 0;
  bool one_cell = true;
  for (std::size_t j = 0; j < d && one_cell; ++j) {
    const std::size_t first = q.cell_1d(j, coord(j, 0.0));
    one_cell = first == q.cell_1d(j, coord(j, kLargestUniform));
    cell = cell * q.shape().dims[j] + first;
  }
  if (one_cell) {
    counts[cell] += static_cast<double>(count);
    rng.discard(count * d);
    return;
  }
  place_uniform_points_one_by_one(q, counts, count, rng, coord, scratch);
}

}  // namespace dpclust::wavecluster
