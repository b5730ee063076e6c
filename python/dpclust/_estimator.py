"""The machinery shared by the estimators: parameters from the engine's ParamSpecs, seeds, public bounds.

Each estimator names an engine method (``_method``). Its ``__init__`` is built from that method's
declared parameters (the ParamSpecs ``dpclust list`` shows), with their names and defaults, plus ``bounds``
and ``random_state``: no parameter list is written twice, so Python and the CLI cannot drift apart.
``__init__`` only stores the values (scikit-learn's convention); ``fit`` validates them in the engine,
which raises ``ValueError`` with the CLI's message for a value outside its spec.
"""
import difflib
import inspect
import math
import warnings

import numpy as np

from . import _core
from .accountant import BudgetAccountant

try:  # scikit-learn's bases when present (pipelines, clone, repr); the small fallbacks otherwise
    from sklearn.base import BaseEstimator as _Base
    from sklearn.base import ClusterMixin, TransformerMixin
except ImportError:  # pragma: no cover - exercised only without scikit-learn
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

        def __repr__(self):
            args = ", ".join(f"{k}={v!r}" for k, v in self.get_params().items())
            return f"{type(self).__name__}({args})"

    class ClusterMixin:
        def fit_predict(self, X, y=None):
            return self.fit(X, y).labels_

    class TransformerMixin:
        def fit_transform(self, X, y=None):
            return self.fit(X, y).transform(X)


class PrivacyLeakWarning(RuntimeWarning):
    """A differentially private estimator was fitted with bounds taken from the data.

    The bounding box of the data is a function of its most extreme records, so a release computed on a
    grid over it is not differentially private (diffprivlib warns the same way). The fitted estimator
    says so in ``non_private_``; pass public ``bounds=(lower, upper)`` to avoid it.
    """


def _frozen(value):
    # Vector defaults become tuples: a list default would be shared by every instance.
    return tuple(value) if isinstance(value, list) else value


def _seed(random_state):
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


def _randomness(random_state, randomness):
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


def _composition_notion(spent):
    """What an accountant may add a spend to: central DP under one neighbouring relation (pure and
    (eps, delta) entries compose), or the local guarantee, whose epsilon is per unit distance."""
    if spent.get("measure") == "local":
        return "eps-geo-indistinguishability (local: per record, eps per unit distance)"
    return "central DP (" + ("replace one record" if spent.get("relation") == "replace_one" else "add/remove one record") + ")"


def _points(X):
    # C-ordered float64 is what the engine reads; an array already in that form is not copied here.
    X = np.ascontiguousarray(X, dtype=np.float64)
    if X.ndim != 2:
        raise ValueError(f"X must be 2-d (n_samples, n_features), got shape {X.shape}")
    return X


def _install_init(cls):
    """Gives cls an __init__ whose keyword-only parameters are its method's ParamSpecs (a required
    parameter defaults to None and must be set before fit), then bounds and random_state."""
    info = _core.method_info(cls._method)
    params = [inspect.Parameter("self", inspect.Parameter.POSITIONAL_OR_KEYWORD)]
    lines = []
    for p in info["params"]:
        default = None if p["required"] else _frozen(p["default"])
        params.append(inspect.Parameter(p["name"], inspect.Parameter.KEYWORD_ONLY, default=default))
        lines.append(f"{p['name']} : {p['type']}, default={'required' if p['required'] else repr(default)}\n"
                     f"    {p['description']}; {p['allowed']}.")
    params.append(inspect.Parameter("bounds", inspect.Parameter.KEYWORD_ONLY, default=None))
    params.append(inspect.Parameter("random_state", inspect.Parameter.KEYWORD_ONLY, default=None))
    params.append(inspect.Parameter("randomness", inspect.Parameter.KEYWORD_ONLY, default=None))
    if info["private"]:  # a non-private method spends nothing private: no accountant to charge
        params.append(inspect.Parameter("accountant", inspect.Parameter.KEYWORD_ONLY, default=None))
    lines.append("bounds : (lower, upper) or 'data' or None, default=None\n"
                 "    the public domain, each side a number or one value per feature"
                 + ("; None or 'data' takes it from the data (PrivacyLeakWarning, non_private_)" if info["private"]
                    else "; None or 'data' takes it from the data") + ".")
    lines.append("random_state : int, numpy Generator or RandomState, or None, default=None\n"
                 "    the trial seed: an int s gives the numbers of a config trial with seed s (`seeds: [s]`); "
                 "None: secure randomness (no seed).")
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

    def __init__(self, **kwargs):
        for name in names:
            setattr(self, name, kwargs.pop(name, signature.parameters[name].default))
        if kwargs:
            name = next(iter(kwargs))
            close = difflib.get_close_matches(name, names, n=1)
            raise TypeError(f"{type(self).__name__}() got an unexpected keyword argument {name!r}"
                            + (f"; did you mean {close[0]!r}?" if close else ""))

    __init__.__signature__ = signature
    __init__.__qualname__ = f"{cls.__name__}.__init__"
    cls.__init__ = __init__
    cls._spec_names = tuple(p["name"] for p in info["params"])
    cls._info = info
    cls.__doc__ = (cls.__doc__ or "") + (
        f"\n\n    Engine method ``{info['name']}``: {info['summary']}\n    Reference: {info['reference']}\n\n"
        "    Parameters\n    ----------\n" + "\n".join("    " + line.replace("\n", "\n    ") for line in lines) + "\n")
    return cls


