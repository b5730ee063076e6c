"""A `method: python` mechanism as a researcher writes one (docs/researcher.md): scored on the k-means measures
from the centres it returns, given the side information it declares, its public randomness drawn without the
data, checked by `validate` on its data, and failing with messages that never print a value of the data.
The mechanisms are in dpclust_test_mechanisms.py; the researcher's example is python/examples/private_lloyd.py.
"""
import json
import os
import subprocess
import sys

import numpy as np
import pytest

import dpclust
from dpclust import metrics

HERE = os.path.dirname(os.path.abspath(__file__))
SOURCE = os.path.dirname(os.path.dirname(HERE))
EXAMPLE = os.path.join(SOURCE, "python", "examples", "private_lloyd.yaml")
SECRET = 123456.789  # a distinctive coordinate: printed with any precision it starts with 123456 or 1.23456
SECRET_TEXTS = ("123456", "1.23456", "1.2345")


def _blobs(k=3):
    return {"name": "blobs", "generator": {"type": "gaussian_mixture", "n_samples": 600, "components": k, "n_features": 2,
                                           "sd": 1.0, "box_lo": -10, "box_hi": 10, "seed": 3},
            "bounds": [[-15, 15], [-15, 15]], "clip_to_bounds": True, "params": {"k": k}}


def _lloyd(callable_name="lloyd_step", init="box_start", **extra):
    entry = {"method": "python", "callable": f"dpclust_test_mechanisms:{callable_name}", "as": "lloyd",
             "releases_centres": True, "declare": {"k": {"type": "int", "min": 1}}, "params": {"epsilon": [0.5, 2.0]}}
    if init:
        entry["init"] = f"dpclust_test_mechanisms:{init}"
    entry.update(extra)
    return entry


def _config(*methods, trials=3, randomness=None, metrics_=("normalized_kmeans_cost", "inertia", "centre_distance", "ari")):
    config = {"experiment": "py_kmeans", "seed": 11, "trials": trials, "datasets": [_blobs()], "methods": list(methods),
              "metrics": list(metrics_)}
    if randomness:
        config.pop("seed")
        config["randomness"] = randomness
    return config


def _cells(out, experiment="py_kmeans"):
    with open(os.path.join(out, experiment, "results.json")) as f:
        return json.load(f)["cells"]


# --- centres: the k-means measures ------------------------------------------------------------------------

def test_returned_centres_are_scored_on_the_kmeans_measures_as_for_a_builtin_method(tmp_path):
    out = str(tmp_path)
    dpclust.run(_config(_lloyd(), {"method": "dp_kmeans", "params": {"epsilon": [0.5, 2.0]}}), out=out)
    data = dpclust.load_dataset(_config("uniform_centres"), "blobs")
    cells = [c for c in _cells(out) if c["series"] == "lloyd"]
    assert len(cells) == 2
    for cell in cells:
        for trial in cell["trials"]:
            centres = np.asarray(trial["release"]["centers"])  # the centres, released under the built-ins' key
            assert centres.shape == (3, 2)
            m = trial["metrics"]
            # The runner's measures on the returned centres: the values dpclust.metrics gives for them.
            assert m["inertia"] == metrics.inertia(data.X, centres)
            assert m["normalized_kmeans_cost"] == metrics.normalized_kmeans_cost(data.X, centres, k=3)
            assert m["centre_distance"] == metrics.centre_distance(data.X, centres, k=3, bounds=data.bounds)
            assert 1.0 <= m["normalized_kmeans_cost"] < 50
        # No labels returned: each point is labelled by its nearest released centre, for evaluation only.
        assert any("evaluation only" in note for note in cell["evaluation_only"])
    # Its row is in the cost tables of the comparison, beside dp_kmeans.
    markdown = dpclust.report(out)["markdown"]
    cost = markdown.split("normalized_kmeans_cost", 1)[1].split("\n\n#", 1)[0]
    assert "| lloyd" in cost and "| dp_kmeans" in cost


