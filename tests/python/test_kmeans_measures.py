"""dpclust.metrics' k-means measures: against scikit-learn, and equal to the numbers a results file holds for
the same points and centres (the same engine code, engine/metrics/kmeans_measures.hpp)."""
import importlib.util
import json
import pathlib
import shutil
import tempfile

import numpy as np
import pytest

import dpclust
from dpclust import metrics

needs_sklearn = pytest.mark.skipif(importlib.util.find_spec("sklearn") is None, reason="scikit-learn not installed (python3-sklearn)")


@pytest.fixture(scope="module")
def blobs():
    """Six separated blobs in 5-D (sd 1, centres in a box of side 60)."""
    rng = np.random.default_rng(4)
    centres = rng.uniform(-30, 30, size=(6, 5))
    y = np.arange(1200) % 6
    return centres[y] + rng.standard_normal((1200, 5)), y


@needs_sklearn
def test_inertia_and_normalized_cost_against_kmeans(blobs):
    from sklearn.cluster import KMeans
    X, _ = blobs
    km = KMeans(n_clusters=6, n_init=10, random_state=0).fit(X)
    assert metrics.inertia(X, km.cluster_centers_) == pytest.approx(km.inertia_, rel=1e-9)
    assert metrics.inertia_per_point(X, km.cluster_centers_) == pytest.approx(km.inertia_ / len(X), rel=1e-9)
    # On separated blobs the reference (best of 10 k-means++ restarts) reaches scikit-learn's optimum.
    assert metrics.normalized_kmeans_cost(X, km.cluster_centers_) == pytest.approx(1.0, abs=1e-9)
    assert metrics.centre_distance(X, km.cluster_centers_) == pytest.approx(0.0, abs=1e-9)
    # Two centres of six: a worse cost than 6-means, better than 2-means' optimum is impossible.
    assert metrics.normalized_kmeans_cost(X, km.cluster_centers_[:2]) > 1.0
    assert metrics.normalized_kmeans_cost(X, km.cluster_centers_[:2], k=6) > metrics.normalized_kmeans_cost(X, km.cluster_centers_[:2])


def test_centre_distance_by_hand():
    # Points 0, 2 | 10, 12: the reference 2-means centres are 1 and 11; centres 0 and 12 are 1 away from them;
    # the bounds [-20, 30] give the diagonal 50.
    X = np.array([[0.0], [2.0], [10.0], [12.0]])
    assert metrics.centre_distance(X, [[0.0], [12.0]]) == pytest.approx(1 / 12)
    assert metrics.centre_distance(X, [[0.0], [12.0]], bounds=([-20.0], [30.0])) == pytest.approx(1 / 50)
    assert metrics.inertia(X, [[1.0], [11.0]]) == 4.0


@needs_sklearn
def test_silhouette_against_scikit_learn(blobs):
    from sklearn.metrics import silhouette_score
    X, y = blobs
    noisy = y.copy()
    noisy[::5] = -1  # noise is one more label, as scikit-learn's LabelEncoder treats it
    assert metrics.silhouette(X, y) == pytest.approx(silhouette_score(X, y), abs=1e-9)
    assert metrics.silhouette(X, noisy) == pytest.approx(silhouette_score(X, noisy), abs=1e-9)
    assert np.isnan(metrics.silhouette(X, np.zeros(len(X), dtype=int)))  # scikit-learn raises: one label


@needs_sklearn
def test_silhouette_on_a_sample_states_its_error(blobs):
    # sample_size is the runner's silhouette_sample: 600 of the 1,200 points, drawn once from a seed derived from
    # the data (the same value on every call), the score within a few stated errors of the score on every point.
    from sklearn.metrics import silhouette_score
    X, y = blobs
    exact = silhouette_score(X, y)
    score, error = metrics.silhouette(X, y, sample_size=600, return_standard_error=True)
    assert score == metrics.silhouette(X, y, sample_size=600)
    assert score != pytest.approx(exact, abs=1e-12)
    assert 0 < error < 0.05
    assert abs(score - exact) < 4 * error
    # No larger than the sample, or None: every point, exact, no error.
    assert metrics.silhouette(X, y, sample_size=None, return_standard_error=True) == (pytest.approx(exact, abs=1e-9), 0.0)
    assert metrics.silhouette(X, y, sample_size=1200) == pytest.approx(exact, abs=1e-9)
    with pytest.raises(ValueError, match="sample_size"):
        metrics.silhouette(X, y, sample_size=2)


