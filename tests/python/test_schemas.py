"""The JSON Schema files of docs/schema/ against real output: results.json of seeded and secure
runs, a local-privacy method and datasets without bounds, and audit.json of a violation and of a
consistent cell. The schemas close every object whose keys are dpclust's own, so a field added to the
output without its documentation fails here."""
import copy
import json
import os
import shutil
import subprocess
import tempfile

import jsonschema
import pytest

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BINARY = os.environ.get("DPCLUST_BINARY", "")
needs_binary = pytest.mark.skipif(not os.path.isfile(BINARY), reason="DPCLUST_BINARY (the dpclust binary) not set")


def validator(name):
    with open(os.path.join(ROOT, "docs", "schema", name)) as f:
        schema = json.load(f)
    jsonschema.Draft202012Validator.check_schema(schema)
    return jsonschema.Draft202012Validator(schema)


def errors(v, doc):
    return [f"{list(e.absolute_path)}: {e.message[:200]}" for e in v.iter_errors(doc)]


@pytest.fixture(scope="module")
def outputs():
    d = tempfile.mkdtemp(prefix="dpclust_schemas_")
    out = os.path.join(d, "out")
    with open(os.path.join(ROOT, "configs", "builtin", "dpdbscan_shapes.yaml")) as f:
        text = f.read()
    secure = os.path.join(d, "secure.yaml")
    with open(secure, "w") as f:  # the same sweep under secure randomness: no seed anywhere
        lines = [line for line in text.splitlines() if not line.startswith("seed:")]
        f.write("\n".join(line.replace("experiment: builtin_dpdbscan_shapes", "experiment: secure_shapes") for line in lines)
                + "\nrandomness: secure\n")
    # Two datasets sharing a file (one record set), three notions on it (no whole-file guarantee), a secure
    # Poisson sample whose rate is withheld (its denominator is the rows read) and an unbounded Baseline.
    with open(os.path.join(d, "pts.csv"), "w") as f:
        f.write("x,y\n" + "".join(f"{(i * 3) % 10},{(i * 7) % 10}\n" for i in range(120)))
    with open(os.path.join(d, "more.csv"), "w") as f:
        f.write("x,y\n" + "".join(f"{(i * 9) % 10},{(i * 1) % 10}\n" for i in range(60)))
    mix = os.path.join(d, "mix.yaml")
    with open(mix, "w") as f:
        f.write("experiment: accounting_mix\nrandomness: secure\ntrials: 1\ndatasets:\n"
                "  - {name: pts, file: pts.csv, label: none, sample: 80, bounds: [[0, 10], [0, 10]],"
                " params: {k: 2, alpha: 1.0, min_pts: 4, g: 8, p: 0.5}}\n"
                "  - {name: both, file: [pts.csv, more.csv], label: none, bounds: [[0, 10], [0, 10]],"
                " params: {k: 2, alpha: 1.0, min_pts: 4, g: 8, p: 0.5}}\n"
                "methods:\n  - method: dp_kmeans\n    params: {epsilon: 1.0}\n  - method: nd_laplace\n    params: {epsilon: 1.0}\n"
                "  - method: dp_dbscan_pairwise\n    params: {epsilon: 1.0}\n"
                "  - method: wc_baseline\n    params: {epsilon: 1.0, n_share: 0.0}\n"
                "metrics: [n_clusters]\n")
    runs = [[os.path.join(ROOT, "configs", "builtin", c) for c in ("dpdbscan_shapes.yaml", "shapes.yaml", "ndlaplace_blobs.yaml")]
            + [secure, mix], ]
    for configs in runs:
        r = subprocess.run([BINARY, "run", *configs, "--out", out, "--trials", "2", "--no-progress"],
                           capture_output=True, text=True, timeout=600)
        assert r.returncode == 0, r.stderr
    for c in ("privthr_em_continuous.yaml", "dp_dbscan_pairwise.yaml"):
        r = subprocess.run([BINARY, "audit", os.path.join(ROOT, "configs", "audit", c), "--out", out, "--no-progress"],
                           capture_output=True, text=True, timeout=600)
        assert r.returncode == 0, r.stderr
    docs = {}
    for e in sorted(os.listdir(out)):
        for kind in ("results.json", "audit.json"):
            p = os.path.join(out, e, kind)
            if os.path.exists(p):
                with open(p) as f:
                    docs[(e, kind)] = json.load(f)
    yield docs
    shutil.rmtree(d, ignore_errors=True)


@needs_binary
def test_results_follow_the_results_schema(outputs):
    v = validator("results.schema.json")
    results = {e: doc for (e, kind), doc in outputs.items() if kind == "results.json"}
    assert set(results) == {"builtin_dpdbscan_shapes", "builtin_shapes", "ndlaplace_blobs", "secure_shapes", "accounting_mix"}
    for e, doc in results.items():
        assert errors(v, doc) == [], e
    mix = results["accounting_mix"]["privacy_accounting"]
    assert len(mix["record_sets"]) == 1 and mix["record_sets"][0]["whole_file"]["holds"] is False
    assert any(t["ledger"].get("subsampled", {}).get("rate", 0) is None for c in results["accounting_mix"]["cells"] for t in c["trials"])
    assert results["secure_shapes"]["randomness"] == "secure" and "base_seed" not in results["secure_shapes"]
    assert any(c["private_release"] for c in results["secure_shapes"]["cells"])  # DP cells under secure randomness


