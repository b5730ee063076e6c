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
import warnings
from typing import Any, Dict, Mapping, Optional, Sequence, Tuple, Union

import numpy as np

from . import _core
from .accountant import BudgetAccountant

#: What ``random_state`` accepts: None (secure randomness), an int seed, or a numpy Generator/RandomState.
RandomState = Union[None, int, np.random.Generator, np.random.RandomState]
#: What ``bounds`` accepts: ``(lower, upper)`` (each a number or one value per feature), ``'data'`` or None.
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

    Emitted by every such fit, with the reasons: seeded randomness (``random_state`` given: the seed
    regenerates the noise, so the output is reproducible and not a secure release), a method that is not
    differentially private (``WaveCluster``, ``DRBT``), a sampler or parameter the engine flags
    (``non_private_``), or bounds taken from the data (the subclass ``PrivacyLeakWarning``). The fit itself
    is complete and its numbers are the engine's; the warning says what may not be published as a DP
    release. Silence it for research runs with
    ``warnings.simplefilter("ignore", dpclust.NotPrivateReleaseWarning)``.
    """


class PrivacyLeakWarning(NotPrivateReleaseWarning):
    """A differentially private estimator was fitted with bounds taken from the data.

    The bounding box of the data is a function of its most extreme records, so a release computed on a
    grid over it is not differentially private (diffprivlib warns the same way). The fitted estimator
    says so in ``non_private_``; pass public ``bounds=(lower, upper)`` to avoid it.
    """


_DATA_BOUNDS_NOTE = "domain bounds derived from the data (bounds: data)"
_NOT_PRIVATE_NOTE = "method is not differentially private"


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
    column as the engine does, never by its neighbours' values (issue 22: an error text is not a release)."""
    finite = np.isfinite(X)
    if finite.all():
        return
    row, col = (int(i) for i in np.argwhere(~finite)[0])
    kind = "NaN" if np.isnan(X[row, col]) else f"infinity or a value too large for {X.dtype!r}"
    raise ValueError(f"Input X contains {kind}: point {row} (0-based, in file order): coordinate {col} is not finite")


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


