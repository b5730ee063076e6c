"""What the side-by-side scripts share (bench/reference_*.py): the data of DPM's evaluation, the k-means measures
computed the same way for both implementations, a non-private k-means++ reference, running dpclust and reading its
trials, the reference implementations' import paths, and the summary tables.

Nothing here is a test and nothing asserts a number; the scripts print them. Nothing of the reference
implementations is in this repository: the scripts import them from checkouts the reader has.
"""
import glob
import json
import math
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
import types

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

# DPM's synthetic sets (UzL-PrivSec/clustering-evaluation, datasets.py Synth10D / SynthBig1): scikit-learn
# make_blobs(100000, d, centers=64, center_box=(-100, 100), random_state=42), bounds (-100, 100).
SYNTH = {"synth_10d": 10, "synth_big1": 100}
SYNTH_N, SYNTH_CENTRES, SYNTH_BOX, SYNTH_SEED = 100000, 64, (-100.0, 100.0), 42


def synth(name, out_of_box="keep"):
    """(x, y) of synth_10d / synth_big1. out_of_box: keep (the artifact's data: 1.9% / 27% of the points have a
    coordinate outside the box), clamp (each coordinate clamped into it: dpclust's `clip_to_bounds: clamp`),
    drop (the rows outside it left out: `clip_to_bounds: drop`)."""
    import numpy as np
    from sklearn.datasets import make_blobs
    x, y = make_blobs(SYNTH_N, SYNTH[name], centers=SYNTH_CENTRES, center_box=SYNTH_BOX, random_state=SYNTH_SEED)
    lo, hi = SYNTH_BOX
    if out_of_box == "clamp":
        x = np.clip(x, lo, hi)
    elif out_of_box == "drop":
        keep = np.all((x >= lo) & (x <= hi), axis=1)
        x, y = x[keep], y[keep]
    return np.ascontiguousarray(x), y


def synth_config_entry(name, out_of_box="clamp", indent="  "):
    """The dataset entry of a generated dpclust config for synth_10d / synth_big1 (bit for bit scikit-learn's)."""
    d = SYNTH[name]
    lo, hi = SYNTH_BOX
    clip = {"keep": "", "clamp": f"\n{indent}  clip_to_bounds: clamp", "drop": f"\n{indent}  clip_to_bounds: drop"}[out_of_box]
    return (f"{indent}- name: {name}\n{indent}  generator: {{type: blobs, n_samples: {SYNTH_N}, n_features: {d}, centers: {SYNTH_CENTRES}, "
            f"center_box_lo: {lo}, center_box_hi: {hi}, seed: {SYNTH_SEED}, stream: numpy}}\n"
            f"{indent}  bounds: {[[lo, hi]] * d}{clip}\n")


# --- measures (dpclust's definitions: docs/methods.md, the k-means measures) ------------------------------------------

def nearest(x, centres, chunk=20000):
    """(labels, squared distances) of every point to its nearest centre."""
    import numpy as np
    c = np.asarray(centres, dtype=float)
    cc = (c * c).sum(axis=1)
    labels = np.empty(len(x), dtype=np.int64)
    best = np.empty(len(x))
    for s in range(0, len(x), chunk):
        b = x[s:s + chunk]
        d2 = (b * b).sum(axis=1)[:, None] - 2.0 * b @ c.T + cc[None, :]
        labels[s:s + chunk] = d2.argmin(axis=1)
        best[s:s + chunk] = np.maximum(d2.min(axis=1), 0.0)
    return labels, best


def inertia(x, centres):
    """Sum over the points of the squared distance to the nearest centre (DPM's j_score; Google's loss)."""
    return float(nearest(x, centres)[1].sum())


def kmeans_reference(x, k, restarts=10, seed=0):
    """Non-private scikit-learn k-means++ (greedy seeding, Lloyd, max_iter 300), `restarts` runs of n_init 1:
    [(inertia, centres)], best first. Best of 10 is the denominator of the normalised cost."""
    from sklearn.cluster import KMeans
    runs = []
    for r in range(restarts):
        km = KMeans(n_clusters=k, n_init=1, random_state=seed + r).fit(x)
        runs.append((inertia(x, km.cluster_centers_), km.cluster_centers_))
    return sorted(runs, key=lambda t: t[0])


