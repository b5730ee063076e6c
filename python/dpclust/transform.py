"""Transformers over the engine's data-perturbing methods: nD-Laplace (local, geo-indistinguishable
perturbation of every point) and DRBT (random projection, not private). ``fit_transform(X)`` returns
the released data of the trial; ``labels_`` holds the clustering the method runs on it.
"""
from __future__ import annotations

import numpy as np

from ._estimator import ClusterMixin, EngineEstimator, TransformerMixin, _check_array, _input_error, _install_init

__all__ = ["NDLaplace", "DRBT"]


class _Released(TransformerMixin, ClusterMixin, EngineEstimator):
    _released_key = None

    _renamed = {"k": "n_clusters"}
    _aliases = {"k": ("n_clusters", "k is the engine's (and the configs') name for the K-means step's number of "
                                    "clusters, n_clusters in scikit-learn.")}

    def fit(self, X, y=None, **fit_params) -> "_Released":
        """One trial of the method on X (n_samples, n_features); sample_weight is refused (why:
        ``_no_sample_weight``). Returns self."""
        self._refuse_fit_params(fit_params)
        result = self._fit(X, y)
        self._set_released(result[self._released_key])
        return self

    def fit_transform(self, X, y=None, **fit_params) -> np.ndarray:
        """Fits, and returns the released data (one row per row of X)."""
        return self.fit(X, y, **fit_params)._released()

    def transform(self, X) -> np.ndarray:
        """Releases X with this estimator's parameters and seed: a new trial on X (seeded: X = the training
        data gives the rows ``fit_transform`` returned; secure: there is no seed, so a fresh release). The
        fitted attributes are not changed; a private estimator's accountant is charged as for a fit."""
        self._check_fitted()
        X = self._validated(X, reset=False)
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
    _no_sample_weight = ("each point is released with its own noise (local privacy): a weight would have to repeat the "
                         "point's release, not its count")
    _public_defaults = {"epsilon": (1.0, "1.0 per unit distance at radius 1 (the thesis sweeps 0.05 ... 10, Table 5.4)")}
    _known_limits = {
        "check_clustering": "DP noise on 50 points: each point is released with local noise of scale 1/epsilon = 1, the "
                            "spread of scikit-learn's standardised blobs: K-means on the released points gives ARI "
                            "0.03 (mean of seeds 0..19; 0.76 at epsilon = 10), below the check's 0.4",
        "check_methods_subset_invariance": "transform releases its input anew (a new trial): on a one-row batch the "
                                           "K-means step the method runs needs k = 4 points, and a row's noise is the "
                                           "seeded stream's draw at its position in the batch",
        "check_methods_sample_order_invariance": "transform releases its input anew with the fit's seed; a row's noise "
                                                 "is the seeded stream's draw at its position, so permuting the rows "
                                                 "changes which noise each point gets (57 of 60 values differ)",
    }

    def _set_released(self, value):
        self.X_released_ = value

    def _released(self):
        return self.X_released_


@_install_init
class DRBT(_Released):
    """DRBT (Oliveira & Zaiane): z-score, random projection to ``k_dims`` dimensions (per party), K-means.
    Not differentially private.

    After fit: ``X_disguised_`` (n x k_dims, the disguised data), ``labels_`` (K-means on it),
    ``evaluation_['stress']`` (Eq. 6). ``y`` is read only with ``class_attribute=True`` (the class label
    appended as an attribute, as the paper's Table 9 does); otherwise ignored.
    """

    _method = "drbt"
    _released_key = "disguised"
    _no_sample_weight = "DRBT's z-score and random projection treat every row once"
    _public_defaults = {
        "k_dims": (2, "2 (the paper reduces to 3 ... 74 dimensions per dataset; 2 fits any data of 2 or more features)"),
        "k": (2, "2, the smallest of the paper's K-means k (2 ... 5)"),
    }
    _known_limits = {
        "check_methods_subset_invariance": "transform disguises its input anew (a new trial): the z-score and the "
                                           "K-means step are fitted on the batch, so a batch is standardised with its "
                                           "own mean and deviation, and a one-row batch is refused (k = 2 clusters)",
    }

    def _y_for_engine(self, y, n_samples):
        if not self.class_attribute:
            return None
        if y is None:
            raise ValueError("DRBT.class_attribute: class_attribute=True appends the class label as an attribute: pass y")
        try:
            y_checked = _check_array(y, ensure_2d=False, dtype=None)
        except (ValueError, TypeError) as e:
            error = _input_error(e, y, "DRBT", "y")
        else:
            error, y = None, y_checked
        if error is not None:
            raise error from None  # not chained: the original text may quote the labels
        if y.ndim != 1 or y.shape[0] != n_samples:
            raise ValueError(f"y must be 1-d with one label per sample ({n_samples}), got shape {y.shape}")
        return y

    def _set_released(self, value):
        self.X_disguised_ = value

    def _released(self):
        return self.X_disguised_
