"""The machinery shared by the estimators: parameters from the engine's ParamSpecs, seeds, public bounds,
scikit-learn's input validation, and the privacy flags every fit carries.

Each estimator names an engine method (``_method``). Its ``__init__`` is built from that method's (_signature.py)
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

import inspect
import math
import re
from typing import Any, Dict, Mapping, Optional, Tuple, Union

import numpy as np

from . import _core
from ._config import get_config
from ._inputs import _CONFIG_TO_PYTHON, _check_finite, _consecutive, _input_error
from ._signature import _translate_aliases, _translate_synonyms
from ._warnings import _DATA_BOUNDS_NOTE, _NOT_PRIVATE_NOTE, NotPrivateReleaseWarning, PrivacyLeakWarning, _warn_not_private
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
    accountant's budget is infinite, which then records ``inf``. ``y`` is ignored (scikit-learn's convention) except where a
    method reads the labels (DRBT's ``class_attribute``).
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
        others = [n for n in self.non_private_ if n != _NOT_PRIVATE_NOTE]
        if _NOT_PRIVATE_NOTE in self.non_private_ and not any("not differentially private" in n for n in others):
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
