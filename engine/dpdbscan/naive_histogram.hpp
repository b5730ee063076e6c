#pragma once
// The naive DP histogram of Alg. 1 line 5 (Qiu & Yi, Theorem 2.8 / Sec. 5.1): every one of the |X|
// cells noised. O(|X|) time and memory; dense counts only.
//
//   Thm 2.8            x~_i = x_i + Z_i for all i in X        naive_histogram (the loop over the blocks)
//   Z_i                the histogram's privacy::CountMechanism (noise.hpp: laplace / geometric = discrete
//                      Laplace, gaussian), one ledger entry for all |X| disjoint counts, recorded by
//                      whoever built the mechanism (dp_dbscan.cpp)
//
// rng: numpy (the authors' stream, issue 16): one RandomState draw per cell in code order, 0 .. |X|-1,
// sequentially -- exactly the authors' `noise_gen.generate(num_grids)` over their row-major cell keys
// (their key = sum_j coord_j * prod_{i>j} cells_i, our code) -- then x~_i = x_i + Z_i.
//
// Secure sampler: every x~_i is an integer. The cells are noised in blocks of kNoiseBlock codes, block b
// from its own generator seeded by the b-th 64-bit draw of the trial's Rng, so the blocks can be
// filled in parallel and the histogram does not depend on the thread count.
#include <cstdint>

#include "core/numpy_random.hpp"
#include "core/rng.hpp"
#include "dpdbscan/histogram.hpp"
#include "privacy/mechanism.hpp"

namespace dpclust::dpdbscan {

inline constexpr std::uint64_t kNoiseBlock = std::uint64_t{1} << 16;

NoisyHistogram naive_histogram(const CellCounts& counts, const privacy::CountMechanism& mechanism, Rng& rng);
NoisyHistogram naive_histogram(const CellCounts& counts, const privacy::CountMechanism& mechanism, NumpyRandomState& numpy);

}  // namespace dpclust::dpdbscan
