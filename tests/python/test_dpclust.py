"""The dpclust Python package (docs/python.md) against the engine and the `dpclust` binary.

Run by CTest (python_dpclust) with PYTHONPATH at the build's package and DPCLUST_BINARY at its binary;
every test writes into a temporary directory that is removed afterwards, and touches no network.
"""
import importlib.util
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import warnings

import numpy as np
import pytest

import dpclust
from dpclust import metrics

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(os.path.dirname(HERE))
SHAPES = os.path.join(SOURCE, "configs", "builtin", "dpdbscan_shapes.yaml")
BINARY = os.environ.get("DPCLUST_BINARY", "")
needs_binary = pytest.mark.skipif(not os.path.isfile(BINARY), reason="DPCLUST_BINARY (the dpclust binary) not set")
needs_pandas = pytest.mark.skipif(importlib.util.find_spec("pandas") is None, reason="pandas not installed (python3-pandas)")
needs_sklearn = pytest.mark.skipif(importlib.util.find_spec("sklearn") is None, reason="scikit-learn not installed (python3-sklearn)")

ESTIMATORS = [dpclust.DPDBSCAN, dpclust.DPKMeans, dpclust.FastLloyd, dpclust.HSTClustering, dpclust.LSHClustering, dpclust.WaveCluster,
              dpclust.WCBaseline, dpclust.PrivQT, dpclust.PrivTHR, dpclust.PrivTHREM, dpclust.NDLaplace, dpclust.DRBT]


@pytest.fixture
def workdir():
    d = tempfile.mkdtemp(prefix="dpclust_py_")
    try:
        yield d
    finally:
        shutil.rmtree(d, ignore_errors=True)


@pytest.fixture(scope="module")
def moons():
    return dpclust.load_dataset(SHAPES, "moons")


def cli(*args, cwd=None):
    return subprocess.run([BINARY, *args], capture_output=True, text=True, cwd=cwd, timeout=120)


def fitted(cls, X, **params):
    """A small fit of every estimator (public bounds where they are needed)."""
    defaults = {dpclust.DPDBSCAN: dict(alpha=0.2, min_pts=7), dpclust.DPKMeans: dict(n_clusters=2),
                dpclust.LSHClustering: dict(n_clusters=2), dpclust.FastLloyd: dict(n_clusters=2),
                dpclust.HSTClustering: dict(n_clusters=2, epsilon=10.0),
                dpclust.NDLaplace: dict(epsilon=2.0, n_clusters=2, n_init=1, pe_max_pairs=1000),
                dpclust.DRBT: dict(k_dims=2, n_clusters=2)}
    kw = defaults.get(cls, dict(g=20, p=0.5, epsilon=1.0) if cls is not dpclust.WaveCluster else dict(g=20, p=0.5))
    if cls is not dpclust.DRBT:
        kw["bounds"] = ((-2.5, -2.5), (2.5, 2.5))
    kw.update(params)
    return cls(random_state=3, **kw).fit(X)


# --- estimator conventions -----------------------------------------------------------------------

@pytest.mark.parametrize("cls", ESTIMATORS)
def test_parameters_are_the_methods_paramspecs(cls):
    info = dpclust.method_info(cls._method)
    # The engine's names, except where scikit-learn's differs (k -> n_clusters for the K-means steps).
    py = {p["name"]: cls._renamed.get(p["name"], p["name"]) for p in info["params"]}
    names = set(py.values()) | {"bounds", "random_state", "randomness"}
    if info["private"]:
        names.add("accountant")  # dpclust.accountant: charged on every fit of a private estimator
    est = cls()
    assert set(est.get_params()) == names
    for p in info["params"]:
        # A parameter a config must set has a documented public default here (scikit-learn needs one).
        expected = cls._public_defaults[p["name"]][0] if p["required"] else p["default"]
        assert est.get_params()[py[p["name"]]] == (tuple(expected) if isinstance(expected, list) else expected)
        assert py[p["name"]] in cls.__doc__


@pytest.mark.parametrize("cls", ESTIMATORS)
@needs_sklearn
def test_clone_and_params_round_trip(cls, moons):
    from sklearn.base import clone
    est = fitted(cls, moons.X)
    params = est.get_params()
    twin = clone(est)
    assert twin.get_params() == params and not hasattr(twin, "labels_")
    assert cls(**params).get_params() == params
    assert twin.set_params(random_state=11) is twin and twin.random_state == 11
    assert repr(est).startswith(cls.__name__ + "(")
    # fit returns self; same random_state, same numbers
    again = clone(est).fit(moons.X)
    assert np.array_equal(again.labels_, est.labels_) and again.ledger_ == est.ledger_ and again.seed_ == 3
    assert est.labels_.shape == (len(moons.X),) and est.n_features_in_ == 2


