#!/usr/bin/python3
"""Figures of DPM's evaluation (Liebenow et al., "DPM: Clustering Sensitive Data through Separation", CCS 2024,
arXiv 2307.02969; artifact UzL-PrivSec/clustering-evaluation, experiments "KOpt", "Centreness" and "EpsDist"), from
dpclust results only.

Called by plots/make_figures.py (FIGURES); each function takes (results_dir, out_dir), reads
results_dir/<experiment>/results.json and writes into out_dir, returning the written files. When its
experiment is absent it returns [] and prints which config produces it.

  dpm_fig1_kopt   Figure 1 / Table 2 as bars: per dataset of dpm_kopt and dpm_kopt_letters, the normalised k-means
                  cost (inertia over the best of ten k-means++ runs, log scale), silhouette, accuracy (Hungarian)
                  and the normalised distance of the released centres to k-means++'s, for KMeans++, DPLloyd,
                  LSH-splits and DPM; each panel title of the cost gives DPM's reduction of the inertia gap to
                  KMeans++ against LSH-splits (the abstract's claim, judged in the report).
  dpm_table2      the same numbers as a Markdown table (mean +- 95% CI half-width).
  dpm_fig4_centreness  the artifact's experiment "Centreness" (dpm_centreness): heat maps over DPM's centreness
                  parameters (t, q) of the mean inertia, normalised k-means cost, silhouette, purity (the artifact's
                  accuracy) and centre distance; each cell also gives the number of trials.
  dpm_fig6_budget_split  the artifact's experiment "EpsDist" (dpm_budget_split): each budget split over DPM's four
                  steps (interval size, split choices, counts, centres) a line across the four shares, the top 20%
                  of the splits by mean inertia in green and the bottom 20% in red (the artifact's figure draws the
                  top and bottom 20% by each measure), one panel per measure; DPM's default split dashed.

Bars are means over the trials (the artifact's 20 repetitions in configs/paper/full/; fewer in the main job);
error bars are 95% confidence intervals of the mean (plot_results.error).
Usage on its own: /usr/bin/python3 plots/paper_dpm.py --results results --out plots/out
"""
import pathlib
import sys

import numpy as np

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import plot_results  # noqa: E402  (also sets the matplotlib backend and the shared style)
from plot_results import datasets_in_order, error, save  # noqa: E402

import matplotlib.pyplot as plt  # noqa: E402

EXPERIMENTS = ["dpm_kopt", "dpm_kopt_letters"]
SERIES = [  # series, label, colour (the artifact's KOpt algorithms; EM-MC "does not finish within 24 h")
    ("kmeans", "KMeans++", "#7f7f7f"),
    ("dp_kmeans", "DPLloyd", "#1f77b4"),
    ("lsh_splits", "LSH-splits", "#ff7f0e"),
    ("dpm", "DPM", "#2ca02c"),
]
MEASURES = [  # metric, axis label, log scale
    ("normalized_kmeans_cost", "inertia / k-means++'s", True),
    ("silhouette", "silhouette", False),
    ("accuracy", "accuracy (Hungarian)", False),
    ("centre_distance", "centre distance / diagonal", False),
]


def _present(results_dir, figure):
    """[(experiment, data)] of the KOpt experiments with results."""
    out = []
    for name in EXPERIMENTS:
        _, data = plot_results.load_first(results_dir, [name], required=False)
        if data is not None:
            out.append((name, data))
    if not out:
        print(f"paper_dpm.{figure}: none of {', '.join(EXPERIMENTS)} in {results_dir} "
              "(run configs/paper/dpm_kopt.yaml); nothing drawn", file=sys.stderr)
    return out


def _cell(data, dataset, series):
    for c in data["cells"]:
        if c["dataset"] == dataset and c["series"] == series:
            return c
    return None


def gap_reduction(data, dataset):
    """DPM's reduction of the inertia gap to KMeans++ against LSH-splits, on the means (as the report computes it)."""
    means = {}
    for series in ("dpm", "kmeans", "lsh_splits"):
        c = _cell(data, dataset, series)
        agg = c["aggregates"].get("inertia") if c else None
        if not agg or agg.get("mean") is None:
            return None
        means[series] = agg["mean"]
    gap = means["lsh_splits"] - means["kmeans"]
    return None if gap == 0 else 1.0 - (means["dpm"] - means["kmeans"]) / gap