def purity(labels, y):
    import numpy as np
    total = 0
    for c in np.unique(labels):
        total += np.bincount(y[labels == c]).max()
    return total / len(y)


def accuracy(labels, y):
    """Hungarian matching of clusters to classes (dpclust's `accuracy`)."""
    import numpy as np
    from scipy.optimize import linear_sum_assignment
    cl, ci = np.unique(labels, return_inverse=True)
    yl, yi = np.unique(y, return_inverse=True)
    table = np.zeros((len(cl), len(yl)))
    np.add.at(table, (ci, yi), 1)
    r, c = linear_sum_assignment(-table)
    return table[r, c].sum() / len(y)


def measures(x, y, centres, diagonal, refs, silhouette_seed=0):
    """The measures of one release: inertia, inertia_per_point, normalized_kmeans_cost, silhouette (10,000-point
    sample), purity, accuracy, centre_distance (to every reference clustering, averaged, over the diagonal), k."""
    import numpy as np
    from sklearn.metrics import silhouette_score
    labels, d2 = nearest(x, centres)
    cost = float(d2.sum())
    out = {"inertia": cost, "inertia_per_point": cost / len(x), "normalized_kmeans_cost": cost / refs[0][0], "k": int(len(centres))}
    if len(np.unique(labels)) > 1:
        out["silhouette"] = float(silhouette_score(x, labels, sample_size=min(10000, len(x)), random_state=silhouette_seed))
    if y is not None:
        out["purity"] = float(purity(labels, y))
        out["accuracy"] = float(accuracy(labels, y))
    c = np.asarray(centres, dtype=float)
    dist = 0.0
    for _, ref in refs:
        d = np.sqrt(np.maximum(((c[:, None, :] - ref[None, :, :]) ** 2).sum(-1), 0.0))
        dist += d.min(axis=1).mean()
    out["centre_distance"] = dist / len(refs) / diagonal
    return out


# --- reference implementations: import paths and stand-ins -----------------------------------------------------------

def fast_histogram_standin():
    """histogram1d with fast_histogram 0.12's semantics, in numpy (DPM asks for >= 0.12; Debian 12 has 0.11): bin
    floor((v - lo) * bins / (hi - lo)), the top edge in the last bin, values outside [lo, hi] (and NaN) dropped."""
    import numpy as np

    def histogram1d(x, bins, range, weights=None):
        lo, hi = float(range[0]), float(range[1])
        v = np.asarray(x, dtype=float).ravel()
        keep = (v >= lo) & (v <= hi)
        v = v[keep]
        idx = np.floor((v - lo) * (bins / (hi - lo))).astype(np.int64)
        idx = np.clip(idx, 0, bins - 1)
        w = None if weights is None else np.asarray(weights, dtype=float).ravel()[keep]
        return np.bincount(idx, weights=w, minlength=bins)[:bins].astype(float)

    mod = types.ModuleType("fast_histogram")
    mod.histogram1d = histogram1d
    mod.__version__ = "0.12-standin"
    return mod


def ensure_fast_histogram():
    """fast_histogram >= 0.12 if installed, else the stand-in (so the results do not depend on which is present)."""
    try:
        import fast_histogram
        version = tuple(int(p) for p in fast_histogram.__version__.split(".")[:2])
        if version >= (0, 12):
            return fast_histogram.__version__
    except Exception:
        pass
    sys.modules["fast_histogram"] = fast_histogram_standin()
    return "0.12-standin"


def add_diffprivlib(path):
    """IBM diffprivlib from a checkout (a directory holding the package `diffprivlib`), if it is not installed."""
    if path:
        sys.path.insert(0, path)
    import diffprivlib
    return getattr(diffprivlib, "__version__", "?")


