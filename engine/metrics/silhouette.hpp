#pragma once
// The silhouette coefficient (Rousseeuw 1987) with scikit-learn's semantics (sklearn.metrics.silhouette_score,
// metric="euclidean"), on all points or on a sample of them:
//
//   s(i) = (b(i) - a(i)) / max(a(i), b(i)),  a(i) the mean distance of i to the other points of its cluster,
//   b(i) the smallest mean distance of i to the points of another cluster; s(i) = 0 for a point alone in its
//   cluster and where 0 / 0 arises (np.nan_to_num); the score is the mean of s(i).
//
// Labels are arbitrary int32 values; noise (-1) is one more label, as scikit-learn treats it (its
// LabelEncoder makes no exception for -1), like ARI and AMI in dpclust. scikit-learn raises ValueError
// unless 2 <= number of labels <= number of points - 1; here the score is then NaN (undefined: a results
// file counts it as missing). DPM's artifact returns -1 in that case instead (metrics.py silh_score).
//
// Distances as scikit-learn computes them: sqrt(max(0, ||x||^2 + ||y||^2 - 2 x.y)) (euclidean_distances),
// with the distance of a point to itself set to 0. The points are grouped by label first (so that every
// cluster is a contiguous run), the pairs formed once each (the upper triangle) in blocks whose inner
// products are computed in parallel (core/cross_products.hpp), and the distances added to the per-cluster sums
// serially, run by run, in a fixed order: the score is the same double on any thread count (and agrees with
// scikit-learn's, which sums in another order, to about 1e-15). Work: m^2 d / 2 multiply-adds for m points;
// memory m x (number of labels) sums (when that exceeds kSilhouetteSymmetricCells, every pair is formed
// twice, row block by row block, in block x labels memory).
//
// Sampling: exact silhouette is O(n^2 d). silhouette_sample() draws the sample scikit-learn's
// silhouette_score(X, labels, sample_size=m, random_state=seed) draws, numpy.random.RandomState(seed)
// .permutation(n)[:m] (core/numpy_random.hpp, draw for draw), so that on the same points, labels, m and
// seed both give the same score. DPM's artifact uses sample_size=10000 (unseeded); the measures use
// kSilhouetteSampleSize with a seed derived from the data (kmeans_measures.hpp).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/dataset.hpp"

namespace dpclust {

inline constexpr std::size_t kSilhouetteSymmetricCells = std::size_t{1} << 22;

// On every point. labels.size() == n (throws std::invalid_argument otherwise).
double silhouette_score(const double* X, std::size_t n, std::size_t d, const Labels& labels);
// On the points `rows` (indices into X and labels, as drawn by silhouette_sample).
double silhouette_score(const double* X, std::size_t n, std::size_t d, const Labels& labels, const std::vector<std::size_t>& rows);

// numpy.random.RandomState(seed).permutation(n)[:size]; every index 0..n-1 when size >= n.
std::vector<std::size_t> silhouette_sample(std::size_t n, std::size_t size, std::uint32_t seed);

}  // namespace dpclust
