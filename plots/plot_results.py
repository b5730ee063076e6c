#!/usr/bin/python3
"""Figures from dpclust results (reads only results/<experiment>/results.json; never runs anything).

For every experiment and metric it draws, per dataset, either
  - a line plot of the metric against the swept parameter (one line per method series, error bars =
    95% confidence interval over trials), when the cells of a series differ in a numeric parameter. When
    several parameters vary, the numeric one with the most values is the x axis and there is one panel
    per combination of the others (per dataset), at most MAX_PANELS panels; a note under the figure
    names the panels left out and the series without a numeric sweep (not drawn as lines). Or
  - a grouped bar chart (series x dataset) with the same error bars otherwise; a series whose cells
    differ only in non-numeric parameters gets one bar per cell (at most MAX_BARS bars, with a note).
Writes PNG to --out (and PDF with --pdf). Paper-specific figures live in their own scripts next to this one.

Usage: /usr/bin/python3 plots/plot_results.py --results results --out plots/out [--experiment NAME] [--pdf]
"""
import argparse
import gc
import json
import pathlib
import sys
import textwrap
from collections import defaultdict

import matplotlib
import numpy as np

import method_colours

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402
import matplotlib.ticker  # noqa: E402

DPI = 120  # fixed, so that a figure's pixels do not depend on the machine's matplotlib defaults
plt.rcParams.update({"font.size": 9, "axes.titlesize": 10, "figure.dpi": DPI, "savefig.dpi": DPI, "savefig.bbox": "tight"})

# matplotlib's LogLocator returns the ticks of a whole decade beyond the view on each side, with every minor
# tick in between, and the axis builds a Tick (two tick marks, a grid line, two labels) for each of them
# before it drops the ones outside the view (with a tolerance of 1e-10 of the axis length). Keeping only the
# ticks within the view, give or take a millionth (so a superset of those drawn), draws the same pixels
# (tests/python/test_figure_step_costs.py compares the PNG bytes) in three quarters of the time of a 12-panel
# figure with a logarithmic epsilon axis. Every figure script imports this module before pyplot.
_LOG_TICK_VALUES = matplotlib.ticker.LogLocator.tick_values


def _log_tick_values_in_view(self, vmin, vmax):
    ticks = np.asarray(_LOG_TICK_VALUES(self, vmin, vmax))
    low, high = min(vmin, vmax), max(vmin, vmax)
    return ticks[(ticks >= low * (1 - 1e-6)) & (ticks <= high * (1 + 1e-6))]


matplotlib.ticker.LogLocator.tick_values = _log_tick_values_in_view

# The formats save() writes: PNG by default; make_figures.py --pdf (or --pdf here) adds PDF.
FORMATS = ("png",)

# The inputs the figure being drawn has looked for (make_figures.py's manifest): every path load_first()
# probed, present or not, and every glob pattern (a path with '*'), so that a result appearing later, or a
# preferred experiment replacing a fallback, redraws the figure. None when nobody is tracking.
_TRACKED = None


def begin_tracking():
    global _TRACKED
    _TRACKED = set()


def end_tracking():
    """The paths tracked since begin_tracking(), sorted; tracking stops."""
    global _TRACKED
    paths, _TRACKED = sorted(_TRACKED or ()), None
    return paths


def track(path):
    """Records an input file (or glob pattern) of the figure being drawn."""
    if _TRACKED is not None:
        _TRACKED.add(str(pathlib.Path(path).absolute()))


def parse_results(text):
    """json.loads of a results.json, without the cyclic garbage collector's passes over it.

    A results file is millions of dicts and lists. Parsed with the collector on, it is scanned again and again
    while it is built, and afterwards by every full collection while a figure is drawn (the parsed files stay
    cached): 27 of the 90 CPU seconds of drawing every figure in one process. Parsed JSON has no reference
    cycles, so the collector has nothing to find in it: it is parsed with the collector paused, then frozen
    (gc.freeze: left out of every later collection; still freed by reference counting when the cache drops it). The collection before
    the freeze frees the cycles of the figures already closed, which a freeze would otherwise keep."""
    gc.collect()
    gc.disable()
    try:
        data = json.loads(text)
    finally:
        gc.enable()
    gc.freeze()
    return data


