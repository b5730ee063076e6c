"""The machinery shared by the estimators: parameters from the engine's ParamSpecs, seeds, public bounds,
scikit-learn's input validation, and the privacy flags every fit carries.

Each estimator names an engine method (``_method``). Its ``__init__`` is built from that method's
declared parameters (the ParamSpecs ``dpclust list`` shows), with their names and defaults, plus ``bounds``,
``random_state``, ``randomness`` and (private methods) ``accountant``: no parameter list is written twice, so
Python and the CLI cannot drift apart. A parameter the CLI requires in a config (a radius, a number of
clusters, a grid size) has a documented public default here (``_public_defaults``: the paper's value or
scikit-learn's), as scikit-learn requires of an estimator. ``__init__`` only stores the values
(scikit-learn's convention); ``fit`` validates X with scikit-learn's ``check_array`` (its wording for NaN,
inf, empty, complex, object and sparse input) and the parameters in the engine, which raises ``ValueError``
with the CLI's message for a value outside its spec.
"""
from __future__ import annotations

import difflib
import inspect
import math
import os
import re
import sys
import warnings
from typing import Any, Dict, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from . import _core
from ._config import get_config
from .accountant import BudgetAccountant, BudgetError

#: What ``random_state`` accepts: None (secure randomness), an int seed, or a numpy Generator/RandomState.
RandomState = Union[None, int, np.random.Generator, np.random.RandomState]
#: What ``bounds`` accepts: ``(lower, upper)`` (each a number or one value per feature), a config's per-column
#: list ``[[lo, hi], ...]`` (one pair per feature), ``'data'`` or None.
Bounds = Union[None, str, Tuple[Any, Any]]

try:  # scikit-learn's bases and validation when present (pipelines, clone, repr, check_array's messages)
    from sklearn.base import BaseEstimator as _Base
    from sklearn.base import ClusterMixin, TransformerMixin
    from sklearn.exceptions import NotFittedError
    from sklearn.utils.validation import check_array as _check_array
    HAVE_SKLEARN = True
except ImportError:  # pragma: no cover - exercised only without scikit-learn
    HAVE_SKLEARN = False

    class NotFittedError(ValueError, AttributeError):
        """A method of an estimator that is not fitted yet (scikit-learn's exception when it is installed)."""

    def _check_array(X, *, dtype=np.float64, order="C", estimator=None, ensure_2d=True, force_all_finite=True, **_):
        # The subset of scikit-learn's check_array the estimators use, with its messages.
        if hasattr(X, "toarray") and hasattr(X, "nnz"):
            raise TypeError("A sparse matrix was passed, but dense data is required. Use X.toarray() to convert to a dense numpy array.")
        X = np.asarray(X)
        if np.iscomplexobj(X):
            raise ValueError(f"Complex data not supported\n{X}\n")
        if ensure_2d and X.ndim != 2:
            raise ValueError(f"Expected 2D array, got {'scalar' if X.ndim == 0 else f'{X.ndim}D'} array instead:\narray={X}.\n"
                             "Reshape your data either using array.reshape(-1, 1) if your data has a single feature or "
                             "array.reshape(1, -1) if it contains a single sample.")
        X = np.ascontiguousarray(X, dtype=dtype) if order == "C" else np.asarray(X, dtype=dtype)
        if X.ndim == 2 and X.shape[0] < 1:
            raise ValueError(f"Found array with 0 sample(s) (shape={X.shape}) while a minimum of 1 is required.")
        if X.ndim == 2 and X.shape[1] < 1:
            raise ValueError(f"Found array with 0 feature(s) (shape={X.shape}) while a minimum of 1 is required.")
        if force_all_finite and np.isnan(X).any():
            raise ValueError("Input X contains NaN.")
        if force_all_finite and not np.isfinite(X).all():
            raise ValueError(f"Input X contains infinity or a value too large for {X.dtype!r}.")
        return X

    class _Base:
        @classmethod
        def _get_param_names(cls):
            return sorted(p.name for p in inspect.signature(cls.__init__).parameters.values()
                          if p.name != "self" and p.kind != p.VAR_KEYWORD)

        def get_params(self, deep=True):
            return {name: getattr(self, name) for name in self._get_param_names()}

        def set_params(self, **params):
            valid = self._get_param_names()
            for name, value in params.items():
                if name not in valid:
                    raise ValueError(f"Invalid parameter {name!r} for estimator {type(self).__name__}. "
                                     f"Valid parameters are: {valid!r}.")
                setattr(self, name, value)
            return self

        def _validate_data(self, X, reset=True, **check_params):
            X = _check_array(X, **check_params)
            if reset:
                self.n_features_in_ = X.shape[1]
            elif X.shape[1] != self.n_features_in_:
                raise ValueError(f"X has {X.shape[1]} features, but {type(self).__name__} is expecting "
                                 f"{self.n_features_in_} features as input.")
            return X

        def __getstate__(self):
            return dict(self.__dict__)

        def __setstate__(self, state):
            self.__dict__.update(state)

        def __repr__(self):
            args = ", ".join(f"{k}={v!r}" for k, v in self.get_params().items())
            return f"{type(self).__name__}({args})"

    class ClusterMixin:
        def fit_predict(self, X, y=None):
            return self.fit(X, y).labels_

    class TransformerMixin:
        def fit_transform(self, X, y=None):
            return self.fit(X, y).transform(X)