def _install_init(cls):
    """Gives cls an __init__ whose keyword-only parameters are its method's ParamSpecs (a parameter the CLI
    requires takes its public default from ``cls._public_defaults``), then bounds, random_state,
    randomness and (private methods) accountant; and a numpydoc ``Parameters`` section from the same specs."""
    info = _core.method_info(cls._method)
    public = dict(getattr(cls, "_public_defaults", {}))
    params = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    lines = []
    for p in info["params"]:
        annotation = _ANNOTATIONS.get(p["type"], "Any")
        if p["required"]:
            default, source = public.pop(p["name"], (None, None))
            note = f"\n    Default: {source} (a config for the `dpclust` command must set it)." if source else ""
        else:
            default, note = _frozen(p["default"]), ""
        params.append(inspect.Parameter(p["name"], inspect.Parameter.KEYWORD_ONLY, default=default, annotation=annotation))
        lines.append(f"{p['name']} : {p['type']}, default={'required' if default is None and p['required'] else repr(default)}\n"
                     f"    {p['description']}; {p['allowed']}.{note}")
    if public:  # a public default for a parameter that is not a required spec: a stale table
        raise RuntimeError(f"{cls.__name__}._public_defaults names {sorted(public)}, not required parameters of {info['name']}")
    params.append(inspect.Parameter("bounds", inspect.Parameter.KEYWORD_ONLY, default=None, annotation="Bounds"))
    params.append(inspect.Parameter("random_state", inspect.Parameter.KEYWORD_ONLY, default=None, annotation="RandomState"))
    params.append(inspect.Parameter("randomness", inspect.Parameter.KEYWORD_ONLY, default=None, annotation="str | None"))
    if info["private"]:  # a non-private method spends nothing private: no accountant to charge
        params.append(inspect.Parameter("accountant", inspect.Parameter.KEYWORD_ONLY, default=None,
                                        annotation="BudgetAccountant | None"))
    lines.append("bounds : (lower, upper) or 'data' or None, default=None\n"
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

    def __init__(self, **kwargs):
        for alias, (name, why) in aliases.items():
            if alias in kwargs:
                if name in kwargs:
                    raise TypeError(f"{type(self).__name__}() got both {alias!r} and {name!r}: {why}")
                warnings.warn(f"{type(self).__name__}({alias}=...): {why} Pass {name}= instead; {alias}= will be removed.",
                              FutureWarning, stacklevel=2)
                kwargs[name] = kwargs.pop(alias)
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
    declared excess; 0 for a non-private method), ``privacy_notion_`` (the guarantee that epsilon is of, in
    words; "none" for a non-private method). A private estimator charges that spend to its ``accountant``
    (dpclust.accountant). ``y`` is ignored (scikit-learn's convention) except where a method reads the
    labels (DRBT's ``class_attribute``).
    """

    _method: Optional[str] = None
    #: Defaults for the parameters a config must set (name -> (value, where it comes from)).
    _public_defaults: Dict[str, Tuple[Any, str]] = {}
    #: Accepted old or scikit-learn names (alias -> (parameter, why)); FutureWarning when used.
    _aliases: Dict[str, Tuple[str, str]] = {}
    #: scikit-learn checks this estimator cannot pass by design (check name -> reason), declared as
    #: scikit-learn's ``_xfail_checks`` tag so that the suite runs them as expected failures.
    _known_limits: Dict[str, str] = {}

    def _more_tags(self) -> Dict[str, Any]:
        return {"_xfail_checks": dict(self._known_limits)}

    def _validated(self, X, reset: bool) -> np.ndarray:
        """X checked by scikit-learn's check_array (float64, C order, finite, 2-d, not empty, not sparse); reset
        records n_features_in_, otherwise X must have as many features as the fitted data."""
        X = self._validate_data(X, reset=reset, dtype=np.float64, order="C", force_all_finite=False)
        _check_finite(X)
        return X

    def _y_for_engine(self, y, n_samples: int):
        """y as the engine should see it: None (y is ignored, scikit-learn's convention for clusterers)."""
        return None

    def _bounds_argument(self):
        bounds = self.bounds
        if bounds is None or (isinstance(bounds, str) and bounds == "data"):
            if not self._info["needs_bounds"]:
                return None if bounds is None else "data"
            if self._info["private"]:
                warnings.warn(
                    f"{type(self).__name__}: no public bounds given, so the domain is the bounding box of the data. It "
                    "depends on the most extreme records, and the result is not differentially private (see non_private_). "
                    "Pass bounds=(lower, upper) chosen without looking at the data.", PrivacyLeakWarning, stacklevel=4)
            return "data"
        return bounds

    def _fit(self, X, y=None) -> Dict[str, Any]:
        X = self._validated(X, reset=True)
        y = self._y_for_engine(y, X.shape[0])
        # None is "not given": the engine then names a required parameter as a config would.
        params = {name: getattr(self, name) for name in self._spec_names if getattr(self, name) is not None}
        mode, seed = _randomness(self.random_state, self.randomness)
        accountant = self._check_budget(params)
        bounds = self._bounds_argument()
        try:
            result = _core.fit(self._method, X, y, bounds, params, seed, type(self).__name__, 1.0, mode)
        except ValueError as e:
            if "dataset 'X'" not in str(e):
                raise  # a parameter outside its spec: the CLI's message as it is
            # A limit of the data (the engine calls it dataset 'X'): its shape in scikit-learn's words too.
            raise ValueError(f"{e}\n  data: X with n_samples={X.shape[0]}, n_features={X.shape[1]}") from e
        spent = result["privacy_spent"]
        if accountant is not None:
            # The ledger's real total (a declared excess included): past the budget, BudgetError before any
            # attribute is set, so the result is discarded unreleased and nothing is spent.
            accountant.spend(spent["epsilon"], spent.get("delta", 0.0), _composition_notion(spent))
        self.epsilon_spent_ = spent.get("epsilon", 0.0)
        self.delta_spent_ = spent.get("delta", 0.0)
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
        were warned about already, as PrivacyLeakWarning)."""
        if self.private_release_:
            return
        reasons = []
        if _NOT_PRIVATE_NOTE in self.non_private_ and not any("not differentially private" in n for n in self.non_private_
                                                               if n != _NOT_PRIVATE_NOTE):
            reasons.append(f"{type(self).__name__} (method {self._method}) is not differentially private")
        reasons += [n for n in self.non_private_ if n not in (_DATA_BOUNDS_NOTE, _NOT_PRIVATE_NOTE)]
        if self.randomness_ == "seeded":
            reasons.append(f"seeded randomness (seed {self.seed_}: the seed regenerates the noise; random_state=None "
                           "draws it from the OS CSPRNG)")
        if not reasons and _DATA_BOUNDS_NOTE in self.non_private_:
            return  # PrivacyLeakWarning said it
        if not reasons:
            reasons.append("the engine's release rule (docs/privacy.md) does not hold")
        warnings.warn(f"{type(self).__name__}: this fit is not a differentially private release: " + "; ".join(reasons)
                      + ". See private_release_ and non_private_.", NotPrivateReleaseWarning, stacklevel=4)

    def _check_budget(self, params: Mapping[str, Any]) -> Optional[BudgetAccountant]:
        """The accountant this fit charges (None for a non-private method, or without accountant and default
        accountant), after checking that the fit's configured epsilon and delta fit its remaining budget:
        BudgetError before anything runs otherwise."""
        if not self._info["private"]:
            return None
        accountant = BudgetAccountant.load_default(self.accountant)
        if accountant is None:
            return None
        epsilon = params.get("epsilon")
        for spec in self._info["params"]:  # an epsilon left at its declared default costs that default
            if spec["name"] == "epsilon" and epsilon is None and not spec["required"]:
                epsilon = spec["default"]
        delta = params.get("delta") or 0.0
        try:
            cost = (float(epsilon), float(delta))
        except (TypeError, ValueError):
            return accountant  # the engine refuses the value with its own message before running
        if math.isfinite(cost[0]) and cost[0] > 0 and 0 <= cost[1] < 1:
            accountant.check(cost[0], cost[1], _composition_notion(
                {"measure": "local" if self._info["local_privacy"] else "central", "relation": self._info["relation"]}))
        return accountant

    def fit(self, X, y=None) -> "EngineEstimator":
        """One trial of the method on X.

        Parameters
        ----------
        X : array-like of shape (n_samples, n_features)
            The data (read as C-ordered float64; NaN, inf, complex, sparse and empty input raise ValueError
            or TypeError with scikit-learn's wording).
        y : ignored
            Not used (scikit-learn's convention), except by DRBT with ``class_attribute=True``.

        Returns
        -------
        self
            Fitted; its privacy flags say whether the output is a private release.
        """
        self._fit(X, y)
        return self

    def _check_fitted(self) -> None:
        if not hasattr(self, "labels_"):
            raise NotFittedError(f"This {type(self).__name__} instance is not fitted yet. Call 'fit' with appropriate "
                                 "arguments before using this estimator.")