def load(results_dir, only=None):
    track(pathlib.Path(results_dir) / "*" / "results.json")
    for path in sorted(pathlib.Path(results_dir).glob("*/results.json")):
        track(path)
        data = parse_results(path.read_text())
        if only and data["experiment"] != only:
            continue
        yield data


_YAML_CACHE = {}  # (path, mtime_ns, size) -> parsed document


def load_yaml(path):
    """A YAML file (reference/published.yaml), parsed once per worker process and file version.

    libyaml's C parser when PyYAML has it (Debian's python3-yaml does): the pure-Python one took half a
    second per read of published.yaml, and several figures read it. The document is shared: do not modify.
    """
    path = pathlib.Path(path)
    track(path)
    st = path.stat()
    key = (str(path), st.st_mtime_ns, st.st_size)
    if key not in _YAML_CACHE:
        import yaml
        loader = getattr(yaml, "CSafeLoader", yaml.SafeLoader)
        _YAML_CACHE[key] = yaml.load(path.read_text(), Loader=loader)
    return _YAML_CACHE[key]


_CACHE = {}  # (path, mtime_ns, size) -> parsed results, oldest first
CACHE_BYTES = 200 << 20  # of results.json text kept parsed (several times that in memory)


def load_first(results_dir, names, required=True):
    """(name, data) of the first experiment of `names` with a results.json under results_dir.

    Raises FileNotFoundError (make_figures.py reports the figure as skipped) when none is present and
    `required`; otherwise returns (None, None). Files read are cached by path, mtime and size, up to
    CACHE_BYTES of JSON text (the oldest go first), so that the figures of one worker process that read
    the same results parse them once. The data is shared: figures must not modify it.
    """
    for name in names:
        path = pathlib.Path(results_dir) / name / "results.json"
        track(path)
        if path.is_file():
            st = path.stat()
            key = (str(path), st.st_mtime_ns, st.st_size)
            if key not in _CACHE:
                while _CACHE and sum(k[2] for k in _CACHE) + st.st_size > CACHE_BYTES:
                    del _CACHE[next(iter(_CACHE))]
                _CACHE[key] = parse_results(path.read_text())
            return name, _CACHE[key]
    if required:
        raise FileNotFoundError(f"experiment {' / '.join(names)} not in results")
    return None, None


def run_figures(figures, description):
    """Command-line entry of a plots/paper_*.py module: runs its FIGURES into --out."""
    ap = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--results", default="results")
    ap.add_argument("--out", default="plots/out")
    ap.add_argument("--pdf", action="store_true", help="write PDF next to each PNG")
    args = ap.parse_args()
    set_formats(args.pdf)
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    n = 0
    for f in figures:
        try:
            n += len(f(pathlib.Path(args.results), out))
        except FileNotFoundError as e:
            print(f"skipped {f.__name__}: {e}", file=sys.stderr)
    print(f"{n} files in {out}/")
    return 0


def swept_param(cells):
    """The one numeric parameter that varies among these cells, or None."""
    varying = []
    for name in cells[0]["params"]:
        values = {json.dumps(c["params"].get(name)) for c in cells}
        if len(values) > 1:
            varying.append(name)
    if len(varying) == 1 and all(isinstance(c["params"][varying[0]], (int, float)) for c in cells):
        return varying[0]
    return None


MAX_PANELS = 12
MAX_BARS = 24


def varying_params(cells):
    """The parameters whose values differ among these cells, in the order of the first cell's params."""
    names = []
    for c in cells:
        for name in c["params"]:
            if name not in names:
                names.append(name)
    return [n for n in names if len({json.dumps(c["params"].get(n)) for c in cells}) > 1]