def test_accuracy_and_purity():
    truth = [0, 0, 0, 0, 1, 1]
    assert metrics.accuracy(truth, [0, 0, 1, 1, 2, 2]) == pytest.approx(4 / 6)  # one cluster per class
    assert metrics.purity(truth, [0, 0, 1, 1, 2, 2]) == 1.0
    assert metrics.accuracy(truth, [-1, -1, 5, 5, 7, 7]) == pytest.approx(4 / 6)  # noise is never matched
    assert metrics.accuracy([3, 3, 1, 1], [0, 0, 9, 9]) == 1.0
    with pytest.raises(ValueError, match="labels"):
        metrics.accuracy(truth, [0, 1])


def test_bad_input_is_a_clear_error(blobs):
    X, _ = blobs
    with pytest.raises(ValueError, match="features"):
        metrics.inertia(X, np.zeros((3, 4)))
    with pytest.raises(ValueError, match="finite"):
        metrics.inertia(np.array([[np.nan, 0.0]]), [[0.0, 0.0]])


def test_equal_to_the_results_file():
    config = {
        "experiment": "measures", "seed": 2, "trials": 2, "output": {"release": True},
        "datasets": [{"name": "b", "generator": {"type": "blobs", "n_samples": 500, "centers": 3, "n_features": 2, "seed": 9},
                      "bounds": [[-15, 15], [-15, 15]]}],
        "methods": [{"method": "dp_kmeans", "params": {"k": 3, "epsilon": 1.0}}],
        "metrics": ["inertia", "normalized_kmeans_cost", "centre_distance", "silhouette", "accuracy", "purity"],
    }
    out = pathlib.Path(tempfile.mkdtemp(prefix="dpclust_measures_"))
    try:
        summary = dpclust.run(config, out=out, threads=1)
        data = dpclust.load_dataset(config, "b")
        cell = json.loads(pathlib.Path(summary["results_file"]).read_text())["cells"][0]
        for trial in cell["trials"]:
            centres = np.array(trial["release"]["centers"])
            m = trial["metrics"]
            assert metrics.inertia(data.X, centres) == m["inertia"]
            assert metrics.normalized_kmeans_cost(data.X, centres, k=3) == m["normalized_kmeans_cost"]
            assert metrics.centre_distance(data.X, centres, k=3, bounds=((-15, -15), (15, 15))) == m["centre_distance"]
            nearest = np.argmin(((data.X[:, None, :] - centres[None]) ** 2).sum(-1), axis=1)
            assert metrics.silhouette(data.X, nearest) == m["silhouette"]
            assert metrics.accuracy(data.y, nearest) == m["accuracy"]
            assert metrics.purity(data.y, nearest) == m["purity"]
    finally:
        shutil.rmtree(out, ignore_errors=True)


@needs_sklearn
def test_paper_measures_against_scikit_learn(blobs):
    """Google's demo's pair counts and FastLloyd's measures through the bindings: scikit-learn's
    pair_confusion_matrix, davies_bouldin_score and calinski_harabasz_score; NICV, BCSS and Dunn by their definitions."""
    from scipy.spatial.distance import cdist
    from sklearn.metrics import calinski_harabasz_score, davies_bouldin_score
    from sklearn.metrics.cluster import pair_confusion_matrix
    X, y = blobs
    X, y = X[:300], y[:300]
    centres = np.array([X[y == c].mean(axis=0) for c in range(6)])
    pred = np.where(y == 5, 4, y)  # two blobs merged: false matches, no true non-matches
    pred[:7] = (pred[:7] + 1) % 5  # seven points moved: both kinds
    c = pair_confusion_matrix(y, pred)
    assert metrics.false_match_fraction(y, pred) == pytest.approx(c[0][1] / (c[0][0] + c[0][1]), rel=1e-12)
    assert metrics.true_non_match_fraction(y, pred) == pytest.approx(c[1][0] / (c[1][0] + c[1][1]), rel=1e-12)
    assert metrics.davies_bouldin(X, pred) == pytest.approx(davies_bouldin_score(X, pred), rel=1e-10)
    assert metrics.calinski_harabasz(X, pred) == pytest.approx(calinski_harabasz_score(X, pred), rel=1e-10)
    d = cdist(X, X)
    same = pred[:, None] == pred[None, :]
    assert metrics.dunn(X, pred) == pytest.approx(d[~same].min() / d[same].max(), rel=1e-12)
    nearest = cdist(X, centres, "sqeuclidean").argmin(axis=1)
    wcss = cdist(X, centres, "sqeuclidean").min(axis=1).sum()
    assert metrics.nicv(X, centres) == pytest.approx(wcss / len(X), rel=1e-12)
    sizes = np.bincount(nearest, minlength=len(centres))
    assert metrics.bcss(X, centres) == pytest.approx((sizes * ((centres - X.mean(axis=0)) ** 2).sum(axis=1)).sum(), rel=1e-12)
