#!/usr/bin/python3
"""Figures and tables of Qiu & Yi, "Approximate DBSCAN under Differential Privacy", from dpclust results only.

Called by plots/make_figures.py (FIGURES); each function takes (results_dir, out_dir), reads
results_dir/<experiment>/results.json and writes into out_dir (PNG, PDF too with --pdf, or Markdown for the tables),
returning the written files. It raises FileNotFoundError when its experiment is absent.

  dpdbscan_fig5_moons      Figure 5: Moons, (a) DBSCAN, (b) noisy histogram (red positive, green
                           negative, opacity = |count|), (c) noisy neighbourhood sums, (d) spans,
                           (e) extracted labels.  figures_dpdbscan, else builtin_figures_dpdbscan
                           (needs dp_dbscan with release_histogram: true)
  dpdbscan_fig7_cluto      Figure 7: DBSCAN clusters, DP-DBSCAN spans, DP-k-means centres and Voronoi
                           cells, both mechanisms' extracted labels, per dataset (Cluto-t4/t5/t7; the
                           builtin experiment's generated sets when the Cluto data is absent)
  dpdbscan_fig8_alpha_minpts  Figure 8: ARI/AMI of DP-DBSCAN and DBSCAN against alpha (MinPts fixed)
                           and against MinPts (alpha fixed).  dpdbscan_fig8
  dpdbscan_fig9_eta        Figure 9: ARI/AMI of DP-DBSCAN against eta.  dpdbscan_fig9
  dpdbscan_fig10_epsilon   Figure 10: ARI/AMI of DP-DBSCAN and DP-k-means against eps.  dpdbscan_fig10
  dpdbscan_cabs_tiny_map   Figure 6 (c, d): the spans on Cabs-tiny, linear-time and naive histograms
                           (dpdbscan_geo, else dpdbscan_table3), over a light point sample
                           (figures_cabs_tiny's cabs-tiny-sample) when present
  Tables 2 and 3 are plots/paper_dpdbscan_tables.py's.

Published numbers come only from the project's reference/published.yaml ("tables" entries, matched by
experiment; Table 3's times from the top-level "timings" entries), read with PyYAML (Debian's python3-yaml).
Error bars: 95% confidence interval of the mean over the trials (plot_results.error), cut to the metric's range
(ARI >= -0.5, AMI <= 1: plot_results.errorbar). A figure drawn from generated data (the built-in stand-ins) is
titled "Stand-in for Figure N" (plot_results.paper_figure_name, from the results' dataset provenance).
Usage on its own: /usr/bin/python3 plots/paper_dpdbscan.py --results results --out plots/out
"""
import pathlib
import sys

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import plot_results  # noqa: E402  (also sets the matplotlib backend and the shared style)
from plot_results import datasets_in_order, error, save  # noqa: E402

import matplotlib.pyplot as plt  # noqa: E402
from matplotlib.colors import ListedColormap, to_rgba  # noqa: E402
from matplotlib.lines import Line2D  # noqa: E402
from matplotlib.ticker import NullLocator, ScalarFormatter  # noqa: E402

PUBLISHED = HERE.parent / "reference" / "published.yaml"

STYLE = {  # label, colour, marker
    "dp_dbscan": ("DP-DBSCAN", "#d62728", "o"),
    "dp_dbscan_linear": ("DP-DBSCAN O(n)", "#d62728", "o"),
    "dp_dbscan_naive": ("DP-DBSCAN O(|X|)", "#ff9896", "v"),
    "dp_kmeans": ("DP-k-means", "#1f77b4", "s"),
    "dbscan": ("DBSCAN", "black", "^"),
    "kmeans": ("k-means", "#7f7f7f", "D"),
}
DATASET_NAMES = {"circles": "Circles", "moons": "Moons", "blobs": "Blobs", "cluto-t4": "Cluto-t4",
                 "cluto-t5": "Cluto-t5", "cluto-t7": "Cluto-t7", "cabs-tiny": "Cabs-tiny", "cabs": "Cabs",
                 "crash": "Crash", "har70": "HAR70+"}
