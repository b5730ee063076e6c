"""Clustering estimators over the engine's methods (scikit-learn conventions: ``fit(X)`` returns self,
``labels_``, ``predict``, ``get_params``/``set_params``; parameters named as in ``dpclust list``).

``predict(X)`` of a private estimator labels new points from the release alone (post-processing: no
privacy cost): DP-DBSCAN's span classifier, DP-k-means' nearest released centre, the WaveCluster
family's released significant cells. It numbers clusters as the release does (``release_labels_`` on the
training data); ``labels_`` numbers those holding training points 0..m-1.
"""
from __future__ import annotations

from typing import Any, Dict

import numpy as np

from . import _core
from ._estimator import ClusterMixin, EngineEstimator, TransformerMixin, _consecutive, _install_init

__all__ = ["DPDBSCAN", "DPKMeans", "DPM", "EUGkM", "FastLloyd", "HSTClustering", "HybridKMeans", "LSHClustering", "WaveCluster",
           "WCBaseline", "PrivQT", "PrivTHR", "PrivTHREM"]

# Why a check of scikit-learn's cannot pass, per estimator (declared through the _xfail_checks tag; the suite
# runs each such check and requires it to fail: tests/python/test_sklearn_checks.py). check_clustering wants
# an ARI above 0.4 on 50 standardised blob points; the ARIs quoted are means over seeds 0..19 with defaults.
def _dp_noise_on_50_points(what):
    return ("DP noise on 50 points: check_clustering wants ARI > 0.4 on 50 standardised blob points; at the default "
            "epsilon = 1 " + what)


# check_fit2d_1sample wants an error on one sample to say "n_samples = 1" (or "1 sample"). These estimators refuse
# that fit for a reason of their own (the one point's zero-width box, a grid too large at d = 10), and a central
# add/remove DP estimator's messages never state the number of records, which is private under that relation.
_N_SAMPLES_PRIVATE = ("its error on a one-point fit (the point's zero-width box, or a grid too large at d = 10) "
                      "does not state n_samples: under add/remove neighbours the number of records is private, "
                      "and a message is an output like any other")


class _SpanPredictor:
    def predict(self, X) -> np.ndarray:
        """Span of each point (the release's span ids, as ``release_labels_``): the span whose core cell
        contains it (Qiu & Yi Sec. 3), -1 otherwise or outside the domain. Post-processing of the release."""
        self._check_fitted()
        return self._model.classify(self._validated(X, reset=False))

    def __getstate__(self) -> Dict[str, Any]:
        # The engine's span classifier is rebuilt from the release after unpickling.
        state = dict(super().__getstate__())
        state.pop("_model", None)
        return state

    def __setstate__(self, state: Dict[str, Any]) -> None:
        super().__setstate__(state)
        if "release_" in self.__dict__:
            self._model = _core.SpanModel(self.release_)


