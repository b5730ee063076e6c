#pragma once
// The label-publishing baseline that Sec. 8.1 dismisses (the methods of its refs [29, 38, 42, 43]):
// perturb the pairwise distance matrix with Laplace noise, clamp each entry to [0, D] (D = diameter of
// the public domain), and run DBSCAN (scikit-learn semantics, metric='precomputed') on it; the point
// labels are the release. The paper reports ARI = AMI = 0 for it on every dataset.
//
// Sensitivity: one point enters n - 1 distances, each in [0, D], so the L1 sensitivity of the matrix is
// (n - 1) D and every entry gets Lap((n - 1) D / eps) ("matrix", the default, eps-DP). The papers
// being reproduced state the sensitivity of one distance, D ("entry"): that is not eps-DP for the
// matrix, and the method flags its output as non-private in that case.
//
// Cost: n (n - 1) / 2 Laplace draws and an n x n bit matrix, so it refuses n > max_n (default 20,000).
#include <cstddef>
#include <cstdint>

#include "core/dataset.hpp"
#include "core/ledger.hpp"
#include "core/rng.hpp"

namespace dpclust::dpdbscan {

struct PairwiseOptions {
  double alpha = 0;
  std::int64_t min_pts = 1;
  double epsilon = 1.0;
  bool per_entry_sensitivity = false;
  std::size_t max_n = 20000;
};

struct PairwiseResult {
  Labels labels;
  std::size_t clusters = 0;
  std::size_t core_points = 0;
  double diameter = 0;
  double noise_scale = 0;
};

PairwiseResult pairwise_noisy_dbscan(const double* coords, std::size_t n, const Bounds& bounds, const PairwiseOptions& options,
                                     Rng& rng, BudgetLedger* ledger);

}  // namespace dpclust::dpdbscan
