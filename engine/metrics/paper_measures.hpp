#pragma once
// The measures two evaluations of the field report that the k-means measures (kmeans_measures.hpp) do not
// cover, as metrics a config can name. Each reads the trial's typed result (the released centres, else the
// method's labels: measure_support.hpp) and the true data; none is computed by default.
//
// Google's DP clustering demo (google/differential-privacy, learning/clustering/demo/clustering_demo.py; its
// "clustering loss" is `inertia`, its "dominant label accuracy" `purity`):
//   false_match_fraction     pairs with different true labels put in one cluster / such pairs (pair_counting.hpp)
//   true_non_match_fraction  pairs with one true label put in different clusters / such pairs
// FastLloyd's evaluation (D-Diaa/FastLloyd, utils/evaluations.py; computed there in the data's [-1, 1] scaling:
// a config reproduces that with the dataset's `scale: minmax`):
//   nicv                     WCSS / n, the points to their nearest released centre: the same number as
//                            inertia_per_point, under FastLloyd's name
//   bcss                     sum over the released centres of (points nearest to it) x |centre - mean of the data|^2
//   davies_bouldin           scikit-learn's Davies-Bouldin index of the measure labels (validity_indices.hpp)
//   calinski_harabasz        scikit-learn's Calinski-Harabasz index of the measure labels
//   dunn                     smallest between-cluster over largest within-cluster point distance (O(n^2 d))
// (FastLloyd's silhouette is `silhouette`, exact up to 10,000 points.)
#include <vector>

#include "core/metric.hpp"

namespace dpclust {

const std::vector<MetricInfo>& paper_measures();

}  // namespace dpclust
