#!/usr/bin/env python3
"""scikit-learn anchors for bench/bench_cluster.cpp.

Times scikit-learn's DBSCAN, KMeans and AffinityPropagation on the data the C++ benchmarks use --
make_blobs(n, centers=3, n_features=2, random_state=0), which dpclust draws with numpy's stream
(generator option stream: numpy), so the points are the same -- with the same parameters, and prints a
Markdown table beside dpclust's Google Benchmark JSON:

    build/bench/bench_cluster --benchmark_filter='AffinityPropagation|Dbscan|KMeans' \\
        --benchmark_format=json > bench_cluster.json
    python3 bench/anchors_sklearn.py --dpclust-json bench_cluster.json

(any Python 3 with scikit-learn; on Debian /usr/bin/python3 with python3-sklearn)

or let the script run the benchmark itself: --bench build/bench/bench_cluster. Times are per call
(best of --repeat runs for scikit-learn; Google Benchmark's mean per iteration for dpclust; both in
milliseconds of wall time). The iteration counts n_iter (AP's and k-means' n_iter_) are shown for both
sides, so a difference in work (not only in speed) is visible.

Parameters (the same as bench_cluster.cpp):
  AffinityPropagation  damping=0.9, max_iter=1000, convergence_iter=15, preference=median, random_state=0
  DBSCAN               eps=0.3, min_samples=5
  KMeans               n_clusters=3, n_init=1, init=k-means++, max_iter=300, tol=1e-4, algorithm=lloyd
"""
import argparse
import json
import os
import subprocess
import sys
import time

SIZES = {
    "AffinityPropagation": [250, 500, 1000, 2000],
    "Dbscan": [1000, 10_000, 100_000],
    "KMeans": [1000, 10_000, 100_000, 1_000_000],
}


def sklearn_runs(n_threads):
    os.environ.setdefault("OMP_NUM_THREADS", str(n_threads))
    import numpy as np  # noqa: F401  (imported after OMP_NUM_THREADS is set)
    from sklearn.cluster import DBSCAN, AffinityPropagation, KMeans
    from sklearn.datasets import make_blobs

    def data(n):
        X, _ = make_blobs(n_samples=n, centers=3, n_features=2, random_state=0)
        return X

    def ap(X):
        m = AffinityPropagation(damping=0.9, max_iter=1000, convergence_iter=15, random_state=0).fit(X)
        return {"n_iter": m.n_iter_, "clusters": len(m.cluster_centers_indices_)}

    def db(X):
        m = DBSCAN(eps=0.3, min_samples=5).fit(X)
        return {"core_points": len(m.core_sample_indices_)}

    def km(X):
        m = KMeans(n_clusters=3, n_init=1, init="k-means++", max_iter=300, tol=1e-4, algorithm="lloyd",
                   random_state=0).fit(X)
        return {"n_iter": m.n_iter_}

    return data, {"AffinityPropagation": ap, "Dbscan": db, "KMeans": km}


def time_sklearn(repeat, n_threads, only):
    import warnings
    warnings.filterwarnings("ignore")
    data, fns = sklearn_runs(n_threads)
    out = {}
    for algo, sizes in SIZES.items():
        if only and algo not in only:
            continue
        for n in sizes:
            X = data(n)
            best, info = float("inf"), {}
            for _ in range(repeat):
                t0 = time.perf_counter()
                info = fns[algo](X)
                best = min(best, time.perf_counter() - t0)
            out[(algo, n)] = (best * 1e3, info)
            print(f"  sklearn {algo} n={n}: {best * 1e3:.1f} ms {info}", file=sys.stderr)
    return out


def read_dpclust(path=None, bench=None):
    if bench:
        filt = "BM_(AffinityPropagation|Dbscan|KMeans)/"
        doc = json.loads(subprocess.run([bench, f"--benchmark_filter={filt}", "--benchmark_format=json"],
                                        check=True, capture_output=True, text=True).stdout)
    else:
        with open(path) as f:
            doc = json.load(f)
    out = {}
    for b in doc.get("benchmarks", []):
        if b.get("run_type", "iteration") != "iteration" or b.get("error_occurred"):
            continue
        name = b["name"]  # BM_<Algo>/<n>
        if not name.startswith("BM_") or "/" not in name:
            continue
        algo, n = name[3:].split("/")[0], int(name.split("/")[1])
        scale = {"ns": 1e-6, "us": 1e-3, "ms": 1.0, "s": 1e3}[b.get("time_unit", "ns")]
        out[(algo, n)] = (b["real_time"] * scale, b.get("cpu_time", 0) * scale, b)
    return out, doc.get("context", {})


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    src = ap.add_mutually_exclusive_group()
    src.add_argument("--dpclust-json", help="Google Benchmark JSON of bench_cluster (--benchmark_format=json)")
    src.add_argument("--bench", help="path of the bench_cluster executable: run it here")
    ap.add_argument("--repeat", type=int, default=3, help="scikit-learn runs per case (best is reported)")
    ap.add_argument("--threads", type=int, default=2, help="OMP_NUM_THREADS for scikit-learn (default 2)")
    ap.add_argument("--only", nargs="*", choices=list(SIZES), help="only these algorithms")
    ap.add_argument("--max-n", type=int, default=None, help="skip sizes above this n")
    args = ap.parse_args()

    dp, ctx = ({}, {})
    if args.dpclust_json or args.bench:
        dp, ctx = read_dpclust(args.dpclust_json, args.bench)
    if args.max_n:
        for algo in SIZES:
            SIZES[algo] = [n for n in SIZES[algo] if n <= args.max_n]
    sk = time_sklearn(args.repeat, args.threads, args.only)

    import sklearn
    print(f"scikit-learn {sklearn.__version__} (OMP_NUM_THREADS={os.environ.get('OMP_NUM_THREADS')}, best of "
          f"{args.repeat}); dpclust: Google Benchmark mean per iteration"
          + (f", {ctx.get('num_cpus')} CPUs, {ctx.get('host_name', '')}" if ctx else "") + "\n")
    print("| algorithm | n | scikit-learn ms | dpclust ms (wall) | dpclust ms (CPU) | sklearn / dpclust | "
          "sklearn work | dpclust work |")
    print("|---|---:|---:|---:|---:|---:|---|---|")
    for (algo, n), (ms, info) in sk.items():
        d = dp.get((algo, n))
        if d:
            wall, cpu, b = d
            work = {k: int(b[k]) for k in ("n_iter", "clusters", "core_points") if k in b}
            print(f"| {algo} | {n:,} | {ms:.1f} | {wall:.1f} | {cpu:.1f} | {ms / wall:.1f}x | {info} | {work} |")
        else:
            print(f"| {algo} | {n:,} | {ms:.1f} | - | - | - | {info} | - |")


if __name__ == "__main__":
    main()
