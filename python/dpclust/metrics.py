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
"""
from ._core import ami, ari, dsg_c, f_measure, nmi, ocm, overall_f_measure, two_ce

__all__ = ["ari", "ami", "nmi", "f_measure", "overall_f_measure", "ocm", "two_ce", "dsg_c"]
