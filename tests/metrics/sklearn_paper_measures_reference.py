"""Expected values of tests/metrics/paper_measures_test.cpp (SklearnAgreement*) from scikit-learn and scipy.

Run once with Debian 12's python3-sklearn (1.2.1, numpy 1.24, scipy 1.10); the numbers it prints are pasted into
the test. The points are those of tests/metrics/sklearn_measures_reference.py (numpy.random.RandomState(seed):
centres = uniform(-spread, spread, (k, d)); X = centres[i % k] + standard_normal((n, d)); labels i % k), the
predicted labels the nearest of the k centres moved by +0.3 in every coordinate (a stand-in for released centres).
The Dunn index and BCSS are computed by their definitions (FastLloyd's utils/evaluations.py evaluate_dunn_index and
evaluate_BCSS: scipy's cdist distances; sum over the centres of n_j |c_j - mean|^2); the pair counts from
scikit-learn's pair_confusion_matrix.

    /usr/bin/python3 tests/metrics/sklearn_paper_measures_reference.py
"""
import numpy as np
from scipy.spatial.distance import cdist
from sklearn.metrics import calinski_harabasz_score, davies_bouldin_score
from sklearn.metrics.cluster import pair_confusion_matrix

SETS = [  # (seed, n, d, k, spread)
    (0, 300, 2, 3, 10.0),
    (1, 400, 5, 4, 3.0),
    (2, 250, 8, 6, 20.0),
]


def points(seed, n, d, k, spread):
    rs = np.random.RandomState(seed)
    centres = rs.uniform(-spread, spread, size=(k, d))
    labels = np.arange(n) % k
    return centres[labels] + rs.standard_normal((n, d)), labels, centres


def dunn(X, labels):
    ids = np.unique(labels)
    inter = min(cdist(X[labels == a], X[labels == b]).min() for i, a in enumerate(ids) for b in ids[i + 1:])
    intra = max(cdist(X[labels == a], X[labels == a]).max() for a in ids if (labels == a).sum() > 1)
    return inter / intra


for seed, n, d, k, spread in SETS:
    X, y, centres = points(seed, n, d, k, spread)
    released = centres + 0.3
    pred = cdist(X, released).argmin(axis=1)
    c = pair_confusion_matrix(y, pred)
    mean = X.mean(axis=0)
    bcss = sum(np.linalg.norm(released[j] - mean) ** 2 * (pred == j).sum() for j in range(k))
    print(f"// seed {seed}: n {n}, d {d}, k {k}, spread {spread}")
    print(f"false_match_fraction {c[0][1] / (c[0][0] + c[0][1])!r}")
    print(f"true_non_match_fraction {c[1][0] / (c[1][0] + c[1][1])!r}")
    print(f"davies_bouldin {davies_bouldin_score(X, pred)!r}")
    print(f"calinski_harabasz {calinski_harabasz_score(X, pred)!r}")
    print(f"dunn {dunn(X, pred)!r}")
    print(f"bcss {bcss!r}")
    print(f"nicv {((X - released[pred]) ** 2).sum() / n!r}")
