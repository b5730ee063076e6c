"""`method: python`: a config's callable imported and called once per trial.

The contract (docs/python.md; the C++ side is python/src/python_mechanism.cpp)::

    def my_mechanism(points, bounds, params, rng, ledger):          # (..., init=...) with an `init:` entry
        ...
        return labels                      # or (labels, release), or a dict, below

``points``   the dataset, an (n, d) float64 array: a read-only view of the engine's buffer, valid during
             the call only (copy it to keep it).
``bounds``   ``(lower, upper)`` arrays of the public domain, or None when the dataset has none.
``params``   the cell's parameters (the declared ones with their defaults filled in, epsilon for a
             private mechanism); a name that is not one of them raises a KeyError that lists them.
``rng``      ``numpy.random.Generator(numpy.random.PCG64(seed))`` where ``seed`` is the trial's seed (the
             ``seed`` its record in the results carries), so a trial is reproducible on its own and
             independent of the thread that runs it. Under ``randomness: secure`` there is no seed and
             PCG64 is seeded from fresh OS entropy.
``ledger``   a :class:`dpclust.Ledger` over the trial's budget. ``ledger.laplace_counts``,
             ``gaussian_counts`` and ``laplace_reals`` add noise and record the entry that justifies it in
             one call (their noise comes from the engine's exact samplers, drawn from the trial's generator:
             seeded with the same trial seed, or the OS CSPRNG under ``randomness: secure``);
             ``ledger.charge`` records noise drawn in Python, and flags the result in ``non_private``
             ("noise drawn outside dpclust's audited samplers"): only the samplers above keep a release
             private. After the call the runner checks that the entries add up to the configured epsilon
             (and delta), as for a C++ method: a trial that spends less or more fails with the ledger's message.
``init``     (only with an ``init: "module:function"`` entry) what ``init(bounds, params, rng)`` returned.

The rule for randomness. A draw is public when neither how many draws are made nor their parameters nor
what is done with them depends on the data: a random start in the public box, a random projection, a
hash. Such draws are made in ``init``, which the runner calls before the mechanism with the bounds, the
parameters and ``rng``, and never the data, so they cannot depend on it, whatever the code does. A draw
from ``rng`` inside the mechanism (which holds the data) may depend on it -- noise added to a sum
(numpy's floating-point samplers: Mironov 2012; no ledger entry), a record sampled with
``rng.integers(n)`` (n is private), a loop that draws until the data converge -- and the runner cannot
tell these apart: the result is flagged in ``non_private``. Draws from numpy's global generator
(``np.random.*``) or Python's ``random`` module during the call are flagged the same way: they come from a
per-process stream no trial seed governs and no ledger entry covers. Noise for a release belongs to the
ledger's samplers.

The return value is the point labels (one int per point, -1 = noise), or ``(labels, release)``, or a
dict with ``labels`` and any of ``centres`` (the released centres, an (m, d) array, for an entry that
declares ``releases_centres: true``: the k-means measures read them, and ``labels`` may then be left out
to label each point by its nearest released centre, for evaluation only), ``release`` (a JSON-able dict:
what the mechanism publishes, stored in the results and read by the audit; the centres are added to it as
``centers`` when it has no such key), ``diagnostics`` (public numbers: functions of the release),
``evaluation`` (exact statistics of the true data, for the report only), ``labels_are_release`` (True
when the labels are computed from the release alone; default False, and the labels of a private
mechanism are then listed under ``evaluation_only``, as for the built-in methods: not released, no privacy
condition), ``non_private`` (a list of reasons the output is not a private release).

Errors. A trial that raises fails with the exception's type and traceback (file, line, function and
source line of every frame), and without its message, which can quote the data (a value in a ValueError,
an index and a size in an IndexError): no error text is a release. The messages dpclust writes itself (the
contract above, the Ledger's, a missing parameter) print names, shapes of public things and types, never
values, and are shown; so are those of exceptions that only name code (NameError, AttributeError,
ImportError, SyntaxError, ZeroDivisionError). ``DPCLUST_SHOW_ERROR_TEXT=1`` in the environment shows every
message, for mechanisms developed on data that are not private.
"""
import difflib
import hashlib
import importlib
import os
import random
import sys
import traceback

import numpy as np

#: The non_private note of a private mechanism that drew from ``rng`` during its call (numpy's PCG64):
#: the draws may depend on the data, and no ledger entry covers them.
NUMPY_RNG_NOTE = ("randomness drawn from numpy's generator (rng) while the mechanism held the data: such draws may depend on "
                  "the data (noise, a sampled record, a data-driven loop) and no ledger entry covers them; noise belongs to "
                  "ledger.laplace_counts, gaussian_counts and laplace_reals, and draws that do not depend on the data to the "
                  "entry's init function (called without the data)")