def dpm_fig1_kopt(results_dir, out_dir):
    present = _present(results_dir, "dpm_fig1_kopt")
    rows = [(name, data, ds) for name, data in present for ds in datasets_in_order(data)]
    if not rows:
        return []
    fig, axes = plt.subplots(len(rows), len(MEASURES), figsize=(3.0 * len(MEASURES), 2.6 * len(rows)), squeeze=False)
    for r, (name, data, dataset) in enumerate(rows):
        for m, (metric, label, log) in enumerate(MEASURES):
            ax = axes[r][m]
            for i, (series, series_label, colour) in enumerate(SERIES):
                c = _cell(data, dataset, series)
                agg = c["aggregates"].get(metric) if c else None
                if not agg or agg.get("mean") is None:
                    continue
                ax.bar(i, agg["mean"], color=colour, label=series_label)
                plot_results.errorbar(ax, metric, np.array([i]), np.array([agg["mean"]]), np.array([error(agg)]),
                                      fmt="none", ecolor="black", capsize=2, elinewidth=0.8)
            ax.set_xticks(range(len(SERIES)), [s[1] for s in SERIES], rotation=30, fontsize=8)
            if log:
                ax.set_yscale("log")
            ax.set_ylabel(label)
            ax.grid(alpha=0.3, axis="y")
            title = f"{dataset} [{name}, {data.get('trials', '?')} trials]"
            if metric == "normalized_kmeans_cost":
                g = gap_reduction(data, dataset)
                if g is not None:
                    title += f"\nDPM closes {100 * g:.0f}% of LSH-splits' gap"
            ax.set_title(title, fontsize=8)
    fig.suptitle("DPM's KOpt experiment (Table 2, Figure 1) at eps = 1: means, " + plot_results.CI_NOTE, fontsize=10)
    fig.tight_layout()
    return save(fig, out_dir, "dpm_fig1_kopt", crop=False)


def _fmt(agg, digits=4):
    if not agg or agg.get("mean") is None:
        return "-"
    return f"{agg['mean']:.{digits}g} ± {error(agg):.2g}"


def dpm_table2(results_dir, out_dir):
    present = _present(results_dir, "dpm_table2")
    if not present:
        return []
    lines = [
        "DPM's KOpt experiment (Table 2 of Liebenow et al., CCS 2024) reproduced by dpclust (configs/paper/dpm_kopt*.yaml): "
        "mean ± 95% CI half-width over the trials; eps = 1, delta = 1 / (n sqrt n). The published Table 2 is not "
        "quoted here (reference/published.yaml, `dpm`: the abstract's claim is judged in the report).",
        "",
        "| experiment | dataset | algorithm | trials | inertia | norm. k-means cost | silhouette | accuracy | purity | centre distance |",
        "|---|---|---|---:|---:|---:|---:|---:|---:|---:|",
    ]
    for name, data in present:
        for dataset in datasets_in_order(data):
            for series, label, _ in SERIES:
                c = _cell(data, dataset, series)
                if c is None:
                    continue
                a = c["aggregates"]
                n = a.get("inertia", {}).get("n", "?")
                lines.append(f"| {name} | {dataset} | {label} | {n} | " + " | ".join(
                    _fmt(a.get(m)) for m in ("inertia", "normalized_kmeans_cost", "silhouette", "accuracy", "purity",
                                             "centre_distance")) + " |")
            g = gap_reduction(data, dataset)
            if g is not None:
                lines.append(f"| {name} | {dataset} | DPM's inertia-gap reduction against LSH-splits | | {100 * g:.1f}% | | | | | |")
    path = pathlib.Path(out_dir) / "dpm_table2.md"
    path.write_text("\n".join(lines) + "\n")
    return [path]


CENTRENESS_MEASURES = [  # metric, title, lower is better
    ("inertia", "inertia", True),
    ("normalized_kmeans_cost", "inertia / k-means++'s", True),
    ("silhouette", "silhouette", False),
    ("purity", "purity (the artifact's accuracy)", False),
    ("centre_distance", "centre distance / diagonal", True),
]
SHARES = [("share_interval", "interval size"), ("share_splits", "split choices"), ("share_counts", "counts"),
          ("share_centres", "centres")]
DPM_DEFAULT_SPLIT = (0.04, 0.18, 0.18, 0.6)


def _single(results_dir, experiment, figure):
    _, data = plot_results.load_first(results_dir, [experiment], required=False)
    if data is None:
        print(f"paper_dpm.{figure}: {experiment} not in {results_dir} (run configs/paper/{experiment}.yaml or "
              f"configs/paper/full/{experiment}.yaml); nothing drawn", file=sys.stderr)
    return data


def _mean(cell, metric):
    agg = cell["aggregates"].get(metric)
    return None if not agg or agg.get("mean") is None else agg["mean"]


