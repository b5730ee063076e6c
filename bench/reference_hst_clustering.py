#!/usr/bin/env python3
"""HST clustering (Cohen-Addad, Epasto, Mirrokni, Narayanan & Zhong, KDD 2022) side by side: the authors' code and
dpclust's `hst_clustering` on the same data and public information.

The reference is google-research/google-research's folder `hst_clustering` (Apache-2.0), run from a copy the
reader has (never vendored here):

    --reference DIR   (or $DPCLUST_HST_REFERENCE) a directory holding the package `hst_clustering` (the root of a
                      google-research checkout, or any copy of that folder's parent)
    apt-get install python3-numpy python3-scipy python3-pandas python3-absl python3-sklearn

Its pipeline (dp_hst.run_hst_pipeline) is written for Apache Beam, which only distributes it; where apache_beam is not
installed the script gives the module a stand-in with the one name the classes need (beam.DoFn) and runs the
pipeline's transforms itself, in process and in the pipeline's order: CreateVectorFromText (the box check) on each
point's text line, MapToCellId (its 1 + L d cells), CombinePerKey(combine_diameter_center_count) (the counts,
combined as each value arrives), GaussianThresholdMechansimFn (noise and threshold; numpy's global generator, seeded
here with 10000 + seed before each fit because their code never seeds it) and output_as_string; then, as
run_clustering.main does, io.LoadFilesIntoDataFrame, io.DataFrameToTree, validate_tree(True), solve_dp(k, exp) and
dynamic_program.get_centers_from_hst. The split seed is the fit's seed (run_clustering.py's --seed). The time per fit
is all of that (the points already in memory), wall and CPU (the speed-up divides the reference's CPU time by
dpclust's wall time, which a shared machine's load inflates for the reference's minutes-long fits far more than for
dpclust's milliseconds); the inertia is computed afterwards, the same way for both sides.

Data (--data):
  synth_10d  DPM's evaluation set (scikit-learn make_blobs(100000, 10, centers=64, center_box=(-100, 100),
             random_state=42)), public box [-100, 100]^10, k = 64. 1.9% of its points have a coordinate outside the
             box; the authors' CreateVectorFromText refuses them, so both sides get the points clamped into it
             (dpclust's `clip_to_bounds: clamp`), and the inertia is computed on the clamped points.
  blobs2d    make_blobs(20000, 2, centers=8, center_box=(-10, 10), random_state=7), public box [-15, 15]^2, k = 8.
Both sides get the same box, k, epsilon (1), delta (1e-5, the authors' default), layers (10) and objective (the
code's exp: 1 = the k-median tree cost, what their run_clustering.py solves and dpclust's default `objective:
kmedian`; --objective kmeans for exp 2).

dpclust runs through `dpclust run` (--dpclust, $DPCLUST, build/experiments/dpclust) with one thread, twice: `variant:
authors, sampler: textbook` (the authors' calibration and continuous noise: the distribution to compare with theirs)
and the default `variant: exact, sampler: secure` (the private path: the root's count not released, the threshold
from the noise's tail, the discrete Gaussian). Its time per fit is each trial's `timing.method_seconds` (the labels
included; one thread, so about its CPU time). The table gives per implementation the median inertia (and quartiles),
a Mann-Whitney p-value against the reference's inertia, the centres released, the released cells (the reference's
csv lines: every cell above the threshold, before validate_tree drops the ones below a missing ancestor; dpclust's:
the cells of its tree, which never looks below a missing cell), the tree's nodes (root, kept cells and empty
siblings, the like-for-like count), sigma and tau, and the median seconds per fit.

    /usr/bin/python3 bench/reference_hst_clustering.py --reference /work/ref/hst_clustering --data blobs2d --seeds 20
    ... --only reference --save ref.json     then    ... --load-reference ref.json   (reuse a slow reference run)
    ... --only reference --seeds 10 --first-seed 10 --save ref2.json   (a second process; --load-reference pools them)

Not a test: nothing here asserts a number; it prints them.
"""
import argparse
import contextlib
import importlib
import json
import os
import shutil
import statistics
import sys
import tempfile
import time
import types

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reference_common as rc  # noqa: E402

