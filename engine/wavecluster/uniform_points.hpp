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
                          Coord&& coord) {
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
  // The box straddles cells: each point's cell is found from its words (exactly the words of the definition,
  // one per coordinate, in its order). Along a dimension the cell is a monotone step function of the draw's
  // 53-bit integer i (u = i 2^-53), so it is the cell of u = 0 moved by the number of steps at or below i.
  // Each step's position is estimated (the coordinate is nearly affine in u) and bracketed by two exact
  // evaluations i_lo < i_hi around it: every draw outside all brackets gets its cell by comparing i with
  // them, a draw inside a bracket (probability about 2^-32 per step) is quantized as the definition does.
  // Both ways give the definition's cell, without its divisions for every point. More than kMaxSteps steps
  // along a dimension, or more than kMaxDims dimensions: the definition's loop.
  constexpr std::size_t kMaxSteps = 8, kMaxDims = 8;
  struct Steps {
    std::size_t first = 0;                       // the cell of u = 0
    bool up = true;                              // the cell grows with u
    std::size_t n = 0;                           // steps between the cells of u = 0 and u = kLargestUniform
    std::uint64_t lo[kMaxSteps], hi[kMaxSteps];  // i <= lo[k]: before step k; i >= hi[k]: past it
  };
  constexpr std::uint64_t kTop = (std::uint64_t{1} << 53) - 1;  // the largest i
  auto cell_at = [&](std::size_t j, std::uint64_t i) {
    return q.cell_1d(j, coord(j, static_cast<double>(i) * 0x1.0p-53));
  };
  const std::size_t* dims = q.shape().dims.data();
  Steps steps[kMaxDims];
  bool by_steps = d <= kMaxDims;
  for (std::size_t j = 0; j < d && by_steps; ++j) {
    Steps& st = steps[j];
    st.first = cell_at(j, 0);
    const std::size_t last = cell_at(j, kTop);
    st.up = last >= st.first;
    st.n = st.up ? last - st.first : st.first - last;
    if (st.n > kMaxSteps) {
      by_steps = false;
      break;
    }
    const double x0 = coord(j, 0.0), x1 = coord(j, kLargestUniform);
    const double width = (q.hi(j) - q.lo(j)) / static_cast<double>(dims[j]);
    for (std::size_t k = 0; k < st.n; ++k) {
      // Step k leads to the cell `target`; its border with the cell before lies at lo + edge * width.
      const std::size_t target = st.up ? st.first + 1 + k : st.first - 1 - k;
      const double edge = static_cast<double>(st.up ? target : target + 1);
      double u = (q.lo(j) + edge * width - x0) / (x1 - x0);
      if (!(u >= 0)) u = 0;  // also NaN
      if (u > 1) u = 1;
      const auto guess = static_cast<std::uint64_t>(u * static_cast<double>(kTop));
      auto before = [&](std::uint64_t i) {
        const std::size_t c = cell_at(j, i);
        return st.up ? c < target : c > target;
      };
      // The bracket: grown until it holds the step (i = 0 is before every step, kTop past every one).
      std::uint64_t half = std::uint64_t{1} << 20;
      for (;;) {
        const std::uint64_t lo = guess > half ? guess - half : 0, hi = kTop - guess > half ? guess + half : kTop;
        if ((lo == 0 || before(lo)) && (hi == kTop || !before(hi))) {
          st.lo[k] = lo;
          st.hi[k] = hi;
          break;
        }
        half <<= 8;
      }
    }
  }
  if (!by_steps) {  // the definition's loop, each coordinate quantized as it is drawn (q.cell_of's index)
    for (std::uint64_t t = 0; t < count; ++t) {
      std::size_t c = 0;
      for (std::size_t j = 0; j < d; ++j) c = c * dims[j] + q.cell_1d(j, coord(j, rng.uniform()));
      counts[c] += 1.0;
    }
    return;
  }
  for (std::uint64_t t = 0; t < count; ++t) {
    std::size_t c = 0;
    for (std::size_t j = 0; j < d; ++j) {
      const Steps& st = steps[j];
      const std::uint64_t i = rng.next_u64() >> 11;  // rng.uniform()'s 53 bits
      std::size_t passed = 0;
      bool inside = false;
      for (std::size_t k = 0; k < st.n; ++k) {
        passed += i >= st.hi[k];
        inside |= i > st.lo[k] && i < st.hi[k];
      }
      const std::size_t cj = inside ? cell_at(j, i) : st.up ? st.first + passed : st.first - passed;
      c = c * dims[j] + cj;
    }
    counts[c] += 1.0;
  }
}

}  // namespace dpclust::wavecluster