def _is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def facet_plan(cells):
    """(x, others) for a series' cells: x = the numeric varying parameter with the most distinct values
    (None when no numeric parameter varies), others = the remaining varying parameters (panel keys)."""
    varying = varying_params(cells)
    numeric = [n for n in varying if all(_is_number(c["params"].get(n)) for c in cells)]
    if not numeric:
        return None, varying
    x = max(numeric, key=lambda n: (len({c["params"][n] for c in cells}), -varying.index(n)))
    return x, [n for n in varying if n != x]


def _facet_label(others, cell):
    return ", ".join(f"{n}={_short(cell['params'].get(n))}" for n in others)


def _short(v):
    if isinstance(v, float):
        return f"{v:g}"
    return str(v)


def error(agg):
    if not agg or agg.get("ci95") is None or "mean" not in agg:
        return 0.0
    return agg["ci95"][1] - agg["mean"]


# The values a metric can take (None: unbounded on that side). ARI >= -0.5 (scikit-learn's adjusted_rand_score
# documentation), AMI <= 1; NMI, the F-measures, OCM, 2CE and shares lie in [0, 1]; counts are >= 0. A
# confidence interval of a mean is drawn inside it (a t-interval over a few trials gives ARI bars up to 2.1).
METRIC_RANGE = {"ari": (-0.5, 1.0), "ami": (None, 1.0), "nmi": (0.0, 1.0), "f_measure": (0.0, 1.0),
                "overall_f_measure": (0.0, 1.0), "ocm": (0.0, 1.0), "two_ce": (0.0, 1.0), "noise_fraction": (0.0, 1.0),
                "n_clusters": (0.0, None), "k_true": (0.0, None), "kprime": (0.0, None), "wc_clusters": (0.0, None),
                "significant_grids": (0.0, None), "kprime_rel_error": (0.0, None), "of": (0.0, 1.0), "stress": (0.0, None),
                "ari_vs_original": (-0.5, 1.0), "ami_vs_original": (None, 1.0), "centroid_rel_error": (0.0, None),
                "dsg_c": (0.0, None), "inertia": (0.0, None), "inertia_per_point": (0.0, None),
                "normalized_kmeans_cost": (0.0, None), "centre_distance": (0.0, None), "silhouette": (-1.0, 1.0),
                "accuracy": (0.0, 1.0), "purity": (0.0, 1.0), "false_match_fraction": (0.0, 1.0),
                "true_non_match_fraction": (0.0, 1.0), "nicv": (0.0, None), "bcss": (0.0, None), "davies_bouldin": (0.0, None),
                "calinski_harabasz": (0.0, None), "dunn": (0.0, None)}
# The report's tables cut their intervals to the same ranges (engine/report/comparison_stats.cpp metric_traits;
# tests/report/comparison_test.cpp checks the two tables agree).


# Metrics only the figures draw against a budget (nD-Laplace's privacy panels), with the values they can take:
# an advantage TPR - FPR lies in [-1, 1], distances are >= 0. Kept apart from METRIC_RANGE, which
# tests/report/comparison_test.cpp holds equal to the report's metric_traits table (that table has no entry for them).
FIGURE_RANGE = {"mia_advantage": (-1.0, 1.0), "mia_advantage_best": (-1.0, 1.0), "avg_distance": (0.0, None),
                "reconstruction_error": (0.0, None), "p_area_radius": (0.0, None)}


def metric_range(metric):
    """(lo, hi) a metric's values lie in (None: unbounded on that side), from METRIC_RANGE or FIGURE_RANGE."""
    return METRIC_RANGE.get(metric) or FIGURE_RANGE.get(metric, (None, None))


def clip_interval(metric, lo, hi):
    """An interval (lo, hi) of a metric's mean cut to the metric's range (a t-interval over a few trials
    leaves it, e.g. OCM 0.6 +- 1.2 over 2 trials)."""
    r_lo, r_hi = metric_range(metric)
    return (lo if r_lo is None else max(lo, r_lo)), (hi if r_hi is None else min(hi, r_hi))


