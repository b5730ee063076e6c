#!/usr/bin/python3
"""Evaluation against mechanism time of a results.json, from the trials' own timings.

  /usr/bin/python3 bench/evaluation_ratio.py RESULTS.json [...]

Per method and in total: the trials' mechanism seconds (timing.method_seconds), their evaluation seconds
(timing.metrics_seconds), and the part of the evaluation that re-ran the mechanism
(timing.mechanism_rerun_seconds: DP WaveCluster's cross-validated OCM and 2CE cluster every fold's training
part with the mechanism, as the paper's clustering-first-then-classification prescribes). Two ratios:
  all evaluation / the release's mechanism run      metrics / method
  evaluation proper / every mechanism run           (metrics - rerun) / (method + rerun)
Steady-clock seconds measured inside the worker threads: with several threads they add up to more than
the wall time.
"""
import json
import sys
from collections import defaultdict


def ratios(path):
    data = json.load(open(path))
    by = defaultdict(lambda: [0.0, 0.0, 0.0, 0])
    for cell in data["cells"]:
        for t in cell["trials"]:
            tm = t.get("timing", {})
            row = by[cell["series"]]
            row[0] += tm.get("method_seconds", 0.0)
            row[1] += tm.get("metrics_seconds", 0.0)
            row[2] += tm.get("mechanism_rerun_seconds", 0.0)
            row[3] += 1
    total = [sum(r[i] for r in by.values()) for i in range(4)]
    print(f"{path}")
    print(f"  {'series':<14} {'trials':>6} {'mechanism s':>12} {'evaluation s':>13} {'of it reruns':>13}"
          f" {'eval/release':>13} {'proper/all mech':>16}")
    for name, r in sorted(by.items()) + [("all", total)]:
        method, metrics, rerun, n = r
        plain = metrics / method if method > 0 else float("nan")
        proper = (metrics - rerun) / (method + rerun) if method + rerun > 0 else float("nan")
        print(f"  {name:<14} {n:>6} {method:>12.2f} {metrics:>13.2f} {rerun:>13.2f} {plain:>12.2f}x {proper:>15.2f}x")


if __name__ == "__main__":
    if len(sys.argv) < 2:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    for p in sys.argv[1:]:
        ratios(p)
