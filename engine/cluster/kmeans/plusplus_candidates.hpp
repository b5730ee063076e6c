#pragma once
// The expensive step of greedy k-means++ (scikit-learn's _kmeans_plusplus): for each of the 2 + ln k
// candidates y of a round, every point's min(closest_i, ||x_i - y||^2) -- n d work per candidate, k (2 + ln k)
// candidates in all. Used by kmeans() with KMeansOptions::triangle_pruning; same values, double for double,
// as computing every squared distance (squared_distance.hpp) and taking the minimum, with two exact skips:
//
//   triangle  with a the point's nearest centre so far, ||y - a|| > 2 ||x - a|| implies ||x - y|| > ||x - a||:
//             the point keeps closest_i. Tested with hamerly.hpp's margin (factor 1 + 1e-9 and 1e-9 S, S
//             the largest |x|), above every rounding of the distances involved.
//   filter    for the points left, a = (||x||^2 - 2 x.y) + ||y||^2 from one blocked product of the points
//             with all candidates (core/cross_products.hpp); a - E > closest_i (1 + rho), with E and rho of
//             nearest_search.hpp, proves the computed squared distance is at least closest_i: it keeps
//             closest_i. Only the rest (the points the candidate actually comes closer to, and near-ties)
//             get squared_distance.
// In both cases the minimum the plain loop takes would have returned closest_i.
#include <cstddef>
#include <vector>

namespace dpclust {

class PlusPlusCandidates {
 public:
  // X: n x d row-major (the centred data kmeans() clusters); scale: S.
  PlusPlusCandidates(const double* X, std::size_t n, std::size_t d, double scale);

  // The first centre, point `first`, is placed: closest[i] = squared_distance(x_i, x_first).
  void start(std::size_t first, const std::vector<double>& closest);
  // dist[t * n + i] = min(closest[i], squared_distance(x_i, x_{ids[t]})) for every candidate t and point i.
  // centres: the `placed` centres so far (placed x d).
  void evaluate(const double* centres, std::size_t placed, const std::vector<std::size_t>& ids,
                const std::vector<double>& closest, double* dist);
  // Candidate `best` (its row of dist) became centre number `index`; closest is updated by the caller after.
  void accept(std::size_t index, const double* dist_best, const std::vector<double>& closest);

 private:
  const double* X_;
  std::size_t n_, d_;
  double margin_;
  std::vector<std::size_t> nearest_;   // each point's nearest centre so far
  std::vector<double> root_;           // sqrt(closest)
  std::vector<double> norm_, length_;  // ||x||^2, ||x||
};

}  // namespace dpclust