class EngineEstimator(_Base):
    """Base of the estimators: fit runs one trial of the engine method on X.

    Attributes after fit: ``labels_`` (one per point, -1 = noise), ``release_`` (what the mechanism
    publishes), ``diagnostics_`` (public numbers), ``evaluation_`` (exact statistics of the true data,
    not private), ``ledger_`` (the trial's budget entries, verified), ``non_private_`` (reasons this
    output is not a private release), ``evaluation_only_`` (what the result holds for evaluation only,
    e.g. labels that are not part of the release: no privacy condition), ``private_release_`` (True
    exactly when randomness is secure, every ledger entry used a secure sampler and ``non_private_`` is
    empty), ``randomness_`` ('seeded' or 'secure'), ``reproducible_``, ``params_`` (every parameter,
    defaults filled in), ``seed_`` (the trial seed used; None when secure), ``bounds_`` (the domain
    used), ``n_features_in_``, ``fit_seconds_`` (the method's running time), ``epsilon_spent_`` and
    ``delta_spent_`` (what the fit's ledger spent: the configured budget plus any declared excess; 0 for a
    non-private method), ``privacy_notion_`` (the guarantee that epsilon is of, in words; "none" for a
    non-private method). A private estimator charges that spend to its ``accountant`` (dpclust.accountant).
    """

    _method = None

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

    def _fit(self, X, y=None):
        X = _points(X)
        params = {name: getattr(self, name) for name in self._spec_names}
        mode, seed = _randomness(self.random_state, self.randomness)
        accountant = self._check_budget(params)
        result = _core.fit(self._method, X, y, self._bounds_argument(), params, seed,
                           type(self).__name__, 1.0, mode)
        spent = result["privacy_spent"]
        if accountant is not None:
            # The ledger's real total (a declared excess included): past the budget, BudgetError before any
            # attribute is set, so the result is discarded unreleased and nothing is spent.
            accountant.spend(spent["epsilon"], spent.get("delta", 0.0), _composition_notion(spent))
        self.epsilon_spent_ = spent.get("epsilon", 0.0)
        self.delta_spent_ = spent.get("delta", 0.0)
        self.privacy_notion_ = spent.get("notion", "none")
        self.labels_ = result["labels"]
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
        self.n_features_in_ = X.shape[1]
        return result

    def _check_budget(self, params):
        """The accountant this fit charges (None for a non-private method, or without accountant and default
        accountant), after checking that the fit's configured epsilon and delta fit its remaining budget:
        BudgetError before anything runs otherwise."""
        if not self._info["private"]:
            return None
        accountant = BudgetAccountant.load_default(self.accountant)
        if accountant is None:
            return None
        epsilon, delta = params.get("epsilon"), params.get("delta") or 0.0
        try:
            cost = (float(epsilon), float(delta))
        except (TypeError, ValueError):
            return accountant  # the engine refuses the value with its own message before running
        if math.isfinite(cost[0]) and cost[0] > 0 and 0 <= cost[1] < 1:
            accountant.check(cost[0], cost[1], _composition_notion(
                {"measure": "local" if self._info["local_privacy"] else "central", "relation": self._info["relation"]}))
        return accountant

    def fit(self, X, y=None):
        """One trial of the method on X (n_samples, n_features). y: ground-truth labels, used only where the
        method uses them (DRBT's class_attribute); otherwise ignored."""
        self._fit(X, y)
        return self

    def _check_fitted(self):
        if not hasattr(self, "labels_"):
            raise AttributeError(f"This {type(self).__name__} instance is not fitted yet; call fit first.")

    def __getstate__(self):
        # Cached engine objects (a span classifier) are rebuilt from the release after unpickling.
        state = dict(super().__getstate__())
        state.pop("_model", None)
        return state
