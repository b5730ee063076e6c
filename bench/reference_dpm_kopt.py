#!/usr/bin/env python3
"""DPM's evaluation ("KOpt": Table 2 and Figure 1 of Liebenow et al., CCS 2024) run with the authors' own code, and
compared with dpclust's reproduction (configs/paper/dpm_kopt.yaml, configs/paper/full/dpm_kopt_full.yaml).

The reference is the artifact `UzL-PrivSec/clustering-evaluation` (experiments.py "KOpt", algorithms.py, datasets.py)
as the reader has it checked out with its submodules (clustering_algorithms/dpm = UzL-PrivSec/dp-mondrian-clustering,
clustering_algorithms/lshsplits = google/differential-privacy); nothing of it is in this repository:

    git clone --recursive https://github.com/UzL-PrivSec/clustering-evaluation ART
    /usr/bin/python3 bench/reference_dpm_kopt.py --artifact ART --diffprivlib DIR --reps 20 --save kopt_reference.json
    /usr/bin/python3 bench/reference_dpm_kopt.py --load kopt_reference.json --dpclust-results results/dpm_kopt/results.json

Each algorithm is the artifact's own function (algorithms.kmeans, dplloyd, lshsplits, dpm) called as its KOpt
experiment calls it: eps 1, delta = 1 / (n sqrt n), k = the dataset's number of clusters; EM-MC ("does not finish
within 24 h", the artifact's README) is left out. Only its scoring is replaced: algorithms.metrics.get_all_scores
returns the centres, which this script scores the way dpclust does (reference_common.measures: inertia = the sum of
the squared distances to the nearest centre, as the artifact's j_score; purity = the artifact's "accuracy"; the
Hungarian accuracy; silhouette on 10,000 points; centre_distance to ten scikit-learn k-means++ runs, as dpclust
computes it, instead of the artifact's pickled top-20 clusterings, which are never unpickled here). Every fit seeds
numpy's global RandomState with its repetition number first (the artifact draws unseeded from it).

Data: synth_10d and synth_big1 from the artifact's datasets.py (scikit-learn make_blobs; the points outside the box
(-100, 100) are kept, as the artifact keeps them); uci_letters from the UCI file letter-recognition.data in its
original row order (--letters; default DATA_ROOT/uci/letter-recognition.data, `dpclust data fetch letter`),
resampled by the artifact's own datasets.uciLetters (720 a class, numpy default_rng(42), then permuted) from the
(x, y) pickle its init.py would write, which this script writes itself; uci_gas_emissions from the UCI zip's
gt_2011..gt_2015.csv (--gas DIR; not fetched here). fast_histogram >= 0.12 (DPM asks for it) or a stand-in with its
semantics (0.11 on the supported platform, Debian 12).

With --dpclust-results the script prints, per dataset and algorithm, the reference's and dpclust's mean (sd) of every
measure, a Kolmogorov-Smirnov test of the two inertia samples, the median seconds per fit and their ratio, and DPM's
reduction of the inertia gap to k-means++ against LSH-splits (the abstract's claim) for both. Not a test.
"""
import argparse
import json
import math
import os
import pickle
import statistics
import sys
import tempfile
import types

import reference_common as rc

ALGORITHMS = ["kmeans", "dplloyd", "lshsplits", "dpm"]
# The dpclust series that reproduces each artifact algorithm (configs/paper/dpm_kopt.yaml).
SERIES = {"kmeans": "kmeans", "dplloyd": "dp_kmeans", "lshsplits": "lsh_splits", "dpm": "dpm"}
MEASURES = ["inertia", "normalized_kmeans_cost", "silhouette", "purity", "accuracy", "centre_distance", "k"]


def load_artifact(path, diffprivlib):
    """The artifact's modules `algorithms` and `datasets`, with their imports resolved from its checkout."""
    rc.add_diffprivlib(diffprivlib)
    rc.ensure_fast_histogram()
    rc.add_google_clustering(os.path.join(path, "clustering_algorithms", "lshsplits"))
    if not os.path.isfile(os.path.join(path, "clustering_algorithms", "emmc", "emmc.py")):
        # EM-MC is not run (it "does not finish within 24 h"); algorithms.py imports it, so a placeholder stands in.
        for name in ("clustering_algorithms.emmc", "clustering_algorithms.emmc.emmc"):
            sys.modules[name] = types.ModuleType(name)
        sys.modules["clustering_algorithms.emmc.emmc"].EMMC = None
    sys.path.insert(0, path)
    import algorithms
    import datasets
    algorithms.metrics.get_all_scores = lambda dataset, centers: centers
    return algorithms, datasets


def read_letters(path):
    """x (20000 x 16 floats) and y (letter index, A = 0) of UCI's letter-recognition.data, in its row order; a header
    line (as some copies have) is skipped."""
    import numpy as np
    from string import ascii_uppercase
    x, y = [], []
    with open(path) as f:
        for line in f:
            parts = line.strip().split(",")
            if len(parts) != 17 or parts[0] not in ascii_uppercase:
                continue
            y.append(ascii_uppercase.index(parts[0]))
            x.append([float(v) for v in parts[1:]])
    return np.array(x), np.array(y, dtype=float)