REF = "reference (authors' code)"
DATA = {
    "synth_10d": {"n": 100000, "d": 10, "centers": 64, "center_box": (-100.0, 100.0), "seed": 42, "box": (-100.0, 100.0), "k": 64},
    "blobs2d": {"n": 20000, "d": 2, "centers": 8, "center_box": (-10.0, 10.0), "seed": 7, "box": (-15.0, 15.0), "k": 8},
}


def dataset(name):
    """The points both sides see (clamped into the public box) and the box."""
    import numpy as np
    from sklearn.datasets import make_blobs
    s = DATA[name]
    x, _ = make_blobs(s["n"], s["d"], centers=s["centers"], center_box=s["center_box"], random_state=s["seed"])
    lo, hi = s["box"]
    return np.ascontiguousarray(np.clip(x, lo, hi)), int(np.any((x < lo) | (x > hi), axis=1).sum())


def config_entry(name):
    s = DATA[name]
    lo, hi = s["box"]
    return (f"  - name: {name}\n    generator: {{type: blobs, n_samples: {s['n']}, n_features: {s['d']}, centers: {s['centers']}, "
            f"center_box_lo: {s['center_box'][0]}, center_box_hi: {s['center_box'][1]}, seed: {s['seed']}, stream: numpy}}\n"
            f"    bounds: {[[lo, hi]] * s['d']}\n    clip_to_bounds: clamp\n")


# --- the reference ----------------------------------------------------------------------------------------------------

def beam_standin():
    """apache_beam with the names hst_clustering's modules use at import (DoFn, PipelineOptions, SetupOptions): the
    transforms are then called directly (reference_fit). Used only when apache_beam is not installed."""
    beam = types.ModuleType("apache_beam")
    beam.DoFn = type("DoFn", (object,), {})
    options = types.ModuleType("apache_beam.options")
    pipeline_options = types.ModuleType("apache_beam.options.pipeline_options")
    pipeline_options.PipelineOptions = type("PipelineOptions", (object,), {"__init__": lambda self, *a, **k: None})
    pipeline_options.SetupOptions = type("SetupOptions", (object,), {})
    options.pipeline_options = pipeline_options
    beam.options = options
    return {"apache_beam": beam, "apache_beam.options": options, "apache_beam.options.pipeline_options": pipeline_options}


def load_reference(path):
    if not os.path.isdir(os.path.join(path, "hst_clustering")):
        sys.exit(f"{path}: no folder hst_clustering in it (give the directory that holds the authors' package)")
    try:
        import apache_beam  # noqa: F401
    except ImportError:
        sys.modules.update(beam_standin())
    sys.path.insert(0, path)
    return (importlib.import_module("hst_clustering.dp_hst"), importlib.import_module("hst_clustering.io"),
            importlib.import_module("hst_clustering.dynamic_program"))


def reference_fit(mods, x, box, k, epsilon, delta, layers, seed, exp):
    """One fit of the authors' pipeline and dynamic program (see the module docstring); (centres, facts, seconds): the
    wall time, and the process's CPU time in facts (on a shared machine the wall time of a fit of minutes counts the
    other processes' turns)."""
    import numpy as np
    dp_hst, hst_io, dynamic_program = mods
    n, d = x.shape
    lo, hi = box
    work = tempfile.mkdtemp(prefix="hst_reference_")
    try:
        np.random.seed(10000 + seed)
        with open(os.devnull, "w") as sink, contextlib.redirect_stdout(sink):
            t0, c0 = time.perf_counter(), time.process_time()
            to_vector = dp_hst.CreateVectorFromText(dimensions=d, min_value_entry=lo, max_value_entry=hi)
            to_cells = dp_hst.MapToCellId(dimensions=d, min_value_entry=lo, max_value_entry=hi, layers=layers, seed=seed)
            cells = {}
            for i, row in enumerate(x):
                (vector,) = to_vector.process(str(i) + "\t" + "\t".join(repr(float(v)) for v in row))
                for key, value in to_cells.process(vector):
                    cells[key] = value if key not in cells else dp_hst.combine_diameter_center_count([cells[key], value])
            noise = dp_hst.GaussianThresholdMechansimFn(epsilon=epsilon, delta=delta, l0_sensitivity=layers * d)
            lines = [dp_hst.output_as_string(out) for element in cells.items() for out in noise.process(element)]
            with open(os.path.join(work, "hst.csv-00000-of-00001"), "w") as f:
                f.write("\n".join(lines) + "\n")
            frame, features = hst_io.LoadFilesIntoDataFrame(glob_string=os.path.join(work, "hst.csv*"), dimensions=d)
            tree = hst_io.DataFrameToTree(frame)
            tree.validate_tree(True)
            tree.solve_dp(k, exp)
            centres = dynamic_program.get_centers_from_hst(frame, tree, features)
            seconds, cpu = time.perf_counter() - t0, time.process_time() - c0
        facts = {"cpu_seconds": cpu, "released_cells": len(lines), "tree_nodes": len(tree.nodes), "sigma": float(noise.sigma), "threshold": float(noise.threshold)}
        return np.asarray(centres, dtype=float).reshape(-1, d), facts, seconds
    finally:
        shutil.rmtree(work, ignore_errors=True)


