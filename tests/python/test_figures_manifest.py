"""plots/make_figures.py: figures drawn in worker processes, redrawn only when their inputs or
code changed (OUT/.figures-manifest.json), PNG by default and PDF on request, a failing figure reported
without losing the others. Runs on small synthetic results (generic figures); the paper figures find
their experiments absent and draw nothing."""
import json
import os
import pathlib
import sys

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "plots"))

import make_figures  # noqa: E402
import plot_results  # noqa: E402


def experiment(name, scale):
    cells = []
    for series in ("a", "b"):
        for eps in (0.5, 1.0, 2.0):
            mean = scale * eps / (2.0 if series == "a" else 3.0)
            cells.append({"dataset": "ds", "series": series, "params": {"epsilon": eps},
                          "aggregates": {"ari": {"n": 3, "mean": mean, "ci95": [mean - 0.01, mean + 0.01]}},
                          "trials": [{"trial": 0, "metrics": {"ari": mean}}]})
    return {"schema": "dpclust.results/1", "experiment": name, "trials": 1, "cells": cells}


def write(results, name, doc):
    d = results / name
    d.mkdir(parents=True, exist_ok=True)
    (d / "results.json").write_text(json.dumps(doc))


@pytest.fixture()
def dirs(tmp_path):
    results, out = tmp_path / "results", tmp_path / "out"
    write(results, "exp_one", experiment("exp_one", 1.0))
    write(results, "exp_two", experiment("exp_two", 0.5))
    make_figures._CODE.clear()
    return results, out


def run(results, out, **kw):
    counts, figures = make_figures.run(results, out, log=open(os.devnull, "w"), **kw)
    return counts, figures


def drawn_ids(figures_before, figures_after):
    """Jobs whose record changed between two manifests (a redrawn job gets a new record)."""
    return sorted(k for k, v in figures_after.items() if figures_before.get(k) is not v)


def stamps(out):
    return {p.name: p.stat().st_mtime_ns for p in out.iterdir() if not p.name.startswith(".")}


def default_jobs(results):
    """The jobs of a run without --comparison."""
    return [j for j in make_figures.list_jobs(results) if not make_figures.on_request(j)]


def test_comparison_figures_on_request(dirs):
    results, out = dirs
    run(results, out, jobs=1)
    assert not (out / "comparison").exists()  # not drawn unless asked for
    counts, _ = run(results, out, jobs=1, comparison=True)
    assert counts["drawn"] == 2 and counts["failed"] == 0  # one comparison job per experiment
    figure = out / "comparison" / "exp_one" / "ds__ari.png"
    assert figure.is_file()
    counts, figures = run(results, out, jobs=1)  # up to date: kept without --comparison
    assert counts["drawn"] == 0 and figure.is_file() and "plot_comparison:exp_one" in figures
    write(results, "exp_one", experiment("exp_one", 0.9))
    counts, figures = run(results, out, jobs=1)  # out of date and not asked for: removed, not redrawn
    assert counts["drawn"] == 1  # exp_one's generic figure
    assert not figure.exists() and "plot_comparison:exp_one" not in figures
    assert (out / "comparison" / "exp_two" / "ds__ari.png").is_file()


def test_second_run_redraws_nothing(dirs):
    results, out = dirs
    counts, _ = run(results, out, jobs=1)
    assert counts["failed"] == 0
    assert sorted(p.name for p in out.glob("*.png")) == ["exp_one_ari.png", "exp_two_ari.png"]
    assert not list(out.glob("*.pdf"))  # PNG by default
    before = stamps(out)
    counts, _ = run(results, out, jobs=1)
    assert counts["drawn"] == 0 and counts["skipped"] == 0 and counts["failed"] == 0
    assert counts["up_to_date"] == len(default_jobs(results))
    assert stamps(out) == before


def test_changed_results_redraw_only_their_figure(dirs):
    results, out = dirs
    run(results, out, jobs=1)
    before = stamps(out)
    manifest = json.loads((out / make_figures.MANIFEST).read_text())
    assert set(manifest["figures"]["plot_results:exp_one"]["inputs"]) == {"exp_one/results.json"}
    write(results, "exp_one", experiment("exp_one", 0.9))
    counts, figures = run(results, out, jobs=1)
    assert counts["drawn"] == 1
    after = stamps(out)
    assert after["exp_one_ari.png"] != before["exp_one_ari.png"]
    assert after["exp_two_ari.png"] == before["exp_two_ari.png"]
    assert figures["plot_results:exp_one"]["inputs"]["exp_one/results.json"] != \
        manifest["figures"]["plot_results:exp_one"]["inputs"]["exp_one/results.json"]