def test_centres_must_be_declared_and_then_returned(tmp_path):
    undeclared = {"method": "python", "callable": "dpclust_test_mechanisms:centres_undeclared", "declare": {"k": 3},
                  "params": {"epsilon": 1.0}}
    with pytest.raises(RuntimeError, match="add `releases_centres: true` to the method's entry"):
        dpclust.run(_config(undeclared, trials=1, metrics_=("ari",)), out=str(tmp_path / "a"))
    declared = dict(undeclared, callable="dpclust_test_mechanisms:one_cluster", releases_centres=True)
    with pytest.raises(RuntimeError, match="returned no centres, but its entry declares `releases_centres: true`"):
        dpclust.run(_config(declared, trials=1, metrics_=("ari",)), out=str(tmp_path / "b"))


# --- side information -------------------------------------------------------------------------------------------

def test_a_declared_k_is_the_public_k_and_the_comparison_marks_nothing(tmp_path):
    out = str(tmp_path)
    dpclust.run(_config(_lloyd(), {"method": "dp_kmeans", "params": {"epsilon": [0.5, 2.0]}}, trials=2), out=out)
    for cell in _cells(out):
        k = [r for r in cell["side_information"] if r["input"] == "k"]
        assert k == [{"input": "k", "source": "public", "value": 3, "how": "given in the config", "params": ["k"]}], cell["series"]
        assert cell["tuning"]["oracle"] is False
    markdown = dpclust.report(out)["markdown"]
    assert "- k: " not in markdown  # the side-information differences list no k
    assert "| lloyd ◇" not in markdown and "not used: lloyd" not in markdown


def test_a_python_method_that_declares_k_is_recorded_as_given_k(tmp_path):
    # Only keys a config could always use: `k` declared like any parameter, beside dp_kmeans with the same k.
    entry = {"method": "python", "callable": "dpclust_test_mechanisms:grid_counts", "as": "grid",
             "declare": {"cells": {"type": "integer", "default": 10, "min": 1}, "min_count": 3.0,
                         "k": {"type": "integer", "min": 1}},
             "params": {"epsilon": [1.0]}}
    out = str(tmp_path)
    dpclust.run(_config(entry, {"method": "dp_kmeans", "params": {"epsilon": [1.0]}}, trials=2, metrics_=("ari",)), out=out)
    grid = [c for c in _cells(out) if c["series"] == "grid"][0]
    assert [r for r in grid["side_information"] if r["input"] == "k"] == [
        {"input": "k", "source": "public", "value": 3, "how": "given in the config", "params": ["k"]}]
    markdown = dpclust.report(out)["markdown"]
    assert "not used: grid" not in markdown and "- k: " not in markdown


# --- randomness -------------------------------------------------------------------------------------------------

def test_public_draws_in_init_keep_a_secure_release_private_and_draws_beside_the_data_do_not(tmp_path):
    out = str(tmp_path)
    config = _config(_lloyd(), _lloyd("lloyd_step_drawing_inside", init=None, **{"as": "inside"}),
                     _lloyd("lloyd_step_global_numpy", init=None, **{"as": "global"}), trials=2, randomness="secure",
                     metrics_=("inertia",))
    dpclust.run(config, out=out)
    by_series = {c["series"]: c for c in _cells(out) if c["params"]["epsilon"] == 2.0}
    assert by_series["lloyd"]["non_private"] == [] and by_series["lloyd"]["private_release"] is True
    assert all(t["private_release"] for t in by_series["lloyd"]["trials"])
    inside, global_ = by_series["inside"], by_series["global"]
    assert any("numpy's generator (rng) while the mechanism held the data" in n for n in inside["non_private"])
    assert any("numpy's global generator" in n for n in global_["non_private"])
    assert not inside["private_release"] and not global_["private_release"]


