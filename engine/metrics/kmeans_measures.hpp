#pragma once
// The measures the private-clustering literature reports beside ARI/AMI, as metrics a config can name
// (`metrics: [normalized_kmeans_cost, silhouette, accuracy]`). Each is a pure function of the trial's typed
// result (MethodResult::centres, MethodResult::labels) and the true data, never of the release JSON.
//
//   inertia                 k-means cost of the released centres on the true data: sum over the points of
//                           the squared distance to the NEAREST released centre (nearest_centre.hpp; DPM's
//                           artifact j_score, Google's ClusteringResult.loss).
//   inertia_per_point       inertia / n: Google's "normalized k-means objective (average squared distances of
//                           the data to their closest center)" of its README's benchmark figures.
//   normalized_kmeans_cost  inertia / the cost of non-private k-means++ (best of kReferenceRestarts = 10
//                           restarts, cluster/kmeans/kmeans_reference.hpp) with the reference k below: 1 is as good as
//                           non-private k-means; the inertia gap of DPM's claims is this minus 1.
//   centre_distance         DPM's "norm. KMeans distance" (artifact metrics.py norm_kmeans_dist): the mean over
//                           the released centres of the Euclidean distance to the nearest k-means++ centre,
//                           averaged over the reference's restarts, divided by the diagonal of the public
//                           domain (DPM: radius * 2 = (hi - lo) sqrt(d)), or of the data's bounding box when
//                           the dataset has no bounds.
//   silhouette              scikit-learn's silhouette_score of the measure labels (below) on the true points;
//                           on a dataset of more than `silhouette_sample` points (EvaluationSettings, 2000 unless
//                           the config sets it), on a sample of that size drawn once per dataset, with the
//                           standard error of the sampled score (silhouette.hpp) recorded beside it
//                           (MetricInput::sampled). The cost is m^2 d / 2 a trial: 2000 points cost 25 times
//                           less than DPM's 10,000, for a standard error of a few thousandths on clustered data.
//   accuracy                clustering accuracy, Hungarian matching of clusters to true classes
//                           (clustering_accuracy.hpp).
//   purity                  majority-class agreement: DPM's artifact's and Google's demo's "accuracy".
//
// None is computed by default (MetricInfo::by_default): a config names the ones it wants, since the
// reference run and the silhouette cost more than many trials. The first four apply to methods that release
// centres (MethodInfo::releases_centres, MetricInfo::needs_centres); a trial that released no centres
// (Affinity Propagation that did not converge) gives NaN, which a results file counts as missing. The last
// three apply to every method.
//
// Measure labels: for a method that released centres, the nearest released centre of every point (DPM's
// artifact labels every method's output so, metrics.py get_labels); otherwise the method's own labels.
//
// Reference k (normalized_kmeans_cost, centre_distance): the method's `k` parameter; for a method that
// chooses its number of clusters itself (affinity_propagation, DPM), the number of ground-truth classes
// (DPM's artifact runs KMeans with the dataset's cluster count, experiments.py KOpt k_target), or, on data
// without labels, the number of centres released.
//
// What is computed once: the reference run once per dataset and k, the coordinates' fingerprint and the
// silhouette sample once per dataset and sample size (the run's DatasetCache; seeds derived from the
// fingerprint, so any trial computes the same values, under `randomness: secure` too: they evaluate, they
// release nothing); the nearest-centre assignment once per trial (MetricInput::cache).
#include <cstddef>
#include <vector>

#include "core/metric.hpp"

namespace dpclust {

const std::vector<MetricInfo>& kmeans_measures();

}  // namespace dpclust