def test_touched_but_unchanged_results_are_not_redrawn(dirs):
    results, out = dirs
    run(results, out, jobs=1)
    f = results / "exp_two" / "results.json"
    st = f.stat()
    os.utime(f, ns=(st.st_atime_ns, st.st_mtime_ns + 5_000_000_000))  # new mtime, same bytes
    counts, _ = run(results, out, jobs=1)
    assert counts["drawn"] == 0


def test_new_experiment_and_removed_experiment(dirs):
    results, out = dirs
    run(results, out, jobs=1)
    write(results, "exp_three", experiment("exp_three", 2.0))
    counts, _ = run(results, out, jobs=1)
    assert counts["drawn"] == 1 and (out / "exp_three_ari.png").is_file()
    (results / "exp_three" / "results.json").unlink()
    counts, figures = run(results, out, jobs=1)
    assert counts["drawn"] == 0
    assert "plot_results:exp_three" not in figures
    assert not (out / "exp_three_ari.png").exists()  # its figure was the manifest's, and is stale


def test_force_and_code_change_redraw(dirs):
    results, out = dirs
    run(results, out, jobs=1)
    n_jobs = len(default_jobs(results))
    counts, _ = run(results, out, jobs=1, force=True)
    assert counts["drawn"] + counts["skipped"] == n_jobs and counts["up_to_date"] == 0
    make_figures._CODE["plot_results"] = "another version of plot_results.py"
    counts, _ = run(results, out, jobs=1)
    assert counts["drawn"] == 2  # the two generic figures; the paper modules' code is unchanged


def test_pdf_on_request(dirs):
    results, out = dirs
    run(results, out, jobs=1, pdf=True)
    assert (out / "exp_one_ari.pdf").read_bytes()[:4] == b"%PDF"
    assert (out / "exp_one_ari.png").read_bytes()[1:4] == b"PNG"
    # A PNG-only run after a PDF run has nothing to do: the PDF run wrote both.
    counts, _ = run(results, out, jobs=1)
    assert counts["drawn"] == 0
    # Redrawn as PNG only, a figure's PDF would be stale: it goes.
    write(results, "exp_one", experiment("exp_one", 0.7))
    counts, _ = run(results, out, jobs=1)
    assert counts["drawn"] == 1
    assert not (out / "exp_one_ari.pdf").exists() and (out / "exp_two_ari.pdf").exists()
    # The same figures twice as PDF give the same bytes (no creation date).
    run(results, out, jobs=1, pdf=True)
    first = (out / "exp_one_ari.pdf").read_bytes()
    run(results, out, jobs=1, pdf=True, force=True)
    assert (out / "exp_one_ari.pdf").read_bytes() == first


def test_a_failing_figure_is_reported_and_the_others_drawn(dirs):
    results, out = dirs
    bad = experiment("exp_bad", 1.0)
    bad["cells"][0]["aggregates"]["ari"] = "not an aggregate"
    write(results, "exp_bad", bad)
    counts, figures = run(results, out, jobs=2)
    assert counts["failed"] == 1
    assert (out / "exp_one_ari.png").is_file() and (out / "exp_two_ari.png").is_file()
    assert "plot_results:exp_bad" not in figures or figures["plot_results:exp_bad"]["status"] == "error"
    manifest = json.loads((out / make_figures.MANIFEST).read_text())
    assert "plot_results:exp_bad" not in manifest["figures"]  # so the next run retries it
    counts, _ = run(results, out, jobs=1)
    assert counts["failed"] == 1 and counts["drawn"] == 0


def test_parallel_and_serial_draw_the_same_bytes(dirs, tmp_path):
    results, out = dirs
    run(results, out, jobs=1)
    out2 = tmp_path / "out2"
    counts, _ = run(results, out2, jobs=2)
    assert counts["workers"] == 2
    for png in out.glob("*.png"):
        assert (out2 / png.name).read_bytes() == png.read_bytes(), png.name


def test_an_absent_input_that_appears_redraws(tmp_path):
    """A figure that looked for a preferred experiment and fell back records it as absent; when it
    appears, the figure is out of date."""
    results, out = tmp_path / "results", tmp_path / "out"
    results.mkdir()
    out.mkdir()
    record = {"status": "ok", "code": "c", "formats": ["png"], "outputs": [],
              "inputs": {"preferred/results.json": "absent"}}
    assert make_figures.up_to_date(record, "c", ("png",), make_figures.Inputs(results, {}), out)
    write(results, "preferred", experiment("preferred", 1.0))
    assert not make_figures.up_to_date(record, "c", ("png",), make_figures.Inputs(results, {}), out)
    # And the glob pattern a figure scanned (the audit figure's */audit.json) changes with a new match.
    inputs = make_figures.Inputs(results, {})
    before = inputs("*/audit.json")
    (results / "preferred" / "audit.json").write_text("{}")
    assert make_figures.Inputs(results, {})("*/audit.json") != before