def dpm_fig4_centreness(results_dir, out_dir):
    data = _single(results_dir, "dpm_centreness", "dpm_fig4_centreness")
    if data is None:
        return []
    cells = [c for c in data["cells"] if c["series"] == "dpm" and "t" in c["params"] and "q" in c["params"]]
    ts = sorted({c["params"]["t"] for c in cells})
    qs = sorted({c["params"]["q"] for c in cells})
    measures = [m for m in CENTRENESS_MEASURES if any(_mean(c, m[0]) is not None for c in cells)]
    if not cells or not measures:
        return []
    fig, axes = plt.subplots(1, len(measures), figsize=(3.3 * len(measures), 3.0), squeeze=False)
    for ax, (metric, title, lower) in zip(axes[0], measures):
        grid = np.full((len(qs), len(ts)), np.nan)
        for c in cells:
            v = _mean(c, metric)
            if v is not None:
                grid[qs.index(c["params"]["q"]), ts.index(c["params"]["t"])] = v
        im = ax.imshow(grid, origin="lower", cmap="viridis_r" if lower else "viridis", aspect="auto")
        for (i, j), v in np.ndenumerate(grid):
            if v == v:
                ax.text(j, i, f"{v:.3g}", ha="center", va="center", fontsize=6, color="black",
                        bbox=dict(facecolor="white", alpha=0.6, lw=0, pad=0.5))
        ax.set_xticks(range(len(ts)), [f"{t:g}" for t in ts], fontsize=7)
        ax.set_yticks(range(len(qs)), [f"{q:g}" for q in qs], fontsize=7)
        ax.set_xlabel("t")
        ax.set_ylabel("q")
        ax.set_title(title + (" (lower better)" if lower else " (higher better)"), fontsize=8)
        fig.colorbar(im, ax=ax, fraction=0.046, pad=0.04)
    fig.suptitle(f"DPM's Centreness experiment (Figure 4) on {', '.join(datasets_in_order(data))} at eps = 1:\nmeans of "
                 f"{data.get('trials', '?')} trials per (t, q)", fontsize=9)
    fig.tight_layout()
    return save(fig, out_dir, "dpm_fig4_centreness", crop=False)


def dpm_fig6_budget_split(results_dir, out_dir):
    data = _single(results_dir, "dpm_budget_split", "dpm_fig6_budget_split")
    if data is None:
        return []
    cells = [c for c in data["cells"] if c["series"] == "dpm" and all(s in c["params"] for s, _ in SHARES)]
    measures = [m for m in CENTRENESS_MEASURES if any(_mean(c, m[0]) is not None for c in cells)]
    if not cells or not measures:
        return []
    fig, axes = plt.subplots(1, len(measures), figsize=(3.3 * len(measures), 3.0), squeeze=False, sharey=True)
    xs = np.arange(len(SHARES))
    for ax, (metric, title, lower) in zip(axes[0], measures):
        scored = sorted((v, c) for c in cells if (v := _mean(c, metric)) is not None) if lower else \
            sorted(((v, c) for c in cells if (v := _mean(c, metric)) is not None), key=lambda t: -t[0])
        fifth = max(1, len(scored) // 5)
        for rank, (v, c) in enumerate(scored):
            shares = np.array([c["params"][s] for s, _ in SHARES], dtype=float)
            shares = shares / shares.sum()  # dpm normalises the four shares to sum 1
            default = tuple(round(x, 2) for x in shares) == DPM_DEFAULT_SPLIT
            if rank < fifth:
                ax.plot(xs, shares, color="#2ca02c", alpha=0.6, lw=1.0, label="top 20%" if rank == 0 else None)
            elif rank >= len(scored) - fifth:
                ax.plot(xs, shares, color="#d62728", alpha=0.6, lw=1.0, label="bottom 20%" if rank == len(scored) - fifth else None)
            if default:
                ax.plot(xs, shares, color="black", ls="--", lw=1.2, label=f"DPM's default ({v:.3g})")
        ax.set_xticks(xs, [label for _, label in SHARES], rotation=30, fontsize=7)
        ax.set_title(title, fontsize=8)
        ax.grid(alpha=0.3)
        ax.legend(fontsize=6)
    axes[0][0].set_ylabel("share of eps")
    fig.suptitle(f"DPM's EpsDist experiment (Figure 6), eps = 1:\nthe best and worst 20% of {len(cells)} budget splits by each "
                 f"measure ({data.get('trials', '?')} trials each)", fontsize=9)
    fig.tight_layout()
    return save(fig, out_dir, "dpm_fig6_budget_split", crop=False)


FIGURES = [dpm_fig1_kopt, dpm_table2, dpm_fig4_centreness, dpm_fig6_budget_split]


def main():
    return plot_results.run_figures(FIGURES, __doc__)


if __name__ == "__main__":
    sys.exit(main())
