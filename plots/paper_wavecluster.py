#!/usr/bin/python3
"""Figures of Chen, Yu & Chirkova, "WaveCluster with Differential Privacy", from dpclust results only.

Called by plots/make_figures.py (FIGURES); each function takes (results_dir, out_dir), reads
results_dir/<experiment>/results.json and writes PNG (and PDF with --pdf) into out_dir, returning the written files.
It raises FileNotFoundError when its experiment is absent (make_figures prints "skipped").

  wc_fig2_clusters   Figure 2: the true WaveCluster clusters on DS1-DS3, noise points (points in
                     non-significant cells) in red.  figures_wavecluster (configs/paper/figures_wavecluster.yaml),
                     else builtin_figures_wavecluster (configs/builtin/, generated shapes); panel (d) Gowalla
                     from the significant cells of wavecluster_fig2_gowalla when present (else the title says so)
  wc_fig3_measures   Figure 3: DSG_C, OCM and 2CE against the budget, Baseline / PrivQT / PrivTHR /
                     PrivTHR_EM, one column per dataset.  wavecluster_fig3 (+ a Gowalla column from
                     wavecluster_gowalla when present, else the title says so), else wavecluster_shapes
  wc_kdd_fig1_baseline  KDD version, Figure 1: WaveCluster on the original data next to WaveCluster of
                     Baseline's synthetic data (a run where clusters merge).  wavecluster_kdd_fig1
  wc_kprime          k' against the budget with the true k (Sec. 7, "comparing k and k'"); Gowalla as Figure 3
  wc_fmeasure        F-measure against the budget (Sec. 7, "comparison to F-measure"); Gowalla as Figure 3
  wc_budget_split    PrivTHR's DSG_C against the budget split rho (Sec. 7, "budget allocation"; the
                     paper omits this figure and reports 90% / 10% best).  wavecluster_budget_split

Error bars are the 95% confidence intervals of the mean over the trials (plot_results.error), cut to the
metric's range (plot_results.metric_range: OCM, 2CE and the F-measure in [0, 1], DSG_C and k' >= 0), as the
captions say. Panel letters are the paper's: Figure 3 is 3 rows (DSG_C, OCM, 2CE) by 4 columns (DS1, DS2,
DS3, Gowalla), lettered (a)-(l) row by row, so (e)-(h) is OCM whatever data is present; without Gowalla's
results its column is an empty panel saying how to get them (as Figure 2 (d)). A figure drawn from generated
data (the built-in stand-ins; plot_results.generated_datasets reads the results' dataset provenance) is
titled "Stand-in for Figure N".
Usage on its own: /usr/bin/python3 plots/paper_wavecluster.py --results results --out plots/out
"""
import pathlib
import sys
import textwrap

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import plot_results  # noqa: E402  (also sets the matplotlib backend and the shared style)
from plot_results import datasets_in_order, error, save  # noqa: E402

import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402

PRIVATE = ["wc_baseline", "privqt", "privthr", "privthr_em"]
STYLE = {  # label, colour, marker: one look per method in every figure
    "wavecluster": ("WaveCluster", "black", None),
    "wc_baseline": ("Baseline", "#1f77b4", "o"),
    "privqt": ("PrivQT", "#ff7f0e", "s"),
    "privthr": ("PrivTHR", "#2ca02c", "^"),
    "privthr_em": ("PrivTHR_EM", "#9467bd", "D"),
}
DATASET_NAMES = {"ds1": "DS1", "ds2": "DS2", "ds3": "DS3", "gowalla": "Gowalla"}
# Cluster colours for Figure 2: no red (red is noise, as in the paper).
PALETTE = ["#1f77b4", "#2ca02c", "#ff7f0e", "#9467bd", "#17becf", "#8c564b", "#e377c2", "#bcbd22",
           "#7f7f7f", "#393b79", "#637939", "#843c39", "#7b4173", "#3182bd"]
NOISE_COLOUR = "#d62728"
# How to get Gowalla's results (Figure 2 (d), Figure 3 (d), (h), (l)), said in their panels when absent.
GOWALLA_FIX = "`dpclust data fetch gowalla`, then run configs/paper/{config}.yaml"


_load = plot_results.load_first


def _dname(name):
    return DATASET_NAMES.get(name, name)


def _label(series):
    return STYLE.get(series, (series, None, "o"))[0]