class NotPrivateReleaseWarning(RuntimeWarning):
    """A fit whose output is not a differentially private release (``private_release_`` is False).

    Emitted once per estimator class and reason in a process (``dpclust.set_config``): seeded randomness
    (``random_state`` given: the seed regenerates the noise, so the output is reproducible and not a secure
    release), a method that is not differentially private (``WaveCluster``, ``DRBT``), a sampler or parameter
    the engine flags (``non_private_``), or bounds taken from the data (the subclass ``PrivacyLeakWarning``).
    Every fit's ``private_release_`` and ``non_private_`` say it whether or not it warned. The fit itself is
    complete and its numbers are the engine's; the warning says what may not be published as a DP release.
    Silence it for research runs with ``dpclust.set_config(warn_not_private=False)`` (or the environment
    variable ``DPCLUST_WARN_NOT_PRIVATE=0``): unlike ``warnings.simplefilter``, both reach joblib's worker
    processes. ``set_config(warn_not_private="always")`` warns on every fit.
    """


class PrivacyLeakWarning(NotPrivateReleaseWarning):
    """A differentially private estimator was fitted with bounds taken from the data.

    The bounding box of the data is a function of its most extreme records, so a release computed on a
    grid over it is not differentially private (diffprivlib warns the same way). The fitted estimator
    says so in ``non_private_``; pass public ``bounds=(lower, upper)`` to avoid it.
    """


_DATA_BOUNDS_NOTE = "domain bounds derived from the data (bounds: data)"
_NOT_PRIVATE_NOTE = "method is not differentially private"
_SILENCE = ("(Said once per estimator class and reason; dpclust.set_config(warn_not_private=False) or "
            "DPCLUST_WARN_NOT_PRIVATE=0 silences it, 'always' repeats it.)")

# (estimator class, reason) pairs already warned about in this process (warn_not_private=True).
_warned = set()


def _forget_warnings() -> None:
    """Warn again about every class and reason (set_config(warn_not_private=True) starts afresh)."""
    _warned.clear()


def _stacklevel_outside_package() -> int:
    """The warnings.warn stacklevel of the first caller outside the dpclust package, counted from the function
    that calls warnings.warn (the caller of this one): a fit reached through a subclass's fit, a mixin or
    super() adds frames, so a fixed stacklevel would point into the package instead of at the user's line."""
    package = os.path.dirname(os.path.abspath(__file__))
    frame = sys._getframe(1)  # the function about to call warnings.warn: stacklevel 1
    level = 1
    while frame is not None and os.path.dirname(os.path.abspath(frame.f_code.co_filename)) == package:
        frame = frame.f_back
        level += 1
    return level


def _warn_not_private(est, reasons, category, stacklevel=None, prefix="", suffix=""):
    """Warns `category` about `reasons` ((key, text) pairs) of estimator `est`, as the warn_not_private setting
    says: never, always, or each (class, key) once per process. The setting an estimator was pickled under
    (a joblib worker's copy) counts too: False there silences, 'always' repeats. The warning points at the
    first line outside the package (stacklevel, when given, is ignored: kept for callers' signatures)."""
    mode = get_config()["warn_not_private"]
    carried = est.__dict__.get("_dpclust_config", {}).get("warn_not_private", mode)
    if mode is False or carried is False:
        return
    if mode != "always" and carried != "always":
        reasons = [(key, text) for key, text in reasons if (type(est).__name__, key) not in _warned]
        _warned.update((type(est).__name__, key) for key, _ in reasons)
    if reasons:
        warnings.warn(f"{type(est).__name__}: {prefix}" + "; ".join(text for _, text in reasons) + f"{suffix} {_SILENCE}",
                      category, stacklevel=_stacklevel_outside_package())


def _frozen(value):
    # Vector defaults become tuples: a list default would be shared by every instance.
    return tuple(value) if isinstance(value, list) else value


def _seed(random_state: RandomState) -> int:
    """The trial seed: an int is used as it is (as a config's ``seeds: [s]``); a numpy Generator or
    RandomState draws one; None draws one from fresh entropy (not reproducible)."""
    if random_state is None:
        return int(np.random.SeedSequence().generate_state(1, np.uint64)[0])
    if isinstance(random_state, (bool, np.bool_)):
        raise ValueError(f"random_state must be an int in [0, 2**64), a numpy Generator or RandomState, or None; got {random_state!r}")
    if isinstance(random_state, (int, np.integer)):
        if not 0 <= int(random_state) < 2 ** 64:
            raise ValueError(f"random_state must be in [0, 2**64), got {random_state}")
        return int(random_state)
    if isinstance(random_state, np.random.Generator):
        return int(random_state.integers(0, 2 ** 64, dtype=np.uint64))
    if isinstance(random_state, np.random.RandomState):
        return int(random_state.randint(0, 2 ** 64, dtype=np.uint64))
    raise ValueError(f"random_state must be an int in [0, 2**64), a numpy Generator or RandomState, or None; got {random_state!r}")


