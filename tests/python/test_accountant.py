"""The privacy budget accountant (dpclust.accountant, issue 22 item 5) and what the estimators charge it.

Run by CTest (python_dpclust) with PYTHONPATH at the build's package. Every fit here is small (a few hundred
points) and seeded.
"""
import copy

import numpy as np
import pytest

import dpclust
from dpclust import BudgetAccountant, BudgetError

BOUNDS = ((-15.0, -15.0), (15.0, 15.0))


@pytest.fixture(scope="module")
def X():
    return dpclust.datasets.make_blobs(n_samples=300, centers=3, random_state=4)[0]


@pytest.fixture(autouse=True)
def fresh_default():
    # The default accountant is process-wide: every test starts and ends without one set.
    BudgetAccountant.pop_default()
    yield
    BudgetAccountant.pop_default()


def kmeans(accountant=None, epsilon=1.0, seed=3):
    return dpclust.DPKMeans(k=3, epsilon=epsilon, bounds=BOUNDS, random_state=seed, accountant=accountant)


def test_the_third_fit_is_refused_before_running_and_spends_nothing(X, monkeypatch):
    acc = BudgetAccountant(epsilon=2.5)
    kmeans(acc).fit(X)
    kmeans(acc, seed=4).fit(X)
    assert acc.total() == (2.0, 0.0) and acc.spent == 2.0
    assert acc.remaining() == (0.5, 1.0)
    # The refusal happens before the engine runs: a fit that reached it would fail differently.
    calls = []
    real_fit = dpclust._core.fit
    monkeypatch.setattr(dpclust._core, "fit", lambda *a, **k: calls.append(a) or real_fit(*a, **k))
    third = kmeans(acc, seed=5)
    with pytest.raises(BudgetError, match=r"privacy budget exceeded.*epsilon=3.*epsilon=2.5"):
        third.fit(X)
    assert calls == []
    assert not hasattr(third, "labels_") and not hasattr(third, "epsilon_spent_")
    assert acc.total() == (2.0, 0.0) and len(acc.spent_budget) == 2
    # A fit that fits what remains still runs.
    kmeans(acc, epsilon=0.5, seed=6).fit(X)
    assert acc.spent == 2.5 and len(calls) == 1


def test_epsilon_spent_is_the_configured_epsilon(X):
    est = kmeans(BudgetAccountant(), epsilon=0.75).fit(X)
    assert est.epsilon_spent_ == 0.75
    assert est.delta_spent_ == 0.0
    assert est.privacy_notion_ == "eps-DP (add/remove one record)"
    # the same numbers as the ledger the fit returns
    assert sum(s["epsilon"] for s in est.ledger_["steps"]) == est.epsilon_spent_ == est.ledger_["epsilon_total"]
    # private_release_ comes from the engine's flag: a seeded fit is reproducible, so not a private release
    assert est.private_release_ is False
    assert isinstance(est.private_release_, bool)


def test_an_accountant_shared_by_two_estimators(X):
    acc = BudgetAccountant(epsilon=3.0)
    a = kmeans(acc, epsilon=1.0)
    b = dpclust.DPDBSCAN(alpha=1.0, min_pts=5, epsilon=1.5, bounds=BOUNDS, random_state=1, accountant=acc)
    a.fit(X)
    b.fit(X)
    assert acc.spent_budget == [(1.0, 0.0), (1.5, 0.0)] and acc.spent == 2.5
    with pytest.raises(BudgetError):
        a.fit(X)  # refitting spends again: 2.5 + 1 > 3
    assert acc.spent == 2.5
    assert a.epsilon_spent_ == 1.0 and b.epsilon_spent_ == 1.5


def test_the_default_accountant_is_charged_without_accountant(X):
    with BudgetAccountant(epsilon=1.5) as acc:
        kmeans().fit(X)
        with pytest.raises(BudgetError):
            kmeans(seed=4).fit(X)
        assert acc.spent == 1.0
    # outside the block no default accountant: fits are not charged (their spend is still recorded)
    assert BudgetAccountant.load_default() is None
    assert kmeans().fit(X).epsilon_spent_ == 1.0
    assert acc.spent == 1.0
    acc2 = BudgetAccountant(epsilon=5).set_default()
    kmeans().fit(X)
    assert acc2.spent == 1.0 and BudgetAccountant.pop_default() is acc2


