"""Experiments from Python: the engine's runner, audit and report, and results as data frames.

``run(config)`` is ``dpclust run`` (same grid, seeds, resume and files: a results directory written from
Python and one written by the CLI are interchangeable); ``config`` is a YAML file or a dict with the same
keys. ``load_results(dir)`` gives one row per trial with the cell's parameters and the trial's metrics
as columns.
"""
from __future__ import annotations

import collections
import glob
import json
import os
from typing import Any, Dict, Mapping, Optional, Union

from . import _core

Dataset = collections.namedtuple("Dataset", "X y bounds non_private name")
Dataset.__doc__ = ("A config's dataset as `dpclust run` builds it: X (n, d) float64, y (labels or None), bounds "
                   "((lower, upper) or None), non_private (the conditions the data adds), name.")
#: A config: the path of a YAML file, or a dict with the same keys.
Config = Union[str, "os.PathLike[str]", Mapping[str, Any]]
PathLike = Union[str, "os.PathLike[str]"]


def _plain(value, where="config"):
    """A dict config made JSON-able: a function object named as a `method: python` callable becomes
    "module:qualname" (it must be importable under that name, e.g. a module's or a script's top-level
    function); tuples become lists; numpy values their Python values."""
    if isinstance(value, dict):
        out = {}
        for k, v in value.items():
            if k == "callable" and callable(v):
                qualname = getattr(v, "__qualname__", "")
                if "<locals>" in qualname or "<lambda>" in qualname or not getattr(v, "__module__", None):
                    raise ValueError(f"{where}.callable: {v!r} is not importable by name; define the mechanism at the "
                                     "top level of a module (or script) and pass it, or its 'module:function' name")
                v = f"{v.__module__}:{qualname}"
            out[str(k)] = _plain(v, f"{where}.{k}")
        return out
    if isinstance(value, (list, tuple)):
        return [_plain(v, f"{where}[{i}]") for i, v in enumerate(value)]
    if hasattr(value, "tolist") and hasattr(value, "dtype"):
        return value.tolist()
    if isinstance(value, os.PathLike):
        return os.fspath(value)
    return value


def _source(config, data_root):
    root = "" if data_root is None else os.fspath(data_root)
    if isinstance(config, dict):
        # JSON is YAML: the engine parses it with the config's own checks; lines in messages refer to this text.
        name = config.get("experiment", "?")
        return _core.ConfigSource(text=json.dumps(_plain(config), indent=1), label=f"<config dict '{name}'>",
                                  base_dir=os.getcwd(), data_root=root)
    if isinstance(config, (str, os.PathLike)):
        return _core.ConfigSource(path=os.fspath(config), data_root=root)
    raise TypeError(f"config must be a path or a dict, got {type(config).__name__}")


def run(config: Config, out: PathLike = "results", threads: int = 0, trials: Optional[int] = None, force: bool = False,
        progress: bool = False, data_root: Optional[PathLike] = None) -> Dict[str, Any]:
    """Runs an experiment config (a YAML path or a dict) as ``dpclust run`` does: every cell and trial, in
    parallel on ``threads`` (0 = all cores), resuming cells already in ``out`` unless ``force``; ``trials``
    overrides the config's count. Returns the run's summary (cells run and reused, the results file)."""
    return _core.run(_source(config, data_root), os.fspath(out), threads=threads, trials=trials or 0, force=force,
                     progress=progress)


def validate(config: Config, load_data: bool = True, data_root: Optional[PathLike] = None, threads: int = 0) -> Dict[str, Any]:
    """``dpclust validate``: the whole config checked, nothing run. With ``load_data`` (the default, as the
    command's) every dataset is read and every cell checked against it (a coordinate outside the public bounds,
    k above the number of points, a metric's prerequisites, the memory a run of ``threads`` workers needs);
    ``load_data=False`` checks only what the config says (``--no-load-data``). Every problem at once: a
    ValueError numbering them. Returns the experiment, its cells, trials, cost estimate and notes."""
    return _core.validate(_source(config, data_root), load_data=load_data, threads=threads)


def audit(config: Config, out: PathLike = "results", threads: int = 0, runs: Optional[int] = None,
          pilot_runs: Optional[int] = None, progress: bool = False, data_root: Optional[PathLike] = None) -> Dict[str, Any]:
    """``dpclust audit``: an empirical lower bound on the epsilon of every private cell, written to
    OUT/<experiment>/audit.json (returned as a dict)."""
    return _core.audit(_source(config, data_root), os.fspath(out), threads=threads, runs=runs or 0,
                       pilot_runs=pilot_runs or 0, progress=progress)


def report(results_dir: PathLike, out: Optional[PathLike] = None, published: Optional[PathLike] = None,
           figures: Optional[PathLike] = None) -> Dict[str, Any]:
    """``dpclust report``: REPORT.md of a results directory, the published numbers next to the
    reproduced ones. Returns the file, its Markdown and the verdict counts."""
    return _core.report(os.fspath(results_dir), published="" if published is None else os.fspath(published),
                        figures="" if figures is None else os.fspath(figures), out="" if out is None else os.fspath(out))


