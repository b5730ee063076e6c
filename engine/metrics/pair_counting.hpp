#pragma once
// The pair-counting quality measures of Google's DP clustering demo (google/differential-privacy,
// learning/clustering/clustering_algorithm.py ClusteringMetrics, printed by demo/clustering_demo.py), as pure
// functions of two labelings of the same points, scikit-learn style (truth first):
//
//   false_match_fraction     pairs of points with DIFFERENT true labels that the prediction puts in the SAME
//                            cluster / pairs with different true labels (ClusteringMetrics.false_match_frac);
//   true_non_match_fraction  pairs of points with the SAME true label that the prediction puts in DIFFERENT
//                            clusters / pairs with the same true label (true_nonmatch_frac).
//
// Both are 0 for a perfect clustering. Counted over unordered pairs of distinct points; in scikit-learn's
// pair_confusion_matrix(truth, pred) (ordered pairs) they are C[0][1] / (C[0][0] + C[0][1]) and
// C[1][0] / (C[1][0] + C[1][1]). The demo computes them from its cross-label histogram with the same counts
// ((sum of squared row or column sums - sum of squared cells) / 2).
// Labels are arbitrary int32 values; noise (-1) counts as its own label, as in ARI (a prediction that calls
// many points noise puts them in one cluster). Undefined, NaN: false_match_fraction when every point has the
// same true label (no pair with different labels; the demo divides by zero), true_non_match_fraction when
// every true label is unique. std::invalid_argument when the labelings differ in length or are empty.
#include "core/dataset.hpp"

namespace dpclust {

double false_match_fraction(const Labels& truth, const Labels& pred);
double true_non_match_fraction(const Labels& truth, const Labels& pred);

}  // namespace dpclust