@_install_init
class DPDBSCAN(_SpanPredictor, ClusterMixin, EngineEstimator):
    """DP-DBSCAN (Qiu & Yi, Approximate DBSCAN under Differential Privacy, Alg. 1-2).

    The DBSCAN radius is ``alpha`` (Qiu & Yi's name; scikit-learn's DBSCAN calls it ``eps``, accepted here
    as a deprecated alias of ``alpha``: the radius in data units, never the privacy budget) and ``min_pts`` is
    MinPts (``min_samples``, scikit-learn's name for the same count, is accepted too); ``epsilon`` is the
    privacy budget.

    After fit: ``spans_`` (the released spans: their cells, cell boxes and bounding boxes),
    ``n_spans_``, and the attributes of every estimator (``labels_`` from the span classifier, for
    evaluation only: the release is the spans).
    """

    _method = "dp_dbscan"
    _public_defaults = {
        "alpha": (0.5, "0.5, scikit-learn's DBSCAN eps (Qiu & Yi choose the radius per dataset: 0.2 on the "
                       "shapes of configs/builtin, 9 and 12 on cluto)"),
        "min_pts": (5, "5, scikit-learn's DBSCAN min_samples (Qiu & Yi: 4 to 20 per dataset)"),
    }
    _aliases = {"eps": ("alpha", "eps is scikit-learn's name for the DBSCAN radius, which DP-DBSCAN calls alpha "
                                 "(epsilon is the privacy budget).")}
    _synonyms = {"min_samples": ("min_pts", "scikit-learn's DBSCAN min_samples, the points (the point itself included) "
                                            "a neighbourhood needs for a core point; MinPts in Qiu & Yi")}
    _known_limits = {
        "check_fit2d_1sample": _N_SAMPLES_PRIVATE,
        "check_dtype_object": "runs on 10-dimensional data: the alpha-neighbourhood of a cell has more than 10^7 cells "
                              "(at least 3^d; DP-DBSCAN's grid needs d <= 14, and with eta = 4 fewer)",
        "check_clustering": _dp_noise_on_50_points("the noise margin Gamma (31 points) lifts the core threshold above "
                                                   "every cell's neighbourhood count: all points are noise (ARI 0.00; "
                                                   "0.57 at epsilon = 10)"),
    }

    _no_sample_weight = ("DP-DBSCAN's noisy cell counts are calibrated for a record counted once (sensitivity 1), and "
                         "its span classifier has no weights")

    def fit(self, X, y=None, **fit_params) -> "DPDBSCAN":
        """One trial of DP-DBSCAN on X (n_samples, n_features); y is ignored; sample_weight is refused (why:
        ``_no_sample_weight``). Returns self."""
        self._refuse_fit_params(fit_params)
        self._fit(X, y)
        self._model = _core.SpanModel(self.release_)
        self.spans_ = self.release_["spans"]
        self.n_spans_ = len(self.spans_)
        return self


#: The evaluation_only_ note of inertia_: what it is and why it is no part of the release.
INERTIA_NOTE = ("inertia_ (the k-means cost of the released centres on the training data) is an exact statistic of X, like "
                "evaluation_: a non-private diagnostic, not part of the release and not covered by the ledger")


class _ReleasedCentres(TransformerMixin, ClusterMixin, EngineEstimator):
    """An estimator whose release is centres (``cluster_centers_``, m x d): ``predict``, ``transform`` and
    ``score`` use them only (post-processing: no privacy cost; ``score`` on the training data is an exact
    statistic of it, not a private release).

    ``inertia_`` is scikit-learn's: the sum of squared distances of the training points to their nearest
    released centre (weighted by ``sample_weight`` where the estimator takes it), computed by the engine's
    ``inertia`` measure (``dpclust.metrics.inertia``, the number a results file holds for the same points and
    centres); NaN when no centre was released. It is a function of the private data, not of the release
    alone: a non-private diagnostic, listed so in ``evaluation_only_`` and never charged to the ledger or the
    accountant. Publish the centres, not ``inertia_``.
    """

    def _set_centres(self, X, result, sample_weight=None) -> None:
        """cluster_centers_ from the fit's result, and inertia_ on the training data X (as given to fit)."""
        self.cluster_centers_ = result["centers"]
        X = self._validated(X, reset=False)
        if self.cluster_centers_.shape[0] == 0:
            self.inertia_ = float("nan")
        elif sample_weight is None:
            self.inertia_ = float(_core.inertia(X, self.cluster_centers_))
        else:
            # Row i counted w_i times (the fit's reading of the weights): sum_i w_i d_i^2.
            nearest = _distances(X, self.cluster_centers_).min(axis=1) ** 2
            self.inertia_ = float(np.dot(np.asarray(sample_weight, dtype=np.float64), nearest))
        self.evaluation_only_ = list(self.evaluation_only_) + [INERTIA_NOTE]

    def predict(self, X) -> np.ndarray:
        """Nearest released centre of each point (ties: the lowest index), as fit labels its data
        (``release_labels_``). Post-processing of the release."""
        self._check_fitted()
        return _core.nearest_centers(self.cluster_centers_, self._validated(X, reset=False))

    def transform(self, X) -> np.ndarray:
        """Euclidean distance of each point to each released centre, (n_samples, n_centres), as scikit-learn's
        ``KMeans.transform``. Post-processing of the release."""
        self._check_fitted()
        return _distances(self._validated(X, reset=False), self.cluster_centers_)

    def score(self, X, y=None, sample_weight=None) -> float:
        """Minus the k-means objective of X at the released centres (the sum of squared distances to the
        nearest one, weighted by ``sample_weight``), as scikit-learn's ``KMeans.score``: higher is better.
        On private data it is an exact statistic of that data (like ``evaluation_``), not a private release:
        model selection on it (GridSearchCV's scoring) is outside the accountant (docs/python-api.md)."""
        self._check_fitted()
        X = self._validated(X, reset=False)
        if self.cluster_centers_.shape[0] == 0:
            return float("-inf")  # no centre serves any point (scikit-learn's KMeans always has one)
        nearest = _distances(X, self.cluster_centers_).min(axis=1) ** 2
        if sample_weight is None:
            return -float(nearest.sum())
        w = np.asarray(sample_weight, dtype=np.float64)
        if w.shape != (X.shape[0],):
            raise ValueError(f"sample_weight.shape == {w.shape}, expected ({X.shape[0]},): one weight per row of X")
        return -float(np.dot(w, nearest))


