"""A privacy budget accountant for repeated fits on the same data (diffprivlib's BudgetAccountant, docs/python-api.md).

Every fit of a private estimator is a separate release computed on the same records, so what all of them
reveal together is bounded by their sequential composition. ``BudgetAccountant`` keeps that total against a
budget and behaves as diffprivlib's ``BudgetAccountant`` does on the same calls (Holohan et al. 2019; its
documented constructor, ``slack``, ``spent_budget``, ``total()``, ``remaining(k)``, ``check()``, ``spend()``,
``len()``, ``load_default()``, ``set_default()``, ``pop_default()`` and ``with acc:``)::

    acc = dpclust.BudgetAccountant(epsilon=2.5)
    DPKMeans(3, epsilon=1.0, bounds=b, accountant=acc).fit(X)   # spent 1
    DPKMeans(3, epsilon=1.0, bounds=b, accountant=acc).fit(X)   # spent 2
    DPKMeans(3, epsilon=1.0, bounds=b, accountant=acc).fit(X)   # BudgetError before running; spent stays 2

Composition. With ``slack = 0`` (the default) the epsilons add up (basic composition, Dwork & Roth 2014,
Thm 3.16; the sum is exact, ``math.fsum``) and the deltas compose as ``1 - prod(1 - delta_i)``. With a
slack ``s > 0`` the accountant may use the advanced composition theorem in the heterogeneous form of
Kairouz, Oh & Viswanath (2017, Thm 3.5): the total epsilon is the smallest of the sum and of
``sum(e_i tanh(e_i / 2)) + sqrt(2 sum(e_i^2) log(1/s))`` and
``sum(e_i tanh(e_i / 2)) + sqrt(2 sum(e_i^2) log(e + sqrt(sum(e_i^2)) / s))``, and the total delta is
``1 - (1 - s) prod(1 - delta_i)``: many small spends then cost less epsilon, paid for with s in delta.

One budget is one budget, however the accountant travels. ``copy.copy``, ``copy.deepcopy`` and so
scikit-learn's ``clone`` return the accountant itself. Pickling (``pickle``, joblib, ``GridSearchCV(n_jobs=2)``
sending an estimator to a worker process) moves the accountant's state into a shared ledger file
(``<tmp>/dpclust-budget-<uid>/<id>.json``, mode 0600, in a folder of mode 0700 that must belong to the user: one
made by another user first, or a link by that name, is refused) that the original and every unpickled copy on this
machine read and update under an exclusive file lock (``fcntl.flock``): a check and its spend are one locked
step, so workers together can never pass the budget. The file is removed when the original accountant is
garbage-collected or its process exits; a copy whose ledger file is gone (unpickled later, or on another
machine) cannot know what was spent since and refuses every spend (BudgetError), while still reporting the
spends it was pickled with.

Notions are not mixed: an accountant composes the guarantee of its first spend (central DP under one
neighbouring relation, or local geo-indistinguishability, whose epsilon is per unit distance) and refuses
another, as the engine's ledger does. Non-private estimators (``DRBT``, ``WaveCluster``) take no accountant.

Not accounted: fits made outside an accountant's view (another accountant, the ``dpclust`` command), and the
trials of a config run, whose totals ``results.json`` reports under ``privacy_accounting``.
"""
from __future__ import annotations

import contextlib
import json
import math
import numbers
import os
import stat
import tempfile
import threading
import uuid
import weakref
from typing import Any, Iterable, Iterator, List, Optional, Tuple

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX: a pickled accountant then refuses to be shared
    fcntl = None

__all__ = ["BudgetAccountant", "BudgetError", "Budget"]


class BudgetError(ValueError):
    """A spend that would take an accountant past its budget (or mix notions it cannot compose).

    Raised before anything runs, and nothing is spent (diffprivlib raises its ``BudgetError`` the same way).
    """


class Budget(tuple):
    """A privacy budget ``(epsilon, delta)``: a tuple (it compares equal to ``(epsilon, delta)``) that
    names its fields, as diffprivlib's ``Budget`` prints them: ``(epsilon=1.0, delta=0.0)``."""

    def __new__(cls, epsilon: float, delta: float) -> "Budget":
        return super().__new__(cls, (float(epsilon), float(delta)))

    @property
    def epsilon(self) -> float:
        return self[0]

    @property
    def delta(self) -> float:
        return self[1]

    def __repr__(self) -> str:
        return f"(epsilon={self[0]!r}, delta={self[1]!r})"

    def __reduce__(self):
        return (Budget, (self[0], self[1]))


