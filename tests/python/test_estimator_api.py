"""Issue 25: the estimators as a scikit-learn user meets them: public defaults, the DBSCAN radius named
apart from the privacy budget, y ignored, scikit-learn's input errors, consecutive cluster ids next to the
release's, and help() that shows parameters, defaults and the privacy guarantee."""
import inspect
import pydoc
import warnings

import numpy as np
import pytest

import dpclust

ESTIMATORS = [dpclust.DPDBSCAN, dpclust.DPKMeans, dpclust.WaveCluster, dpclust.WCBaseline, dpclust.PrivQT, dpclust.PrivTHR,
              dpclust.PrivTHREM, dpclust.NDLaplace, dpclust.DRBT]
MOONS_BOUNDS = ((-1.5, -1.0), (2.5, 1.5))


@pytest.fixture(scope="module")
def moons():
    return dpclust.datasets.make_moons(n_samples=300, noise=0.05, random_state=1)


@pytest.mark.parametrize("cls", ESTIMATORS)
def test_every_parameter_has_a_default_and_fit_runs_with_them(cls, moons):
    X, _ = moons
    sig = inspect.signature(cls.__init__)
    assert all(p.default is not inspect.Parameter.empty for name, p in sig.parameters.items() if name != "self")
    assert all(v is not None for k, v in cls().get_params().items()
               if k not in ("bounds", "random_state", "randomness", "accountant"))
    for name, (value, source) in cls._public_defaults.items():
        assert sig.parameters[name].default == value and len(source) > 10
    est = cls(bounds=MOONS_BOUNDS if cls is not dpclust.DRBT else None, random_state=0).fit(X)
    assert est.labels_.shape == (len(X),)


def test_dpdbscan_radius_is_alpha_and_eps_is_a_deprecated_alias():
    with pytest.warns(FutureWarning, match=r"eps is scikit-learn's name for the DBSCAN radius, which DP-DBSCAN calls "
                                           r"alpha \(epsilon is the privacy budget\)\. Pass alpha= instead"):
        est = dpclust.DPDBSCAN(eps=0.2, min_pts=7)
    assert est.alpha == 0.2 and est.epsilon == 1.0 and "eps" not in est.get_params()
    with pytest.raises(TypeError, match="got both 'eps' and 'alpha'"):
        dpclust.DPDBSCAN(eps=0.2, alpha=0.3)
    assert dpclust.DPDBSCAN(epsilon=0.5).get_params()["epsilon"] == 0.5  # the budget keeps its name
    assert "The DBSCAN radius is ``alpha``" in dpclust.DPDBSCAN.__doc__


@pytest.mark.parametrize("cls", [dpclust.DPDBSCAN, dpclust.DPKMeans, dpclust.PrivTHR, dpclust.NDLaplace])
def test_y_is_ignored(cls, moons):
    X, y = moons
    kw = dict(bounds=MOONS_BOUNDS, random_state=2)
    with_y = cls(**kw).fit(X, [f"class {v}" for v in y])  # not integer labels: ignored, as scikit-learn does
    without = cls(**kw).fit(X)
    assert np.array_equal(with_y.labels_, without.labels_) and with_y.ledger_ == without.ledger_


def test_drbt_reads_y_only_with_class_attribute(moons):
    X, y = moons
    plain = dpclust.DRBT(random_state=1).fit(X, y)
    assert np.array_equal(plain.X_disguised_, dpclust.DRBT(random_state=1).fit(X).X_disguised_)
    with_class = dpclust.DRBT(class_attribute=True, random_state=1)
    with pytest.raises(ValueError, match="class_attribute=True appends the class label as an attribute: pass y"):
        with_class.fit(X)
    assert not np.array_equal(with_class.fit(X, y).X_disguised_, plain.X_disguised_)


@pytest.mark.parametrize("bad,error,message", [
    (np.array([[0.0, np.nan], [1.0, 1.0]]), ValueError, "Input X contains NaN: point 0 .* coordinate 1 is not finite"),
    (np.array([[0.0, 1.0], [1.0, -np.inf]]), ValueError, "Input X contains infinity .*: point 1 .* coordinate 1"),
    (np.empty((0, 2)), ValueError, r"Found array with 0 sample\(s\) \(shape=\(0, 2\)\) while a minimum of 1 is required"),
    (np.array([[1 + 2j, 0.0]]), ValueError, "Complex data not supported"),
    (np.array([0.0, 1.0]), ValueError, "Expected 2D array, got 1D array instead"),
    (np.array([[{"a": 1}, 0.0]], dtype=object), TypeError, "float"),
])
def test_scikit_learn_input_errors(bad, error, message):
    with pytest.raises(error, match=message):
        dpclust.DPKMeans(k=1, bounds=(-5, 5)).fit(bad)


