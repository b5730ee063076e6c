"""The engine's metrics as functions of label arrays (-1 = noise), computed by the same code as the
metrics in a results file (engine/metrics, engine/wavecluster/measures, engine/drbt/fmeasure).

``ari``, ``ami``, ``nmi``  scikit-learn's adjusted Rand index, adjusted and normalised mutual information
                           (arithmetic mean), special cases included; noise is one more label.
``f_measure``              DP WaveCluster Sec. 7: F-measure of predicted clusters against true clusters.
``overall_f_measure``      DRBT Eq. 14 (``matching='best'`` as the paper, or ``'hungarian'``).
``ocm``, ``two_ce``        DP WaveCluster Sec. 6.2 on the classes two classifiers give the same test points
                           (-1 = the noise class C0); ``ocm(matching='authors_set_difference')`` is the
                           authors' code and may return None (their one-cluster-each special case).
``dsg_c``                  DP WaveCluster Sec. 6.1 on two grids of cell labels (``cell_labels_`` of the
                           WaveCluster estimators; -1 = not significant).

The k-means measures of the private-clustering literature (engine/metrics/kmeans_measures.hpp; the same code
as a results file's ``inertia``, ``normalized_kmeans_cost``, ... for the same points, centres and k):

``inertia(X, centres)``    sum over the points of the squared distance to the nearest centre (DPM's artifact,
                           Google's clustering loss); ``inertia_per_point`` divides by n (Google's
                           "normalized k-means objective").
``normalized_kmeans_cost(X, centres, k=None)``  inertia / the cost of non-private k-means++ with k centres
                           (default: as many as given), best of 10 restarts seeded from the data.
``centre_distance(X, centres, k=None, bounds=None)``  DPM's normalised k-means distance: mean distance of the
                           centres to the nearest centre of each reference restart, / the diagonal of
                           ``bounds`` ((lower, upper)) or of the data's bounding box.
``silhouette(X, labels, sample_size=2000, sampling="stratified", return_standard_error=False)``  scikit-learn's
                           silhouette_score (noise -1 is one more label); on a larger X estimated from the sample
                           the runner draws with that ``silhouette_sample`` and ``silhouette_sampling`` (None:
                           every point; docs/config.md); with ``return_standard_error`` the pair (score, its
                           standard error; 0 when exact); NaN where scikit-learn raises.
``accuracy``, ``purity``   (labels_true, labels_pred): Hungarian-matched clustering accuracy; majority-class
                           purity (DPM's and Google's "accuracy"). Predicted noise (-1) counts as wrong.

The measures of Google's clustering demo and of FastLloyd's evaluation (engine/metrics/paper_measures.hpp):

``false_match_fraction``, ``true_non_match_fraction``  (labels_true, labels_pred): pairs with different true
                           labels put in one cluster / such pairs; pairs with one true label split / such pairs.
``nicv(X, centres)``       FastLloyd's NICV, the same number as ``inertia_per_point``; ``bcss(X, centres)`` the
                           between-cluster sum of squares of the centres weighted by their nearest points.
``davies_bouldin``, ``calinski_harabasz``, ``dunn``  (X, labels): scikit-learn's indices and the Dunn index
                           (smallest between-cluster over largest within-cluster point distance); NaN unless
                           2 <= labels <= points - 1.
"""
from ._core import (accuracy, ami, ari, bcss, calinski_harabasz, centre_distance, davies_bouldin, dsg_c, dunn, f_measure,
                    false_match_fraction, inertia, inertia_per_point, nicv, nmi, normalized_kmeans_cost, ocm,
                    overall_f_measure, purity, silhouette, true_non_match_fraction, two_ce)

__all__ = ["ari", "ami", "nmi", "f_measure", "overall_f_measure", "ocm", "two_ce", "dsg_c", "inertia",
           "inertia_per_point", "normalized_kmeans_cost", "centre_distance", "silhouette", "accuracy", "purity",
           "false_match_fraction", "true_non_match_fraction", "nicv", "bcss", "davies_bouldin", "calinski_harabasz", "dunn"]