def read_gas(directory):
    import numpy as np
    rows = []
    for name in sorted(os.listdir(directory)):
        if name.endswith(".csv"):
            with open(os.path.join(directory, name)) as f:
                rows += [[float(v) for v in line.strip().split(",")] for line in f.readlines()[1:] if line.strip()]
    x = np.array(rows)
    return x, np.zeros(len(x))


def artifact_dataset(datasets, name, letters, gas):
    """The artifact's _Dataset; the UCI sets through its own loaders, from a pickle written here."""
    if name == "synth_10d":
        return datasets.Synth10D()
    if name == "synth_big1":
        return datasets.SynthBig1()
    work = tempfile.mkdtemp(prefix="dpm-kopt-")
    cwd = os.getcwd()
    try:
        if name == "uci_letters":
            os.makedirs(os.path.join(work, "data", "dts", "uciLetters"))
            with open(os.path.join(work, "data", "dts", "uciLetters", "uciLetters.pkl"), "wb") as f:
                pickle.dump(read_letters(letters), f)
            os.chdir(work)
            return datasets.uciLetters()
        if name == "uci_gas_emissions":
            os.makedirs(os.path.join(work, "data", "dts", "uciGasEmissions"))
            with open(os.path.join(work, "data", "dts", "uciGasEmissions", "uciGasEmissions.pkl"), "wb") as f:
                pickle.dump(read_gas(gas), f)
            os.chdir(work)
            return datasets.uciGasEmissions()
    finally:
        os.chdir(cwd)
    raise SystemExit(f"unknown dataset {name}")


def run_reference(args, doc):
    import numpy as np
    algorithms, datasets = load_artifact(args.artifact, args.diffprivlib)
    for name in args.datasets:
        if name == "uci_letters" and not (args.letters and os.path.isfile(args.letters)):
            print(f"{name}: not run (no letter-recognition.data: `dpclust data fetch letter`, or --letters FILE)", flush=True)
            continue
        if name == "uci_gas_emissions" and not (args.gas and os.path.isdir(args.gas)):
            print(f"{name}: not run (no gt_20xx.csv: unzip UCI's dataset 551 into a directory and pass --gas DIR)", flush=True)
            continue
        ds = artifact_dataset(datasets, name, args.letters, args.gas)
        x = np.ascontiguousarray(ds.data)
        y = ds.y.astype(np.int64) if name != "uci_gas_emissions" else None
        delta = 1 / (ds.num_points * np.sqrt(ds.num_points))
        entry = doc["datasets"].setdefault(name, {"n": int(x.shape[0]), "d": int(x.shape[1]), "k": int(ds.num_clusters), "delta": delta,
                                                  "bounds": list(ds.bounds), "fits": {}})
        if "reference_inertia" not in entry:
            refs = rc.kmeans_reference(x, ds.num_clusters, args.kmeans_restarts)
            entry["reference_inertia"] = [r[0] for r in refs]
            entry["reference_centres"] = [r[1].tolist() for r in refs]
        refs = [(i, np.array(c)) for i, c in zip(entry["reference_inertia"], entry["reference_centres"])]
        diagonal = (ds.bounds[1] - ds.bounds[0]) * math.sqrt(x.shape[1])
        print(f"{name}: {x.shape}, k {ds.num_clusters}, delta {delta:.3e}; k-means++ best of {len(refs)}: {refs[0][0]:.4e}", flush=True)
        for algo in args.algorithms:
            fits = entry["fits"].setdefault(algo, [])
            for rep in range(len(fits), args.reps):
                np.random.seed(rep)
                centres, seconds = rc.timed(getattr(algorithms, algo), ds, eps=args.epsilon, delta=delta, k=ds.num_clusters)
                centres = np.asarray(centres, dtype=float)
                m = rc.measures(x, y, centres, diagonal, refs)
                fits.append({"rep": rep, "seconds": seconds, "centres": centres.tolist(), **m})
                print(f"  {algo} rep {rep}: inertia {m['inertia']:.4e}, k {m['k']}, {seconds:.2f} s", flush=True)
                if args.save:
                    save(doc, args.save)


def save(doc, path):
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        json.dump(doc, f)
    os.replace(tmp, path)


def dpclust_trials(path):
    """{(dataset, series): {measure: [values], "seconds": [...]}} of a dpclust results.json."""
    with open(path) as f:
        doc = json.load(f)
    out = {}
    for cell in doc["cells"]:
        d = out.setdefault((cell["dataset"], cell["series"]), {})
        for t in cell["trials"]:
            for k, v in t.get("metrics", {}).items():
                if isinstance(v, (int, float)):
                    d.setdefault(k, []).append(float(v))
            d.setdefault("seconds", []).append(t["timing"]["method_seconds"])
            if "centers" in t.get("release", {}):
                d.setdefault("k", []).append(len(t["release"]["centers"]))
    return out


