#!/usr/bin/python3
"""Figures of Google's DP clustering demo (google/differential-privacy, learning/clustering/demo/clustering_demo.py,
and the benchmark plots of learning/clustering/README.md), from dpclust results only.

Called by plots/make_figures.py (FIGURES); each function takes (results_dir, out_dir), reads
results_dir/<experiment>/results.json and writes into out_dir, returning the written files. When its
experiment is absent it returns [] and prints which config produces it.

  google_demo_k_sweep    the k sweep at eps = 1 (google_demo_k): the README's normalised k-means loss (loss / n),
                         dominant label accuracy (purity), false match fraction and true non-match fraction against k,
                         every series of the run
  google_demo_eps_sweep  the same against eps at k = 64 (google_demo_eps)
  google_demo_readme_sweep  the k sweep at the README benchmark's size, 100,000 points (google_demo_readme; full grid only)
  google_demo_table.md   the means beside the reference numbers: the authors' code run on the same setting
                         (reference/published.yaml, paper google_demo, the values marked authors_run)

Lines are the means over the trials, the shaded band the 25th to 75th percentile of the trials (numpy's linear rule),
as the README draws its benchmark (20 runs; fewer in the main job's small versions). Black crosses: the authors'
code (private_lsh_clustering and IBM diffprivlib's KMeans as the demo calls them, 20 runs, numbers from
bench/reference_google_demo.py) read from reference/published.yaml.
Usage on its own: /usr/bin/python3 plots/paper_google_demo.py --results results --out plots/out
"""
import pathlib
import sys

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import plot_results  # noqa: E402  (also sets the matplotlib backend and the shared style)
from method_colours import method_colour  # noqa: E402
from plot_results import save  # noqa: E402

import matplotlib.pyplot as plt  # noqa: E402

PUBLISHED = HERE.parent / "reference" / "published.yaml"
MEASURES = [  # metric, axis label, log scale
    ("inertia_per_point", "normalised k-means loss (loss / n)", True),
    ("purity", "dominant label accuracy", False),
    ("false_match_fraction", "false match fraction", False),
    ("true_non_match_fraction", "true non-match fraction", False),
]
AUTHORS_NAMES = {"lsh_clustering_pld": "private_lsh_clustering", "dp_kmeans_diffprivlib": "diffprivlib's KMeans"}
SWEEPS = {  # figure -> (experiment, swept parameter, axis label, log base of the x axis)
    "google_demo_k_sweep": ("google_demo_k", "k", "k (eps = 1)", 2),
    "google_demo_eps_sweep": ("google_demo_eps", "epsilon", "eps (k = 64)", 10),
    "google_demo_readme_sweep": ("google_demo_readme", "k", "k (eps = 1, 100,000 points)", 2),
}


def trial_values(cell, metric):
    return [float(t["metrics"][metric]) for t in cell.get("trials", [])
            if isinstance(t.get("metrics", {}).get(metric), (int, float)) and t["metrics"][metric] == t["metrics"][metric]]


def sweep_lines(data, param, metric):
    """{series: [(x, mean, q25, q75)]} over the cells with a numeric `param`, ascending in x."""
    out = {}
    for c in data["cells"]:
        x = c["params"].get(param)
        v = trial_values(c, metric)
        if not isinstance(x, (int, float)) or not v:
            continue
        out.setdefault(c["series"], []).append((float(x), float(np.mean(v)), float(np.percentile(v, 25)), float(np.percentile(v, 75))))
    return {s: sorted(points) for s, points in out.items()}


def reference_points(experiment, param):
    """{(series, metric): [(x, value)]} of the authors' code numbers (`values:` entries with authors_run) in
    reference/published.yaml for the experiment."""
    if not PUBLISHED.is_file():
        return {}
    doc = plot_results.load_yaml(PUBLISHED) or {}
    out = {}
    for v in doc.get("values") or []:
        q = v.get("query") or {} if isinstance(v, dict) else {}
        if not v.get("authors_run") or q.get("experiment") != experiment or not isinstance(v.get("value"), (int, float)):
            continue
        x = (q.get("params") or {}).get(param)
        if isinstance(x, (int, float)):
            out.setdefault((q.get("series"), q.get("metric")), []).append((float(x), float(v["value"])))
    return out


