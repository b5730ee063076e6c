#!/usr/bin/python3
"""The benchmark's figures (docs/benchmark.md; configs/benchmark/), drawn from results.json only:

1. Where each method wins: per experiment, dataset family (results.json `datasets.*.family`) and ranked metric,
   a map over (n, epsilon) and over (d, epsilon) -- when the family's datasets have at least two sizes n or two
   dimensions d -- of the best private method of each cell, by the metric's direction, coloured solid where it
   is significantly best and pale (with the name in parentheses) where not. Significance is the report's rule
   (engine/report/win_regions.cpp): the best median of a column, the rank-sum test of that cell against every
   other ranked private cell of it, Holm-adjusted over all such tests of that (dataset, metric), 5%; the trivial
   baseline and the non-private methods do not compete. Written to
   OUT/benchmark/<experiment>/wins__<family>__<metric>__<axis>.png, where the report links it.
2. Time against n and d: per experiment and family whose datasets differ in n (or d), every method's median
   `timing.method_seconds` over its trials at each n (or d), log-log, with the least-squares slope of
   log(seconds) on log(n) in the legend. OUT/benchmark/<experiment>/time__<family>__n.png and time__<family>__d.png.

Registered with make_figures.py like the paper modules (FIGURES); each function returns [] when no results have
a family varying in n or d.
"""
import json
import math
import pathlib
import sys
import textwrap

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import plot_results  # noqa: E402  (sets the backend and the shared style)
from plot_results import plt, save  # noqa: E402
import plot_comparison  # noqa: E402
import method_colours  # noqa: E402

ALPHA = 0.05
# The metrics' better direction, as engine/report/comparison_stats.cpp metric_traits states it
# (tests/report/comparison_test.cpp checks that the two agree). Metrics not listed are not ranked.
METRIC_BETTER = {"ari": "higher", "ami": "higher", "nmi": "higher", "f_measure": "higher", "overall_f_measure": "higher",
                 "of": "higher", "ari_vs_original": "higher", "ami_vs_original": "higher", "silhouette": "higher",
                 "accuracy": "higher", "purity": "higher", "dsg_c": "lower", "ocm": "lower", "two_ce": "lower",
                 "kprime_rel_error": "lower", "stress": "lower", "centroid_rel_error": "lower", "inertia": "lower",
                 "inertia_per_point": "lower", "normalized_kmeans_cost": "lower", "centre_distance": "lower",
                 "false_match_fraction": "lower", "true_non_match_fraction": "lower", "nicv": "lower", "bcss": "higher",
                 "davies_bouldin": "lower", "calinski_harabasz": "higher", "dunn": "higher"}
WIN_NOTE = ("Solid: the best private method of the cell, significantly better than every other private method of it "
            "(the rank-sum test of the best median, Holm-adjusted over all such tests of its dataset and metric, 5%). "
            "Pale, name in parentheses: the best median where no method is significantly best. Blank: no private cell. The trivial "
            "baseline and the non-private methods do not compete (the report's comparison tables test against them).")
TIME_NOTE = ("Median over trials of each method's running time (timing.method_seconds, the method alone, not its "
             "metrics), pooled over the budgets of the experiment; log-log, the slope of log(seconds) on log({axis}) in "
             "the legend. Trials ran in parallel on the run's threads (results.json provenance).")


# --- statistics: the report's rank-sum test and Holm (engine/report/comparison_stats.cpp) ----------------------

def rank_sum_p(a, b):
    """Two-sided p of the Wilcoxon-Mann-Whitney rank-sum test, as the report computes it: exact (the null distribution
    of U by Mann and Whitney's recurrence) without ties and with at most 40 values in all, otherwise the normal
    approximation with the tie-corrected variance and a continuity correction of 1/2. None when a side is empty;
    1 when every value is the same."""
    na, nb = len(a), len(b)
    if na == 0 or nb == 0:
        return None
    pooled = sorted([(x, True) for x in a] + [(x, False) for x in b], key=lambda p: p[0])
    n = na + nb
    rank_sum, tie_term, ties, i = 0.0, 0.0, False, 0
    while i < n:
        j = i
        while j < n and pooled[j][0] == pooled[i][0]:
            j += 1
        mid = (i + 1 + j) / 2
        rank_sum += mid * sum(1 for r in range(i, j) if pooled[r][1])
        if j - i > 1:
            ties = True
            tie_term += (j - i) ** 3 - (j - i)
        i = j
    u = rank_sum - na * (na + 1) / 2
    mu = na * nb / 2
    if not ties and n <= 40:
        f = {(0, 0): [1]}
        for x in range(na + 1):
            for y in range(nb + 1):
                if x == 0 or y == 0:
                    f[(x, y)] = [1] + [0] * (x * y)
                    continue
                dist = [0] * (x * y + 1)
                for k, c in enumerate(f[(x - 1, y)]):
                    dist[k + y] += c
                for k, c in enumerate(f[(x, y - 1)]):
                    dist[k] += c
                f[(x, y)] = dist
        dist = f[(na, nb)]
        total = sum(dist)
        below = sum(c for k, c in enumerate(dist) if k <= u)
        above = sum(c for k, c in enumerate(dist) if k >= u)
        return min(1.0, 2 * min(below, above) / total)
    var = na * nb / 12 * ((n + 1) - tie_term / (n * (n - 1)))
    if not var > 0:
        return 1.0
    z = (abs(u - mu) - 0.5) / math.sqrt(var)
    return min(1.0, math.erfc(z / math.sqrt(2)))