def test_the_researchers_example_runs_and_its_draws_are_public(tmp_path):
    out = str(tmp_path)
    summary = dpclust.run(EXAMPLE, out=out, trials=2)
    assert summary["complete"]
    cells = _cells(out, "python_private_lloyd")
    lloyd = [c for c in cells if c["series"] == "private_lloyd"]
    assert len(lloyd) == 3 and all(c["non_private"] == [] for c in lloyd)
    for cell in lloyd:
        steps = cell["trials"][0]["ledger"]["steps"]
        # 5 iterations x (counts + 2 coordinates' sums), epsilon split exactly.
        assert len(steps) == 15 and sum(s["epsilon"] for s in steps) == pytest.approx(cell["params"]["epsilon"])
        assert {s["mechanism"] for s in steps} == {"discrete_laplace", "snapping_laplace"}
        assert all(np.isfinite(t["metrics"]["normalized_kmeans_cost"]) for t in cell["trials"])
        n = [r for r in cell["side_information"] if r["input"] == "n"]
        assert n and n[0]["source"] == "none" and n[0]["params"] == ["n_public"]


def test_the_researchers_digits_sweep_runs_from_a_fresh_folder(tmp_path, monkeypatch):
    # docs/researcher.md, step by step, with 2 trials instead of 10.
    import shutil
    for name in ("private_lloyd.py", "digits_sweep.yaml", "export_digits.py"):
        shutil.copy(os.path.join(SOURCE, "python", "examples", name), tmp_path)
    monkeypatch.chdir(tmp_path)
    r = subprocess.run([sys.executable, "export_digits.py"], capture_output=True, text=True, timeout=120)
    assert r.returncode == 0 and "1797 rows, 64 pixel columns" in r.stdout, r.stderr
    assert dpclust.validate("digits_sweep.yaml")["cells"] == 22  # 20 private cells and the two reference rows
    dpclust.run("digits_sweep.yaml", out="results", trials=2)
    markdown = dpclust.report("results")["markdown"]
    cost = markdown.split("digits · normalized_kmeans_cost", 1)[1].split("\n####", 1)[0]
    for row in ("private_lloyd", "lsh_clustering", "dpm", "dp_kmeans", "dp_kmeans_diffprivlib", "uniform_centres", "kmeans"):
        assert f"| {row} " in cost, row
    assert "- k: given 10 (private_lloyd, lsh_clustering, dp_kmeans, dp_kmeans_diffprivlib, uniform_centres)" in cost
    # One delta for the table's (eps, delta) methods, set once at the dataset level.
    assert "- delta: not given (not used: private_lloyd, dp_kmeans, dp_kmeans_diffprivlib, uniform_centres); given 1.3e-05 (lsh_clustering, dpm)" in cost
    assert "δ differs" not in cost
    lloyd = [c for c in _cells("results", "digits_sweep") if c["series"] == "private_lloyd"]
    assert len(lloyd) == 4 and all(c["non_private"] == [] for c in lloyd)


# --- validate -----------------------------------------------------------------------------------------------

def _outside_bounds(tmp_path):
    rows = np.array([[1.0, 2.0], [3.0, 4.0], [20.0, 5.0], [6.0, 7.0]])
    np.savetxt(tmp_path / "points.csv", rows, delimiter=",", fmt="%.17g")
    config = tmp_path / "config.yaml"
    config.write_text(json.dumps({"experiment": "oob", "seed": 0, "trials": 1,
                                  "datasets": [{"name": "d", "data_file": str(tmp_path / "points.csv"), "bounds": [[0, 16], [0, 16]]}],
                                  "methods": [{"method": "python", "callable": "dpclust_test_mechanisms:one_cluster",
                                               "params": {"epsilon": 1.0}}]}))
    return str(config)