def test_lsh_clustering_releases_centres_under_one_joint_account(moons):
    est = fitted(dpclust.LSHClustering, moons.X, n_clusters=4, release_coreset=True)
    centres = est.cluster_centers_
    assert centres.shape[1] == 2 and 1 <= centres.shape[0] <= 4
    assert np.array_equal(est.predict(moons.X), est.release_labels_)  # nearest released centre (evaluation only)
    assert est.transform(moons.X).shape == (len(moons.X), centres.shape[0])
    steps = est.ledger_["steps"]
    account = [s for s in steps if s.get("joint_total")]
    assert len(account) == 1 and account[0]["epsilon"] == 1.0 and account[0]["delta"] == 1e-6
    assert sorted(s["mechanism"] for s in steps if not s.get("joint_total")) == ["discrete_gaussian", "discrete_laplace"]
    assert sum(s["epsilon"] for s in steps) == est.epsilon_spent_ == 1.0 and est.delta_spent_ == 1e-6
    assert est.privacy_notion_.startswith("(eps, delta)-DP")
    assert len(est.release_["coreset"]["weights"]) == est.diagnostics_["leaves"]
    assert est.diagnostics_["accounting"] == "rdp" and "inertia" in est.evaluation_
    with pytest.raises(TypeError, match="sample_weight"):
        dpclust.LSHClustering(2, bounds=((-2.5, -2.5), (2.5, 2.5))).fit(moons.X, sample_weight=np.ones(len(moons.X)))
    with pytest.raises(ValueError, match="accounting: pld"):  # the exact PLD certifies the continuous Gaussian only
        dpclust.LSHClustering(2, accounting="pld", bounds=((-2.5, -2.5), (2.5, 2.5)), random_state=0).fit(moons.X)


def test_fastlloyd_releases_centres_under_one_gaussian_budget(moons):
    """FastLloyd: k centres, the noisy N and every iteration's noisy counts released; the Gaussian budget is one joint
    account whose steps are the iterations' sums and counts; Laplace noise is pure epsilon-DP and needs delta 0."""
    est = fitted(dpclust.FastLloyd, moons.X, n_clusters=3)
    assert est.cluster_centers_.shape == (3, 2)
    assert np.all(np.abs(est.cluster_centers_) <= 2.5)  # folded into the public box
    assert np.array_equal(est.predict(moons.X), est.release_labels_)
    assert est.n_iter_ == est.diagnostics_["iterations"] and 2 <= est.n_iter_ <= 7  # the authors' rule on the noisy N
    assert est.noisy_counts_.shape == (est.n_iter_, 3) and "n_estimate" in est.release_
    steps = est.ledger_["steps"]
    account = [s for s in steps if s.get("joint_total")]
    assert len(account) == 1 and account[0]["epsilon"] == pytest.approx(0.95) and account[0]["delta"] == 1e-6
    assert sorted({s["mechanism"] for s in steps if not s.get("joint_total")}) == ["discrete_gaussian", "discrete_laplace"]
    assert len(steps) == 2 + 2 * est.n_iter_  # the noisy N, the account, sums and counts per iteration
    assert est.epsilon_spent_ == pytest.approx(1.0) and est.delta_spent_ == 1e-6
    laplace = fitted(dpclust.FastLloyd, moons.X, n_clusters=3, noise="laplace", delta=0.0, iterations=3)
    assert laplace.delta_spent_ == 0 and laplace.n_iter_ == 3 and laplace.privacy_notion_.startswith("eps-DP")
    # Laplace noise leaves the default delta unused (as a dataset-level delta in a config): pure eps-DP, delta 0 spent.
    laplace_default_delta = fitted(dpclust.FastLloyd, moons.X, n_clusters=3, noise="laplace", iterations=3)
    assert laplace_default_delta.delta_spent_ == 0 and laplace_default_delta.privacy_notion_.startswith("eps-DP")
    assert {s["mechanism"] for s in laplace_default_delta.ledger_["steps"]} == {"discrete_laplace"}
    with pytest.raises(TypeError, match="sample_weight"):
        dpclust.FastLloyd(2, bounds=((-2.5, -2.5), (2.5, 2.5))).fit(moons.X, sample_weight=np.ones(len(moons.X)))
    # The authors' variant: their seeded noise streams, flagged.
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", dpclust.NotPrivateReleaseWarning)
        authors = fitted(dpclust.FastLloyd, moons.X, n_clusters=3, variant="authors", sampler="textbook")
    assert not authors.private_release_ and any("seed x i" in note for note in authors.non_private_)


def test_hst_clustering_releases_cell_midpoints_under_two_typed_entries():
    """HST clustering: at most n_clusters centres, each the midpoint of a cell of the public box; the ledger's two
    entries (the Gaussian on the counts, the threshold) add up to (epsilon, delta); the authors variant is flagged
    and charged its true epsilon; sample_weight is refused."""
    from sklearn.datasets import make_blobs
    X, _ = make_blobs(20000, 2, centers=6, center_box=(-10, 10), random_state=2)
    est = dpclust.HSTClustering(6, bounds=(-15, 15), release_tree=True, random_state=4).fit(X)
    centres = est.cluster_centers_
    assert 1 <= centres.shape[0] <= 6 and centres.shape[1] == 2
    assert np.all(np.abs(centres) < 15)
    steps = est.ledger_["steps"]
    assert [s["mechanism"] for s in steps] == ["discrete_gaussian", "discrete_gaussian"]
    assert [s["sensitivity_norm"] for s in steps] == ["l2", "l0"]
    assert sum(s["epsilon"] for s in steps) == est.epsilon_spent_ == 1.0
    assert abs(sum(s["delta"] for s in steps) - 1e-5) < 1e-18 and est.delta_spent_ == 1e-5
    assert est.diagnostics_["cells_per_record"] == 20 and est.non_private_ == []
    cells = est.release_["tree"]["cells"]
    assert len(cells) == est.diagnostics_["released_cells"] and all(c["noisy_count"] >= est.diagnostics_["threshold"] for c in cells)
    assert np.array_equal(est.predict(X), est.release_labels_)
    again = dpclust.HSTClustering(6, bounds=(-15, 15), release_tree=True, random_state=4).fit(X)
    assert np.array_equal(again.cluster_centers_, centres)
    authors = dpclust.HSTClustering(6, bounds=(-15, 15), variant="authors", sampler="textbook", random_state=4).fit(X)
    assert not authors.private_release_ and any("variant: authors" in n for n in authors.non_private_)
    assert 1.02 < authors.epsilon_spent_ < 1.03  # the root's count: 21 counts a record, sigma for 20
    with pytest.raises(TypeError, match="sample_weight"):
        dpclust.HSTClustering(2, bounds=(-15, 15)).fit(X, sample_weight=np.ones(len(X)))
    with pytest.raises(ValueError, match="layers"):
        dpclust.HSTClustering(2, layers=0, bounds=(-15, 15)).fit(X)


