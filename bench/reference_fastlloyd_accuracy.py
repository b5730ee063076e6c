#!/usr/bin/env python3
"""FastLloyd's accuracy evaluation (Diaa, Humphries & Kerschbaum, USENIX Security 2025; D-Diaa/FastLloyd
configs/defaults.py `accuracy`) run with the authors' own code on the data sets dpclust pins: the reference numbers of
dpclust's reproduction (configs/paper/fastlloyd_accuracy.yaml, configs/paper/full/fastlloyd_accuracy.yaml;
reference/published.yaml, paper `fastlloyd`), and the computation behind the paper's "up to 88% reduction in clustering
error" (plots/synthetic_bar.py: the area under the NICV-over-eps curve of FastLloyd over SuLloyd's).

The reference is the authors' code from a checkout the reader has (the repository has no licence: never vendored
here), with IBM diffprivlib (0.6.x), as for bench/reference_fastlloyd.py:

    /usr/bin/python3 bench/reference_fastlloyd_accuracy.py --reference ~/src/FastLloyd --diffprivlib DIR \
        [--data-root DIR] [--seeds 100] [--datasets iris wine ...] --json fastlloyd_accuracy_reference.json
    /usr/bin/python3 bench/reference_fastlloyd_accuracy.py --load fastlloyd_accuracy_reference.json \
        --dpclust-results results-full/fastlloyd_accuracy/results.json

What runs is the authors' experiments.py for `accuracy`, one configuration and seed at a time: each data set's
coordinates (dpclust's registry files under the data root: `dpclust data fetch iris wine breast_cancer lsun yeast s1`;
the label columns dropped) normalised by their data_handler.normalize(values, fixed=True) (each column by the data's
own min and max to [-1, 1], then their 16-bit fixed point); Params(k, dim, data_size = n, dp, eps, method, post) with
calculate_iters() (delta = 1 / (n ln n), T by their rule); params.seed = seed and numpy's global generator seeded
with it before their shuffle_and_split (one client: the order does not change the sums); utils.protocols.local_proto;
their utils.evaluations.evaluate on the unscaled values with the metrics NICV, BCSS, silhouette, Davies-Bouldin,
Calinski-Harabasz and Dunn (their defaults where a metric is undefined: silhouette -1, Davies-Bouldin inf, the others
0). The four series of their figures (plots/per_dataset.py):
    sulloyd    dp laplace, method none, post none (alpha 0)
    glloyd     dp gaussiananalytic, method none, post none (alpha 0)
    fastlloyd  dp gaussiananalytic, method diagonal_then_frac, post fold, alpha 0.8
    lloyd      dp none (eps 0), method none, post none: 7 Lloyd iterations, non-private
at eps 0.1, 0.25, 0.5, 0.75, 1, seeds 0 .. S-1 (their --num_runs 100). Printed: per data set, series and eps the mean
of every measure over the seeds (NaN left out, as their mean_confidence_interval does), and per data set the area
under the NICV curve (trapezoid over the five eps) of each private series over SuLloyd's, 1 - ratio being the
reduction the paper's 88% is; with --dpclust-results, dpclust's means of the matching cells beside them. Not a test.
"""
import argparse
import contextlib
import csv
import json
import math
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reference_common as rc  # noqa: E402
import reference_fastlloyd as rf  # noqa: E402

EPSILONS = [0.1, 0.25, 0.5, 0.75, 1.0]
# The authors' k per data set (configs/defaults.py num_clusters) and dpclust's registry file of it.
SETS = {
    "iris": (3, "uci/iris.csv"),
    "wine": (3, "uci/wine.csv"),
    "breast_cancer": (2, "uci/breast_cancer.csv"),
    "lsun": (3, "benchmark/lsun.arff"),
    "yeast": (10, "benchmark/yeast.arff"),
    "s1": (15, "benchmark/s-set1.arff"),
    "birch2": (100, "benchmark/birch2.csv"),
}
# series: (dp, method, post, alpha)
SERIES = {
    "sulloyd": ("laplace", "none", "none", 0.0),
    "glloyd": ("gaussiananalytic", "none", "none", 0.0),
    "fastlloyd": ("gaussiananalytic", "diagonal_then_frac", "fold", 0.8),
    "lloyd": ("none", "none", "none", 0.0),
}
# Their evaluate()'s metric names and output keys, and dpclust's metric of each.
METRICS = {
    "nicv": ("Normalized Intra-cluster Variance (NICV)", "nicv"),
    "bcss": ("Between-Cluster Sum of Squares (BCSS)", "bcss"),
    "silhouette": ("Silhouette Score", "silhouette"),
    "davies_bouldin": ("Davies-Bouldin Index", "davies_bouldin"),
    "calinski_harabasz": ("Calinski-Harabasz Index", "calinski_harabasz"),
    "dunn_index": ("Dunn Index", "dunn"),
}


