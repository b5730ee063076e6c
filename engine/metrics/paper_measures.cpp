// Google's demo's and FastLloyd's measures as metrics (paper_measures.hpp).
#include "metrics/paper_measures.hpp"

#include "metrics/measure_support.hpp"
#include "metrics/pair_counting.hpp"
#include "metrics/validity_indices.hpp"

namespace dpclust {

const std::vector<MetricInfo>& paper_measures() {
  using namespace measures;
  static const std::vector<MetricInfo> list = {
      label_measure(
          "false_match_fraction",
          "pairs of points with different true labels put in the same (nearest-centre, else the method's) cluster / "
          "all such pairs (Google's clustering demo); 0 is best",
          true,
          [](const MetricInput& in) {
            require_true_labels(in, "false_match_fraction");
            return false_match_fraction(in.data.labels, measure_labels(in, "false_match_fraction"));
          }),
      label_measure(
          "true_non_match_fraction",
          "pairs of points with the same true label put in different (nearest-centre, else the method's) clusters / "
          "all such pairs (Google's clustering demo); 0 is best",
          true,
          [](const MetricInput& in) {
            require_true_labels(in, "true_non_match_fraction");
            return true_non_match_fraction(in.data.labels, measure_labels(in, "true_non_match_fraction"));
          }),
      centre_measure(
          "nicv",
          "FastLloyd's normalised intra-cluster variance: WCSS / n of the points to their nearest released centre "
          "(= inertia_per_point)",
          [](const MetricInput& in) { return nearest(in, "nicv").cost / static_cast<double>(in.data.n); }),
      centre_measure(
          "bcss",
          "FastLloyd's between-cluster sum of squares: sum over the released centres of (points nearest to it) x "
          "|centre - data mean|^2",
          [](const MetricInput& in) {
            return between_cluster_ss(in.data.coords.data(), in.data.n, in.data.d, in.result.centres,
                                      nearest(in, "bcss").labels);
          }),
      label_measure(
          "davies_bouldin",
          "Davies-Bouldin index (scikit-learn davies_bouldin_score) of the nearest-centre (else the method's) labels; "
          "lower is better; NaN unless 2 <= labels <= points - 1",
          false,
          [](const MetricInput& in) {
            return davies_bouldin_score(in.data.coords.data(), in.data.n, in.data.d,
                                        measure_labels(in, "davies_bouldin"));
          }),
      label_measure(
          "calinski_harabasz",
          "Calinski-Harabasz index (scikit-learn calinski_harabasz_score) of the nearest-centre (else the method's) "
          "labels; higher is better; NaN unless 2 <= labels <= points - 1",
          false,
          [](const MetricInput& in) {
            return calinski_harabasz_score(in.data.coords.data(), in.data.n, in.data.d,
                                           measure_labels(in, "calinski_harabasz"));
          }),
      label_measure(
          "dunn",
          "Dunn index: smallest distance between points of different clusters / largest distance within a cluster "
          "(FastLloyd's evaluation); higher is better; O(n^2 d), at most 200,000 points",
          false,
          [](const MetricInput& in) {
            return dunn_index(in.data.coords.data(), in.data.n, in.data.d, measure_labels(in, "dunn"));
          }),
  };
  return list;
}

}  // namespace dpclust
