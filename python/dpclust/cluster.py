"""Clustering estimators over the engine's methods (scikit-learn conventions: ``fit(X)`` returns self,
``labels_``, ``predict``, ``get_params``/``set_params``; parameters named as in ``dpclust list``).

``predict(X)`` of a private estimator labels new points from the release alone (post-processing: no
privacy cost): DP-DBSCAN's span classifier, DP-k-means' nearest released centre, the WaveCluster
family's released significant cells.
"""
from . import _core
from ._estimator import ClusterMixin, EngineEstimator, _install_init, _points


class _SpanPredictor:
    def predict(self, X):
        """Span of each point: the span whose core cell contains it (Qiu & Yi Sec. 3), -1 otherwise or
        outside the domain. Equals ``labels_`` on the training data."""
        self._check_fitted()
        model = self.__dict__.get("_model")
        if model is None:
            model = self._model = _core.SpanModel(self.release_)
        return model.classify(_points(X))


@_install_init
class DPDBSCAN(_SpanPredictor, ClusterMixin, EngineEstimator):
    """DP-DBSCAN (Qiu & Yi, Approximate DBSCAN under Differential Privacy, Alg. 1-2).

    After fit: ``spans_`` (the released spans: their cells, cell boxes and bounding boxes),
    ``n_spans_``, and the attributes of every estimator (``labels_`` from the span classifier, for
    evaluation only: the release is the spans).
    """

    _method = "dp_dbscan"

    def fit(self, X, y=None):
        self._fit(X, y)
        self.__dict__.pop("_model", None)
        self.spans_ = self.release_["spans"]
        self.n_spans_ = len(self.spans_)
        return self


@_install_init
class DPKMeans(ClusterMixin, EngineEstimator):
    """DP-k-means (DPLloyd, Su et al.; variant ``diffprivlib`` = the DP-DBSCAN paper's baseline).

    After fit: ``cluster_centers_`` (k x d, the release).
    """

    _method = "dp_kmeans"

    def fit(self, X, y=None):
        result = self._fit(X, y)
        self.cluster_centers_ = result["centers"]
        return self

    def predict(self, X):
        """Nearest released centre of each point (ties: the lowest index), as fit labels its data."""
        self._check_fitted()
        return _core.nearest_centers(self.cluster_centers_, _points(X))


class _WaveClusterBase(ClusterMixin, EngineEstimator):
    """After fit: ``cell_labels_`` (the average subband's cells: cluster id, -1 = not significant; the
    release, compare two with ``dpclust.metrics.dsg_c``), ``transformed_`` (the (noisy) transformed
    values significance was decided on)."""

    def fit(self, X, y=None):
        result = self._fit(X, y)
        self.cell_labels_ = result["cell_labels"]
        self.transformed_ = result["transformed"]
        return self

    def predict(self, X):
        """Cluster of each point's cell over the same public grid (-1: not significant), from the release."""
        self._check_fitted()
        return _core.wavecluster_labels(self._method, self.params_, self.bounds_, self.release_, _points(X))


@_install_init
class WaveCluster(_WaveClusterBase):
    """WaveCluster, not private (Sheikholeslami et al. 1998, as DP WaveCluster's Sec. 3.2 uses it)."""

    _method = "wavecluster"


@_install_init
class WCBaseline(_WaveClusterBase):
    """DP WaveCluster's Baseline: a DP synopsis, synthetic points, then WaveCluster (Sec. 4.1)."""

    _method = "wc_baseline"


@_install_init
class PrivQT(_WaveClusterBase):
    """PrivQT: Laplace noise on every cell of the count matrix, then WaveCluster (DP WaveCluster Sec. 4.2)."""

    _method = "privqt"


@_install_init
class PrivTHR(_WaveClusterBase):
    """PrivTHR: PrivQT plus a noisy |Z| to prune noisy positive values (DP WaveCluster Algorithm 1)."""

    _method = "privthr"


@_install_init
class PrivTHREM(_WaveClusterBase):
    """PrivTHR_EM: PrivQT plus a significance threshold by the exponential mechanism (DP WaveCluster Algorithm 2)."""

    _method = "privthr_em"
