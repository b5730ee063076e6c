"""Docs/python.md's example prints exactly the output the page shows, and nothing else (no warning
on stderr: the example silences NotPrivateReleaseWarning the documented way, dpclust.set_config)."""
import os
import re
import subprocess
import sys

DOC = os.path.join(os.path.dirname(__file__), "..", "..", "docs", "python.md")


def _example():
    with open(DOC, encoding="utf-8") as f:
        text = f.read()
    section = text.split("## An example", 1)[1]
    blocks = re.findall(r"```(\w*)\n(.*?)```", section, flags=re.S)
    code = next(body for lang, body in blocks if lang == "python")
    shown = blocks[[body for _, body in blocks].index(code) + 1][1]
    return code, shown


def test_the_python_md_example_prints_what_the_page_shows(tmp_path):
    code, shown = _example()
    assert "dpclust.set_config(warn_not_private=False)" in code
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path, timeout=300,
                         env=dict(os.environ, PYTHONWARNINGS="default"))
    assert out.returncode == 0, out.stderr
    assert out.stderr == ""
    assert out.stdout == shown, "docs/python.md's example output is out of date:\n" + out.stdout
