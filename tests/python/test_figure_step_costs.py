"""The figure step's two savings draw and read the same: matplotlib's log ticks kept to the view
(plots/plot_results.py, _log_tick_values_in_view) and results parsed out of the garbage collector's way
(plot_results.parse_results)."""
import gc
import io
import json
import os
import sys
import weakref

import pytest

pytest.importorskip("matplotlib")
sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "plots"))
import plot_results  # noqa: E402
from plot_results import plt  # noqa: E402
import matplotlib.ticker  # noqa: E402

# (x values, y values, which axes are logarithmic): an epsilon sweep over less than two decades (minor ticks,
# no minor labels), one over less than one decade (matplotlib labels some minor ticks), six decades, a log y
# axis, and a log axis whose data include 0 (masked).
CASES = [
    ([0.1, 0.2, 0.5, 1.0, 2.0], [0.2, 0.5, 0.7, 0.9, 0.95], "x"),
    ([0.3, 0.45, 0.6, 0.9], [1.0, 2.0, 3.0, 4.0], "x"),
    ([1e-3, 1e-1, 10.0, 1e3], [0.1, 0.2, 0.3, 0.4], "x"),
    ([1, 2, 3, 4], [0.02, 5.0, 300.0, 7e4], "y"),
    ([0.0, 0.5, 5.0, 50.0], [1.0, 2.0, 3.0, 4.0], "xy"),
]


def _png(xs, ys, log):
    fig, axes = plt.subplots(1, 2, figsize=(6, 2.5))  # a grid, so that tight_grid measures the ticks
    for ax in axes.flat:
        ax.errorbar(xs, ys, yerr=[0.05 * abs(y) for y in ys], marker="o", ms=3, capsize=2, label="series")
        if "x" in log:
            ax.set_xscale("log")
        if "y" in log:
            ax.set_yscale("log")
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
    plot_results.tight_grid(fig)
    buf = io.BytesIO()
    fig.savefig(buf, format="png")
    plt.close(fig)
    return buf.getvalue()


@pytest.mark.parametrize("xs, ys, log", CASES)
def test_log_ticks_kept_to_the_view_draw_the_same_pixels(xs, ys, log):
    assert matplotlib.ticker.LogLocator.tick_values is plot_results._log_tick_values_in_view
    in_view = _png(xs, ys, log)
    matplotlib.ticker.LogLocator.tick_values = plot_results._LOG_TICK_VALUES
    try:
        everything = _png(xs, ys, log)
    finally:
        matplotlib.ticker.LogLocator.tick_values = plot_results._log_tick_values_in_view
    assert in_view == everything


def test_the_ticks_beyond_the_view_are_the_ones_left_out():
    minor = matplotlib.ticker.LogLocator(10.0, subs="auto")
    everything = plot_results._LOG_TICK_VALUES(minor, 0.1, 2.0)
    kept = minor.tick_values(0.1, 2.0)
    # matplotlib's: 2..9 times 10^-2 .. 10^1 (a decade beyond each side); kept: 0.2 .. 0.9, 2.
    assert min(everything) < 0.05 and max(everything) > 10
    assert list(kept) == pytest.approx([0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 2.0])
    # A tick on the view's edge stays (the axis draws it), as does the major tick 10^0.
    assert list(plot_results._log_tick_values_in_view(matplotlib.ticker.LogLocator(10.0), 0.1, 1.0)) == pytest.approx([0.1, 1.0])


def test_parsed_results_are_the_same_and_out_of_the_collectors_way():
    doc = {"experiment": "e", "cells": [{"aggregates": {"ari": {"mean": 0.1 + i / 3}}, "trials": [i, None]}
                                        for i in range(50)], "nan": float("nan")}
    text = json.dumps(doc)

    class Node:
        pass

    # A cycle dropped before the parse (a closed figure's artists) is freed, not frozen with the data.
    a, b = Node(), Node()
    a.other, b.other = b, a
    gone = weakref.ref(a)
    del a, b
    frozen_before = gc.get_freeze_count()
    try:
        parsed = plot_results.parse_results(text)
        assert gone() is None
        assert json.dumps(parsed) == text
        assert gc.isenabled()
        # The document's 50 cells hold at least 200 dicts and lists, all now in the permanent generation.
        assert gc.get_freeze_count() - frozen_before >= 200
    finally:
        gc.unfreeze()
