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
// The output range (0, Max] is the paper's: Max is the largest true value (see privthr_em.hpp).
// The ledger entry of the mechanism is recorded by its caller with privacy::charge (privthr_em.cpp).
//
// Sampling is done on log-weights log|Pt_i| - eps2 |i - k| / (2 Delta_q), shifted by their maximum
// before exponentiation, so neither a tiny eps2 (all weights ~ |Pt_i|) nor a huge range or budget
// (weights spanning thousands of orders of magnitude) overflows or turns every weight into 0: the
// largest weight is exactly 1 and anything below e^-745 relative to it has probability < 1e-300.
#include <cstddef>
#include <vector>

#include "core/rng.hpp"

namespace dpclust::wavecluster {

// log-weights of ranks 1..m (index i - 1) for ascending positive values `ascending` (m = size).
std::vector<double> em_log_weights(const std::vector<double>& ascending, std::size_t k, double eps2, double delta_q);
// The exact probabilities of ranks 1..m (for tests and diagnostics).
std::vector<double> em_probabilities(const std::vector<double>& ascending, std::size_t k, double eps2, double delta_q);
// Index drawn with probability proportional to exp(log_w[i]) by one uniform (inverse CDF).
std::size_t sample_log_weights(const std::vector<double>& log_w, Rng& rng);

struct EmThreshold {
  std::size_t rank = 0;  // k', the chosen rank i
  double threshold = 0;  // d', uniform in Pt_i = (W_{i+1}, W_i]
};
// Alg. 2 lines 12-13. `ascending` must be non-empty, positive and sorted ascending.
// upper <= 0: the paper's range (0, Max], Max the largest true value (data-dependent).
// upper > 0: a public range (0, upper]: values above it are clamped to it, and the top partition
// (W_1, upper] of rank 0 (no value at or above the threshold) joins the choice, so the output range no
// longer depends on the data and the mechanism is eps2-DP in the usual noisy-quantile sense.
// eps2 = +infinity (the ledger's noise_scale 0, privthr_em.cpp) is the noiseless limit: the non-empty
// partition nearest rank k (the higher threshold on a tie of distances) with certainty, d' still
// uniform inside it.
EmThreshold em_threshold(const std::vector<double>& ascending, std::size_t k, double eps2, double delta_q, Rng& rng,
                         double upper = 0.0);

}  // namespace dpclust::wavecluster
