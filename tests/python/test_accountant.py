"""The privacy budget accountant (dpclust.accountant, issue 22 item 5) and what the estimators charge it.

Run by CTest (python_dpclust) with PYTHONPATH at the build's package. Every fit here is small (a few hundred
points) and seeded.
"""
import copy
import gc
import math
import os
import pickle
import subprocess
import sys

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
    return dpclust.DPKMeans(n_clusters=3, epsilon=epsilon, bounds=BOUNDS, random_state=seed, accountant=accountant)


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
    # n_public: with the true n shaping theta the fit would be unbounded (refused by a finite budget, below)
    b = dpclust.DPDBSCAN(alpha=1.0, min_pts=5, epsilon=1.5, bounds=BOUNDS, n_public=300, random_state=1, accountant=acc)
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
    # Outside the block, as in diffprivlib, load_default() makes an unlimited default on first use, and the
    # fits without an accountant of their own are charged to it.
    implicit = BudgetAccountant.load_default()
    assert implicit is BudgetAccountant.load_default() and implicit.epsilon == float("inf") and len(implicit) == 0
    assert kmeans().fit(X).epsilon_spent_ == 1.0
    assert implicit.total() == (1.0, 0.0) and acc.spent == 1.0
    # It holds the notion of its first spend: a local fit is not charged to it (and not refused).
    nd = dpclust.NDLaplace(epsilon=2.0, n_clusters=3, n_init=1, pe_max_pairs=1000, bounds=BOUNDS, random_state=1).fit(X)
    assert nd.epsilon_spent_ == 2.0 and implicit.total() == (1.0, 0.0) and len(implicit) == 1
    acc2 = BudgetAccountant(epsilon=5).set_default()
    kmeans().fit(X)
    assert acc2.spent == 1.0 and BudgetAccountant.pop_default() is acc2
    with pytest.raises(TypeError, match="accountant must be a dpclust.BudgetAccountant"):
        BudgetAccountant.load_default("acc")