def test_delta_is_charged_and_bounded(X):
    acc = BudgetAccountant(epsilon=10, delta=1.5e-5)
    est = dpclust.DPDBSCAN(alpha=1.0, min_pts=5, epsilon=0.5, noise="gaussian", delta=1e-5, bounds=BOUNDS, random_state=1,
                           accountant=acc).fit(X)
    assert est.epsilon_spent_ == 0.5 and est.delta_spent_ == 1e-5
    assert est.privacy_notion_ == "(eps, delta)-DP (add/remove one record)"
    assert acc.total() == (0.5, 1e-5)
    with pytest.raises(BudgetError, match="delta"):
        est.fit(X)  # delta 2e-5 > 1.5e-5
    # pure eps-DP composes with (eps, delta)-DP: a pure fit is accepted by the same accountant
    kmeans(acc).fit(X)
    assert acc.total() == (1.5, 1e-5)


def test_local_and_central_guarantees_are_not_mixed(X):
    acc = BudgetAccountant(epsilon=10)
    kmeans(acc).fit(X)
    nd = dpclust.NDLaplace(epsilon=2.0, k=3, n_init=1, pe_max_pairs=1000, bounds=BOUNDS, random_state=1, accountant=acc)
    with pytest.raises(BudgetError, match="do not compose"):
        nd.fit(X)
    assert acc.spent == 1.0
    local = BudgetAccountant(epsilon=10)
    nd.set_params(accountant=local).fit(X)
    assert nd.epsilon_spent_ == 2.0 and local.spent == 2.0
    assert nd.privacy_notion_.startswith("eps-geo-indistinguishability")
    # transform is a new release of X (a new trial): it is charged too; refused past the budget
    nd.transform(X)
    assert local.spent == 4.0
    local_small = BudgetAccountant(epsilon=3.0)
    nd.set_params(accountant=local_small).fit(X)
    with pytest.raises(BudgetError):
        nd.transform(X)
    assert local_small.spent == 2.0


def test_non_private_estimators_take_no_accountant(X):
    assert "accountant" not in dpclust.DRBT().get_params()
    assert "accountant" not in dpclust.WaveCluster().get_params()
    est = dpclust.DRBT(k_dims=2, k=3, random_state=1).fit(X)
    assert est.epsilon_spent_ == 0.0 and est.privacy_notion_ == "none" and est.private_release_ is False
    with BudgetAccountant(epsilon=1.0) as acc:  # a default accountant is not charged by a non-private fit
        dpclust.DRBT(k_dims=2, k=3, random_state=1).fit(X)
    assert acc.spent == 0.0 and acc.spent_budget == []


def test_invalid_epsilon_is_the_engines_error_and_spends_nothing(X):
    acc = BudgetAccountant(epsilon=1)
    with pytest.raises(ValueError) as err:
        kmeans(acc, epsilon=-1.0).fit(X)
    assert not isinstance(err.value, BudgetError)
    assert acc.spent == 0.0


def test_accountant_conventions():
    acc = BudgetAccountant(epsilon=1.0, delta=0.0, spent_budget=[(0.25, 0.0)])
    assert (acc.epsilon, acc.delta, acc.spent) == (1.0, 0.0, 0.25)
    assert acc.check(0.75) is True
    assert acc.spend(0.5) is acc and acc.remaining() == (0.25, 0.0)
    with pytest.raises(BudgetError):
        acc.spend(0.5)
    with pytest.raises(BudgetError):
        acc.spend(0.0, 1e-9)  # delta budget 0
    assert acc.total() == (0.75, 0.0)
    # exact sums: ten spends of 0.1 fill a budget of 1 exactly, an eleventh does not fit
    tenth = BudgetAccountant(epsilon=1.0)
    for _ in range(10):
        tenth.spend(0.1)
    with pytest.raises(BudgetError):
        tenth.spend(1e-12)
    for bad in (-1, float("nan"), "1"):
        with pytest.raises((ValueError, TypeError)):
            BudgetAccountant(epsilon=bad)
    with pytest.raises(ValueError):
        BudgetAccountant(delta=1.5)
    with pytest.raises(BudgetError):
        BudgetAccountant(epsilon=1.0, spent_budget=[(2.0, 0.0)])
    # one budget is one budget: copies (and so scikit-learn's clone) share it
    assert copy.copy(acc) is acc and copy.deepcopy(acc) is acc
    assert "spent=(epsilon=0.75" in repr(acc)


def test_clone_keeps_the_shared_accountant(X):
    sklearn = pytest.importorskip("sklearn")
    from sklearn.base import clone
    acc = BudgetAccountant(epsilon=2.0)
    est = kmeans(acc)
    twin = clone(est)
    assert twin.accountant is acc
    est.fit(X)
    twin.fit(X)
    assert acc.spent == 2.0
    with pytest.raises(BudgetError):
        clone(twin).fit(X)
