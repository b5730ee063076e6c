"""dpclust from Python: the differentially private clustering engine of the `dpclust` command.

Estimators (scikit-learn conventions, parameters as in ``dpclust list``)::

    DPDBSCAN, DPKMeans, DPM, EUGkM, FastLloyd, HSTClustering, HybridKMeans, LSHClustering, WaveCluster, WCBaseline, PrivQT,
    PrivTHR, PrivTHREM                                                        (dpclust.cluster)
    NDLaplace, DRBT                                                           (dpclust.transform)

Budget: ``BudgetAccountant`` (diffprivlib's, with ``remaining(k)``, ``slack``, ``len()``) is charged by every fit of
a private estimator (``accountant=``, or the default accountant) and refuses a fit past its budget before it
runs; pickled copies (joblib, ``GridSearchCV(n_jobs=2)``) share one budget.
Metrics on label arrays: ``dpclust.metrics`` (ari, ami, nmi, dsg_c, ocm, two_ce, f_measure, ...).
Experiments: ``run``, ``validate``, ``audit``, ``report``, ``load_results``, ``load_dataset``; a config may
name a Python function as a method (``method: python``, see ``dpclust._mechanism`` for the contract).
Data: ``dpclust.datasets`` (the engine's generators: make_moons, make_circles, make_blobs, generate).

Install: ``/usr/bin/python3 -m venv --system-site-packages .venv && .venv/bin/pip install --no-build-isolation .``
at the top of the source tree (offline on Debian 12; Debian's interpreter, whose numpy, pybind11, setuptools
and wheel the environment sees); it installs this package and the ``dpclust`` command. Without installing:
``cmake --build BUILD`` assembles the package in BUILD/python; then ``PYTHONPATH=BUILD/python /usr/bin/python3
-c "import dpclust"`` (docs/python.md, docs/python-api.md).

Privacy flags on every fitted estimator: ``private_release_``, ``epsilon_spent_``, ``delta_spent_``,
``privacy_notion_``, ``non_private_``; a fit that is not a private release warns ``NotPrivateReleaseWarning``
(bounds from the data: its subclass ``PrivacyLeakWarning``), once per estimator class and reason;
``set_config(warn_not_private=False)`` or ``DPCLUST_WARN_NOT_PRIVATE=0`` silences it, worker processes included.
"""
from . import _core, _safe_calls

_safe_calls.install(_core)  # before any module binds a function of _core: no error prints an argument's value

from . import datasets, metrics  # noqa: E402
from ._config import config_context, get_config, set_config
from ._core import Ledger
from ._estimator import NotFittedError, NotPrivateReleaseWarning, PrivacyLeakWarning
from .accountant import Budget, BudgetAccountant, BudgetError
from .cluster import (DPDBSCAN, DPM, DPKMeans, EUGkM, FastLloyd, HSTClustering, HybridKMeans, LSHClustering, PrivQT, PrivTHR, PrivTHREM,
                      WaveCluster, WCBaseline)
from .experiment import audit, load_dataset, load_results, report, run, validate
from .transform import DRBT, NDLaplace

__version__ = _core.__version__
build = _core.build


def methods() -> list[str]:
    """Names of the engine's built-in methods (``dpclust list``)."""
    return _core.methods()


def method_info(name: str) -> dict:
    """A built-in method's summary, reference, privacy and parameters (name, type, default, allowed values)."""
    return _core.method_info(name)


__all__ = ["DPDBSCAN", "DPKMeans", "DPM", "EUGkM", "FastLloyd", "HSTClustering", "HybridKMeans", "LSHClustering", "WaveCluster", "WCBaseline",
           "PrivQT", "PrivTHR",
           "PrivTHREM", "NDLaplace", "DRBT",
           "PrivacyLeakWarning", "NotPrivateReleaseWarning", "NotFittedError", "BudgetAccountant", "BudgetError", "Budget",
           "Ledger", "metrics", "datasets", "run", "validate", "audit", "report", "load_results", "load_dataset",
           "methods", "method_info", "set_config", "get_config", "config_context", "build", "__version__"]