#: The non_private note of a private mechanism that drew from numpy's global generator or Python's random module.
GLOBAL_RNG_NOTE = ("randomness drawn from numpy's global generator (np.random.*) or Python's random module while the mechanism "
                   "held the data: a per-process stream that no trial seed governs, no cryptographic source and no ledger entry "
                   "covers; draw noise through the ledger and public randomness in the entry's init function")

_RESULT_KEYS = ("labels", "centres", "release", "diagnostics", "evaluation", "labels_are_release", "non_private")

#: Exceptions whose messages name code only (a name, an attribute, a module, a syntax error), never a value.
_CODE_ERRORS = (NameError, AttributeError, ImportError, SyntaxError, ZeroDivisionError, RecursionError, MemoryError)
_SAFE = "_dpclust_message_without_values"
_SHOW_ALL = "DPCLUST_SHOW_ERROR_TEXT"


class MechanismContractError(ValueError):
    """A mechanism's result that breaks the contract (module docstring). Its message names what is wrong by
    name, type and public shape, never by a value of the data."""


def mark_safe(error):
    """Marks an exception whose message dpclust wrote without any argument's value (shown in a trial's failure)."""
    try:
        setattr(error, _SAFE, True)
    except (AttributeError, TypeError):  # an exception type that takes no attributes: its message stays hidden
        pass
    return error


class _Params(dict):
    """The cell's parameters; a missing name raises a KeyError that lists them (names are public)."""

    def __missing__(self, key):
        if not isinstance(key, str):
            raise mark_safe(KeyError(f"the cell's parameters are named by strings, got a {type(key).__name__}"))
        raise mark_safe(KeyError(f"{key!r} is not a parameter of this cell; its parameters: {', '.join(sorted(self))}. Declare it "
                                 "under the entry's `declare:` (with a default or a value in `params`)"))


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
        raise MechanismContractError(f"{callable_name}: {what} must be a dict, got {type(value).__name__}")
    return value


def _global_rng_state():
    """What a draw from numpy's global generator or Python's random module changes."""
    legacy = np.random.get_state(legacy=False)
    return legacy["state"]["pos"], legacy["has_gauss"], legacy["state"]["key"].tobytes(), random.getstate()


def _centres(value, points, callable_name):
    """The released centres as an (m, d) float64 array, checked by shape and finiteness (no value is named)."""
    try:
        centres = np.array(value, dtype=np.float64, order="C")
    except (TypeError, ValueError):
        raise MechanismContractError(f"{callable_name} returned centres that are not an array of numbers "
                                     f"(a {type(value).__name__}); expected an (m, d) array of real numbers") from None
    if centres.ndim != 2 or centres.shape[1] != points.shape[1]:
        raise MechanismContractError(f"{callable_name} returned centres of {centres.ndim} dimension(s)"
                                     + (f" with {centres.shape[1]} columns" if centres.ndim == 2 else "")
                                     + f"; expected an (m, d) array with d = {points.shape[1]}, the data's dimension")
    bad = ~np.isfinite(centres)
    if bad.any():
        row, col = (int(i) for i in np.argwhere(bad)[0])
        raise MechanismContractError(f"{callable_name} returned centre {row} (0-based) with coordinate {col} not a finite number "
                                     "(the value is not shown); release finite centres (e.g. clamp into the public bounds)")
    return centres