def _sweep(data, dataset, series, metric, x="epsilon", where=None):
    """Sorted (x, mean, ci half-width) of one series on one dataset."""
    rows = []
    for c in data["cells"]:
        if c["dataset"] != dataset or c["series"] != series or x not in c["params"]:
            continue
        if where and any(c["params"].get(k) != v for k, v in where.items()):
            continue
        agg = c["aggregates"].get(metric)
        if agg is None or agg.get("mean") is None:
            continue
        rows.append((c["params"][x], agg["mean"], error(agg)))
    rows.sort()
    return [np.array(v, dtype=float) for v in zip(*rows)] if rows else (np.array([]),) * 3


def _errorbar(ax, metric, xs, ys, es, series, **kw):
    lab, col, mk = STYLE.get(series, (series, None, "o"))
    plot_results.errorbar(ax, metric, xs, ys, es, label=lab, color=col, marker=mk, ms=3.5, lw=1.2, capsize=2,
                          elinewidth=0.8, **kw)


def _budget_axis(ax, xs):
    ax.set_xlabel(r"privacy budget $\varepsilon$")
    if len(xs):
        ax.set_xlim(0, max(xs) * 1.04)
    ax.grid(alpha=0.3)


def _series_legend(fig, series, ncol=None, extra=()):
    handles = [Line2D([], [], color=STYLE[s][1], marker=STYLE[s][2], ms=4, label=STYLE[s][0]) for s in series]
    handles += list(extra)
    fig.legend(handles=handles, loc="upper center", ncol=ncol or len(handles), frameon=False,
               bbox_to_anchor=(0.5, 1.0))


def _params_text(data, dataset):
    for c in data["cells"]:
        if c["dataset"] == dataset and "g" in c["params"]:
            g = c["params"]["g"]
            g = "x".join(f"{v:g}" for v in g) if isinstance(g, list) else f"{g:g}"
            return f"g = {g}, p = {100 * c['params']['p']:g}%"
    return ""


# --- Figure 2 -------------------------------------------------------------------------------------

def _cluster_colours(xy, labels):
    """Colour per cluster id: greedy, each cluster takes the palette colour whose nearest cluster of
    that colour is farthest away (so neighbouring clusters differ, as the paper's Figure 2 shows)."""
    ids = [c for c in np.unique(labels) if c >= 0]
    if not ids:
        return {}
    cent = {c: xy[labels == c].mean(axis=0) for c in ids}
    size = {c: int((labels == c).sum()) for c in ids}
    span = np.ptp(xy, axis=0)
    span[span == 0] = 1
    colours = {}
    for c in sorted(ids, key=lambda c: -size[c]):
        best, best_d = PALETTE[0], -1.0
        for col in PALETTE:
            same = [o for o, oc in colours.items() if oc == col]
            d = min((np.linalg.norm((cent[c] - cent[o]) / span) for o in same), default=np.inf)
            if d > best_d + 1e-12:
                best, best_d = col, d
        colours[c] = best
    return colours


def _points_panel(ax, xy, lab, title, columns):
    colours = _cluster_colours(xy, lab)
    noise = lab < 0
    col = np.array([colours.get(c, NOISE_COLOUR) for c in lab], dtype=object)
    ax.scatter(xy[~noise, 0], xy[~noise, 1], s=0.6, c=list(col[~noise]), linewidths=0, rasterized=True)
    ax.scatter(xy[noise, 0], xy[noise, 1], s=0.6, c=NOISE_COLOUR, linewidths=0, rasterized=True)
    ax.set_title(title.format(clusters=len(colours), noise=100 * noise.mean()), fontsize=9)
    ax.set_xlabel(columns[0])
    ax.set_ylabel(columns[1] if len(columns) > 1 else "y")
    ax.ticklabel_format(style="sci", scilimits=(-3, 4))
    ax.set_aspect("equal", adjustable="datalim")


def _cells_panel(ax, release, bounds, title, columns):
    """The significant cells of a WaveCluster release (average-subband grid), one colour per cluster,
    over the dataset's domain; non-significant cells are left blank (the points are not stored)."""
    shape = release["shape"]
    cells = np.asarray(release["significant_cells"], dtype=int).reshape(-1, len(shape) + 1)
    (x0, x1), (y0, y1) = bounds[0], bounds[1]
    wx, wy = (x1 - x0) / shape[0], (y1 - y0) / shape[1]
    centres = np.column_stack([x0 + (cells[:, 0] + 0.5) * wx, y0 + (cells[:, 1] + 0.5) * wy])
    colours = _cluster_colours(centres, cells[:, -1])
    for (i, j, c) in cells[:, [0, 1, -1]]:
        ax.add_patch(plt.Rectangle((x0 + i * wx, y0 + j * wy), wx, wy, color=colours.get(c, NOISE_COLOUR), lw=0))
    ax.set_xlim(x0, x1)
    ax.set_ylim(y0, y1)
    ax.set_title(title.format(clusters=len(colours)), fontsize=9)
    ax.set_xlabel(columns[0])
    ax.set_ylabel(columns[1] if len(columns) > 1 else "y")
    ax.set_aspect("equal", adjustable="box")


