#!/usr/bin/env python3
"""The functions longer than a limit (default 100 lines) and the files longer than another (default 600 lines).

Functions are found by Universal Ctags (its `end` field gives each function's last line), files by counting their
lines. Tests are left out: a test is as long as the case it spells out.

    tools/long_functions.py [--lines 100] [--file-lines 600] [PATH ...]   (default: engine experiments python bench plots)
"""
import argparse
import json
import subprocess
import sys
from pathlib import Path

SOURCE_SUFFIXES = {".cpp", ".hpp", ".h", ".cc", ".py"}
FUNCTION_KINDS = {"function", "member", "method"}


def functions(paths):
    """(lines, file, line, name) of every function ctags finds under the paths."""
    out = subprocess.run(["ctags", "-R", "--output-format=json", "--fields=+ne", "--languages=C++,Python", "--kinds-C++=f",
                          "--kinds-Python=fm", "-f", "-", *paths], check=True, capture_output=True, text=True).stdout
    for row in out.splitlines():
        tag = json.loads(row)
        if tag.get("_type") != "tag" or tag.get("kind") not in FUNCTION_KINDS or "end" not in tag:
            continue
        scope = tag.get("scope", "")
        name = f"{scope}::{tag['name']}" if tag.get("scopeKind") in ("class", "struct") else tag["name"]
        yield tag["end"] - tag["line"] + 1, tag["path"], tag["line"], name


def long_files(paths, limit):
    for root in paths:
        for f in sorted(Path(root).rglob("*") if Path(root).is_dir() else [Path(root)]):
            if f.suffix in SOURCE_SUFFIXES and f.is_file():
                n = sum(1 for _ in f.open(encoding="utf-8", errors="replace"))
                if n > limit:
                    yield n, str(f)


def main():
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--lines", type=int, default=100, help="list functions longer than this (default 100)")
    ap.add_argument("--file-lines", type=int, default=600, help="list files longer than this (default 600)")
    ap.add_argument("paths", nargs="*", default=["engine", "experiments", "python", "bench", "plots"])
    args = ap.parse_args()
    found = sorted((f for f in functions(args.paths) if f[0] > args.lines), reverse=True)
    print(f"{len(found)} functions over {args.lines} lines:")
    for n, path, line, name in found:
        print(f"  {n:5d}  {path}:{line}  {name}")
    files = sorted(long_files(args.paths, args.file_lines), reverse=True)
    print(f"{len(files)} files over {args.file_lines} lines:")
    for n, path in files:
        print(f"  {n:5d}  {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
