#!/usr/bin/python3
"""Where a build's CPU time went, from the log bench/build_profile/launcher.sh writes (one line per compile or
link step: user system wall max_rss_kb output).

  /usr/bin/python3 bench/build_profile/summary.py LOG [--top N] [--build-dir DIR]

Prints the total CPU seconds (user + system), the share of compiling, precompiled headers and linking, the time
per target (the CMakeFiles/<target>.dir part of the object's path), and the N costliest steps. With --build-dir,
also how many compiled units include Eigen, nlohmann/json, yaml-cpp, pybind11, Boost or GoogleTest (from the
compiler's dependency files, *.o.d, next to the objects).
"""
import argparse
import collections
import pathlib
import re

HEADERS = {"Eigen": "/eigen3/", "nlohmann/json": "/nlohmann/", "yaml-cpp": "/yaml-cpp/", "pybind11": "/pybind11/",
           "Boost": "/boost/", "GoogleTest": "/gtest/", "Google Benchmark": "/benchmark/"}


def kind(output):
    if output.endswith(".gch"):
        return "precompiled header"
    if output.endswith(".o"):
        return "compile"
    return "link"


def target(output):
    m = re.search(r"CMakeFiles/([^/]+)\.dir/", output)
    if m:
        return m.group(1)
    return pathlib.Path(output).name  # a linked program or module


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("log")
    ap.add_argument("--top", type=int, default=15)
    ap.add_argument("--build-dir")
    args = ap.parse_args()
    last = {}  # a step run again (after an interrupted build) counts once, its last run
    for line in open(args.log):
        parts = line.split(None, 4)
        if len(parts) != 5 or not re.match(r"^[0-9.]+$", parts[0]):
            continue  # a failed step's "Command exited with non-zero status" line
        user, system, wall, rss = float(parts[0]), float(parts[1]), float(parts[2]), int(parts[3])
        last[parts[4].strip()] = (user + system, wall, rss, parts[4].strip())
    steps = list(last.values())
    total = sum(s[0] for s in steps)
    print(f"{len(steps)} steps, {total:.0f} CPU seconds (user + system)")
    by_kind = collections.Counter()
    for cpu, _, _, out in steps:
        by_kind[kind(out)] += cpu
    for k, v in by_kind.most_common():
        print(f"  {k:20s} {v:8.0f} s  {100 * v / total:5.1f} %")
    by_target = collections.Counter()
    for cpu, _, _, out in steps:
        by_target[target(out)] += cpu
    print("by target:")
    for t, v in by_target.most_common():
        print(f"  {t:36s} {v:8.0f} s  {100 * v / total:5.1f} %")
    print(f"the {args.top} costliest steps:")
    for cpu, wall, rss, out in sorted(steps, reverse=True)[:args.top]:
        print(f"  {cpu:7.1f} s  {rss / 1024:6.0f} MB  {out}")
    if args.build_dir:
        units = collections.Counter()
        cost = collections.Counter()
        n = 0
        # The log names an object from its target's folder (CMakeFiles/<target>.dir/...), a dependency file is
        # beside the object.
        cpu_of = {out[out.find("CMakeFiles/"):]: cpu for cpu, _, _, out in steps if "CMakeFiles/" in out}
        for dep in pathlib.Path(args.build_dir).rglob("*.o.d"):
            text = dep.read_text(errors="replace")
            n += 1
            obj = str(dep)[str(dep).find("CMakeFiles/"):-2]
            for name, marker in HEADERS.items():
                if marker in text:
                    units[name] += 1
                    cost[name] += cpu_of.get(obj, 0.0)
        print(f"compiled units that include each library (of {n}; their compile CPU seconds):")
        for name in HEADERS:
            print(f"  {name:18s} {units[name]:4d}  {cost[name]:8.0f} s")


if __name__ == "__main__":
    main()
