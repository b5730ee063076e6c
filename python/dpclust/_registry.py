"""The estimators of the engine's methods, found from the catalog.

Every built-in method names its Python estimator (``MethodInfo::python_estimator``: ``"cluster.DPM"``, a class of
this package) or says why it has none (``no_python_estimator``); the catalog is built from the method folders that
engine/methods.cmake lists (docs/design.md, "Adding a method"). The package exports the classes named there, so a new
method's estimator needs its class and the name in its folder's register.cpp, nothing here.
"""
from __future__ import annotations

import importlib
from typing import Dict

from . import _core


def estimator_classes() -> Dict[str, type]:
    """{class name: class} of every built-in method's estimator, in the catalog's order (``dpclust list``)."""
    classes: Dict[str, type] = {}
    for method in _core.methods():
        target = _core.method_info(method)["python_estimator"]
        if not target:
            continue
        module_name, _, class_name = target.rpartition(".")
        cls = getattr(importlib.import_module(f".{module_name}", __package__), class_name)
        if getattr(cls, "_method", None) != method:
            raise ImportError(f"dpclust.{target} is the estimator the catalog names for method '{method}', but its _method is "
                              f"{getattr(cls, '_method', None)!r}")
        classes[class_name] = cls
    return classes


def estimators_of(module_globals: Dict[str, object]) -> list:
    """The names of the estimator classes a module defines (those that name an engine method): its ``__all__``."""
    return [name for name, obj in module_globals.items()
            if isinstance(obj, type) and not name.startswith("_") and isinstance(getattr(obj, "_method", None), str)]
