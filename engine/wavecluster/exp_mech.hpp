#pragma once
// The exponential mechanism of PrivTHR_EM (arXiv Alg. 2 lines 7-15, Sec. 4.4; the noisy-quantile
// construction of Cormode et al. ICDE 2012 [10], after Smith 2011).
//
// Given the true positive values of W sorted descending, W_1 >= W_2 >= ... >= W_m, they split (0, Max]
// into m partitions Pt_i = (W_{i+1}, W_i] (W_{m+1} = 0) of rank i. Any x in Pt_i has rank i and
// quality q(x) = -|i - k|, of sensitivity Delta_q; the mechanism draws x with density proportional to
// exp(eps2 q(x) / (2 Delta_q)), i.e. chooses partition i with probability proportional to
//   |Pt_i| * exp(-eps2 |i - k| / (2 Delta_q))                        (Alg. 2 line 12)
// and then x uniformly inside it (line 13). Tied values give empty partitions, which are never chosen.
//
// Two implementations of lines 12-13 (param `threshold_output`):
//   lattice     (default) the released threshold is a point of a PUBLIC lattice: the multiples j s,
//               j = 1..N, of a power of two s = 2^(ceil(log2 U) - lattice_bits) inside the range (0, U]
//               (U = em_upper, or Max in the paper's reading), so every point is an exact double and the
//               set of possible outputs does not depend on the data (Ilvento 2020's first condition).
//               |Pt_i| becomes the number of lattice points in Pt_i, an integer; the partition is chosen
//               by the exact exponential mechanism (privacy/exponential.hpp: probabilities exactly
//               proportional to count * exp(-gamma |i - k|), Ilvento's second condition) and the point
//               uniformly among its lattice points by integer arithmetic. This is Alg. 2 with the uniform
//               density on (0, U] replaced by the uniform distribution on the lattice (the same up to a
//               spacing of U 2^-lattice_bits). `threshold_grid` = s is recorded in the diagnostics.
//   continuous  the paper's form, as dpclust released it before: d' = hi - u (hi - lo) in doubles and the
//               partition chosen by summing exp() of doubles. Which doubles can come out depends on the
//               private hi and lo (on DS2 and DS2 minus one record about 6% of the thresholds of one side
//               cannot occur on the other): NOT private (Mironov 2012), flagged non-private, kept so that
//               the reproduced figures can be compared and as the audit's broken fixture.
// The output range (0, Max] is the paper's: Max is the largest true value (see privthr_em.hpp).
// The ledger entry of the mechanism is recorded by its caller (privthr_em.cpp).
//
// The continuous form samples on log-weights log|Pt_i| - eps2 |i - k| / (2 Delta_q), shifted by their
// maximum before exponentiation, so neither a tiny eps2 nor a huge range overflows.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/rng.hpp"
#include "privacy/exponential.hpp"

namespace dpclust::wavecluster {

// log-weights of ranks 1..m (index i - 1) for ascending positive values `ascending` (m = size).
std::vector<double> em_log_weights(const std::vector<double>& ascending, std::size_t k, double eps2, double delta_q);
// The exact probabilities of ranks 1..m (for tests and diagnostics).
std::vector<double> em_probabilities(const std::vector<double>& ascending, std::size_t k, double eps2, double delta_q);
// Index drawn with probability proportional to exp(log_w[i]) by one uniform (inverse CDF).
std::size_t sample_log_weights(const std::vector<double>& log_w, Rng& rng);

struct EmThreshold {
  std::size_t rank = 0;  // k', the chosen rank i
  double threshold = 0;  // d', in Pt_i = (W_{i+1}, W_i]
  double grid = 0;       // the lattice spacing s (threshold_output: lattice), 0 for the continuous form
};

// The public lattice of thresholds in (0, upper]: spacing 2^exponent, points j 2^exponent, j = 1..points.
struct ThresholdLattice {
  double upper = 0;
  int exponent = 0;          // s = 2^exponent = 2^(ceil(log2 upper) - bits)
  std::uint64_t points = 0;  // N = floor(upper / s), in (2^(bits-1), 2^bits] (2^bits exactly when upper = 2^k)
  double spacing() const;
  // floor(min(x, upper) / s) for x >= 0: the number of lattice points in (0, x] (exact: s is a power of two).
  std::uint64_t points_up_to(double x) const;
  double point(std::uint64_t j) const;  // j s, exact
};
// upper finite and > 0, 1 <= bits <= 40 (std::invalid_argument otherwise).
ThresholdLattice threshold_lattice(double upper, int bits);

// Alg. 2 lines 12-13 on the lattice. `ascending` positive, sorted ascending (non-empty unless public_top);
// values above lattice.upper count as upper. public_top: the range is public and the top partition
// (W_1, upper] of rank 0 (no value at or above the threshold) joins the choice -- with no value at all it
// is the whole range, so the draw is uniform on the lattice; otherwise upper is Max itself (the paper)
// and ranks run from 1. The mechanism's noise scale and budget are in `em`.
EmThreshold em_threshold_lattice(const std::vector<double>& ascending, std::size_t k,
                                 const privacy::ExponentialMechanism& em, const ThresholdLattice& lattice,
                                 bool public_top, Rng& rng);

// The continuous form (threshold_output: continuous; NOT floating-point safe, see above).
// upper <= 0: the paper's range (0, Max], Max the largest true value (data-dependent).
// upper > 0: a public range (0, upper]: values above it are clamped to it, and the top partition
// (W_1, upper] of rank 0 joins the choice.
// eps2 = +infinity (the ledger's noise_scale 0, privthr_em.cpp) is the noiseless limit: the non-empty
// partition nearest rank k (the higher threshold on a tie of distances) with certainty, d' still
// uniform inside it.
EmThreshold em_threshold_continuous(const std::vector<double>& ascending, std::size_t k, double eps2, double delta_q,
                                    Rng& rng, double upper = 0.0);

}  // namespace dpclust::wavecluster
