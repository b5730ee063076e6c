#!/usr/bin/python3
"""The method comparison figures of `dpclust report` (issue 33): one figure per (experiment, dataset, metric).

Each private method (a row of the report's comparison table: its series and the non-epsilon parameters that
tell its rows apart) is a line of its mean against epsilon with a band of the 95% interval of the mean (the
cell's `ci95`, the Student-t interval over its trials, cut to the metric's range: plot_results.metric_range); each
non-private method (no epsilon: dbscan, kmeans, wavecluster, ...) is a horizontal reference line with its
band. Local-DP methods (privacy_spent.measure "local": nD-Laplace, whose epsilon is a geo-indistinguishability
level at distance `radius`) are drawn in a panel of their own, never on the central epsilon's axis. The
legend and footnote are laid out below the panels, the figure grown by their measured height, so neither is
cut at the edge.

Written to OUT/comparison/<experiment>/<dataset>__<metric>.png, where the report looks for them
(engine/report/comparison_markdown.cpp; the names' characters other than letters, digits, '.', '-', '_'
become '_' on both sides). Drawn by make_figures.py --comparison (a job per experiment), on request: each shows
what the experiment's generic figure of the metric shows, one dataset at a time.
"""
import json
import pathlib
import re
import textwrap

import math

import method_colours
import plot_results
from plot_results import plt, save

FOOTNOTE = ("Lines: private methods, median over trials against epsilon (log axis); bands: the median's "
            "distribution-free 95% interval (order statistics), as the report's table ranks them. Dashed horizontal "
            "lines: non-private methods (no epsilon), with their band.{local} One colour per method in every figure. "
            "Significance of the differences: the report's comparison table (rank-sum test, Holm-corrected).")
BASELINE_NOTE = (" Dotted: the trivial baseline (k centres uniform in the public domain, 0-DP; docs/benchmark.md), "
                 "which a private method must beat to be worth its budget.")
MAX_LEGEND = 40  # legend entries of a comparison figure; the rows beyond are drawn, named in the report's table
LEGEND_NOTE = " Legend: the first {shown} of {rows} rows (the report's comparison table names them all)."
NOT_PRIVATE_NOTE = (" ‡: not a private release (a private method in a non-private setting, e.g. n treated as public, a "
                    "range from the true data, the textbook sampler; the report's table says why).")
SKIPPED_NOTE = " Not drawn (skipped; the report's table says why): {names}."
LOCAL_NOTE = (" Local-DP methods (epsilon = geo-indistinguishability level at distance radius, each record on its own) "
              "have their own panel: their epsilon is not a central epsilon.")


def name_part(name):
    """File-name-safe form, as engine/report/comparison.cpp figure_name_part writes it."""
    out = re.sub(r"[^A-Za-z0-9._-]", "_", str(name))
    return out or "_"


def figure_path(experiment, dataset, metric):
    return f"comparison/{name_part(experiment)}/{name_part(dataset)}__{name_part(metric)}"


def _is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool)


def classify(cell):
    """(series, params without epsilon, epsilon or None, reference, local), as the report's table does."""
    params = dict(cell.get("params") or {})
    eps = params.pop("epsilon", None)
    eps = eps if _is_number(eps) else None
    private = cell.get("private", eps is not None)
    if not private:
        eps = None
    local = bool(private and (cell.get("privacy_spent") or {}).get("measure") == "local")
    return cell.get("series") or cell.get("method"), params, eps, not private, local


def _labels(rows):
    """Row label: the series, with the parameters that differ between rows of the same series."""
    labels = {}
    for key, (series, params) in rows.items():
        differ = set()
        for other, (s2, p2) in rows.items():
            if other == key or s2 != series:
                continue
            differ |= {k for k in set(params) | set(p2) if params.get(k) != p2.get(k)}
        shown = ", ".join(f"{k}={params.get(k)}" for k in sorted(differ))
        labels[key] = series + (f" ({shown})" if shown else "")
    return labels


