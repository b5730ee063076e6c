#!/usr/bin/python3
"""Span maps of Qiu & Yi, "Approximate DBSCAN under Differential Privacy" (Figures 1 and 6), from dpclust results only.

Called by plots/make_figures.py (FIGURES); each function takes (results_dir, out_dir), reads
results_dir/<experiment>/results.json (never reruns anything) and writes PNG (and PDF with --pdf) into out_dir,
returning the written files. It raises FileNotFoundError when its experiment is absent.

  dpdbscan_fig1_spans       Figure 1: (a, c) exact DBSCAN clusters and (b, d) the spans DP-DBSCAN
                            released, on Blobs and Circles.  dpdbscan_fig1 (output: release, points, labels)
  dpdbscan_fig6_crash_map   Figure 6 (a, b): the spans on Crash, linear-time and naive histograms
                            (dpdbscan_crash), over a 50,000-point sample (figures_crash_sample) when present
  dpdbscan_fig6_cabs_map    Figure 6 (e): the spans on Cabs, linear-time histogram (dpdbscan_fig6e_cabs,
                            else dpdbscan_cabs), over a 50,000-point sample (figures_cabs_sample) when present

The spans are drawn from each trial's release alone (grid + core cells per span), as the Cabs-tiny map of
plots/paper_dpdbscan.py draws Figure 6 (c, d); trial 0 of each cell (the paper's figures are seed-0 runs).
Usage on its own: /usr/bin/python3 plots/paper_dpdbscan_maps.py --results results --out plots/out
"""
import pathlib
import sys

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import plot_results  # noqa: E402  (also sets the matplotlib backend and the shared style)
from plot_results import save  # noqa: E402
import paper_dpdbscan as base  # noqa: E402

import matplotlib.pyplot as plt  # noqa: E402


def _span_cells(data, dataset=None):
    """dp_dbscan cells whose trial 0 kept a release (of `dataset` when given), sorted linear first."""
    cells = [c for c in data["cells"] if c["method"] == "dp_dbscan" and c["trials"] and "release" in c["trials"][0]
             and (dataset is None or c["dataset"] == dataset)]
    return sorted(cells, key=lambda c: (c["trials"][0]["diagnostics"].get("histogram") != "linear", c["series"]))


def _background(results_dir, experiments, names):
    """(points, experiment) of the first stored point sample among `experiments` x `names`, else (None, None)."""
    for exp in experiments:
        bg_name, figdata = base._load(results_dir, [exp], required=False)
        if figdata is None:
            continue
        for cand in names:
            if cand in figdata["datasets"] and "points" in figdata["datasets"][cand]:
                return base._points(figdata, bg_name, cand)[0], bg_name
    return None, None


def _km(value):
    return f"{1000 * value:g} m"


def _map(results_dir, out_dir, span_experiments, dataset, bg_experiments, first_letter, figure, stem, series=None):
    name, data, cells = None, None, []
    for exp in span_experiments:
        n_, d_ = base._load(results_dir, [exp], required=False)
        if d_ is None:
            continue
        cells = [c for c in _span_cells(d_, dataset) if series is None or c["series"] in series]
        if cells:
            name, data = n_, d_
            break
    if data is None:
        raise FileNotFoundError(f"no dp_dbscan release of {dataset} in {' or '.join(span_experiments)} "
                                "(run the config with output: {release: true})")
    bg, bg_name = _background(results_dir, bg_experiments, (f"{dataset}-sample", dataset))
    # Coordinates in km from the south-west corner of the public domain (the grid's lo).
    lo0 = np.asarray(cells[0]["trials"][0]["release"]["grid"]["lo"], dtype=float)[:2]
    fig, axes = plt.subplots(1, len(cells), figsize=(4.8 * len(cells) + 0.4, 5.6), squeeze=False)
    for j, c in enumerate(cells):
        ax = axes[0][j]
        rel = dict(c["trials"][0]["release"])
        grid = dict(rel["grid"])
        lo = np.asarray(grid["lo"], dtype=float)[:2] - lo0
        hi = np.asarray(grid["hi"], dtype=float)[:2] - lo0
        grid["lo"] = list(lo)
        rel["grid"] = grid
        if bg is not None:
            ax.scatter(bg[:, 0] - lo0[0], bg[:, 1] - lo0[1], s=0.3, c="0.45", alpha=0.45, linewidths=0,
                       rasterized=True, zorder=1)
        n = base._draw_spans(ax, rel, alpha=0.95)
        ax.set_xlim(lo[0], hi[0])
        ax.set_ylim(lo[1], hi[1])
        ax.set_aspect("equal")
        hist = "O(n)" if c["trials"][0]["diagnostics"].get("histogram") == "linear" else "O(|X|)"
        ax.set_title(f"({chr(ord(first_letter) + j)}) {base._dname(dataset)} / {hist}: {base._plural(n, 'span')}\n"
                     f"alpha = {_km(c['params']['alpha'])}, MinPts = {c['params']['min_pts']}, "
                     f"eps = {c['params'].get('epsilon')}", fontsize=9)
        ax.set_xlabel("km east of the domain's west edge")
        ax.set_ylabel("km north of the domain's south edge")
    note = f"grey: {len(bg):,}-point sample [{bg_name}]" if bg is not None else "spans only"
    fig.suptitle(f"{figure}: DP-DBSCAN spans on {base._dname(dataset)} [{name}, trial 0; {note}]", fontsize=10)
    fig.tight_layout()
    return save(fig, out_dir, stem)


