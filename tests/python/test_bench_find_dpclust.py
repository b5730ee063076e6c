"""The one search for the dpclust binary that every bench script uses (bench/reference_common.py)."""
import os
import pathlib
import stat
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "bench"))

import reference_common as rc  # noqa: E402


def executable(path):
    path.write_text("#!/bin/sh\nexit 0\n")
    path.chmod(path.stat().st_mode | stat.S_IXUSR)
    return str(path)


def test_the_named_binary_is_used(tmp_path, monkeypatch):
    monkeypatch.delenv("DPCLUST", raising=False)
    binary = executable(tmp_path / "my-dpclust")
    assert rc.find_dpclust(binary) == binary
    monkeypatch.setenv("DPCLUST", binary)
    assert rc.find_dpclust() == binary


def test_a_named_binary_that_is_not_executable_stops_the_script(tmp_path, monkeypatch):
    # Timing another build than the one named would give numbers of the wrong binary without a word.
    monkeypatch.delenv("DPCLUST", raising=False)
    missing = str(tmp_path / "no-such-dpclust")
    with pytest.raises(SystemExit) as stop:
        rc.find_dpclust(missing)
    assert "--dpclust" in str(stop.value) and missing in str(stop.value)
    plain = tmp_path / "not-executable"
    plain.write_text("")
    monkeypatch.setenv("DPCLUST", str(plain))
    with pytest.raises(SystemExit) as stop:
        rc.find_dpclust()
    assert "$DPCLUST" in str(stop.value)


def test_the_scripts_share_the_one_search():
    for script in ("reference_dpm.py", "reference_lsh_clustering.py", "scaling.py", "dpdbscan_memory.py"):
        text = (ROOT / "bench" / script).read_text()
        assert "def find_dpclust" not in text, script
        assert "find_dpclust(args.dpclust)" in text, script
