#!/usr/bin/env python3
"""Google's DP clustering beside dpclust's lsh_clustering: the same data and parameters, the distribution of the
normalised k-means cost over seeds, and the time per fit.

The reference is google/differential-privacy's learning/clustering (`private_lsh_clustering`), run from a
checkout the reader has (never vendored here):

    git clone https://github.com/google/differential-privacy REF       # or any copy of its two folders
    apt-get install python3-numpy python3-scipy python3-sklearn python3-absl python3-attr python3-mpmath
    /usr/bin/python3 bench/reference_lsh_clustering.py --reference REF [--trials 20] [--epsilon 1] [--k 64]

(`--reference` or the environment variable DPCLUST_LSH_REFERENCE; REF/learning and REF/python/dp_accounting go
on sys.path.) Without a reference only dpclust runs. `--calibration` prints the reference's calibrated sigma /
Delta for the (eps, delta, max_depth) of tests/lsh_clustering/noise_calibration_test.cpp beside dpclust's.

Data: synth_10d of DPM's evaluation (scikit-learn make_blobs, 100,000 x 10, 64 centres, center_box (-100, 100),
random_state 42), which dpclust generates bit for bit (`generator: blobs, stream: numpy`). Both sides get the
same public ball: centred on the origin (the midpoint of the public box [-110, 110]^10, wide enough for every
point) with radius 110 sqrt(10) (the ball holding that box: lsh_clustering's `radius: 0`), eps, delta (the
reference's default 1e-6) and k. The cost of each released set of centres is computed here, the same way for
both (sum of squared distances of the 100,000 points to the nearest centre), and normalised by the best of 10
non-private scikit-learn k-means++ runs (the "normalized k-means loss" of the reference's README).

dpclust runs three times: `sampler: textbook` with `accounting: pld` (the reference's noise: continuous
Gaussian, exact PLD calibration, so slightly less noise than the reference's discretised PLD), the same with
`n_init: 1`, and the default `sampler: secure` (discrete Gaussian, Renyi accountant: about 7% more noise). The
reference's k-means step depends on the scikit-learn it meets (1.2.1, Debian 12's: k-means++ seeded without the
weights, n_init 10; >= 1.3 seeds with the weights; >= 1.4 runs n_init 1): each trial's coreset is therefore also
clustered with weighted seeding, n_init 10 (dpclust's default) and n_init 1, to compare like with like. Times: the reference's
`private_lsh_clustering` as users call it (its ClusteringResult also labels every point and sums the loss in a
Python loop), and its private part alone (calibration, tree, coreset, scikit-learn KMeans on the coreset);
dpclust's `timing.method_seconds` of each trial (labels included), one thread. Not a test: nothing asserts.
"""
import os
os.environ.setdefault("OMP_NUM_THREADS", "1")  # one thread on both sides (scikit-learn's KMeans, dpclust --threads 1)
import argparse
import json
import math
import shutil
import statistics
import subprocess
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reference_common as rc  # noqa: E402

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
BOX = 110.0
D = 10


def synth_10d():
    from sklearn.datasets import make_blobs
    X, _ = make_blobs(n_samples=100000, n_features=D, centers=64, center_box=(-100, 100), random_state=42)
    return X


def cost(X, centres):
    import numpy as np
    c = np.asarray(centres, dtype=np.float64)
    best = np.full(X.shape[0], np.inf)
    for row in c:  # one centre at a time: (n,) memory
        best = np.minimum(best, ((X - row) ** 2).sum(axis=1))
    return float(best.sum())


def baseline_cost(X, k):
    from sklearn.cluster import KMeans
    return KMeans(n_clusters=k, init="k-means++", n_init=10, random_state=0).fit(X).inertia_


