#!/usr/bin/python3
"""Figures of FastLloyd's accuracy evaluation (Diaa, Humphries & Kerschbaum, "FastLloyd: Federated, Accurate, Secure,
and Tunable k-Means Clustering with Differential Privacy", USENIX Security 2025; its code D-Diaa/FastLloyd,
configs/defaults.py `accuracy`, plots/per_dataset.py and plots/synthetic_bar.py), from dpclust results only.

Called by plots/make_figures.py (FIGURES); each function takes (results_dir, out_dir), reads
results_dir/fastlloyd_accuracy/results.json and writes into out_dir, returning the written files. When the experiment
is absent it returns [] and prints which config produces it.

  fastlloyd_accuracy_measures  per data set (rows) the six measures of the evaluation (NICV, BCSS, silhouette,
                               Davies-Bouldin, Calinski-Harabasz, Dunn; columns) against eps, every series of the
                               run, as the authors' per_dataset.py draws them; Lloyd (non-private, no eps) as a
                               dashed line. Black crosses: the authors' code on the same data (reference/published.yaml,
                               paper fastlloyd, the values marked authors_run; bench/reference_fastlloyd_accuracy.py).
  fastlloyd_auc_table.md       per data set the area under each private series' NICV curve over eps (trapezoids
                               over the five eps) and its reduction against SuLloyd's, 1 - area / area(SuLloyd):
                               the computation behind the paper's "up to 88% reduction in clustering error"
                               (the report judges the claim, kind auc_reduction).

Lines are means over the trials (the authors' 100 seeds in configs/paper/full/, 20 in the main job), bars 95%
confidence intervals of the mean (plot_results.error).
Usage on its own: /usr/bin/python3 plots/paper_fastlloyd.py --results results --out plots/out
"""
import pathlib
import sys

import numpy as np

HERE = pathlib.Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
import plot_results  # noqa: E402  (also sets the matplotlib backend and the shared style)
from method_colours import method_colour  # noqa: E402
from plot_results import datasets_in_order, error, save  # noqa: E402

import matplotlib.pyplot as plt  # noqa: E402

EXPERIMENT = "fastlloyd_accuracy"
PUBLISHED = HERE.parent / "reference" / "published.yaml"
MEASURES = [  # metric, axis label, log scale (the authors' per_dataset.py draws NICV on a log axis)
    ("nicv", "NICV (lower is better)", True),
    ("bcss", "BCSS (higher is better)", False),
    ("silhouette", "silhouette", False),
    ("davies_bouldin", "Davies-Bouldin (lower)", False),
    ("calinski_harabasz", "Calinski-Harabasz", True),
    ("dunn", "Dunn", False),
]
AGAINST = "sulloyd"  # the previous DP k-means the paper's 88% is measured against


def _load(results_dir, figure):
    _, data = plot_results.load_first(results_dir, [EXPERIMENT], required=False)
    if data is None:
        print(f"paper_fastlloyd.{figure}: {EXPERIMENT} not in {results_dir} (run configs/paper/{EXPERIMENT}.yaml or "
              f"configs/paper/full/{EXPERIMENT}.yaml); nothing drawn", file=sys.stderr)
    return data


def curves(data, dataset, metric):
    """{series: [(eps, mean, ci half-width)]} ascending in eps; a series without eps (Lloyd) under eps None."""
    out = {}
    for c in data["cells"]:
        if c["dataset"] != dataset:
            continue
        agg = c["aggregates"].get(metric)
        if not agg or agg.get("mean") is None:
            continue
        eps = c["params"].get("epsilon")
        out.setdefault(c["series"], []).append((eps if isinstance(eps, (int, float)) else None, agg["mean"], error(agg)))
    return {s: sorted(p, key=lambda t: -1 if t[0] is None else t[0]) for s, p in out.items()}


def reference_points(dataset, metric):
    """{series: [(eps, value)]} of the authors' code numbers (`values:` entries with authors_run) in
    reference/published.yaml."""
    if not PUBLISHED.is_file():
        return {}
    doc = plot_results.load_yaml(PUBLISHED) or {}
    out = {}
    for v in doc.get("values") or []:
        q = v.get("query") or {} if isinstance(v, dict) else {}
        if (not v.get("authors_run") or q.get("experiment") != EXPERIMENT or q.get("dataset") != dataset or q.get("metric") != metric
                or not isinstance(v.get("value"), (int, float))):
            continue
        eps = (q.get("params") or {}).get("epsilon")
        if isinstance(eps, (int, float)):
            out.setdefault(q.get("series"), []).append((float(eps), float(v["value"])))
    return {s: sorted(p) for s, p in out.items()}


