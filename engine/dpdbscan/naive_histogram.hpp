#pragma once
// The naive DP histogram of Alg. 1 line 5 (Qiu & Yi, Theorem 2.8 / Sec. 5.1): every one of the |X|
// cells noised. O(|X|) time and memory; dense counts only.
//
//   Thm 2.8            x~_i = x_i + Z_i for all i in X        naive_histogram (the loop over the blocks)
//   Z_i                the histogram's privacy::CountMechanism (noise.hpp: laplace / geometric = discrete
//                      Laplace, gaussian), one ledger entry for all |X| disjoint counts, recorded by
//                      whoever built the mechanism (dp_dbscan.cpp)
//
// rng: numpy (the authors' stream): one RandomState draw per cell in code order, 0 .. |X|-1,
// sequentially -- exactly the authors' `noise_gen.generate(num_grids)` over their row-major cell keys
// (their key = sum_j coord_j * prod_{i>j} cells_i, our code) -- then x~_i = x_i + Z_i.
//
// rng: dpclust: Z_i is drawn from the ChaCha20 stream addressed by cell i (core/cell_streams.hpp; keyed
// per trial, from the OS in secure mode), so x~_i is a function of the key and i alone: the cells are
// filled in parallel chunks with the same result on any thread count, and the linear-time histogram
// (linear_histogram.hpp) noises an occupied cell with exactly the noise the naive one gives it. Secure
// sampler: every x~_i is an integer.
#include <cstdint>

#include "core/cell_streams.hpp"
#include "core/numpy_random.hpp"
#include "core/rng.hpp"
#include "dpdbscan/histogram.hpp"
#include "privacy/mechanism.hpp"

namespace dpclust::dpdbscan {

// The lane of the cell streams both histograms draw their cells' noise from (core/cell_streams.hpp).
inline constexpr std::uint32_t kHistogramNoiseLane = 1;
// Cells per parallel chunk of the naive histogram (each chunk has its own cursor).
inline constexpr std::uint64_t kNoiseChunk = std::uint64_t{1} << 16;

NoisyHistogram naive_histogram(const CellCounts& counts, const privacy::CountMechanism& mechanism,
                               const CellStreams& noise);
NoisyHistogram naive_histogram(const CellCounts& counts, const privacy::CountMechanism& mechanism,
                               NumpyRandomState& numpy);

}  // namespace dpclust::dpdbscan