def load_reference(path):
    rc.add_google_clustering(path)  # --reference: a google/differential-privacy checkout
    import warnings
    warnings.filterwarnings("ignore")  # scikit-learn 1.2's FutureWarning about n_init
    from clustering import clustering_algorithm, clustering_params, default_clustering_params, privacy_calculator
    return clustering_algorithm, clustering_params, default_clustering_params, privacy_calculator


def run_reference(ref, X, k, epsilon, delta, trials):
    import numpy as np
    import sklearn.cluster
    algo, params, defaults, calc = ref
    radius = BOX * math.sqrt(D)
    data = params.Data(X, radius)
    dp = params.DifferentialPrivacyParam(epsilon, delta)
    rows = []
    for t in range(trials):
        np.random.seed(1000 + t)
        t0 = time.perf_counter()
        result = algo.private_lsh_clustering(k, data, dp)
        whole = time.perf_counter() - t0
        # The private part alone, as private_lsh_clustering runs it (its ClusteringResult's per-point Python
        # labelling left out): calibration, automatic tree parameters, coreset, KMeans on the coreset.
        np.random.seed(2000 + t)
        t0 = time.perf_counter()
        pcalc = calc.PrivacyCalculator(dp, radius, 20, params.PrivacyCalculatorMultiplier())
        tree_param, count = defaults.default_tree_param(k, data, pcalc, 20)
        from clustering import coreset_params
        cp = coreset_params.CoresetParam(pcalc, tree_param, "bench", radius)
        coreset = algo.get_private_coreset(params.Data(data.clip_by_radius(), radius), cp, count)
        centres = sklearn.cluster.KMeans(n_clusters=min(k, len(coreset.datapoints)), init="k-means++").fit(
            coreset.datapoints, sample_weight=coreset.weights).cluster_centers_
        private_part = time.perf_counter() - t0
        # The same coreset clustered as newer scikit-learn would (>= 1.3 seeds k-means++ with sample_weight;
        # >= 1.4 runs n_init = 1): the integer weights as repeated points make scikit-learn 1.2.1's unweighted
        # seeding and Lloyd exactly the weighted ones.
        repeated = np.repeat(coreset.datapoints, np.maximum(coreset.weights, 0).astype(np.int64), axis=0)
        kk = min(k, len(coreset.datapoints))
        weighted10 = sklearn.cluster.KMeans(n_clusters=kk, init="k-means++", n_init=10).fit(repeated).cluster_centers_
        weighted1 = sklearn.cluster.KMeans(n_clusters=kk, init="k-means++", n_init=1).fit(repeated).cluster_centers_
        rows.append({"cost": cost(X, result.centers), "cost_private_part": cost(X, centres),
                     "cost_weighted_seeding": cost(X, weighted10), "cost_sklearn_1_4": cost(X, weighted1), "seconds": whole,
                     "seconds_private_part": private_part, "centres": len(result.centers)})
        print(f"  reference trial {t}: {whole:.2f} s ({private_part:.2f} s private part)", file=sys.stderr)
    return rows


def config_text(k, epsilon, delta, trials, sampler, accountant, n_init=10):
    bounds = "[" + ", ".join([f"[{-BOX}, {BOX}]"] * D) + "]"
    return f"""# generated by bench/reference_lsh_clustering.py
experiment: lsh_reference_bench
seed: 0
trials: {trials}
datasets:
  - name: synth_10d
    generator: {{type: blobs, n_samples: 100000, n_features: {D}, centers: 64, center_box_lo: -100, center_box_hi: 100, seed: 42, stream: numpy}}
    bounds: {bounds}
methods:
  - method: lsh_clustering
    params: {{k: {k}, epsilon: {epsilon}, delta: {delta}, sampler: {sampler}, accounting: {accountant}, n_init: {n_init}}}
"""


