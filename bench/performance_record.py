#!/usr/bin/python3
"""A record of the performance goals' numbers, with the machine they were measured on.

  /usr/bin/python3 bench/performance_record.py --main LOG [LOG ...] [--test LOG] [--fig3 RESULTS.json]
                                               [--out bench/out/performance.md]

--main: logs of `/usr/bin/time -v ./run_all.sh --no-fetch --force --out DIR` (one per run; the median is
reported); --test: the log of `.ci/run` (./run_all.sh --test) on a fresh clone; --fig3: a results.json of
configs/paper/wavecluster_fig3.yaml for the evaluation/mechanism ratio (bench/evaluation_ratio.py's two
ratios). Writes a Markdown record: the machine (CPU model, cores, memory, kernel), the commit, each number.
"""
import argparse
import datetime
import json
import os
import pathlib
import platform
import re
import statistics
import subprocess
import sys


def machine():
    cpu = "?"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    mem = "?"
    try:
        for line in open("/proc/meminfo"):
            if line.startswith("MemTotal"):
                mem = f"{int(line.split()[1]) / 2**20:.1f} GiB"
    except OSError:
        pass
    return {"cpu": cpu, "cores": os.cpu_count(), "memory": mem, "kernel": platform.release(),
            "host": platform.node()}


def commit():
    try:
        return subprocess.run(["git", "rev-parse", "--short", "HEAD"], capture_output=True, text=True,
                              cwd=pathlib.Path(__file__).resolve().parents[1]).stdout.strip()
    except OSError:
        return "?"


def seconds(text):
    """h:mm:ss or m:ss.ss (GNU time's elapsed) -> seconds."""
    parts = [float(p) for p in text.split(":")]
    s = 0.0
    for p in parts:
        s = s * 60 + p
    return s


def main_run(path):
    text = pathlib.Path(path).read_text(errors="replace")
    r = {"log": str(path)}
    m = re.search(r"Elapsed \(wall clock\) time.*: ([0-9:.]+)", text)
    r["wall"] = seconds(m.group(1)) if m else None
    m = re.search(r"User time \(seconds\): ([0-9.]+)", text)
    r["user"] = float(m.group(1)) if m else None
    m = re.search(r"Maximum resident set size \(kbytes\): ([0-9]+)", text)
    r["peak_gb"] = int(m.group(1)) / 1e6 if m else None
    m = re.search(r"^figures: ([0-9]+) s after the experiments", text, re.M)
    r["figures_after"] = int(m.group(1)) if m else None
    m = re.search(r"drawn beside the experiments: ([0-9]+) jobs, ([0-9]+) failed, ([0-9.]+) (?:CPU seconds|s of drawing)", text)
    r["follower"] = (int(m.group(1)), float(m.group(3))) if m else None
    m = re.search(r"^([0-9]+) figure files in .*?: ([0-9]+) jobs drawn, ([0-9]+) up to date", text, re.M)
    r["figure_files"] = int(m.group(1)) if m else None
    m = re.search(r"^done in ([0-9]+) s", text, re.M)
    r["done_in"] = int(m.group(1)) if m else None
    return r


def test_run(path):
    text = pathlib.Path(path).read_text(errors="replace")
    phases = re.findall(r"^  (.+?)\s{2,}([0-9]+)$", text, re.M)
    passed = re.findall(r"([0-9]+)% tests passed, ([0-9]+) tests failed out of ([0-9]+)", text)
    return phases, passed


def fig3_ratio(path):
    data = json.load(open(path))
    method = metrics = rerun = 0.0
    trials = 0
    for cell in data["cells"]:
        for t in cell["trials"]:
            tm = t.get("timing", {})
            method += tm.get("method_seconds", 0.0)
            metrics += tm.get("metrics_seconds", 0.0)
            rerun += tm.get("mechanism_rerun_seconds", 0.0)
            trials += 1
    return trials, method, metrics, rerun


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--main", nargs="*", default=[])
    ap.add_argument("--test")
    ap.add_argument("--fig3")
    ap.add_argument("--out", default="bench/out/performance.md")
    args = ap.parse_args()
    m = machine()
    lines = [f"# Performance record ({datetime.date.today().isoformat()}, commit {commit()})", "",
             f"Machine: {m['cpu']}, {m['cores']} cores, {m['memory']}, Linux {m['kernel']} (host {m['host']}).", ""]
    if args.main:
        runs = [main_run(p) for p in args.main]
        walls = [r["wall"] for r in runs if r["wall"] is not None]
        lines += ["## Main job: `./run_all.sh --no-fetch --force` (data present, build done)", "",
                  "| run | wall s | user s | peak RSS GB | figure step after the experiments s "
                  "| drawn beside them (jobs, seconds busy) | figure files |",
                  "|---|---:|---:|---:|---:|---|---:|"]
        for i, r in enumerate(runs, 1):
            follower = f"{r['follower'][0]}, {r['follower'][1]:.1f}" if r["follower"] else "-"
            lines.append(f"| {i} | {r['wall']:.1f} | {r['user'] or 0:.0f} | {r['peak_gb'] or 0:.2f} | "
                         f"{r['figures_after'] if r['figures_after'] is not None else '-'} | {follower} | "
                         f"{r['figure_files'] or '-'} |")
        if walls:
            lines += ["", f"Median wall: **{statistics.median(walls):.1f} s** of {len(walls)} runs.", ""]
    if args.test:
        phases, passed = test_run(args.test)
        lines += ["## Test command: `.ci/run` (`./run_all.sh --test`) on a fresh clone, empty HOME and data root", "",
                  "| phase | wall s |", "|---|---:|"]
        lines += [f"| {name.strip()} | {secs} |" for name, secs in phases]
        lines += [""] + [f"ctest: {p}% passed, {f} failed of {n}" for p, f, n in passed] + [""]
    if args.fig3:
        trials, method, metrics, rerun = fig3_ratio(args.fig3)
        lines += ["## WaveCluster Figure 3: evaluation against mechanism time (the trials' own timings, one run)", "",
                  f"{trials} trials: mechanism (the release) {method:.2f} s, evaluation {metrics:.2f} s, of it "
                  f"the folds' mechanism runs {rerun:.2f} s.", "",
                  f"- all evaluation / the release's mechanism run: {metrics / method:.2f}x",
                  f"- evaluation proper / every mechanism run: {(metrics - rerun) / (method + rerun):.2f}x", ""]
    out = pathlib.Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text("\n".join(lines) + "\n")
    print(out.read_text())


if __name__ == "__main__":
    sys.exit(main())
