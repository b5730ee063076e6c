#!/usr/bin/python3
"""Figures and tables of the nD-Laplace thesis draft (van der Ende), from dpclust results only.

Called by plots/make_figures.py (FIGURES); each function takes (results_dir, out_dir), reads
results_dir/<experiment>/results.json and writes into out_dir, returning the written files. When its
experiment is absent it returns [] and prints which config produces it.

  ndl_fig52_ari      Figure 5.2: ARI of K-Means / Affinity Propagation / DBSCAN on the perturbed (50, 2)
                     data against the same algorithm on the original data, against epsilon (line
                     diagram, as the thesis).  ndlaplace_table54 (dataset thesis_blobs50)
  ndl_fig53_ami      Figure 5.3: the same with AMI.  ndlaplace_table54
  ndl_table54        Table 5.4 "Geo-indistinguishability as an error metric" as a Markdown table
                     (epsilon, average p_e, distance), ours beside the thesis's (read from
                     reference/published.yaml).  ndlaplace_table54
  ndl_privacy        Chapter 4 against epsilon: membership inference advantage, reconstruction error
                     (against the report's own distance), the Eq. 3.1 check (gi_ratio, 1 = the bound),
                     P_area radius and centroid relative error.  ndlaplace_privacy
  ndl_rq2_utility    RQ2: ARI / AMI against epsilon on the 3-D and 5-D (50-point) data sets.  ndlaplace_rq2

Lines are means over the trials (the thesis reports the average of 10 runs, Sec. 5.3.2); error bars
are 95% confidence intervals of the mean (plot_results.error).
Usage on its own: /usr/bin/python3 plots/paper_ndlaplace.py --results results --out plots/out
"""
import pathlib
import sys

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import plot_results  # noqa: E402  (also sets the matplotlib backend and the shared style)
from plot_results import error, save  # noqa: E402

import matplotlib.pyplot as plt  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parent.parent
CLUSTER = [  # series, label, colour, marker (the thesis's three algorithms)
    ("nd_laplace_kmeans", "K-Means", "#1f77b4", "o"),
    ("nd_laplace_affinity", "Affinity Propagation", "#ff7f0e", "s"),
    ("nd_laplace_dbscan", "DBSCAN", "#2ca02c", "^"),
]


def _load(results_dir, name, figure):
    _, data = plot_results.load_first(results_dir, [name], required=False)
    if data is None:
        print(f"paper_ndlaplace.{figure}: experiment {name} not in {results_dir} "
              f"(run configs/paper/{name}.yaml); nothing drawn", file=sys.stderr)
    return data


def _sweep(data, dataset, series, metric):
    """Sorted (epsilon, mean, ci half-width) of one series on one dataset."""
    rows = []
    for c in data["cells"]:
        if c["dataset"] != dataset or c["series"] != series or "epsilon" not in c["params"]:
            continue
        agg = c["aggregates"].get(metric)
        if agg is None or agg.get("mean") is None:
            continue
        rows.append((c["params"]["epsilon"], agg["mean"], error(agg)))
    rows.sort()
    return [np.array(v, dtype=float) for v in zip(*rows)] if rows else (np.array([]),) * 3


def _utility(results_dir, out_dir, metric, stem, title):
    data = _load(results_dir, "ndlaplace_table54", stem)
    if data is None:
        return []
    fig, ax = plt.subplots(figsize=(5.2, 3.4))
    for series, label, colour, marker in CLUSTER:
        xs, ys, es = _sweep(data, "thesis_blobs50", series, metric)
        if len(xs):
            plot_results.errorbar(ax, metric, xs, ys, es, label=label, color=colour, marker=marker, ms=3.5, lw=1.2,
                                  capsize=2, elinewidth=0.8)
    ax.set_xlabel(r"$\varepsilon$ (per data unit)")
    ax.set_ylabel(metric.split("_")[0].upper() + " vs. non-private")
    ax.set_ylim(-0.05, 1.05)
    ax.grid(alpha=0.3)
    ax.legend(frameon=False)
    ax.set_title(f"{title}\n[ndlaplace_table54, thesis_blobs50; mean of {data.get('trials', '?')} runs, {plot_results.CI_NOTE}]",
                 fontsize=9)
    return save(fig, out_dir, stem)


def ndl_fig52_ari(results_dir, out_dir):
    return _utility(results_dir, out_dir, "ari_vs_original", "ndl_fig52_ari",
                    "Fig. 5.2: ARI, cluster algorithms with 2D-Laplace, data shape (50, 2)")


def ndl_fig53_ami(results_dir, out_dir):
    return _utility(results_dir, out_dir, "ami_vs_original", "ndl_fig53_ami",
                    "Fig. 5.3: AMI, cluster algorithms with 2D-Laplace, data shape (50, 2)")


def _published_t54():
    """{(metric, epsilon): value} of the Table 5.4 entries of reference/published.yaml."""
    ref = plot_results.load_yaml(ROOT / "reference" / "published.yaml")
    out = {}
    for v in ref.get("values", []):
        q = v.get("query", {})
        if str(v.get("id", "")).startswith("ndlaplace.t54.") and q.get("experiment") == "ndlaplace_table54":
            out[(q["metric"], float(q["params"]["epsilon"]))] = v["value"]
    return out