# Table 1 of the paper (alpha, MinPts): the slices of Figure 8 go through these values.
TABLE1 = {"circles": (0.2, 10), "moons": (0.2, 7), "blobs": (0.2, 7), "cluto-t4": (9.0, 11),
          "cluto-t5": (9.0, 20), "cluto-t7": (12.0, 20)}
PALETTE = ["#1f77b4", "#ff7f0e", "#2ca02c", "#9467bd", "#8c564b", "#e377c2", "#17becf", "#bcbd22",
           "#393b79", "#637939", "#843c39", "#7b4173", "#3182bd", "#e6550d", "#31a354", "#756bb1"]
NOISE = "#b0b0b0"


# --- loading ----------------------------------------------------------------------------------------

_load = plot_results.load_first


def _dname(name):
    return DATASET_NAMES.get(name, name)


def _cell(data, dataset, series=None, method=None):
    for c in data["cells"]:
        if c["dataset"] == dataset and (series is None or c["series"] == series) and \
                (method is None or c["method"] == method):
            return c
    return None


def _points(data, name, dataset):
    info = data["datasets"][dataset]
    if "points" not in info:
        raise FileNotFoundError(f"experiment {name} has no points for {dataset} (set output: {{points: true}})")
    xy = np.asarray(info["points"], dtype=float).reshape(info["n"], info["d"])
    truth = np.asarray(info.get("true_labels") or [], dtype=int)
    return xy, truth


def _trial0(cell, what, name):
    t = cell["trials"][0]
    if what not in t:
        raise FileNotFoundError(f"experiment {name} has no '{what}' for {cell['dataset']}/{cell['series']} "
                                f"(output: {{{'labels' if what == 'labels' else 'release'}: true}})")
    return t[what]


# --- a small YAML-subset reader (block maps and lists, flow {..} / [..], scalars, # comments) ----------

def published_tables(experiment):
    """The 'tables' entries of reference/published.yaml for this experiment ([] when none / no file)."""
    if not PUBLISHED.is_file():
        return []
    doc = plot_results.load_yaml(PUBLISHED) or {}
    return [t for t in doc.get("tables") or [] if isinstance(t, dict) and t.get("experiment") == experiment]


def published_value(tables, metric, dataset, series):
    for t in tables:
        v = ((t.get("values") or {}).get(metric) or {}).get(dataset) or {}
        if series in v and isinstance(v[series], (int, float)):
            return float(v[series]), t
    return None, None


# --- drawing helpers --------------------------------------------------------------------------------

def _errorbar(ax, metric, xs, ys, es, series, ls="-", label=None, mfc=None):
    lab, col, mk = STYLE.get(series, (series, None, "o"))
    plot_results.errorbar(ax, metric, xs, ys, es, color=col, marker=mk, ms=3.5, lw=1.2, ls=ls, capsize=2, elinewidth=0.8,
                          label=label or lab, mfc=mfc or col)


def _sweep(data, dataset, series, metric, x, where=None):
    rows = []
    for c in data["cells"]:
        if c["dataset"] != dataset or c["series"] != series or x not in c["params"]:
            continue
        if where and any(c["params"].get(k) != v for k, v in where.items()):
            continue
        agg = c["aggregates"].get(metric)
        if agg and agg.get("mean") is not None:
            rows.append((c["params"][x], agg["mean"], error(agg)))
    rows.sort()
    return [np.array(v, dtype=float) for v in zip(*rows)] if rows else (np.array([]),) * 3


def _plural(n, word):
    return f"{n} {word}" + ("" if n == 1 else "s")


def _label_colours(labels):
    """Palette colour per cluster id, in id order (span i of a DP-DBSCAN release has colour i too)."""
    ids = sorted(int(c) for c in np.unique(labels) if c >= 0)
    return {c: PALETTE[i % len(PALETTE)] for i, c in enumerate(ids)}


