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
// Sampling: the exact silhouette is O(n^2 d). Two estimates from a sample, both drawn from one permutation of the
// points, numpy.random.RandomState(seed).permutation(n) (silhouette_sample(); core/numpy_random.hpp, draw for
// draw), scikit-learn's silhouette_score(X, labels, sample_size=m, random_state=seed) taking its first m:
//
//   subset      (silhouette_estimate; silhouette_score with rows): scikit-learn's sample_size, the silhouette of
//               the first m points as a dataset of their own; DPM's artifact uses sample_size=10000, unseeded.
//               As an estimate of the score on every point it is biased where a cluster has few points in the
//               subset: a cluster absent from the subset is absent from every b(i), and five points of a
//               20,000-point labelling given a label of their own move a 2,000-point subset's score 0.044 above
//               the score on every point, twice its stated error.
//   stratified  (silhouette_stratified): each cluster's first r_l points of the permutation,
//                 r_l = min(n_l, max(floor, ceil(m n_l / n))),  floor = max(2, min(50, m / L)),
//               so a small cluster is in the sample whole and a large one in proportion; every s(i) is computed
//               among the sampled points, and the estimate is sum_l (n_l / n) (mean of cluster l's sampled s(i)),
//               each cluster weighted by its share of all n points. Unbiased but for the curvature of s in the
//               sampled means (-0.001 on the example above). Work (sum_l r_l)^2 d / 2, about m^2 d / 2.
//
// The standard error of either: the sampled s(i) are not independent draws (each is computed from the sample),
// so sqrt(S^2 / m) would understate the error about 1.6-fold (measured on blobs). A grouped jackknife instead
// (silhouette.cpp): each sampled cluster's points cut into G = 16 random chunks, group g their chunks g, the
// estimate recomputed without each group from the same pass's distance sums (a cluster held whole is never left
// out), and
//   SE^2 = (1 - f) ((G - 1) / G sum_g (estimate_-g - their mean)^2 [+ sum_l p_l (score_l - score)^2 / m])
// f the sampled fraction (of the clusters not held whole); the bracket only for a subset, whose clusters' shares
// vary from subset to subset (p_l the shares in the subset, score_l the mean of a cluster's s(i)); 0 when every
// point is in. Over 300 samples of 400 of 4000 points the root-mean-square error against the score on every point
// is 1.02 times the stated error for a subset of well-separated clusters, and for the stratified estimate also
// with a five-point cluster (tests/metrics/silhouette_sample_test.cpp). It costs two more additions per pair,
// beside the score's own (whose additions and their order are unchanged: the same double as without it).
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/dataset.hpp"

namespace dpclust {

inline constexpr std::size_t kSilhouetteSymmetricCells = std::size_t{1} << 22;

// On every point. labels.size() == n (throws std::invalid_argument otherwise).
double silhouette_score(const double* X, std::size_t n, std::size_t d, const Labels& labels);

// The distances between every ordered pair of the n points, each the double the silhouette's pass computes for
// that pair (row a, column b: sqrt(max(0, (|a|^2 - 2 a.b) + |b|^2)), 0 on the diagonal), n x n. They depend on the
// points alone: a run computes them once per dataset (metrics/kmeans_measures.cpp, at most
// kSilhouetteCachedDistances entries) and every trial's exact silhouette reads them instead of recomputing n^2 d /
// 2 products.
inline constexpr std::size_t kSilhouetteCachedDistances = std::size_t{1} << 22;  // 32 MiB: n <= 2048
struct SilhouetteDistances {
  std::size_t n = 0;
  std::vector<double> values;  // row-major
};
SilhouetteDistances silhouette_distances(const double* X, std::size_t n, std::size_t d);
// silhouette_score(X, n, d, labels) from the distances of the same X: the same double, without the products.
double silhouette_score(const SilhouetteDistances& distances, const Labels& labels);
// On the points `rows` (indices into X and labels, as drawn by silhouette_sample).
double silhouette_score(const double* X, std::size_t n, std::size_t d, const Labels& labels,
                        const std::vector<std::size_t>& rows);

// subset: the score of the points `rows` as a dataset of their own and its jackknife standard error (above; 0 when
// rows are all n points). score is the same double silhouette_score returns for these rows.
// stratified: the estimate from `order` (a permutation of 0..n-1) and `size` m, above; `points` (optional) gets the
// number of points it read (sum_l r_l). Every point, exactly, when that takes them all.
struct SilhouetteEstimate {
  double score = 0.0;
  double standard_error = 0.0;
};
SilhouetteEstimate silhouette_estimate(const double* X, std::size_t n, std::size_t d, const Labels& labels,
                                       const std::vector<std::size_t>& rows);
SilhouetteEstimate silhouette_stratified(const double* X, std::size_t n, std::size_t d, const Labels& labels,
                                         const std::vector<std::size_t>& order, std::size_t size,
                                         std::size_t* points = nullptr);

// numpy.random.RandomState(seed).permutation(n), the order both samples are drawn from.
std::vector<std::size_t> silhouette_order(std::size_t n, std::uint32_t seed);

// numpy.random.RandomState(seed).permutation(n)[:size]; every index 0..n-1 when size >= n.
std::vector<std::size_t> silhouette_sample(std::size_t n, std::size_t size, std::uint32_t seed);

}  // namespace dpclust
