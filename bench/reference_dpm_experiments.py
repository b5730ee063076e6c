#!/usr/bin/env python3
"""DPM's artifact beyond KOpt (Liebenow et al., CCS 2024; UzL-PrivSec/clustering-evaluation experiments.py "EpsDist" and
"Centreness", the paper's Figures 6 and 4) run with the authors' own DPM: the reference numbers of dpclust's
reproduction (configs/paper/dpm_budget_split.yaml, dpm_centreness.yaml and their full grids; reference/published.yaml,
paper `dpm`). The artifact's third experiment, "Timing" (Figure 5), times the KOpt algorithms one by one:
bench/reference_dpm_kopt.py records those times (`seconds` of every fit) and dpclust's are the dpm_kopt cells'.

The reference is the artifact as the reader has it checked out with its submodules (as for reference_dpm_kopt.py):

    git clone --recursive https://github.com/UzL-PrivSec/clustering-evaluation ART
    /usr/bin/python3 bench/reference_dpm_experiments.py --artifact ART --diffprivlib DIR --experiment centreness \
        --reps 2 --save centreness_reference.json
    /usr/bin/python3 bench/reference_dpm_experiments.py --load centreness_reference.json \
        --dpclust-results results-full/dpm_centreness/results.json

The artifact hands each setting to algorithms.dpm as a keyword the DPM class of its pinned submodule does not take
(`eps_dist=...`, `cent_params=(t, q)`; dpm.py's DPM swallows unknown keywords, **unused_kwargs), so its own runs leave
every setting at DPM's defaults; the script first shows that on the class (the shares and t, q a DPM built with those
keywords holds), then runs the DPM class with each setting under its own keyword names: epsilon_scale_bandswidth,
_exp, _count, _average for the artifact's (eps_bandwidth, eps_split, eps_count, eps_average), and t, q. Data: the
artifact's synth_10d (datasets.Synth10D: make_blobs(100000, 10, centers=64, center_box=(-100, 100), random_state=42),
its points outside the box kept, as the artifact keeps them); eps = 1, delta = 1 / (n sqrt n). Every fit seeds
numpy's global generator with its repetition number (the artifact draws unseeded) and is scored the way dpclust scores
(reference_common.measures: inertia, purity = the artifact's "accuracy", Hungarian accuracy, silhouette on 10,000
points). One fit of the authors' DPM takes about 30-80 s here (dpclust's: 0.4 s), so the defaults run a subset:
--splits names the budget splits (default: DPM's own and the two others the report judges), --pairs the (t, q) pairs
(default: the four the report judges; `all`: the artifact's 16), --reps the repetitions (the artifact's figures read
its `fast` runs of 2). Not a test.
"""
import argparse
import contextlib
import itertools
import json
import math
import os
import statistics
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import reference_common as rc  # noqa: E402
import reference_dpm_kopt as kopt  # noqa: E402

# (interval, splits, counts, centres): the splits the report judges: DPM's default, the most to the centres (both run
# by the main job's small version) and the most to the interval size, of the artifact's 84.
DEFAULT_SPLITS = [(0.04, 0.18, 0.18, 0.6), (0.1, 0.1, 0.1, 0.7), (0.7, 0.1, 0.1, 0.1)]
# The artifact's Centreness grid (hypersettings.py `paper`).
TQ = [(0.3, 0.1), (0.4, 0.1), (0.5, 0.1), (0.6, 0.1), (0.7, 0.1), (0.8, 0.1), (0.9, 0.1), (0.5, 0.2), (0.6, 0.2), (0.7, 0.2),
      (0.8, 0.2), (0.9, 0.2), (0.7, 0.3), (0.8, 0.3), (0.9, 0.3), (0.9, 0.4)]
# The pairs the report judges: the grid's corners (the main job's small version runs the first and the last) and its
# middle.
TQ_JUDGED = [(0.3, 0.1), (0.9, 0.1), (0.7, 0.2), (0.9, 0.4)]


def all_splits():
    """The artifact's 84 splits (hypersettings.py `paper`), rounded to the tenth they stand for."""
    r = [round(0.1 * i, 1) for i in range(1, 10)]
    return [v for v in itertools.product(r, r, r, r) if math.isclose(sum(v), 1, abs_tol=0.05)]


def dpm_class(artifact):
    sys.path.insert(0, os.path.join(artifact, "clustering_algorithms", "dpm"))
    from dpm import DPM
    return DPM


def show_swallowed_keywords(DPM, x):
    """What a DPM built as the artifact's experiments build it holds: the defaults, whatever eps_dist / cent_params say."""
    d = DPM(data=x[:10].copy(), bounds=(-100, 100), epsilon=1.0, delta=1e-6, eps_dist=[0.7, 0.1, 0.1, 0.1], cent_params=(0.9, 0.4))
    print("The artifact's call DPM(..., eps_dist=[0.7, 0.1, 0.1, 0.1], cent_params=(0.9, 0.4)) builds a DPM with epsilon shares "
          f"{d.epsilon_bandswidth:g}, {d.epsilon_exp:g}, {d.epsilon_count:g}, {d.epsilon_average:g} (bandwidth, split, count, average) "
          f"and t = {d.t:g}, q = {d.q:g}: DPM's defaults.\n", flush=True)


def scores(x, y, centres):
    """inertia, purity, Hungarian accuracy, silhouette (10,000-point sample) and the number of centres: the measures of
    reference_common.measures that need no k-means reference."""
    import numpy as np
    from sklearn.metrics import silhouette_score
    labels, d2 = rc.nearest(x, centres)
    out = {"inertia": float(d2.sum()), "purity": float(rc.purity(labels, y)), "accuracy": float(rc.accuracy(labels, y)),
           "k": int(len(centres))}
    if len(np.unique(labels)) > 1:
        out["silhouette"] = float(silhouette_score(x, labels, sample_size=10000, random_state=0))
    return out


