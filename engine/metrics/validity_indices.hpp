#pragma once
// Internal validity indices of a clustering -- functions of the points and a labeling (and, for BCSS, the
// centres), no ground truth -- as FastLloyd's evaluation reports them (D-Diaa/FastLloyd, utils/evaluations.py,
// read at commit a4f65f1; its labels are every point's nearest released centre):
//
//   davies_bouldin_score     scikit-learn's davies_bouldin_score: per cluster (of the points' mean m_i) the mean
//                            distance s_i of its points to m_i; the score is the mean over the clusters of
//                            max_{j != i} (s_i + s_j) / |m_i - m_j| (a zero centroid distance counts as infinite);
//                            0 when every s_i is within 1e-8 of 0 or every centroid distance is (np.allclose).
//                            Lower is better.
//   calinski_harabasz_score  scikit-learn's calinski_harabasz_score: [sum_k n_k |m_k - m|^2 / (L - 1)] /
//                            [sum_k sum_{x in k} |x - m_k|^2 / (n - L)] over the L clusters; 1 when the
//                            within-cluster sum is 0. Higher is better.
//   dunn_index               the smallest distance between two points of different clusters over the largest
//                            distance between two points of one cluster (FastLloyd's evaluate_dunn_index, with
//                            scipy's cdist distances); NaN when the largest is 0. Higher is better. O(n^2 d / 2)
//                            work: every pair once, rows in parallel (a min and a max: the same on any thread
//                            count); refused above kDunnMaxPoints points.
//   between_cluster_ss       FastLloyd's BCSS (evaluate_BCSS): sum over the centres c_j of n_j |c_j - m|^2, n_j
//                            the points labelled j (0 for an empty centre) and m the mean of all points: the
//                            spread of the released centres, weighted by their clusters. Higher is better.
//
// Labels are arbitrary int32 values; noise (-1) is one more cluster, as scikit-learn's LabelEncoder treats it.
// Davies-Bouldin, Calinski-Harabasz and Dunn are undefined (NaN) unless 2 <= number of labels <= n - 1, where
// scikit-learn raises ValueError (FastLloyd's evaluation writes its defaults there instead: Davies-Bouldin inf,
// Calinski-Harabasz 0, Dunn 0, silhouette -1; docs/methods.md). Sums run over the points in index order, the
// cluster means as numpy's mean of each cluster's rows would (sum, then divide): agreement with scikit-learn to
// about 1e-12 relative. std::invalid_argument when labels.size() != n or n == 0.
#include <cstddef>

#include "core/dataset.hpp"

namespace dpclust {

inline constexpr std::size_t kDunnMaxPoints = 200'000;  // 2e10 pairs: minutes of work

double davies_bouldin_score(const double* X, std::size_t n, std::size_t d, const Labels& labels);
double calinski_harabasz_score(const double* X, std::size_t n, std::size_t d, const Labels& labels);
double dunn_index(const double* X, std::size_t n, std::size_t d, const Labels& labels);
// labels[i] in [0, centres.rows()): the row of the centre point i belongs to (its nearest released centre).
double between_cluster_ss(const double* X, std::size_t n, std::size_t d, const RowMatrix& centres,
                          const Labels& labels);

}  // namespace dpclust