def load_dataset(config: Config, name: str, data_root: Optional[PathLike] = None) -> Dataset:
    """Dataset ``name`` of a config, exactly as ``dpclust run`` builds it (generated or read, projected,
    scaled): ``Dataset(X, y, bounds, non_private, name)``, bounds = (lower, upper) or None."""
    d = _core.load_dataset(_source(config, data_root), name)
    return Dataset(d["X"], d["y"], d["bounds"], d["non_private"], d["name"])


def _experiment_dirs(path):
    if os.path.isfile(path):
        return [os.path.dirname(os.path.abspath(path))]
    if any(os.path.exists(os.path.join(path, f)) for f in ("manifest.json", "results.json")) or os.path.isdir(os.path.join(path, "cells")):
        return [path]
    return sorted(d for d in glob.glob(os.path.join(path, "*")) if os.path.isdir(d) and _experiment_dirs_ok(d))


def _experiment_dirs_ok(d):
    return os.path.exists(os.path.join(d, "results.json")) or os.path.isdir(os.path.join(d, "cells"))


def _cells(exp_dir):
    """The cells of one experiment: results.json when the grid is complete, else the complete cell files."""
    results = os.path.join(exp_dir, "results.json")
    if os.path.exists(results):
        with open(results) as f:
            doc = json.load(f)
        return doc.get("experiment", os.path.basename(exp_dir)), doc["cells"]
    cells = []
    for file in sorted(glob.glob(os.path.join(exp_dir, "cells", "*.json"))):
        try:
            with open(file) as f:
                cell = json.load(f)
        except (OSError, ValueError):
            continue  # a damaged or half-written file: `dpclust run` recomputes it
        if cell.get("complete"):
            cells.append(cell)
    cells.sort(key=lambda c: c.get("index", 0))
    return os.path.basename(os.path.normpath(exp_dir)), cells


_FIXED = ("experiment", "dataset", "method", "series", "cell", "trial", "seed", "randomness", "private_release", "non_private",
          "evaluation_only", "epsilon_spent", "method_seconds")


def _value(v):
    return tuple(v) if isinstance(v, list) else v


def load_results(results_dir: PathLike, experiment: Optional[str] = None) -> Any:
    """One row per trial of every experiment under ``results_dir`` (a ``--out`` directory, one experiment's
    directory, or a results.json file): the cell (experiment, dataset, method, series, cell id), the trial
    (index, seed: None under randomness: secure), ``randomness``, ``private_release`` as each trial's record
    writes it (False for files written before the flag existed), the ``non_private`` reasons and the
    ``evaluation_only`` notes, ``epsilon_spent``, ``method_seconds``,
    every parameter and every metric as a column (a parameter named like one of those columns gets the
    prefix ``param.``), numeric diagnostics and evaluation statistics as ``diagnostics.<name>`` and
    ``evaluation.<name>``. A pandas DataFrame when pandas is importable, else a list of dicts."""
    path = os.fspath(results_dir)
    if not os.path.exists(path):
        raise FileNotFoundError(f"{path}: no such results directory")
    rows = []
    for exp_dir in _experiment_dirs(path):
        name, cells = _cells(exp_dir)
        if experiment is not None and name != experiment:
            continue
        for cell in cells:
            reasons = list(cell.get("non_private", []))
            randomness = cell.get("randomness", {}).get("mode", "seeded")
            cell_private = bool(cell.get("private_release", False))
            base = {"experiment": name, "dataset": cell["dataset"], "method": cell["method"], "series": cell["series"],
                    "cell": cell["id"]}
            params = {(f"param.{k}" if k in _FIXED else k): _value(v) for k, v in cell.get("params", {}).items()}
            for t in cell.get("trials", []):
                row = dict(base)
                # The flag the engine wrote (release_flags.hpp): secure randomness, secure samplers, no note.
                row.update(trial=t["trial"], seed=t.get("seed"), randomness=randomness,
                           private_release=bool(t.get("private_release", False)) and cell_private,
                           non_private="; ".join(reasons), evaluation_only="; ".join(cell.get("evaluation_only", [])))
                steps = t.get("ledger", {}).get("steps", [])
                row["epsilon_spent"] = sum(s.get("epsilon", 0.0) for s in steps)
                row["method_seconds"] = t.get("timing", {}).get("method_seconds")
                row.update(params)
                for k, v in t.get("metrics", {}).items():
                    row[k if k not in row else f"metric.{k}"] = v
                for part in ("diagnostics", "evaluation"):
                    for k, v in t.get(part, {}).items():
                        if isinstance(v, (int, float)) and not isinstance(v, bool):
                            row[f"{part}.{k}"] = v
                rows.append(row)
    try:
        import pandas
    except ImportError:
        return rows
    return pandas.DataFrame(rows)