def wc_fig2_clusters(results_dir, out_dir):
    name, data = _load(results_dir, ["figures_wavecluster", "builtin_figures_wavecluster"])
    panels = []
    for ds in datasets_in_order(data):
        info = data["datasets"][ds]
        if "points" not in info:
            raise FileNotFoundError(f"experiment {name} has no points (set output: {{points: true}})")
        cell = next((c for c in data["cells"] if c["dataset"] == ds and c["series"] == "wavecluster"), None)
        if cell is None or "labels" not in cell["trials"][0]:
            raise FileNotFoundError(f"experiment {name} has no WaveCluster labels for {ds} (output: {{labels: true}})")
        xy = np.asarray(info["points"], dtype=float).reshape(info["n"], info["d"])[:, :2]
        panels.append((ds, xy, np.asarray(cell["trials"][0]["labels"]), cell))
    # Figure 2 (d): Gowalla from the significant cells (wavecluster_fig2_gowalla stores no points).
    gname, gdata = (None, None)
    if name == "figures_wavecluster":
        gname, gdata = _load(results_dir, ["wavecluster_fig2_gowalla"], required=False)
    gcell = None
    if gdata is not None:
        gcell = next((c for c in gdata["cells"] if c["series"] == "wavecluster" and "release" in c["trials"][0]), None)
    suffix, missing = "", None
    if name == "figures_wavecluster" and gcell is None:
        missing = GOWALLA_FIX.format(config="wavecluster_fig2_gowalla")
        print(f"wc_fig2_clusters: no Gowalla panel: wavecluster_fig2_gowalla (with release: true) is not in "
              f"{results_dir} ({missing})")
        suffix = "; Gowalla: not run"
    n_axes = len(panels) + (gcell is not None or missing is not None)
    fig, axes = plt.subplots(1, n_axes, figsize=(3.4 * n_axes, 3.4), squeeze=False)
    for k, (ax, (ds, xy, lab, cell)) in enumerate(zip(axes.flat, panels)):
        _points_panel(ax, xy, lab, f"({chr(97 + k)}) {_dname(ds)}: {{clusters}} clusters\n{_params_text(data, ds)}, "
                      "noise {noise:.1f}%", data["datasets"][ds].get("columns") or ["x", "y"])
    if gcell is not None:
        ds = gcell["dataset"]
        info = gdata["datasets"][ds]
        _cells_panel(axes.flat[len(panels)], gcell["trials"][0]["release"], info["bounds"],
                     f"({chr(97 + len(panels))}) {_dname(ds)}: {{clusters}} clusters\n{_params_text(gdata, ds)} "
                     "(significant cells)", info.get("columns") or ["x", "y"])
        suffix = f" + {gname}"
    elif missing:  # (d) stays Gowalla's, empty, as in Figure 3
        _absent_panel(axes.flat[len(panels)], f"({chr(97 + len(panels))}) Gowalla", missing)
    fig.legend(handles=[Line2D([], [], ls="", marker="o", ms=4, color=NOISE_COLOUR,
                               label="noise (non-significant cells)"),
                        Line2D([], [], ls="", marker="o", ms=4, color=PALETTE[0], label="clusters (one colour each)")],
               loc="upper center", ncol=2, frameon=False, bbox_to_anchor=(0.5, 1.02))
    fig.suptitle(f"{plot_results.paper_figure_name('Figure 2', data)}: WaveCluster results (Haar, level 1) "
                 f"[{name}{suffix}]", y=1.09, fontsize=10)
    fig.tight_layout()
    return save(fig, out_dir, "wc_fig2_clusters")


# --- KDD Figure 1 -----------------------------------------------------------------------------------

def _baseline_example(cell, true_clusters):
    """Index of the first Baseline run with fewer clusters than the truth (a merge, as KDD Figure 1
    shows), else 0, and a note saying which."""
    counts = [t.get("metrics", {}).get("wc_clusters") for t in cell["trials"]]
    for i, n in enumerate(counts):
        if n is not None and true_clusters is not None and n < true_clusters:
            return i, f"run {i + 1} of {len(counts)}: the first with fewer clusters than the truth"
    return 0, f"run 1 of {len(counts)} (no run merged clusters)"


