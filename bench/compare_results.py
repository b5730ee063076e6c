#!/usr/bin/python3
"""Are two runs' numbers the same? Compares the results.json files of two output folders value by value.

  /usr/bin/python3 bench/compare_results.py BEFORE_DIR AFTER_DIR [--experiments a,b,...] [--show N]

BEFORE_DIR and AFTER_DIR are `dpclust run --out` folders (or one experiment's folder each). Every cell is
matched by its key; everything in it is compared exactly (doubles as the JSON text gives them), except what
describes the run rather than its numbers: timings (`timing`, `*_seconds`), the provenance, `computed_by`
(host, commit, finish time), the cell fingerprints and ids (they hash the binary's version) and the
manifest-only fields listed in SKIP. Prints, per experiment, the cells, trials, trial metric records and
values compared and how many differ (the first N differences with their path); exit status 1 when any value
differs or a cell is missing on one side, 0 otherwise.

Used by docs/performance.md's "identical numbers" checks: run the affected paper configs with the old and the
new binary, then compare.
"""
import argparse
import json
import pathlib
import sys

# Keys whose values describe the run, not its results.
SKIP = {"timing", "computed_by", "provenance", "fingerprint", "id", "finished", "host", "git_commit",
        "cell_git_commits", "assembled_by", "runs", "config_file", "data_root"}


def results_files(root):
    root = pathlib.Path(root)
    if (root / "results.json").is_file():
        return {root.name: root / "results.json"}
    return {p.parent.name: p for p in sorted(root.glob("*/results.json"))}


class Diff:
    def __init__(self, show):
        self.values = 0
        self.differ = []
        self.show = show

    def walk(self, a, b, path):
        if isinstance(a, dict) and isinstance(b, dict):
            for k in sorted(set(a) | set(b)):
                if k in SKIP or k.endswith("_seconds"):
                    continue
                if k not in a or k not in b:
                    self.note(f"{path}.{k}", a.get(k, "<absent>"), b.get(k, "<absent>"))
                    continue
                self.walk(a[k], b[k], f"{path}.{k}")
        elif isinstance(a, list) and isinstance(b, list):
            if len(a) != len(b):
                self.note(f"{path}[len]", len(a), len(b))
            for i, (x, y) in enumerate(zip(a, b)):
                self.walk(x, y, f"{path}[{i}]")
        else:
            self.values += 1
            if type(a) is not type(b) or a != b:
                if isinstance(a, float) and isinstance(b, float) and a != a and b != b:
                    return  # NaN on both sides
                self.note(path, a, b)

    def note(self, path, a, b):
        self.differ.append((path, a, b))


def compare(before, after, show=10, only=None, out=sys.stdout):
    fa, fb = results_files(before), results_files(after)
    names = sorted(set(fa) | set(fb))
    if only:
        names = [n for n in names if n in only]
    bad = 0
    totals = [0, 0, 0, 0, 0]
    for name in names:
        if name not in fa or name not in fb:
            print(f"{name}: only in {'before' if name in fa else 'after'}", file=out)
            bad += 1
            continue
        a, b = json.loads(fa[name].read_text()), json.loads(fb[name].read_text())
        ca = {c["key"]: c for c in a.get("cells", [])}
        cb = {c["key"]: c for c in b.get("cells", [])}
        d = Diff(show)
        missing = sorted(set(ca) ^ set(cb))
        trials = records = 0
        for key in sorted(set(ca) & set(cb)):
            d.walk(ca[key], cb[key], key)
            for t in ca[key].get("trials", []):
                trials += 1
                records += len(t.get("metrics") or {})
        top_a = {k: v for k, v in a.items() if k != "cells"}
        top_b = {k: v for k, v in b.items() if k != "cells"}
        d.walk(top_a, top_b, "(top)")
        status = "identical" if not d.differ and not missing else f"{len(d.differ)} values differ, {len(missing)} cells on one side only"
        print(f"{name}: {len(ca)} cells, {trials} trials, {records} trial metric records, {d.values} values: {status}", file=out)
        for path, x, y in d.differ[:show]:
            print(f"    {path}: {x!r} -> {y!r}", file=out)
        for key in missing[:show]:
            print(f"    cell only in {'before' if key in ca else 'after'}: {key}", file=out)
        bad += bool(d.differ or missing)
        totals = [totals[0] + len(ca), totals[1] + trials, totals[2] + records, totals[3] + d.values, totals[4] + len(d.differ)]
    print(f"all: {len(names)} experiments, {totals[0]} cells, {totals[1]} trials, {totals[2]} trial metric records, "
          f"{totals[3]} values compared, {totals[4]} differ", file=out)
    return bad


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--experiments", default="", help="comma-separated experiment names (default: all in either folder)")
    ap.add_argument("--show", type=int, default=10, help="differences printed per experiment")
    args = ap.parse_args()
    only = {x for x in args.experiments.split(",") if x}
    sys.exit(1 if compare(args.before, args.after, args.show, only) else 0)


if __name__ == "__main__":
    main()