def test_unknown_parameter_names():
    with pytest.raises(TypeError, match="did you mean 'alpha'"):
        dpclust.DPDBSCAN(alhpa=0.2)
    with pytest.raises(ValueError):
        dpclust.DPDBSCAN().set_params(alhpa=0.2)


def test_predict_is_the_release_classifier(moons):
    db = fitted(dpclust.DPDBSCAN, moons.X)
    assert np.array_equal(db.predict(moons.X), db.release_labels_)  # the span classifier labelled the data (evaluation)
    assert db.n_spans_ == len(db.spans_) == db.diagnostics_["spans"]
    assert np.array_equal(db.predict([[10.0, 10.0]]), [-1])  # outside the domain: noise
    km = fitted(dpclust.DPKMeans, moons.X)
    assert km.cluster_centers_.shape == (2, 2) and np.array_equal(km.predict(moons.X), km.release_labels_)
    for cls in (dpclust.PrivQT, dpclust.WaveCluster):
        wc = fitted(cls, moons.X)
        assert np.array_equal(wc.predict(moons.X), wc.release_labels_)


def test_transformers(moons):
    nd = dpclust.NDLaplace(epsilon=2.0, n_clusters=2, n_init=1, pe_max_pairs=1000, bounds=moons.bounds, random_state=5)
    Z = nd.fit_transform(moons.X)
    assert Z.shape == moons.X.shape and not np.array_equal(Z, moons.X)
    assert np.array_equal(nd.transform(moons.X), Z)  # the same trial: same seed, same rows
    assert nd.ledger_["measure"] == "local"
    dr = dpclust.DRBT(k_dims=1, n_clusters=2, random_state=5)
    assert dr.fit_transform(moons.X).shape == (len(moons.X), 1) and "stress" in dr.evaluation_
    assert "method is not differentially private" in dr.non_private_


# --- parameters validated by the CLI's ParamSpecs, in its words ------------------------------------------

def cli_message(workdir, method_entry):
    """stderr of `dpclust validate` on a Moons config with this method entry."""
    config = os.path.join(workdir, "bad.yaml")
    with open(config, "w") as f:
        f.write("experiment: bad\ndatasets:\n  - name: moons\n    generator: {type: moons, n_samples: 50}\n"
                "    bounds: [[-2, 3], [-2, 3]]\nmethods:\n  - " + method_entry + "\n")
    r = cli("validate", config)
    assert r.returncode == 2, r.stdout + r.stderr
    return r.stderr


@needs_binary
@pytest.mark.parametrize("cls,method,bad,fixed", [
    (dpclust.DPDBSCAN, "dp_dbscan", {"epsilon": -1}, {"alpha": 0.2, "min_pts": 7}),
    (dpclust.DPDBSCAN, "dp_dbscan", {"histogram": "nave"}, {"alpha": 0.2, "min_pts": 7}),
    (dpclust.DPKMeans, "dp_kmeans", {"k": 0}, {}),
    (dpclust.PrivTHR, "privthr", {"rho": 1.5}, {"g": 20, "p": 0.5, "epsilon": 1.0}),
])
def test_bad_parameter_is_a_value_error_with_the_cli_message(workdir, moons, cls, method, bad, fixed):
    params = {**fixed, **bad}
    entry = "{method: " + method + ", params: {" + ", ".join(f"{k}: {v}" for k, v in params.items()) + "}}"
    stderr = cli_message(workdir, entry)
    python_name = {v: k for k, v in cls._renamed.items()}  # scikit-learn's name where it differs (n_clusters for k)
    with pytest.raises(ValueError) as err:
        cls(bounds=moons.bounds, random_state=0, **{cls._renamed.get(k, k): v for k, v in params.items()}).fit(moons.X)
    message = str(err.value)
    # The CLI says "file:line:col methods[0].params.NAME: <problem>"; the estimator "Class.NAME: <problem>", with
    # the Python name of a renamed parameter.
    problem = message.split(": ", 1)[1]
    for py, engine in python_name.items():
        problem = problem.replace(py, engine)
    assert problem in stderr, (message, stderr)
    assert message.startswith(f"{cls.__name__}.{cls._renamed.get(next(iter(bad)), next(iter(bad)))}: ")


@needs_binary
def test_missing_required_parameter(workdir, moons):
    stderr = cli_message(workdir, "{method: dp_dbscan, params: {min_pts: 7}}")
    with pytest.raises(ValueError, match="method 'dp_dbscan' needs parameter 'alpha'") as err:
        dpclust.DPDBSCAN(alpha=None, min_pts=7, bounds=moons.bounds).fit(moons.X)  # None: not given, as in a config
    assert str(err.value).split(": ", 1)[1].split(")")[0] in stderr