def ndl_table54(results_dir, out_dir):
    data = _load(results_dir, "ndlaplace_table54", "ndl_table54")
    if data is None:
        return []
    pub = _published_t54()
    eps, pe, pe_ci = _sweep(data, "thesis_blobs50", "nd_laplace_kmeans", "avg_pe")
    _, dist, dist_ci = _sweep(data, "thesis_blobs50", "nd_laplace_kmeans", "avg_distance")
    lines = [
        "Table 5.4: Geo-indistinguishability as an error metric (nD-Laplace thesis draft), reproduced by "
        f"`ndlaplace_table54` (dataset thesis_blobs50, series nd_laplace_kmeans; mean of {data.get('trials', '?')} "
        "runs, +- 95% CI half-width). Thesis values from reference/published.yaml.",
        "",
        "| epsilon | average p_e | average p_e (thesis) | distance | distance (thesis) |",
        "|---:|---:|---:|---:|---:|",
    ]
    for i, e in enumerate(eps):
        tp = pub.get(("avg_pe", float(e)))
        td = pub.get(("avg_distance", float(e)))
        lines.append(f"| {e:g} | {pe[i]:.6f} +- {pe_ci[i]:.6f} | {'' if tp is None else f'{tp:.6f}'} | "
                     f"{dist[i]:.6f} +- {dist_ci[i]:.6f} | {'' if td is None else f'{td:.6f}'} |")
    path = pathlib.Path(out_dir) / "ndl_table54.md"
    path.write_text("\n".join(lines) + "\n")
    return [path]


def ndl_privacy(results_dir, out_dir):
    data = _load(results_dir, "ndlaplace_privacy", "ndl_privacy")
    if data is None:
        return []
    ds = "thesis_blobs50"
    series = [("nd_laplace_kmeans", "halve (eps-GI)", "#1f77b4", "o"),
              ("nd_laplace_thesis", "thesis reading (2 eps-GI)", "#d62728", "s")]
    panels = [
        ("mia_advantage", "(a) MIA advantage TPR - FPR", None),
        ("mia_advantage_best", "(b) MIA advantage, best threshold", None),
        ("reconstruction_error", "(c) reconstruction error (data units)", "avg_distance"),
        ("gi_ratio", r"(d) Eq. 3.1: max log-ratio / $\varepsilon d(x,x')$", None),
        ("p_area_radius", "(e) P_area radius (Eq. 3.4)", None),
        ("centroid_rel_error", "(f) centroid relative error", None),
    ]
    fig, axes = plt.subplots(2, 3, figsize=(11, 6.2))
    for ax, (metric, title, dashed) in zip(axes.flat, panels):
        for s, label, colour, marker in series:
            xs, ys, es = _sweep(data, ds, s, metric)
            if len(xs):
                plot_results.errorbar(ax, metric, xs, ys, es, label=label, color=colour, marker=marker, ms=3, lw=1.1,
                                      capsize=2, elinewidth=0.7)
            if dashed:
                xs, ys, _ = _sweep(data, ds, s, dashed)
                if len(xs):
                    ax.plot(xs, ys, ls="--", color=colour, lw=0.9, label=f"{label}: report itself")
        if metric == "gi_ratio":
            ax.axhline(1.0, color="black", lw=0.8, ls=":")
        ax.set_xscale("log")
        ax.set_xlabel(r"$\varepsilon$ (per data unit)")
        ax.set_title(title, fontsize=9)
        ax.grid(alpha=0.3)
    axes.flat[0].legend(frameon=False, fontsize=7)
    axes.flat[2].legend(frameon=False, fontsize=6)
    fig.suptitle(f"nD-Laplace thesis Ch. 4: privacy of the release [ndlaplace_privacy, {ds}; mean of "
                 f"{data.get('trials', '?')} runs, {plot_results.CI_NOTE}]", fontsize=10)
    fig.tight_layout()
    return save(fig, out_dir, "ndl_privacy")


def ndl_rq2_utility(results_dir, out_dir):
    data = _load(results_dir, "ndlaplace_rq2", "ndl_rq2_utility")
    if data is None:
        return []
    datasets = []
    for c in data["cells"]:
        if c["dataset"] not in datasets:
            datasets.append(c["dataset"])
    fig, axes = plt.subplots(2, len(datasets), figsize=(4.6 * len(datasets), 6.2), squeeze=False)
    for j, ds in enumerate(datasets):
        for i, (metric, name) in enumerate([("ari_vs_original", "ARI"), ("ami_vs_original", "AMI")]):
            ax = axes[i][j]
            for series, label, colour, marker in CLUSTER:
                xs, ys, es = _sweep(data, ds, series, metric)
                if len(xs):
                    plot_results.errorbar(ax, metric, xs, ys, es, label=label, color=colour, marker=marker, ms=3.5,
                                          lw=1.2, capsize=2, elinewidth=0.8)
            ax.set_ylim(-0.05, 1.05)
            ax.set_xlabel(r"$\varepsilon$ (per data unit)")
            ax.set_ylabel(f"{name} vs. non-private")
            ax.set_title(f"{ds}: {name}", fontsize=9)
            ax.grid(alpha=0.3)
    axes[0][0].legend(frameon=False, fontsize=7)
    fig.suptitle(f"RQ2: nD-Laplace on (50, 3) and (50, 5) data [ndlaplace_rq2; mean of {data.get('trials', '?')} "
                 f"runs, {plot_results.CI_NOTE}]", fontsize=10)
    fig.tight_layout()
    return save(fig, out_dir, "ndl_rq2_utility")


FIGURES = [ndl_fig52_ari, ndl_fig53_ami, ndl_table54, ndl_privacy, ndl_rq2_utility]


def main():
    return plot_results.run_figures(FIGURES, __doc__)


if __name__ == "__main__":
    sys.exit(main())
