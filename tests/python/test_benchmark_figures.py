"""plots/benchmark_figures.py: the win-region map draws the report's winners (engine/report/win_regions.cpp, the
same cases as tests/report/benchmark_comparison_test.cpp WinRegions.*): the best private method of a column only
where Welch's test, Holm-adjusted over the dataset's tests, rejects against every other private method; the
trivial baseline and the references never compete; tables per family over n (or d) sorted by size. Its Welch p
equals scipy's reference values used by the report's tests; the time slope is the least-squares fit on log-log."""
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


def test_welch_matches_the_reports_reference_values():
    # tests/report/comparison_test.cpp ComparisonStats.WelchMatchesScipy.
    assert bf.welch_p([0.61, 0.64, 0.58, 0.66, 0.63], [0.52, 0.49, 0.57, 0.55, 0.50]) == pytest.approx(0.0013429094437397238, abs=1e-12)
    assert bf.welch_p([1, 2, 3], [2, 4, 6, 8, 10, 12]) == pytest.approx(0.02121018868057505, abs=1e-12)
    assert bf.welch_p([0.5], [0.5, 0.6]) is None
    assert bf.welch_p([0.9, 0.9], [0.5, 0.5]) == 0.0
    # Holm: sorted 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1, running maximum.
    assert bf.holm([0.01, 0.04, 0.03, 0.005]) == pytest.approx([0.03, 0.06, 0.06, 0.02], abs=1e-15)


def test_best_only_where_significantly_best():
    cells = [cell("A", 0.5, [0.90, 0.91, 0.92]), cell("B", 0.5, [0.50, 0.52, 0.54]),
             cell("A", 1.0, [0.80, 0.90, 1.00]), cell("B", 1.0, [0.85, 0.86, 0.87]),
             cell("A", 2.0, [0.95, 0.96]),
             cell("uniform_centres", None, [0.99, 0.99, 0.99], role="trivial_baseline")]
    w = bf.column_winners(cells, "ari")
    assert w[0.5] == ("A", True, 2)
    assert w[1.0] == ("A", False, 2)   # the best mean, hidden by A's spread
    assert w[2.0] == ("A", False, 1)   # alone: nothing to beat
    assert set(w) == {0.5, 1.0, 2.0}   # the baseline does not compete


def test_lower_is_better_and_tables_per_family_over_n():
    data = {"experiment": "bench",
            "datasets": {"small": {"n": 1000, "d": 2, "family": "gmix"}, "large": {"n": 10000, "d": 2, "family": "gmix"}},
            "cells": [cell("A", 1.0, [5.0, 5.1, 5.2], dataset="large", metric="inertia"),
                      cell("B", 1.0, [1.0, 1.1, 1.2], dataset="large", metric="inertia"),
                      cell("A", 1.0, [1.0, 1.1, 1.2], dataset="small", metric="inertia"),
                      cell("B", 1.0, [5.0, 5.1, 5.2], dataset="small", metric="inertia")]}
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
