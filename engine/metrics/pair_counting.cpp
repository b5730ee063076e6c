// Google's demo's pair-counting measures (pair_counting.hpp).
#include "metrics/pair_counting.hpp"

#include <limits>

#include "metrics/clustering_scores.hpp"

namespace dpclust {
namespace {

double ratio(std::int64_t part, std::int64_t whole) {
  return whole == 0 ? std::numeric_limits<double>::quiet_NaN() : static_cast<double>(part) / static_cast<double>(whole);
}

}  // namespace

double false_match_fraction(const Labels& truth, const Labels& pred) {
  const PairConfusion c = pair_confusion_matrix(truth, pred);  // fp: same predicted cluster, different true labels
  return ratio(c.fp, c.fp + c.tn);
}

double true_non_match_fraction(const Labels& truth, const Labels& pred) {
  const PairConfusion c = pair_confusion_matrix(truth, pred);  // fn: same true label, different predicted clusters
  return ratio(c.fn, c.fn + c.tp);
}

}  // namespace dpclust