class _CentresEstimator(_ReleasedCentres):
    """An estimator whose release is k centres (``cluster_centers_``, n_clusters x d). ``n_clusters`` is
    scikit-learn's name for the engine's ``k``. ``fit(X, sample_weight=w)`` takes whole-number weights as
    repeated rows and charges epsilon times the largest weight (group privacy: a record of weight w is w
    records of the data the mechanism sees).
    """

    _renamed = {"k": "n_clusters"}
    _positional = ("n_clusters",)
    _public_defaults = {"k": (8, "8, scikit-learn's and diffprivlib's KMeans n_clusters")}
    _aliases = {"k": ("n_clusters", "k is the engine's (and the configs') name for scikit-learn's n_clusters.")}
    _no_sample_weight = None

    def fit(self, X, y=None, sample_weight=None):
        """One trial of the method on X (n_samples, n_features); y is ignored. ``sample_weight``: non-negative
        whole numbers, one per row (row i counted w_i times; epsilon_spent_ is epsilon times the largest
        weight). Returns self."""
        result = self._fit(X, y, sample_weight=sample_weight)
        self._set_centres(X, result, sample_weight)
        if sample_weight is not None:
            # The engine labelled the repeated rows; each row of X gets its nearest released centre, as fit
            # labels its data without weights (post-processing of the release).
            self.release_labels_ = _core.nearest_centers(self.cluster_centers_, self._validated(X, reset=False))
            self.labels_ = _consecutive(self.release_labels_)
        return self


@_install_init
class DPM(_ReleasedCentres):
    """DPM (Liebenow et al., CCS 2024): recursive private separators, no number of clusters.

    ``bounds`` (the public box) is required as for every private method. After fit: ``cluster_centers_``
    (one row per leaf, at most 2^levels; the release), ``n_clusters_``, ``inertia_`` (a non-private
    diagnostic, as for every estimator that releases centres); ``labels_`` are the nearest released centres
    (evaluation only). ``predict``, ``transform`` and ``score`` use the released centres only
    (post-processing: no privacy cost). (epsilon, delta)-DP: ``delta`` defaults to the paper's 1e-5.
    ``sample_weight`` is refused: see ``_no_sample_weight``.
    """

    _method = "dpm"
    _no_sample_weight = (
        "DP with weights changes the neighbouring relation: DPM is (epsilon, delta)-DP for adding or removing one record, and "
        "a record of weight w would be w records, for which group privacy gives (w epsilon, w e^((w-1) epsilon) delta), "
        "a delta the ledger does not account")
    _known_limits = {
        "check_clustering": _dp_noise_on_50_points(
            "the noisy counts of DPM's separators rarely allow a split of 50 points: one leaf in most trials (ARI 0.09, "
            "1.2 leaves on average; 0.21 at epsilon = 10, 0.73 at 100)"),
    }

    def fit(self, X, y=None, **fit_params) -> "DPM":
        """One run of DPM on X (n_samples, n_features); y is ignored; sample_weight is refused (why:
        ``_no_sample_weight``). Returns self."""
        self._refuse_fit_params(fit_params)
        result = self._fit(X, y)
        self._set_centres(X, result)
        self.n_clusters_ = int(self.cluster_centers_.shape[0])
        return self