def _randomness(random_state: RandomState, randomness: Optional[str]) -> Tuple[str, int]:
    """(mode, seed) of a fit (docs/results.md "Seeds and randomness"). randomness=None follows random_state:
    None is ``secure`` (noise from the operating system's CSPRNG, no seed, not reproducible; Google's
    library's default), an int, Generator or RandomState is ``seeded`` (reproducible, and so not a
    secure release: the seed regenerates the noise). ``randomness="seeded"`` with random_state=None
    draws a fresh seed (recorded in ``seed_``); ``randomness="secure"`` refuses a random_state."""
    if randomness is None:
        randomness = "secure" if random_state is None else "seeded"
    if randomness == "secure":
        if random_state is not None:
            raise ValueError(f"randomness='secure' draws from the OS CSPRNG and takes no seed; got random_state={random_state!r}. "
                             "Pass random_state=None, or randomness='seeded' to reproduce a run.")
        return "secure", 0
    if randomness == "seeded":
        return "seeded", _seed(random_state)
    raise ValueError(f"randomness must be 'seeded', 'secure' or None (follow random_state), got {randomness!r}")


def _composition_notion(spent: Mapping[str, Any]) -> str:
    """What an accountant may add a spend to: central DP under one neighbouring relation (pure and
    (eps, delta) entries compose), or the local guarantee, whose epsilon is per unit distance."""
    if spent.get("measure") == "local":
        return "eps-geo-indistinguishability (local: per record, eps per unit distance)"
    return "central DP (" + ("replace one record" if spent.get("relation") == "replace_one" else "add/remove one record") + ")"


def _check_finite(X: np.ndarray) -> None:
    """scikit-learn's ValueError for NaN or inf ("Input X contains NaN"), naming the first such value by row and
    column as the engine does, never by its neighbours' values (an error text is not a release)."""
    finite = np.isfinite(X)
    if finite.all():
        return
    row, col = (int(i) for i in np.argwhere(~finite)[0])
    kind = "NaN" if np.isnan(X[row, col]) else f"infinity or a value too large for {X.dtype!r}"
    raise ValueError(f"Input X contains {kind}: point {row} (0-based, in file order): coordinate {col} is not finite")


# Config phrasing in the engine's fixes -> what a Python user sets instead.
_CONFIG_TO_PYTHON = (
    ("widen the bounds (`bounds` in the config, bounds= in Python), or drop or clamp the points outside them "
     "(clip_to_bounds: drop | clamp)",
     "widen bounds=(lower, upper), or drop the rows outside them before fitting "
     "(X[((X >= lower) & (X <= upper)).all(axis=1)])"),
    ("widen the dataset's bounds or drop out-of-domain points (clip_to_bounds: true)",
     "widen bounds=(lower, upper), or drop the rows outside them before fitting "
     "(X[((X >= lower) & (X <= upper)).all(axis=1)])"),
    ("(clip_to_bounds: true)", "(drop the rows outside bounds= before fitting)"),
)

# scikit-learn's check_array messages that state shapes, types and kinds but never values of the data.
_SAFE_INPUT_MESSAGES = ("Found array with", "A sparse matrix was passed", "Input X contains", "Input contains", "X has ",
                        "setting an array element with a sequence", "dtype='numeric' is not compatible",
                        "argument must be a string", "Unable to convert array of bytes/strings", "The feature names",
                        "Feature names", "X does not contain any features", "Sparse data was passed",
                        "Expected a 2-dimensional container")


def _first_text_cell(X):
    """(row, column) of the first entry of X that float() cannot read, or None."""
    try:
        cells = np.asarray(X, dtype=object)
    except Exception:  # noqa: BLE001 - ragged input: no position to name
        return None
    if cells.ndim != 2:
        return None
    for (row, col), value in np.ndenumerate(cells):
        try:
            float(value)
        except (TypeError, ValueError):
            return row, col
    return None


def _input_error(error: Exception, X, owner: str, what: str) -> Exception:
    """scikit-learn's check_array error in words that never quote the data (an error text is
    not a release): its shape and kind, the position of a bad entry, and the fix."""
    text = str(error)
    shape = getattr(X, "shape", None)
    shape = f" of shape {tuple(shape)}" if shape is not None else ""
    if text.startswith("Expected 2D array"):
        kind = "scalar" if "scalar" in text.split("\n", 1)[0] else "1D"
        return ValueError(f"Expected 2D array, got {kind} array instead ({owner}: {what}{shape}; the values are not shown, "
                          f"error messages never print the data). Reshape your data either using {what}.reshape(-1, 1) if "
                          f"your data has a single feature or {what}.reshape(1, -1) if it contains a single sample.")
    if text.startswith("Complex data not supported"):
        return ValueError(f"Complex data not supported: {owner}: {what}{shape} holds complex numbers (not shown); pass "
                          "real numbers (e.g. the real and imaginary parts as two columns).")
    if text.startswith("could not convert") or "could not convert" in text:
        where = _first_text_cell(X)
        at = f": point {where[0]} (0-based): coordinate {where[1]}" if where else ""
        column = ""
        if where is not None and hasattr(X, "columns"):
            column = f" (column {X.columns[where[1]]!r})"
        return ValueError(f"{owner}: {what} must hold numbers{at}{column} is text that is not a number (the value is not "
                          "shown: error messages never print the data). Convert or drop that column before fitting "
                          "(e.g. one-hot encode a categorical field).")
    if any(text.startswith(safe) or safe in text.split("\n", 1)[0] for safe in _SAFE_INPUT_MESSAGES):
        return type(error)(text)
    return type(error)(f"{owner}: scikit-learn's check_array refused {what}{shape} ({type(error).__name__}); its message is "
                       f"not shown because it can quote values of {what}. {what} must be a 2-D array of real numbers "
                       "(n_samples, n_features).")


