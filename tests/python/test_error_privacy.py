"""The ValueError an estimator raises for a bad record names the record by its index and
the column, and never carries the record's values (they would be released without noise through the
exception text). An epsilon below the secure samplers' limit is a ValueError naming the limit.
"""
import math

import numpy as np
import pytest

import dpclust

SECRET = 123456.789  # distinctive: printed with any precision it starts with 123456 or 1.23456


def _leaks(message):
    return [s for s in ("123456", "1.23456", "98765", "9.8765") if s in message]


def _x_with_private_record(value_x, value_y):
    rng = np.random.default_rng(0)
    X = rng.uniform(10, 90, size=(40, 2))
    X[2] = (value_x, value_y)
    return X


@pytest.mark.parametrize("make", [
    lambda: dpclust.DPKMeans(n_clusters=2, bounds=(0, 100), random_state=0),
    lambda: dpclust.DPDBSCAN(alpha=5.0, min_pts=3, bounds=(0, 100), random_state=0),
])
def test_out_of_bounds_record_is_named_by_index_not_values(make):
    X = _x_with_private_record(SECRET, 98765.4321)
    with pytest.raises(ValueError) as err:
        make().fit(X)
    message = str(err.value)
    assert "point 2 (0-based, in file order): coordinate 0" in message, message
    assert "outside the public bounds [0, 100]" in message, message
    assert not _leaks(message), message


def test_non_finite_record_is_named_by_index_and_column():
    X = _x_with_private_record(SECRET, math.inf)
    with pytest.raises(ValueError) as err:
        dpclust.DPKMeans(n_clusters=2, bounds=(0, 100), random_state=0).fit(X)
    message = str(err.value)
    assert message.startswith("Input X contains infinity"), message  # scikit-learn's wording, then the engine's
    assert "point 2 (0-based, in file order): coordinate 1 is not finite" in message, message
    assert not _leaks(message), message


def test_dp_kmeans_epsilon_below_the_secure_limit_names_the_limit():
    # d = 2, T = 5, no n_public, half width 4 = 2^2: the limit is 5 (2 + e0) (1 + 2^-17) / 2^32 (dp_kmeans.hpp).
    e0 = (4 * 2 * 0.225 ** 2) ** (1 / 3)
    limit = 5 * (2 + e0) * (1 + 2.0 ** -17) / 2.0 ** 32
    X = np.random.default_rng(1).uniform(1, 7, size=(50, 2))
    with pytest.raises(ValueError) as err:
        dpclust.DPKMeans(n_clusters=2, epsilon=1e-12, bounds=(0, 8), random_state=0).fit(X)
    message = str(err.value)
    assert " is below " in message, message
    printed = float(message.split(" is below ", 1)[1].split(",", 1)[0])
    assert printed == pytest.approx(limit, rel=1e-5), message
    assert printed >= limit
    dpclust.DPKMeans(n_clusters=2, epsilon=limit * (1 + 1e-9), bounds=(0, 8), random_state=0).fit(X)  # just above: runs