@_install_init
class DPKMeans(_CentresEstimator):
    """DP-k-means (DPLloyd, Su et al.; variant ``diffprivlib`` = the DP-DBSCAN paper's baseline).

    ``n_clusters`` is scikit-learn's name for the engine's ``k`` (``DPKMeans(3)``, ``DPKMeans(n_clusters=3)``;
    ``k=`` still works, with a FutureWarning). After fit: ``cluster_centers_`` (n_clusters x d, the release).
    ``predict``, ``transform`` and ``score`` use the released centres only (post-processing: no privacy
    cost; ``score`` on the training data is an exact statistic of it, not a private release).
    ``fit(X, sample_weight=w)`` takes whole-number weights as repeated rows and charges epsilon times the
    largest weight (group privacy: a record of weight w is w records of the data the mechanism sees).
    """

    _method = "dp_kmeans"

    def fit(self, X, y=None, sample_weight=None) -> "DPKMeans":
        """One trial of DP-k-means on X (n_samples, n_features); y is ignored. ``sample_weight``: non-negative
        whole numbers, one per row (row i counted w_i times; epsilon_spent_ is epsilon times the largest
        weight). Returns self."""
        return super().fit(X, y, sample_weight=sample_weight)


@_install_init
class EUGkM(_CentresEstimator):
    """EUGkM (Su, Cao, Li, Bertino, Lin & Jin, VLDB Journal 2017): k-means on a noisy uniform grid histogram.

    The grid has m = floor((N eps / 10)^(2 / (2 + d))) cells per dimension over ``bounds``; every cell's count
    gets discrete Laplace noise, and the cell centres, weighted by the noisy counts (negatives as 0), are
    clustered by scikit-learn's weighted k-means. N is a noisy count with ``n_fraction`` of epsilon unless
    ``n_source='public'`` (``n_public``). After fit: ``cluster_centers_`` (the release), the grid in
    ``diagnostics_`` (``cells_per_dim``, ``cells``, ``positive_cells``) and ``n_iter_`` (the Lloyd iterations
    of the k-means on the synopsis).
    """

    _method = "eugkm"

    def fit(self, X, y=None, sample_weight=None) -> "EUGkM":
        """One trial of EUGkM on X (n_samples, n_features); y is ignored; ``sample_weight`` as DPKMeans.
        Returns self."""
        super().fit(X, y, sample_weight=sample_weight)
        self.n_iter_ = _diagnostic_or_evaluation(self, "kmeans_iterations")
        return self


