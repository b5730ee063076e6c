#pragma once
// The label-publishing baseline that Sec. 8.1 dismisses (the methods of its refs [29, 38, 42, 43]):
// perturb the pairwise distance matrix with Laplace noise, clamp each entry to [0, D] (D = diameter of
// the public domain), and run DBSCAN (scikit-learn semantics, metric='precomputed') on it; the point
// labels are the release. `border` says whether border points join a cluster (scikit-learn) or stay
// noise (the paper's Sec. 2 definition, which its Table 2 uses for exact DBSCAN; cluster/dbscan/dbscan.hpp). The paper
// reports ARI = AMI = 0 for it on every dataset.
//
// Neighbouring relation: replace-one (bounded DP; NeighbourRelation::replace_one in its MethodInfo, so
// the runner's ledger and every entry carry it). The released object is an n x n matrix: its shape is n,
// so it is only comparable between datasets of the same size, and the baselines' sensitivity argument
// ("one point enters n - 1 distances") is the one of changing a point. Under bounded DP n is public, so
// using the true n in the sensitivity is consistent. The function refuses a ledger of another relation.
//
// Sensitivity: changing one point changes its n - 1 distances, each in [0, D] (the points are clamped
// into the public domain first), so the L1 sensitivity of the matrix is (n - 1) D and every entry gets
// Laplace((n - 1) D / eps) ("matrix", the default, eps-DP). The papers being reproduced state the
// sensitivity of one distance, D ("entry"): that is not eps-DP for the matrix, and the method flags its
// output as non-private in that case.
//
// Noise: one privacy::RealMechanism (one ledger entry for the whole matrix). secure: the snapping
// mechanism with the public bound B = max(D, 4 lambda0) (lambda0 = sensitivity / eps; Mironov's theorem
// needs lambda < B, and any B >= D keeps every distance unclamped), capped below 2^45 lambda0; textbook:
// continuous Laplace. The noisy entry is then clamped to [0, D] (post-processing).
//
// Cost: n (n - 1) / 2 draws and an n x n bit matrix, so it refuses n > max_n (default 20,000).
#include <cstddef>
#include <cstdint>

#include "cluster/dbscan/dbscan.hpp"
#include "core/dataset.hpp"
#include "core/ledger.hpp"
#include "core/rng.hpp"
#include "privacy/mechanism.hpp"

namespace dpclust::dpdbscan {

struct PairwiseOptions {
  double alpha = 0;
  std::int64_t min_pts = 1;
  double epsilon = 1.0;
  bool per_entry_sensitivity = false;
  BorderRule border = BorderRule::assign;
  privacy::Sampler sampler = privacy::Sampler::secure;
  std::size_t max_n = 20000;
};

struct PairwiseResult {
  Labels labels;
  std::size_t clusters = 0;
  std::size_t core_points = 0;
  double diameter = 0;
  double sensitivity = 0;  // as calibrated: (n - 1) D, or D per entry
  double noise_scale = 0;  // sensitivity / eps (the Laplace scale before snapping)
};

PairwiseResult pairwise_noisy_dbscan(const double* coords, std::size_t n, const Bounds& bounds,
                                     const PairwiseOptions& options, Rng& rng, BudgetLedger& ledger);

}  // namespace dpclust::dpdbscan