def wc_kdd_fig1_baseline(results_dir, out_dir):
    name, data = _load(results_dir, ["wavecluster_kdd_fig1"])
    ds = datasets_in_order(data)[0]
    info = data["datasets"][ds]
    if "points" not in info:
        raise FileNotFoundError(f"experiment {name} has no points (set output: {{points: true}})")
    truth = next((c for c in data["cells"] if c["dataset"] == ds and c["series"] == "wavecluster"), None)
    base = next((c for c in data["cells"] if c["dataset"] == ds and c["series"] == "wc_baseline"), None)
    if truth is None or base is None or "labels" not in truth["trials"][0] or "labels" not in base["trials"][0]:
        raise FileNotFoundError(f"experiment {name} needs WaveCluster and Baseline labels (output: {{labels: true}})")
    xy = np.asarray(info["points"], dtype=float).reshape(info["n"], info["d"])[:, :2]
    true_clusters = truth["trials"][0].get("metrics", {}).get("wc_clusters")
    i, which = _baseline_example(base, true_clusters)
    cols = info.get("columns") or ["x", "y"]
    fig, axes = plt.subplots(1, 2, figsize=(7.2, 3.6))
    _points_panel(axes[0], xy, np.asarray(truth["trials"][0]["labels"]),
                  f"(a) WaveCluster on {_dname(ds)}: {{clusters}} clusters\n{_params_text(data, ds)}, noise {{noise:.1f}}%", cols)
    eps = base["params"].get("epsilon")
    _points_panel(axes[1], xy, np.asarray(base["trials"][i]["labels"]),
                  f"(b) Baseline, $\\varepsilon$ = {eps:g}: {{clusters}} clusters\n{which}", cols)
    fig.suptitle(f"{plot_results.paper_figure_name('KDD Figure 1', data, [ds])}: WaveCluster of Baseline's synthetic "
                 f"data (adaptive grid) [{name}]", fontsize=10)
    fig.tight_layout()
    return save(fig, out_dir, "wc_kdd_fig1_baseline")


# --- Figure 3, k', F-measure ----------------------------------------------------------------------

MEASURES = [("dsg_c", r"DSG$_C$"), ("ocm", "OCM"), ("two_ce", "2CE")]
# Figure 3's columns, in the paper's order: its panels are lettered row by row over these four, (a)-(d) DSG_C,
# (e)-(h) OCM, (i)-(l) 2CE, and the report (reference/published.yaml "source") cites them so.
PAPER_COLUMNS = ["ds1", "ds2", "ds3", "gowalla"]


def _columns(datasets, missing):
    """[(dataset, letter index within a row)], row stride: the paper's columns and letters when the data are
    the paper's datasets (with Gowalla's column when its results are `missing`, drawn empty), else the
    datasets in config order lettered as the paper's columns would be (a stand-in's first dataset is DS1's)."""
    if set(datasets) <= set(PAPER_COLUMNS):
        cols = [d for d in PAPER_COLUMNS if d in datasets or (d == "gowalla" and missing)]
        return [(d, PAPER_COLUMNS.index(d)) for d in cols], len(PAPER_COLUMNS)
    return [(d, j) for j, d in enumerate(datasets)], max(len(PAPER_COLUMNS), len(datasets))


def _absent_panel(ax, title, fix):
    ax.set_title(title, fontsize=9)
    text = "Gowalla: data not present\n" + textwrap.fill(f"({fix})", 32, break_long_words=False)
    ax.text(0.5, 0.5, text, ha="center", va="center", fontsize=7, color="dimgrey", transform=ax.transAxes)
    ax.set_xticks([])
    ax.set_yticks([])
    for side in ax.spines.values():
        side.set_color("0.8")