def _aligned_colours(labels, ref_labels, ref_colours):
    """Colours for `labels` that follow a reference labelling: each cluster (largest first) takes the
    colour of the reference cluster it overlaps most, if still free; the others take unused colours."""
    labels, ref = np.asarray(labels), np.asarray(ref_labels)
    ids = [int(c) for c in np.unique(labels) if c >= 0]
    colours, used = {}, set()
    for c in sorted(ids, key=lambda c: (-int((labels == c).sum()), c)):
        r = ref[(labels == c) & (ref >= 0)]
        if r.size:
            col = ref_colours.get(int(np.bincount(r).argmax()))
            if col and col not in used:
                colours[c] = col
                used.add(col)
    free = [p for p in PALETTE if p not in used]
    for c in sorted(ids):
        if c not in colours:
            colours[c] = free.pop(0) if free else PALETTE[c % len(PALETTE)]
    return colours


def _scatter_labels(ax, xy, labels, s=1.0, noise_colour=NOISE, colours=None):
    labels = np.asarray(labels)
    colours = colours or _label_colours(labels)
    noise = labels < 0
    if noise.any():
        ax.scatter(xy[noise, 0], xy[noise, 1], s=s, c=noise_colour, linewidths=0, rasterized=True)
    for c, col in colours.items():
        m = labels == c
        ax.scatter(xy[m, 0], xy[m, 1], s=s, c=col, linewidths=0, rasterized=True)
    return len(colours), float(noise.mean()) if len(labels) else 0.0


def _grid_extent(grid):
    w = grid["cell_width"]
    lo = grid["lo"]
    dims = grid["cells_per_dim"]
    return [lo[0], lo[0] + dims[0] * w, lo[1], lo[1] + dims[1] * w]


def _span_image(release):
    """(dims[1] x dims[0]) array of span ids (NaN = not in a span) for imshow(origin='lower')."""
    grid = release["grid"]
    dims = grid["cells_per_dim"]
    img = np.full((dims[1], dims[0]), np.nan)
    for s in release["spans"]:
        cells = np.asarray(s["cells"], dtype=int).reshape(-1, 2)
        img[cells[:, 1], cells[:, 0]] = s["span"]
    return img


def _draw_spans(ax, release, alpha=0.9):
    img = _span_image(release)
    n = len(release["spans"])
    if n:
        cmap = ListedColormap([PALETTE[i % len(PALETTE)] for i in range(n)])
        ax.imshow(np.ma.masked_invalid(img), origin="lower", extent=_grid_extent(release["grid"]), cmap=cmap,
                  vmin=-0.5, vmax=n - 0.5, interpolation="nearest", alpha=alpha, zorder=2)
    return n


def _histogram_image(values, dims, vmax=None):
    """RGBA image: red for positive, green for negative values, opacity proportional to |value|."""
    v = np.asarray(values, dtype=float).reshape(dims[0], dims[1]).T
    vmax = vmax or (np.nanmax(np.abs(v)) if v.size else 1.0) or 1.0
    rgba = np.zeros(v.shape + (4,))
    rgba[v > 0] = to_rgba("#d62728")
    rgba[v < 0] = to_rgba("#2ca02c")
    rgba[..., 3] = np.clip(np.abs(v) / vmax, 0, 1)
    return rgba, vmax


def _square(ax, xy, pad=0.03):
    lo, hi = xy.min(axis=0), xy.max(axis=0)
    r = (hi - lo) * pad
    ax.set_xlim(lo[0] - r[0], hi[0] + r[0])
    ax.set_ylim(lo[1] - r[1], hi[1] + r[1])
    ax.set_aspect("equal")


def _scores(cell):
    m = cell["trials"][0].get("metrics", {})
    parts = [f"{k.upper()} = {m[k]:.2f}" for k in ("ari", "ami") if isinstance(m.get(k), (int, float))]
    return ", ".join(parts)


