#pragma once
// The nearest released centre of every point and the k-means cost of a set of centres on the true data:
// the "inertia" of the field -- sum over the points of the squared distance to the NEAREST centre, as
// DPM's artifact computes it (UzL-PrivSec/clustering-evaluation, metrics.py j_score: labels by argmin of
// cdist, then the squared distances to those centres) and as Google's private clustering reports its loss
// (google/differential-privacy, learning/clustering/clustering_algorithm.py ClusteringResult: "sum of
// squared distances of the data to their closest center"). Not the cost of the method's own labels.
//
// The search is k-means' exhaustive one -- every squared distance sum_j (x_j - c_j)^2, the first centre of
// the smallest (numpy's argmin) -- computed through an exact filter (cluster/kmeans/nearest_search.hpp):
// blocked inner products bound every distance, and only the centres that can be the nearest get their
// distance computed directly, so the labels and the cost are the exhaustive search's, without its n k d
// scalar work and without the cancellation of ||x||^2 - 2 x.c + ||c||^2 in the cost. Points are processed
// in blocks with OpenMP, each point on its own, and the cost is summed in point order afterwards: the same
// doubles on any thread count.
#include <cstddef>
#include <vector>

#include "core/dataset.hpp"

namespace dpclust {

struct NearestCentres {
  Labels labels;                 // nearest centre of every point, 0..k-1
  std::vector<double> distance;  // its squared distance, computed directly
  double cost = 0;               // sum of `distance`, in point order
};

// X: n x d row-major; centres: k x d with k >= 1 (throws std::invalid_argument otherwise, or when the
// dimensions differ).
NearestCentres nearest_centres(const double* X, std::size_t n, std::size_t d, const RowMatrix& centres);

// (1 / |from|) sum over the rows of `from` of the Euclidean distance to the nearest row of `to`: DPM's
// centre distance before its normalisation (metrics.py norm_kmeans_dist: np.min(cdist(centers,
// opt_clustering), axis=1).sum() / centers.shape[0]). Direct distances; both non-empty, same width.
double mean_nearest_distance(const RowMatrix& from, const RowMatrix& to);

}  // namespace dpclust