def test_shape_checks_and_bad_bounds(moons):
    # k > n, the config's check_shape: refused for the local NDLaplace (its release publishes every perturbed point,
    # and so n); a central private estimator never decides on the true n (docs/privacy.md, "Checks before a run"):
    # it fits, its centres being noisy sums.
    with pytest.raises(ValueError, match=r"NDLaplace.n_clusters: .*n_clusters = 5000 \(K-Means clusters\) exceeds the number of points"):
        dpclust.NDLaplace(n_clusters=5000, bounds=moons.bounds).fit(moons.X)
    assert dpclust.DPKMeans(n_clusters=400, bounds=moons.bounds, random_state=0).fit(moons.X).cluster_centers_.shape == (400, 2)
    with pytest.raises(ValueError, match="outside"):
        dpclust.DPKMeans(n_clusters=2, bounds=(-0.1, 0.1)).fit(moons.X)  # points outside the public domain


# --- bounds: public or flagged ---------------------------------------------------------------------

def test_bounds_from_the_data_warn_and_flag(moons):
    with pytest.warns(dpclust.PrivacyLeakWarning):
        est = dpclust.DPKMeans(n_clusters=2, random_state=0).fit(moons.X)
    assert "domain bounds derived from the data (bounds: data)" in est.non_private_
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        est = dpclust.DPKMeans(n_clusters=2, bounds=moons.bounds).fit(moons.X)  # public bounds, secure noise: no warning
    assert est.private_release_ and est.randomness_ == "secure" and est.seed_ is None and est.non_private_ == []


def _not_private_warnings(fit, mode="always"):
    with warnings.catch_warnings(record=True) as caught, dpclust.config_context(warn_not_private=mode):
        warnings.simplefilter("always")
        est = fit()
    return est, [w for w in caught if issubclass(w.category, dpclust.NotPrivateReleaseWarning)]


def test_fits_that_are_not_private_releases_warn(moons):
    # Seeded: reproducible, so not a release (the seed regenerates the noise); one warning, at the caller's line.
    est, caught = _not_private_warnings(lambda: dpclust.DPKMeans(n_clusters=2, bounds=moons.bounds, random_state=4).fit(moons.X))
    assert not est.private_release_ and est.non_private_ == [] and est.randomness_ == "seeded"
    assert len(caught) == 1 and caught[0].category is dpclust.NotPrivateReleaseWarning
    assert "seeded randomness (random_state given" in str(caught[0].message) and caught[0].filename == __file__
    # A non-private method: says so once, in the engine's words.
    est, caught = _not_private_warnings(lambda: dpclust.DRBT(k_dims=2, n_clusters=2).fit(moons.X))
    assert est.randomness_ == "secure" and len(caught) == 1
    assert str(caught[0].message).count("not differentially private") == 1, caught[0].message
    est, caught = _not_private_warnings(lambda: dpclust.WaveCluster(g=20, p=0.5, bounds=moons.bounds).fit(moons.X))
    assert len(caught) == 1 and "WaveCluster (method wavecluster) is not differentially private" in str(caught[0].message)
    assert est.epsilon_spent_ == 0 and est.privacy_notion_ == "none"
    # Bounds from the data alone: the PrivacyLeakWarning (a NotPrivateReleaseWarning) and no second warning.
    est, caught = _not_private_warnings(lambda: dpclust.DPKMeans(n_clusters=2).fit(moons.X))
    assert [w.category for w in caught] == [dpclust.PrivacyLeakWarning] and not est.private_release_
    # A private method with an audited but non-secure sampler: the engine's note is the reason.
    est, caught = _not_private_warnings(lambda: dpclust.DPDBSCAN(alpha=0.2, min_pts=7, sampler="textbook",
                                                                 bounds=moons.bounds).fit(moons.X))
    assert not est.private_release_ and len(caught) == 1
    assert all(note in str(caught[0].message) for note in est.non_private_) and est.non_private_
    # Everything is silenced by one filter.
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.simplefilter("ignore", dpclust.NotPrivateReleaseWarning)
        dpclust.DPKMeans(n_clusters=2, random_state=0).fit(moons.X)


def test_not_private_warnings_once_per_class_and_reason_and_switched_off(moons):
    def seeded_kmeans(seed):
        return lambda: dpclust.DPKMeans(n_clusters=2, bounds=moons.bounds, random_state=seed).fit(moons.X)

    dpclust.set_config(warn_not_private=True)  # starts afresh: nothing warned yet in this process
    assert dpclust.get_config() == {"warn_not_private": True} and os.environ["DPCLUST_WARN_NOT_PRIVATE"] == "1"
    counts = [len(_not_private_warnings(seeded_kmeans(s), mode=None)[1]) for s in range(5)]
    assert counts == [1, 0, 0, 0, 0]  # the seeded-randomness reason of DPKMeans: said once
    # Another class, or another reason of the same class, is said once too.

    def fit():
        return dpclust.DPDBSCAN(alpha=0.2, min_pts=7, bounds=moons.bounds, random_state=1).fit(moons.X)
    assert len(_not_private_warnings(fit, mode=None)[1]) == 1
    est, caught = _not_private_warnings(lambda: dpclust.DPKMeans(n_clusters=2, random_state=0).fit(moons.X), mode=None)
    assert [w.category for w in caught] == [dpclust.PrivacyLeakWarning]  # data bounds: new; seeded: said already
    assert "seeded randomness" not in str(caught[0].message) and "set_config(warn_not_private=False)" in str(caught[0].message)
    # 'always' repeats on every fit; False says nothing, and the flags still say why.
    assert [len(_not_private_warnings(seeded_kmeans(s))[1]) for s in range(3)] == [1, 1, 1]
    est, caught = _not_private_warnings(seeded_kmeans(9), mode=False)
    assert caught == [] and est.private_release_ is False and est.randomness_ == "seeded"
    try:
        dpclust.set_config(warn_not_private=False)
        assert os.environ["DPCLUST_WARN_NOT_PRIVATE"] == "0"  # what worker processes started from here read
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            dpclust.DPKMeans(n_clusters=2, random_state=0).fit(moons.X)
    finally:
        dpclust.set_config(warn_not_private=True)
    with pytest.raises(ValueError, match="warn_not_private must be"):
        dpclust.set_config(warn_not_private="sometimes")