def test_sparse_input_and_feature_count(moons):
    sparse = pytest.importorskip("scipy.sparse")
    X, _ = moons
    with pytest.raises(TypeError, match="A sparse matrix was passed, but dense data is required"):
        dpclust.DPKMeans(k=2, bounds=MOONS_BOUNDS).fit(sparse.csr_matrix(X))
    est = dpclust.DPKMeans(k=2, bounds=MOONS_BOUNDS).fit(X)
    with pytest.raises(ValueError, match="X has 3 features, but DPKMeans is expecting 2 features as input"):
        est.predict(np.zeros((2, 3)))
    with pytest.raises(dpclust.NotFittedError, match="This DPKMeans instance is not fitted yet"):
        dpclust.DPKMeans().predict(X)


def test_data_limits_name_the_shape():
    with pytest.raises(ValueError, match=r"exceeds the number of points of dataset 'X' \(1\)(.|\n)*n_samples=1, n_features=10"):
        dpclust.DPKMeans(bounds=(0, 3)).fit(np.ones((1, 10)))  # k = 8 clusters from 1 point


def test_labels_are_consecutive_and_release_labels_are_the_releases(moons):
    X, _ = moons
    # Seed 3: one of PrivTHR's released clusters (cell ids 0..4) holds none of the 300 points.
    est = dpclust.PrivTHR(g=20, p=0.5, epsilon=1.0, bounds=MOONS_BOUNDS, random_state=3).fit(X)
    release_ids = np.unique(est.release_labels_)
    assert np.array_equal(release_ids, [-1, 0, 2, 3])  # a gap: cluster 1 of the release is empty here
    assert np.array_equal(np.unique(est.labels_), [-1, 0, 1, 2])
    assert np.array_equal(np.unique(est.cell_labels_), [-1, 0, 1, 2, 3])  # the release itself is untouched
    # The same partition, renumbered in order; predict is the release's classifier (post-processing only).
    assert np.array_equal(release_ids[1:][est.labels_[est.labels_ >= 0]], est.release_labels_[est.labels_ >= 0])
    assert np.array_equal(est.labels_ < 0, est.release_labels_ < 0)
    assert np.array_equal(est.predict(X), est.release_labels_)
    assert dpclust.metrics.ari(est.labels_, est.release_labels_) == 1.0
    # Without a gap both are the same array.
    km = dpclust.DPKMeans(k=2, bounds=MOONS_BOUNDS, random_state=0).fit(X)
    assert km.labels_ is km.release_labels_


@pytest.mark.parametrize("cls", ESTIMATORS)
def test_help_shows_parameters_defaults_and_privacy(cls):
    text = pydoc.render_doc(cls, renderer=pydoc.plaintext)
    info = dpclust.method_info(cls._method)
    for p in info["params"]:
        assert f"{p['name']} : {p['type']}, default=" in text, p["name"]
    assert "Privacy: " in text and "random_state : int" in text and "Reference: " in text
    assert ("accountant : dpclust.BudgetAccountant" in text) == info["private"]
    sig = str(inspect.signature(cls))
    assert "random_state: 'RandomState' = None" in sig or "random_state=None" in sig


def test_every_public_name_is_documented():
    for name in dpclust.__all__:
        obj = getattr(dpclust, name)
        assert (obj.__doc__ or "").strip(), name
        if inspect.isfunction(obj):
            assert "return" in inspect.getsource(obj) and obj.__annotations__, name
    for module in (dpclust.metrics, dpclust.datasets, dpclust.accountant):
        for name in getattr(module, "__all__", [n for n in dir(module) if not n.startswith("_")]):
            obj = getattr(module, name)
            if callable(obj) and getattr(obj, "__module__", "").startswith("dpclust"):
                assert (obj.__doc__ or "").strip(), f"{module.__name__}.{name}"