def clipped_yerr(metric, ys, es):
    """yerr for errorbar / bar: [[below...], [above...]], each half-width es[i] cut at metric_range(metric)
    (a metric with no declared range is drawn symmetric, as before)."""
    lo, hi = metric_range(metric)
    ys, es = [float(y) for y in ys], [float(e) for e in es]
    below = [e if lo is None or y != y else max(0.0, min(e, y - lo)) for y, e in zip(ys, es)]
    above = [e if hi is None or y != y else max(0.0, min(e, hi - y)) for y, e in zip(ys, es)]
    return [below, above]


def errorbar(ax, metric, xs, ys, es, **kw):
    """ax.errorbar of a metric's means with their 95% half-widths es, the bars cut to the metric's range: every
    figure's error bars go through here (or clipped_yerr), so no bar reaches past a value the metric can take."""
    return ax.errorbar(xs, ys, yerr=clipped_yerr(metric, ys, es), **kw)


# What the figures' captions say of their bars.
CI_NOTE = "95% CI, cut to the metric's range"


# --- stand-in data ---------------------------------------------------------------------------------

def datasets_in_order(data):
    """The datasets of a results file in the order of the config (the order of its cells)."""
    return list(dict.fromkeys(c["dataset"] for c in data["cells"]))


def generated_datasets(data, datasets=None):
    """The datasets (of `datasets`, default all) that the run generated itself (results.json
    datasets[].provenance.generator: configs/builtin/ and any config with a `generator:` entry), in order."""
    infos = data.get("datasets") or {}
    names = datasets if datasets is not None else list(infos)
    return [d for d in names if ((infos.get(d) or {}).get("provenance") or {}).get("generator")]


def paper_figure_name(figure, data, datasets=None):
    """`figure` ("Figure 3") for a paper figure drawn from data files (the paper's datasets), else a stand-in
    title: a figure drawn from generated data (a built-in experiment, or a user's config with generators)
    shows the paper's layout, not its numbers. Decided from the results' provenance, not from the
    experiment's name, so any config is titled by what it read."""
    if not generated_datasets(data, datasets):
        return figure
    return f"Stand-in for {figure} (generated data, not the paper's datasets)"


def tight_grid(fig, rect=(0, 0, 1, 1), pad=1.08):
    """fig.tight_layout(rect=rect, pad=pad), measured once, for figures whose axes are one plt.subplots grid.

    matplotlib's tight_layout with a rect measures every axes' ticks, labels and title twice: its second pass
    (matplotlib/_tight_layout.py, get_tight_layout_figure) re-measures the same, unmoved axes to place them in
    the rect. The measuring is two fifths of the time of a generic 12-panel figure and a third of a comparison
    figure's (620 PNGs in the full run). This is the same computation with one measurement:
    the margins (with the suptitle's height) from the tight boxes, the rect's edges moved in by them, and the
    gaps between panels from the same boxes. Any other figure (axes not from one grid) gets tight_layout."""
    axes = [ax for ax in fig.axes if ax.get_visible()]
    specs = [ax.get_subplotspec() if hasattr(ax, "get_subplotspec") else None for ax in axes]
    if not axes or None in specs or len({id(s.get_gridspec()) for s in specs}) != 1:
        fig.tight_layout(rect=rect, pad=pad)
        return
    rows, cols = specs[0].get_gridspec().get_geometry()
    renderer = fig.canvas.get_renderer()
    width, height = fig.get_size_inches()
    pad_in = pad * plt.rcParams["font.size"] / 72
    to_fig = fig.transFigure.inverted()
    vspaces = [[0.0] * cols for _ in range(rows + 1)]  # above row i / below row i - 1, per column (fractions)
    hspaces = [[0.0] * (cols + 1) for _ in range(rows)]  # left of column j / right of column j - 1, per row
    for ax, spec in zip(axes, specs):
        pos = ax.get_position(original=True)
        box = to_fig.transform_bbox(ax.get_tightbbox(renderer, for_layout_only=True))
        rs, cs = spec.rowspan, spec.colspan
        for i in range(rs.start, rs.stop):
            hspaces[i][cs.start] += pos.xmin - box.xmin
            hspaces[i][cs.stop] += box.xmax - pos.xmax
        for j in range(cs.start, cs.stop):
            vspaces[rs.start][j] += box.ymax - pos.ymax
            vspaces[rs.stop][j] += pos.ymin - box.ymin
    margin_left = max(max(r[0] for r in hspaces), 0) + pad_in / width
    margin_right = max(max(r[-1] for r in hspaces), 0) + pad_in / width
    margin_top = max(max(vspaces[0]), 0) + pad_in / height
    if fig._suptitle is not None and fig._suptitle.get_in_layout():
        margin_top += to_fig.transform_bbox(fig._suptitle.get_window_extent(renderer)).height + pad_in / height
    margin_bottom = max(max(vspaces[-1]), 0) + pad_in / height
    left, right = rect[0] + margin_left, rect[2] - margin_right
    bottom, top = rect[1] + margin_bottom, rect[3] - margin_top
    kwargs = {"left": left, "right": right, "bottom": bottom, "top": top}
    if cols > 1:
        wgap = max(v for r in hspaces for v in r[1:-1]) + pad_in / width
        panel = (right - left - wgap * (cols - 1)) / cols
        kwargs["wspace"] = wgap / panel if panel > 0 else None
    if rows > 1:
        hgap = max(v for r in vspaces[1:-1] for v in r) + pad_in / height
        panel = (top - bottom - hgap * (rows - 1)) / rows
        kwargs["hspace"] = hgap / panel if panel > 0 else None
    if right <= left or top <= bottom or None in kwargs.values():
        fig.tight_layout(rect=rect, pad=pad)  # labels larger than the figure: tight_layout warns and does its best
        return
    fig.subplots_adjust(**kwargs)


