"""A privacy budget accountant for repeated fits on the same data (issue 22, item 5).

Every fit of a private estimator is a separate release computed on the same records, so what all of them
reveal together is bounded by their sequential composition: with basic composition (Dwork & Roth 2014,
Thm 3.16), the epsilons add up, and the deltas. ``BudgetAccountant`` keeps that sum against a total
budget, as diffprivlib's ``BudgetAccountant`` does (Holohan et al. 2019): ``total()``, ``remaining()``,
``check()``, ``spend()``, and an optional default accountant (``set_default()`` or ``with acc:``) that every
private estimator without its own (``accountant=``) charges; with neither, a fit is not charged (its spend is
still in ``epsilon_spent_``)::

    acc = dpclust.BudgetAccountant(epsilon=2.5)
    DPKMeans(k=3, epsilon=1.0, bounds=b, accountant=acc).fit(X)   # spent 1
    DPKMeans(k=3, epsilon=1.0, bounds=b, accountant=acc).fit(X)   # spent 2
    DPKMeans(k=3, epsilon=1.0, bounds=b, accountant=acc).fit(X)   # BudgetError before running; spent stays 2

What an estimator charges is its ledger's total (the configured epsilon and delta; plus any excess a
method declares, e.g. PrivTHR_EM with ``em_repeats_budget='authors'``). A fit is checked against the
remaining budget before it runs, with the configured epsilon and delta, and refused with ``BudgetError``
without spending anything; a method whose ledger declares an excess is checked again after it ran and
before anything is returned: if the real cost passes the budget the result is discarded (nothing is
released, nothing spent) and ``BudgetError`` says why.

Notions are not mixed: an accountant composes the guarantee of its first spend (central DP under one
neighbouring relation, or local geo-indistinguishability, whose epsilon is per unit distance) and refuses
another, as the engine's ledger does (so a default accountant holds one notion too). Non-private estimators (``DRBT``, the non-private baselines) take no
accountant: they spend nothing private, and no budget bounds what they reveal.

Not accounted: fits made outside an accountant's view (another process, another accountant, the
``dpclust`` command), and the trials of a config run, whose totals ``results.json`` reports per dataset
under ``privacy_accounting``.
"""
from __future__ import annotations

import math
import numbers
import threading
from typing import Any, Iterable, List, Optional, Tuple

__all__ = ["BudgetAccountant", "BudgetError"]


class BudgetError(ValueError):
    """A spend that would take an accountant past its budget (or mix notions it cannot compose).

    Raised before anything runs, and nothing is spent (diffprivlib raises its ``BudgetError`` the same way).
    """


def _budget_value(value: Any, name: str, upper: Optional[float] = None) -> float:
    if isinstance(value, bool) or not isinstance(value, numbers.Real):
        raise TypeError(f"{name} must be a number, got {value!r}")
    value = float(value)
    if math.isnan(value) or value < 0 or (upper is not None and value > upper):
        raise ValueError(f"{name} must be in [0, {'inf' if upper is None else upper}], got {value!r}")
    return value


