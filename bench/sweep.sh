#!/usr/bin/env bash
# The whole paper sweep as one benchmark (a benchmark, not a timed test): the three stages of
# ./run_all.sh's main job after the build and the data fetch, each timed with /usr/bin/time -v:
#
#   1. run      dpclust run configs/builtin/*.yaml configs/paper/*.yaml --out OUT --threads N
#                 --data-root ROOT --skip-missing-data --no-progress --force
#   2. figures  /usr/bin/python3 plots/make_figures.py --results OUT --out FIGURES --force
#   3. report   dpclust report OUT --figures FIGURES
#
# and prints (and writes to WORK/sweep.md) a Markdown table: wall / user / system seconds and peak RSS
# per stage, then per experiment the run's wall seconds (results.json provenance: this run's record),
# the trials, and the summed method and metrics seconds of its trials (each trial's `timing`, steady-clock
# seconds inside the worker threads: they overlap with several threads), with the
# configs that were skipped for missing data. Everything is recomputed (--force), so a run takes as long
# as the whole reproduction (minutes): on a shared machine run it once, and time stages, not tests.
#
#   bench/sweep.sh [--work DIR] [--threads N] [--data-root ROOT] [--dpclust BIN] [--builtin-only]
#                  [--configs "GLOB ..."] [--jobs N]
#
# --work DIR        results in DIR/results, figures in DIR/figures, logs in DIR/logs, the table in
#                   DIR/sweep.md (default /tmp/dpclust-sweep; DIR/results and DIR/figures are replaced)
# --threads N       dpclust run --threads (default 0 = all cores)
# --data-root ROOT  the papers' datasets (default $DPCLUST_DATA_ROOT, else ../shared/datasets)
# --dpclust BIN     the binary (default build/experiments/dpclust)
# --builtin-only    configs/builtin/*.yaml only (a quick check of this script: 1-2 minutes on 2 cores)
# --configs "..."   other configs (a quoted list of paths or globs)
# --jobs N          make_figures.py worker processes (default: its own, one per core)
set -euo pipefail
ROOT_DIR=$(cd "$(dirname "$0")/.." && pwd)
cd "$ROOT_DIR"

work=/tmp/dpclust-sweep
threads=0
data_root="${DPCLUST_DATA_ROOT:-}"
[ -z "$data_root" ] && [ -d ../shared/datasets ] && data_root=$(cd ../shared/datasets && pwd)
dpclust="$ROOT_DIR/build/experiments/dpclust"
configs="configs/builtin/*.yaml configs/paper/*.yaml"
jobs=()
while [ $# -gt 0 ]; do
  case "$1" in
    --work) work="$2"; shift ;;
    --threads) threads="$2"; shift ;;
    --data-root) data_root="$2"; shift ;;
    --dpclust) dpclust="$2"; shift ;;
    --builtin-only) configs="configs/builtin/*.yaml" ;;
    --configs) configs="$2"; shift ;;
    --jobs) jobs=(--jobs "$2"); shift ;;
    -h|--help) sed -n '2,28p' "$0"; exit 0 ;;
    *) echo "bench/sweep.sh: unknown option '$1' (see --help)" >&2; exit 2 ;;
  esac
  shift
done
[ -x "$dpclust" ] || { echo "bench/sweep.sh: no dpclust binary at $dpclust (build it, or pass --dpclust BIN)" >&2; exit 2; }
[ -x /usr/bin/time ] || { echo "bench/sweep.sh: /usr/bin/time not found (Debian package 'time')" >&2; exit 2; }
# shellcheck disable=SC2206  # the config list is globbed on purpose
cfgs=($configs)
root_args=()
[ -n "$data_root" ] && root_args=(--data-root "$data_root")

mkdir -p "$work"
work=$(cd "$work" && pwd)
out="$work/results"
figures="$work/figures"
logs="$work/logs"
rm -rf "$out" "$figures"
mkdir -p "$out" "$figures" "$logs"

stage() {  # stage NAME COMMAND...: run under /usr/bin/time -v, output to logs/NAME.log
  local name=$1; shift
  echo "== $name: $*" >&2
  local rc=0
  /usr/bin/time -v -o "$logs/$name.time" "$@" >"$logs/$name.log" 2>&1 || rc=$?
  if [ "$rc" -ne 0 ]; then
    echo "-- $name exited with $rc (log: $logs/$name.log):" >&2
    tail -20 "$logs/$name.log" >&2
  fi
  echo "$rc" >"$logs/$name.rc"
}

stage run "$dpclust" run "${cfgs[@]}" --out "$out" --threads "$threads" "${root_args[@]}" \
  --skip-missing-data --no-progress --force
stage figures /usr/bin/python3 plots/make_figures.py --results "$out" --out "$figures" --force "${jobs[@]}"
stage report "$dpclust" report "$out" --figures "$figures" --out "$out/REPORT.md"

/usr/bin/python3 - "$work" "$threads" "$dpclust" "${cfgs[@]}" <<'EOF' | tee "$work/sweep.md"
import glob, json, os, re, subprocess, sys