def run_reference(mods, x, box, args, k, save):
    """The reference's fits; save(rows) after each (a run of hours can be stopped and its fits kept)."""
    rows = []
    for s in range(args.first_seed, args.first_seed + args.seeds):
        centres, facts, seconds = reference_fit(mods, x, box, k, args.epsilon, args.delta, args.layers, s, args.exp)
        rows.append({"seed": s, "seconds": seconds, "k": int(len(centres)), "inertia": rc.inertia(x, centres), **facts})
        print(f"  reference seed {s}: inertia {rows[-1]['inertia']:.4e}, {rows[-1]['k']} centres, "
              f"{facts['released_cells']} cells, {seconds:.2f} s ({facts['cpu_seconds']:.2f} s CPU)", flush=True)
        save(rows)
    return rows


# --- dpclust --------------------------------------------------------------------------------------------------------------

SERIES = [("dpclust variant: authors, sampler: textbook", "authors", "textbook"),
          ("dpclust variant: exact, sampler: secure", "exact", "secure")]


def series_name(variant, sampler):
    return f"hst_{variant}_{sampler}"


def run_dpclust(binary, name, x, args, k):
    methods = "".join(
        f"  - {{method: hst_clustering, as: {series_name(variant, sampler)}, params: {{k: {k}, epsilon: {args.epsilon}, delta: {args.delta!r}, layers: {args.layers}, "
        f"objective: {args.objective}, variant: {variant}, sampler: {sampler}}}}}\n" for _, variant, sampler in SERIES)
    config = (f"# generated by bench/reference_hst_clustering.py\nexperiment: hst_reference\nseed: 0\ntrials: {args.seeds}\n"
              f"datasets:\n{config_entry(name)}methods:\n{methods}")
    trials = rc.run_dpclust(binary, config)
    out = {label: [] for label, _, _ in SERIES}
    for t in trials:
        label = next(lbl for lbl, variant, sampler in SERIES if t["series"] == series_name(variant, sampler))
        centres = t["release"]["centers"]
        diag = t.get("diagnostics", {})
        out[label].append({"seconds": t["seconds"], "k": len(centres), "inertia": rc.inertia(x, centres),
                           "released_cells": diag.get("released_cells"), "tree_nodes": diag.get("tree_nodes"),
                           "sigma": diag.get("sigma"), "threshold": diag.get("threshold")})
    return out


# --- summary ----------------------------------------------------------------------------------------------------------------