def dpdbscan_fig6_crash_map(results_dir, out_dir):
    return _map(results_dir, out_dir, ["dpdbscan_crash"], "crash", ["figures_crash_sample"], "a",
                "Figure 6 (a, b)", "dpdbscan_fig6_crash_map")


def dpdbscan_fig6_cabs_map(results_dir, out_dir):
    # Figure 6 (e) is the linear-time histogram only.
    return _map(results_dir, out_dir, ["dpdbscan_fig6e_cabs", "dpdbscan_cabs"], "cabs", ["figures_cabs_sample"], "e",
                "Figure 6 (e)", "dpdbscan_fig6_cabs_map", series=("dp_dbscan_linear",))


def dpdbscan_fig1_spans(results_dir, out_dir):
    name, data = base._load(results_dir, ["dpdbscan_fig1"])
    sets = [d for d in ("blobs", "circles") if d in data["datasets"]]
    if not sets:
        raise FileNotFoundError(f"experiment {name} has neither blobs nor circles")
    fig, axes = plt.subplots(1, 2 * len(sets), figsize=(3.6 * 2 * len(sets), 4.0), squeeze=False)
    for j, ds in enumerate(sets):
        xy, _ = base._points(data, name, ds)
        db, dp = base._cell(data, ds, method="dbscan"), base._cell(data, ds, method="dp_dbscan")
        if db is None or dp is None:
            raise FileNotFoundError(f"experiment {name} needs dbscan and dp_dbscan cells of {ds}")
        dp_labels, db_labels = base._trial0(dp, "labels", name), base._trial0(db, "labels", name)
        dp_colours = base._label_colours(dp_labels)
        ax = axes[0][2 * j]
        k, _ = base._scatter_labels(ax, xy, db_labels, s=1.5,
                                    colours=base._aligned_colours(db_labels, dp_labels, dp_colours))
        ax.set_title(f"({chr(97 + 2 * j)}) Clusters ({base._dname(ds)}): {base._plural(k, 'cluster')}", fontsize=9)
        ax = axes[0][2 * j + 1]
        ax.scatter(xy[:, 0], xy[:, 1], s=0.6, c="0.75", linewidths=0, rasterized=True, zorder=1)
        n = base._draw_spans(ax, base._trial0(dp, "release", name))
        ax.set_title(f"({chr(98 + 2 * j)}) Cluster spans ({base._dname(ds)}): {base._plural(n, 'span')}\n"
                     f"DP-DBSCAN eps = {dp['params'].get('epsilon')}, alpha = {dp['params']['alpha']:g}, "
                     f"MinPts = {dp['params']['min_pts']}", fontsize=9)
        for a in (axes[0][2 * j], axes[0][2 * j + 1]):
            base._square(a, xy)
            a.tick_params(labelsize=7)
    fig.suptitle(f"Figure 1: span of clusters [{name}, trial 0; clusters: exact DBSCAN, spans: the DP-DBSCAN release]",
                 fontsize=10)
    plot_results.tight_grid(fig, rect=(0, 0, 1, 0.95))
    return save(fig, out_dir, "dpdbscan_fig1_spans")


FIGURES = [dpdbscan_fig1_spans, dpdbscan_fig6_crash_map, dpdbscan_fig6_cabs_map]


def main():
    return plot_results.run_figures(FIGURES, __doc__)


if __name__ == "__main__":
    sys.exit(main())