def call(callable_name, config_dir, points, bounds, params, seed, ledger, init_name=None, releases_centres=False):
    """One trial: the callable on the cell's data, its result in the engine's shape. seed: the trial's
    seed, or None under randomness: secure (numpy then seeds PCG64 from fresh OS entropy). init_name: the
    entry's init function ("module:function"), called first without the data; releases_centres: the entry
    declares that every trial returns its centres."""
    _, fn = _import(callable_name, config_dir)
    rng = np.random.Generator(np.random.PCG64(seed))
    params = _Params(params)
    extra = {}
    if init_name:
        _, init = _import(init_name, config_dir)
        # Called with public inputs only: whatever it draws cannot depend on the data.
        extra["init"] = init(bounds, _Params(params), rng)
    state = rng.bit_generator.state
    global_state = _global_rng_state()
    out = fn(points, bounds, params, rng, ledger, **extra)
    drew_from_numpy = rng.bit_generator.state != state
    drew_from_global = _global_rng_state() != global_state
    if isinstance(out, dict):
        unknown = sorted(set(out) - set(_RESULT_KEYS))
        if unknown:
            hints = [f"{k!r} -> {m[0]!r}" for k in unknown for m in [difflib.get_close_matches(str(k), _RESULT_KEYS, n=1)] if m]
            raise MechanismContractError(f"{callable_name} returned unknown keys {unknown}; allowed: {list(_RESULT_KEYS)}"
                                         + (f" (did you mean {', '.join(hints)}?)" if hints else ""))
        result = dict(out)
    elif isinstance(out, tuple) and len(out) == 2:
        result = {"labels": out[0], "release": out[1]}
    else:
        result = {"labels": out}
    centres = None
    if "centres" in result:
        if not releases_centres:
            raise MechanismContractError(f"{callable_name} returned centres, but its entry does not declare them: add "
                                         "`releases_centres: true` to the method's entry so that the k-means measures read them")
        centres = _centres(result["centres"], points, callable_name)
    elif releases_centres:
        raise MechanismContractError(f"{callable_name} returned no centres, but its entry declares `releases_centres: true`: return "
                                     "{'centres': C, ...} with C an (m, d) array in every trial (an empty (0, d) array when "
                                     "it releases none)")
    if "labels" not in result:
        if centres is None:
            raise MechanismContractError(f"{callable_name} returned a dict without 'labels' (and without 'centres' to label the "
                                         "points by)")
        labels = _nearest(centres, points)
        result.setdefault("labels_are_release", False)  # computed on the true points: for evaluation only
    else:
        labels = np.asarray(result["labels"])
    if labels.ndim != 1 or labels.shape[0] != points.shape[0]:
        raise MechanismContractError(f"{callable_name} returned labels of {labels.ndim} dimension(s) and another length than "
                                     "the number of points (the lengths are not shown: they are functions of the data); "
                                     "expected one label per point (-1 = noise)")
    if labels.size and not np.issubdtype(labels.dtype, np.integer):
        raise MechanismContractError(f"{callable_name} returned labels of dtype {labels.dtype}; expected integers (-1 = noise)")
    non_private = result.get("non_private") or []
    if isinstance(non_private, str):
        non_private = [non_private]
    non_private = list(non_private)
    if drew_from_numpy and ledger.private:
        non_private.append(NUMPY_RNG_NOTE)
    if drew_from_global and ledger.private:
        non_private.append(GLOBAL_RNG_NOTE)
    release = _dict(result.get("release"), "release", callable_name)
    if centres is not None and "centers" not in release:
        release = dict(release, centers=centres.tolist())  # what the built-in methods release under that key
    return {
        "labels": labels,
        "centres": centres if centres is not None else np.zeros((0, points.shape[1])),
        "release": release,
        "diagnostics": _dict(result.get("diagnostics"), "diagnostics", callable_name),
        "evaluation": _dict(result.get("evaluation"), "evaluation", callable_name),
        "labels_are_release": bool(result.get("labels_are_release", False)),
        "non_private": [str(x) for x in non_private],
    }


def _nearest(centres, points):
    from . import _core
    if centres.shape[0] == 0:
        return np.full(points.shape[0], -1, dtype=np.int32)
    return _core.nearest_centers(centres, points)


def _message_shown(error):
    return (bool(getattr(error, _SAFE, False)) or isinstance(error, (MechanismContractError,) + _CODE_ERRORS)
            or os.environ.get(_SHOW_ALL, "") not in ("", "0"))


def _describe(error, seen):
    """The lines of one exception and the ones it was raised from or during, in traceback's order."""
    lines = []
    seen.add(id(error))
    cause, context = error.__cause__, error.__context__
    if cause is not None and id(cause) not in seen:
        lines += _describe(cause, seen) + ["\nThe above exception was the direct cause of the following exception:\n\n"]
    elif context is not None and not error.__suppress_context__ and id(context) not in seen:
        lines += _describe(context, seen) + ["\nDuring handling of the above exception, another exception occurred:\n\n"]
    if error.__traceback__ is not None:
        lines.append("Traceback (most recent call last):\n")
        lines += traceback.StackSummary.extract(traceback.walk_tb(error.__traceback__)).format()
    name = type(error).__qualname__
    module = type(error).__module__
    if module not in ("builtins", "__main__"):
        name = f"{module}.{name}"
    if _message_shown(error):
        lines += traceback.format_exception_only(type(error), error)
    else:
        lines.append(f"{name} (its message is not shown: it can quote the data; {_SHOW_ALL}=1 shows it where the data are "
                     "not private)\n")
    return lines


def describe_failure(error, tb=None):
    """A mechanism's exception as the trial's error text: every frame (file, line, function, source line) and
    the exception's type; its message only when it cannot hold a value of the data (module docstring). tb: the
    traceback of the whole propagation as pybind11 hands it over (the exception's own __traceback__ can stop at
    the frame where it was last caught and raised again)."""
    if tb is not None:
        error = error.with_traceback(tb)
    return "".join(_describe(error, set()))