@needs_binary
def test_a_joint_account_follows_the_results_schema(tmp_path):
    """lsh_clustering's ledger: a joint account (joint_total), its steps (joint, epsilon 0) and a pure step in an
    approximate ledger (the step's own measure); under secure randomness the release is private."""
    config = tmp_path / "lsh.yaml"
    config.write_text("experiment: lsh_schema\nrandomness: secure\ntrials: 2\n"
                      "datasets:\n  - name: blobs\n    generator: {type: blobs, n_samples: 3000, centers: 4, n_features: 3, seed: 1}\n"
                      "    bounds: [[-15, 15], [-15, 15], [-15, 15]]\n"
                      "methods:\n  - method: lsh_clustering\n    params: {k: 4, epsilon: 1.0}\n")
    r = subprocess.run([BINARY, "run", str(config), "--out", str(tmp_path / "out"), "--no-progress"], capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == 0, r.stderr
    with open(tmp_path / "out" / "lsh_schema" / "results.json") as f:
        doc = json.load(f)
    assert errors(validator("results.schema.json"), doc) == []
    cell = doc["cells"][0]
    assert cell["private_release"] and all(t["private_release"] for t in cell["trials"])
    steps = cell["trials"][0]["ledger"]["steps"]
    assert [s.get("joint_total", False) for s in steps] == [True, False, False]
    assert steps[1]["measure"] == "pure" and steps[1]["epsilon"] == 0 and steps[1]["joint"] == steps[0]["joint"]


@needs_binary
def test_a_sampled_silhouette_follows_the_results_schema(tmp_path):
    """silhouette_sample below n: each trial's standard error (metric_standard_errors), the cell's sample
    (evaluation_samples) and each metric's seconds (timing.metric_seconds) are documented keys."""
    config = tmp_path / "sampled.yaml"
    config.write_text("experiment: sampled_schema\ntrials: 2\nsilhouette_sample: 100\n"
                      "datasets:\n  - name: blobs\n    generator: {type: blobs, n_samples: 300, centers: 3, n_features: 2, seed: 1}\n"
                      "    bounds: [[-15, 15], [-15, 15]]\n"
                      "methods:\n  - method: kmeans\n    params: {k: 3}\nmetrics: [silhouette, accuracy]\n")
    r = subprocess.run([BINARY, "run", str(config), "--out", str(tmp_path / "out"), "--no-progress"], capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == 0, r.stderr
    with open(tmp_path / "out" / "sampled_schema" / "results.json") as f:
        doc = json.load(f)
    assert errors(validator("results.schema.json"), doc) == []
    cell = doc["cells"][0]
    assert cell["evaluation_samples"]["silhouette"]["points"] == 100 and cell["evaluation_samples"]["silhouette"]["of"] == 300
    assert all(t["metric_standard_errors"]["silhouette"] > 0 for t in cell["trials"])
    assert set(cell["trials"][0]["timing"]["metric_seconds"]) == {"silhouette", "accuracy"}


@needs_binary
def test_audits_follow_the_audit_schema(outputs):
    v = validator("audit.schema.json")
    audits = {e: doc for (e, kind), doc in outputs.items() if kind == "audit.json"}
    assert set(audits) == {"audit_privthr_em_continuous", "audit_dp_dbscan_pairwise"}
    for e, doc in audits.items():
        assert errors(v, doc) == [], e
    # The accounting beside the claim: the continuous threshold is unbounded, the entry-wise pairwise matrix
    # counted at its declared excess.
    continuous = audits["audit_privthr_em_continuous"]["cells"]
    assert any(c["accounting"]["unbounded"] and c["accounting"]["verdict"] == "no finite bound claimed" for c in continuous)
    pairwise = audits["audit_dp_dbscan_pairwise"]["cells"]
    assert any(c["accounting"].get("includes_declared_excess") for c in pairwise)
    assert audits["audit_privthr_em_continuous"]["violations"] == 1


@needs_binary
def test_the_schemas_are_closed_and_check_the_flags(outputs):
    results = copy.deepcopy(outputs[("builtin_dpdbscan_shapes", "results.json")])
    v = validator("results.schema.json")
    undocumented = copy.deepcopy(results)
    undocumented["cells"][0]["trials"][0]["new_field"] = 1
    assert any("new_field" in m for m in errors(v, undocumented))
    seeded_without_seed = copy.deepcopy(results)
    del seeded_without_seed["base_seed"]
    assert errors(v, seeded_without_seed)
    nonprivate_release = copy.deepcopy(results)
    plain = next(c for c in nonprivate_release["cells"] if not c["private"])
    plain["private_release"] = True  # a non-DP method can never be a private release
    assert errors(v, nonprivate_release)
    audit = copy.deepcopy(outputs[("audit_privthr_em_continuous", "audit.json")])
    audit["cells"][0]["pairs"][0]["event"]["family"] = "astrology"
    assert errors(validator("audit.schema.json"), audit)