def summary(rows):
    v = rc.describe([r["inertia"] for r in rows])
    return {"fits": len(rows), "inertia_median": v["median"], "inertia_q1": v["q1"], "inertia_q3": v["q3"],
            "centres_mean": statistics.mean(r["k"] for r in rows),
            "cells_mean": statistics.mean(r["released_cells"] for r in rows),
            "tree_nodes_mean": statistics.mean(r["tree_nodes"] for r in rows),
            "sigma": rows[0]["sigma"], "threshold": rows[0]["threshold"],
            "seconds_median": statistics.median(r["seconds"] for r in rows),
            "cpu_seconds_median": statistics.median(r.get("cpu_seconds", r["seconds"]) for r in rows)}


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--reference", default=os.environ.get("DPCLUST_HST_REFERENCE"), help="directory holding the package hst_clustering")
    ap.add_argument("--dpclust", help="the dpclust binary")
    ap.add_argument("--data", choices=sorted(DATA), default="blobs2d")
    ap.add_argument("--seeds", type=int, default=20)
    ap.add_argument("--first-seed", type=int, default=0, help="the reference's first seed (split seed; noise seed 10000 + it)")
    ap.add_argument("--epsilon", type=float, default=1.0)
    ap.add_argument("--delta", type=float, default=1e-5, help="the authors' default 1e-5")
    ap.add_argument("--layers", type=int, default=10, help="the authors' default 10")
    ap.add_argument("--objective", choices=["kmedian", "kmeans"], default="kmedian",
                    help="kmedian = the code's exp 1 (run_clustering.py's, dpclust's default), kmeans = exp 2")
    ap.add_argument("--only", choices=["both", "reference", "dpclust"], default="both")
    ap.add_argument("--save", help="write every fit and the summaries as JSON")
    ap.add_argument("--load-reference", nargs="+", help="take the reference's fits from JSON files written by --save (their fits "
                    "are pooled: reference runs of disjoint seeds can run side by side)")
    args = ap.parse_args()
    args.exp = 2 if args.objective == "kmeans" else 1
    s = DATA[args.data]
    k = s["k"]
    x, outside = dataset(args.data)
    print(f"{args.data}: {x.shape[0]} x {x.shape[1]}, box {s['box']} ({outside} points clamped into it), k {k}, eps {args.epsilon}, "
          f"delta {args.delta:g}, layers {args.layers}, objective {args.objective}, {args.seeds} seeds", flush=True)
    doc = {"data": args.data, "k": k, "epsilon": args.epsilon, "delta": args.delta, "layers": args.layers, "objective": args.objective}
    fits = {}
    if args.load_reference:
        fits[REF] = []
        for path in args.load_reference:
            with open(path) as f:
                saved = json.load(f)
            if (saved["data"], saved["k"], saved["epsilon"], saved["delta"], saved["layers"], saved["objective"]) != (
                    args.data, k, args.epsilon, args.delta, args.layers, args.objective):
                sys.exit(f"{path}: its reference fits are of another setting ({saved['data']}, k {saved['k']}, eps {saved['epsilon']}, "
                         f"delta {saved['delta']}, layers {saved['layers']}, {saved['objective']})")
            fits[REF] += saved["fits"][REF]
    elif args.only in ("both", "reference"):
        if not args.reference:
            print("reference: not given (--reference or DPCLUST_HST_REFERENCE); skipped")
        else:
            def save(rows):
                if args.save:
                    with open(args.save, "w") as f:
                        json.dump({**doc, "fits": {REF: rows}}, f, indent=1)
            fits[REF] = run_reference(load_reference(args.reference), x, s["box"], args, k, save)
    if args.only in ("both", "dpclust"):
        fits.update(run_dpclust(rc.find_dpclust(args.dpclust), args.data, x, args, k))
    doc["fits"] = fits
    doc["summary"] = {name: summary(rows) for name, rows in fits.items() if rows}

    ref = fits.get(REF)
    print()
    print("| implementation | fits | median inertia [q1, q3] | Mann-Whitney p (vs reference) | centres (mean) | released cells (mean) | "
          "tree nodes (mean) | sigma | threshold | s per fit, median (CPU) | speed-up (CPU) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for name, sm in doc["summary"].items():
        p = speed = "-"
        if ref and name != REF:
            p = f"{rc.compare_samples([r['inertia'] for r in ref], [r['inertia'] for r in fits[name]])['mannwhitney_pvalue']:.3f}"
            speed = f"{doc['summary'][REF]['cpu_seconds_median'] / sm['seconds_median']:.0f}x"
            sm["mannwhitney_pvalue"] = float(p)
        print(f"| {name} | {sm['fits']} | {rc.fmt(sm['inertia_median'])} [{rc.fmt(sm['inertia_q1'])}, {rc.fmt(sm['inertia_q3'])}] | {p} | "
              f"{sm['centres_mean']:.1f} | {sm['cells_mean']:.0f} | {sm['tree_nodes_mean']:.0f} | {sm['sigma']:.4g} | {sm['threshold']:.4g} | "
              f"{sm['seconds_median']:.4g} ({sm['cpu_seconds_median']:.4g}) | {speed} |")
    if args.save:
        with open(args.save, "w") as f:
            json.dump(doc, f, indent=1)


if __name__ == "__main__":
    main()