@_install_init
class HybridKMeans(_CentresEstimator):
    """The hybrid of Su et al. (VLDB Journal 2017): EUGkM's centres improved by DPLloyd with the rest of the
    budget, or either step alone when the other cannot help (``diagnostics_['plan']``).

    After fit: ``cluster_centers_`` (the release), ``eugkm_centers_`` (EUGkM's centres, DPLloyd's public
    starting point; None when EUGkM did not run), ``n_iter_`` (DPLloyd's iterations when it ran, else those of
    EUGkM's k-means on the synopsis).
    """

    _method = "hybrid_kmeans"

    def fit(self, X, y=None, sample_weight=None) -> "HybridKMeans":
        """One trial of the hybrid on X (n_samples, n_features); y is ignored; ``sample_weight`` as DPKMeans.
        Returns self."""
        super().fit(X, y, sample_weight=sample_weight)
        eugkm = self.release_.get("eugkm_centers")
        self.eugkm_centers_ = None if eugkm is None else np.asarray(eugkm, dtype=np.float64)
        dplloyd = _diagnostic_or_evaluation(self, "dplloyd_iterations")
        self.n_iter_ = dplloyd if dplloyd > 0 else _diagnostic_or_evaluation(self, "kmeans_iterations")
        return self


@_install_init
class LSHClustering(_CentresEstimator):
    """Google's DP clustering (Chang & Kamath 2021; google/differential-privacy, learning/clustering): an LSH
    prefix tree grown on private counts, a private coreset of leaf averages and counts, weighted k-means on
    the coreset; (epsilon, delta)-DP with one accountant calibrating all its noise (docs/methods.md).

    ``n_clusters`` is scikit-learn's name for the engine's ``k``. The ball the points are clipped to is
    centred on the midpoint of ``bounds`` with the radius that holds them (``radius`` > 0 sets it; ``centre``
    ='origin' for data centred on 0). After fit: ``cluster_centers_`` (at most n_clusters rows: fewer when
    the coreset has fewer points; the release); with ``release_coreset=True`` the coreset is in
    ``release_["coreset"]``; ``n_iter_`` (Lloyd iterations on the coreset). ``predict``, ``transform`` and ``score``
    use the released centres only.
    """

    _method = "lsh_clustering"
    _public_defaults = {"k": (8, "8, scikit-learn's KMeans n_clusters")}
    _known_limits = {"check_fit2d_1sample": _N_SAMPLES_PRIVATE}
    _no_sample_weight = ("the tree's counts and the leaves' sums are calibrated for a record counted once (sensitivity 1 "
                         "and the radius)")

    def fit(self, X, y=None, **fit_params) -> "LSHClustering":
        """One trial of LSH clustering on X (n_samples, n_features); y is ignored; sample_weight is refused (why:
        ``_no_sample_weight``). Returns self."""
        self._refuse_fit_params(fit_params)
        result = self._fit(X, y)
        self._set_centres(X, result)
        # Lloyd iterations of the retained k-means run on the coreset (scikit-learn's KMeans.n_iter_).
        self.n_iter_ = _diagnostic_or_evaluation(self, "kmeans_iterations")
        return self


@_install_init
class FastLloyd(_CentresEstimator):
    """FastLloyd (Diaa, Humphries & Kerschbaum, USENIX Security 2025), its central DP k-means: Lloyd iterations whose
    clusters keep only the points within a radius of their centre and whose updates are noisy sums of the points'
    offsets from it, with one analytic Gaussian budget (default) or Laplace noise (docs/methods.md). The federated
    protocol and its secure aggregation are out of scope.

    ``n_clusters`` is scikit-learn's name for the engine's ``k``. Every column is mapped to [-1, 1] by ``bounds`` (the
    public box; the radius rule works there). (epsilon, delta)-DP with ``noise='gaussian'`` (``delta`` defaults to
    1e-6; the authors use 1 / (n ln n)), epsilon-DP with ``noise='laplace'`` and ``delta=0``. The number of iterations
    is the authors' rule on a noisy count of the points (``n_source``), or ``iterations``. After fit:
    ``cluster_centers_`` (the release), ``n_iter_`` (the iterations T), ``noisy_counts_`` (every iteration's released
    counts, T x n_clusters). ``predict``, ``transform`` and ``score`` use the released centres only.
    """

    _method = "fastlloyd"
    _no_sample_weight = (
        "FastLloyd's sums and counts are calibrated for a record counted once (sensitivity 1 and the radius), and a "
        "record of weight w would be w records, for which group privacy of its (epsilon, delta) Gaussian gives "
        "(w epsilon, w e^((w-1) epsilon) delta), a delta the ledger does not account")

    def fit(self, X, y=None, **fit_params) -> "FastLloyd":
        """One trial of FastLloyd on X (n_samples, n_features); y is ignored; sample_weight is refused (why:
        ``_no_sample_weight``). Returns self."""
        self._refuse_fit_params(fit_params)
        result = self._fit(X, y)
        self._set_centres(X, result)
        self.n_iter_ = int(self.diagnostics_["iterations"])
        self.noisy_counts_ = np.asarray(self.release_["noisy_counts"], dtype=np.float64)
        return self