def _sweep_figure(results_dir, out_dir, figure):
    experiment, param, xlabel, base = SWEEPS[figure]
    _, data = plot_results.load_first(results_dir, [experiment], required=False)
    if data is None:
        print(f"paper_google_demo.{figure}: {experiment} not in {results_dir} (run configs/paper/{experiment}.yaml or "
              f"configs/paper/full/{experiment}.yaml); nothing drawn", file=sys.stderr)
        return []
    refs = reference_points(experiment, param)
    fig, axes = plt.subplots(1, len(MEASURES), figsize=(3.4 * len(MEASURES), 3.2), squeeze=False)
    for ax, (metric, label, log) in zip(axes[0], MEASURES):
        for series, points in sweep_lines(data, param, metric).items():
            xs, ms, lo, hi = (np.array(col) for col in zip(*points))
            colour = method_colour(series)
            ax.plot(xs, ms, marker="o", ms=3, lw=1.2, color=colour, label=series)
            ax.fill_between(xs, lo, hi, color=colour, alpha=0.2, lw=0)
        for (series, m), points in sorted(refs.items()):
            if m != metric:
                continue
            xs, vs = zip(*sorted(points))
            ax.plot(xs, vs, ls="none", marker="x", ms=6, mew=1.4, color="black" if series.startswith("lsh_clustering") else "#555555",
                    label=f"authors' code ({AUTHORS_NAMES.get(series, series)})")
        ax.set_xscale("log", base=base)
        if log:
            ax.set_yscale("log")
        ax.set_xlabel(xlabel)
        ax.set_ylabel(label)
        ax.grid(alpha=0.3)
    handles, labels = axes[0][0].get_legend_handles_labels()
    fig.legend(handles, labels, loc="lower center", ncol=min(len(labels), 5), fontsize=7, frameon=False)
    n = next((d.get("n") for d in (data.get("datasets") or {}).values() if isinstance(d, dict)), None)
    fig.suptitle(f"Google's clustering demo, {experiment} ({data.get('trials', '?')} trials{f', n = {n}' if n else ''}): "
                 "means, 25-75 percentile band; x = the authors' code", fontsize=9)
    fig.tight_layout(rect=(0, 0.12, 1, 1))
    return save(fig, out_dir, figure, crop=False)


def google_demo_k_sweep(results_dir, out_dir):
    return _sweep_figure(results_dir, out_dir, "google_demo_k_sweep")


def google_demo_eps_sweep(results_dir, out_dir):
    return _sweep_figure(results_dir, out_dir, "google_demo_eps_sweep")


def google_demo_readme_sweep(results_dir, out_dir):
    return _sweep_figure(results_dir, out_dir, "google_demo_readme_sweep")


def google_demo_table(results_dir, out_dir):
    present = []
    for figure, (experiment, param, _, _) in SWEEPS.items():
        _, data = plot_results.load_first(results_dir, [experiment], required=False)
        if data is not None:
            present.append((experiment, param, data))
    if not present:
        print(f"paper_google_demo.google_demo_table: none of {', '.join(e for e, _, _, _ in SWEEPS.values())} in {results_dir}; "
              "nothing written",
              file=sys.stderr)
        return []
    lines = [
        "Google's clustering demo reproduced by dpclust (configs/paper/google_demo_*.yaml): mean [25th, 75th percentile] "
        "over the trials, beside the authors' code on the same setting (reference/published.yaml, bench/reference_google_demo.py; "
        "the README prints plots only).",
        "",
        "| experiment | series | setting | measure | dpclust | trials | authors' code |",
        "|---|---|---|---|---:|---:|---:|",
    ]
    for experiment, param, data in present:
        refs = reference_points(experiment, param)
        for metric, label, _ in MEASURES:
            for series, points in sweep_lines(data, param, metric).items():
                ref = dict(refs.get((series, metric), []))
                for x, m, lo, hi in points:
                    cell = next(c for c in data["cells"] if c["series"] == series and c["params"].get(param) == x)
                    r = ref.get(x)
                    lines.append(f"| {experiment} | {series} | {param} = {x:g} | {label} | {m:.4g} [{lo:.4g}, {hi:.4g}] | "
                                 f"{len(trial_values(cell, metric))} | {'-' if r is None else f'{r:.4g}'} |")
    path = pathlib.Path(out_dir) / "google_demo_table.md"
    path.write_text("\n".join(lines) + "\n")
    return [path]


FIGURES = [google_demo_k_sweep, google_demo_eps_sweep, google_demo_readme_sweep, google_demo_table]


def main():
    return plot_results.run_figures(FIGURES, __doc__)


if __name__ == "__main__":
    sys.exit(main())
