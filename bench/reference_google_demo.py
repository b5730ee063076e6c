#!/usr/bin/env python3
"""Google's DP clustering demo (google/differential-privacy, learning/clustering/demo/clustering_demo.py) and its README's
benchmark, run with the authors' own code: the reference numbers of dpclust's reproduction (configs/paper/google_demo_k.yaml,
google_demo_eps.yaml and their full grids in configs/paper/full/; reference/published.yaml, paper `google_demo`).

The reference is a checkout of google/differential-privacy the reader has (never vendored here); its learning/ and
python/dp_accounting/ go on sys.path, as for bench/reference_lsh_clustering.py:

    git clone https://github.com/google/differential-privacy REF
    apt-get install python3-numpy python3-scipy python3-sklearn python3-absl python3-attr python3-mpmath
    /usr/bin/python3 bench/reference_google_demo.py --reference REF [--diffprivlib DIR] [--n 20000] [--trials 20] \
        [--sweep k|eps|both] --json demo_reference.json
    /usr/bin/python3 bench/reference_google_demo.py --load demo_reference.json --dpclust-results results/google_demo_k/results.json

Data: the demo's own generator, data_generation.generate_synthetic_dataset(n, 100, 64, cluster_ratio 8, radius 1) (the
demo's flags; numpy's global generator seeded with --data-seed first, which the demo leaves unseeded), one dataset for
every run as the README's "We run each algorithm 20 times on each dataset". dpclust draws the same distribution
(generator ball_mixture) from its own stream, so the two sides cluster two samples of one distribution.

Runs (the demo's): private_lsh_clustering(k, data, DifferentialPrivacyParam(eps, delta=1e-6)) with every other
parameter at its default; the k sweep k = 2, 4, 8, 16, 32, 64 at eps = 1 and the eps sweep eps = 0.1, 0.5, 1, 5, 10, 50,
100 at k = 64 (the demo's inf is left out: dpclust's budgets are finite). Each run seeds numpy's global generator with
1000 + run (the demo does not seed it). With --diffprivlib DIR (a directory holding the package diffprivlib) also IBM
diffprivlib's KMeans(n_clusters=k, epsilon=eps, bounds=(-1, 1)), as the README's benchmark compares it (given the
box of the data's ball, public here).

Measures, the demo's (ClusteringResult and ClusteringMetrics of the reference itself, for both algorithms):
normalised k-means loss = loss / n (the README's "normalized k-means objective"), dominant label accuracy (dpclust's
purity), false match fraction, true non-match fraction; and the seconds of each call (private_lsh_clustering as users
call it, which also labels every point in a Python loop; diffprivlib's fit). Printed per setting: mean, 25th and
75th percentile (numpy's linear rule, the README's band), median; with --dpclust-results, dpclust's trials of the
matching cells beside them and a Mann-Whitney test of the two loss samples. Not a test: nothing asserts.
"""
import argparse
import json
import os
import statistics
import sys
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reference_common as rc  # noqa: E402

K_SWEEP = [2, 4, 8, 16, 32, 64]
EPS_SWEEP = [0.1, 0.5, 1.0, 5.0, 10.0, 50.0, 100.0]
FIXED_EPS, FIXED_K, DELTA = 1.0, 64, 1e-6
DIM, CLUSTERS, RATIO, RADIUS = 100, 64, 8.0, 1.0
MEASURES = ["inertia_per_point", "purity", "false_match_fraction", "true_non_match_fraction"]
# The dpclust series each reference algorithm stands beside (configs/paper/google_demo_*.yaml).
SERIES = {"private_lsh_clustering": "lsh_clustering", "diffprivlib_kmeans": "dp_kmeans_diffprivlib"}


def load_reference(path):
    rc.add_google_clustering(path)
    import warnings
    warnings.filterwarnings("ignore")  # scikit-learn 1.2's FutureWarning about n_init
    from clustering import clustering_algorithm, clustering_params
    from clustering.demo import data_generation
    return clustering_algorithm, clustering_params, data_generation


def demo_measures(algo, data, result):
    m = result.get_clustering_metrics()
    return {"inertia_per_point": float(result.loss) / data.num_points, "purity": float(m.dominant_label_accuracy),
            "false_match_fraction": float(m.false_match_frac), "true_non_match_fraction": float(m.true_nonmatch_frac)}


def settings(sweep, only_k=None, only_eps=None):
    out = []
    if sweep in ("k", "both"):
        out += [("google_demo_k", k, FIXED_EPS) for k in K_SWEEP if not only_k or k in only_k]
    if sweep in ("eps", "both"):
        out += [("google_demo_eps", FIXED_K, eps) for eps in EPS_SWEEP if not only_eps or eps in only_eps]
    return out


