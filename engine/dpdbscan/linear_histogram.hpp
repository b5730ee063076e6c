#pragma once
// Algorithm 2 of Qiu & Yi, "Linear Time DP Histogram" (Sec. 6, Theorem 6.1), line by line:
//
//   line 3       H <- {}                                          linear_histogram (dense: |X| zeros;
//                                                                 sparse: empty lists)
//   lines 4-7    for (i, x_i) in F: x~_i = x_i + Z, kept when     the loop over the occupied cells
//                x~_i >= theta                                    (ascending code), mechanism.noisy with
//                                                                 Z from cell i's stream (cell_streams.hpp)
//   line 8       M = |X - F|, p = Pr[Z >= theta]                  mechanism.tail_probability(theta)
//   line 9       m ~ Bin(M, p)                                    mechanism.count_at_least(M, theta)
//   line 10      m cells of X - F without replacement             uniform codes, redrawn when occupied or
//                                                                 already drawn: a simple random sample
//   lines 11-13  x^_j ~ Z | Z >= theta                            mechanism.draw_tail(theta)
//   line 14      output H                                         sparse: occupied and sampled lists
//                                                                 merged in ascending code order
//
// Z is the histogram's privacy::CountMechanism (noise.hpp); the paper writes Lap(1/eps). With the
// secure sampler Z is integer-valued (discrete Laplace / discrete Gaussian) and so is every released
// value: an occupied cell releases count + Z when that is >= theta, i.e. >= ceil(theta), and a sampled
// empty cell releases Z | Z >= ceil(theta) -- for a cell of count 0 both branches have the same law,
// Pr[released = z] = Pr[Z = z] for z >= ceil(theta), which is Theorem 6.1's equivalence with the naive
// histogram truncated below theta (tests/dpdbscan/histogram_test.cpp checks it on the integers).
//
// theta = 0 is run as the smallest positive theta: a cell released with value 0 and a cell not released
// are the same release (both count 0 in every neighbourhood sum), and draw_tail needs theta > 0.
// Expected O(n) time when theta >= ln(|X|/n)/eps' (Thm 6.1). Storage: see histogram.hpp; dense and
// sparse consume the random stream identically (noise in ascending code order of the occupied cells,
// then the same rejection draws). The occupied cells' noise comes from their cell streams (`noise`, the
// streams the naive histogram uses: cell by cell the same noise); lines 8-13 draw from the trial's `rng`
// (in secure mode ChaCha20 keyed from the OS, like the cell streams).
//
// Line 9's binomial is exact with the secure sampler: the M empty cells are scanned by geometric skips to
// candidates (each a candidate with probability c >= p) and a candidate counts with probability p / c,
// decided by comparing a uniform with MPFR bounds of p / c computed from the noise's rational parameter
// (privacy/exact_binomial.hpp): m ~ Bin(M, p) exactly, in expected time linear in m (M may be 2^64). No
// floating-point number decides m, and Pr[Z >= theta] is the one the cells' own draws have. With the
// textbook sampler it is Boost.Random's binomial on doubles (BTRD), like the rest of that sampler.
#include "core/cell_streams.hpp"
#include "core/rng.hpp"
#include "dpdbscan/histogram.hpp"
#include "privacy/mechanism.hpp"

namespace dpclust::dpdbscan {

// theta >= 0 and finite (std::invalid_argument otherwise).
NoisyHistogram linear_histogram(const CellCounts& counts, const privacy::CountMechanism& mechanism, double theta,
                                const CellStreams& noise, Rng& rng);

}  // namespace dpclust::dpdbscan