work, threads, dpclust, cfgs = sys.argv[1], sys.argv[2], sys.argv[3], sys.argv[4:]
out, logs = os.path.join(work, "results"), os.path.join(work, "logs")


def gnu_time(path):
    """Wall, user, system seconds and peak RSS (MB) from a /usr/bin/time -v file."""
    v = {}
    with open(path) as f:
        for line in f:
            key, _, val = line.strip().rpartition(": ")
            v[key] = val
    h_m_s = [float(x) for x in v.get("Elapsed (wall clock) time (h:mm:ss or m:ss)", "0").split(":")]
    wall = sum(x * 60 ** i for i, x in enumerate(reversed(h_m_s)))
    return wall, float(v.get("User time (seconds)", 0)), float(v.get("System time (seconds)", 0)), \
        int(v.get("Maximum resident set size (kbytes)", 0)) / 1024


def trials_of(exp_dir, results):
    """Every trial record of an experiment: results.json's cells[].trials, else the cell files."""
    recs = []
    for c in results.get("cells", []):
        if isinstance(c.get("trials"), list):
            recs += c["trials"]
    if not recs:
        for p in glob.glob(os.path.join(exp_dir, "cells", "*.json")):
            with open(p) as f:
                recs += json.load(f).get("trials", [])
    return recs


version = subprocess.run([dpclust, "--version"], capture_output=True, text=True).stdout.strip()
cpu = ""
try:
    cpu = next(l.split(":", 1)[1].strip() for l in open("/proc/cpuinfo") if l.startswith("model name"))
except (OSError, StopIteration):
    pass
print(f"# Sweep benchmark\n\n{len(cfgs)} configs, `dpclust run --threads {threads} --force`; {version}; "
      f"{os.cpu_count()} CPUs ({cpu}). Logs: {logs}.\n")
print("| stage | exit | wall s | user s | system s | peak RSS MB |\n|---|---:|---:|---:|---:|---:|")
tot = [0.0, 0.0, 0.0]
peak = 0.0
for stage in ("run", "figures", "report"):
    wall, user, sys_, rss = gnu_time(os.path.join(logs, stage + ".time"))
    rc = open(os.path.join(logs, stage + ".rc")).read().strip()
    tot = [tot[0] + wall, tot[1] + user, tot[2] + sys_]
    peak = max(peak, rss)
    print(f"| {stage} | {rc} | {wall:.1f} | {user:.1f} | {sys_:.1f} | {rss:.0f} |")
print(f"| **total** | | **{tot[0]:.1f}** | {tot[1]:.1f} | {tot[2]:.1f} | {peak:.0f} (max) |")

rows, skipped = [], []
for exp_dir in sorted(glob.glob(os.path.join(out, "*/"))):
    name = os.path.basename(os.path.dirname(exp_dir))
    rpath = os.path.join(exp_dir, "results.json")
    if not os.path.exists(rpath):
        why = ""
        sp = os.path.join(exp_dir, "skipped.json")
        if os.path.exists(sp):
            with open(sp) as f:
                s = json.load(f)
            why = s.get("reason") or s.get("why") or s.get("message") or ""
            if not why:
                why = "; ".join(f"{k}: {v}" for k, v in s.items() if isinstance(v, str))[:120]
        skipped.append((name, why or "no results.json"))
        continue
    with open(rpath) as f:
        r = json.load(f)
    runs = r.get("provenance", {}).get("runs", [])
    wall = runs[-1].get("wall_seconds", float("nan")) if runs else float("nan")
    recs = trials_of(exp_dir, r)
    method = sum(t.get("timing", {}).get("method_seconds", 0.0) for t in recs)
    metrics = sum(t.get("timing", {}).get("metrics_seconds", 0.0) for t in recs)
    rows.append((name, wall, len(r.get("cells", [])), len(recs), method, metrics))

rows.sort(key=lambda x: -x[1])
print("\nPer experiment (wall: the run's own record in results.json; method / metrics: each trial's "
      "`timing.method_seconds` / `metrics_seconds` summed, steady-clock seconds measured inside the worker "
      "threads, so with several threads they overlap and on a busy machine they include time spent waiting "
      "for a core):\n")
print("| experiment | wall s | cells | trials | method s | metrics s | metrics / method |")
print("|---|---:|---:|---:|---:|---:|---:|")
for name, wall, cells, n, method, metrics in rows:
    ratio = f"{metrics / method:.1f}" if method > 0 else "-"
    print(f"| {name} | {wall:.2f} | {cells} | {n} | {method:.2f} | {metrics:.2f} | {ratio} |")
sw = sum(x[1] for x in rows)
sm = sum(x[4] for x in rows)
sx = sum(x[5] for x in rows)
print(f"| **{len(rows)} experiments** | **{sw:.1f}** | {sum(x[2] for x in rows)} | {sum(x[3] for x in rows)} | "
      f"{sm:.1f} | {sx:.1f} | {sx / sm if sm else 0:.1f} |")
if skipped:
    print("\nSkipped (data absent):\n")
    for name, why in skipped:
        print(f"- {name}: {why}")
EOF
for s in run figures report; do
  [ "$(cat "$logs/$s.rc")" = 0 ] || exit 1
done