def median_interval(values):
    """The median and its distribution-free 95% interval, the report's rule (engine/report/comparison_stats.hpp):
    with the values sorted and B ~ Binomial(n, 1/2), [x_(k), x_(n+1-k)] for the largest k with 2 P(B <= k-1) <= 0.05;
    [min, max] when no k reaches it (n <= 5)."""
    v = sorted(values)
    n = len(v)
    if n == 0:
        return float("nan"), float("nan"), float("nan")
    median = v[n // 2] if n % 2 else (v[n // 2 - 1] + v[n // 2]) / 2
    k, cdf = 0, 0.0
    for j in range((n + 1) // 2):
        cdf += math.comb(n, j) / 2.0 ** n
        if 2 * cdf > 0.05:
            break
        k = j + 1
    return (median, v[0], v[-1]) if k == 0 else (median, v[k - 1], v[n - k])


def _trial_values(cell, metric):
    out = []
    for t in cell.get("trials") or []:
        x = (t.get("metrics") or {}).get(metric)
        if isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x):
            out.append(float(x))
    return out


def _band(metric, cell):
    """The median of a cell's trials and its interval, cut to the metric's range; the aggregates' mean when the trials
    are not in the file."""
    values = _trial_values(cell, metric)
    if not values:
        agg = (cell.get("aggregates") or {}).get(metric) or {}
        mean = agg.get("mean", float("nan"))
        return mean, mean, mean
    m, lo, hi = median_interval(values)
    lo, hi = plot_results.clip_interval(metric, lo, hi)
    return m, lo, hi


def plot_comparison(data, out):
    """Every comparison figure of one experiment; returns the files written."""
    exp = data["experiment"]
    written = []
    by_dataset = {}
    for cell in data.get("cells", []):
        by_dataset.setdefault(cell.get("dataset"), []).append(cell)
    skipped = {}  # dataset -> the skipped rows' names, each once
    for s in data.get("skipped_cells", []) or []:
        name = s.get("series") or s.get("method") or "?"
        eps = (s.get("params") or {}).get("epsilon")  # the row's other parameters are in the report's table
        label = name + (f" at epsilon {eps:g}" if _is_number(eps) else "")
        names = skipped.setdefault(s.get("dataset"), [])
        if label not in names:
            names.append(label)
    for dataset, cells in by_dataset.items():
        metrics = sorted({m for c in cells for m in (c.get("aggregates") or {})})
        for metric in metrics:
            fig = _figure(exp, dataset, metric, cells, skipped.get(dataset, []))
            if fig is None:
                continue
            stem = figure_path(exp, dataset, metric)
            (pathlib.Path(out) / stem).parent.mkdir(parents=True, exist_ok=True)
            written += save(fig, out, stem, crop=False)  # laid out to its full size by _legend_below
    return written


def _figure(exp, dataset, metric, cells, skipped=()):
    rows = {}  # key -> (series, params)
    not_private = set()  # keys of private rows with a non-private note (the report's ‡)
    points = {}  # key -> [(eps, agg)]
    refs = {}  # key -> agg
    local_keys = set()
    baseline_keys = set()  # the trivial baseline (role trivial_baseline): a reference line, but 0-DP, not non-private
    for c in cells:
        agg = (c.get("aggregates") or {}).get(metric)
        if agg is None:
            continue
        series, params, eps, reference, local = classify(c)
        key = (series, json.dumps(params, sort_keys=True))
        rows[key] = (series, params)
        if not reference and c.get("non_private"):
            not_private.add(key)
        if reference or eps is None:
            refs[key] = c
            if c.get("role") == "trivial_baseline" or (not c.get("role") and c.get("method") == "uniform_centres"):
                baseline_keys.add(key)
        else:
            points.setdefault(key, []).append((eps, c))
            if local:
                local_keys.add(key)
    if not points:
        return None  # no epsilon axis: the report's table alone
    labels = {k: v + (" ‡" if k in not_private else "") for k, v in _labels(rows).items()}
    panels = [("central", [k for k in points if k not in local_keys]), ("local", [k for k in points if k in local_keys])]
    panels = [(kind, keys) for kind, keys in panels if keys]
    fig, axes = plt.subplots(1, len(panels), figsize=(5.2 * len(panels), 3.6), squeeze=False)
    handles = {}
    ref_keys = [k for k in rows if k in refs]
    # One colour per method in every figure (method_colours.py); rows of one series differ by their line style.
    colour_of = {k: method_colours.method_colour(rows[k][0]) for k in list(points) + ref_keys}
    styles = ["-", "--", "-.", ":"]
    style_of = {}
    for k in points:
        same = [o for o in points if rows[o][0] == rows[k][0]]
        style_of[k] = styles[same.index(k) % len(styles)]
    for ax, (kind, keys) in zip(axes[0], panels):
        xs_all = sorted({e for k in keys for e, _ in points[k]})
        for key in keys:
            pts = sorted(points[key], key=lambda p: p[0])
            xs = [e for e, _ in pts]
            ms, los, his = zip(*(_band(metric, a) for _, a in pts))
            colour = colour_of[key]
            (line,) = ax.plot(xs, ms, marker="o", ms=4, color=colour, linestyle=style_of[key], label=labels[key])
            ax.fill_between(xs, los, his, color=colour, alpha=0.18, linewidth=0)
            # Bars too: a band has no width at a single epsilon.
            # Lengths never negative: a mean outside the metric's range has its interval cut at the edge.
            ax.errorbar(xs, ms, yerr=[[max(0.0, m - lo) for m, lo in zip(ms, los)], [max(0.0, hi - m) for m, hi in zip(ms, his)]],
                        fmt="none",
                        ecolor=colour, elinewidth=0.8, capsize=2)
            handles[labels[key]] = line
        for key in ref_keys:
            m, lo, hi = _band(metric, refs[key])
            colour = colour_of[key]
            what = "trivial baseline, 0-DP" if key in baseline_keys else "non-private"
            line = ax.axhline(m, color=colour, linestyle=":" if key in baseline_keys else "--", linewidth=1.2,
                              label=f"{labels[key]} ({what})")
            if hi > lo:
                ax.axhspan(lo, hi, color=colour, alpha=0.10, linewidth=0)
            handles[f"{labels[key]} ({what})"] = line
        if xs_all and xs_all[0] > 0:  # epsilon on a log axis: its values span orders of magnitude
            ax.set_xscale("log")
        ax.set_xticks(xs_all)
        ax.set_xticklabels([f"{x:g}" for x in xs_all])
        ax.minorticks_off()
        if kind == "local":
            radii = sorted({rows[k][1].get("radius", 1.0) for k in keys})
            ax.set_xlabel("local epsilon (geo-indistinguishability level at radius r = "
                          + ", ".join(f"{r:g}" for r in radii) + ")")
            ax.set_title("local DP", fontsize=9)
        else:
            ax.set_xlabel("epsilon (central DP)")
            if len(panels) > 1:
                ax.set_title("central DP", fontsize=9)
        ax.set_ylabel(metric)
        lo_r, hi_r = plot_results.metric_range(metric)
        y0, y1 = ax.get_ylim()
        pad = 0.03 * (y1 - y0 or 1)
        ax.set_ylim(y0 if lo_r is None else max(y0, lo_r - pad), y1 if hi_r is None else min(y1, hi_r + pad))
        ax.grid(alpha=0.3)
    fig.suptitle(f"{exp}: {dataset}, {metric}")
    footnote = FOOTNOTE.format(local=LOCAL_NOTE if local_keys else "")
    if baseline_keys:
        footnote += BASELINE_NOTE
    if not_private:
        footnote += NOT_PRIVATE_NOTE
    if skipped:
        shown = list(skipped[:12]) + ([f"and {len(skipped) - 12} more"] if len(skipped) > 12 else [])
        footnote += SKIPPED_NOTE.format(names=", ".join(shown))
    _legend_below(fig, handles, footnote)
    return fig


def _legend_below(fig, handles, footnote):
    """Lays the panels out above the legend and the footnote, growing the figure downwards by their measured
    height, so that the figure is saved as it is (save(crop=False)): cropping to the drawn area
    (bbox_inches "tight") drew the whole figure twice, a quarter of a comparison figure's time (the 408
    comparison figures are two thirds of make_figures.py's files in the full run)."""
    width_in, body_in = fig.get_size_inches()
    dpi = fig.dpi
    renderer = fig.canvas.get_renderer()
    if len(handles) > MAX_LEGEND:
        # dpdbscan_fig8's 154 rows at one epsilon made a 31-inch legend, 40 % of make_figures.py's slowest job,
        # whose colours repeat every ten entries anyway: the report's table is where every row is named.
        footnote += LEGEND_NOTE.format(shown=MAX_LEGEND, rows=len(handles))
        handles = dict(list(handles.items())[:MAX_LEGEND])
    ncol = max(1, min(len(handles), int(width_in // 2.6)))
    while True:  # as many columns as fit the width
        legend = fig.legend(list(handles.values()), list(handles), loc="upper center", ncol=ncol, fontsize=8,
                            frameon=False)
        box = legend.get_window_extent(renderer)
        if ncol == 1 or box.width <= width_in * dpi * 0.98:
            break
        legend.remove()
        ncol -= 1
    chars = max(40, int(width_in * 72 / (7 * 0.52)))  # 7-pt text, about 0.52 em a character
    note = fig.text(0.01, 0.0, textwrap.fill(footnote, chars), fontsize=7, ha="left", va="top")
    legend_in, note_in = box.height / dpi, note.get_window_extent(renderer).height / dpi
    gap = 0.08
    below = legend_in + note_in + 3 * gap
    total = body_in + below
    fig.set_size_inches(width_in, total)
    bottom = below / total
    plot_results.tight_grid(fig, rect=(0, bottom, 1, 1 - 0.05 * body_in / total))
    legend.set_bbox_to_anchor((0.5, bottom), transform=fig.transFigure)
    if fig._suptitle is not None:  # as far below the top as in the figure without legend and footnote
        fig._suptitle.set_y(1 - (1 - fig._suptitle.get_position()[1]) * body_in / total)
    note.set_position((0.01, (note_in + gap) / total))


def _main():
    import argparse
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--results", default="results")
    ap.add_argument("--out", default="plots/out")
    ap.add_argument("--experiment")
    args = ap.parse_args()
    n = 0
    for data in plot_results.load(args.results, args.experiment):
        n += len(plot_comparison(data, pathlib.Path(args.out)))
    print(f"{n} comparison figures in {args.out}/comparison/")
    return 0 if n else 1


if __name__ == "__main__":
    raise SystemExit(_main())

