"""Issue 25: confidence bars are drawn inside the metric's range (plots/plot_results.py clipped_yerr)."""
import os
import sys

import pytest

pytest.importorskip("matplotlib")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "plots"))
import plot_results  # noqa: E402


def test_bars_are_clipped_to_the_metrics_range():
    # ARI 0.9 +- 1.2 (a t-interval over 3 trials): the bar stops at 1 above and reaches 0.9 - 1.2 = -0.3 below.
    below, above = plot_results.clipped_yerr("ari", [0.9, -0.4, float("nan")], [1.2, 0.3, 0.5])
    assert below[:2] == [1.2, pytest.approx(0.1)] and above[:2] == [pytest.approx(0.1), 0.3]
    assert below[2] == 0.5 and above[2] == 0.5  # no mean: left as it is
    assert plot_results.clipped_yerr("nmi", [0.05], [0.2]) == [[0.05], [0.2]]
    assert plot_results.clipped_yerr("n_clusters", [1.0], [3.0]) == [[1.0], [3.0]]
    assert plot_results.clipped_yerr("method_seconds", [1.0], [3.0]) == [[3.0], [3.0]]  # no declared range