def set_formats(pdf):
    global FORMATS
    FORMATS = ("png", "pdf") if pdf else ("png",)


def save(fig, out, stem, crop=True):
    """Writes the figure as out/stem.png (and .pdf when FORMATS has it), closes it, returns the files.

    crop=False keeps the figure's own size instead of cropping it to what was drawn (savefig.bbox
    "tight"): for a figure already laid out by tight_layout, whose crop only trims a few pixels of margin
    and costs a second layout of every tick label (a third of the drawing time of a 12-panel figure)."""
    files = [pathlib.Path(out) / f"{stem}.{ext}" for ext in FORMATS]
    for f in files:
        # No creation date in the PDF: the same figure gives the same bytes.
        fig.savefig(f, metadata={"CreationDate": None} if f.suffix == ".pdf" else None,
                    bbox_inches="tight" if crop else fig.bbox_inches)  # (None would mean the rc default)
    plt.close(fig)
    return files


def plot_experiment(data, out):
    written = []
    by_dataset = defaultdict(lambda: defaultdict(list))
    for cell in data["cells"]:
        by_dataset[cell["dataset"]][cell["series"]].append(cell)
    metrics = sorted({m for c in data["cells"] for m in c["aggregates"]})
    exp = data["experiment"]
    datasets = list(by_dataset)
    plans = {d: {s: facet_plan(cs) for s, cs in by_dataset[d].items()} for d in datasets}
    for metric in metrics:
        lines = any(x for d in plans.values() for x, _ in d.values())
        fig = _line_panels(by_dataset, plans, metric, exp) if lines else _bars(by_dataset, plans, metric, exp)
        written += save(fig, out, f"{exp}_{metric}", crop=not lines)  # the bars' note lies below the axes
    # The report's comparison figures (plot_comparison.py) are make_figures.py's jobs of their own, on request.
    return written


def _local(cell, x):
    """A local-DP cell on an epsilon axis (privacy_spent.measure "local": nD-Laplace's epsilon is a
    geo-indistinguishability level at distance `radius`, per record): drawn in panels of its own, never
    on a central epsilon's axis."""
    return x == "epsilon" and (cell.get("privacy_spent") or {}).get("measure") == "local"