def _consecutive(labels: np.ndarray) -> np.ndarray:
    """Cluster ids renumbered 0..m-1 in their order, -1 (noise) kept: a released cluster may hold none of
    the training points (a span, centre or cell cluster made by noise), which leaves a gap in the ids."""
    present = np.unique(labels[labels >= 0])
    if present.size == 0 or present[-1] == present.size - 1:
        return labels
    out = labels.copy()
    mask = labels >= 0
    out[mask] = np.searchsorted(present, labels[mask]).astype(labels.dtype)
    return out


_ANNOTATIONS = {"real": "float", "integer": "int", "boolean": "bool", "string": "str",
                "per-dimension vector": "float | Sequence[float]"}


def _translate_aliases(est, params: Dict[str, Any], aliases, where: str, stacklevel: int) -> None:
    """Replaces, in `params`, each accepted alias (an old or scikit-learn name) by the parameter it stands for,
    with a FutureWarning; both given is a TypeError."""
    for alias, (name, why) in aliases.items():
        if alias in params:
            if name in params:
                raise TypeError(f"{type(est).__name__}: got both {alias!r} and {name!r}: {why}")
            warnings.warn(f"{where}{alias}=...): {why} Pass {name}= instead; {alias}= will be removed.",
                          FutureWarning, stacklevel=stacklevel)
            params[name] = params.pop(alias)


def _translate_synonyms(est, params: Dict[str, Any], synonyms) -> None:
    """Replaces each scikit-learn name that means exactly what an engine parameter means (``min_samples`` for
    ``min_pts``) by that parameter, silently: not deprecated, the same thing under its familiar name."""
    for synonym, (name, why) in synonyms.items():
        if synonym in params:
            if name in params:
                raise TypeError(f"{type(est).__name__}: got both {synonym!r} and {name!r}: {why}")
            params[name] = params.pop(synonym)


def _synonym_property(synonym: str, name: str, why: str):
    return property(lambda self: getattr(self, name), lambda self, value: setattr(self, name, value),
                    doc=f"scikit-learn's name for {name}: {why}")


def _alias_property(alias: str, name: str, why: str):
    def get(self):
        warnings.warn(f"{type(self).__name__}.{alias}: {why} Read {name} instead; {alias} will be removed.",
                      FutureWarning, stacklevel=2)
        return getattr(self, name)

    def put(self, value):
        warnings.warn(f"{type(self).__name__}.{alias} = ...: {why} Set {name} instead; {alias} will be removed.",
                      FutureWarning, stacklevel=2)
        setattr(self, name, value)

    return property(get, put, doc=f"Deprecated alias of {name}: {why}")