def _voronoi(ax, centers, extent, res=400):
    xs = np.linspace(extent[0], extent[1], res)
    ys = np.linspace(extent[2], extent[3], res)
    X, Y = np.meshgrid(xs, ys)
    P = np.stack([X.ravel(), Y.ravel()], axis=1)
    C = np.asarray(centers, dtype=float)[:, :2]
    owner = np.argmin(((P[:, None, :] - C[None, :, :]) ** 2).sum(axis=2), axis=1).reshape(X.shape)
    cmap = ListedColormap([PALETTE[i % len(PALETTE)] for i in range(len(C))])
    ax.imshow(owner, origin="lower", extent=extent, cmap=cmap, vmin=-0.5, vmax=len(C) - 0.5, alpha=0.28,
              interpolation="nearest", zorder=0)
    ax.contour(X, Y, owner, levels=np.arange(len(C)) + 0.5, colors="black", linewidths=0.6, zorder=1)
    ax.scatter(C[:, 0], C[:, 1], marker="x", s=40, c="black", linewidths=1.5, zorder=4)


# --- Figure 5 ---------------------------------------------------------------------------------------

def dpdbscan_fig5_moons(results_dir, out_dir):
    name, data = _load(results_dir, ["figures_dpdbscan", "builtin_figures_dpdbscan"])
    ds = "moons" if "moons" in data["datasets"] else datasets_in_order(data)[0]
    xy, _ = _points(data, name, ds)
    dp = _cell(data, ds, method="dp_dbscan")
    db = _cell(data, ds, method="dbscan")
    if dp is None or db is None:
        raise FileNotFoundError(f"experiment {name} lacks dp_dbscan or dbscan cells for {ds}")
    rel = _trial0(dp, "release", name)
    if "histogram" not in rel:
        raise FileNotFoundError(f"experiment {name}: the dp_dbscan release of {ds} has no histogram "
                                "(set release_histogram: true)")
    h, grid = rel["histogram"], rel["grid"]
    ext = _grid_extent(grid)
    dp_labels, db_labels = _trial0(dp, "labels", name), _trial0(db, "labels", name)
    dp_colours = _label_colours(dp_labels)
    span = np.ptp(xy[:, :2], axis=0) * 1.16
    pw = 3.3
    fig, axes = plt.subplots(1, 5, figsize=(5 * pw + 0.6, pw * span[1] / max(span[0], 1e-12) + 1.7))
    # (a) DBSCAN, coloured like the DP-DBSCAN clusters they overlap most
    k, nf = _scatter_labels(axes[0], xy, db_labels, s=2, colours=_aligned_colours(db_labels, dp_labels, dp_colours))
    axes[0].set_title(f"(a) DBSCAN: {_plural(k, 'cluster')}\n{_scores(db)}", fontsize=9)
    # (b) noisy histogram, (c) neighbourhood sums
    for ax, key, title in ((axes[1], "noisy_counts", "(b) Noisy histogram"),
                           (axes[2], "neighbourhood_sums", "(c) Neighbour sums")):
        rgba, vmax = _histogram_image(h[key], h["cells_per_dim"])
        ax.imshow(rgba, origin="lower", extent=ext, interpolation="nearest")
        for x in np.arange(ext[0], ext[1] + 1e-9, grid["cell_width"]):
            ax.axvline(x, color="0.9", lw=0.2, zorder=0)
        for y in np.arange(ext[2], ext[3] + 1e-9, grid["cell_width"]):
            ax.axhline(y, color="0.9", lw=0.2, zorder=0)
        if key == "neighbourhood_sums":
            extra = f"kappa = {h.get('kappa', '?')} cells; core if S >= {h.get('core_threshold', float('nan')):.1f}"
        else:
            extra = f"w = {grid['cell_width']:.3g}, eps = {dp['params'].get('epsilon', '?')}"
        ax.set_title(f"{title}\n{extra}; max |value| = {vmax:.0f}", fontsize=9)
    # (d) spans (the points drawn on top for reference)
    n = _draw_spans(axes[3], rel, alpha=0.8)
    axes[3].scatter(xy[:, 0], xy[:, 1], s=0.4, c="0.25", linewidths=0, rasterized=True, zorder=3)
    axes[3].set_title(f"(d) Approx. spans: {_plural(n, 'span')}\n(points in dark grey)", fontsize=9)
    # (e) extracted labels
    k, nf = _scatter_labels(axes[4], xy, dp_labels, s=2, noise_colour="black", colours=dp_colours)
    axes[4].set_title(f"(e) Extracted labels (noise black)\n{_scores(dp)}, noise {100 * nf:.1f}%", fontsize=9)
    for ax in axes:
        _square(ax, xy, pad=0.08)
        ax.set_xlabel("x")
    axes[0].set_ylabel("y")
    fig.legend(handles=[Line2D([], [], ls="", marker="s", color="#d62728", label="positive noisy count / sum"),
                        Line2D([], [], ls="", marker="s", color="#2ca02c", label="negative noisy count / sum"),
                        Line2D([], [], ls="", marker="s", color="white", label="(opacity = |value| / max)")],
               loc="lower center", ncol=3, frameon=False, fontsize=8, bbox_to_anchor=(0.5, 0.0))
    fig.suptitle(f"{plot_results.paper_figure_name('Figure 5', data, [ds])}: DP-DBSCAN on {_dname(ds)} "
                 f"(alpha = {dp['params'].get('alpha')}, MinPts = {dp['params'].get('min_pts')}, "
                 f"eps = {dp['params'].get('epsilon')}) [{name}, trial 0]",
                 fontsize=10)
    plot_results.tight_grid(fig, rect=(0, 0.07, 1, 0.95))
    return save(fig, out_dir, "dpdbscan_fig5_moons")