def test_delta_is_charged_and_bounded(X):
    acc = BudgetAccountant(epsilon=10, delta=1.5e-5)
    est = dpclust.DPDBSCAN(alpha=1.0, min_pts=5, epsilon=0.5, noise="gaussian", delta=1e-5, bounds=BOUNDS, n_public=300, random_state=1,
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
    nd = dpclust.NDLaplace(epsilon=2.0, n_clusters=3, n_init=1, pe_max_pairs=1000, bounds=BOUNDS, random_state=1, accountant=acc)
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
    est = dpclust.DRBT(k_dims=2, n_clusters=3, random_state=1).fit(X)
    assert est.epsilon_spent_ == 0.0 and est.privacy_notion_ == "none" and est.private_release_ is False
    with BudgetAccountant(epsilon=1.0) as acc:  # a default accountant is not charged by a non-private fit
        dpclust.DRBT(k_dims=2, n_clusters=3, random_state=1).fit(X)
    assert acc.spent == 0.0 and acc.spent_budget == []


def test_invalid_epsilon_is_the_engines_error_and_spends_nothing(X):
    acc = BudgetAccountant(epsilon=1)
    with pytest.raises(ValueError) as err:
        kmeans(acc, epsilon=-1.0).fit(X)
    assert not isinstance(err.value, BudgetError)
    assert acc.spent == 0.0


def test_accountant_conventions():
    acc = BudgetAccountant(epsilon=1.0, delta=0.0, spent_budget=[(0.25, 0.0)])
    assert (acc.epsilon, acc.delta, acc.spent, acc.slack, len(acc)) == (1.0, 0.0, 0.25, 0.0, 1)
    assert acc.check(0.75) is True
    assert acc.spend(0.5) is acc and acc.remaining() == (0.25, 0.0) and len(acc) == 2
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


# --- diffprivlib's documented behaviour (issue 36) ---------------------------------------------------------
# The numbers below are those of diffprivlib's documentation: its notebook "Budget accounting with diffprivlib"
# (notebooks/accountant.ipynb of IBM/differential-privacy-library) and the BudgetAccountant reference (epsilon
# default inf, delta default 1, slack default 0, slack <= delta, remaining(k) for k queries). The spends here are
# made with spend() where the notebook fits diffprivlib's mean/var with the same epsilon.

def test_diffprivlib_notebook_total_remaining_k_and_len():
    acc = BudgetAccountant(epsilon=5, delta=0)
    acc.spend(1.0, 0)                                  # the notebook's mean(X, bounds=(0, 1), accountant=acc): epsilon 1
    assert acc.total() == (1.0, 0.0) and repr(acc.total()) == "(epsilon=1.0, delta=0.0)"   # "Total spent"
    assert acc.remaining() == (4.0, 0.0) and repr(acc.remaining()) == "(epsilon=4.0, delta=0.0)"  # "for 1 query"
    assert acc.remaining(4) == (1.0, 0.0)             # "Remaining budget (for 4 queries): (epsilon=1.0, delta=0.0)"
    assert len(acc) == 1                               # "Number of queries recorded: 1"
    assert acc.remaining(4).epsilon == 1.0 and acc.remaining(4).delta == 0.0
    share = acc.remaining(4)
    for _ in range(4):                                 # remaining(k) spent k times uses the budget up exactly
        acc.spend(*share)
    assert acc.total() == (5.0, 0.0) and acc.remaining() == (0.0, 0.0)
    with pytest.raises(BudgetError):
        acc.spend(1e-12, 0)


def test_diffprivlib_notebook_refusal_and_the_three_ways():
    acc = BudgetAccountant(1.5, 0)                     # mean(epsilon=1) accepted, var(epsilon=1) refused
    acc.spend(1, 0)
    with pytest.raises(BudgetError, match="exceeded"):
        acc.spend(1, 0)
    assert acc.total() == (1.0, 0.0)
    acc_p = BudgetAccountant()                         # "Parameterisation": Total spend (1.618, 0)
    acc_p.spend(1.618, 0)
    assert acc_p.total() == (1.618, 0.0)
    acc_d = BudgetAccountant()                         # "Default": set_default(), Total spend (2.718, 0)
    acc_d.set_default()
    BudgetAccountant.load_default().spend(2.718, 0)
    assert acc_d.total() == (2.718, 0.0)
    with BudgetAccountant() as acc_w:                  # "Context manager": two spends of 1.5705, Total spend (3.141, 0)
        BudgetAccountant.load_default().spend(1.5705, 0)
        BudgetAccountant.load_default().spend(1.5705, 0)
    assert acc_w.total() == (3.141, 0.0)
    assert BudgetAccountant.load_default() is acc_d    # the with block restored the previous default


def _kov(spends, slack):
    """Kairouz, Oh & Viswanath (2017) Thm 3.5 written out independently of dpclust.accountant."""
    eps = [e for e, _ in spends]
    naive = sum(eps)
    sq = sum(e ** 2 for e in eps)
    loss = sum((math.exp(e) - 1) * e / (math.exp(e) + 1) for e in eps)
    return min(naive, loss + math.sqrt(2 * sq * math.log(1 / slack)),
               loss + math.sqrt(2 * sq * math.log(math.e + math.sqrt(sq) / slack)))


def test_slack_uses_advanced_composition():
    # The notebook's slack example: BudgetAccountant(slack=1e-3), 31 spends of 2^-6 (drawn there as a curve
    # under the naive sum). Naive: 31/64 = 0.484375; Thm 3.5: 0.2647 (the log(e + sqrt(sum e^2)/s) bound).
    acc = BudgetAccountant(slack=1e-3)
    for _ in range(31):
        acc.spend(2 ** -6, 0)
    eps, delta = acc.total()
    assert eps == pytest.approx(_kov([(2 ** -6, 0)] * 31, 1e-3), rel=1e-12)
    assert eps == pytest.approx(0.26468, abs=5e-5) and eps < 31 / 64
    assert delta == pytest.approx(1e-3, rel=1e-12)    # the slack is spent in delta
    assert acc.total(slack=0) == (31 / 64, 0.0)       # the same spends added up
    # One spend: advanced composition never beats the sum, so the total is the sum.
    one = BudgetAccountant(slack=1e-3)
    one.spend(0.5, 0)
    assert one.total()[0] == 0.5
    # A budget the spends fit only thanks to the slack, and the slack's limits.
    tight = BudgetAccountant(epsilon=0.3, delta=1e-3, slack=1e-3)
    for _ in range(31):
        tight.spend(2 ** -6, 0)
    assert tight.total()[0] <= 0.3
    with pytest.raises(BudgetError, match="changing slack"):
        tight.slack = 0                                # the sum 0.484 would pass 0.3
    assert tight.slack == 1e-3
    with pytest.raises(ValueError, match="slack must not be greater"):
        BudgetAccountant(delta=1e-4, slack=1e-3)
    # remaining(k) under slack: k spends of it fit, a hair more does not.
    acc = BudgetAccountant(epsilon=1.0, delta=1e-2, slack=1e-3)
    acc.spend(0.1, 0)
    r = acc.remaining(20)
    assert 0.05 < r.epsilon < 1.0  # the advanced bound lets 20 spends share more than (1 - 0.1) / 20 = 0.045
    assert _kov([(0.1, 0)] + [(r.epsilon, 0)] * 20, 1e-3) <= 1.0
    assert _kov([(0.1, 0)] + [(r.epsilon * (1 + 1e-9), 0)] * 20, 1e-3) > 1.0
    assert r.delta == pytest.approx(1 - ((1 - 1e-2) / (1 - 1e-3)) ** (1 / 20), rel=1e-12)
    with pytest.raises(TypeError):
        acc.remaining(1.5)
    with pytest.raises(ValueError):
        acc.remaining(0)


def test_delta_composes_as_one_minus_the_product():
    acc = BudgetAccountant(delta=1e-3)
    for _ in range(3):
        acc.spend(0.1, 1e-4)
    assert acc.total()[1] == pytest.approx(1 - (1 - 1e-4) ** 3, rel=1e-12)  # 2.9997e-4, a hair under 3e-4
    assert acc.remaining(2).delta == pytest.approx(1 - ((1 - 1e-3) / (1 - 1e-4) ** 3) ** 0.5, rel=1e-9)


# --- one budget across pickling and processes (issue 34 item 6, issue 36) ----------------------------------

def test_a_pickled_accountant_is_the_same_budget():
    acc = BudgetAccountant(epsilon=1.0)
    acc.spend(0.6)
    copy_ = pickle.loads(pickle.dumps(acc))
    assert copy_ is not acc and "shared" in repr(acc)
    copy_.spend(0.4)                                   # the copy's 0.4 uses the budget up ...
    with pytest.raises(BudgetError, match="exceeded"):
        acc.spend(0.4)                                 # ... so the original's 0.4 is refused: 1.0 spent, not 1.4
    assert acc.total() == copy_.total() == (1.0, 0.0) and len(acc) == len(copy_) == 2
    copy_.slack = 0.5                                  # settings are shared too
    assert acc.slack == 0.5
    ledger = acc._path
    assert os.path.isfile(ledger) and oct(os.stat(ledger).st_mode & 0o777) == "0o600"
    # The ledger file lives as long as the original: afterwards a copy reports what it knew and refuses spends.
    del acc
    gc.collect()
    assert not os.path.exists(ledger)
    assert copy_.total() == (1.0, 0.5)  # the slack is counted in delta
    with pytest.raises(BudgetError, match="pickled copy whose shared ledger is gone"):
        copy_.spend(0.0)
    with pytest.raises(BudgetError, match="refuses every spend"):
        copy_.check(0.0)


def test_an_estimator_pickled_with_its_accountant_charges_the_same_budget(X):
    acc = BudgetAccountant(epsilon=1.5)
    est = kmeans(acc)
    twin = pickle.loads(pickle.dumps(est))
    assert twin.accountant is not acc
    twin.fit(X)
    with pytest.raises(BudgetError):
        est.fit(X)
    assert acc.total() == (1.0, 0.0)


_SPENDER = """
import pickle, sys
acc = pickle.loads(sys.stdin.buffer.read())
ok = 0
for _ in range(50):
    try:
        acc.spend(0.1)
        ok += 1
    except Exception as e:
        assert type(e).__name__ == "BudgetError", e
print(ok)
"""


def test_processes_spending_one_pickled_budget_never_pass_it():
    acc = BudgetAccountant(epsilon=2.0)
    blob = pickle.dumps(acc)
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    procs = [subprocess.Popen([sys.executable, "-c", _SPENDER], stdin=subprocess.PIPE, stdout=subprocess.PIPE, env=env)
             for _ in range(3)]
    for p in procs:
        p.stdin.write(blob)
        p.stdin.close()
    accepted = [int(p.stdout.read()) for p in procs]
    assert all(p.wait(timeout=120) == 0 for p in procs)
    # 150 attempts of 0.1 against a budget of 2: exactly 20 accepted in all, whoever made them.
    assert sum(accepted) == 20 and len(acc) == 20 and acc.total() == (2.0, 0.0)


def _grid(acc_or_none, refit, n_jobs=2):
    from sklearn.model_selection import GridSearchCV
    est = dpclust.DPKMeans(2, epsilon=0.4, bounds=BOUNDS, accountant=acc_or_none)
    return GridSearchCV(est, {"n_clusters": [2, 3]}, cv=3, n_jobs=n_jobs, refit=refit, error_score=np.nan)


def test_grid_search_with_two_workers_spends_one_budget(X):
    pytest.importorskip("sklearn")
    from sklearn.exceptions import FitFailedWarning
    acc = BudgetAccountant(epsilon=1.0)
    with pytest.warns(FitFailedWarning, match="4 fits failed out of a total of 6"):
        search = _grid(acc, refit=False).fit(X)
    # Six fold fits of 0.4 in two worker processes against 1: two are charged (0.8), four refused.
    assert acc.total() == (0.8, 0.0) and len(acc) == 2
    scores = search.cv_results_["split0_test_score"], search.cv_results_["split1_test_score"], search.cv_results_["split2_test_score"]
    assert int(np.isfinite(np.concatenate(scores)).sum()) == 2
    # With refit (the default), the refit on all of X needs 0.4 more: refused before it runs.
    acc = BudgetAccountant(epsilon=1.0)
    with pytest.raises(BudgetError), pytest.warns(FitFailedWarning):
        _grid(acc, refit=True).fit(X)
    assert acc.total() == (0.8, 0.0)
    # A budget for six fold fits and the refit: 7 x 0.4 (2.8000000000000003 in exact double arithmetic, so a
    # budget of 2.8 would refuse the refit by 4e-16: budgets are compared without tolerance).
    acc = BudgetAccountant(epsilon=3.0)
    search = _grid(acc, refit=True).fit(X)
    assert len(acc) == 7 and acc.total()[0] == pytest.approx(2.8) and search.best_estimator_.epsilon_spent_ == 0.4
    # The default accountant (set in this process) is the one the workers charge.
    with BudgetAccountant(epsilon=1.0) as default:
        with pytest.warns(FitFailedWarning):
            _grid(None, refit=False).fit(X)
    assert default.total() == (0.8, 0.0) and len(default) == 2


# --- unbounded fits (issue 42 item 4) ----------------------------------------------------------------------
# A fit no finite epsilon bounds -- diffprivlib's DP-k-means variant (its ledger says unbounded), bounds taken
# from the data (bounds=None), PrivTHR_EM's continuous threshold or its data range (em_upper=0), WCBaseline with
# n_share=0, LSH clustering's radius or centre from the data, EUGkM's and the hybrid's true n, DPM's rank-mean
# gap statistic in d > 1 -- was charged its configured epsilon (1.0, 1.0, 0.5 against a budget of 3, and later fits allowed).
# It is refused by a finite budget (nothing released or spent) and costs inf on an infinite one.

UNBOUNDED_FITS = [
    ("diffprivlib", lambda acc: dpclust.DPKMeans(n_clusters=3, epsilon=1.0, bounds=BOUNDS, variant="diffprivlib", random_state=1,
                                                 accountant=acc)),
    ("bounds=None", lambda acc: dpclust.DPKMeans(n_clusters=3, epsilon=1.0, bounds=None, random_state=1, accountant=acc)),
    ("continuous threshold", lambda acc: dpclust.PrivTHREM(epsilon=0.5, em_upper=40.0, threshold_output="continuous", bounds=BOUNDS,
                                                           random_state=1, accountant=acc)),
    ("em_upper=0", lambda acc: dpclust.PrivTHREM(epsilon=0.5, em_upper=0.0, bounds=BOUNDS, random_state=1, accountant=acc)),
    ("n_share=0", lambda acc: dpclust.WCBaseline(epsilon=0.5, n_share=0.0, bounds=BOUNDS, random_state=1, accountant=acc)),
    ("true n shapes theta", lambda acc: dpclust.DPDBSCAN(alpha=1.0, min_pts=5, epsilon=1.0, bounds=BOUNDS, random_state=1,
                                                         accountant=acc)),
    # The newer methods' data-derived choices were charged eps 1.0 each while n_share=0 was refused.
    ("radius_from_data", lambda acc: dpclust.LSHClustering(n_clusters=3, epsilon=1.0, bounds=BOUNDS, radius_from_data=True,
                                                           random_state=1, accountant=acc)),
    ("centre=data", lambda acc: dpclust.LSHClustering(n_clusters=3, epsilon=1.0, bounds=BOUNDS, centre="data", random_state=1,
                                                      accountant=acc)),
    ("EUGkM n_source=data", lambda acc: dpclust.EUGkM(n_clusters=3, epsilon=1.0, bounds=BOUNDS, n_source="data", random_state=1,
                                                      accountant=acc)),
    ("HybridKMeans n_source=data", lambda acc: dpclust.HybridKMeans(n_clusters=3, epsilon=1.0, bounds=BOUNDS, n_source="data",
                                                                    random_state=1, accountant=acc)),
    ("DPM rank_mean in 2-D", lambda acc: dpclust.DPM(epsilon=1.0, bounds=BOUNDS, gap_statistic="rank_mean", random_state=1,
                                                     accountant=acc)),
]


@pytest.mark.parametrize("name,make", UNBOUNDED_FITS, ids=[n for n, _ in UNBOUNDED_FITS])
def test_an_unbounded_fit_is_refused_by_a_finite_budget(X, name, make):
    acc = BudgetAccountant(epsilon=3.0)
    est = make(acc)
    # warn_not_private=False: the once-per-process warnings (bounds=None's PrivacyLeakWarning) stay unspent
    # for the tests that ask for them.
    with pytest.raises(BudgetError, match="no finite privacy bound"), dpclust.config_context(warn_not_private=False):
        est.fit(X)
    assert acc.spent == 0.0 and len(acc) == 0                       # nothing spent ...
    assert not hasattr(est, "labels_") and not hasattr(est, "epsilon_spent_")  # ... nor released
    kmeans(acc, epsilon=3.0).fit(X)                                 # the whole budget is still there


@pytest.mark.parametrize("name,make", UNBOUNDED_FITS, ids=[n for n, _ in UNBOUNDED_FITS])
def test_an_unbounded_fit_costs_inf_on_an_infinite_budget(X, name, make):
    acc = BudgetAccountant()
    with dpclust.config_context(warn_not_private=False):
        est = make(acc).fit(X)
    assert est.epsilon_spent_ == math.inf
    assert acc.spent == math.inf and acc.spent_budget[0][0] == math.inf
    assert est.private_release_ is False
    kmeans(acc).fit(X)                                              # an infinite budget takes more
    assert acc.spent == math.inf


def test_a_bounded_fit_on_public_bounds_still_costs_its_epsilon(X):
    acc = BudgetAccountant(epsilon=3.0)
    est = dpclust.PrivTHREM(epsilon=0.5, em_upper=40.0, bounds=BOUNDS, random_state=1, accountant=acc).fit(X)
    assert est.epsilon_spent_ == 0.5 and acc.spent == 0.5


# --- the shared ledger folder belongs to its user (issue 42 item 8) ----------------------------------------

def test_a_ledger_folder_made_by_another_user_is_refused(tmp_path, monkeypatch):
    monkeypatch.setattr(dpclust.accountant.tempfile, "gettempdir", lambda: str(tmp_path))
    real_uid = os.getuid()
    # Another user made <tmp>/dpclust-budget-<uid> first (here: the folder exists, owned by uid real_uid,
    # and this process claims to be real_uid + 1, whose folder name it is).
    other = tmp_path / f"dpclust-budget-{real_uid + 1}"
    other.mkdir(mode=0o777)
    monkeypatch.setattr(dpclust.accountant.os, "getuid", lambda: real_uid + 1)
    acc = BudgetAccountant(epsilon=1.0)
    with pytest.raises(BudgetError, match="belongs to another user"):
        pickle.dumps(acc)
    assert acc._path is None  # the budget stayed in memory
    # A symbolic link by that name is refused too.
    monkeypatch.setattr(dpclust.accountant.os, "getuid", lambda: real_uid + 2)
    (tmp_path / f"dpclust-budget-{real_uid + 2}").symlink_to(tmp_path)
    with pytest.raises(BudgetError, match="not a folder"):
        pickle.dumps(BudgetAccountant(epsilon=1.0))


def test_the_users_own_ledger_folder_is_made_private(tmp_path, monkeypatch):
    monkeypatch.setattr(dpclust.accountant.tempfile, "gettempdir", lambda: str(tmp_path))
    mine = tmp_path / f"dpclust-budget-{os.getuid()}"
    mine.mkdir(mode=0o755)
    os.chmod(mine, 0o755)
    acc = BudgetAccountant(epsilon=1.0)
    pickle.loads(pickle.dumps(acc)).spend(0.5)
    assert acc.spent == 0.5
    assert oct(os.stat(mine).st_mode & 0o777) == "0o700"
    assert os.path.dirname(acc._path) == str(mine)
