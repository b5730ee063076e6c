#pragma once
// PrivQT, Private Quantization (Chen, Yu, Chirkova, arXiv Sec. 4.2, algorithm "PrivQT"), in one place:
//
//   line 2   M' = PrivQuantization(D, g, eps)     private_quantization (below): the only data access,
//                                                  one CountMechanism::laplace entry in the ledger
//   line 3   W' = WaveletTransform(M', w)          wavelet.hpp (approximation)
//   line 4   L' = ConvertToPosSortedArray(W')      wavecluster.hpp (positive_sorted)
//   line 5   k' = ceil((1 - p) |L'|)               wavecluster.hpp (top_k_count)
//   line 6   d' = Top(k', L')                      wavecluster.hpp (significant_top_k -> select_top_k)
//   line 7   return ConnCompLabel(W', d')          wavecluster.hpp (connected_components)
//
// Everything after line 2 is post-processing of M'. PrivQuantization is shared with PrivTHR (Alg. 1
// line 2) and PrivTHR_EM (Alg. 2 line 2).
//
// Privacy: neighbouring datasets differ by one record added or removed (the paper's Sec. 4.2: "at most
// one change in one entry of M"), so the count matrix of the whole public grid has L1 sensitivity 1
// and costs its eps once (the cells are disjoint: parallel composition). Under replace-one neighbours
// two cells change, and every sensitivity of this folder doubles (neighbour_factor). The noise is the
// sampler's (privacy::Sampler): discrete Laplace(1/eps) on the integer counts by default, the paper's
// continuous Laplace with `sampler: textbook`.
//
// The true k, |L| and |Z| of the same grid are computed for evaluation only (WaveClusterOutput's
// evaluation part); they are never released.
#include <string>
#include <vector>

#include "core/dataset.hpp"
#include "core/ledger.hpp"
#include "core/rng.hpp"
#include "privacy/mechanism.hpp"
#include "wavecluster/wavecluster.hpp"

namespace dpclust::wavecluster {

// How many add/remove steps one neighbouring change is: 1 (add_remove), 2 (replace_one). Every
// sensitivity of the WaveCluster mechanisms is the add/remove one times this factor.
double neighbour_factor(const BudgetLedger& ledger);

// PrivQuantization: M' = M + noise on EVERY cell of the public grid, empty ones included.
struct PrivQuantization {
  std::vector<double> noisy;          // M'
  privacy::CountMechanism mechanism;  // the noise drawn (PrivTHR's line 6 needs its distribution)
};
// release_counts: M' in out.release_extra["noisy_counts"] (row-major over the grid, last dimension fastest).
void release_noisy_counts(const WcParams& params, const PrivQuantization& noisy, WaveClusterOutput& out);

// `counts` is the true count matrix M of the public grid. Records one ledger entry named `step`.
PrivQuantization private_quantization(const std::vector<double>& counts, double epsilon, privacy::Sampler sampler,
                                      Rng& rng, BudgetLedger& ledger, std::string step);

// PrivQT on `data` (whose bounds are the public domain), spending `epsilon` in `ledger`. `known_counts`:
// data's count matrix when the caller holds it (count_matrix, wavecluster.hpp); the points are then not read.
WaveClusterOutput privqt(const Dataset& data, const WcParams& params, double epsilon, privacy::Sampler sampler,
                         Rng& rng, BudgetLedger& ledger, const std::vector<double>* known_counts = nullptr);

}  // namespace dpclust::wavecluster
