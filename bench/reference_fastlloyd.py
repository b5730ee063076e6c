#!/usr/bin/env python3
"""FastLloyd (Diaa, Humphries & Kerschbaum, USENIX Security 2025) side by side: the authors' code and dpclust's
`fastlloyd` on the same data and public information, over seeds; the inertia distributions and the time per fit.

The reference is the authors' Python code (github.com/D-Diaa/FastLloyd, central path: utils/protocols.py local_proto
with one client, as their experiments.py runs a configuration for one seed), imported from a checkout the reader has
(never vendored here: the repository has no licence), with IBM diffprivlib (0.6.x, its Laplace and GaussianAnalytic):

    /usr/bin/python3 bench/reference_fastlloyd.py --reference ~/src/FastLloyd --diffprivlib ~/src/differential-privacy-library
    (or DPCLUST_FASTLLOYD_REFERENCE and DPCLUST_DIFFPRIVLIB; without a reference only dpclust runs)
    apt-get install python3-numpy python3-scipy python3-sklearn python3-pandas python3-matplotlib python3-tqdm

Both sides get the same public information: the public box (each column mapped to [-1, 1] by it: the reference's
normalize with the box in place of the data's own min and max, which is what makes it public), k, epsilon, the
authors' FastLloyd setting (analytic Gaussian, radius rule diagonal_then_frac with alpha 0.8, fold, rho 0.225), n
(public: the reference's calculate_iters and its delta use the true n; dpclust gets n_public = n and delta =
1 / (n ln n), so both choose the same T at the same delta). The data: synth_10d (DPM's: scikit-learn make_blobs(
100000, 10, centers=64, center_box=(-100, 100), random_state=42), the 1.9% of coordinates outside the box
[-100, 100] clamped into it, k = 64) and scikit-learn's digits (1,797 x 64, the pixels' public range [0, 16],
k = 10). Each set of released centres is scored here, the same way for both: the inertia of the (clamped) data
(sum of squared distances to the nearest centre), and that over the best of --kmeans-restarts non-private
k-means++ runs.

dpclust runs three ways (`dpclust run`, one thread, seeds 0 .. S-1 as the reference's): the default private
release (`sampler: secure`: exact discrete Gaussians calibrated through zCDP, a few percent more noise than the
analytic sigma), `sampler: textbook` (the authors' continuous analytic Gaussian), and `variant: authors` (their
noise streams: iteration i's sums and counts from one generator seeded with seed x i, truncated toward zero; an
empty cluster counted 1; division by N~ + 1e-9). The reference's time per fit is local_proto alone (the data
already scaled), dpclust's each trial's `timing.method_seconds` (the scaling and the final nearest-centre labels,
which the default metrics read, included). Both are wall-clock times: on a shared machine a fit of a few milliseconds is often descheduled
for longer than it runs, so the table gives the fastest fit beside the median, and the speed-up of both.

Not a test: nothing here asserts a number; it prints them.
"""
import argparse
import contextlib
import math
import os
import shutil
import statistics
import sys
import tempfile
import time

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reference_common as rc  # noqa: E402

SETS = {
    # name: (k, box)
    "synth_10d": (64, (-100.0, 100.0)),
    "digits": (10, (0.0, 16.0)),
}
# The authors' FastLloyd setting (experiments.py's command line; configs/params.py).
ALPHA, RHO = 0.8, 0.225


def load_set(name):
    import numpy as np
    if name == "synth_10d":
        x, _ = rc.synth("synth_10d", out_of_box="clamp")
        return x
    from sklearn.datasets import load_digits
    return np.ascontiguousarray(load_digits().data, dtype=np.float64)


# --- the authors' code ---------------------------------------------------------------------------------------------

def load_reference(path, diffprivlib):
    """The authors' modules. Their configs/defaults.py lists ./data at import: imported from an empty scratch folder,
    so that nothing is written into the reader's checkout."""
    if not os.path.isfile(os.path.join(path, "utils", "protocols.py")):
        sys.exit(f"{path}: expected a D-Diaa/FastLloyd checkout (utils/protocols.py)")
    rc.add_diffprivlib(diffprivlib)
    sys.path.insert(0, path)
    scratch = tempfile.mkdtemp(prefix="fastlloyd-import-")
    os.makedirs(os.path.join(scratch, "data"))
    cwd = os.getcwd()
    os.chdir(scratch)
    try:
        import configs
        import data_io
        import utils.protocols
    finally:
        os.chdir(cwd)
        shutil.rmtree(scratch, ignore_errors=True)
    return configs, data_io, utils.protocols


def run_reference(ref, x, k, box, epsilon, seeds):
    import numpy as np
    configs, data_io, protocols = ref
    n, d = x.shape
    lo, hi = box
    # normalize(values, fixed=True) with the public box: to [-1, 1], then their 16-bit fixed point.
    values = data_io.to_fixed(np.clip((x - lo) / (hi - lo), 0.0, 1.0) * 2 - 1)
    rows = []
    for s in seeds:
        params = configs.Params(num_clients=1, k=k, dim=d, data_size=n, dp="gaussiananalytic", eps=epsilon,
                                method="diagonal_then_frac", post="fold", delay=0, rho=RHO)
        params.alpha = ALPHA
        params.calculate_iters()
        params.seed = s
        iters = params.iters
        np.random.seed(s)  # shuffle_and_split's global generator (one client: the order does not change the sums)
        value_lists = data_io.shuffle_and_split(values.copy(), 1, np.ones(1))
        with open(os.devnull, "w") as sink, contextlib.redirect_stderr(sink):  # their tqdm bar
            t0 = time.perf_counter()
            centroids, _ = protocols.local_proto(value_lists, params, method="unmasked")
            seconds = time.perf_counter() - t0
        centres = (data_io.unscale(centroids) + 1.0) / 2.0 * (hi - lo) + lo
        rows.append({"seed": s, "seconds": seconds, "inertia": rc.inertia(x, centres), "iterations": int(iters)})
        print(f"  reference seed {s}: inertia {rows[-1]['inertia']:.4e}, T {iters}, {seconds:.2f} s", file=sys.stderr, flush=True)
    return rows