@_install_init
class HSTClustering(_CentresEstimator):
    """HST clustering (Cohen-Addad, Epasto, Mirrokni, Narayanan & Zhong, KDD 2022; google-research hst_clustering): a
    randomly split quadtree over ``bounds`` whose cells' counts are released above a threshold with Gaussian noise,
    and the k-median / k-means solution of a dynamic program on that tree; (epsilon, delta)-DP (docs/methods.md).

    ``n_clusters`` is scikit-learn's name for the engine's ``k``. ``layers`` (10) splits every dimension once per
    layer; ``objective`` ('kmeans' or 'kmedian') is the tree cost minimised; ``variant='authors'`` reproduces the
    authors' calibration (flagged non-private). After fit: ``cluster_centers_`` (at most n_clusters rows, midpoints
    of the tree's cells: fewer when the tree has fewer leaves; the release); with ``release_tree=True`` the released
    cells and split fractions are in ``release_["tree"]``. ``predict``, ``transform`` and ``score`` use the
    released centres only.
    """

    _method = "hst_clustering"
    _public_defaults = {"k": (8, "8, scikit-learn's KMeans n_clusters")}
    _no_sample_weight = ("the tree's noisy counts are calibrated for a record counted once in each of its L d cells (l2 "
                         "sensitivity sqrt(L d))")
    _known_limits = {
        "check_clustering": _dp_noise_on_50_points(
            "the threshold a cell's noisy count must reach (96 at d = 2, 10 layers, delta 1e-5) is above the 50 points: no "
            "cell below the root is released and the one centre is the box's midpoint (ARI 0.00; 0.80 at epsilon = 10, "
            "0.94 at 100)"),
    }

    def fit(self, X, y=None, **fit_params) -> "HSTClustering":
        """One trial of HST clustering on X (n_samples, n_features); y is ignored; sample_weight is refused (why:
        ``_no_sample_weight``). Returns self."""
        self._refuse_fit_params(fit_params)
        result = self._fit(X, y)
        self._set_centres(X, result)
        return self


def _diagnostic_or_evaluation(estimator, key: str) -> int:
    """A count the fit reports among its public diagnostics, or, when it is a function of a data-derived input
    (EUGkM's grid under ``n_source='data'``), among its evaluation-only statistics: n_iter_ is then a
    non-private diagnostic, as inertia_ is."""
    if key in estimator.diagnostics_:
        return int(estimator.diagnostics_[key])
    return int(estimator.evaluation_.get(key, 0))


def _distances(X: np.ndarray, centers: np.ndarray) -> np.ndarray:
    """Euclidean distances (n, k) by |x|^2 - 2 x.c + |c|^2, clamped at 0 against rounding."""
    centers = np.asarray(centers, dtype=np.float64)
    sq = (X * X).sum(axis=1)[:, None] - 2.0 * X @ centers.T + (centers * centers).sum(axis=1)[None, :]
    return np.sqrt(np.maximum(sq, 0.0))


# The WaveCluster family's grid has g^d cells (at most 2^28): with the default g = 50, data of 5 or more
# dimensions is refused, a limit of the method (DP WaveCluster evaluates 2-d and 3-d data).
_GRID = "g^d grid cells: with g = 50, 5-dimensional data needs 3.1e8 cells, above the 2^28 limit (the papers use 2-d and 3-d data)"