def add_google_clustering(path):
    """google/differential-privacy's learning/clustering and python/dp_accounting from a checkout."""
    for sub in ("learning", os.path.join("python", "dp_accounting")):
        p = os.path.join(path, sub)
        if not os.path.isdir(p):
            sys.exit(f"{p} is missing: expected a google/differential-privacy checkout")
        sys.path.insert(0, p)


# --- dpclust ------------------------------------------------------------------------------------------------------------

def find_dpclust(arg=None):
    """The dpclust binary every bench script runs: `arg` (its --dpclust), else $DPCLUST, else build/ or build-scale/
    of this checkout, else dpclust on the PATH. A binary named by --dpclust or $DPCLUST must be an executable (a
    path, or a name on the PATH): a typo there stops the script rather than timing another build."""
    script = os.path.basename(sys.argv[0]) or "bench"
    for named, how in ((arg, "--dpclust"), (os.environ.get("DPCLUST"), "$DPCLUST")):
        if named:
            found = shutil.which(named)
            if not found:
                sys.exit(f"{script}: {how} {named}: not an executable file")
            return found
    for build in ("build", "build-scale"):
        p = os.path.join(ROOT, build, "experiments", "dpclust")
        if os.access(p, os.X_OK):
            return p
    p = shutil.which("dpclust")
    if p:
        return p
    sys.exit(f"{script}: no dpclust binary: build it (cmake --build build --target dpclust), pass --dpclust PATH or set "
             "DPCLUST")


def run_dpclust(binary, config_text, threads=1):
    """Runs a generated config with `dpclust run` and returns its trials: [{series, dataset, params, seconds, release,
    diagnostics, metrics}] in cell order, trial order (each trial's `timing.method_seconds`: the method alone)."""
    work = tempfile.mkdtemp(prefix="dpclust-bench-")
    try:
        cfg = os.path.join(work, "bench.yaml")
        with open(cfg, "w") as f:
            f.write(config_text)
        out = os.path.join(work, "out")
        p = subprocess.run([binary, "run", cfg, "--out", out, "--threads", str(threads), "--no-progress", "--force"],
                           capture_output=True, text=True)
        if p.returncode != 0:
            sys.exit(f"dpclust run failed ({p.returncode}):\n{p.stderr}")
        rows = []
        for path in sorted(glob.glob(os.path.join(out, "*", "results.json"))):
            with open(path) as f:
                doc = json.load(f)
            for cell in doc["cells"]:
                for trial in cell["trials"]:
                    rows.append({"series": cell["series"], "dataset": cell["dataset"], "params": cell["params"],
                                 "seconds": trial["timing"]["method_seconds"], "release": trial.get("release", {}),
                                 "diagnostics": trial.get("diagnostics", {}), "metrics": trial.get("metrics", {})})
        return rows
    finally:
        shutil.rmtree(work, ignore_errors=True)


def timed(fn, *args, **kwargs):
    t0 = time.perf_counter()
    value = fn(*args, **kwargs)
    return value, time.perf_counter() - t0


# --- summaries ----------------------------------------------------------------------------------------------------------

def describe(values):
    """mean, sd, median, min, max, q1, q3 of a list."""
    v = sorted(values)
    q = statistics.quantiles(v, n=4) if len(v) > 1 else [v[0]] * 3
    return {"n": len(v), "mean": statistics.mean(v), "sd": statistics.stdev(v) if len(v) > 1 else 0.0, "median": statistics.median(v),
            "min": v[0], "max": v[-1], "q1": q[0], "q3": q[2]}


def compare_samples(a, b):
    """Two-sample Kolmogorov-Smirnov and Mann-Whitney p-values of two samples (scipy)."""
    from scipy.stats import ks_2samp, mannwhitneyu
    ks = ks_2samp(a, b)
    return {"ks_statistic": float(ks.statistic), "ks_pvalue": float(ks.pvalue), "mannwhitney_pvalue": float(mannwhitneyu(a, b).pvalue)}


def fmt(x):
    if isinstance(x, str):
        return x
    if x is None or (isinstance(x, float) and math.isnan(x)):
        return "-"
    ax = abs(x)
    return f"{x:.3e}" if ax >= 1e5 or (0 < ax < 1e-3) else f"{x:.4g}"