def _budget_value(value: Any, name: str, upper: Optional[float] = None) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number, got a {type(value).__name__}")
    value = float(value)
    if math.isnan(value) or value < 0 or (upper is not None and value > upper):
        raise ValueError(f"{name} must be in [0, {'inf' if upper is None else upper}], got {value!r}")
    return value


def _compose(spends: List[Tuple[float, float]], slack: float) -> Budget:
    """The (epsilon, delta) the spends give together: basic composition, or with slack > 0 the best of it and
    the two bounds of Kairouz, Oh & Viswanath (2017) Thm 3.5 (see the module's docstring)."""
    eps_sum = math.fsum(e for e, _ in spends)
    # 1 - (1 - s) prod(1 - d_i), built up as p <- p + d (1 - p) from the smallest term: no cancellation in
    # 1 - prod(...) when the deltas are tiny.
    delta_total = 0.0
    for d in sorted([slack] + [d for _, d in spends]):
        delta_total += d * (1.0 - delta_total)
    if slack == 0 or not spends:
        return Budget(eps_sum, delta_total)
    sq = math.fsum(e * e for e, _ in spends)
    # (e^e - 1) / (e^e + 1) = tanh(e / 2): the expected privacy loss of one spend.
    mean_loss = math.fsum(e * math.tanh(e / 2.0) for e, _ in spends)
    drv = mean_loss + math.sqrt(2.0 * sq * math.log(1.0 / slack))
    kov = mean_loss + math.sqrt(2.0 * sq * math.log(math.e + math.sqrt(sq) / slack))
    return Budget(min(eps_sum, drv, kov), delta_total)


def _ledger_dir() -> str:
    """This user's private folder for shared ledgers: ``<tmp>/dpclust-budget-<uid>``, mode 0700, owned by the user.

    The temporary directory is shared by every local user, and the folder's name is predictable: another user
    could create it first (or a symbolic link by that name) and then read, replace or delete the ledgers in it,
    resetting a budget. So a folder that exists is used only when it is a real folder (not a link) owned by
    this user, and is then made private (0700) if it was not; anything else is refused with the reason.
    """
    uid = os.getuid() if hasattr(os, "getuid") else None
    path = os.path.join(tempfile.gettempdir(), f"dpclust-budget-{uid if uid is not None else 'user'}")
    try:
        os.mkdir(path, 0o700)
    except FileExistsError:
        pass
    st = os.lstat(path)
    if not stat.S_ISDIR(st.st_mode):
        raise BudgetError(f"the shared ledger folder {path} exists but is not a folder (a symbolic link or a file): refusing "
                          "to keep a budget there. Remove it, or set TMPDIR to a folder only you can write.")
    if uid is not None and st.st_uid != uid:
        raise BudgetError(f"the shared ledger folder {path} belongs to another user (uid {st.st_uid}), who could read, replace "
                          "or delete the budgets in it: refusing to keep a budget there. Remove it, or set TMPDIR to a folder "
                          "only you can write.")
    if stat.S_IMODE(st.st_mode) != 0o700:
        os.chmod(path, 0o700)
    return path


def _remove(path: str) -> None:
    with contextlib.suppress(OSError):
        os.unlink(path)