def settings(args):
    if args.experiment == "epsdist":
        splits = all_splits() if args.splits == "all" else DEFAULT_SPLITS
        return [("dpm_budget_split", {"share_interval": s[0], "share_splits": s[1], "share_counts": s[2], "share_centres": s[3]},
                 {"epsilon_scale_bandswidth": s[0], "epsilon_scale_exp": s[1], "epsilon_scale_count": s[2], "epsilon_scale_average": s[3]})
                for s in splits]
    return [("dpm_centreness", {"t": t, "q": q}, {"t": t, "q": q}) for t, q in (TQ if args.pairs == "all" else TQ_JUDGED)]


def key_of(params):
    return ",".join(f"{k}={params[k]:g}" for k in sorted(params))


def run(args, doc):
    import numpy as np
    rc.add_diffprivlib(args.diffprivlib)
    rc.ensure_fast_histogram()
    DPM = dpm_class(args.artifact)
    x, y = rc.synth("synth_10d", out_of_box="keep")
    n = len(x)
    delta = 1 / (n * math.sqrt(n))
    show_swallowed_keywords(DPM, x)
    for experiment, ours, theirs in settings(args):
        fits = doc["fits"].setdefault(experiment, {}).setdefault(key_of(ours), [])
        for rep in range(len(fits), args.reps):
            np.random.seed(rep)
            with open(os.devnull, "w") as sink, contextlib.redirect_stderr(sink):
                model = DPM(data=x.copy(), bounds=(-100, 100), epsilon=args.epsilon, delta=delta, **theirs)
                (centres, _), seconds = rc.timed(model.perform_clustering)
            centres = np.asarray(centres, dtype=float)
            m = scores(x, y, centres)
            fits.append({"rep": rep, "seconds": seconds, **m})
            print(f"  {experiment} {key_of(ours)} rep {rep}: inertia {m['inertia']:.4e}, k {m['k']}, {seconds:.1f} s", flush=True)
            if args.save:
                kopt.save(doc, args.save)


def dpclust_cells(path):
    """{key_of(params of the varied parameters): {measure: [values]}} of a dpclust results.json."""
    with open(path) as f:
        doc = json.load(f)
    out = {}
    for cell in doc["cells"]:
        p = cell["params"]
        varied = {k: p[k] for k in ("share_interval", "share_splits", "share_counts", "share_centres", "t", "q") if k in p}
        d = out.setdefault(key_of(varied), {})
        for t in cell["trials"]:
            for k, v in t.get("metrics", {}).items():
                if isinstance(v, (int, float)):
                    d.setdefault(k, []).append(float(v))
    return out


def report(doc, dpclust_paths):
    ours = {}
    for p in dpclust_paths:
        ours.update(dpclust_cells(p))
    for experiment, by_setting in doc["fits"].items():
        print(f"\n### {experiment} (authors' DPM, eps {doc['epsilon']})\n")
        print("| setting | fits | mean inertia | mean purity | median s per fit | dpclust trials | dpclust mean inertia "
              "| dpclust mean purity | Mann-Whitney p (inertia) |")
        print("|---|---:|---:|---:|---:|---:|---:|---:|---:|")
        for key, fits in by_setting.items():
            t = ours.get(key, {})
            p = "-"
            if len(t.get("inertia", [])) > 1 and len(fits) > 1:
                p = f"{rc.compare_samples([f['inertia'] for f in fits], t['inertia'])['mannwhitney_pvalue']:.3g}"
            print(f"| {key} | {len(fits)} | {statistics.mean(f['inertia'] for f in fits):.4e} | "
                  f"{statistics.mean(f['purity'] for f in fits):.4f} | "
                  f"{statistics.median(f['seconds'] for f in fits):.1f} | {len(t.get('inertia', []))} | "
                  f"{statistics.mean(t['inertia']) if t.get('inertia') else float('nan'):.4e} | "
                  f"{statistics.mean(t['purity']) if t.get('purity') else float('nan'):.4f} | {p} |")


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--artifact", default=os.environ.get("DPCLUST_DPM_ARTIFACT"), help="clustering-evaluation checkout (with submodules)")
    ap.add_argument("--diffprivlib", default=os.environ.get("DPCLUST_DIFFPRIVLIB"), help="directory holding diffprivlib, if not installed")
    ap.add_argument("--experiment", choices=["epsdist", "centreness"], required=False, default="centreness")
    ap.add_argument("--splits", choices=["judged", "all"], default="judged", help="EpsDist: the judged splits, or all 84")
    ap.add_argument("--pairs", choices=["judged", "all"], default="judged", help="Centreness: the judged (t, q) pairs, or all 16")
    ap.add_argument("--reps", type=int, default=2, help="fits per setting (the artifact's figures: 2)")
    ap.add_argument("--epsilon", type=float, default=1.0)
    ap.add_argument("--save", help="write every fit here (and resume from it)")
    ap.add_argument("--load", help="read the fits from a file --save wrote (no reference run)")
    ap.add_argument("--dpclust-results", nargs="*", default=[], help="dpclust results.json files to compare with")
    args = ap.parse_args()
    doc = {"epsilon": args.epsilon, "fits": {}}
    source = args.load or (args.save if args.save and os.path.isfile(args.save) else None)
    if source:
        with open(source) as f:
            doc = json.load(f)
    if not args.load:
        if not args.artifact:
            sys.exit("--artifact (or DPCLUST_DPM_ARTIFACT) is needed to run the authors' code; --load FILE reads earlier fits")
        run(args, doc)
    report(doc, args.dpclust_results)


if __name__ == "__main__":
    main()
