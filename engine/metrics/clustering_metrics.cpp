#include "metrics/clustering_metrics.hpp"

#include <stdexcept>
#include <string>

#include "metrics/clustering_scores.hpp"

namespace dpclust {

namespace {

// The ground truth and the prediction, checked to be comparable.
void require_truth(const MetricInput& in, const char* metric) {
  if (!in.data.has_labels())
    throw std::invalid_argument(std::string("metric '") + metric + "' needs ground-truth labels but dataset '" +
                                in.data.name + "' has none");
  if (in.data.labels.size() != in.result.labels.size())
    throw std::invalid_argument(std::string("metric '") + metric + "': the method returned " +
                                std::to_string(in.result.labels.size()) + " labels for " +
                                std::to_string(in.data.labels.size()) + " labelled points");
}

}  // namespace

const std::vector<MetricInfo>& clustering_metrics() {
  static const std::vector<MetricInfo> metrics = {
      {"ari",
       "Adjusted Rand index of predicted vs true labels (Hubert & Arabie 1985), scikit-learn semantics; "
       "noise (-1) counts as its own label, as scikit-learn does",
       true,
       [](const MetricInput& in) {
         require_truth(in, "ari");
         return adjusted_rand_score(in.data.labels, in.result.labels);
       }},
      {"ami",
       "Adjusted mutual information, arithmetic mean, exact expected MI (Vinh, Epps & Bailey 2010), "
       "scikit-learn semantics; noise (-1) counts as its own label, as scikit-learn does",
       true,
       [](const MetricInput& in) {
         require_truth(in, "ami");
         return adjusted_mutual_info_score(in.data.labels, in.result.labels);
       }},
      {"nmi",
       "Normalized mutual information, arithmetic mean (Vinh, Epps & Bailey 2010), scikit-learn semantics; "
       "noise (-1) counts as its own label, as scikit-learn does",
       true,
       [](const MetricInput& in) {
         require_truth(in, "nmi");
         return normalized_mutual_info_score(in.data.labels, in.result.labels);
       }},
      {"n_clusters", "Number of distinct non-noise labels in the predicted labels (noise is -1)", false,
       [](const MetricInput& in) { return static_cast<double>(n_clusters(in.result.labels)); }},
      {"noise_fraction", "Fraction of points the method labelled noise (-1)", false,
       [](const MetricInput& in) {
         if (in.result.labels.empty())
           throw std::invalid_argument("metric 'noise_fraction': the method returned no labels");
         return static_cast<double>(n_noise(in.result.labels)) / static_cast<double>(in.result.labels.size());
       }},
  };
  return metrics;
}

}  // namespace dpclust