# --- dpclust -------------------------------------------------------------------------------------------------------

SERIES = {
    "dpclust secure": "{sampler: secure}",
    "dpclust textbook": "{sampler: textbook}",
    "dpclust variant authors": "{sampler: textbook, variant: authors}",
}


def dataset_entry(name, x, work):
    k, (lo, hi) = SETS[name]
    if name == "synth_10d":
        return rc.synth_config_entry("synth_10d", out_of_box="clamp")
    import numpy as np
    path = os.path.join(work, name + ".csv")
    np.savetxt(path, x, delimiter=",", fmt="%.17g")
    bounds = [[lo, hi]] * x.shape[1]
    return f"  - name: {name}\n    file: {path}\n    bounds: {bounds}\n"


def run_dpclust(binary, name, x, epsilon, seeds):
    n, d = x.shape
    k, _ = SETS[name]
    delta = 1.0 / (n * math.log(n))
    work = tempfile.mkdtemp(prefix="fastlloyd-bench-")
    try:
        methods = "".join(
            f"  - {{method: fastlloyd, as: {label.replace(' ', '_')}, params: {extra}}}\n" for label, extra in SERIES.items())
        text = (f"# generated by bench/reference_fastlloyd.py\nexperiment: fastlloyd_reference\nseeds: {list(seeds)}\n"
                f"datasets:\n{dataset_entry(name, x, work)}"
                f"params: {{k: {k}, epsilon: {epsilon}, delta: {delta!r}, n_source: public, n_public: {n}}}\n"
                f"methods:\n{methods}")
        trials = rc.run_dpclust(binary, text, threads=1)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    out = {}
    for label in SERIES:
        rows = [t for t in trials if t["series"] == label.replace(" ", "_")]
        out[label] = [{"seconds": t["seconds"], "inertia": rc.inertia(x, t["release"]["centers"])} for t in rows]
        if len(out[label]) != len(seeds):
            sys.exit(f"{label}: {len(out[label])} trials, expected {len(seeds)}")
    return out


# --- the table -----------------------------------------------------------------------------------------------------

def table(name, x, results, base):
    n, d = x.shape
    print(f"\n### {name} ({n} x {d}, k = {SETS[name][0]}, box {SETS[name][1]})\n")
    print(f"non-private k-means++ (best of restarts): inertia {base:.4e}\n")
    print("| implementation | fits | median inertia [q1, q3] | median / k-means++ | Mann-Whitney p vs reference | s per fit: median (min) | "
          "speed-up: medians (mins) |")
    print("|---|---:|---|---:|---:|---:|---:|")
    ref = results.get("reference")
    for label, rows in results.items():
        v = [r["inertia"] for r in rows]
        t, fastest = statistics.median([r["seconds"] for r in rows]), min(r["seconds"] for r in rows)
        s = rc.describe(v)
        p = speed = "-"
        if ref is not None and label != "reference":
            p = f"{rc.compare_samples([r['inertia'] for r in ref], v)['mannwhitney_pvalue']:.3f}"
            ref_seconds = [r["seconds"] for r in ref]
            speed = f"{statistics.median(ref_seconds) / t:.0f}x ({min(ref_seconds) / fastest:.0f}x)"
        print(f"| {label} | {len(v)} | {s['median']:.4e} [{s['q1']:.3e}, {s['q3']:.3e}] | {s['median'] / base:.2f} | {p} | "
              f"{t:.4f} ({fastest:.4f}) | {speed} |")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--reference", default=os.environ.get("DPCLUST_FASTLLOYD_REFERENCE"),
                    help="a D-Diaa/FastLloyd checkout (or DPCLUST_FASTLLOYD_REFERENCE)")
    ap.add_argument("--diffprivlib", default=os.environ.get("DPCLUST_DIFFPRIVLIB"),
                    help="a directory holding the package diffprivlib, if it is not installed (or DPCLUST_DIFFPRIVLIB)")
    ap.add_argument("--dpclust", help="the dpclust binary (default: build/experiments/dpclust, $DPCLUST, PATH)")
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--epsilon", type=float, default=1.0)
    ap.add_argument("--datasets", nargs="+", default=list(SETS), choices=list(SETS))
    ap.add_argument("--kmeans-restarts", type=int, default=3)
    args = ap.parse_args()

    ref = load_reference(args.reference, args.diffprivlib) if args.reference else None
    if ref is None:
        print("no --reference: dpclust only", file=sys.stderr)
    binary = rc.find_dpclust(args.dpclust)
    seeds = range(args.seeds)
    print(f"FastLloyd, eps {args.epsilon}, {args.seeds} seeds; delta = 1 / (n ln n) on the public n")
    for name in args.datasets:
        x = load_set(name)
        k, box = SETS[name]
        base = rc.kmeans_reference(x, k, restarts=args.kmeans_restarts)[0][0]
        results = {}
        if ref is not None:
            results["reference"] = run_reference(ref, x, k, box, args.epsilon, seeds)
        results.update(run_dpclust(binary, name, x, args.epsilon, seeds))
        table(name, x, results, base)


if __name__ == "__main__":
    main()