def test_validate_reads_the_data_of_a_config_with_a_python_method(tmp_path):
    config = _outside_bounds(tmp_path)
    with pytest.raises(ValueError, match=r"point 2 \(0-based, in file order\): coordinate 0 .* is outside the public bounds"):
        dpclust.validate(config)
    assert dpclust.validate(config, load_data=False)["cells"] == 1  # what the config says is fine
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([HERE] + sys.path))
    r = subprocess.run([sys.executable, "-m", "dpclust", "validate", config], capture_output=True, text=True, env=env, timeout=120)
    assert r.returncode == 2, r.stdout + r.stderr
    assert "is outside the public bounds [0, 16]" in r.stderr and "ok" not in r.stdout
    r = subprocess.run([sys.executable, "-m", "dpclust", "validate", "--no-load-data", config], capture_output=True, text=True,
                       env=env, timeout=120)
    assert r.returncode == 0 and ": ok (1 cells x 1 trials" in r.stdout, r.stdout + r.stderr


# --- declarations -------------------------------------------------------------------------------------------

def test_parameter_types_as_python_users_write_them(tmp_path):
    entry = {"method": "python", "callable": "dpclust_test_mechanisms:grid_counts", "as": "grid",
             "declare": {"cells": {"type": "int", "default": 10, "min": 1}, "min_count": {"type": "float", "default": 3.0},
                         "verbose": {"type": "bool", "default": False}, "tag": {"type": "str", "default": "x"},
                         "mode": {"type": "choice", "choices": ["a", "b"], "default": "a"}},
             "params": {"epsilon": 1.0, "cells": [5, 8], "mode": ["a", "b"]}}
    config = {"experiment": "types", "seed": 1, "trials": 1, "datasets": [dict(_blobs(), params={})], "methods": [entry],
              "metrics": ["ari"]}
    assert dpclust.run(config, out=str(tmp_path))["cells_run"] == 4


# --- error messages print no value ---------------------------------------------------------------------------

def _secret_config(tmp_path, mechanism):
    rng = np.random.default_rng(0)
    X = rng.uniform(10, 90, size=(40, 2))
    X[2] = (SECRET, 50.0)
    np.savetxt(tmp_path / "secret.csv", X, delimiter=",", fmt="%.17g")
    return {"experiment": "secret", "seed": 1, "trials": 1,
            "datasets": [{"name": "s", "data_file": str(tmp_path / "secret.csv"), "bounds": [[0, 200000], [0, 200000]]}],
            "methods": [{"method": "python", "callable": f"dpclust_test_mechanisms:{mechanism}", "params": {"epsilon": 1.0}}],
            "metrics": ["n_clusters"]}


def _failure(tmp_path, mechanism):
    with pytest.raises(RuntimeError) as error:
        dpclust.run(_secret_config(tmp_path, mechanism), out=str(tmp_path / "out"))
    message = str(error.value)
    assert not [s for s in SECRET_TEXTS if s in message], message
    assert "Invoked with" not in message
    return message


@pytest.mark.parametrize("mechanism, expected", [
    ("ledger_call_missing_epsilon", "Ledger.laplace_counts(): missing epsilon. Expected laplace_counts(values: object, *, "
                                    "sensitivity: float, epsilon: float, step: str, note: str = '', sampler: str = 'secure')"),
    ("ledger_call_wrong_type", "Ledger.laplace_reals(): sensitivity must be float, got str. Expected laplace_reals(values: object, "
                               "*, sensitivity: float, epsilon: float, bound: float, step: str"),
    ("fractional_counts", "Ledger.laplace_counts: value 0 (0-based, flattened) is not a whole number"),
])
def test_a_wrong_ledger_call_names_the_function_and_signature_and_no_value(tmp_path, mechanism, expected):
    message = _failure(tmp_path, mechanism)
    assert expected in message, message
    assert f"in {mechanism}" in message  # the mechanism's frame, with its source line