def run(ref, args):
    import numpy as np
    algo, params, gen = ref
    np.random.seed(args.data_seed)
    data = gen.generate_synthetic_dataset(args.n, DIM, CLUSTERS, RATIO, RADIUS)
    DiffprivKMeans = None
    if args.diffprivlib:
        rc.add_diffprivlib(args.diffprivlib)
        from diffprivlib.models import KMeans as DiffprivKMeans
    rows = []
    for experiment, k, eps in settings(args.sweep, args.k, args.eps):
        for t in range(args.trials):
            np.random.seed(1000 + t)
            t0 = time.perf_counter()
            result = algo.private_lsh_clustering(k, data, params.DifferentialPrivacyParam(eps, DELTA))
            seconds = time.perf_counter() - t0
            rows.append({"experiment": experiment, "algorithm": "private_lsh_clustering", "k": k, "epsilon": eps, "trial": t,
                         "seconds": seconds, "centres": len(result.centers), **demo_measures(algo, data, result)})
            if DiffprivKMeans is not None:
                np.random.seed(2000 + t)
                t0 = time.perf_counter()
                km = DiffprivKMeans(n_clusters=k, epsilon=eps, bounds=(-RADIUS, RADIUS), random_state=2000 + t).fit(data.datapoints)
                seconds = time.perf_counter() - t0
                result = algo.ClusteringResult(data, km.cluster_centers_)
                rows.append({"experiment": experiment, "algorithm": "diffprivlib_kmeans", "k": k, "epsilon": eps, "trial": t,
                             "seconds": seconds, "centres": len(km.cluster_centers_), **demo_measures(algo, data, result)})
            print(f"  {experiment} k={k} eps={eps} trial {t}: {rows[-1]['seconds']:.2f} s", file=sys.stderr)
        if args.json:  # every finished setting kept: a run stopped midway loses only the setting under way
            save(args.json, summary(args, rows))
    return summary(args, rows)


def summary(args, rows):
    return {"n": args.n, "dim": DIM, "clusters": CLUSTERS, "cluster_ratio": RATIO, "radius": RADIUS, "delta": DELTA,
            "data_seed": args.data_seed, "trials": args.trials, "rows": rows}


def save(path, ref):
    with open(path + ".tmp", "w") as f:
        json.dump(ref, f, indent=1)
    os.replace(path + ".tmp", path)


def percentile(values, q):
    import numpy as np
    return float(np.percentile(values, q))


def dpclust_trials(paths):
    """{(experiment, series, k, eps): {measure: [values]}} of dpclust results files (k absent for a method without k)."""
    out = {}
    for path in paths:
        with open(path) as f:
            doc = json.load(f)
        for cell in doc["cells"]:
            key = (doc.get("experiment", ""), cell["series"], cell["params"].get("k"), cell["params"].get("epsilon"))
            for trial in cell["trials"]:
                for m in MEASURES:
                    v = trial.get("metrics", {}).get(m)
                    if isinstance(v, (int, float)):
                        out.setdefault(key, {}).setdefault(m, []).append(float(v))
    return out


def report(ref, dpclust=None):
    print(f"Google's clustering demo data: n = {ref['n']}, d = {ref['dim']}, {ref['clusters']} clusters, cluster_ratio "
          f"{ref['cluster_ratio']}, radius {ref['radius']}; delta {ref['delta']}; {ref['trials']} runs a setting\n")
    groups = {}
    for r in ref["rows"]:
        groups.setdefault((r["experiment"], r["algorithm"], r["k"], r["epsilon"]), []).append(r)
    print("| experiment | algorithm | k | eps | measure | mean | q25 | q75 | median | dpclust mean | dpclust q25-q75 | Mann-Whitney p |")
    print("|---|---|---:|---:|---|---:|---:|---:|---:|---:|---:|---:|")
    for (experiment, algorithm, k, eps), rows in groups.items():
        theirs = dpclust.get((experiment, SERIES[algorithm], k, eps), {}) if dpclust else {}
        for m in MEASURES:
            v = [r[m] for r in rows if r[m] == r[m]]
            if not v:
                continue
            ours = theirs.get(m, [])
            ours_text = ("-", "-", "-")
            if ours:
                try:
                    p = rc.compare_samples(v, ours)["mannwhitney_pvalue"]
                except Exception:
                    p = float("nan")
                ours_text = (f"{statistics.mean(ours):.4g}", f"{percentile(ours, 25):.4g}-{percentile(ours, 75):.4g}", f"{p:.3g}")
            print(f"| {experiment} | {algorithm} | {k} | {eps:g} | {m} | {statistics.mean(v):.4g} | {percentile(v, 25):.4g} | "
                  f"{percentile(v, 75):.4g} | {statistics.median(v):.4g} | {ours_text[0]} | {ours_text[1]} | {ours_text[2]} |")
    print("\nSeconds per call (median):\n")
    for (experiment, algorithm, k, eps), rows in groups.items():
        print(f"- {experiment} {algorithm} k={k} eps={eps:g}: {statistics.median(r['seconds'] for r in rows):.3f} s")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--reference", default=os.environ.get("DPCLUST_LSH_REFERENCE"),
                    help="a google/differential-privacy checkout (or DPCLUST_LSH_REFERENCE)")
    ap.add_argument("--diffprivlib", help="a directory holding the package diffprivlib (also runs its KMeans)")
    ap.add_argument("--n", type=int, default=20000, help="points (the demo's flag default 100,000; 20,000 here by default)")
    ap.add_argument("--trials", type=int, default=20)
    ap.add_argument("--data-seed", type=int, default=0)
    ap.add_argument("--sweep", choices=["k", "eps", "both"], default="both")
    ap.add_argument("--k", type=int, nargs="+", help="only these k of the k sweep")
    ap.add_argument("--eps", type=float, nargs="+", help="only these eps of the eps sweep (one run at eps 10 takes over a minute)")
    ap.add_argument("--json", help="write the per-run numbers here (after every setting)")
    ap.add_argument("--load", help="read the per-run numbers from here instead of running the reference")
    ap.add_argument("--dpclust-results", nargs="*", default=[], help="dpclust results.json files to compare with")
    args = ap.parse_args()
    if args.load:
        with open(args.load) as f:
            ref = json.load(f)
    else:
        if not args.reference:
            sys.exit("reference_google_demo.py: --reference REF (a google/differential-privacy checkout) or --load FILE")
        ref = run(load_reference(args.reference), args)
    report(ref, dpclust_trials(args.dpclust_results) if args.dpclust_results else None)


if __name__ == "__main__":
    main()
