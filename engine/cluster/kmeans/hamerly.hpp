#pragma once
// Hamerly's bounds for the assignment step of Lloyd's k-means (G. Hamerly, "Making k-means even faster",
// SDM 2010, Algorithm 2 and its "Update-Bounds"), used by kmeans() with KMeansOptions::triangle_pruning.
//
// Per point an upper bound u on the distance to its assigned centre and one lower bound l on the distance
// to every other centre; per centre s = half the distance to its nearest other centre. After the centres
// move by p_c, u += p_{a(i)} and l -= max_{c != a(i)} p_c (Update-Bounds). A point keeps its centre
// without computing a distance when u < max(s_{a(i)}, l) (line 11 of Algorithm 2), else u is tightened to
// the exact distance and, if the test still fails, every distance is computed (lines 12-16).
//
// Same labels, bit for bit, as the exhaustive search (kmeans.cpp: ties to the lowest index): a point is
// skipped only when the test holds with a margin -- u (1 + 1e-9) + 1e-9 S < m, S the largest distance of
// a point from the origin of the (centred) data -- that exceeds every rounding error of the bounds and of
// the distances: all distances are at most 2 S, so each bound update errs by at most ~4 eps S and at most
// kKMeansMaxIter = 1e6 updates add up to 4.4e-10 S < 1e-9 S; the computed squared distances, sums of d
// non-negative terms, err by at most ~(d + 2) eps relatively. A skipped point's centre is then strictly
// the nearest, by more than the exhaustive search's rounding, so that search would have chosen it too;
// every point that is not skipped gets the exhaustive search's label (nearest_search.hpp: the same search,
// with an exact filter). The points are handled in blocks, each point on its own: the labels do not depend
// on the thread count. Its lower bound is then the filter's bound on the second nearest centre (at most the
// exact second distance: a valid, possibly looser, bound).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/dataset.hpp"

namespace dpclust {

class HamerlyAssignment {
 public:
  // X: n x d row-major (what kmeans() clusters: the centred data); k centres. scale: S above.
  HamerlyAssignment(const double* X, std::size_t n, std::size_t d, std::size_t k, double scale);

  // The nearest centre of every point (ties: the lowest index) for the k x d centres. The first call
  // searches every point exhaustively and sets the bounds; later calls update them by how far each centre
  // moved since the previous call.
  void assign(const double* centres, Label* labels);

  // Distances computed or bounded so far: k per searched point, 1 per tightened bound (the exhaustive search
  // computes n k per call). The searches themselves compute most of theirs as bounds (nearest_search.hpp).
  std::uint64_t distances_computed() const { return distances_; }

 private:
  const double* X_;
  std::size_t n_, d_, k_;
  double margin_;  // 1e-9 S
  bool first_ = true;
  std::vector<double> upper_, lower_;  // u, l per point
  std::vector<double> previous_;       // the centres of the previous call, k x d
  std::vector<double> moved_, half_gap_;
  std::uint64_t distances_ = 0;
};

}  // namespace dpclust