def _line_panels(by_dataset, plans, metric, exp):
    """One panel per (dataset, combination of the non-x varying parameters, central or local DP), at
    most MAX_PANELS. A series without a numeric sweep (a non-private method in an epsilon sweep) is drawn
    in its dataset's panels: as a dashed horizontal reference line when its cells lack the panel's x
    parameter, else as points at their x."""
    panels = {}  # (dataset, facet label, "local" or "") -> [(series, x, cells)]
    flat = {}  # dataset -> [(series, others, cells)]: series without a numeric sweep
    for dataset, series_cells in by_dataset.items():
        for series, cells in series_cells.items():
            x, others = plans[dataset][series]
            if not x:
                flat.setdefault(dataset, []).append((series, others, cells))
                continue
            groups = defaultdict(list)
            for c in cells:
                groups[(_facet_label(others, c), "local" if _local(c, x) else "")].append(c)
            for (label, kind), cs in groups.items():
                panels.setdefault((dataset, label, kind), []).append((series, x, cs))
    keys = list(panels)
    shown, left_out = keys[:MAX_PANELS], keys[MAX_PANELS:]
    not_drawn = [f"{d}/{s}" for d, fl in flat.items() if not any(k[0] == d for k in shown) for s, _, _ in fl]
    cols = min(3, len(shown))
    rows = (len(shown) + cols - 1) // cols
    fig, axes = plt.subplots(rows, cols, figsize=(4 * cols, 3 * rows + 0.4), squeeze=False)
    # One colour per method in every figure (method_colours.py; a reference line keeps its colour in the local panel).
    names = list(dict.fromkeys([s for k in shown for s, _, _ in panels[k]] + [s for fl in flat.values() for s, _, _ in fl]))
    colour = method_colours.colour_map(names)
    for ax, key in zip(axes.flat, shown):
        dataset, label, kind = key
        x0 = panels[key][0][1]
        for series, x, cells in panels[key]:
            cells = sorted(cells, key=lambda c: c["params"][x])
            xs = [c["params"][x] for c in cells]
            ys = [c["aggregates"].get(metric, {}).get("mean", float("nan")) for c in cells]
            es = [error(c["aggregates"].get(metric)) for c in cells]
            ax.errorbar(xs, ys, yerr=clipped_yerr(metric, ys, es), marker="o", ms=3, capsize=2, label=series,
                        color=colour[series])
        for series, others, cells in flat.get(dataset, []):
            for c in cells:
                agg = c["aggregates"].get(metric)
                if agg is None:
                    continue
                name = series + (f" ({_facet_label(others, c)})" if others else "")
                if _is_number(c["params"].get(x0)):
                    if ("local" if _local(c, x0) else "") != kind:
                        continue
                    y = agg.get("mean", float("nan"))
                    ax.errorbar([c["params"][x0]], [y], yerr=clipped_yerr(metric, [y], [error(agg)]), marker="s", ms=4,
                                capsize=2, linestyle="none", label=name, color=colour[series])
                else:  # no x at all: a non-private reference, the same at every x
                    ax.axhline(agg.get("mean", float("nan")), linestyle="--", linewidth=1.1, color=colour[series],
                               label=f"{name} (no {x0})")
        # An epsilon axis is logarithmic (budgets span orders of magnitude), as in the comparison figures.
        xs_panel = [c["params"][x] for _, x, cs in panels[key] for c in cs if _is_number(c["params"].get(x))]
        if x0 in ("epsilon", "eps") and xs_panel and min(xs_panel) > 0:
            ax.set_xscale("log")
        ax.set_xlabel("local epsilon (level at distance radius)" if kind else x0)
        ax.set_title(dataset + (f"\n{label}" if label else "") + (" (local DP)" if kind else ""),
                     fontsize=8 if label or kind else None)
        ax.set_ylabel(metric)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=7)
    for ax in list(axes.flat)[len(shown):]:
        ax.axis("off")
    fig.suptitle(f"{exp}: {metric}")
    notes = []
    if left_out:
        names = "; ".join(f"{d}{' ' + lab if lab else ''}{' (local)' if kind else ''}" for d, lab, kind in left_out[:4])
        more = f" and {len(left_out) - 4} more" if len(left_out) > 4 else ""
        notes.append(f"{len(shown)} of {len(keys)} panels shown (cap {MAX_PANELS}); not drawn: {names}{more}")
    if not_drawn:
        notes.append("no numeric parameter varies and no panel of their dataset (not drawn): " + ", ".join(not_drawn[:6])
                     + (" ..." if len(not_drawn) > 6 else ""))
    _footnote(fig, notes)
    return fig


