"""The paper figures (plots/paper_wavecluster.py, through plots/plot_results.py's shared helpers)
draw error bars inside the metric's range, keep Figure 3's panel letters when Gowalla's results are absent, and
title a figure drawn from generated data as a stand-in. Small synthetic results; the figures are caught before
they are saved."""
import json
import pathlib
import sys

import pytest

pytest.importorskip("matplotlib")
ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "plots"))

import paper_wavecluster  # noqa: E402
import plot_results  # noqa: E402


def fig3_results(results, datasets, generated, trials=2):
    """A wavecluster_fig3 results.json whose intervals leave the metrics' ranges (a t-interval over 2 trials):
    OCM 0.6 in [-0.6, 1.8], 2CE 0.1 in [-0.5, 0.7], DSG_C 0.3 in [-1.0, 1.6], F-measure 0.9 in [0.5, 1.3]."""
    aggregates = {"dsg_c": (0.3, -1.0, 1.6), "ocm": (0.6, -0.6, 1.8), "two_ce": (0.1, -0.5, 0.7),
                  "f_measure": (0.9, 0.5, 1.3), "kprime": (4.0, -2.0, 10.0)}
    cells = []
    for ds in datasets:
        cells.append({"dataset": ds, "series": "wavecluster", "params": {"g": 48, "p": 0.6},
                      "aggregates": {"k_true": {"n": trials, "mean": 5.0, "ci95": [5.0, 5.0]}}, "trials": []})
        for series in paper_wavecluster.PRIVATE:
            for eps in (0.5, 1.0, 2.0):
                cells.append({"dataset": ds, "series": series, "params": {"g": 48, "p": 0.6, "epsilon": eps},
                              "aggregates": {m: {"n": trials, "mean": v, "ci95": [lo, hi]}
                                             for m, (v, lo, hi) in aggregates.items()}, "trials": []})
    source = ({"generator": {"name": "make_moons", "n_samples": 100}} if generated
              else {"files": [{"path": f"/data/{ds}.arff", "bytes": 1}]})
    doc = {"schema": "dpclust.results/1", "experiment": "wavecluster_fig3", "trials": trials, "cells": cells,
           "datasets": {ds: {"n": 100, "d": 2, "provenance": source} for ds in datasets}}
    (results / "wavecluster_fig3").mkdir(parents=True)
    (results / "wavecluster_fig3" / "results.json").write_text(json.dumps(doc))


@pytest.fixture()
def drawn(monkeypatch, tmp_path):
    """Calls a paper_wavecluster figure on results written by `write(results_dir)` and returns its matplotlib figure."""
    figures = []
    monkeypatch.setattr(paper_wavecluster, "save", lambda fig, out, stem, **kw: figures.append(fig) or [])
    plot_results._CACHE.clear()

    def draw(figure, write):
        results = tmp_path / f"results{len(figures)}"
        write(results)
        getattr(paper_wavecluster, figure)(results, tmp_path)
        return figures[-1]
    return draw


def bar_extents(ax):
    """(lowest, highest) y reached by the error bars drawn on an axes."""
    ys = [y for c in ax.containers if hasattr(c, "lines") for coll in c.lines[2] for seg in coll.get_segments()
          for _, y in seg]
    return min(ys), max(ys)


def test_error_bars_stay_inside_the_metrics_range(drawn):
    fig = drawn("wc_fig3_measures", lambda r: fig3_results(r, ["ds1", "ds2", "ds3"], generated=False))
    rows = {"DSG": (0.0, None), "OCM": (0.0, 1.0), "2CE": (0.0, 1.0)}
    seen = 0
    for ax in fig.axes:
        if not ax.containers:
            continue  # Gowalla's empty panel
        lo, hi = next(r for key, r in rows.items() if key in ax.get_title())
        low, high = bar_extents(ax)
        assert low >= lo - 1e-12, ax.get_title()
        assert hi is None or high <= hi + 1e-12, ax.get_title()
        seen += 1
    assert seen == 9
    # The bars are cut, not removed: OCM's reaches exactly 1, DSG_C's keeps its upper half-width (no upper bound).
    ocm = next(ax for ax in fig.axes if ax.get_title().startswith("(e)"))
    assert bar_extents(ocm) == (pytest.approx(0.0), pytest.approx(1.0))
    dsg = next(ax for ax in fig.axes if ax.get_title().startswith("(a)"))
    assert bar_extents(dsg) == (pytest.approx(0.0), pytest.approx(1.6))
    assert "cut to the metric's range" in fig._suptitle.get_text()
    fm = drawn("wc_fmeasure", lambda r: fig3_results(r, ["ds1", "ds2", "ds3"], generated=False))
    assert all(bar_extents(ax)[1] <= 1.0 + 1e-12 for ax in fm.axes if ax.containers)


