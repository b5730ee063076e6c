#!/usr/bin/python3
"""Figures from dpclust results (reads only results/<experiment>/results.json; never runs anything).

For every experiment and metric it draws, per dataset, either
  - a line plot of the metric against the swept parameter (one line per method series, error bars =
    95% confidence interval over trials), when the cells of a series differ in one numeric parameter, or
  - a grouped bar chart (series x dataset) with the same error bars otherwise.
Writes PNG and PDF to --out. Paper-specific figures live in their own scripts next to this one.

Usage: /usr/bin/python3 plots/plot_results.py --results results --out plots/out [--experiment NAME]
"""
import argparse
import json
import pathlib
import sys
from collections import defaultdict

import matplotlib

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

plt.rcParams.update({"font.size": 9, "axes.titlesize": 10, "figure.dpi": 120, "savefig.bbox": "tight"})


def load(results_dir, only=None):
    for path in sorted(pathlib.Path(results_dir).glob("*/results.json")):
        data = json.loads(path.read_text())
        if only and data["experiment"] != only:
            continue
        yield data


_CACHE = {}


def load_first(results_dir, names, required=True):
    """(name, data) of the first experiment of `names` with a results.json under results_dir.

    Raises FileNotFoundError (make_figures.py reports the figure as skipped) when none is present and
    `required`; otherwise returns (None, None). The last few files read are cached by path and mtime.
    """
    for name in names:
        path = pathlib.Path(results_dir) / name / "results.json"
        if path.is_file():
            key = (str(path), path.stat().st_mtime_ns)
            if key not in _CACHE:
                if len(_CACHE) > 3:
                    _CACHE.clear()
                _CACHE[key] = json.loads(path.read_text())
            return name, _CACHE[key]
    if required:
        raise FileNotFoundError(f"experiment {' / '.join(names)} not in results")
    return None, None


def run_figures(figures, description):
    """Command-line entry of a plots/paper_*.py module: runs its FIGURES into --out."""
    ap = argparse.ArgumentParser(description=description, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--results", default="results")
    ap.add_argument("--out", default="plots/out")
    args = ap.parse_args()
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


def error(agg):
    if not agg or agg.get("ci95") is None or "mean" not in agg:
        return 0.0
    return agg["ci95"][1] - agg["mean"]


def save(fig, out, stem):
    for ext in ("png", "pdf"):
        fig.savefig(out / f"{stem}.{ext}")
    plt.close(fig)
    return [out / f"{stem}.{ext}" for ext in ("png", "pdf")]


def plot_experiment(data, out):
    written = []
    by_dataset = defaultdict(lambda: defaultdict(list))
    for cell in data["cells"]:
        by_dataset[cell["dataset"]][cell["series"]].append(cell)
    metrics = sorted({m for c in data["cells"] for m in c["aggregates"]})
    exp = data["experiment"]
    for metric in metrics:
        datasets = list(by_dataset)
        sweeps = {d: {s: swept_param(cs) for s, cs in by_dataset[d].items()} for d in datasets}
        if any(p for d in sweeps.values() for p in d.values()):
            cols = min(3, len(datasets))
            rows = (len(datasets) + cols - 1) // cols
            fig, axes = plt.subplots(rows, cols, figsize=(4 * cols, 3 * rows), squeeze=False)
            for ax, dataset in zip(axes.flat, datasets):
                for series, cells in by_dataset[dataset].items():
                    p = sweeps[dataset][series]
                    if not p:
                        continue
                    cells = sorted(cells, key=lambda c: c["params"][p])
                    xs = [c["params"][p] for c in cells]
                    ys = [c["aggregates"].get(metric, {}).get("mean", float("nan")) for c in cells]
                    es = [error(c["aggregates"].get(metric)) for c in cells]
                    ax.errorbar(xs, ys, yerr=es, marker="o", ms=3, capsize=2, label=series)
                    ax.set_xlabel(p)
                ax.set_title(dataset)
                ax.set_ylabel(metric)
                ax.grid(alpha=0.3)
                ax.legend(fontsize=7)
            for ax in list(axes.flat)[len(datasets):]:
                ax.axis("off")
            fig.suptitle(f"{exp}: {metric}")
        else:
            series = sorted({s for d in datasets for s in by_dataset[d]})
            fig, ax = plt.subplots(figsize=(max(4, 1.2 * len(datasets) * max(1, len(series)) / 2), 3))
            width = 0.8 / max(1, len(series))
            for i, s in enumerate(series):
                xs, ys, es = [], [], []
                for j, d in enumerate(datasets):
                    cells = by_dataset[d].get(s)
                    if not cells:
                        continue
                    agg = cells[0]["aggregates"].get(metric)
                    xs.append(j + i * width)
                    ys.append(agg.get("mean", float("nan")) if agg else float("nan"))
                    es.append(error(agg))
                ax.bar(xs, ys, width, yerr=es, capsize=2, label=s)
            ax.set_xticks([j + 0.4 - width / 2 for j in range(len(datasets))])
            ax.set_xticklabels(datasets, rotation=20)
            ax.set_ylabel(metric)
            ax.set_title(f"{exp}: {metric}")
            ax.grid(axis="y", alpha=0.3)
            ax.legend(fontsize=7)
        written += save(fig, out, f"{exp}_{metric}")
    return written


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--results", default="results")
    ap.add_argument("--out", default="plots/out")
    ap.add_argument("--experiment")
    args = ap.parse_args()
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