def _footnote(fig, notes):
    """Lays the panels out above the notes, each wrapped to the figure's width (the figure is saved
    uncropped, so a note longer than the width was cut at the edge)."""
    width_in, height_in = fig.get_size_inches()
    chars = max(40, int(width_in * 72 / (7 * 0.55)))  # 7-pt text, about 0.55 em a character
    text = "\n".join(textwrap.fill(n, chars) for n in notes)
    lines = text.count("\n") + 1 if text else 0
    bottom = (lines * 7 * 1.35 / 72 + 0.06) / height_in if lines else 0
    tight_grid(fig, rect=(0, bottom, 1, 0.96))
    if text:
        fig.text(0.01, 0.01, text, fontsize=7, ha="left", va="bottom")


def _bars(by_dataset, plans, metric, exp):
    """Grouped bars: one group per dataset, one bar per series (per cell when a series has several)."""
    datasets = list(by_dataset)
    bars = []  # bar label, in first-seen order
    values = {}  # (label, dataset) -> agg
    for dataset in datasets:
        for series, cells in by_dataset[dataset].items():
            _, others = plans[dataset][series]
            for c in cells:
                label = series + (f" ({_facet_label(others, c)})" if others else "")
                if label not in bars:
                    bars.append(label)
                values[(label, dataset)] = c["aggregates"].get(metric)
    bars.sort()
    shown, left_out = bars[:MAX_BARS], bars[MAX_BARS:]
    fig, ax = plt.subplots(figsize=(max(4, 1.2 * len(datasets) * max(1, len(shown)) / 2), 3))
    width = 0.8 / max(1, len(shown))
    for i, label in enumerate(shown):
        xs, ys, es = [], [], []
        for j, d in enumerate(datasets):
            if (label, d) not in values:
                continue
            agg = values[(label, d)]
            xs.append(j + i * width)
            ys.append(agg.get("mean", float("nan")) if agg else float("nan"))
            es.append(error(agg))
        ax.bar(xs, ys, width, yerr=clipped_yerr(metric, ys, es), capsize=2, label=label)
    ax.set_xticks([j + 0.4 - width / 2 for j in range(len(datasets))])
    ax.set_xticklabels(datasets, rotation=20)
    ax.set_ylabel(metric)
    ax.set_title(f"{exp}: {metric}")
    ax.grid(axis="y", alpha=0.3)
    ax.legend(fontsize=7)
    if left_out:
        fig.text(0.01, -0.02, f"{len(shown)} of {len(bars)} bars shown (cap {MAX_BARS}); not drawn: "
                 + "; ".join(left_out[:3]) + (f" and {len(left_out) - 3} more" if len(left_out) > 3 else ""),
                 fontsize=7, ha="left", va="top")
    return fig


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--results", default="results")
    ap.add_argument("--out", default="plots/out")
    ap.add_argument("--experiment")
    ap.add_argument("--pdf", action="store_true", help="write PDF next to each PNG")
    args = ap.parse_args()
    set_formats(args.pdf)
    out = pathlib.Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    written = []
    for data in load(args.results, args.experiment):
        written += plot_experiment(data, out)
    if not written:
        print(f"no results.json under {args.results}/", file=sys.stderr)
        return 1
    print(f"{len(written)} figure files in {out}/")
    return 0


if __name__ == "__main__":
    sys.exit(main())