def test_the_warning_switch_reaches_other_processes(moons, tmp_path):
    # A new process reads DPCLUST_WARN_NOT_PRIVATE at import; the warnings go to its stderr.
    script = ("import dpclust\nX, _ = dpclust.datasets.make_moons(n_samples=200, random_state=1)\n"
              "for s in range(3):\n    dpclust.DPKMeans(2, bounds=((-2, -2), (3, 2)), random_state=s).fit(X)\n"
              "print(dpclust.get_config()['warn_not_private'])\n")
    env = dict(os.environ, PYTHONWARNINGS="default")
    for value, printed, warned in (("0", "False", 0), ("1", "True", 1), ("always", "always", 3)):
        env["DPCLUST_WARN_NOT_PRIVATE"] = value
        out = subprocess.run([sys.executable, "-c", script], env=env, capture_output=True, text=True, timeout=120)
        assert out.returncode == 0, out.stderr
        assert out.stdout.strip() == printed
        assert out.stderr.count("NotPrivateReleaseWarning") == warned, out.stderr


# --- identical numbers to the CLI ----------------------------------------------------------------------

@needs_binary
@needs_pandas
def test_run_and_estimators_give_the_cli_numbers(workdir, moons):
    cli_out, py_out = os.path.join(workdir, "cli"), os.path.join(workdir, "py")
    r = cli("run", SHAPES, "--trials", "1", "--out", cli_out, "--no-progress")
    assert r.returncode == 0, r.stderr
    summary = dpclust.run(SHAPES, out=py_out, trials=1)
    assert summary["complete"] and summary["cells_run"] == 15
    a, b = dpclust.load_results(cli_out), dpclust.load_results(py_out)
    columns = ["dataset", "series", "seed", "ari", "ami", "n_clusters", "noise_fraction", "epsilon_spent"]
    assert a[columns].equals(b[columns])

    def strip(results):
        with open(results) as f:
            cells = json.load(f)["cells"]
        return [[{k: t.get(k) for k in ("seed", "metrics", "ledger", "release", "diagnostics")} for t in c["trials"]] for c in cells]
    assert strip(os.path.join(cli_out, "builtin_dpdbscan_shapes", "results.json")) == \
        strip(os.path.join(py_out, "builtin_dpdbscan_shapes", "results.json"))

    # An estimator with random_state = a trial's seed, on the config's dataset, is that trial.
    with open(os.path.join(cli_out, "builtin_dpdbscan_shapes", "results.json")) as f:
        cells = {(c["series"], c["dataset"]): c for c in json.load(f)["cells"]}
    for series, est in [("dp_dbscan_naive", dpclust.DPDBSCAN(histogram="naive", epsilon=1.0, alpha=0.2, min_pts=7)),
                        ("dp_dbscan_linear", dpclust.DPDBSCAN(histogram="linear", epsilon=1.0, alpha=0.2, min_pts=7)),
                        ("dp_kmeans", dpclust.DPKMeans(epsilon=1.0, n_clusters=2))]:
        trial = cells[(series, "moons")]["trials"][0]
        est.set_params(bounds=moons.bounds, random_state=trial["seed"]).fit(moons.X)
        assert est.release_ == trial["release"] and est.ledger_ == trial["ledger"] and est.diagnostics_ == trial["diagnostics"]
        assert metrics.ari(moons.y, est.labels_) == trial["metrics"]["ari"]
        assert metrics.ami(moons.y, est.labels_) == trial["metrics"]["ami"]


# --- a Python mechanism in a sweep -----------------------------------------------------------------------

def sweep(mechanism="grid_counts", epsilon=(0.5, 1.0), trials=3, private=True):
    method = {"method": "python", "callable": f"dpclust_test_mechanisms:{mechanism}", "as": "grid",
              "declare": {"cells": {"type": "integer", "default": 10, "min": 1}, "min_count": 3.0},
              "params": {"epsilon": list(epsilon)} if private else {}}
    if not private:
        method["private"] = False
    return {"experiment": "python_sweep", "seed": 7, "trials": trials,
            "datasets": [{"name": "moons", "generator": {"type": "moons", "n_samples": 400, "noise": 0.05, "seed": 1},
                          "bounds": [[-1.5, 2.5], [-1.0, 1.5]]}],
            "methods": [method, {"method": "dp_dbscan", "params": {"epsilon": list(epsilon), "alpha": 0.3, "min_pts": 5}}],
            "metrics": ["ari", "ami", "n_clusters"]}


