"""`method: python`: a config's callable imported and called once per trial.

The contract (docs/python.md; the C++ side is python/src/python_mechanism.cpp)::

    def my_mechanism(points, bounds, params, rng, ledger):
        ...
        return labels                      # or (labels, release), or a dict, below

``points``   the dataset, an (n, d) float64 array: a read-only view of the engine's buffer, valid during
             the call only (copy it to keep it).
``bounds``   ``(lower, upper)`` arrays of the public domain, or None when the dataset has none.
``params``   the cell's parameters (the declared ones with their defaults filled in, epsilon for a
             private mechanism).
``rng``      ``numpy.random.Generator(numpy.random.PCG64(seed))`` where ``seed`` is the trial's seed (the
             ``seed`` its record in the results carries), so a trial is reproducible on its own and
             independent of the thread that runs it. Under ``randomness: secure`` there is no seed and
             PCG64 is seeded from fresh OS entropy. PCG64 is not a cryptographic generator and its draws
             go through no ledger entry, so a private mechanism that draws from ``rng`` at all is flagged
             in ``non_private`` (issue 34 item 8: the runner compares the generator's state before and
             after the call; it cannot tell noise from post-processing, so it flags both): noise for a
             release belongs to the ledger's samplers, and ``rng`` to non-private work.
``ledger``   a :class:`dpclust.Ledger` over the trial's budget. ``ledger.laplace_counts``,
             ``gaussian_counts`` and ``laplace_reals`` add noise and record the entry that justifies it in
             one call (their noise comes from the engine's exact samplers, drawn from the trial's generator:
             seeded with the same trial seed, or the OS CSPRNG under ``randomness: secure``);
             ``ledger.charge`` records noise drawn in Python, and flags the result in ``non_private``
             ("noise drawn outside dpclust's audited samplers"): only the samplers above keep a release
             private. After the call the runner checks that the
             entries add up to the configured epsilon (and delta), as for a C++ method: a trial that
             spends less or more fails with the ledger's message.

The return value is the point labels (one int per point, -1 = noise), or ``(labels, release)``, or a
dict with ``labels`` and any of ``release`` (a JSON-able dict: what the mechanism publishes, stored in the
results and read by the audit), ``diagnostics`` (public numbers: functions of the release),
``evaluation`` (exact statistics of the true data, for the report only), ``labels_are_release`` (True
when the labels are computed from the release alone; default False, and the labels of a private
mechanism are then listed under ``evaluation_only``, as for the built-in methods: not released, no privacy
condition), ``non_private`` (a list of reasons the output is not a private release).
"""
import hashlib
import importlib
import os
import sys

import numpy as np

#: The non_private note of a private mechanism that drew from ``rng`` (numpy's PCG64): randomness that is not
#: from a cryptographic source and that no ledger entry accounts for.
NUMPY_RNG_NOTE = ("randomness drawn from numpy's generator (rng: PCG64, not a cryptographic source, and no ledger "
                  "entry covers it): only ledger.laplace_counts, gaussian_counts and laplace_reals keep a release private")

_RESULT_KEYS = ("labels", "release", "diagnostics", "evaluation", "labels_are_release", "non_private")


def _import(callable_name, config_dir):
    module_name, _, qualname = callable_name.partition(":")
    # A module next to the config is found without setting PYTHONPATH.
    if config_dir and config_dir not in sys.path:
        sys.path.append(config_dir)
    module = importlib.import_module(module_name)
    obj = module
    for part in qualname.split("."):
        obj = getattr(obj, part)
    if not callable(obj):
        raise TypeError(f"{callable_name} is a {type(obj).__name__}, not a function")
    return module, obj


def resolve(callable_name, config_dir):
    """Imports the callable (at config parse time, so a typo fails before any trial) and returns the
    SHA-256 of its module's source file: part of every cell's fingerprint, so an edited mechanism is
    recomputed when a run resumes. '' for a module without a source file (a notebook's)."""
    module, _ = _import(callable_name, config_dir)
    path = getattr(module, "__file__", None)
    if path and os.path.isfile(path):
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    return ""


def _dict(value, what, callable_name):
    if value is None:
        return {}
    if not isinstance(value, dict):
        raise TypeError(f"{callable_name}: {what} must be a dict, got {type(value).__name__}")
    return value


def call(callable_name, config_dir, points, bounds, params, seed, ledger):
    """One trial: the callable on the cell's data, its result in the engine's shape. seed: the trial's
    seed, or None under randomness: secure (numpy then seeds PCG64 from fresh OS entropy)."""
    _, fn = _import(callable_name, config_dir)
    rng = np.random.Generator(np.random.PCG64(seed))
    state = rng.bit_generator.state
    out = fn(points, bounds, params, rng, ledger)
    drew_from_numpy = rng.bit_generator.state != state
    if isinstance(out, dict):
        unknown = sorted(set(out) - set(_RESULT_KEYS))
        if unknown:
            raise TypeError(f"{callable_name} returned unknown keys {unknown}; allowed: {list(_RESULT_KEYS)}")
        if "labels" not in out:
            raise TypeError(f"{callable_name} returned a dict without 'labels'")
        result = dict(out)
    elif isinstance(out, tuple) and len(out) == 2:
        result = {"labels": out[0], "release": out[1]}
    else:
        result = {"labels": out}
    labels = np.asarray(result["labels"])
    if labels.ndim != 1 or labels.shape[0] != points.shape[0]:
        raise ValueError(f"{callable_name} returned labels of shape {labels.shape} for {points.shape[0]} points; "
                         "expected one label per point (-1 = noise)")
    if labels.size and not np.issubdtype(labels.dtype, np.integer):
        raise ValueError(f"{callable_name} returned labels of dtype {labels.dtype}; expected integers (-1 = noise)")
    non_private = result.get("non_private") or []
    if isinstance(non_private, str):
        non_private = [non_private]
    non_private = list(non_private)
    if drew_from_numpy and ledger.private:
        non_private.append(NUMPY_RNG_NOTE)
    return {
        "labels": labels,
        "release": _dict(result.get("release"), "release", callable_name),
        "diagnostics": _dict(result.get("diagnostics"), "diagnostics", callable_name),
        "evaluation": _dict(result.get("evaluation"), "evaluation", callable_name),
        "labels_are_release": bool(result.get("labels_are_release", False)),
        "non_private": [str(x) for x in non_private],
    }