def test_figure3_letters_are_the_papers_without_gowalla(drawn):
    fig = drawn("wc_fig3_measures", lambda r: fig3_results(r, ["ds1", "ds2", "ds3"], generated=False))
    titles = sorted(ax.get_title() for ax in fig.axes)
    assert titles == sorted([
        "(a) DSG$_C$ on DS1", "(b) DSG$_C$ on DS2", "(c) DSG$_C$ on DS3", "(d) DSG$_C$ on Gowalla",
        "(e) OCM on DS1", "(f) OCM on DS2", "(g) OCM on DS3", "(h) OCM on Gowalla",
        "(i) 2CE on DS1", "(j) 2CE on DS2", "(k) 2CE on DS3", "(l) 2CE on Gowalla"])
    gowalla = next(ax for ax in fig.axes if ax.get_title() == "(h) OCM on Gowalla")
    text = " ".join(t.get_text() for t in gowalla.texts)
    assert "Gowalla: data not present" in text and "dpclust data fetch gowalla" in text
    # A dataset of the paper's missing too (DS2 here): the others still keep their letters.
    fig = drawn("wc_fig3_measures", lambda r: fig3_results(r, ["ds1", "ds3"], generated=False))
    assert "(g) OCM on DS3" in [ax.get_title() for ax in fig.axes]


def test_generated_data_gets_a_stand_in_title(drawn):
    fig = drawn("wc_fig3_measures", lambda r: fig3_results(r, ["ds1", "ds2", "ds3"], generated=True))
    assert fig._suptitle.get_text().startswith("Stand-in for Figure 3 (generated data, not the paper's datasets)")
    fig = drawn("wc_fig3_measures", lambda r: fig3_results(r, ["ds1", "ds2", "ds3"], generated=False))
    assert fig._suptitle.get_text().startswith("Figure 3: ")
    # Decided by the results' provenance, not by the experiment's name or the datasets' names.
    data = {"datasets": {"moons": {"provenance": {"generator": {"name": "make_moons"}}},
                         "cluto-t4": {"provenance": {"files": [{"path": "/d/cluto-t4-8k.arff"}]}}}}
    assert plot_results.paper_figure_name("Figure 7", data, ["cluto-t4"]) == "Figure 7"
    assert plot_results.paper_figure_name("Figure 7", data).startswith("Stand-in for Figure 7")


def test_tight_grid_places_the_panels_as_tight_layout_does():
    # plot_results.tight_grid measures the axes once where tight_layout(rect=...) measures them twice (figure
    # time): the panels must land where tight_layout puts them.
    import matplotlib.pyplot as plt

    def figure():
        fig, axes = plt.subplots(2, 3, figsize=(9, 5), gridspec_kw={"width_ratios": [1, 2, 1]})
        for k, ax in enumerate(axes.flat):
            ax.plot([0, 1, 2], [0, 10 ** k, 5])
            ax.set_title(f"panel {k}\nsecond line" if k % 2 else f"panel {k}")
            ax.set_ylabel("a long y label" if k == 3 else "y")
            ax.set_xlabel("x")
        axes.flat[-1].axis("off")
        fig.suptitle("a suptitle")
        return fig

    keys = ("left", "right", "bottom", "top", "wspace", "hspace")
    for rect in ((0, 0, 1, 1), (0, 0.12, 1, 0.95)):
        ours, theirs = figure(), figure()
        plot_results.tight_grid(ours, rect=rect)
        theirs.tight_layout(rect=rect)
        for k in keys:
            assert getattr(ours.subplotpars, k) == pytest.approx(getattr(theirs.subplotpars, k), abs=1e-9), (rect, k)
        plt.close(ours)
        plt.close(theirs)
