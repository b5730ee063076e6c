"""`dpclust audit` on deliberately broken Python mechanisms (broken_mechanisms.py): a
private bit in the lowest mantissa bit and the count's parity at epsilon 0.1 are violations, found by the
audit's bit and parity event families; the correct count stays consistent.

Run by CTest (python_dpclust) with DPCLUST_BINARY at the build's binary, which hands a `method: python`
config to `python3 -m dpclust audit` (experiments/python_handoff.cpp)."""
import json
import os
import shutil
import subprocess
import tempfile

import pytest

HERE = os.path.dirname(os.path.abspath(__file__))
BINARY = os.environ.get("DPCLUST_BINARY", "")
needs_binary = pytest.mark.skipif(not os.path.isfile(BINARY), reason="DPCLUST_BINARY (the dpclust binary) not set")


@pytest.fixture
def workdir():
    d = tempfile.mkdtemp(prefix="dpclust_audit_py_")
    try:
        yield d
    finally:
        shutil.rmtree(d, ignore_errors=True)


def audit(workdir, mechanism, epsilon):
    """`dpclust audit` of one mechanism of broken_mechanisms.py on 200 points, D' = D plus one record."""
    shutil.copy(os.path.join(HERE, "broken_mechanisms.py"), workdir)  # found next to the config
    config = {"experiment": f"audit_{mechanism}",
              "datasets": [{"name": "b", "generator": {"type": "blobs", "n_samples": 200, "centers": 2, "seed": 3},
                            "bounds": [[-15, 15], [-15, 15]]}],
              "methods": [{"method": "python", "callable": f"broken_mechanisms:{mechanism}", "params": {"epsilon": epsilon}}],
              "audit": {"runs": 4000, "pilot_runs": 400, "pairs": [{"name": "canary", "add": [14.0, 14.0]}], "seed": 5}}
    path = os.path.join(workdir, f"{mechanism}.yaml")
    with open(path, "w") as f:
        json.dump(config, f, indent=1)  # JSON is YAML
    out = os.path.join(workdir, "out")
    r = subprocess.run([BINARY, "audit", path, "--out", out, "--no-progress"], capture_output=True, text=True, timeout=240)
    assert r.returncode == 0, r.stderr
    with open(os.path.join(out, f"audit_{mechanism}", "audit.json")) as f:
        (cell,) = json.load(f)["cells"]
    return cell


@needs_binary
def test_a_private_bit_in_the_lowest_mantissa_bit_is_a_violation(workdir):
    cell = audit(workdir, "mantissa_bit", 1.0)
    event = cell["pairs"][0]["event"]
    assert cell["verdict"] == "violation", cell
    assert event["family"] == "bits" and event["feature"] == "release.value~lsb", event
    assert cell["eps_lower"] > 5.0  # the bit is deterministic: 2,000 runs vs none


@needs_binary
def test_the_counts_parity_is_a_violation_at_epsilon_0_1(workdir):
    cell = audit(workdir, "count_parity", 0.1)
    assert cell["verdict"] == "violation", cell
    assert cell["pairs"][0]["event"]["family"] == "parity", cell["pairs"][0]["event"]
    assert cell["eps_lower"] > 5.0


@needs_binary
def test_the_correct_count_is_consistent(workdir):
    cell = audit(workdir, "honest_count", 0.1)
    assert cell["verdict"] == "consistent", cell