def run_dpclust(dpclust, X, k, epsilon, delta, trials, sampler, accountant, n_init):
    work = tempfile.mkdtemp(prefix="dpclust-lsh-bench-")
    try:
        cfg = os.path.join(work, "bench.yaml")
        with open(cfg, "w") as f:
            f.write(config_text(k, epsilon, delta, trials, sampler, accountant, n_init))
        out = os.path.join(work, "out")
        p = subprocess.run([dpclust, "run", cfg, "--out", out, "--threads", "1", "--no-progress", "--force"],
                           capture_output=True, text=True)
        if p.returncode != 0:
            sys.exit(f"dpclust run failed ({p.returncode}):\n{p.stderr}")
        rows = []
        for root, _, files in os.walk(out):
            for name in files:
                if not name.endswith(".json") or name in ("results.json", "manifest.json", "run.json"):
                    continue
                with open(os.path.join(root, name)) as f:
                    cell = json.load(f)
                for trial in cell.get("trials", []) if isinstance(cell, dict) else []:
                    centres = trial.get("release", {}).get("centers")
                    if centres is None:
                        continue
                    rows.append({"cost": cost(X, centres), "seconds": trial["timing"]["method_seconds"], "centres": len(centres)})
        if len(rows) != trials:
            sys.exit(f"reference_lsh_clustering.py: found {len(rows)} dpclust trials in {out}, expected {trials}")
        return rows
    finally:
        shutil.rmtree(work, ignore_errors=True)


def summary(name, values):
    q = statistics.quantiles(values, n=4) if len(values) > 1 else [values[0]] * 3
    sd = statistics.stdev(values) if len(values) > 1 else 0.0
    return f"| {name} | {len(values)} | {statistics.mean(values):.4f} | {sd:.4f} | {q[0]:.4f} | {q[1]:.4f} | {q[2]:.4f} |"


