"""Confidence bars are drawn inside the metric's range (plots/plot_results.py clipped_yerr)."""
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


def test_one_range_for_bars_bands_and_figure_only_metrics():
    # The comparison bands (plot_comparison) and the paper figures' bars use the same cut.
    assert plot_results.clip_interval("ocm", -0.6, 1.8) == (0.0, 1.0)
    assert plot_results.clip_interval("dsg_c", -1.0, 1.6) == (0.0, 1.6)
    assert plot_results.clip_interval("method_seconds", -1.0, 3.0) == (-1.0, 3.0)
    # Metrics only the figures draw (nD-Laplace's privacy panels): an advantage in [-1, 1], a distance >= 0.
    assert plot_results.clipped_yerr("mia_advantage", [0.9], [0.5]) == [[0.5], [pytest.approx(0.1)]]
    assert plot_results.clipped_yerr("reconstruction_error", [0.2], [0.5]) == [[0.2], [0.5]]


def test_no_figure_draws_raw_error_bars():
    # Every errorbar call in plots/ goes through plot_results.errorbar or clipped_yerr (the
    # paper figures passed the raw half-widths, so OCM bars reached 1.8).
    plots = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "plots")
    for name in sorted(os.listdir(plots)):
        if name.endswith(".py"):
            text = open(os.path.join(plots, name)).read()
            assert "yerr=es" not in text and "yerr=e," not in text, name
