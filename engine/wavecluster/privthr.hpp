#pragma once
// PrivTHR (Chen, Yu, Chirkova, KDD/arXiv Algorithm 1, Sec. 4.3), in one place:
//
//   line 2   M' = PrivQuantization(D, g, rho eps)     privqt.hpp (private_quantization): ledger entry 1
//   line 3   W' = WaveletTransform(M', w)             wavelet.hpp (approximation)
//   line 4   L' = ConvertToPosSortedArray(W')         wavecluster.hpp (positive_sorted)
//   line 5   |Z|' = NoisyZero(D, g, w, (1-rho) eps)   noisy_zero (below): ledger entry 2
//   line 6   L'' = RemoveFrom(L', 0, |Z|'/2)          privthr.cpp: drops round(r |Z|') smallest values,
//                                                     r = zero_turns_positive (below; 1/2 for the paper)
//   line 7   k' = ceil((1 - p) |L''|)                 wavecluster.hpp (top_k_count)
//   line 8   d' = Top(k', L'')                        wavecluster.hpp (significant_top_k -> select_top_k)
//   line 9   return ConnCompLabel(W', d')             wavecluster.hpp (connected_components)
//  NoisyZero:
//   line 12  M = Quantization(D, g)                   grid.hpp (Quantizer::counts)
//   line 13  W = WaveletTransform(M, w)               wavelet.hpp (approximation)
//   line 14  |Z| = CountOfNonPos(W)                   noisy_zero
//   line 15  |Z|' = |Z| + Lap(S_Z / eps)              noisy_zero: CountMechanism::laplace, S_Z = 1 for Haar
//                                                     (paper), from the filter otherwise (wavelet.hpp)
//
// Budget (Sec. 4.3, Sec. 7 "budget allocation"): eps1 = rho eps on the counts, eps2 = (1 - rho) eps on
// |Z|; rho = 0.9 by default. Sequential composition: the ledger holds the two entries.
//
// Line 6 and the noise actually drawn. The paper removes |Z|'/2 values because "approximately |Z|/2
// non-positive values in W are turned into positive values due to the randomness of Laplacian noise":
// 1/2 is Pr[noise > 0] of a continuous symmetric noise. We remove round(r |Z|') values with
// r = Pr[a value of W that is exactly 0 is positive in W'], the same reasoning for the noise drawn:
//   textbook sampler (continuous Laplace)  r = 1/2 exactly: the paper's line 6, bit for bit;
//   secure sampler (discrete Laplace)      r = (1 - Pr[S = 0]) / 2 < 1/2, S the integer-weighted sum
//                                          of discrete Laplace noises behind one value of W' (a noisy
//                                          count can be exactly 0, so fewer zeros turn positive);
//   no noise (ledger noise_scale 0)        r = 0, so PrivTHR equals WaveCluster, as the paper says of
//                                          eps -> infinity.
// r depends only on the public parameters (eps1, sampler, wavelet, level, d), so line 6 stays
// post-processing. |Z|'/2 with the discrete sampler would remove about |Z| (1/2 - r) true positive
// values too many (DS2 at eps = 1, eps1 = 0.9: r = 0.425, about 18 of k = 144).
#include <cstddef>

#include "core/dataset.hpp"
#include "core/ledger.hpp"
#include "core/rng.hpp"
#include "privacy/mechanism.hpp"
#include "wavecluster/wavecluster.hpp"

namespace dpclust::wavecluster {

struct PrivThrOptions {
  double epsilon = 1.0;
  double rho = 0.9;  // share of epsilon on the noisy counts (line 2); the rest on |Z| (line 5)
  privacy::Sampler sampler = privacy::Sampler::secure;
};

// PrivTHR on `data` (whose bounds are the public domain), spending options.epsilon in `ledger`.
// `known_counts`: data's count matrix when the caller holds it (count_matrix, wavecluster.hpp).
WaveClusterOutput privthr(const Dataset& data, const WcParams& params, const PrivThrOptions& options, Rng& rng,
                          BudgetLedger& ledger, const std::vector<double>* known_counts = nullptr);

// NoisyZero, lines 14-15: |Z|' = |Z| + noise of L1 sensitivity s_z (one ledger entry). `w` is the
// true W (lines 12-13).
double noisy_zero(const std::vector<double>& w, double s_z, double epsilon, privacy::Sampler sampler, Rng& rng,
                  BudgetLedger& ledger, std::string note);

// r of line 6: Pr[W' > 0 at a cell where W = 0] when M' = M + the noise of `counts` scaled by
// `noise_scale` (the ledger's), for the transform `spec` of a d-dimensional grid (interior cells: the
// full filter support). See the header comment.
double zero_turns_positive(const privacy::CountMechanism& counts, double noise_scale, const WaveletSpec& spec,
                           std::size_t d);

}  // namespace dpclust::wavecluster