def calibration_table(ref):
    _, params, _, calc = ref
    sys.path.insert(0, os.path.join(ROOT, "python"))
    print("| eps | delta | max_depth | reference sigma/Delta (dp_accounting PLD) |")
    print("|---:|---:|---:|---:|")
    for eps, delta, depth in [(1.0, 1e-6, 20), (0.1, 1e-6, 20), (0.5, 1e-6, 20), (2.0, 1e-6, 20), (1.0, 1e-5, 20),
                              (1.0, 1 / (100000 * math.sqrt(100000)), 20), (1.0, 1e-6, 10), (4.0, 1e-6, 20)]:
        pc = calc.PrivacyCalculator(params.DifferentialPrivacyParam(eps, delta), 1.0, depth, params.PrivacyCalculatorMultiplier())
        print(f"| {eps!r} | {delta!r} | {depth} | {pc.average_privacy_param.gaussian_standard_deviation!r} |")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--reference", default=os.environ.get("DPCLUST_LSH_REFERENCE"),
                    help="a google/differential-privacy checkout (or DPCLUST_LSH_REFERENCE)")
    ap.add_argument("--dpclust", help="the dpclust binary (default: build/experiments/dpclust, $DPCLUST, PATH)")
    ap.add_argument("--trials", type=int, default=20)
    ap.add_argument("--epsilon", type=float, default=1.0)
    ap.add_argument("--delta", type=float, default=1e-6, help="the reference's default 1e-6")
    ap.add_argument("--k", type=int, default=64)
    ap.add_argument("--calibration", action="store_true", help="print the reference's calibration table and stop")
    ap.add_argument("--json", help="also write the per-trial numbers here")
    args = ap.parse_args()

    ref = load_reference(args.reference) if args.reference else None
    if args.calibration:
        if ref is None:
            sys.exit("--calibration needs --reference")
        calibration_table(ref)
        return
    dpclust = rc.find_dpclust(args.dpclust)
    X = synth_10d()
    base = baseline_cost(X, args.k)
    print(f"synth_10d: 100000 x {D}, k = {args.k}, eps = {args.epsilon}, delta = {args.delta}, {args.trials} trials; "
          f"non-private k-means++ (best of 10) cost {base:.6g}", file=sys.stderr)
    results = {}
    if ref is not None:
        results["reference (private_lsh_clustering)"] = run_reference(ref, X, args.k, args.epsilon, args.delta, args.trials)
    else:
        print("no --reference: dpclust only", file=sys.stderr)
    results["dpclust textbook + pld"] = run_dpclust(dpclust, X, args.k, args.epsilon, args.delta, args.trials, "textbook", "pld", 10)
    results["dpclust textbook + pld, n_init 1"] = run_dpclust(dpclust, X, args.k, args.epsilon, args.delta, args.trials, "textbook", "pld", 1)
    results["dpclust secure + rdp"] = run_dpclust(dpclust, X, args.k, args.epsilon, args.delta, args.trials, "secure", "rdp", 10)

    print("\nNormalised k-means cost (cost / best non-private k-means++ cost):\n")
    print("| run | trials | mean | sd | q1 | median | q3 |")
    print("|---|---:|---:|---:|---:|---:|---:|")
    for name, rows in results.items():
        print(summary(name, [r["cost"] / base for r in rows]))
        if "cost_private_part" in rows[0]:
            for key, label in (("cost_private_part", "(private part, own seeds: scikit-learn 1.2.1 KMeans, n_init 10)"),
                               ("cost_weighted_seeding", "(same coresets: weighted k-means++ seeding, n_init 10)"),
                               ("cost_sklearn_1_4", "(same coresets: weighted seeding, n_init 1, as scikit-learn >= 1.4)")):
                print(summary(name.replace("(private_lsh_clustering)", label), [r[key] / base for r in rows]))
    print("\nSeconds per fit:\n")
    print("| run | median | mean | min | max |")
    print("|---|---:|---:|---:|---:|")
    medians = {}
    for name, rows in results.items():
        for key, label in (("seconds", name), ("seconds_private_part", name.replace("(private_lsh_clustering)", "(private part)"))):
            if key not in rows[0]:
                continue
            s = [r[key] for r in rows]
            medians[label] = statistics.median(s)
            print(f"| {label} | {statistics.median(s):.3f} | {statistics.mean(s):.3f} | {min(s):.3f} | {max(s):.3f} |")
    if ref is not None:
        print("\nSpeed-up (median reference seconds / median dpclust seconds):\n")
        for r_name in [n for n in medians if n.startswith("reference")]:
            for d_name in [n for n in medians if n.startswith("dpclust")]:
                print(f"- {r_name} / {d_name}: {medians[r_name] / medians[d_name]:.1f}x")
        try:
            from scipy.stats import ks_2samp, mannwhitneyu
            a = [r["cost"] / base for r in results["reference (private_lsh_clustering)"]]
            for d_name in [n for n in results if n.startswith("dpclust")]:
                b = [r["cost"] / base for r in results[d_name]]
                print(f"- reference as called vs {d_name}: Kolmogorov-Smirnov p = {ks_2samp(a, b).pvalue:.3g}, "
                      f"Mann-Whitney p = {mannwhitneyu(a, b).pvalue:.3g}")
            # Like against like: the reference's coresets clustered as dpclust clusters them.
            ref_rows = results["reference (private_lsh_clustering)"]
            for key, label, d_name in (("cost_weighted_seeding", "weighted seeding, n_init 10", "dpclust textbook + pld"),
                                       ("cost_sklearn_1_4", "weighted seeding, n_init 1", "dpclust textbook + pld, n_init 1")):
                a = [r[key] / base for r in ref_rows]
                b = [r["cost"] / base for r in results[d_name]]
                print(f"- reference coresets ({label}) vs {d_name}: Kolmogorov-Smirnov p = {ks_2samp(a, b).pvalue:.3g}, "
                      f"Mann-Whitney p = {mannwhitneyu(a, b).pvalue:.3g}")
        except ImportError:
            pass
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"baseline_cost": base, "results": results}, f, indent=1)


if __name__ == "__main__":
    main()
