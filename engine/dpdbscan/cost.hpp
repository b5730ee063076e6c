#pragma once
// The DP-DBSCAN reproduction's costs (core/trial_cost.hpp), n points in d dimensions:
//   dp_dbscan           dense storage (the naive histogram, or a small grid): 24 |X| bytes over the |X| cells of the
//                       grid, work kappa |X| (+ 50 |X| for the naive noise); sparse (the linear-time histogram):
//                       R ~ 2n released cells, ~56 n + R (8 d + 96) bytes plus one group of the bounded neighbourhood
//                       sums (<= 2^21 pairs), work 10 R kappa (every released cell reaches its kappa neighbours: 1.3
//                       million each in 8-D at eta = 4); 12 d kappa bytes of offsets
//   dp_kmeans           as kmeans with T = iterations (7 when automatic)
//   dp_dbscan_pairwise  n^2 / 8 bytes (adjacency bits) + 48 n; work 2 n^2 d
// bench/dpdbscan_memory.py measures dp_dbscan's peak memory against this model.
#include <cstddef>

#include "core/dataset.hpp"
#include "core/trial_cost.hpp"

namespace dpclust::dpdbscan {

// dp_dbscan's sizes for n points in d dimensions (bounds empty when unknown).
struct DpDbscanCost {
  double memory = 0, work = 0;
  double universe = -1;  // |X|, -1 when the bounds are not known
  double kappa = 0, released = 0, pairs = 0;
  bool dense = false, naive = false;
};
DpDbscanCost dp_dbscan_cost(const ParamSet& params, double n, std::size_t d, const Bounds& bounds);

TrialCost dp_dbscan_trial_cost(const CostInputs& in);
// What a refusal says of dp_dbscan's grid, and the storage, histogram and eta that make a trial fit or go faster.
CostAdvice dp_dbscan_cost_advice(const CostInputs& in);
TrialCost dp_kmeans_trial_cost(const CostInputs& in);
TrialCost pairwise_trial_cost(const CostInputs& in);

}  // namespace dpclust::dpdbscan