# --- Figure 7 ---------------------------------------------------------------------------------------

def dpdbscan_fig7_cluto(results_dir, out_dir):
    name, data = _load(results_dir, ["figures_dpdbscan", "builtin_figures_dpdbscan"])
    cand = [d for d in datasets_in_order(data) if "points" in data["datasets"][d] and _cell(data, d, method="dp_kmeans")
            and _cell(data, d, method="dp_dbscan") and _cell(data, d, method="dbscan")]
    cluto = [d for d in cand if d.startswith("cluto")]
    sets = cluto or [d for d in cand if "sample" not in d]
    if not sets:
        raise FileNotFoundError(f"experiment {name} has no dataset with points and dbscan, dp_dbscan, dp_kmeans cells")
    rows = ["DBSCAN", "DP-DBSCAN spans", "DP-k-means Voronoi", "DP-DBSCAN labels", "DP-k-means labels"]
    ratios = []
    for ds in sets:
        r = np.ptp(_points(data, name, ds)[0][:, :2], axis=0)
        ratios.append(float(np.clip(r[0] / max(r[1], 1e-12), 0.6, 3.0)))
    row_h = 2.45
    size = (row_h * sum(ratios) + 0.6 * len(sets), (row_h + 0.45) * len(rows) + 0.5)
    fig, axes = plt.subplots(len(rows), len(sets), figsize=size, squeeze=False, gridspec_kw={"width_ratios": ratios})
    for j, ds in enumerate(sets):
        xy, _ = _points(data, name, ds)
        db, dp, km = (_cell(data, ds, method=m) for m in ("dbscan", "dp_dbscan", "dp_kmeans"))
        letter = lambda r: chr(97 + r * len(sets) + j)  # noqa: E731  (a)-(c) first row, as in the paper
        dp_labels, db_labels = _trial0(dp, "labels", name), _trial0(db, "labels", name)
        dp_colours = _label_colours(dp_labels)
        ax = axes[0][j]
        k, _ = _scatter_labels(ax, xy, db_labels, s=1.2, colours=_aligned_colours(db_labels, dp_labels, dp_colours))
        ax.set_title(f"({letter(0)}) DBSCAN ({_dname(ds)}): {_plural(k, 'cluster')}", fontsize=8.5)
        ax = axes[1][j]
        rel = _trial0(dp, "release", name)
        ax.scatter(xy[:, 0], xy[:, 1], s=0.6, c="0.75", linewidths=0, rasterized=True, zorder=1)
        n = _draw_spans(ax, rel)
        ax.set_title(f"({letter(1)}) DP-DBSCAN ({_dname(ds)}): {_plural(n, 'span')}", fontsize=8.5)
        ax = axes[2][j]
        centers = _trial0(km, "release", name)["centers"]
        lo, hi = xy.min(axis=0), xy.max(axis=0)
        pad = (hi - lo) * 0.03
        ext = [lo[0] - pad[0], hi[0] + pad[0], lo[1] - pad[1], hi[1] + pad[1]]
        ax.scatter(xy[:, 0], xy[:, 1], s=0.6, c="0.5", linewidths=0, rasterized=True, zorder=2)
        _voronoi(ax, centers, ext)
        ax.set_title(f"({letter(2)}) DP-k-means ({_dname(ds)}): k = {len(centers)}", fontsize=8.5)
        ax = axes[3][j]
        _scatter_labels(ax, xy, dp_labels, s=1.2, noise_colour="black", colours=dp_colours)
        ax.set_title(f"({letter(3)}) DP-DBSCAN labels: {_scores(dp)}", fontsize=8.5)
        ax = axes[4][j]
        _scatter_labels(ax, xy, _trial0(km, "labels", name), s=1.2)
        ax.set_title(f"({letter(4)}) DP-k-means labels: {_scores(km)}", fontsize=8.5)
        for r in range(len(rows)):
            _square(axes[r][j], xy)
            axes[r][j].tick_params(labelsize=7)
    eps = dp["params"].get("epsilon")
    fig.suptitle(f"{plot_results.paper_figure_name('Figure 7', data, sets)}: DBSCAN, DP-DBSCAN spans and DP-k-means "
                 f"(eps = {eps}) [{name}, trial 0; noise grey in row 1, black in row 4; "
                 "DBSCAN coloured like the DP-DBSCAN cluster it overlaps most]",
                 fontsize=10)
    plot_results.tight_grid(fig, rect=(0, 0, 1, 0.98))
    return save(fig, out_dir, "dpdbscan_fig7_cluto")