def _measure_grid(data, name, out_dir, measures, stem, title, true_line=None, ylim01=True, missing=None):
    """One row per measure, one column per dataset (Figure 3's layout and letters); `missing`: the fix for
    Gowalla's absent results (its column is then an empty panel saying so)."""
    datasets = datasets_in_order(data)
    series = [s for s in PRIVATE if any(c["series"] == s for c in data["cells"])]
    if not series:
        raise FileNotFoundError(f"experiment {name} has none of the series {', '.join(PRIVATE)}")
    columns, stride = _columns(datasets, missing)
    rows, cols = len(measures), len(columns)
    fig, axes = plt.subplots(rows, cols, figsize=(3.1 * cols, 2.45 * rows), squeeze=False)
    extra = []
    for r, (metric, mlabel) in enumerate(measures):
        for j, (ds, k) in enumerate(columns):
            ax = axes[r][j]
            letter = chr(97 + r * stride + k)
            if ds not in datasets:
                _absent_panel(ax, f"({letter}) {mlabel} on {_dname(ds)}", missing)
                continue
            xs_all = []
            for s in series:
                xs, ys, es = _sweep(data, ds, s, metric)
                if len(xs):
                    _errorbar(ax, metric, xs, ys, es, s)
                    xs_all += list(xs)
            note = ""
            if true_line:
                k_true = _true_value(data, ds, true_line)
                if k_true is not None:
                    ax.axhline(k_true, color="black", ls="--", lw=1)
                    note = f" (true k = {k_true:g})"
                    if not extra:
                        extra = [Line2D([], [], color="black", ls="--", label="true k (WaveCluster)")]
            _budget_axis(ax, xs_all)
            if ylim01:
                ax.set_ylim(bottom=0)
            ax.set_ylabel(mlabel)
            ax.set_title(f"({letter}) {mlabel} on {_dname(ds)}{note}", fontsize=9)
    _series_legend(fig, series, extra=extra)
    fig.suptitle(f"{title} [{name}; mean of {data.get('trials', '?')} runs, {plot_results.CI_NOTE}]", y=1.04, fontsize=10)
    plot_results.tight_grid(fig, rect=(0, 0, 1, 0.97))
    return save(fig, out_dir, stem)


def _true_value(data, dataset, metric):
    for c in data["cells"]:
        if c["dataset"] == dataset and c["series"] == "wavecluster" and metric in c["aggregates"]:
            return c["aggregates"][metric]["mean"]
    for c in data["cells"]:
        if c["dataset"] == dataset and metric in c["aggregates"]:
            return c["aggregates"][metric]["mean"]
    return None


def _with_gowalla(results_dir, name, data, stem):
    """(name, data, missing) with wavecluster_gowalla's cells appended as a fourth dataset column when its results
    are present (Figure 3 (d), (h), (l)); otherwise the data unchanged, a note printed and `missing` the fix
    (its panels are drawn empty, so the other panels keep the paper's letters)."""
    if name != "wavecluster_fig3" or any(c["dataset"] == "gowalla" for c in data["cells"]):
        return name, data, None
    gname, gdata = _load(results_dir, ["wavecluster_gowalla"], required=False)
    if gdata is None:
        fix = GOWALLA_FIX.format(config="wavecluster_gowalla")
        print(f"{stem}: no Gowalla column: wavecluster_gowalla is not in {results_dir} ({fix})")
        return f"{name}; Gowalla: not run", data, fix
    merged = dict(data)
    merged["cells"] = list(data["cells"]) + [c for c in gdata["cells"]]
    merged["datasets"] = {**(data.get("datasets") or {}), **(gdata.get("datasets") or {})}
    trials = {data.get("trials"), gdata.get("trials")}
    merged["trials"] = "/".join(str(t) for t in sorted(trials, key=str)) if len(trials) > 1 else data.get("trials")
    return f"{name} + {gname}", merged, None


def _fig3_data(results_dir, stem):
    return _with_gowalla(results_dir, *_load(results_dir, ["wavecluster_fig3", "wavecluster_shapes"]), stem)


def wc_fig3_measures(results_dir, out_dir):
    name, data, missing = _fig3_data(results_dir, "wc_fig3_measures")
    return _measure_grid(data, name, out_dir, MEASURES, "wc_fig3_measures",
                         plot_results.paper_figure_name("Figure 3", data) + r": DSG$_C$, OCM and 2CE against $\varepsilon$",
                         missing=missing)


def wc_kprime(results_dir, out_dir):
    name, data, missing = _fig3_data(results_dir, "wc_kprime")
    return _measure_grid(data, name, out_dir, [("kprime", "k'")], "wc_kprime",
                         plot_results.paper_figure_name("Sec. 7", data)
                         + r": k' against $\varepsilon$ (number of significant values)", true_line="k_true", missing=missing)