def median(values):
    v = sorted(values)
    k = len(v)
    return v[k // 2] if k % 2 else (v[k // 2 - 1] + v[k // 2]) / 2


def holm(ps):
    """Holm's step-down adjustment, in the input order (stable for equal p-values)."""
    order = sorted(range(len(ps)), key=lambda i: ps[i])
    adj, running = [0.0] * len(ps), 0.0
    for r, i in enumerate(order):
        running = max(running, min(1.0, (len(ps) - r) * ps[i]))
        adj[i] = running
    return adj


def _is_number(v):
    return isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)


def trial_values(cell, metric):
    return [t["metrics"][metric] for t in cell.get("trials", [])
            if _is_number((t.get("metrics") or {}).get(metric))]


def ranked(cell, metric):
    """The report's rule: a cell competes when at least half of its trials have a value."""
    values = trial_values(cell, metric)
    return bool(values) and 2 * len(values) >= len(cell.get("trials", []))


def _role(cell):
    role = cell.get("role")
    if role:
        return role
    if cell.get("method") == "uniform_centres":
        return "trivial_baseline"
    return "private" if cell.get("private", False) else "non_private"


def private_rows(cells, metric):
    """{row key: (label, {epsilon: values})} of the central-DP private cells holding `metric` (rows as the report
    names them: the series with the parameters that tell its rows apart)."""
    rows, values = {}, {}
    for c in cells:
        if _role(c) != "private" or metric not in (c.get("aggregates") or {}):
            continue
        series, params, eps, reference, local = plot_comparison.classify(c)
        if reference or local or eps is None:
            continue
        key = (series, json.dumps(params, sort_keys=True))
        rows[key] = (series, params)
        values.setdefault(key, {})[eps] = trial_values(c, metric) if ranked(c, metric) else []
    labels = plot_comparison._labels(rows)
    return {k: (labels[k], values[k]) for k in rows}


def column_winners(cells, metric):
    """{epsilon: (label, significant, competitors)} of one (dataset, metric), as the report's column_winners."""
    better = METRIC_BETTER.get(metric)
    if better is None:
        return {}
    rows = private_rows(cells, metric)
    eps_all = sorted({e for _, vals in rows.values() for e in vals})
    out, tests, untestable = {}, [], set()
    for e in eps_all:
        here = [(label, vals[e]) for label, vals in rows.values() if vals.get(e)]
        if not here:
            continue
        best = here[0]
        for r in here:
            if (median(r[1]) > median(best[1])) if better == "higher" else (median(r[1]) < median(best[1])):
                best = r
        out[e] = [best[0], False, len(here)]
        if len(here) < 2:
            untestable.add(e)
            continue
        for r in here:
            if r is best:
                continue
            if median(r[1]) == median(best[1]):
                untestable.add(e)
                continue
            p = rank_sum_p(best[1], r[1])
            if p is None:
                untestable.add(e)
                continue
            tests.append((e, p))
    adj = holm([p for _, p in tests])
    rejected = {e: True for e in out}
    for (e, _), q in zip(tests, adj):
        if not q < ALPHA:
            rejected[e] = False
    for e in out:
        out[e][1] = e not in untestable and rejected[e] and out[e][2] >= 2
    return {e: tuple(v) for e, v in out.items()}


# --- families -----------------------------------------------------------------------------------------------------

def _family(data, dataset):
    d = (data.get("datasets") or {}).get(dataset) or {}
    if d.get("family"):
        return d["family"]
    gen = (d.get("provenance") or {}).get("generator") or {}
    return gen.get("type") or dataset


def _size(data, dataset, key):
    return ((data.get("datasets") or {}).get(dataset) or {}).get(key, 0)


