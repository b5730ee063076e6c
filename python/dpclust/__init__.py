"""dpclust from Python: the differentially private clustering engine of the `dpclust` command.

Estimators (scikit-learn conventions, parameters as in ``dpclust list``)::

    DPDBSCAN, DPKMeans, WaveCluster, WCBaseline, PrivQT, PrivTHR, PrivTHREM   (dpclust.cluster)
    NDLaplace, DRBT                                                           (dpclust.transform)

Budget: ``BudgetAccountant`` (diffprivlib's convention) is charged by every fit of a private estimator
(``accountant=``, or the default accountant) and refuses a fit past its budget before it runs.
Metrics on label arrays: ``dpclust.metrics`` (ari, ami, nmi, dsg_c, ocm, two_ce, f_measure, ...).
Experiments: ``run``, ``validate``, ``audit``, ``report``, ``load_results``, ``load_dataset``; a config may
name a Python function as a method (``method: python``, see ``dpclust._mechanism`` for the contract).
Data: ``dpclust.datasets`` (the engine's generators: make_moons, make_circles, make_blobs, generate).

Set-up without installing: ``cmake --build BUILD`` assembles the package in BUILD/python; then
``PYTHONPATH=BUILD/python python3 -c "import dpclust"`` (docs/python.md).
"""
from . import _core, datasets, metrics
from ._core import Ledger
from ._estimator import PrivacyLeakWarning
from .accountant import BudgetAccountant, BudgetError
from .cluster import DPDBSCAN, DPKMeans, PrivQT, PrivTHR, PrivTHREM, WaveCluster, WCBaseline
from .experiment import audit, load_dataset, load_results, report, run, validate
from .transform import DRBT, NDLaplace

__version__ = _core.__version__
build = _core.build


def methods():
    """Names of the engine's built-in methods (``dpclust list``)."""
    return _core.methods()


def method_info(name):
    """A built-in method's summary, reference, privacy and parameters (name, type, default, allowed values)."""
    return _core.method_info(name)


__all__ = ["DPDBSCAN", "DPKMeans", "WaveCluster", "WCBaseline", "PrivQT", "PrivTHR", "PrivTHREM", "NDLaplace", "DRBT",
           "PrivacyLeakWarning", "BudgetAccountant", "BudgetError", "Ledger", "metrics", "datasets", "run", "validate", "audit", "report", "load_results",
           "load_dataset", "methods", "method_info"]
