"""Issue 25: the estimators as a scikit-learn user meets them: public defaults, the DBSCAN radius named
apart from the privacy budget, y ignored, scikit-learn's input errors, consecutive cluster ids next to the
release's, and help() that shows parameters, defaults and the privacy guarantee."""
import inspect
import pydoc
import warnings

import numpy as np
import pytest

import dpclust

ESTIMATORS = [dpclust.DPDBSCAN, dpclust.DPKMeans, dpclust.EUGkM, dpclust.FastLloyd, dpclust.HSTClustering, dpclust.HybridKMeans, dpclust.LSHClustering, dpclust.WaveCluster, dpclust.WCBaseline, dpclust.PrivQT, dpclust.PrivTHR,
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
        assert sig.parameters[cls._renamed.get(name, name)].default == value and len(source) > 10
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
        dpclust.DPKMeans(n_clusters=1, bounds=(-5, 5)).fit(bad)


def test_sparse_input_and_feature_count(moons):
    sparse = pytest.importorskip("scipy.sparse")
    X, _ = moons
    with pytest.raises(TypeError, match="A sparse matrix was passed, but dense data is required"):
        dpclust.DPKMeans(n_clusters=2, bounds=MOONS_BOUNDS).fit(sparse.csr_matrix(X))
    est = dpclust.DPKMeans(n_clusters=2, bounds=MOONS_BOUNDS).fit(X)
    with pytest.raises(ValueError, match="X has 3 features, but DPKMeans is expecting 2 features as input"):
        est.predict(np.zeros((2, 3)))
    with pytest.raises(dpclust.NotFittedError, match="This DPKMeans instance is not fitted yet"):
        dpclust.DPKMeans().predict(X)


def test_data_limits_name_the_shape():
    # DRBT (not private: nothing of the data to protect) refuses K-means with k = 2 clusters from 1 point.
    with pytest.raises(ValueError, match=r"exceeds the number of points of dataset 'X' \(1\)(.|\n)*n_samples=1, n_features=10"):
        dpclust.DRBT().fit(np.ones((1, 10)))


def test_a_private_estimators_error_never_states_the_number_of_records():
    # LSH clustering (central DP, add/remove neighbours) refuses a one-point fit: the point's box has width 0.
    # Its message names the width of X but not n_samples, which is private under that relation.
    with pytest.raises(ValueError) as raised:
        dpclust.LSHClustering(n_clusters=2).fit(np.ones((1, 10)))
    assert "n_features=10" in str(raised.value)
    assert "n_samples" not in str(raised.value) and "1 sample" not in str(raised.value)


def test_n_iter_of_a_data_derived_grid_is_reported():
    # With n from the data EUGkM's grid is a function of the private data: its counts move from diagnostics_ to
    # evaluation_, and n_iter_ (a non-private diagnostic like inertia_) still reports the Lloyd iterations.
    X, _ = dpclust.datasets.make_blobs(n_samples=400, centers=3, random_state=2)
    bounds = (X.min() - 1, X.max() + 1)
    with pytest.warns(dpclust.NotPrivateReleaseWarning):
        est = dpclust.EUGkM(n_clusters=3, n_source="data", bounds=bounds, random_state=0).fit(X)
    assert "kmeans_iterations" not in est.diagnostics_
    assert est.n_iter_ == est.evaluation_["kmeans_iterations"] >= 1


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
    km = dpclust.DPKMeans(n_clusters=2, bounds=MOONS_BOUNDS, random_state=0).fit(X)
    assert km.labels_ is km.release_labels_


@pytest.mark.parametrize("cls", ESTIMATORS)
def test_help_shows_parameters_defaults_and_privacy(cls):
    text = pydoc.render_doc(cls, renderer=pydoc.plaintext)
    info = dpclust.method_info(cls._method)
    for p in info["params"]:
        assert f"{cls._renamed.get(p['name'], p['name'])} : {p['type']}, default=" in text, p["name"]
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


# --- issue 36: scikit-learn's names and methods, messages in a Python user's words -------------------------

def test_n_clusters_is_the_kmeans_name_and_k_a_deprecated_alias(moons):
    X, _ = moons
    assert dpclust.DPKMeans(3).n_clusters == 3 == dpclust.DPKMeans(n_clusters=3).get_params()["n_clusters"]
    assert "k" not in dpclust.DPKMeans().get_params() and dpclust.DPKMeans().n_clusters == 8  # KMeans' default
    assert list(inspect.signature(dpclust.DPKMeans).parameters)[0] == "n_clusters"
    with pytest.raises(TypeError, match="takes 1 positional argument"):
        dpclust.DPKMeans(3, 1.0)
    with pytest.raises(TypeError, match="multiple values for argument 'n_clusters'"):
        dpclust.DPKMeans(3, n_clusters=4)
    with pytest.warns(FutureWarning, match="k is the engine's .* name for scikit-learn's n_clusters. Pass n_clusters="):
        old = dpclust.DPKMeans(k=3)
    assert old.n_clusters == 3
    est = dpclust.DPKMeans(2)
    assert est.set_params(n_clusters=3) is est and est.n_clusters == 3
    with pytest.warns(FutureWarning, match=r"DPKMeans.set_params\(k=...\)"):
        est.set_params(k=4)
    with pytest.warns(FutureWarning):
        assert est.k == 4
    with pytest.raises(TypeError, match="got both 'k' and 'n_clusters'"):
        dpclust.DPKMeans(k=2, n_clusters=3)
    fitted = dpclust.DPKMeans(3, bounds=MOONS_BOUNDS, random_state=1).fit(X)
    assert fitted.cluster_centers_.shape == (3, 2) and fitted.params_["k"] == 3  # params_: the engine's names
    for cls in (dpclust.NDLaplace, dpclust.DRBT):  # their K-means steps take the same name
        assert "n_clusters" in cls().get_params() and "k" not in cls().get_params()


def test_score_and_transform_are_kmeans(moons):
    X, _ = moons
    est = dpclust.DPKMeans(3, bounds=MOONS_BOUNDS, random_state=5).fit(X)
    C = est.cluster_centers_
    D = est.transform(X)
    expected = np.sqrt(((X[:, None, :] - C[None, :, :]) ** 2).sum(axis=2))
    assert D.shape == (len(X), 3) and np.allclose(D, expected, rtol=1e-12, atol=1e-12)
    assert np.array_equal(D.argmin(axis=1), est.predict(X))
    inertia = (expected.min(axis=1) ** 2).sum()
    assert est.score(X) == pytest.approx(-inertia, rel=1e-12) and est.score(X) < 0
    w = np.arange(len(X)) % 3
    assert est.score(X, sample_weight=w) == pytest.approx(-(w * expected.min(axis=1) ** 2).sum(), rel=1e-12)
    assert np.allclose(dpclust.DPKMeans(3, bounds=MOONS_BOUNDS, random_state=5).fit_transform(X), D)
    sklearn = pytest.importorskip("sklearn")
    from sklearn.cluster import KMeans
    km = KMeans(3, n_init=1, random_state=0).fit(X)
    km.cluster_centers_ = C.copy()  # scikit-learn's KMeans at the released centres says the same numbers
    assert np.allclose(km.transform(X), D) and km.score(X) == pytest.approx(est.score(X), rel=1e-9)


def test_sample_weight_is_repeated_rows_charged_by_group_privacy(moons):
    X, _ = moons
    kw = dict(bounds=MOONS_BOUNDS, random_state=7)
    w = np.ones(len(X), dtype=int)
    w[:10] = 3
    w[10:20] = 0
    acc = dpclust.BudgetAccountant()
    weighted = dpclust.DPKMeans(2, epsilon=0.5, accountant=acc, **kw).fit(X, sample_weight=w)
    repeated = dpclust.DPKMeans(2, epsilon=0.5, **kw).fit(np.repeat(X, w, axis=0))
    assert np.array_equal(weighted.cluster_centers_, repeated.cluster_centers_)
    assert weighted.epsilon_spent_ == 1.5 and acc.total() == (1.5, 0.0)  # a record of weight 3 is 3 records
    assert weighted.labels_.shape == (len(X),) and np.array_equal(weighted.release_labels_, weighted.predict(X))
    ones = dpclust.DPKMeans(2, **kw).fit(X, sample_weight=np.ones(len(X)))
    assert np.array_equal(ones.cluster_centers_, dpclust.DPKMeans(2, **kw).fit(X).cluster_centers_)
    assert ones.epsilon_spent_ == 1.0
    secret = np.ones(len(X))
    secret[4] = 0.123456
    with pytest.raises(ValueError) as err:
        dpclust.DPKMeans(2, **kw).fit(X, sample_weight=secret)
    assert "entry 4 (0-based) is not a non-negative integer" in str(err.value) and "0.123" not in str(err.value)
    with pytest.raises(ValueError, match=r"sample_weight.shape == \(3,\), expected \(300,\)"):
        dpclust.DPKMeans(2, **kw).fit(X, sample_weight=[1, 1, 1])
    # The other estimators refuse it and say why.
    for est, why in ((dpclust.DPDBSCAN(**kw), "noisy cell counts are calibrated for a record counted once"),
                     (dpclust.PrivTHR(**kw), "grid counts a row once"), (dpclust.NDLaplace(**kw), "local privacy"),
                     (dpclust.DRBT(random_state=1), "treat every row once")):
        with pytest.raises(TypeError, match=f"does not take sample_weight: .*{why}"):
            est.fit(X, sample_weight=w)
    with pytest.raises(TypeError, match="unexpected keyword argument 'weights'"):
        dpclust.DPDBSCAN(**kw).fit(X, weights=w)


SECRET = 987654.321


@pytest.mark.parametrize("bad,error,expected", [
    (np.array([SECRET, 1.0, 2.0]), ValueError, r"Expected 2D array, got 1D array instead \(DPKMeans: X of shape \(3,\)"),
    (np.float64(SECRET), ValueError, "Expected 2D array, got scalar array instead"),
    (np.array([[1.0, 2.0], ["987654.321x", 3.0]], dtype=object), ValueError,
     r"X must hold numbers: point 1 \(0-based\): coordinate 0 is text"),
    (np.array([[SECRET + 1j, 0.0]]), ValueError, "Complex data not supported: DPKMeans: X of shape"),
])
def test_input_errors_never_quote_the_data(bad, error, expected):
    with pytest.raises(error, match=expected) as err:
        dpclust.DPKMeans(1, bounds=(-5, 5)).fit(bad)
    assert "987654" not in str(err.value) and "9.87654" not in str(err.value)
    assert err.value.__cause__ is None and err.value.__suppress_context__  # the original text is not printed either
    est = dpclust.DPKMeans(1, bounds=(-5, 5), random_state=0).fit(np.zeros((3, 2)))
    with pytest.raises(ValueError) as err:
        est.predict(np.array([SECRET, 1.0]))
    assert "987654" not in str(err.value)


def test_a_text_field_of_a_data_frame_is_named_by_column_not_value():
    pd = pytest.importorskip("pandas")
    df = pd.DataFrame({"x": [1.0, 2.0, 3.0], "name": ["a", "b", "Alice Smith"]})
    with pytest.raises(ValueError) as err:
        dpclust.DPKMeans(1, bounds=(-5, 5)).fit(df)
    assert "point 0 (0-based): coordinate 1 (column 'name') is text" in str(err.value)
    assert "Alice" not in str(err.value) and "'a'" not in str(err.value)


def test_engine_messages_name_what_python_sets():
    X = np.random.default_rng(0).uniform(10, 90, size=(40, 2))
    X[2] = (500.0, 5.0)
    for est in (dpclust.DPKMeans(2, bounds=(0, 100), random_state=0), dpclust.NDLaplace(bounds=(0, 100), random_state=0)):
        with pytest.raises(ValueError) as err:
            est.fit(X)
        text = str(err.value)
        assert "clip_to_bounds" not in text and "in the config" not in text, text
        assert "widen bounds=(lower, upper), or drop the rows outside them before fitting" in text, text
    with pytest.raises(ValueError) as err:
        dpclust.DPKMeans(n_clusters=0, bounds=(0, 100)).fit(X)
    assert str(err.value).startswith("DPKMeans.n_clusters: 'n_clusters' must be an integer >= 1, got 0"), err.value
    assert "fix: n_clusters is the number of clusters" in str(err.value)
    with pytest.raises(ValueError) as err:
        dpclust.NDLaplace(n_clusters=50, bounds=(0, 1000)).fit(X)  # local: its release publishes n
    assert "n_clusters = 50 (K-Means clusters) exceeds the number of points" in str(err.value)
    assert "choose n_clusters <= 40" in str(err.value), err.value
    # A central private estimator does not look at the true n before the run: no error names it.
    dpclust.DPKMeans(n_clusters=50, bounds=(0, 1000), random_state=0).fit(X)


def test_the_package_exports_no_typing_names():
    public = [name for name in dir(dpclust) if not name.startswith("_")]
    assert not {"Any", "Dict", "List", "Optional", "Tuple", "Union", "annotations"} & set(public), public
    assert set(dpclust.__all__) <= set(dir(dpclust))
    assert {"set_config", "get_config", "config_context", "BudgetAccountant", "DPKMeans"} <= set(dpclust.__all__)
    namespace = {}
    exec("from dpclust import *", namespace)
    assert "Any" not in namespace and "DPKMeans" in namespace


def test_eugkm_and_hybrid_release_centres_and_spend_epsilon():
    X, y = dpclust.datasets.make_blobs(n_samples=3000, centers=3, random_state=1)
    bounds = (-15, 15)
    eug = dpclust.EUGkM(3, epsilon=2.0, bounds=bounds, random_state=0).fit(X)
    assert eug.cluster_centers_.shape == (3, 2) and eug.epsilon_spent_ == 2.0
    # N~ eps_H / 10 = 3000 * 1.9 / 10 -> m = floor(sqrt(570)) = 23, give or take the noisy N.
    assert eug.diagnostics_["cells_per_dim"] in (23, 24) and eug.n_iter_ >= 1
    assert np.array_equal(eug.predict(X), eug.release_labels_)
    assert sum(e["epsilon"] for e in eug.ledger_["steps"]) == pytest.approx(2.0) and len(eug.ledger_["steps"]) == 2
    hyb = dpclust.HybridKMeans(3, epsilon=2.0, bounds=bounds, random_state=0).fit(X)
    assert hyb.diagnostics_["plan"] == "eugkm+dplloyd" and hyb.eugkm_centers_.shape == (3, 2)
    assert hyb.n_iter_ == hyb.diagnostics_["dplloyd_iterations"] >= 1
    # Both find the three blobs: each true centre has a released centre within 1.
    for est in (eug, hyb):
        for label in range(3):
            centre = X[y == label].mean(axis=0)
            assert np.min(np.linalg.norm(est.cluster_centers_ - centre, axis=1)) < 1.0
def test_dpdbscan_takes_scikit_learns_min_samples_without_a_warning(moons):
    import warnings as _w
    with _w.catch_warnings():
        _w.simplefilter("error")
        est = dpclust.DPDBSCAN(min_samples=7, alpha=0.2)
    assert est.min_pts == 7 and est.min_samples == 7 and "min_samples" not in est.get_params()
    est.set_params(min_samples=9)
    assert est.min_pts == 9
    with pytest.raises(TypeError, match="got both 'min_samples' and 'min_pts'"):
        dpclust.DPDBSCAN(min_samples=7, min_pts=8)


def test_per_column_bounds_as_in_a_config(moons):
    X, _ = moons
    lower, upper = MOONS_BOUNDS
    lo = np.broadcast_to(np.asarray(lower, dtype=float), (2,))
    hi = np.broadcast_to(np.asarray(upper, dtype=float), (2,))
    per_column = [[float(lo[j]), float(hi[j])] for j in range(2)]
    a = dpclust.DPKMeans(3, bounds=per_column, random_state=4).fit(X)
    b = dpclust.DPKMeans(3, bounds=(lo.tolist(), hi.tolist()), random_state=4).fit(X)
    assert np.array_equal(a.cluster_centers_, b.cluster_centers_)
    assert np.array_equal(np.asarray(a.bounds_, dtype=float), np.asarray(b.bounds_, dtype=float))
    X3 = np.column_stack([X, X[:, 0]])
    c = dpclust.DPKMeans(2, bounds=per_column + [per_column[0]], random_state=1).fit(X3)
    assert c.cluster_centers_.shape == (2, 3)


def test_read_file_reads_arff_with_nominal_attributes_and_missing_values(tmp_path):
    path = tmp_path / "clinical.arff"
    path.write_text("@relation c\n@attribute score {0,1,2,3}\n@attribute sex {m,f}\n@attribute age numeric\n"
                    "@attribute class {a,b}\n@data\n2,m,55,a\n3,f,?,b\n1,f,26,b\n")
    with pytest.raises(ValueError, match="1 of 3 rows have a missing value"):
        dpclust.datasets.read_file(path)
    data = dpclust.datasets.read_file(path, missing="drop", nominal="onehot")
    assert data.columns == ["score=0", "score=1", "score=2", "score=3", "sex=m", "sex=f", "age"]
    assert data.X.shape == (2, 7) and list(data.y) == [0, 1]
    codes = dpclust.datasets.read_file(path, missing="drop", columns=["age", "score"])
    assert codes.X.tolist() == [[55.0, 2.0], [26.0, 1.0]]


def test_read_file_reads_csv_text_true_false_and_date_columns_as_a_config_does(tmp_path):
    path = tmp_path / "trips.csv"
    path.write_text("pickup,fare,color,shared\n2019-03-23 20:21:09,7.0,yellow,False\n2019-03-24 08:00:00,5.0,green,True\n")
    plain = dpclust.datasets.read_file(path)  # text, true/false and timestamps left out (with one warning)
    assert plain.columns == ["fare"] and plain.y is None
    coded = dpclust.datasets.read_file(path, nominal="codes", nominal_order="appearance", dates="days")
    assert coded.columns == ["pickup", "fare", "color", "shared"]
    assert coded.X[:, 1:].tolist() == [[7.0, 0.0, 0.0], [5.0, 1.0, 1.0]]
    assert coded.X[0, 0] == pytest.approx(17978 + (20 * 3600 + 21 * 60 + 9) / 86400)
    brain = tmp_path / "brain.csv"
    brain.write_text("a,b\nx,y\n,\n1,2\n3,4\n")
    assert dpclust.datasets.read_file(brain, header_rows=2).columns == ["a_x", "b_y"]