class BudgetAccountant:
    """Total epsilon and delta for the fits on one dataset; each fit's (epsilon, delta) is charged here.

    Parameters
    ----------
    epsilon : float, default=inf
        The total epsilon the spends may add up to (inf: no limit, the default accountant's budget).
    delta : float, default=1.0
        The total delta (1.0: no limit).
    spent_budget : list of (epsilon, delta), optional
        Spends made before this accountant was built (they must fit in the budget).

    The sums are exact (``math.fsum``) and compared with the budget without tolerance: a spend that would
    pass it by any amount is refused. Copies of an accountant (``copy.copy``, ``copy.deepcopy`` and so
    scikit-learn's ``clone``) are the accountant itself: one budget is one budget, and a copy with its own
    sum would double it. Thread-safe.
    """

    _default = None
    _default_lock = threading.Lock()

    def __init__(self, epsilon: float = float("inf"), delta: float = 1.0,
                 spent_budget: Optional[Iterable[Tuple[float, float]]] = None) -> None:
        self._epsilon = _budget_value(epsilon, "epsilon")
        self._delta = _budget_value(delta, "delta", upper=1.0)
        self._spent = []
        self._notion = None
        self._lock = threading.RLock()
        for spend in spent_budget or []:
            eps, dlt = spend
            self.spend(eps, dlt)

    # --- the budget ---------------------------------------------------------------------------------
    @property
    def epsilon(self) -> float:
        """The total epsilon of this accountant."""
        return self._epsilon

    @property
    def delta(self) -> float:
        """The total delta of this accountant."""
        return self._delta

    @property
    def spent_budget(self) -> List[Tuple[float, float]]:
        """Every spend so far, as a list of (epsilon, delta), oldest first (a copy)."""
        with self._lock:
            return list(self._spent)

    @property
    def notion(self) -> Optional[str]:
        """The privacy notion the spends so far compose under (None before the first)."""
        return self._notion

    def total(self) -> Tuple[float, float]:
        """(epsilon, delta) spent so far: the sum of the spends (basic sequential composition)."""
        with self._lock:
            return (math.fsum(e for e, _ in self._spent), math.fsum(d for _, d in self._spent))

    @property
    def spent(self) -> float:
        """Epsilon spent so far (``total()[0]``)."""
        return self.total()[0]

    def remaining(self) -> Tuple[float, float]:
        """(epsilon, delta) still available (inf when the budget has no limit)."""
        eps, dlt = self.total()
        return (max(self._epsilon - eps, 0.0) if math.isfinite(self._epsilon) else math.inf, max(self._delta - dlt, 0.0))

    def check(self, epsilon: float, delta: float = 0.0, notion: Optional[str] = None) -> bool:
        """True when a spend of (epsilon, delta) under `notion` fits the remaining budget; BudgetError
        naming the budget, what is spent and what was asked otherwise. Spends nothing."""
        epsilon = _budget_value(epsilon, "epsilon")
        delta = _budget_value(delta, "delta", upper=1.0)
        with self._lock:
            if notion is not None and self._notion is not None and notion != self._notion:
                raise BudgetError(f"this accountant composes {self._notion}; a spend under {notion} cannot be added to it "
                                  "(different privacy notions do not compose into one total). Use one accountant per notion.")
            eps_total = math.fsum([*(e for e, _ in self._spent), epsilon])
            delta_total = math.fsum([*(d for _, d in self._spent), delta])
            if eps_total > self._epsilon or delta_total > self._delta:
                spent_eps, spent_delta = self.total()
                raise BudgetError(
                    f"privacy budget exceeded: spending (epsilon={epsilon:g}, delta={delta:g}) on top of the "
                    f"(epsilon={spent_eps:g}, delta={spent_delta:g}) already spent would total (epsilon={eps_total:g}, "
                    f"delta={delta_total:g}), above this accountant's budget (epsilon={self._epsilon:g}, "
                    f"delta={self._delta:g}). Nothing was run or spent; lower epsilon, or use a larger budget.")
        return True

    def spend(self, epsilon: float, delta: float = 0.0, notion: Optional[str] = None) -> "BudgetAccountant":
        """Records a spend of (epsilon, delta) after checking it fits (BudgetError otherwise, nothing spent).
        Returns the accountant."""
        with self._lock:
            self.check(epsilon, delta, notion)
            self._spent.append((float(epsilon), float(delta)))
            if notion is not None and self._notion is None:
                self._notion = notion
        return self

    # --- the default accountant (diffprivlib's convention) --------------------------------------------
    @classmethod
    def load_default(cls, accountant: Optional["BudgetAccountant"] = None) -> Optional["BudgetAccountant"]:
        """`accountant` when given (checked to be a BudgetAccountant), else the default accountant, None when
        none is set. (Unlike diffprivlib, no unlimited default is made: one accountant composes one notion, and
        an implicit one shared by central and local estimators would refuse the second.)"""
        if accountant is not None:
            if not isinstance(accountant, BudgetAccountant):
                raise TypeError(f"accountant must be a dpclust.BudgetAccountant, got {type(accountant).__name__}")
            return accountant
        with cls._default_lock:
            return BudgetAccountant._default

    def set_default(self) -> "BudgetAccountant":
        """Makes this accountant the default one (charged by every private fit without ``accountant=``)."""
        with BudgetAccountant._default_lock:
            BudgetAccountant._default = self
        return self

    @staticmethod
    def pop_default() -> Optional["BudgetAccountant"]:
        """Removes the default accountant and returns it (None when none was set)."""
        with BudgetAccountant._default_lock:
            default, BudgetAccountant._default = BudgetAccountant._default, None
        return default

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

    def __getstate__(self):
        state = dict(self.__dict__)
        state.pop("_lock", None)
        state.pop("_previous_default", None)
        return state

    def __setstate__(self, state):
        self.__dict__.update(state)
        self._lock = threading.RLock()

    def __repr__(self):
        eps, dlt = self.total()
        return (f"BudgetAccountant(epsilon={self._epsilon:g}, delta={self._delta:g}, "
                f"spent=(epsilon={eps:g}, delta={dlt:g}), spends={len(self._spent)})")