# --- Figures 8-10 -----------------------------------------------------------------------------------

def _metric_lines(ax, data, ds, series_list, x, where=None, log=False):
    xs_all = []
    for s in series_list:
        for metric, ls, mfc in (("ari", "-", None), ("ami", "--", "white")):
            xs, ys, es = _sweep(data, ds, s, metric, x, where)
            if len(xs):
                _errorbar(ax, metric, xs, ys, es, s, ls=ls, mfc=mfc, label=f"{STYLE.get(s, (s,))[0]} {metric.upper()}")
                xs_all += list(xs)
    if log:
        ax.set_xscale("log")
        ticks = sorted(set(xs_all))
        ax.set_xticks(ticks)
        ax.xaxis.set_major_formatter(ScalarFormatter())
        ax.xaxis.set_minor_locator(NullLocator())
        ax.tick_params(axis="x", labelsize=7)
    ax.set_ylim(-0.05, 1.05)
    ax.set_ylabel("ARI (solid) / AMI (dashed)")
    ax.grid(alpha=0.3)
    return xs_all


def _figure_legend(fig, ax, title, top=0.89):
    handles, labels = ax.get_legend_handles_labels()
    fig.suptitle(title, fontsize=9.5, y=0.995)
    fig.legend(handles, labels, loc="upper center", ncol=4, frameon=False, fontsize=8, bbox_to_anchor=(0.5, 0.93))
    plot_results.tight_grid(fig, rect=(0, 0, 1, top))