class BudgetAccountant:
    """Total epsilon and delta for the fits on one dataset; each fit's (epsilon, delta) is charged here.

    Parameters
    ----------
    epsilon : float, default=inf
        The total epsilon the spends may compose to (inf: no limit, the default accountant's budget).
    delta : float, default=1.0
        The total delta (1.0: no limit).
    slack : float, default=0.0
        Delta given up for advanced composition (0 <= slack <= delta): 0 adds the epsilons up; a slack > 0
        composes them with Kairouz, Oh & Viswanath's bound when that is smaller, and counts the slack in
        the total delta. Can be changed later, if the spends still fit.
    spent_budget : list of (epsilon, delta), optional
        Spends made before this accountant was built (they must fit in the budget).

    Epsilon totals are exact sums (``math.fsum``) compared with the budget without tolerance: a spend that
    would pass it by any amount is refused. Thread-safe; pickled copies share one budget (module docstring).
    """

    _default: Optional["BudgetAccountant"] = None
    _default_lock = threading.Lock()

    def __init__(self, epsilon: float = float("inf"), delta: float = 1.0, slack: float = 0.0,
                 spent_budget: Optional[Iterable[Tuple[float, float]]] = None) -> None:
        self._lock = threading.RLock()
        self._path: Optional[str] = None     # the shared ledger file, once pickled
        self._orphan = False                 # a copy whose ledger file is gone: refuses spends
        self._implicit = False               # created by load_default() with no default set
        self._state = {"epsilon": _budget_value(epsilon, "epsilon"), "delta": _budget_value(delta, "delta", upper=1.0),
                       "slack": 0.0, "spent": [], "notion": None}
        self.slack = slack
        if spent_budget is not None:
            try:
                spends = [(e, d) for e, d in spent_budget]
            except (TypeError, ValueError) as exc:
                raise ValueError("spent_budget must be a list of (epsilon, delta) pairs") from exc
            for eps, dlt in spends:
                self.spend(eps, dlt)

    # --- the state: in memory, or in the shared ledger file ----------------------------------------
    @contextlib.contextmanager
    def _transaction(self, write: bool = False) -> Iterator[dict]:
        """The accountant's state, locked for the block: in memory, or read from the shared ledger file
        under flock (exclusive when the block writes, which is then saved before the lock is released)."""
        with self._lock:
            if self._path is None:
                yield self._state
                return
            try:
                f = open(self._path, "r+", encoding="utf-8")
            except FileNotFoundError:
                self._orphan = True
                if write:
                    raise BudgetError(self._orphan_message()) from None
                yield self._state  # the spends it was pickled with
                return
            with f:
                fcntl.flock(f.fileno(), fcntl.LOCK_EX if write else fcntl.LOCK_SH)
                try:
                    state = json.load(f)
                    state["spent"] = [tuple(s) for s in state["spent"]]
                    yield state
                    if write:
                        f.seek(0)
                        f.truncate()
                        json.dump(state, f)
                        f.flush()
                    self._state = state  # the latest view, for a copy whose file disappears later
                finally:
                    fcntl.flock(f.fileno(), fcntl.LOCK_UN)

    def _orphan_message(self) -> str:
        return ("this BudgetAccountant is a pickled copy whose shared ledger is gone (the process that pickled it has "
                "ended, or this is another machine), so it cannot know what was spent since and refuses every spend. "
                "To continue that budget on purpose, make a new one: BudgetAccountant(epsilon=..., delta=..., "
                "spent_budget=acc.spent_budget).")

    # --- the budget ---------------------------------------------------------------------------------
    @property
    def epsilon(self) -> float:
        """The total epsilon of this accountant."""
        with self._transaction() as s:
            return s["epsilon"]

    @property
    def delta(self) -> float:
        """The total delta of this accountant."""
        with self._transaction() as s:
            return s["delta"]

    @property
    def slack(self) -> float:
        """The delta given up for advanced composition (0: the epsilons add up)."""
        with self._transaction() as s:
            return s["slack"]

    @slack.setter
    def slack(self, slack: float) -> None:
        slack = _budget_value(slack, "slack", upper=1.0)
        with self._transaction(write=True) as s:
            if slack > s["delta"]:
                raise ValueError(f"slack must not be greater than the accountant's delta ({s['delta']!r}); got {slack!r}")
            eps, dlt = _compose(s["spent"], slack)
            if eps > s["epsilon"] or dlt > s["delta"]:
                raise BudgetError(f"changing slack to {slack!r} would make the spends so far total (epsilon={eps:g}, "
                                  f"delta={dlt:g}), above the budget (epsilon={s['epsilon']:g}, delta={s['delta']:g})")
            s["slack"] = slack

    @property
    def spent_budget(self) -> List[Tuple[float, float]]:
        """Every spend so far, as a list of (epsilon, delta), oldest first (a copy)."""
        with self._transaction() as s:
            return [tuple(x) for x in s["spent"]]

    @property
    def notion(self) -> Optional[str]:
        """The privacy notion the spends so far compose under (None before the first)."""
        with self._transaction() as s:
            return s["notion"]

    def __len__(self) -> int:
        """The number of spends recorded."""
        with self._transaction() as s:
            return len(s["spent"])

    def total(self, spent_budget: Optional[Iterable[Tuple[float, float]]] = None, slack: Optional[float] = None) -> Budget:
        """(epsilon, delta) the spends compose to: this accountant's, or `spent_budget` under `slack` when given
        (both default to the accountant's own)."""
        with self._transaction() as s:
            spends = list(s["spent"]) if spent_budget is None else [
                (_budget_value(e, "epsilon"), _budget_value(d, "delta", upper=1.0)) for e, d in spent_budget]
            return _compose(spends, s["slack"] if slack is None else _budget_value(slack, "slack", upper=1.0))

    @property
    def spent(self) -> float:
        """Epsilon spent so far (``total()[0]``)."""
        return self.total()[0]

    def remaining(self, k: int = 1) -> Budget:
        """The budget each of `k` further equal spends may have so that together they use up what remains:
        (epsilon, delta) with k spends of it still within the budget (inf when epsilon has no limit).
        ``remaining(4)`` after spending 1 of 5 (delta 0) is (1.0, 0.0), as in diffprivlib's documentation."""
        if isinstance(k, bool) or not isinstance(k, numbers.Integral):
            raise TypeError(f"k must be an integer (a number of spends), got a {type(k).__name__}")
        if k < 1:
            raise ValueError(f"k must be at least 1, got {k}")
        k = int(k)
        with self._transaction() as s:
            spends, budget_eps, budget_delta, slack = list(s["spent"]), s["epsilon"], s["delta"], s["slack"]
        spent_delta = _compose(spends, slack)[1]
        delta = 1.0 if spent_delta >= 1.0 else max(0.0, 1.0 - ((1.0 - budget_delta) / (1.0 - spent_delta)) ** (1.0 / k))
        if math.isinf(budget_eps):
            return Budget(math.inf, delta)

        def fits(e):
            return _compose(spends + [(e, 0.0)] * k, slack)[0] <= budget_eps

        if slack == 0:
            # (budget - spent) / k, then down by ulps until k spends of it fit the exact sum.
            eps = max(0.0, (budget_eps - math.fsum(e for e, _ in spends)) / k)
            while eps > 0 and not fits(eps):
                eps = math.nextafter(eps, 0.0)
            return Budget(eps, delta)
        lo, hi = 0.0, budget_eps  # the total grows with e: bisection to the largest e that fits
        if not fits(0.0):
            return Budget(0.0, delta)
        while True:
            mid = (lo + hi) / 2
            if mid in (lo, hi):
                return Budget(lo, delta)
            lo, hi = (mid, hi) if fits(mid) else (lo, mid)

    def _refusal(self, s: dict, epsilon: float, delta: float, notion: Optional[str]) -> Optional[str]:
        if notion is not None and s["notion"] is not None and notion != s["notion"]:
            return (f"this accountant composes {s['notion']}; a spend under {notion} cannot be added to it (different "
                    "privacy notions do not compose into one total). Use one accountant per notion.")
        eps_total, delta_total = _compose(list(s["spent"]) + [(epsilon, delta)], s["slack"])
        if eps_total > s["epsilon"] or delta_total > s["delta"]:
            spent_eps, spent_delta = _compose(list(s["spent"]), s["slack"])
            return (f"privacy budget exceeded: spending (epsilon={epsilon:g}, delta={delta:g}) on top of the "
                    f"(epsilon={spent_eps:g}, delta={spent_delta:g}) already spent would total (epsilon={eps_total:g}, "
                    f"delta={delta_total:g}), above this accountant's budget (epsilon={s['epsilon']:g}, "
                    f"delta={s['delta']:g}). Nothing was run or spent; lower epsilon, or use a larger budget "
                    "(acc.remaining() says what is left).")
        return None

    def check(self, epsilon: float, delta: float = 0.0, notion: Optional[str] = None) -> bool:
        """True when a spend of (epsilon, delta) under `notion` fits the remaining budget; BudgetError
        naming the budget, what is spent and what was asked otherwise. Spends nothing."""
        epsilon = _budget_value(epsilon, "epsilon")
        delta = _budget_value(delta, "delta", upper=1.0)
        with self._transaction() as s:
            if self._orphan:
                raise BudgetError(self._orphan_message())
            why = self._refusal(s, epsilon, delta, notion)
        if why:
            raise BudgetError(why)
        return True

    def spend(self, epsilon: float, delta: float = 0.0, notion: Optional[str] = None) -> "BudgetAccountant":
        """Records a spend of (epsilon, delta) after checking it fits, in one locked step (BudgetError
        otherwise, nothing spent). Returns the accountant."""
        epsilon = _budget_value(epsilon, "epsilon")
        delta = _budget_value(delta, "delta", upper=1.0)
        with self._transaction(write=True) as s:
            why = self._refusal(s, epsilon, delta, notion)
            if why:
                raise BudgetError(why)
            s["spent"].append((epsilon, delta))
            if notion is not None and s["notion"] is None:
                s["notion"] = notion
        return self

    # --- the default accountant (diffprivlib's convention) --------------------------------------------
    @staticmethod
    def load_default(accountant: Optional["BudgetAccountant"] = None) -> "BudgetAccountant":
        """`accountant` when given (checked to be a BudgetAccountant), else the default accountant; when none
        is set, one with no limit is made the default (as diffprivlib does), so that ``load_default().total()``
        says what the fits without an accountant of their own have spent."""
        if accountant is not None:
            if not isinstance(accountant, BudgetAccountant):
                raise TypeError(f"accountant must be a dpclust.BudgetAccountant, got {type(accountant).__name__}")
            return accountant
        with BudgetAccountant._default_lock:
            if BudgetAccountant._default is None:
                default = BudgetAccountant()
                default._implicit = True
                BudgetAccountant._default = default
            return BudgetAccountant._default

    def set_default(self) -> "BudgetAccountant":
        """Makes this accountant the default one (charged by every private fit without ``accountant=``)."""
        with BudgetAccountant._default_lock:
            BudgetAccountant._default = self
        return self

    @staticmethod
    def pop_default() -> Optional["BudgetAccountant"]:
        """Removes the default accountant and returns it (None when none was set or made)."""
        with BudgetAccountant._default_lock:
            default, BudgetAccountant._default = BudgetAccountant._default, None
        return default

    @staticmethod
    def _user_default() -> Optional["BudgetAccountant"]:
        """The default accountant when the user set one (set_default or ``with``), else None."""
        default = BudgetAccountant._default
        return None if default is None or default._implicit else default

    def __enter__(self) -> "BudgetAccountant":
        with BudgetAccountant._default_lock:
            self._previous_default = BudgetAccountant._default
            BudgetAccountant._default = self
        return self

    def __exit__(self, *exc: Any) -> bool:
        with BudgetAccountant._default_lock:
            BudgetAccountant._default = self.__dict__.pop("_previous_default", None)
        return False

    # --- one budget is one budget ---------------------------------------------------------------------
    def __copy__(self):
        return self

    def __deepcopy__(self, memo):
        return self

    def _share(self) -> str:
        """Moves the state into a shared ledger file (once): from now on the original and its pickled copies
        read and spend through that file under its lock."""
        with self._lock:
            if self._path is None:
                if fcntl is None:  # pragma: no cover
                    raise TypeError("a BudgetAccountant can be pickled only where file locks exist (POSIX): a copy "
                                    "with its own total would be a second budget")
                path = os.path.join(_ledger_dir(), f"{uuid.uuid4().hex}.json")
                fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
                with os.fdopen(fd, "w", encoding="utf-8") as f:
                    json.dump(self._state, f)
                self._path = path
                # The file lives as long as the original accountant: removed when it is collected or at exit.
                weakref.finalize(self, _remove, path)
            return self._path

    def __getstate__(self):
        path = self._share()
        with self._transaction() as s:
            snapshot = dict(s, spent=list(s["spent"]))
        return {"path": path, "snapshot": snapshot}

    def __setstate__(self, state):
        self._lock = threading.RLock()
        self._path = state["path"]
        self._orphan = False
        self._implicit = False
        self._state = dict(state["snapshot"], spent=[tuple(x) for x in state["snapshot"]["spent"]])

    def __repr__(self):
        with self._transaction() as s:
            eps, dlt = _compose(list(s["spent"]), s["slack"])
            return (f"BudgetAccountant(epsilon={s['epsilon']:g}, delta={s['delta']:g}"
                    + (f", slack={s['slack']:g}" if s["slack"] else "")
                    + f", spent=(epsilon={eps:g}, delta={dlt:g}), spends={len(s['spent'])}"
                    + (", shared" if self._path else "") + ")")