def fastlloyd_accuracy_measures(results_dir, out_dir):
    data = _load(results_dir, "fastlloyd_accuracy_measures")
    if data is None:
        return []
    datasets = datasets_in_order(data)
    fig, axes = plt.subplots(len(datasets), len(MEASURES), figsize=(2.9 * len(MEASURES), 2.5 * len(datasets)), squeeze=False)
    for r, dataset in enumerate(datasets):
        for col, (metric, label, log) in enumerate(MEASURES):
            ax = axes[r][col]
            for series, points in curves(data, dataset, metric).items():
                colour = method_colour(series)
                flat = [p for p in points if p[0] is None]
                swept = [p for p in points if p[0] is not None]
                if flat:
                    ax.axhline(flat[0][1], color=colour, ls="--", lw=1.0, label=series)
                if swept:
                    xs, ms, es = (np.array(v) for v in zip(*swept))
                    plot_results.errorbar(ax, metric, xs, ms, es, color=colour, marker="o", ms=3, lw=1.2, capsize=2,
                                          elinewidth=0.8, label=series)
            for series, points in reference_points(dataset, metric).items():
                xs, vs = zip(*points)
                ax.plot(xs, vs, ls="none", marker="x", ms=5, mew=1.2, color="black",
                        label="authors' code" if series == "fastlloyd_authors" else None)
            if log:
                ax.set_yscale("log")
            ax.set_xscale("log")  # every figure's epsilon axis is logarithmic
            ax.set_xlabel("eps")
            ax.set_ylabel(label, fontsize=8)
            ax.set_title(dataset, fontsize=8)
            ax.grid(alpha=0.3)
    handles, labels = [], []
    for ax in axes.flat:
        for h, lab in zip(*ax.get_legend_handles_labels()):
            if lab not in labels:
                handles.append(h)
                labels.append(lab)
    fig.legend(handles, labels, loc="lower center", ncol=min(len(labels), 6), fontsize=7, frameon=False)
    fig.suptitle(f"FastLloyd's accuracy evaluation ({data.get('trials', '?')} trials, data in [-1, 1]): means, "
                 f"{plot_results.CI_NOTE}; x = the authors' code", fontsize=10)
    fig.tight_layout(rect=(0, 0.04, 1, 1))
    return save(fig, out_dir, "fastlloyd_accuracy_measures", crop=False)


def trapezoid(xs, ys):
    return float(sum((xs[i + 1] - xs[i]) * (ys[i] + ys[i + 1]) / 2 for i in range(len(xs) - 1)))


def auc_reductions(data, dataset, metric="nicv"):
    """{series: (area, reduction against SuLloyd)} over the eps both ran (as the report's auc_reduction computes it)."""
    by_series = {s: {p[0]: p[1] for p in points if p[0] is not None} for s, points in curves(data, dataset, metric).items()}
    base = by_series.get(AGAINST)
    out = {}
    for series, means in by_series.items():
        if not means or base is None:
            continue
        xs = sorted(set(means) & set(base))
        if len(xs) < 2:
            continue
        area, against = trapezoid(xs, [means[x] for x in xs]), trapezoid(xs, [base[x] for x in xs])
        out[series] = (area, None if against == 0 else 1.0 - area / against)
    return out


def fastlloyd_auc_table(results_dir, out_dir):
    data = _load(results_dir, "fastlloyd_auc_table")
    if data is None:
        return []
    lines = [
        "FastLloyd's \"up to 88% reduction in clustering error\" against SuLloyd (USENIX Security 2025), as its "
        "plots/synthetic_bar.py computes it: the area under the NICV-over-eps curve (trapezoids over the eps run, "
        f"means of {data.get('trials', '?')} trials), 1 - area / SuLloyd's area; dpclust's results "
        "(configs/paper/fastlloyd_accuracy.yaml). The report judges the claim on the largest reduction.",
        "",
        "| dataset | series | area under NICV | reduction against SuLloyd |",
        "|---|---|---:|---:|",
    ]
    for dataset in datasets_in_order(data):
        for series, (area, reduction) in auc_reductions(data, dataset).items():
            lines.append(f"| {dataset} | {series} | {area:.4g} | {'-' if reduction is None else f'{100 * reduction:.1f}%'} |")
    path = pathlib.Path(out_dir) / "fastlloyd_auc_table.md"
    path.write_text("\n".join(lines) + "\n")
    return [path]


FIGURES = [fastlloyd_accuracy_measures, fastlloyd_auc_table]


def main():
    return plot_results.run_figures(FIGURES, __doc__)


if __name__ == "__main__":
    sys.exit(main())