def data_root(arg):
    root = arg or os.environ.get("DPCLUST_DATA_ROOT")
    if not root:
        guess = os.path.join(rc.ROOT, "..", "shared", "datasets")
        root = guess if os.path.isdir(guess) else os.path.expanduser("~/.cache/dpclust/datasets")
    return root


def read_coordinates(path):
    """The numeric coordinates of a registry file: a CSV with a header (the label column dropped) or an ARFF file
    (numeric attributes only; string and nominal ones, the class among them, dropped)."""
    import numpy as np
    rows = []
    if path.endswith(".arff"):
        numeric, data = [], False
        with open(path) as f:
            for line in f:
                s = line.strip()
                if not s or s.startswith("%"):
                    continue
                low = s.lower()
                if low.startswith("@attribute"):
                    kind = s.split()[-1].lower()
                    numeric.append(kind in ("real", "numeric", "integer"))
                elif low.startswith("@data"):
                    data = True
                elif data:
                    fields = s.replace(",", " ").split()
                    rows.append([float(v) for v, keep in zip(fields, numeric) if keep])
    else:
        with open(path) as f:
            reader = csv.reader(f)
            header = next(reader)
            keep = [i for i, name in enumerate(header) if name != "label"]
            rows = [[float(r[i]) for i in keep] for r in reader if r]
    return np.asarray(rows, dtype=np.float64)


def run_reference(ref, name, x, seeds, epsilons):
    import numpy as np
    configs, data_io, protocols = ref
    from utils.evaluations import evaluate
    n, d = x.shape
    k = SETS[name][0]
    values = data_io.normalize(x.copy(), fixed=True)
    unscaled = data_io.unscale(values.copy())
    rows = []
    for series, (dp, method, post, alpha) in SERIES.items():
        for eps in ([0.0] if dp == "none" else epsilons):
            params = configs.Params(num_clients=1, k=k, dim=d, data_size=n, dp=dp, eps=eps, method=method, post=post, delay=0)
            params.alpha = alpha
            params.calculate_iters()
            for seed in seeds:
                params.seed = seed
                np.random.seed(seed)
                value_lists = data_io.shuffle_and_split(values.copy(), 1, np.ones(1))
                with open(os.devnull, "w") as sink, contextlib.redirect_stderr(sink), contextlib.redirect_stdout(sink):
                    t0 = time.perf_counter()
                    centroids, _ = protocols.local_proto(value_lists, params, method="unmasked")
                    seconds = time.perf_counter() - t0
                    measures = evaluate(data_io.unscale(centroids), unscaled, None, list(METRICS))
                row = {"dataset": name, "series": series, "epsilon": eps, "seed": seed, "seconds": seconds, "iterations": int(params.iters)}
                for key, (long_name, _) in METRICS.items():
                    v = measures.get(long_name)
                    row[key] = float(v) if v is not None else float("nan")
                rows.append(row)
            print(f"  {name} {series} eps={eps}: T {params.iters}, NICV mean "
                  f"{statistics.mean(r['nicv'] for r in rows[-len(seeds):]):.5g}", file=sys.stderr, flush=True)
    return rows


def finite_mean(values):
    v = [x for x in values if isinstance(x, (int, float)) and math.isfinite(x)]
    return statistics.mean(v) if v else float("nan")


def trapezoid(ys, xs):
    return sum((xs[i + 1] - xs[i]) * (ys[i] + ys[i + 1]) / 2 for i in range(len(xs) - 1))


def dpclust_means(paths):
    """{(dataset, series, epsilon): {metric: mean}} of dpclust results files (epsilon None for a non-private cell)."""
    out = {}
    for path in paths:
        with open(path) as f:
            doc = json.load(f)
        for cell in doc["cells"]:
            key = (cell["dataset"], cell["series"], cell["params"].get("epsilon"))
            out[key] = {m: finite_mean([t.get("metrics", {}).get(m) for t in cell["trials"]]) for _, (_, m) in METRICS.items()}
    return out