def test_load_first_tracks_what_it_probed(tmp_path):
    results = tmp_path / "results"
    write(results, "second", experiment("second", 1.0))
    plot_results.begin_tracking()
    name, data = plot_results.load_first(results, ["first", "second", "third"])
    tracked = plot_results.end_tracking()
    assert name == "second" and data["experiment"] == "second"
    assert [pathlib.Path(p).relative_to(results).as_posix() for p in tracked] == \
        ["first/results.json", "second/results.json"]
    # The parsed file is shared by later calls (one parse per worker), and not tracked outside a job.
    assert plot_results.load_first(results, ["second"])[1] is data
    assert plot_results.end_tracking() == []


def test_only_some_experiments_leaves_every_other_record_alone(dirs):
    results, out = dirs
    _, before = run(results, out, jobs=1)
    t0 = stamps(out)
    write(results, "exp_one", experiment("exp_one", 0.8))
    write(results, "exp_two", experiment("exp_two", 0.4))
    counts, after = run(results, out, jobs=1, only={"plot_results:exp_two"})
    t1 = stamps(out)
    assert counts["drawn"] == 1
    assert sorted(f for f in t1 if t1[f] != t0.get(f)) == ["exp_two_ari.png"]
    assert after == before | {"plot_results:exp_two": after["plot_results:exp_two"]}  # every other record as it was
    counts, _ = run(results, out, jobs=1)  # the full run then redraws exp_one only
    assert counts["drawn"] == 1


def test_keep_drawn_is_not_forced_again(dirs):
    results, out = dirs
    run(results, out, jobs=1)
    write(results, "exp_one", experiment("exp_one", 0.7))
    write(results, "exp_two", experiment("exp_two", 0.3))
    run(results, out, jobs=1, only={"plot_results:exp_one"}, force=True)
    t0 = stamps(out)
    run(results, out, jobs=1, force=True, keep_drawn=["plot_results:exp_one"])
    t1 = stamps(out)
    assert t1["exp_one_ari.png"] == t0["exp_one_ari.png"] and t1["exp_two_ari.png"] != t0["exp_two_ari.png"]
    # Out of date again (new results): kept only while up to date.
    write(results, "exp_one", experiment("exp_one", 0.6))
    run(results, out, jobs=1, force=True, keep_drawn=["plot_results:exp_one"])
    assert stamps(out)["exp_one_ari.png"] != t1["exp_one_ari.png"]


def test_follow_draws_each_experiment_as_it_is_queued_and_stops_at_end(dirs, tmp_path):
    import threading
    import time
    results, out = dirs
    queue = tmp_path / "queue"
    queue.write_text("")
    result = {}
    follower = threading.Thread(target=lambda: result.update(
        r=make_figures.follow(queue, results, out, log=open(os.devnull, "w"))))
    follower.start()
    queue.write_text("exp_two\nno_such_experiment\n")
    done = tmp_path / "queue.done"
    for _ in range(200):  # until both are done (10 s at most)
        if done.is_file() and done.read_text().split() == ["plot_results:exp_two"]:
            break
        time.sleep(0.05)
    queue.write_text("exp_two\nno_such_experiment\nexp_one\nEND\n")  # END stops it before exp_one
    follower.join(timeout=30)
    assert not follower.is_alive()
    drawn, failed, _ = result["r"]
    assert (drawn, failed) == (1, 0)
    assert done.read_text().split() == ["plot_results:exp_two"]  # what it drew
    assert (out / "exp_two_ari.png").is_file() and not (out / "exp_one_ari.png").exists()
    manifest = json.loads((out / make_figures.MANIFEST).read_text())["figures"]
    assert "plot_results:exp_two" in manifest and "plot_results:exp_one" not in manifest


def test_a_paper_figure_is_ready_when_every_experiment_it_read_is_finished(tmp_path):
    results, out = tmp_path / "results", tmp_path / "out"
    results.mkdir()
    out.mkdir()
    make_figures.write_manifest(out, results, {
        "paper_x.two": {"status": "ok", "inputs": {"a/results.json": "d1", "b/results.json": "absent"}},
        "paper_x.glob": {"status": "ok", "inputs": {"a/results.json": "d1", "*/audit.json": "glob:0"}},
        "paper_x.skipped": {"status": "skipped", "inputs": {"a/results.json": "absent"}},
        "paper_x.outside": {"status": "ok", "inputs": {"/elsewhere/results.json": "d2"}},
        "plot_results:a": {"status": "ok", "inputs": {"a/results.json": "d1"}},
    }, {})
    assert make_figures.ready_paper_jobs(out, results, {"a"}) == set()
    assert make_figures.ready_paper_jobs(out, results, {"a", "b"}) == {"paper_x.two"}