def wc_fmeasure(results_dir, out_dir):
    name, data, missing = _fig3_data(results_dir, "wc_fmeasure")
    return _measure_grid(data, name, out_dir, [("f_measure", "F-measure")], "wc_fmeasure",
                         plot_results.paper_figure_name("Sec. 7", data)
                         + r": F-measure against $\varepsilon$ (true WaveCluster result as ground truth)", missing=missing)


# --- Budget split -----------------------------------------------------------------------------------

def wc_budget_split(results_dir, out_dir):
    name, data = _load(results_dir, ["wavecluster_budget_split"])
    cells = [c for c in data["cells"] if c["series"] == "privthr" and "rho" in c["params"]
             and "dsg_c" in c["aggregates"]]
    if not cells:
        raise FileNotFoundError(f"experiment {name} has no PrivTHR cells with rho and dsg_c")
    ds = cells[0]["dataset"]
    cells = [c for c in cells if c["dataset"] == ds]
    rhos = sorted({c["params"]["rho"] for c in cells})
    epss = sorted({c["params"]["epsilon"] for c in cells})
    grid = np.full((len(epss), len(rhos)), np.nan)
    for c in cells:
        grid[epss.index(c["params"]["epsilon"]), rhos.index(c["params"]["rho"])] = c["aggregates"]["dsg_c"]["mean"]
    wanted = [e for e in (0.1, 0.2, 0.5, 1.0, 2.0) if e in epss] or epss[:: max(1, len(epss) // 5)]
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(9.2, 3.4), gridspec_kw={"width_ratios": [1, 1.15]})
    cmap = plt.get_cmap("viridis")
    for i, e in enumerate(wanted):
        xs, ys, es = _sweep(data, ds, "privthr", "dsg_c", x="rho", where={"epsilon": e})
        plot_results.errorbar(a1, "dsg_c", 100 * xs, ys, es, marker="o", ms=3, capsize=2, lw=1.1, elinewidth=0.8,
                              color=cmap(i / max(1, len(wanted) - 1)), label=rf"$\varepsilon$ = {e:g}")
    mean_over = np.nanmean(grid, axis=0)
    a1.plot(100 * np.array(rhos), mean_over, color="black", ls="--", lw=1.2, label=r"mean over all $\varepsilon$")
    a1.axvline(90, color="grey", ls=":", lw=1)
    a1.annotate("paper's best:\n90% / 10%", (89, 0.55), xycoords=("data", "axes fraction"), ha="right", va="center",
                fontsize=7, color="dimgrey")
    a1.set_xlabel(r"share $\rho$ of $\varepsilon$ on the noisy counts (%), rest on the noisy |Z|")
    a1.set_ylabel(r"DSG$_C$ of PrivTHR")
    a1.set_ylim(bottom=0)
    a1.grid(alpha=0.3)
    a1.legend(fontsize=7, ncol=2, loc="upper center")
    a1.set_title(f"(a) DSG$_C$ against the split on {_dname(ds)}", fontsize=9)
    im = a2.imshow(grid, aspect="auto", origin="lower", cmap="viridis_r", interpolation="nearest")
    a2.set_xticks(range(len(rhos)))
    a2.set_xticklabels([f"{100 * r:g}" for r in rhos], rotation=90, fontsize=7)
    step = max(1, len(epss) // 10)
    a2.set_yticks(range(0, len(epss), step))
    a2.set_yticklabels([f"{e:g}" for e in epss[::step]], fontsize=7)
    best = np.nanargmin(np.where(np.isnan(grid), np.inf, grid), axis=1)
    a2.plot(best, range(len(epss)), "w*", ms=5)
    a2.set_xlabel(r"$\rho$ (%)")
    a2.set_ylabel(r"$\varepsilon$")
    fig.colorbar(im, ax=a2, label=r"mean DSG$_C$")
    a2.set_title(r"(b) mean DSG$_C$ over ($\rho$, $\varepsilon$); $\star$ = best $\rho$ per $\varepsilon$", fontsize=9)
    fig.suptitle(f"{plot_results.paper_figure_name('Sec. 7', data, [ds])}: PrivTHR budget allocation [{name}; mean of "
                 f"{data.get('trials', '?')} runs, {plot_results.CI_NOTE}]", fontsize=10)
    fig.tight_layout()
    return save(fig, out_dir, "wc_budget_split")


FIGURES = [wc_fig2_clusters, wc_fig3_measures, wc_kprime, wc_fmeasure, wc_budget_split, wc_kdd_fig1_baseline]


def main():
    return plot_results.run_figures(FIGURES, __doc__)


if __name__ == "__main__":
    sys.exit(main())