def families(data):
    """{family: [dataset, ...]} in the results' order."""
    out = {}
    for c in data.get("cells", []):
        ds = c.get("dataset")
        fam = out.setdefault(_family(data, ds), [])
        if ds not in fam:
            fam.append(ds)
    return out


def win_tables(data):
    """[(family, metric, axis, epsilons, [(dataset, n, d, {epsilon: (label, significant, competitors)})])], as the
    report's win_regions: an "n" table when the family has two sizes or more, a "d" table for two dimensions."""
    out = []
    by_dataset = {}
    for c in data.get("cells", []):
        by_dataset.setdefault(c.get("dataset"), []).append(c)
    for fam, datasets in families(data).items():
        metrics = sorted({m for ds in datasets for c in by_dataset[ds] for m in (c.get("aggregates") or {})
                          if m in METRIC_BETTER})
        for metric in metrics:
            rows = []
            for ds in datasets:
                wins = column_winners(by_dataset[ds], metric)
                if wins:
                    rows.append((ds, _size(data, ds, "n"), _size(data, ds, "d"), wins))
            if not rows:
                continue
            eps = sorted({e for r in rows for e in r[3]})
            for axis, idx in (("n", 1), ("d", 2)):
                if len({r[idx] for r in rows}) < 2:
                    continue
                other = 2 if idx == 1 else 1
                out.append((fam, metric, axis, eps, sorted(rows, key=lambda r: (r[idx], r[other]))))
    return out


def _size_text(n):
    e = math.log10(n) if n > 0 else 0.5
    return f"10^{int(round(e))}" if n > 0 and abs(e - round(e)) < 1e-9 else str(n)


def _colours(labels):
    # One colour per method in every figure (method_colours.py).
    return method_colours.colour_map(labels)


def _win_figure(exp, fam, metric, axis, eps, rows):
    from matplotlib.colors import to_rgba
    from matplotlib.patches import Patch
    labels = sorted({w[0] for r in rows for w in r[3].values()})
    colour = _colours(labels)
    fig, ax = plt.subplots(figsize=(1.0 + 0.9 * len(eps), 1.2 + 0.5 * len(rows)))
    for yi, (ds, n, d, wins) in enumerate(rows):
        for xi, e in enumerate(eps):
            w = wins.get(e)
            if w is None:
                continue
            label, significant, competitors = w
            face = to_rgba(colour[label], 1.0 if significant else 0.25)
            ax.add_patch(plt.Rectangle((xi - 0.5, yi - 0.5), 1, 1, facecolor=face, edgecolor="white", linewidth=1.5))
            text = label if significant else f"({label})"
            ax.text(xi, yi, textwrap.fill(text, 12), ha="center", va="center", fontsize=6.5,
                    color="white" if significant else "black")
    ax.set_xlim(-0.5, len(eps) - 0.5)
    ax.set_ylim(-0.5, len(rows) - 0.5)
    ax.set_xticks(range(len(eps)))
    ax.set_xticklabels([f"{e:g}" for e in eps])
    ax.set_yticks(range(len(rows)))
    ax.set_yticklabels([_size_text(r[1]) if axis == "n" else str(r[2]) for r in rows])
    ax.set_xlabel("epsilon (central DP)")
    ax.set_ylabel("n (points)" if axis == "n" else "d (dimensions)")
    ax.set_title(f"{exp}: where each method wins\n{fam} · {metric} ({METRIC_BETTER[metric]} is better) · ({axis}, epsilon)",
                 fontsize=9)
    handles = [Patch(facecolor=colour[lab], label=lab) for lab in labels]
    fig.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, 0.0), ncol=min(4, len(handles)), fontsize=7,
               frameon=False)
    fig.text(0.01, -0.12 - 0.04 * math.ceil(len(handles) / 4), textwrap.fill(WIN_NOTE, 110), fontsize=6, va="top")
    fig.tight_layout()
    return fig


def benchmark_results(results_dir):
    """The results of the benchmark sweeps: an experiment whose config is under configs/benchmark/ or names a
    dataset `family:` (docs/benchmark.md), judged from its small manifest.json before the results are parsed
    (the main job's results are about 900 MB of JSON, most of it per-trial labels no benchmark figure reads).
    Results without a manifest are read as before."""
    plot_results.track(pathlib.Path(results_dir) / "*" / "results.json")
    for path in sorted(pathlib.Path(results_dir).glob("*/results.json")):
        manifest = path.parent / "manifest.json"
        if manifest.is_file():
            plot_results.track(manifest)
            try:
                m = json.loads(manifest.read_text())
            except ValueError:
                m = {}
            config_file = str(m.get("config_file") or "")
            if not (config_file.startswith("configs/benchmark/") or "/configs/benchmark/" in config_file
                    or "family:" in str(m.get("config_text") or "")):
                continue
        plot_results.track(path)
        yield plot_results.parse_results(path.read_text())