def _nearest(values, target, default):
    values = sorted(values)
    if not values:
        return default
    if target is None:
        return values[len(values) // 2]
    return min(values, key=lambda v: abs(v - target))


def dpdbscan_fig8_alpha_minpts(results_dir, out_dir):
    name, data = _load(results_dir, ["dpdbscan_fig8"])
    ds = datasets_in_order(data)[0]
    cells = [c for c in data["cells"] if c["dataset"] == ds]
    alphas = sorted({c["params"]["alpha"] for c in cells if "alpha" in c["params"]})
    minpts = sorted({c["params"]["min_pts"] for c in cells if "min_pts" in c["params"]})
    a0, m0 = TABLE1.get(ds, (None, None))
    a0, m0 = _nearest(alphas, a0, None), _nearest(minpts, m0, None)
    series = [s for s in ("dp_dbscan", "dbscan") if any(c["series"] == s for c in cells)]
    fig, (ax1, ax2) = plt.subplots(1, 2, figsize=(8.4, 3.7))
    _metric_lines(ax1, data, ds, series, "alpha", where={"min_pts": m0})
    ax1.axvline(a0, color="grey", ls=":", lw=1)
    ax1.set_xlabel(r"$\alpha$" + f" (MinPts = {m0})")
    ax1.set_title(rf"(a) {_dname(ds)}, varying $\alpha$", fontsize=9)
    _metric_lines(ax2, data, ds, series, "min_pts", where={"alpha": a0})
    ax2.axvline(m0, color="grey", ls=":", lw=1)
    ax2.set_xlabel(rf"MinPts ($\alpha$ = {a0:g})")
    ax2.set_title(f"(b) {_dname(ds)}, varying MinPts", fontsize=9)
    eps = next((c["params"].get("epsilon") for c in cells if c["series"] == "dp_dbscan"), None)
    _figure_legend(fig, ax1, plot_results.paper_figure_name("Figure 8", data, [ds])
                   + rf": accuracy against ($\alpha$, MinPts), DP-DBSCAN $\varepsilon$ = {eps} "
                   f"[{name}; mean of {data.get('trials', '?')} trials, {plot_results.CI_NOTE}; dotted: Table 1 value]")
    return save(fig, out_dir, "dpdbscan_fig8_alpha_minpts")


def _per_dataset_sweep(results_dir, out_dir, experiment, x, xlabel, series_pref, stem, title, mark=None, log=False):
    name, data = _load(results_dir, [experiment])
    sets = datasets_in_order(data)
    fig, axes = plt.subplots(1, len(sets), figsize=(4.2 * len(sets), 3.7), squeeze=False)
    for j, ds in enumerate(sets):
        ax = axes[0][j]
        series = [s for s in series_pref if any(c["series"] == s and c["dataset"] == ds for c in data["cells"])]
        _metric_lines(ax, data, ds, series, x, log=log)
        if mark is not None:
            ax.axvline(mark, color="grey", ls=":", lw=1)
        ax.set_xlabel(xlabel)
        ax.set_title(f"({chr(97 + j)}) {_dname(ds)}", fontsize=9)
    figure, _, title = title.partition(": ")  # "Figure N: what it shows"
    _figure_legend(fig, axes[0][0], f"{plot_results.paper_figure_name(figure, data, sets)}: {title} [{name}; mean of "
                   f"{data.get('trials', '?')} trials, {plot_results.CI_NOTE}]")
    return save(fig, out_dir, stem)


def dpdbscan_fig9_eta(results_dir, out_dir):
    return _per_dataset_sweep(results_dir, out_dir, "dpdbscan_fig9", "eta",
                              r"$\eta$ (cell width $w = \eta\alpha / (4\sqrt{d})$)", ["dp_dbscan"],
                              "dpdbscan_fig9_eta", r"Figure 9: DP-DBSCAN accuracy against $\eta$ ($\varepsilon$ = 1; "
                              r"dotted: $\eta$ = 4)", mark=4.0)


def dpdbscan_fig10_epsilon(results_dir, out_dir):
    return _per_dataset_sweep(results_dir, out_dir, "dpdbscan_fig10", "epsilon", r"privacy budget $\varepsilon$",
                              ["dp_dbscan", "dp_kmeans"], "dpdbscan_fig10_epsilon",
                              r"Figure 10: accuracy against $\varepsilon$", log=True)


# --- Cabs-tiny map ----------------------------------------------------------------------------------

def dpdbscan_cabs_tiny_map(results_dir, out_dir):
    name, data = None, None
    for exp in ("dpdbscan_geo", "dpdbscan_table3"):
        n_, d_ = _load(results_dir, [exp], required=False)
        if d_ is None:
            continue
        geo = [c for c in d_["cells"] if c["method"] == "dp_dbscan" and c["trials"] and "release" in c["trials"][0]
               and (exp == "dpdbscan_geo" or c["dataset"] == "cabs-tiny")]
        if geo:
            name, data = n_, d_
            break
    if data is None:
        raise FileNotFoundError("experiment dpdbscan_geo (or dpdbscan_table3 with cabs-tiny spans) not in results")
    ds = "cabs-tiny" if any(c["dataset"] == "cabs-tiny" for c in geo) else geo[0]["dataset"]
    geo = sorted([c for c in geo if c["dataset"] == ds], key=lambda c: c["series"])
    bg = None
    for exp in ("figures_cabs_tiny", "figures_dpdbscan"):
        bg_name, figdata = _load(results_dir, [exp], required=False)
        for cand in (f"{ds}-sample", ds) if figdata else ():
            if cand in figdata["datasets"] and "points" in figdata["datasets"][cand]:
                bg = _points(figdata, bg_name, cand)[0]
                break
        if bg is not None:
            break
    if bg is None and "points" in data["datasets"][ds]:
        bg = _points(data, name, ds)[0]
    # Coordinates in km from the south-west corner of the public domain (the grid's lo).
    lo0 = np.asarray(geo[0]["trials"][0]["release"]["grid"]["lo"], dtype=float)[:2]
    fig, axes = plt.subplots(1, len(geo), figsize=(4.6 * len(geo) + 0.4, 5.6), squeeze=False)
    for j, c in enumerate(geo):
        ax = axes[0][j]
        rel = dict(c["trials"][0]["release"])
        grid = dict(rel["grid"])
        lo, hi = np.asarray(grid["lo"], dtype=float)[:2] - lo0, np.asarray(grid["hi"], dtype=float)[:2] - lo0
        grid["lo"] = list(lo)
        rel["grid"] = grid
        if bg is not None:
            ax.scatter(bg[:, 0] - lo0[0], bg[:, 1] - lo0[1], s=0.3, c="0.45", alpha=0.45, linewidths=0, rasterized=True,
                       zorder=1)
        n = _draw_spans(ax, rel, alpha=0.95)
        ax.set_xlim(lo[0], hi[0])
        ax.set_ylim(lo[1], hi[1])
        ax.set_aspect("equal")
        hist = "O(n)" if c["trials"][0]["diagnostics"].get("histogram") == "linear" else "O(|X|)"
        ax.set_title(f"({chr(99 + j)}) {_dname(ds)} / {hist}: {_plural(n, 'span')}\n"
                     f"alpha = {1000 * c['params']['alpha']:g} m, MinPts = {c['params']['min_pts']}, "
                     f"eps = {c['params'].get('epsilon')}", fontsize=9)
        ax.set_xlabel("km east of the domain's west edge")
        ax.set_ylabel("km north of the domain's south edge")
    note = f"grey: {len(bg):,}-point sample of the data" if bg is not None else "spans only"
    fig.suptitle(f"Figure 6 (c, d): DP-DBSCAN spans on {_dname(ds)} [{name}, trial 0; {note}]", fontsize=10)
    fig.tight_layout()
    return save(fig, out_dir, "dpdbscan_cabs_tiny_map")


# --- Tables -----------------------------------------------------------------------------------------

FIGURES = [dpdbscan_fig5_moons, dpdbscan_fig7_cluto, dpdbscan_fig8_alpha_minpts, dpdbscan_fig9_eta,
           dpdbscan_fig10_epsilon, dpdbscan_cabs_tiny_map]


def main():
    return plot_results.run_figures(FIGURES, __doc__)


if __name__ == "__main__":
    sys.exit(main())
