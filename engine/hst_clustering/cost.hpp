#pragma once
// What one trial of hst_clustering costs, from its parameters and the dataset's shape (never the data):
// MethodInfo::cost (core/trial_cost.hpp), from the bound below.
#include "core/params.hpp"
#include "core/trial_cost.hpp"

namespace dpclust::hst {

struct TrialCostEstimate {
  double memory = 0;  // bytes: an upper bound on the trial's peak (below)
  double work = 0;    // basic operations
  // The bounds the memory is built from (public: functions of n, d, L, k and the calibration).
  double threshold = 0;        // tau, as the trial calibrates it (the exact variant's: the lower of the two)
  double cells_per_level = 0;  // released cells a level, at most
  double tree_nodes = 0;       // root, released cells and empty siblings, at most
  double cost_entries = 0;     // doubles in the dynamic program's table, at most
};

// n points of d dimensions. The bound holds for any data, with the noise's own high probability:
//   - released cells a level: disjoint occupied cells, so at most min(2^t, n); each has a noisy count >= tau,
//     so at most 2n / tau of them hold tau / 2 points or more, and one holding fewer is released only when its
//     noise reaches tau / 2 (probability p = Pr[Z >= tau / 2], of at most twice the previous level's cells):
//     at most 2n / (tau (1 - 2p)) a level (every occupied cell, n, when 2p >= 1). The same bounds the released
//     leaves, which are disjoint cells too. Data made of n / tau groups of duplicate points reach it: each group
//     is a chain of released cells down all L d levels.
//   - tree nodes: the root, the released cells, and at most one empty sibling each;
//   - the dynamic program keeps min(k, a) + 1 costs a node, a its leaves of nonzero weight (tree_solution.hpp),
//     and each released leaf counts at its at most 1 + L d ancestors: at most nodes + min(k nodes, leaves (1 + L d));
//   - memory: the points' working copy (n d doubles, reordered cell by cell), the labels and their distances, the
//     nodes (3 times their size: a vector's old and new buffers while it doubles), the program's three index
//     arrays and its costs, and two levels' frontiers (a frame and a box of 2 d doubles a cell, twice for growth).
// Work: one pass of the points a level, the dynamic program (k^2 a node at most) and every point's nearest
// centre (n k d).
TrialCostEstimate trial_cost_bound(const ParamSet& p, double n, double d);
// The bound's memory and work, as the cost model counts them for every method.
TrialCost trial_cost(const CostInputs& in);

}  // namespace dpclust::hst