def gap_reduction(means):
    """1 - (DPM - k-means++) / (LSH-splits - k-means++) of mean inertias."""
    try:
        return 1 - (means["dpm"] - means["kmeans"]) / (means["lshsplits"] - means["kmeans"])
    except (KeyError, ZeroDivisionError):
        return float("nan")


def report(doc, dpclust_path):
    ours = dpclust_trials(dpclust_path) if dpclust_path else {}
    print("\n| dataset | algorithm | implementation | fits | " + " | ".join(MEASURES) + " | s per fit (median) |")
    print("|---|---|---|---|" + "---|" * len(MEASURES) + "---|")
    for name, entry in doc["datasets"].items():
        ref_means, our_means = {}, {}
        for algo, fits in entry["fits"].items():
            if not fits:
                continue

            def cell(m):
                sd = statistics.stdev(f[m] for f in fits) if len(fits) > 1 else 0
                return f"{rc.fmt(statistics.mean(f[m] for f in fits))} ({rc.fmt(sd)})"
            cells = [cell(m) if all(m in f for f in fits) else "-" for m in MEASURES]
            ref_means[algo] = statistics.mean(f["inertia"] for f in fits)
            print(f"| {name} | {algo} | authors' code | {len(fits)} | " + " | ".join(cells) +
                  f" | {statistics.median(f['seconds'] for f in fits):.3f} |")
            t = ours.get((name, SERIES[algo]))
            if t:
                cells = [f"{rc.fmt(statistics.mean(t[m]))} ({rc.fmt(statistics.stdev(t[m]) if len(t[m]) > 1 else 0)})" if m in t else "-"
                         for m in MEASURES]
                our_means[algo] = statistics.mean(t["inertia"])
                ks = rc.compare_samples([f["inertia"] for f in fits], t["inertia"]) if len(t["inertia"]) > 1 else None
                speed = statistics.median(f["seconds"] for f in fits) / statistics.median(t["seconds"])
                print(f"| {name} | {algo} | dpclust `{SERIES[algo]}` | {len(t['inertia'])} | " + " | ".join(cells) +
                      f" | {statistics.median(t['seconds']):.3f} ({speed:.0f}x faster" +
                      (f"; inertia KS p = {ks['ks_pvalue']:.2g}) |" if ks else ") |"))
        print(f"| {name} | DPM's inertia-gap reduction against LSH-splits | authors' code: {gap_reduction(ref_means):.1%}"
              + (f"; dpclust: {gap_reduction(our_means):.1%}" if our_means else "") + " |")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--artifact", default=os.environ.get("DPCLUST_DPM_ARTIFACT"), help="clustering-evaluation checkout (with submodules)")
    ap.add_argument("--diffprivlib", default=os.environ.get("DPCLUST_DIFFPRIVLIB"), help="directory holding diffprivlib, if not installed")
    ap.add_argument("--datasets", default="synth_10d,uci_letters,synth_big1")
    ap.add_argument("--algorithms", default=",".join(ALGORITHMS))
    ap.add_argument("--letters", help="UCI letter-recognition.data (default: DATA_ROOT/uci/letter-recognition.data)")
    ap.add_argument("--gas", help="directory of UCI's gt_2011.csv .. gt_2015.csv")
    ap.add_argument("--reps", type=int, default=20, help="fits per dataset and algorithm (the artifact's 20)")
    ap.add_argument("--epsilon", type=float, default=1.0)
    ap.add_argument("--kmeans-restarts", type=int, default=10)
    ap.add_argument("--save", help="write every fit here (and resume from it)")
    ap.add_argument("--load", help="read the fits from a file --save wrote (no reference run)")
    ap.add_argument("--dpclust-results", help="a dpclust results.json of dpm_kopt to compare with")
    args = ap.parse_args()
    args.datasets = [d for d in args.datasets.split(",") if d]
    args.algorithms = [a for a in args.algorithms.split(",") if a]
    if args.letters is None:
        root = os.environ.get("DPCLUST_DATA_ROOT", os.path.join(os.path.dirname(rc.ROOT), "shared", "datasets"))
        args.letters = os.path.join(root, "uci", "letter-recognition.data")
    doc = {"epsilon": args.epsilon, "datasets": {}}
    source = args.load or (args.save if args.save and os.path.isfile(args.save) else None)
    if source:
        with open(source) as f:
            doc = json.load(f)
    if not args.load:
        if not args.artifact:
            sys.exit("--artifact (or DPCLUST_DPM_ARTIFACT) is needed to run the authors' code; --load FILE reads earlier fits")
        run_reference(args, doc)
    report(doc, args.dpclust_results)


if __name__ == "__main__":
    main()
