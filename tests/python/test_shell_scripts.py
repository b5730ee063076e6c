"""The project's bash scripts run under `set -o pipefail`: there, a pipeline whose reader stops early
(`head`, `grep -q`) fails with the writer's SIGPIPE status 141 as soon as the writer has more to say
than the pipe holds. `./run_all.sh --test` once ended with status 141 after every test had passed,
because its list of the slowest tests was cut with `sort | head`. The scripts read the whole input
instead (`awk 'NR <= 8'`)."""

import pathlib
import re
import subprocess

ROOT = pathlib.Path(__file__).resolve().parents[2]
EARLY_READERS = re.compile(r"(?<!\|)\|(?!\|)\s*(head\b|grep\s+(-\w*q\w*|--quiet)\b|sed\s+(-\w+\s+)*'?\d*q)")


def pipefail_scripts():
    candidates = [ROOT / "run_all.sh", ROOT / ".ci" / "run", *ROOT.glob("bench/*.sh"),
                  *ROOT.glob("tests/**/*.sh"), *ROOT.glob("experiments/**/*.sh")]
    for path in candidates:
        if path.is_file() and re.search(r"^\s*set\s+-\w*o\s+pipefail|^\s*set\s+-o\s+pipefail",
                                        path.read_text(), re.M):
            yield path


def logical_lines(text):
    """Lines joined across a trailing `|` or `\\`, so that a pipeline broken over lines is one."""
    joined = ""
    for number, line in enumerate(text.splitlines(), 1):
        stripped = line.split(" #", 1)[0].rstrip()
        if stripped.lstrip().startswith("#"):
            continue
        joined = f"{joined} {stripped}" if joined else stripped
        if stripped.endswith("|") or stripped.endswith("\\"):
            continue
        yield number, joined
        joined = ""


def test_the_main_scripts_are_checked():
    names = {p.relative_to(ROOT).as_posix() for p in pipefail_scripts()}
    assert {"run_all.sh", ".ci/run"} <= names


def test_no_pipeline_under_pipefail_stops_reading_early():
    found = []
    for path in pipefail_scripts():
        for number, line in logical_lines(path.read_text()):
            if EARLY_READERS.search(line):
                found.append(f"{path.relative_to(ROOT)}:{number}: {line.strip()}")
    assert not found, "pipelines that can end with SIGPIPE (141) under pipefail:\n" + "\n".join(found)


def test_the_rule_holds_for_real_under_bash():
    # What the rule is about, shown in bash itself: 20,000 sorted lines cut by `head` end with 141,
    # the same lines cut by awk end with 0.
    lines = "seq 1 20000 | awk '{print $1 \" a-test-name-long-enough-to-fill-the-pipe\"}' | sort -rn"
    cut_by_head = subprocess.run(["bash", "-c", f"set -o pipefail; {lines} | head -8 >/dev/null"])
    cut_by_awk = subprocess.run(["bash", "-c", f"set -o pipefail; {lines} | awk 'NR <= 8' >/dev/null"])
    assert cut_by_head.returncode == 141
    assert cut_by_awk.returncode == 0
