"""plots/benchmark_figures.py: the win-region map draws the report's winners (engine/report/win_regions.cpp, the
same cases as tests/report/benchmark_comparison_test.cpp WinRegions.*): the best private method of a column only
where the rank-sum test of the best median, Holm-adjusted over the dataset's tests, rejects against every other
private method; the trivial baseline and the references never compete; tables per family over n (or d) sorted by
size. Its rank-sum p equals the report's (tests/report/comparison_test.cpp RankSumTestExactAndAsymptotic); the time
slope is the least-squares fit on log-log."""
import math
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "plots"))

import benchmark_figures as bf  # noqa: E402


def cell(method, eps, values, role="private", dataset="ds", metric="ari"):
    params = {} if eps is None else {"epsilon": eps}
    return {"dataset": dataset, "series": method, "method": method, "params": params, "role": role,
            "private": role != "non_private", "aggregates": {metric: {"n": len(values)}},
            "trials": [{"trial": i, "metrics": {metric: v}, "timing": {"method_seconds": 0.0}} for i, v in enumerate(values)]}


def test_rank_sum_matches_the_reports_reference_values():
    # tests/report/comparison_test.cpp ComparisonStats.RankSumTestExactAndAsymptotic.
    assert bf.rank_sum_p([1, 2, 3], [4, 5, 6]) == pytest.approx(0.1, abs=1e-15)
    assert bf.rank_sum_p([1, 3, 5], [2, 4, 6]) == pytest.approx(0.7, abs=1e-15)
    assert bf.rank_sum_p(list(range(100, 110)), list(range(10))) == pytest.approx(2 / 184756, abs=1e-18)
    assert bf.rank_sum_p([1, 1, 2], [2, 3, 3]) == pytest.approx(0.11014892418594698, abs=1e-12)
    assert bf.rank_sum_p([0.5, 0.5], [0.5, 0.5, 0.5]) == 1.0
    assert bf.rank_sum_p([], [1.0]) is None
    # Holm: sorted 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1, running maximum.
    assert bf.holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02], abs=1e-15)


def ten(x, step=0.001):
    return [x + step * i for i in range(10)]


def test_best_only_where_significantly_best():
    cells = [cell("A", 0.5, ten(0.90)), cell("B", 0.5, ten(0.50)),
             cell("A", 1.0, [0.70, 0.75, 0.80, 0.85, 0.96, 0.97, 0.98, 0.99, 0.995, 0.999]), cell("B", 1.0, ten(0.955)),
             cell("A", 2.0, ten(0.95)),
             cell("uniform_centres", None, [0.99] * 10, role="trivial_baseline")]
    w = bf.column_winners(cells, "ari")
    assert w[0.5] == ("A", True, 2)
    assert w[1.0] == ("A", False, 2)   # the best median (0.965 against 0.9595), hidden by A's spread
    assert w[2.0] == ("A", False, 1)   # alone: nothing to beat
    assert set(w) == {0.5, 1.0, 2.0}   # the baseline does not compete


def test_one_wild_trial_does_not_decide_the_winner():
    # The median ranks: B's one wild trial (a centre released far outside the domain) does not make A the winner.
    cells = [cell("A", 1.0, ten(2.0), metric="normalized_kmeans_cost"),
             cell("B", 1.0, ten(1.2)[:9] + [9369525.0], metric="normalized_kmeans_cost")]
    assert bf.column_winners(cells, "normalized_kmeans_cost")[1.0] == ("B", True, 2)


def test_lower_is_better_and_tables_per_family_over_n():
    data = {"experiment": "bench",
            "datasets": {"small": {"n": 1000, "d": 2, "family": "gmix"}, "large": {"n": 10000, "d": 2, "family": "gmix"}},
            "cells": [cell("A", 1.0, ten(5.0), dataset="large", metric="inertia"),
                      cell("B", 1.0, ten(1.0), dataset="large", metric="inertia"),
                      cell("A", 1.0, ten(1.0), dataset="small", metric="inertia"),
                      cell("B", 1.0, ten(5.0), dataset="small", metric="inertia")]}
    tables = bf.win_tables(data)
    assert len(tables) == 1  # two sizes n, one dimension: an (n, eps) table only
    fam, metric, axis, eps, rows = tables[0]
    assert (fam, metric, axis, eps) == ("gmix", "inertia", "n", [1.0])
    assert [(r[0], r[1]) for r in rows] == [("small", 1000), ("large", 10000)]
    assert rows[0][3][1.0] == ("A", True, 2)
    assert rows[1][3][1.0] == ("B", True, 2)


def test_time_slope_is_the_log_log_fit():
    # seconds = 2e-6 n^1.5 exactly: slope 1.5.
    pts = [(n, 2e-6 * n ** 1.5) for n in (1000, 10000, 100000)]
    assert bf.slope(pts) == pytest.approx(1.5, abs=1e-12)
    assert bf.slope([(1000, 1.0)]) is None
