#pragma once
// Agreement of predicted clusters with true classes as a fraction of the points:
//
//   clustering_accuracy  ACC = max over one-to-one maps of clusters to classes of the points whose cluster
//                        maps to their class, / n: the Hungarian method on the cluster x class contingency
//                        table (metrics/assignment.hpp; Kuhn 1955), the "clustering accuracy" of e.g. Xu,
//                        Liu & Gong (SIGIR 2003) and the deep-clustering literature. With more clusters than
//                        classes the extra clusters match nothing (their points count as wrong), and vice versa.
//   purity               each cluster votes for its most frequent class, / n: what DPM's artifact calls
//                        "accuracy" (UzL-PrivSec/clustering-evaluation metrics.py: argmax of the bincount per
//                        predicted label) and Google's demo "dominant label accuracy"
//                        (learning/clustering/clustering_algorithm.py ClusteringMetrics). Many clusters each
//                        take their class, so purity >= accuracy, and n singleton clusters give 1.
//
// Noise: a point predicted noise (-1) is in no cluster: it is never matched and never votes, so it counts
// as wrong (a method cannot gain by declaring points noise). A true label of -1 (e.g. background points of a
// generator) is one more class. Both throw std::invalid_argument when the labelings differ in length or are
// empty; accuracy also when the table would exceed kAccuracyMaxCells (the assignment costs
// O(min(r, c)^2 max(r, c)) on r clusters and c classes).
#include <cstddef>

#include "core/dataset.hpp"

namespace dpclust {

inline constexpr std::size_t kAccuracyMaxCells = std::size_t{1} << 26;

double clustering_accuracy(const Labels& truth, const Labels& pred);
double purity(const Labels& truth, const Labels& pred);

}  // namespace dpclust
