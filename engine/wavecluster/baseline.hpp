#pragma once
// Baseline (Chen, Yu, Chirkova, arXiv Sec. 4.1, algorithm "Baseline"), in one place:
//
//   line 2   D' = DiffPrivPublishing(D, eps)           synopsis.hpp (synthetic_counts): Qardaji et al.'s
//                                                      adaptive grid (or uniform grid), noisy N, synthetic
//                                                      points; the only data access, 2-3 ledger entries.
//                                                      ag_variant: flat_origin: the authors' flat_origin.py
//                                                      grid instead (flat_origin.hpp; 2 entries, flagged)
//   line 3   M' = Quantization(D', g)                  synopsis.hpp (the synthetic points are quantized
//                                                      into WaveCluster's g-grid as they are drawn)
//   line 4   W' = WaveletTransform(M', w)              wavelet.hpp (approximation)
//   line 5   L' = ConvertToPosSortedArray(W')          wavecluster.hpp (positive_sorted)
//   line 6   k' = ceil((1 - p) |L'|)                   wavecluster.hpp (top_k_count)
//   line 7   d' = Top(k', L')                          wavecluster.hpp (significant_top_k -> select_top_k)
//   line 8   return ConnCompLabel(W', d')              wavecluster.hpp (connected_components)
//
// Everything after line 2 is post-processing of the synopsis. Released besides the cells: the
// synopsis sizes (noisy N, m1, leaves, synthetic points), all functions of the noisy counts. The true
// k, |L|, |Z| of the data's own grid are computed for evaluation only.
#include "core/dataset.hpp"
#include "core/ledger.hpp"
#include "core/rng.hpp"
#include "privacy/mechanism.hpp"
#include "wavecluster/synopsis.hpp"
#include "wavecluster/wavecluster.hpp"

namespace dpclust::wavecluster {

struct BaselineOptions {
  double epsilon = 1.0;
  SynopsisOptions synopsis;  // its sampler and sensitivity are set from the ledger and the method's parameters
};

// Baseline on `data` (whose bounds are the public domain), spending options.epsilon in `ledger`.
// release_extra["synopsis"] holds the synopsis sizes and whether the true N was used (n_share = 0).
// `known_counts` (count_matrix, wavecluster.hpp) serves only the evaluation-only true statistics: the
// synopsis reads the points.
WaveClusterOutput baseline(const Dataset& data, const WcParams& params, const BaselineOptions& options, Rng& rng,
                           BudgetLedger& ledger, const std::vector<double>* known_counts = nullptr);

}  // namespace dpclust::wavecluster