def _install_init(cls):
    """Gives cls an __init__ whose keyword-only parameters are its method's ParamSpecs (a parameter the CLI
    requires takes its public default from ``cls._public_defaults``), then bounds, random_state,
    randomness and (private methods) accountant; and a numpydoc ``Parameters`` section from the same specs."""
    info = _core.method_info(cls._method)
    public = dict(getattr(cls, "_public_defaults", {}))
    renamed = dict(getattr(cls, "_renamed", {}))          # engine name -> Python name
    positional = tuple(getattr(cls, "_positional", ()))   # Python names also taken by position, in order
    params = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    lines = []
    specs = sorted(info["params"], key=lambda p: (renamed.get(p["name"], p["name"]) not in positional,
                                                  positional.index(renamed.get(p["name"], p["name"]))
                                                  if renamed.get(p["name"], p["name"]) in positional else 0))
    for p in specs:
        name = renamed.get(p["name"], p["name"])
        annotation = _ANNOTATIONS.get(p["type"], "Any")
        if p["required"]:
            default, source = public.pop(p["name"], (None, None))
            note = (f"\n    Default: {source} (a config for the `dpclust` command must set it"
                    + (f", as `{p['name']}`" if name != p["name"] else "") + ")." if source else "")
        else:
            default, note = _frozen(p["default"]), ""
        kind = inspect.Parameter.POSITIONAL_OR_KEYWORD if name in positional else inspect.Parameter.KEYWORD_ONLY
        params.append(inspect.Parameter(name, kind, default=default, annotation=annotation))
        lines.append(f"{name} : {p['type']}, default={'required' if default is None and p['required'] else repr(default)}\n"
                     f"    {p['description']}; {p['allowed']}.{note}")
    if public:  # a public default for a parameter that is not a required spec: a stale table
        raise RuntimeError(f"{cls.__name__}._public_defaults names {sorted(public)}, not required parameters of {info['name']}")
    params.append(inspect.Parameter("bounds", inspect.Parameter.KEYWORD_ONLY, default=None, annotation="Bounds"))
    params.append(inspect.Parameter("random_state", inspect.Parameter.KEYWORD_ONLY, default=None, annotation="RandomState"))
    params.append(inspect.Parameter("randomness", inspect.Parameter.KEYWORD_ONLY, default=None, annotation="str | None"))
    if info["private"]:  # a non-private method spends nothing private: no accountant to charge
        params.append(inspect.Parameter("accountant", inspect.Parameter.KEYWORD_ONLY, default=None,
                                        annotation="BudgetAccountant | None"))
    lines.append("bounds : (lower, upper), [[lo, hi], ...] per feature, 'data' or None, default=None\n"
                 "    the public domain, each side a number or one value per feature"
                 + ("; None or 'data' takes it from the data (PrivacyLeakWarning, non_private_)" if info["private"]
                    else "; None or 'data' takes it from the data") + ".")
    lines.append("random_state : int, numpy Generator or RandomState, or None, default=None\n"
                 "    the trial seed: an int s gives the numbers of a config trial with seed s (`seeds: [s]`); "
                 "None: secure randomness (no seed). A seeded fit is reproducible and so not a private release "
                 "(NotPrivateReleaseWarning).")
    lines.append("randomness : 'seeded', 'secure' or None, default=None\n"
                 "    None follows random_state (None: secure, else seeded). secure: noise from the OS CSPRNG, not "
                 "reproducible, the only mode whose release can be private; seeded: reproducible, not a secure release.")
    if info["private"]:
        lines.append("accountant : dpclust.BudgetAccountant or None, default=None\n"
                     "    charged the fit's epsilon (and delta) on every fit; a fit past its budget raises BudgetError before "
                     "running and spends nothing. None: the default accountant (BudgetAccountant.set_default) when one "
                     "is set, else no accountant.")
    signature = inspect.Signature(params)
    names = [p.name for p in params[1:]]
    aliases = dict(getattr(cls, "_aliases", {}))
    synonyms = dict(getattr(cls, "_synonyms", {}))

    def __init__(self, *args, **kwargs):
        if len(args) > len(positional):
            raise TypeError(f"{type(self).__name__}() takes {len(positional)} positional argument"
                            f"{'' if len(positional) == 1 else 's'} ({', '.join(positional) or 'none'}) but {len(args)} "
                            "were given; pass the others by name")
        for name, value in zip(positional, args):
            if name in kwargs:
                raise TypeError(f"{type(self).__name__}() got multiple values for argument {name!r}")
            kwargs[name] = value
        _translate_aliases(self, kwargs, aliases, f"{type(self).__name__}(", stacklevel=3)
        _translate_synonyms(self, kwargs, synonyms)
        for name in names:
            setattr(self, name, kwargs.pop(name, signature.parameters[name].default))
        if kwargs:
            name = next(iter(kwargs))
            close = difflib.get_close_matches(name, names, n=1)
            raise TypeError(f"{type(self).__name__}() got an unexpected keyword argument {name!r}"
                            + (f"; did you mean {close[0]!r}?" if close else ""))

    __init__.__signature__ = signature
    __init__.__qualname__ = f"{cls.__name__}.__init__"
    __init__.__doc__ = f"Stores the parameters (scikit-learn's convention); ``fit`` checks them. See ``help({cls.__name__})``."
    cls.__init__ = __init__
    cls._spec_names = tuple(p["name"] for p in info["params"])
    cls._py_names = {p["name"]: renamed.get(p["name"], p["name"]) for p in info["params"]}
    for alias, (name, why) in aliases.items():  # est.k reads and writes est.n_clusters, with the same warning
        setattr(cls, alias, _alias_property(alias, name, why))
    for synonym, (name, why) in synonyms.items():  # est.min_samples reads and writes est.min_pts
        setattr(cls, synonym, _synonym_property(synonym, name, why))
    cls._info = info
    privacy = (f"    Privacy: {info['privacy_notion']}; every fit charges ``accountant`` its ledger's epsilon (and delta).\n"
               if info["private"] else "    Privacy: none (not differentially private); every fit warns NotPrivateReleaseWarning.\n")
    cls.__doc__ = (cls.__doc__ or "") + (
        f"\n\n    Engine method ``{info['name']}``: {info['summary']}\n    Reference: {info['reference']}\n{privacy}\n"
        "    Parameters\n    ----------\n" + "\n".join("    " + line.replace("\n", "\n    ") for line in lines) + "\n")
    return cls