class _WaveClusterBase(ClusterMixin, EngineEstimator):
    """After fit: ``cell_labels_`` (the average subband's cells: cluster id, -1 = not significant; the
    release, compare two with ``dpclust.metrics.dsg_c``), ``transformed_`` (the (noisy) transformed
    values significance was decided on)."""

    _public_defaults = {
        "g": (50, "50, DP WaveCluster's grid for its DS3 (arXiv Sec. 7; configs/paper/wavecluster_fig3.yaml)"),
        "p": (0.15, "0.15, DP WaveCluster's density threshold for its DS3 (same place)"),
    }
    _known_limits = {
        "check_estimators_dtypes": _GRID,
        "check_dtype_object": "runs on 10-dimensional data: " + _GRID,
    }

    _no_sample_weight = "the WaveCluster family's grid counts a row once (the private ones calibrate their noise to that)"

    def fit(self, X, y=None, **fit_params) -> "_WaveClusterBase":
        """One trial of the method on X (n_samples, n_features); y is ignored; sample_weight is refused (why:
        ``_no_sample_weight``). Returns self."""
        self._refuse_fit_params(fit_params)
        result = self._fit(X, y)
        self.cell_labels_ = result["cell_labels"]
        self.transformed_ = result["transformed"]
        return self

    def predict(self, X) -> np.ndarray:
        """Cluster of each point's cell over the same public grid (-1: not significant), from the release
        (the release's cluster ids, as ``release_labels_``). Post-processing of the release."""
        self._check_fitted()
        return _core.wavecluster_labels(self._method, self.params_, self.bounds_, self.release_, self._validated(X, reset=False))


def _private_wc_defaults():
    return {**_WaveClusterBase._public_defaults,
            "epsilon": (1.0, "1.0, the middle of DP WaveCluster's budgets 0.1 ... 2.0 (Fig. 3), DP-DBSCAN's default")}


@_install_init
class WaveCluster(_WaveClusterBase):
    """WaveCluster, not private (Sheikholeslami et al. 1998, as DP WaveCluster's Sec. 3.2 uses it)."""

    _method = "wavecluster"


def _private_wc_limits(ari):
    return {**_WaveClusterBase._known_limits, "check_fit2d_1sample": _N_SAMPLES_PRIVATE, "check_clustering": _dp_noise_on_50_points(
        f"the Laplace noise on the 2,500 cells of the 50 x 50 grid outweighs the 50 points (ARI {ari}; the "
        "non-private WaveCluster's 0.62 passes)")}


@_install_init
class WCBaseline(_WaveClusterBase):
    """DP WaveCluster's Baseline: a DP synopsis, synthetic points, then WaveCluster (Sec. 4.1)."""

    _method = "wc_baseline"
    _public_defaults = _private_wc_defaults()
    _known_limits = _private_wc_limits(0.17)


@_install_init
class PrivQT(_WaveClusterBase):
    """PrivQT: Laplace noise on every cell of the count matrix, then WaveCluster (DP WaveCluster Sec. 4.2)."""

    _method = "privqt"
    _public_defaults = _private_wc_defaults()
    _known_limits = _private_wc_limits(0.12)


@_install_init
class PrivTHR(_WaveClusterBase):
    """PrivTHR: PrivQT plus a noisy |Z| to prune noisy positive values (DP WaveCluster Algorithm 1)."""

    _method = "privthr"
    _public_defaults = _private_wc_defaults()
    _known_limits = _private_wc_limits(0.01)


@_install_init
class PrivTHREM(_WaveClusterBase):
    """PrivTHR_EM: PrivQT plus a significance threshold by the exponential mechanism (DP WaveCluster Algorithm 2)."""

    _method = "privthr_em"
    _public_defaults = _private_wc_defaults()
    _known_limits = _private_wc_limits(0.15)