# make_figures.py lists a job that raises FileNotFoundError as skipped with this message (said once for both).
NOTHING_TO_DRAW = ("no sweep over n, d or epsilon with several methods in these results (configs/benchmark/, "
                   "docs/benchmark.md); nothing drawn")


def _stem(exp, *parts):
    return "benchmark/" + plot_comparison.name_part(exp) + "/" + "__".join(plot_comparison.name_part(p) for p in parts)


def win_region_figures(results_dir, out_dir):
    written = []
    for data in benchmark_results(results_dir):
        exp = data["experiment"]
        for fam, metric, axis, eps, rows in win_tables(data):
            fig = _win_figure(exp, fam, metric, axis, eps, rows)
            stem = _stem(exp, "wins", fam, metric, axis)
            (pathlib.Path(out_dir) / stem).parent.mkdir(parents=True, exist_ok=True)
            written += save(fig, out_dir, stem)
    if not written:
        raise FileNotFoundError(NOTHING_TO_DRAW)
    return written


# --- time against n and d -----------------------------------------------------------------------------------------

def _median(v):
    s = sorted(v)
    m = len(s) // 2
    return s[m] if len(s) % 2 else (s[m - 1] + s[m]) / 2


def time_series(data, datasets, axis):
    """{series: [(size, median seconds)]} over `datasets` (one family), when they have two sizes or more along
    `axis` ("n" or "d"); the series are every method of the experiment (references and the baseline included)."""
    sizes = {ds: _size(data, ds, axis) for ds in datasets}
    if len(set(sizes.values())) < 2:
        return {}
    times = {}
    for c in data.get("cells", []):
        if c.get("dataset") not in sizes:
            continue
        secs = [t["timing"]["method_seconds"] for t in c.get("trials", [])
                if _is_number((t.get("timing") or {}).get("method_seconds"))]
        if secs:
            times.setdefault(c.get("series"), {}).setdefault(sizes[c.get("dataset")], []).extend(secs)
    return {s: sorted((x, _median(v)) for x, v in by.items()) for s, by in times.items() if len(by) >= 2}


def slope(points):
    """Least-squares slope of log(seconds) on log(size) (None with fewer than two positive points)."""
    pts = [(math.log(x), math.log(y)) for x, y in points if x > 0 and y > 0]
    if len(pts) < 2:
        return None
    mx = sum(p[0] for p in pts) / len(pts)
    my = sum(p[1] for p in pts) / len(pts)
    sxx = sum((p[0] - mx) ** 2 for p in pts)
    return sum((p[0] - mx) * (p[1] - my) for p in pts) / sxx if sxx > 0 else None


def time_scaling_figures(results_dir, out_dir):
    written = []
    for data in benchmark_results(results_dir):
        exp = data["experiment"]
        for fam, datasets in families(data).items():
            for axis in ("n", "d"):
                series = time_series(data, datasets, axis)
                if not series:
                    continue
                fig, ax = plt.subplots(figsize=(6.2, 4.2))
                colour = _colours(series)
                for s in sorted(series):
                    xs, ys = zip(*series[s])
                    b = slope(series[s])
                    ax.plot(xs, ys, marker="o", ms=4, color=colour[s], label=s + (f" (slope {b:.2f})" if b is not None else ""))
                ax.set_xscale("log")
                ax.set_yscale("log")
                sizes = sorted({x for pts in series.values() for x, _ in pts})
                ax.set_xticks(sizes)
                ax.set_xticklabels([_size_text(x) if axis == "n" else str(x) for x in sizes])
                ax.minorticks_off()
                ax.set_xlabel("n (points)" if axis == "n" else "d (dimensions)")
                ax.set_ylabel("median method seconds per trial")
                ax.set_title(f"{exp}: running time against {axis} ({fam})", fontsize=9)
                ax.grid(alpha=0.3, which="both")
                ax.legend(fontsize=7, loc="upper left", bbox_to_anchor=(1.01, 1.0), frameon=False)
                fig.text(0.01, -0.02, textwrap.fill(TIME_NOTE.format(axis=axis), 110), fontsize=6, va="top")
                fig.tight_layout()
                stem = _stem(exp, "time", fam, axis)
                (pathlib.Path(out_dir) / stem).parent.mkdir(parents=True, exist_ok=True)
                written += save(fig, out_dir, stem)
    if not written:
        raise FileNotFoundError(NOTHING_TO_DRAW)
    return written


FIGURES = [win_region_figures, time_scaling_figures]


if __name__ == "__main__":
    raise SystemExit(plot_results.run_figures(FIGURES, __doc__))