class EngineEstimator(_Base):
    """Base of the estimators: fit runs one trial of the engine method on X.

    Attributes after fit: ``labels_`` (one per point, -1 = noise; clusters numbered 0..m-1, each holding at
    least one training point), ``release_labels_`` (the same partition in the release's numbering: the span,
    centre or cell-cluster id of each point, as ``predict`` gives it; ids of released clusters that hold no
    training point are skipped), ``release_`` (what the mechanism publishes), ``diagnostics_`` (public
    numbers), ``evaluation_`` (exact statistics of the true data, not private), ``ledger_`` (the trial's
    budget entries, verified), ``non_private_`` (reasons this output is not a private release),
    ``evaluation_only_`` (what the result holds for evaluation only, e.g. labels that are not part of the
    release: no privacy condition), ``private_release_`` (True exactly when randomness is secure, every
    ledger entry used a secure sampler and ``non_private_`` is empty; a fit where it is False warns
    ``NotPrivateReleaseWarning``), ``randomness_`` ('seeded' or 'secure'), ``reproducible_``, ``params_``
    (every parameter, defaults filled in), ``seed_`` (the trial seed used; None when secure), ``bounds_``
    (the domain used), ``n_features_in_``, ``fit_seconds_`` (the method's running time),
    ``epsilon_spent_`` and ``delta_spent_`` (what the fit's ledger spent: the configured budget plus any
    declared excess; 0 for a non-private method; ``inf`` for an unbounded fit, one no finite epsilon bounds:
    diffprivlib's DP-k-means variant, bounds taken from the data, PrivTHR_EM's continuous threshold or its
    data-derived range, WCBaseline with ``n_share=0``, LSHClustering with ``radius_from_data=True`` or
    ``centre='data'``, EUGkM and HybridKMeans with ``n_source='data'``, DPM with ``gap_statistic='rank_mean'`` on
    more than one feature), ``privacy_notion_`` (the guarantee that epsilon is of,
    in words; "none" for a non-private method). A private estimator charges that spend to its ``accountant``
    (dpclust.accountant); an unbounded fit is refused (BudgetError, nothing released or spent) unless the
    accountant's budget is infinite, which then records ``inf``. ``y`` is ignored (scikit-learn's convention) except where a method reads the
    labels (DRBT's ``class_attribute``).
    """

    _method: Optional[str] = None
    #: Defaults for the parameters a config must set (engine name -> (value, where it comes from)).
    _public_defaults: Dict[str, Tuple[Any, str]] = {}
    #: Python names of engine parameters where scikit-learn's name differs (engine name -> Python name).
    _renamed: Dict[str, str] = {}
    #: Python names also taken by position, in order (scikit-learn's KMeans(n_clusters)).
    _positional: Tuple[str, ...] = ()
    #: Accepted old or scikit-learn names (alias -> (parameter, why)); FutureWarning when used.
    _aliases: Dict[str, Tuple[str, str]] = {}
    #: scikit-learn names that mean exactly an engine parameter (synonym -> (parameter, meaning)); no warning.
    _synonyms: Dict[str, Tuple[str, str]] = {}
    #: Why fit takes no sample_weight (None: it does).
    _no_sample_weight: Optional[str] = "the engine's method counts every row once"
    #: scikit-learn checks this estimator cannot pass by design (check name -> reason), declared as
    #: scikit-learn's ``_xfail_checks`` tag so that the suite runs them as expected failures.
    _known_limits: Dict[str, str] = {}

    def _more_tags(self) -> Dict[str, Any]:
        return {"_xfail_checks": dict(self._known_limits)}

    def set_params(self, **params) -> "EngineEstimator":
        """scikit-learn's set_params; an alias (``k`` for ``n_clusters``, ``eps`` for DPDBSCAN's ``alpha``) is
        accepted with a FutureWarning, so that a GridSearchCV grid or a Pipeline written with it still runs."""
        _translate_aliases(self, params, self._aliases, f"{type(self).__name__}.set_params(", stacklevel=3)
        _translate_synonyms(self, params, self._synonyms)
        return super().set_params(**params)

    def __getstate__(self) -> Dict[str, Any]:
        # A pickled estimator (a joblib worker's copy, GridSearchCV(n_jobs=2)) carries what the process that
        # pickled it had set: the warning switch, and the default accountant it would charge (the worker's
        # own default is another process's object: charging it would spend outside the user's budget).
        state = dict(super().__getstate__())
        state["_dpclust_config"] = get_config()
        default = BudgetAccountant._user_default() if self._info["private"] else None
        if default is not None and getattr(self, "accountant", None) is None:
            state["_default_accountant"] = default
        else:
            state.pop("_default_accountant", None)
        return state

    def _validated(self, X, reset: bool) -> np.ndarray:
        """X checked by scikit-learn's check_array (float64, C order, finite, 2-d, not empty, not sparse); reset
        records n_features_in_, otherwise X must have as many features as the fitted data. Its errors are
        reworded where scikit-learn's text would quote values of X (_input_error)."""
        try:
            X_checked = self._validate_data(X, reset=reset, dtype=np.float64, order="C", force_all_finite=False)
        except (ValueError, TypeError) as e:
            error = _input_error(e, X, type(self).__name__, "X")
        else:
            _check_finite(X_checked)
            return X_checked
        raise error from None  # not chained: the original text may quote the data

    def _y_for_engine(self, y, n_samples: int):
        """y as the engine should see it: None (y is ignored, scikit-learn's convention for clusterers)."""
        return None

    def _bounds_argument(self):
        bounds = self.bounds
        if bounds is None or (isinstance(bounds, str) and bounds == "data"):
            if not self._info["needs_bounds"]:
                return None if bounds is None else "data"
            if self._info["private"]:
                _warn_not_private(self, [("data bounds", (
                    "no public bounds given, so the domain is the bounding box of the data. It depends on the most "
                    "extreme records, and the result is not differentially private (see non_private_). Pass "
                    "bounds=(lower, upper) chosen without looking at the data."))], PrivacyLeakWarning, stacklevel=4)
            return "data"
        return bounds

    @staticmethod
    def _per_column_bounds(bounds, n_features: int):
        """A config's per-column bounds ``[[lo, hi], ...]`` (one pair per feature, as in YAML) as the engine's
        ``(lower, upper)``; anything else unchanged. A tuple is always ``(lower, upper)``; a list (or a
        (n_features, 2) array) of n_features pairs with lo < hi in each is read per column, also for two
        features, where it would otherwise be ambiguous."""
        if bounds is None or isinstance(bounds, (str, tuple)):
            return bounds
        try:
            arr = np.asarray(bounds, dtype=np.float64)
        except (TypeError, ValueError):
            return bounds
        if arr.ndim == 2 and arr.shape == (n_features, 2) and np.all(np.isfinite(arr)) and np.all(arr[:, 0] < arr[:, 1]):
            return (arr[:, 0].tolist(), arr[:, 1].tolist())
        return bounds

    def _python_message(self, text: str) -> str:
        """An engine message in a Python user's words: the Python names of renamed parameters, and fixes that
        name what Python sets instead of a config key."""
        cls = type(self).__name__
        for engine, py in self._py_names.items():
            if engine != py:
                text = (text.replace(f"{cls}.{engine}:", f"{cls}.{py}:").replace(f"'{engine}'", f"'{py}'")
                        .replace(f"fix: {engine} ", f"fix: {py} "))
                # "k = 5000 (clusters) exceeds ...", "choose k <= 2000": the name before a comparison.
                text = re.sub(rf"(?<![\w.'`-]){re.escape(engine)}(?= ?(?:=|<=|>=|<|>) )", py, text)
        for config, python in _CONFIG_TO_PYTHON:
            text = text.replace(config, python)
        return text

    def _sample_weight(self, sample_weight, n: int) -> Optional[np.ndarray]:
        """sample_weight as repeat counts (non-negative integers, one per row), or None when not given; a
        ValueError naming the entry (never its value) otherwise."""
        if sample_weight is None:
            return None
        if self._no_sample_weight is not None:
            raise TypeError(f"{type(self).__name__}.fit does not take sample_weight: {self._no_sample_weight}. Fit without "
                            "it; to weight a record, repeat its row (a record repeated w times is w records of the data the "
                            "method sees: their privacy is the group privacy of w records).")
        try:
            w = np.asarray(sample_weight, dtype=np.float64)
        except (TypeError, ValueError):
            raise ValueError("sample_weight must be numbers, one per row of X") from None
        if w.ndim != 1 or w.shape[0] != n:
            raise ValueError(f"sample_weight.shape == {w.shape}, expected ({n},): one weight per row of X")
        bad = ~(np.isfinite(w) & (w >= 0) & (w == np.round(w)))
        if bad.any():
            raise ValueError(f"sample_weight: entry {int(np.argmax(bad))} (0-based) is not a non-negative integer (the value "
                             f"is not shown). {type(self).__name__} honours whole-number weights as repeated rows, with "
                             "epsilon times the largest weight charged (group privacy); round or drop the weights.")
        if not w.any():
            raise ValueError("sample_weight: every weight is 0, so there is nothing to fit")
        return w.astype(np.int64)

    def _fit(self, X, y=None, sample_weight=None) -> Dict[str, Any]:
        X = self._validated(X, reset=True)
        weights = self._sample_weight(sample_weight, X.shape[0])
        # Weight w = the row repeated w times: a record of weight w is w records of the expanded data, so the
        # fit is (w_max * epsilon)-DP for it (group privacy of a pure epsilon-DP mechanism, Dwork & Roth 2014,
        # Thm 2.2), and that is what the accountant is charged.
        group = 1 if weights is None else int(weights.max())
        X_fit = X if weights is None else np.ascontiguousarray(np.repeat(X, weights, axis=0))
        y = self._y_for_engine(y, X.shape[0])
        # None is "not given": the engine then names a required parameter as a config would.
        params = {engine: getattr(self, py) for engine, py in self._py_names.items() if getattr(self, py) is not None}
        mode, seed = _randomness(self.random_state, self.randomness)
        accountant = self._check_budget(params, group)
        bounds = self._per_column_bounds(self._bounds_argument(), X.shape[1])
        try:
            result = _core.fit(self._method, X_fit, y, bounds, params, seed, type(self).__name__, 1.0, mode)
        except ValueError as e:
            message = self._python_message(str(e))
            if re.match(r"\w+\.\w+: '\w+' must be ", message):
                raise ValueError(message) from None  # a parameter outside its spec: the CLI's message
            # Anything the run met (a limit of the data, which the engine calls dataset 'X'; a parameter that does
            # not suit this data): the data's shape in scikit-learn's words too. n_samples only where the number
            # of records is public: under add/remove neighbours (central DP) it is private, and an error message
            # is an output like any other.
            n_public = not self._info["private"] or self._info["local_privacy"] or self._info["relation"] == "replace_one"
            shape = f"n_samples={X_fit.shape[0]}, " if n_public else ""
            raise ValueError(f"{message}\n  data: X with {shape}n_features={X_fit.shape[1]}") from None
        spent = result["privacy_spent"]
        epsilon, delta = group * spent.get("epsilon", 0.0), spent.get("delta", 0.0)
        # No finite epsilon bounds an unbounded fit (its ledger or its data-derived domain says why): it costs
        # inf, which only an infinite budget can record; a finite one refuses it before anything is released.
        if spent.get("unbounded"):
            epsilon = math.inf
            if accountant is not None and not math.isinf(accountant.epsilon):
                reasons = "; ".join(spent.get("unbounded_reasons", [])) or "the ledger is unbounded"
                raise BudgetError(f"{type(self).__name__}: this fit has no finite privacy bound ({reasons}), so it cannot be "
                                  f"charged to a budget of epsilon={accountant.epsilon:g}. Nothing was released or spent. "
                                  "Use a bounded configuration (public bounds=, the exact variants), or an accountant "
                                  "with an infinite budget (BudgetAccountant()) to record it as inf.")
        if group > 1 and delta > 0:
            raise ValueError(f"{type(self).__name__}: sample_weight above 1 with delta > 0 is not supported (group privacy "
                             "of an (epsilon, delta) guarantee grows delta too); use weights 0 and 1, or delta = 0")
        if accountant is not None:
            # The ledger's real total (a declared excess included): past the budget, BudgetError before any
            # attribute is set, so the result is discarded unreleased and nothing is spent.
            accountant.spend(epsilon, delta, _composition_notion(spent))
        self.epsilon_spent_ = epsilon
        self.delta_spent_ = delta
        self.privacy_notion_ = spent.get("notion", "none")
        self.release_labels_ = result["labels"]
        self.labels_ = _consecutive(self.release_labels_)
        self.release_ = result["release"]
        self.diagnostics_ = result["diagnostics"]
        self.evaluation_ = result["evaluation"]
        self.ledger_ = result["ledger"]
        self.non_private_ = result["non_private"]
        self.evaluation_only_ = result["evaluation_only"]
        self.private_release_ = result["private_release"]
        self.randomness_ = result["randomness"]["mode"]
        self.reproducible_ = self.randomness_ == "seeded"
        self.params_ = result["params"]
        self.seed_ = result["seed"]
        self.bounds_ = result["bounds"]
        self.fit_seconds_ = result["method_seconds"]
        self._warn_if_not_private()
        return result

    def _warn_if_not_private(self) -> None:
        """NotPrivateReleaseWarning naming why this fit is not a private release (the data-derived bounds
        were warned about already, as PrivacyLeakWarning), once per class and reason (_warn_not_private)."""
        if self.private_release_:
            return
        reasons = []
        if _NOT_PRIVATE_NOTE in self.non_private_ and not any("not differentially private" in n for n in self.non_private_
                                                               if n != _NOT_PRIVATE_NOTE):
            reasons.append(("not DP", f"{type(self).__name__} (method {self._method}) is not differentially private"))
        reasons += [(n, n) for n in self.non_private_ if n not in (_DATA_BOUNDS_NOTE, _NOT_PRIVATE_NOTE)]
        if self.randomness_ == "seeded":
            reasons.append(("seeded", "seeded randomness (random_state given: the seed regenerates the noise; "
                                      "random_state=None draws it from the OS CSPRNG)"))
        if not reasons and _DATA_BOUNDS_NOTE in self.non_private_:
            return  # PrivacyLeakWarning said it
        if not reasons:
            reasons.append(("rule", "the engine's release rule (docs/privacy.md) does not hold"))
        _warn_not_private(self, reasons, NotPrivateReleaseWarning, stacklevel=4,
                          prefix="this fit is not a differentially private release: ",
                          suffix=". See private_release_ and non_private_.")

    def _accountant(self) -> Optional[BudgetAccountant]:
        """The accountant a fit charges: ``accountant=``, else the default accountant of the process that pickled
        this estimator (a joblib worker's copy), else this process's default (load_default: the one set, or an
        unlimited one made on first use). None for a non-private method."""
        if not self._info["private"]:
            return None
        if self.accountant is not None:
            return BudgetAccountant.load_default(self.accountant)
        carried = self.__dict__.get("_default_accountant")
        return carried if carried is not None else BudgetAccountant.load_default()

    def _check_budget(self, params: Mapping[str, Any], group: int = 1) -> Optional[BudgetAccountant]:
        """The accountant this fit charges (None for a non-private method), after checking that the fit's
        configured epsilon (times `group`, the largest sample weight) and delta fit its remaining budget:
        BudgetError before anything runs otherwise. The unlimited default accountant made on first use holds
        the notion of its first spend; a fit of the other notion is not charged to it (set an accountant)."""
        accountant = self._accountant()
        if accountant is None:
            return None
        notion = _composition_notion({"measure": "local" if self._info["local_privacy"] else "central",
                                      "relation": self._info["relation"]})
        if accountant._implicit and accountant.notion not in (None, notion):
            return None
        epsilon = params.get("epsilon")
        for spec in self._info["params"]:  # an epsilon left at its declared default costs that default
            if spec["name"] == "epsilon" and epsilon is None and not spec["required"]:
                epsilon = spec["default"]
        delta = params.get("delta") or 0.0
        try:
            cost = (float(epsilon) * group, float(delta))
        except (TypeError, ValueError):
            return accountant  # the engine refuses the value with its own message before running
        if math.isfinite(cost[0]) and cost[0] > 0 and 0 <= cost[1] < 1:
            accountant.check(cost[0], cost[1], notion)
        return accountant

    def _refuse_fit_params(self, fit_params: Mapping[str, Any]) -> None:
        """fit's keyword arguments other than X and y: sample_weight refused with the reason (_no_sample_weight),
        anything else a TypeError as Python gives it."""
        for name, value in fit_params.items():
            if name == "sample_weight":
                self._sample_weight(value, -1)
            else:
                raise TypeError(f"{type(self).__name__}.fit() got an unexpected keyword argument {name!r}")

    def fit(self, X, y=None, **fit_params) -> "EngineEstimator":
        """One trial of the method on X.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The data (read as C-ordered float64; NaN, inf, complex, sparse and empty input raise ValueError
            or TypeError with scikit-learn's wording, never quoting values of X).
        y : ignored
            Not used (scikit-learn's convention), except by DRBT with ``class_attribute=True``.
        **fit_params
            ``sample_weight`` is refused with the reason (only DPKMeans honours it).

        Returns
        -------
        self
            Fitted; its privacy flags say whether the output is a private release.
        """
        self._refuse_fit_params(fit_params)
        self._fit(X, y)
        return self

    def _check_fitted(self) -> None:
        if not hasattr(self, "labels_"):
            raise NotFittedError(f"This {type(self).__name__} instance is not fitted yet. Call 'fit' with appropriate "
                                 "arguments before using this estimator.")
