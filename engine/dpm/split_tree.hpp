#pragma once
// DPM's recursive separation (reference: DPM._build_clustering, dpm.py of
// UzL-PrivSec/dp-mondrian-clustering): a binary tree of axis-aligned splits, at most L = 7 levels deep.
//
//   node(P, level, N)                       N = the node's released noisy count
//     level >= L                  -> leaf (P, N)
//     choose a separator (dim, c) by the exponential mechanism over the candidates' scores, at the
//       level's split budget, with min(N, N'), N' = max(N + ln(2 delta_c) / eps_c(level), 1) the count
//       lower bound, in the sensitivity (separator_search.hpp, split_score_sensitivity)
//     P0 = {x in P : x_dim > c}, P1 = {x in P : x_dim <= c}
//     N0, N1 = noisy counts of P0, P1 at the level below's count budget (drawn in that order)
//     N0 <= limit or N1 <= limit  -> leaf (P, N): the split is dropped, its children's counts discarded
//     else                           node(P0, level + 1, N0); node(P1, level + 1, N1)
//   limit = N_root / 2^L
// Leaves are listed in the reference's depth-first order (the ">" child first).
//
// Privacy: the nodes of one level hold disjoint points, so one level's choices are one exponential
// mechanism release under parallel composition, and one level's counts one Laplace release; the
// mechanisms are built per level by dpm.cpp (their ledger entries) and only used here. Every count of a
// level is drawn, used or not, from the level's mechanism; no decision here looks at true counts.
// Work: one pass over a node's points per dimension for the scores and one stable partition per split:
// O(n d L) in all, no allocation per point (the index order is partitioned in place).
#include <cstdint>
#include <string>
#include <vector>

#include "core/rng.hpp"
#include "dpm/separator_search.hpp"
#include "privacy/exponential.hpp"
#include "privacy/mechanism.hpp"

namespace dpclust::dpm {

// The per-level mechanisms and budgets (built with their ledger entries by dpm.cpp).
struct LevelMechanisms {
  std::vector<privacy::CountMechanism> counts;       // levels 0..L (0: the root)
  std::vector<double> count_epsilon;                 // levels 0..L
  std::vector<privacy::ExponentialMechanism> exact;  // levels 0..L-1 (secure sampler only)
  std::vector<double> split_epsilon;                 // levels 0..L-1
  double delta_count = 0;                            // delta_c of the count lower bound N'
  double noise_scale = 1;                            // the ledger's (textbook exponential mechanism)
};

struct TreeOptions {
  int levels = 7;
  ScoreWeights weights;
  privacy::Sampler sampler = privacy::Sampler::secure;
};

struct Split {
  int level = 0;
  std::string path;  // "" root, then "0" (x > c) / "1" (x <= c) per level
  std::size_t dimension = 0;
  double position = 0;
  double noisy_count = 0;  // the split node's
};

struct Leaf {
  std::size_t begin = 0, end = 0;  // into SplitTree::order
  int level = 0;
  std::string path;
  double noisy_count = 0;
};

struct SplitTree {
  std::vector<std::uint32_t> order;  // point indices, every leaf a contiguous range
  std::vector<Leaf> leaves;
  std::vector<Split> splits;  // the kept splits, in the order they were made
  double split_limit = 0;
};

// The count lower bound of the reference: N + ln(2 delta_c) / eps_c, at least 1.
double count_lower_bound(double noisy_count, double delta_count, double count_epsilon);
// The utility sensitivity of a node's split scores. The scores divide by the node's released N (public), so
// one record moves them by at most (w_c slope + w_e) / N; the reference charges it at its lower bound N'
// instead, which is smaller than N (a larger sensitivity, more noise) whenever N >= 1. A continuous noisy
// count (sampler: textbook) can land in (0, 1), below N' = 1: the sensitivity then takes N itself, the
// smaller of the two, so that it always covers the scores. (N <= 0: every score is 0, any sensitivity.)
double split_score_sensitivity(const ScoreWeights& weights, double noisy_count, double delta_count,
                               double count_epsilon);

// `clamped`: the row-major n x d points, clamped into the box; n < 2^32.
SplitTree build_split_tree(const double* clamped, std::size_t n, std::size_t d, const CandidateGrid& grid,
                           double root_noisy_count, const TreeOptions& options, const LevelMechanisms& mechanisms,
                           Rng& rng);

}  // namespace dpclust::dpm
