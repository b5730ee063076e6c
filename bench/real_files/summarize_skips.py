#!/usr/bin/env python3
"""Every skipped cell of a results directory (`dpclust run --keep-going`), one line per (experiment, method,
reason), with the epsilons it covers: the table of the real-files evidence (bench/real_files/prepare.sh).
    usage: bench/real_files/summarize_skips.py RESULTS_DIR"""
import glob
import json
import os
import sys

rows = {}
for f in sorted(glob.glob(os.path.join(sys.argv[1], "*", "skipped", "*.json"))):
    s = json.load(open(f))
    exp = os.path.basename(os.path.dirname(os.path.dirname(f)))
    reason = s["reason"].split(": ", 1)[-1] if s["reason"].startswith("/") else s["reason"]
    key = (exp, s["series"], reason[:160], s.get("fix", "")[:120])
    rows.setdefault(key, []).append(s["params"].get("epsilon"))
for (exp, series, reason, fix), eps in rows.items():
    eps_text = ",".join(str(e) for e in sorted(e for e in eps if e is not None)) or "-"
    print(f"| {exp} | {series} | {eps_text} | {reason} | {fix} |")