@needs_pandas
def test_python_mechanism_runs_like_a_builtin(workdir):
    out = os.path.join(workdir, "out")
    summary = dpclust.run(sweep(), out=out, threads=2)
    assert summary["cells_run"] == 4 and summary["trials_run"] == 12 and summary["complete"]
    df = dpclust.load_results(out)
    grid = df[df.series == "grid"]
    assert len(grid) == 6 and set(grid.method) == {"python:dpclust_test_mechanisms:grid_counts"}
    assert (grid.epsilon_spent == grid.epsilon).all()  # the ledger, checked by the runner, is in the results
    assert {"cells", "min_count", "ari", "ami", "n_clusters", "diagnostics.dense_cells"} <= set(df.columns)
    # Labels extracted for evaluation are not a privacy condition; a seeded run is not a secure release.
    assert grid.evaluation_only.str.contains("labels are extracted for evaluation only").all()
    assert not grid.private_release.any() and (grid.randomness == "seeded").all()
    # grid_counts draws its cell numbering from rng (numpy's PCG64): flagged even where the run were secure.
    assert grid.non_private.str.contains("randomness drawn from numpy's generator").all()
    with open(os.path.join(out, "python_sweep", "results.json")) as f:
        cell = json.load(f)["cells"][0]
    assert cell["trials"][0]["ledger"]["steps"][0]["mechanism"] == "discrete_laplace"
    assert len(cell["trials"][0]["release"]["noisy_counts"]) == 100
    # Deterministic per trial seed, on any thread count; a second run resumes every cell.
    again = os.path.join(workdir, "again")
    dpclust.run(sweep(), out=again, threads=1)
    assert dpclust.load_results(again)[["seed", "ari", "ami"]].equals(df[["seed", "ari", "ami"]])
    assert dpclust.run(sweep(), out=out)["up_to_date"]
    # The report and the audit take it like a built-in method.
    assert os.path.isfile(dpclust.report(out)["file"])
    audited = dpclust.audit(sweep(epsilon=(1.0,), trials=1), out=out, runs=200, pilot_runs=20)
    assert {c["series"] for c in audited["cells"]} == {"grid", "dp_dbscan"}
    assert all(c["verdict"] == "consistent" for c in audited["cells"])


def test_a_function_object_names_the_callable(workdir):
    import dpclust_test_mechanisms
    config = sweep(trials=1)
    config["methods"][0]["callable"] = dpclust_test_mechanisms.grid_counts  # "dpclust_test_mechanisms:grid_counts"
    assert dpclust.run(config, out=workdir)["cells_run"] == 4
    config["methods"][0]["callable"] = lambda *args: None
    with pytest.raises(ValueError, match="not importable by name"):
        dpclust.run(config, out=workdir)


def test_python_mechanism_declaration_errors(workdir):
    bad = sweep()
    bad["methods"][0]["params"]["cells"] = 0
    with pytest.raises(ValueError, match="'cells' must be an integer >= 1, got 0"):
        dpclust.run(bad, out=workdir)
    bad = sweep()
    bad["methods"][0]["callable"] = "dpclust_test_mechanisms:no_such_function"
    with pytest.raises(ValueError, match="no_such_function"):
        dpclust.run(bad, out=workdir)


@pytest.mark.parametrize("mechanism,message", [
    ("half_budget", r"BudgetLedger: spent \(eps=0.250000, delta=0.000000\) differs from the configured total \(eps=0.500000"),
    ("double_budget", r"BudgetLedger: spent \(eps=1.000000, delta=0.000000\) differs from the configured total \(eps=0.500000"),
])
def test_wrong_ledger_is_rejected(workdir, mechanism, message):
    with pytest.raises(RuntimeError, match=message):
        dpclust.run(sweep(mechanism, epsilon=(0.5,), trials=1), out=workdir)


def test_non_private_mechanism_cannot_spend_and_a_kept_ledger_is_closed(workdir):
    with pytest.raises(RuntimeError, match="non-private method tried to spend"):
        dpclust.run(sweep("spends_anyway", private=False, trials=1), out=workdir)
    import dpclust_test_mechanisms
    dpclust.run(sweep("keeps_ledger", epsilon=(0.5,), trials=1), out=os.path.join(workdir, "kept"))
    with pytest.raises(RuntimeError, match="trial that has finished"):
        dpclust_test_mechanisms.kept_ledger.laplace_counts([1.0], sensitivity=1, epsilon=0.1, step="late")


@needs_binary
@needs_pandas
def test_cli_hands_a_python_config_to_the_package(workdir):
    shutil.copy(os.path.join(HERE, "dpclust_test_mechanisms.py"), workdir)
    config = os.path.join(workdir, "sweep.json.yaml")
    with open(config, "w") as f:
        json.dump(sweep(), f, indent=1)  # JSON is YAML
    env = dict(os.environ, PYTHONPATH=os.environ.get("PYTHONPATH", ""))
    r = subprocess.run([BINARY, "run", config, "--out", os.path.join(workdir, "cli"), "--no-progress"], capture_output=True, text=True,
                       env=env, timeout=120)
    assert r.returncode == 0, r.stderr
    assert "method: python" in r.stderr and "4 cells run (12 trials)" in r.stdout
    ours = dpclust.run(config, out=os.path.join(workdir, "py"))
    assert ours["cells_run"] == 4
    a, b = dpclust.load_results(os.path.join(workdir, "cli")), dpclust.load_results(os.path.join(workdir, "py"))
    assert a[["series", "seed", "ari", "ami"]].equals(b[["series", "seed", "ari", "ami"]])


# --- the GIL -------------------------------------------------------------------------------------------------