def test_a_mechanisms_own_error_is_shown_without_its_message(tmp_path, monkeypatch):
    message = _failure(tmp_path, "own_error_quoting_a_record")
    assert "ValueError (its message is not shown: it can quote the data" in message, message
    assert 'raise ValueError(f"cannot place the point {points[2].tolist()}")' in message  # the source line is code
    monkeypatch.setenv("DPCLUST_SHOW_ERROR_TEXT", "1")  # for data that are not private
    with pytest.raises(RuntimeError, match="cannot place the point"):
        dpclust.run(_secret_config(tmp_path, "own_error_quoting_a_record"), out=str(tmp_path / "shown"))


def test_a_missing_parameter_names_the_cells_parameters(tmp_path):
    config = _secret_config(tmp_path, "box_start")  # box_start reads params["k"], which this entry does not declare
    config["methods"][0]["callable"] = "dpclust_test_mechanisms:lloyd_step_drawing_inside"
    with pytest.raises(RuntimeError, match=r"'k' is not a parameter of this cell; its parameters: epsilon"):
        dpclust.run(config, out=str(tmp_path / "out"))


def test_the_bindings_print_no_argument_values():
    labels = np.array([int(SECRET), 1, 2])
    X = np.array([[SECRET, 1.0], [2.0, 3.0]])
    calls = [lambda: metrics.ari(labels), lambda: metrics.inertia(X, X, 3), lambda: metrics.ari(labels, labels, matching="x"),
             lambda: metrics.ocm(labels, labels, matching=3)]
    for call in calls:
        with pytest.raises(TypeError) as error:
            call()
        message = str(error.value)
        assert not [s for s in SECRET_TEXTS if s in message] and "Invoked with" not in message, message
        assert "Expected " in message and "types only" in message, message
    with pytest.raises(TypeError, match=r"ari\(\): missing labels_pred\. Expected ari\(labels_true: object, labels_pred: object\)"):
        metrics.ari(labels)


# --- estimators that release centres -----------------------------------------------------------------------------

@pytest.mark.parametrize("make", [
    lambda: dpclust.DPKMeans(3, epsilon=2.0), lambda: dpclust.EUGkM(3, epsilon=2.0), lambda: dpclust.HybridKMeans(3, epsilon=2.0),
    lambda: dpclust.LSHClustering(3, epsilon=2.0), lambda: dpclust.DPM(epsilon=2.0), lambda: dpclust.FastLloyd(3, epsilon=2.0),
    lambda: dpclust.HSTClustering(3, epsilon=2.0),
])
def test_every_centre_releasing_estimator_has_inertia_as_a_non_private_diagnostic(make):
    X, _ = dpclust.datasets.make_blobs(n_samples=600, centers=3, random_state=2)
    est = make().set_params(bounds=((-15, -15), (15, 15)), random_state=4).fit(X)
    assert est.inertia_ == metrics.inertia(X, est.cluster_centers_)  # the results files' inertia
    assert est.inertia_ == pytest.approx(-est.score(X), rel=1e-9)
    assert any(note.startswith("inertia_ ") and "non-private diagnostic" in note for note in est.evaluation_only_)


def test_dpm_scores_transforms_and_refuses_sample_weight_with_its_reason():
    X, _ = dpclust.datasets.make_blobs(n_samples=600, centers=3, random_state=2)
    dpm = dpclust.DPM(epsilon=2.0, bounds=((-15, -15), (15, 15)), random_state=4).fit(X)
    distances = dpm.transform(X[:5])
    assert distances.shape == (5, dpm.n_clusters_)
    assert np.array_equal(distances.argmin(axis=1), dpm.predict(X[:5]))
    assert dpm.score(X) == pytest.approx(-(distances.min(axis=1) ** 2).sum() - ((dpm.transform(X[5:]).min(axis=1) ** 2).sum()))
    with pytest.raises(TypeError, match="DPM.fit does not take sample_weight: DP with weights changes the neighbouring relation"):
        dpm.fit(X, sample_weight=np.ones(len(X)))
