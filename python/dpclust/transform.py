"""Transformers over the engine's data-perturbing methods: nD-Laplace (local, geo-indistinguishable
perturbation of every point) and DRBT (random projection, not private). ``fit_transform(X)`` returns
the released data of the trial; ``labels_`` holds the clustering the method runs on it.
"""
from ._estimator import ClusterMixin, EngineEstimator, TransformerMixin, _install_init


class _Released(TransformerMixin, ClusterMixin, EngineEstimator):
    _released_key = None

    def fit(self, X, y=None):
        result = self._fit(X, y)
        self._set_released(result[self._released_key])
        return self

    def fit_transform(self, X, y=None):
        """Fits, and returns the released data (one row per row of X)."""
        return self.fit(X, y)._released()

    def transform(self, X):
        """Releases X with this estimator's parameters and seed: a new trial on X (seeded: X = the training
        data gives the rows ``fit_transform`` returned; secure: there is no seed, so a fresh release). The
        fitted attributes are not changed."""
        self._check_fitted()
        clone = type(self)(**self.get_params())
        clone.random_state = self.seed_
        return clone.fit_transform(X)


@_install_init
class NDLaplace(_Released):
    """nD-Laplace perturbation (van der Ende, geo-indistinguishability in n dimensions, Sec. 3.1 and Alg. 1-2).

    After fit: ``X_released_`` (n x d, the perturbed points: the release; each point is
    epsilon-geo-indistinguishable at distance ``radius``), ``labels_`` (the clustering named by
    ``cluster`` on the released points).
    """

    _method = "nd_laplace"
    _released_key = "released"

    def _set_released(self, value):
        self.X_released_ = value

    def _released(self):
        return self.X_released_


@_install_init
class DRBT(_Released):
    """DRBT (Oliveira & Zaiane): z-score, random projection to ``k_dims`` dimensions (per party), K-means.
    Not differentially private.

    After fit: ``X_disguised_`` (n x k_dims, the disguised data), ``labels_`` (K-means on it),
    ``evaluation_['stress']`` (Eq. 6).
    """

    _method = "drbt"
    _released_key = "disguised"

    def _set_released(self, value):
        self.X_disguised_ = value

    def _released(self):
        return self.X_disguised_