def test_gil_is_released_while_the_engine_runs():
    X, _ = dpclust.datasets.make_blobs(n_samples=200000, centers=5, random_state=1)
    est = dpclust.DPKMeans(n_clusters=8, iterations=100, bounds=(-20, 20), random_state=0)
    stamps, stop = [], threading.Event()

    def count():  # another Python thread: a time stamp every 1000 increments
        n = 0
        while not stop.is_set():
            n += 1
            if n % 1000 == 0:
                stamps.append(time.perf_counter())

    t = threading.Thread(target=count)
    t.start()
    try:
        time.sleep(0.02)
        t0 = time.perf_counter()
        est.fit(X)
        t1 = time.perf_counter()
    finally:
        stop.set()
        t.join()
    # In which 10 ms slices of the fit the other thread ran: all of them when the engine releases the GIL;
    # at most the first and last (the Python around the engine call) when it holds it.
    slices = int((t1 - t0) / 0.01)
    active = {int((s - t0) / 0.01) for s in stamps if t0 <= s <= t1}
    assert slices >= 10, f"the fit took {t1 - t0:.3f} s; too short to tell"
    assert len(active) >= max(4, slices // 4), (len(active), slices)


# --- metrics -------------------------------------------------------------------------------------------------

@needs_sklearn
def test_metrics_match_scikit_learn_and_the_engine():
    from sklearn import metrics as sk
    rng = np.random.default_rng(0)
    a, b = rng.integers(-1, 4, 500), rng.integers(-1, 6, 500)
    assert metrics.ari(a, b) == pytest.approx(sk.adjusted_rand_score(a, b), abs=1e-12)
    assert metrics.ami(a, b) == pytest.approx(sk.adjusted_mutual_info_score(a, b), abs=1e-12)
    assert metrics.nmi(a, b) == pytest.approx(sk.normalized_mutual_info_score(a, b), abs=1e-12)
    assert metrics.f_measure(a, a) == 1.0 and metrics.overall_f_measure(a, a) == 1.0
    assert metrics.ocm(a, a) == 0.0 and metrics.two_ce(a, a) == 0.0 and metrics.two_ce(a, b) > 0
    with pytest.raises(ValueError, match="labels"):
        metrics.ari(a, b[:10])


def test_dsg_c_of_released_cells(moons):
    truth = fitted(dpclust.WaveCluster, moons.X)
    private = fitted(dpclust.PrivQT, moons.X, epsilon=0.5)
    assert metrics.dsg_c(truth.cell_labels_, truth.cell_labels_) == 0.0
    assert metrics.dsg_c(truth.cell_labels_, private.cell_labels_) > 0.0


def test_load_results_without_pandas(workdir, monkeypatch):
    dpclust.run(sweep(epsilon=(1.0,), trials=1), out=workdir)
    monkeypatch.setitem(sys.modules, "pandas", None)
    rows = dpclust.load_results(workdir)
    assert isinstance(rows, list) and {r["series"] for r in rows} == {"grid", "dp_dbscan"}
    assert all("ari" in r and "epsilon" in r for r in rows)


# --- randomness: seeded | secure, and the release flags ---------------------------------

def test_random_state_none_is_secure_and_not_reproducible(moons):
    kw = dict(alpha=0.2, min_pts=7, n_public=len(moons.X), bounds=((-2.5, -2.5), (2.5, 2.5)))
    a, b = dpclust.DPDBSCAN(**kw).fit(moons.X), dpclust.DPDBSCAN(**kw).fit(moons.X)
    assert a.randomness_ == "secure" and a.seed_ is None and a.reproducible_ is False
    # A label-free DP release with the secure sampler, public bounds and secure randomness is private; the
    # labels (span classifier on the true points) are evaluation-only, which is no privacy condition.
    assert a.non_private_ == [] and a.private_release_ is True
    assert any("evaluation only" in note for note in a.evaluation_only_)
    assert a.release_ != b.release_  # fresh noise from the OS CSPRNG, no seed to repeat it
    seeded = dpclust.DPDBSCAN(random_state=3, **kw).fit(moons.X)
    assert seeded.randomness_ == "seeded" and seeded.seed_ == 3 and seeded.reproducible_ and seeded.private_release_ is False
    again = dpclust.DPDBSCAN(random_state=3, **kw).fit(moons.X)
    assert again.release_ == seeded.release_
    fresh = dpclust.DPDBSCAN(randomness="seeded", **kw).fit(moons.X)
    assert isinstance(fresh.seed_, int) and fresh.private_release_ is False
    with pytest.raises(ValueError, match="takes no seed"):
        dpclust.DPDBSCAN(random_state=3, randomness="secure", **kw).fit(moons.X)
    with pytest.raises(ValueError, match="randomness must be"):
        dpclust.DPDBSCAN(randomness="crypto", **kw).fit(moons.X)
    with pytest.raises(ValueError, match="rng: numpy draws the authors' numpy stream from a seed"):
        dpclust.DPDBSCAN(rng="numpy", histogram="naive", sampler="textbook", **kw).fit(moons.X)


def _secure(config):
    config = dict(config)
    config.pop("seed", None)
    config["randomness"] = "secure"
    config["methods"][1]["params"]["n_public"] = 400  # dp_dbscan: n public, as the sweep's 400 points are
    return config


@needs_pandas
def test_noise_drawn_through_charge_is_flagged(workdir):
    df = dpclust.load_results(_run_dir(_secure(sweep("numpy_noise", epsilon=(1.0,), trials=2)), workdir))
    own = df[df.series == "grid"]
    assert len(own) == 2 and own.seed.isna().all() and (own.randomness == "secure").all()
    assert own.non_private.str.contains("noise drawn outside dpclust's audited samplers").all()
    assert not own.private_release.any()
    # The provided samplers keep a secure release private (dp_dbscan beside it too) ...
    df = dpclust.load_results(_run_dir(_secure(sweep("one_cluster", epsilon=(1.0,), trials=2)), os.path.join(workdir, "g")))
    assert df.private_release.all() and (df.non_private == "").all()
    # ... unless the mechanism also draws from numpy's generator: grid_counts renumbers its
    # cells with rng.permutation, which no ledger entry covers and no cryptographic source drew.
    df = dpclust.load_results(_run_dir(_secure(sweep("grid_counts", epsilon=(1.0,), trials=2)), os.path.join(workdir, "r")))
    own = df[df.series == "grid"]
    assert len(own) == 2 and not own.private_release.any()
    assert own.non_private.str.contains("randomness drawn from numpy's generator").all()
    assert df[df.series != "grid"].private_release.all()


def _run_dir(config, out):
    dpclust.run(config, out=out)
    return out


def test_load_results_reads_the_written_flag(workdir):
    # A cell of a private method with no non_private note whose trials say they are not a private release
    # (a seeded run): the flag written by the engine is what load_results returns, not a guess from
    # cell["private"] and the notes.
    cell = {"index": 0, "id": "0123456789abcdef", "dataset": "d", "method": "dp_dbscan", "series": "dp_dbscan",
            "params": {"epsilon": 1.0}, "private": True, "non_private": [], "private_release": False,
            "evaluation_only": [], "randomness": {"mode": "seeded"},
            "trials": [{"trial": 0, "seed": 11, "private_release": False, "metrics": {"ari": 0.5}, "ledger": {"steps": []}}]}
    os.makedirs(os.path.join(workdir, "e"))
    with open(os.path.join(workdir, "e", "results.json"), "w") as f:
        json.dump({"experiment": "e", "cells": [cell]}, f)
    rows = dpclust.load_results(os.path.join(workdir, "e"))
    rows = rows.to_dict("records") if hasattr(rows, "to_dict") else rows
    assert rows[0]["private_release"] is False or rows[0]["private_release"] == False  # noqa: E712
    assert rows[0]["seed"] == 11 and rows[0]["randomness"] == "seeded"
    cell["private_release"] = cell["trials"][0]["private_release"] = True
    cell["randomness"] = {"mode": "secure"}
    del cell["trials"][0]["seed"]
    with open(os.path.join(workdir, "e", "results.json"), "w") as f:
        json.dump({"experiment": "e", "cells": [cell]}, f)
    rows = dpclust.load_results(os.path.join(workdir, "e"))
    rows = rows.to_dict("records") if hasattr(rows, "to_dict") else rows
    assert rows[0]["private_release"] == True and rows[0]["randomness"] == "secure"  # noqa: E712
    assert rows[0]["seed"] is None or rows[0]["seed"] != rows[0]["seed"]  # None (NaN in a DataFrame)


def test_set_config_silences_grid_search_workers(tmp_path):
    pytest.importorskip("sklearn")
    # Seeded fits in GridSearchCV(n_jobs=2)'s worker processes: warnings.simplefilter in the parent does not reach
    # them (they print to the inherited stderr); dpclust.set_config does.
    script = ("import warnings, dpclust\nfrom sklearn.model_selection import GridSearchCV\n{setup}\n"
              "X, _ = dpclust.datasets.make_blobs(n_samples=200, centers=3, random_state=4)\n"
              "est = dpclust.DPKMeans(2, bounds=((-15, -15), (15, 15)), random_state=0)\n"
              "GridSearchCV(est, {{'n_clusters': [2, 3, 4]}}, cv=3, n_jobs=2).fit(X)\n")
    counts = {}
    for name, setup in (("filter", "warnings.simplefilter('ignore', dpclust.NotPrivateReleaseWarning)"),
                        ("set_config", "dpclust.set_config(warn_not_private=False)")):
        env = {k: v for k, v in os.environ.items() if k != "DPCLUST_WARN_NOT_PRIVATE"}
        out = subprocess.run([sys.executable, "-c", script.format(setup=setup)], env=env, capture_output=True, text=True,
                             timeout=300, cwd=tmp_path)
        assert out.returncode == 0, out.stderr
        counts[name] = out.stderr.count("NotPrivateReleaseWarning")
    assert counts["filter"] >= 1 and counts["set_config"] == 0, counts


@needs_sklearn
def test_dpm_estimator_releases_centres_and_spends_epsilon_delta():
    """DPM (no k): one centre per leaf of its split tree, (eps, delta) spent, seeded fits repeat, predict labels
    by the nearest released centre."""
    from sklearn.datasets import make_blobs
    X, _ = make_blobs(20000, 3, centers=8, center_box=(-50, 50), random_state=1)
    X = np.clip(X, -60, 60)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", dpclust.NotPrivateReleaseWarning)
        a = dpclust.DPM(epsilon=1.0, delta=1e-6, bounds=(-60, 60), random_state=3).fit(X)
        b = dpclust.DPM(epsilon=1.0, delta=1e-6, bounds=(-60, 60), random_state=3).fit(X)
    assert a.cluster_centers_.shape[1] == 3
    assert 1 <= a.n_clusters_ <= 2 ** 7
    assert (a.epsilon_spent_, a.delta_spent_) == (1.0, 1e-6)
    assert np.array_equal(a.cluster_centers_, b.cluster_centers_)
    assert np.array_equal(a.predict(X), a.release_labels_)
    with pytest.raises(ValueError, match="delta"):
        dpclust.DPM(epsilon=1.0, delta=0.0, bounds=(-60, 60), random_state=3).fit(X)


@needs_binary
def test_list_keeps_every_dataset_name_apart_from_its_file():
    """`dpclust list`: the registered datasets' column is as wide as the longest name (uci_gas_emissions ran into
    its file name when the column was fixed at 16)."""
    out = cli("list", "--json")
    assert out.returncode == 0, out.stderr
    rows = json.loads(out.stdout)["registered_datasets"]
    text = cli("list").stdout.splitlines()
    start = text.index(next(ln for ln in text if ln.startswith("registered datasets")))
    for row, line in zip(rows, text[start + 1:]):
        name, file = row["name"], row.get("file", "")
        assert line.startswith("  " + name + "  "), line
        if file:
            assert line.split()[1] == file, line
