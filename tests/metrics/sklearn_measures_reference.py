"""Expected values of tests/metrics/kmeans_measures_test.cpp (SklearnAgreement.*) from scikit-learn.

Run once with Debian 12's python3-sklearn (1.2.1, numpy 1.24); the numbers it prints are pasted into the
test. The points come from numpy.random.RandomState(seed), which the test redraws draw for draw with
dpclust's NumpyRandomState (engine/core/numpy_random.hpp):
    centres = rs.uniform(-spread, spread, size=(k, d)); X = centres[i % k] + rs.standard_normal((n, d)).

    /usr/bin/python3 tests/metrics/sklearn_measures_reference.py
"""
import numpy as np
from sklearn.cluster import KMeans
from sklearn.metrics import silhouette_score

SETS = [  # (seed, n, d, k, spread)
    (0, 300, 2, 3, 10.0),
    (1, 400, 5, 4, 3.0),
    (2, 250, 8, 6, 20.0),
]


def points(seed, n, d, k, spread):
    rs = np.random.RandomState(seed)
    centres = rs.uniform(-spread, spread, size=(k, d))
    labels = np.arange(n) % k
    return centres[labels] + rs.standard_normal((n, d)), labels


for seed, n, d, k, spread in SETS:
    X, y = points(seed, n, d, k, spread)
    noisy = y.copy()
    noisy[::7] = -1
    km = KMeans(n_clusters=k, n_init=10, random_state=0).fit(X)
    print(f"// seed {seed}: n {n}, d {d}, k {k}, spread {spread}")
    print(f"silhouette {silhouette_score(X, y)!r}")
    print(f"silhouette_noise_label {silhouette_score(X, noisy)!r}")
    print(f"silhouette_sample_100_seed_7 {silhouette_score(X, y, sample_size=100, random_state=7)!r}")
    print(f"kmeans_inertia {km.inertia_!r}")
    print("kmeans_centres {" + ", ".join(repr(v) for v in km.cluster_centers_.ravel()) + "}")
