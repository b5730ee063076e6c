#!/usr/bin/env python3
"""Comments state the rule, not the tracker: no source file names an issue of the project's tracker.

A reader of "issue 22 item 7" learns nothing; "a record's values stay out of error messages" tells the rule. This
check lists every line of the project's sources (engine/, experiments/, python/, plots/, bench/, tests/, configs/,
run_all.sh, the CMake files) that names a tracker issue ("issue 22", "issues 33 and 34", "(issue: ...)", a section
headed "item 3:", "round 2 item 1") and exits 1 when there is one. Run by CTest (source_comments_check).

    tools/check_comments.py [SOURCE_DIR]
"""
import re
import sys
from pathlib import Path

ROOTS = ["engine", "experiments", "python", "plots", "bench", "tests", "configs", "tools", "run_all.sh", "CMakeLists.txt",
         "setup.py", "pyproject.toml"]
SUFFIXES = {".cpp", ".hpp", ".h", ".py", ".sh", ".cmake", ".txt", ".yaml", ".yml", ".toml", ".cfg", ""}
SKIP_DIRS = {"fixtures", "corpus", "__pycache__"}
# Tracker references, written so that this file does not match itself.
ISSUE = "iss" + "ue"
PATTERNS = [
    re.compile(rf"\b{ISSUE}s? #?\d+", re.IGNORECASE),           # issue 22, issues 33 and 34, issue #5
    re.compile(rf"\({ISSUE}\b|\b{ISSUE}:", re.IGNORECASE),       # (issue: ...), issue: ...
    re.compile(r"\bround \d+ item", re.IGNORECASE),             # round 3 item 2
    re.compile(r"---+\s*items? \d+:", re.IGNORECASE),           # a section headed "--- item 3:"
    re.compile(rf"\bof the {ISSUE}\b", re.IGNORECASE),          # "the performance target of the issue"
    re.compile(r"\bPR #\d+|\b[\w.-]+/[\w.-]+#\d+"),                # PR #1319, owner/repo#1040: another tracker
]


def sources(root: Path):
    for name in ROOTS:
        path = root / name
        if path.is_file():
            yield path
        elif path.is_dir():
            for f in sorted(path.rglob("*")):
                if f.is_file() and f.suffix in SUFFIXES and not SKIP_DIRS.intersection(f.relative_to(root).parts):
                    yield f


def main() -> int:
    root = Path(sys.argv[1] if len(sys.argv) > 1 else Path(__file__).resolve().parent.parent)
    found = []
    me = Path(__file__).resolve()
    for f in sources(root):
        if f.resolve() == me:  # its own examples
            continue
        try:
            lines = f.read_text(encoding="utf-8").splitlines()
        except UnicodeDecodeError:
            continue
        for number, line in enumerate(lines, 1):
            if any(p.search(line) for p in PATTERNS):
                found.append(f"{f.relative_to(root)}:{number}: {line.strip()[:160]}")
    if found:
        print(f"{len(found)} lines name the tracker; say the rule itself, once, where it lives:")
        print("\n".join(found))
        return 1
    print("no comment names the tracker")
    return 0


if __name__ == "__main__":
    sys.exit(main())