def report(rows, dpclust):
    datasets = list(dict.fromkeys(r["dataset"] for r in rows))
    for name in datasets:
        print(f"\n### {name} (k = {SETS[name][0]})\n")
        print("| series | eps | seeds | " + " | ".join(METRICS) + " | dpclust nicv |")
        print("|---|---:|---:|" + "---:|" * len(METRICS) + "---:|")
        auc = {}
        for series in SERIES:
            sel = [r for r in rows if r["dataset"] == name and r["series"] == series]
            for eps in sorted({r["epsilon"] for r in sel}):
                cell = [r for r in sel if r["epsilon"] == eps]
                means = {m: finite_mean([r[m] for r in cell]) for m in METRICS}
                ours = "-"
                if dpclust:
                    key = (name, series if series != "lloyd" else "lloyd", None if series == "lloyd" else eps)
                    if key in dpclust:
                        ours = f"{dpclust[key]['nicv']:.5g}"
                print(f"| {series} | {eps:g} | {len(cell)} | " + " | ".join(f"{means[m]:.5g}" for m in METRICS) + f" | {ours} |")
                if series != "lloyd":
                    auc.setdefault(series, []).append(means["nicv"])
        base = trapezoid(auc["sulloyd"], EPSILONS) if len(auc.get("sulloyd", [])) == len(EPSILONS) else float("nan")
        for series, ys in auc.items():
            if len(ys) == len(EPSILONS):
                area = trapezoid(ys, EPSILONS)
                print(f"\n- {name}: area under the NICV curve, {series}: {area:.5g} ({area / base:.3f} of SuLloyd's; reduction "
                      f"{100 * (1 - area / base):.1f}%)", end="")
        print()


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--reference", default=os.environ.get("DPCLUST_FASTLLOYD_REFERENCE"),
                    help="a D-Diaa/FastLloyd checkout (or DPCLUST_FASTLLOYD_REFERENCE)")
    ap.add_argument("--diffprivlib", default=os.environ.get("DPCLUST_DIFFPRIVLIB"),
                    help="a directory holding the package diffprivlib, if it is not installed (or DPCLUST_DIFFPRIVLIB)")
    ap.add_argument("--data-root", help="dpclust's data root (default: $DPCLUST_DATA_ROOT, ../shared/datasets, ~/.cache/dpclust/datasets)")
    ap.add_argument("--datasets", nargs="+", default=["iris", "wine", "breast_cancer", "lsun", "yeast", "s1"], choices=list(SETS))
    ap.add_argument("--seeds", type=int, default=100, help="seeds 0 .. S-1 (the authors' --num_runs 100)")
    ap.add_argument("--json", help="write the per-seed numbers here (after every data set)")
    ap.add_argument("--load", help="read the per-seed numbers from here instead of running the reference")
    ap.add_argument("--dpclust-results", nargs="*", default=[], help="dpclust results.json files to compare with")
    args = ap.parse_args()
    if args.load:
        with open(args.load) as f:
            rows = json.load(f)["rows"]
    else:
        if not args.reference:
            sys.exit("reference_fastlloyd_accuracy.py: --reference DIR (a D-Diaa/FastLloyd checkout) or --load FILE")
        ref = rf.load_reference(args.reference, args.diffprivlib)
        root = data_root(args.data_root)
        rows = []
        for name in args.datasets:
            path = os.path.join(root, SETS[name][1])
            if not os.path.isfile(path):
                print(f"{name}: {path} is missing (dpclust data fetch {name}); left out", file=sys.stderr)
                continue
            rows += run_reference(ref, name, read_coordinates(path), range(args.seeds), EPSILONS)
            if args.json:  # every finished data set kept: s1 alone takes hours at 100 seeds on a shared machine
                with open(args.json + ".tmp", "w") as f:
                    json.dump({"seeds": args.seeds, "epsilons": EPSILONS, "rows": rows}, f, indent=0)
                os.replace(args.json + ".tmp", args.json)
    report(rows, dpclust_means(args.dpclust_results) if args.dpclust_results else None)


if __name__ == "__main__":
    main()
