#pragma once
// PrivTHR_EM (Chen, Yu, Chirkova, KDD/arXiv Algorithm 2, Sec. 4.4), in one place:
//
//   line 2   M' = PrivQuantization(D, g, rho eps)            privqt.hpp (private_quantization): ledger entry 1
//   line 3   W' = WaveletTransform(M', w)                    wavelet.hpp (approximation)
//   line 4   d' = NoisyThresholdByEM(D, g, w, p, (1-rho) eps) noisy_threshold_by_em (below): ledger entry 2
//   line 5   return ConnCompLabel(W', d')                    wavecluster.hpp (select_above: values of W'
//                                                            greater than d'; connected_components)
//  NoisyThresholdByEM:
//   line 8   M = Quantization(D, g)                          grid.hpp (Quantizer::counts)
//   line 9   W = WaveletTransform(M, w)                      wavelet.hpp (approximation)
//   line 10  L = ConvertToPosSortedArray(W) (Min, Max)       wavecluster.hpp (positive_sorted)
//   line 11  k = ceil((1 - p) |L|)                           wavecluster.hpp (top_k_count)
//   line 12  k' = ExponentialMechanism(L, k, eps)            exp_mech.hpp (em_threshold): quality
//                                                            -|rank - k|, sensitivity Delta_q = 1 for Haar
//                                                            (paper), from the filter otherwise (wavelet.hpp);
//                                                            recorded with privacy::charge ("exponential")
//   line 13  d' = UniformRandom(L, k')                       exp_mech.hpp (em_threshold)
//
// Budget (Sec. 4.4): eps1 = rho eps on the counts, eps2 = (1 - rho) eps on the threshold; rho = 0.7.
//
// The output range (0, Max] of line 12 uses the true maximum, as line 10 defines it; a strict
// exponential mechanism needs a data-independent range. By default we follow the paper and flag the
// result non-private (WaveClusterOutput::range_from_data); em_upper > 0 gives the public range
// (0, em_upper] instead (exp_mech.hpp).
//
// Testable noise: the exponential mechanism's sampler lives in exp_mech.*, outside engine/privacy, so
// the ledger's noise_scale f is applied here: the mechanism runs at eps2 / f (f = 0: the noiseless
// limit, the partition of rank k itself).
#include <cstddef>
#include <vector>

#include "core/dataset.hpp"
#include "core/ledger.hpp"
#include "core/rng.hpp"
#include "privacy/mechanism.hpp"
#include "wavecluster/exp_mech.hpp"
#include "wavecluster/wavecluster.hpp"

namespace dpclust::wavecluster {

struct PrivThrEmOptions {
  double epsilon = 1.0;
  double rho = 0.7;       // share of epsilon on the noisy counts (line 2); the rest on the threshold (line 4)
  double em_upper = 0.0;  // > 0: public threshold range (0, em_upper]; 0: the paper's (0, Max] (flagged)
  privacy::Sampler sampler = privacy::Sampler::secure;
};

// PrivTHR_EM on `data` (whose bounds are the public domain), spending options.epsilon in `ledger`.
WaveClusterOutput privthr_em(const Dataset& data, const WcParams& params, const PrivThrEmOptions& options, Rng& rng,
                             BudgetLedger& ledger);

// NoisyThresholdByEM, lines 10-13, on the true W (lines 8-9): records one ledger entry of eps2. `k`
// receives the true k of line 11 (evaluation only). When W has no positive value the threshold is 0
// and the rank 0 (nothing to choose from; the budget is still recorded).
EmThreshold noisy_threshold_by_em(const std::vector<double>& w, double p, double eps2, double delta_q, double em_upper, Rng& rng,
                                  BudgetLedger& ledger, std::size_t& k);

}  // namespace dpclust::wavecluster
