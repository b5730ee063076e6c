"""dpclust's settings a user controls: ``set_config``, ``get_config``, ``config_context``.

``warn_not_private``: whether a fit that is not a differentially private release warns
``NotPrivateReleaseWarning`` (and its subclass ``PrivacyLeakWarning``):

- ``True`` (default): once per estimator class and reason in a process (the first seeded DPKMeans fit says
  that seeded fits are not private releases; the next ones do not repeat it). The fitted attributes
  (``private_release_``, ``non_private_``) say it for every fit.
- ``"always"``: on every fit.
- ``False``: never (research runs whose fits are seeded on purpose).

Worker processes see the setting in two ways: ``set_config`` also writes the environment variable
``DPCLUST_WARN_NOT_PRIVATE`` (``1``, ``always`` or ``0``), which processes started afterwards read at import
(set it in the shell to the same effect), and an estimator pickled to a worker (joblib, ``GridSearchCV(n_jobs=2)``)
carries the setting it was pickled under, so workers that were already running follow it too.
"""
from __future__ import annotations

import contextlib
import os
import threading
from typing import Iterator

__all__ = ["set_config", "get_config", "config_context"]

ENV_WARN = "DPCLUST_WARN_NOT_PRIVATE"
_lock = threading.Lock()


def _parse_warn(value, where: str):
    if value is True or value is False or value == "always":
        return value
    if isinstance(value, str):
        text = value.strip().lower()
        if text in ("1", "true", "yes", "on", "once", ""):
            return True
        if text in ("0", "false", "no", "off", "never"):
            return False
        if text == "always":
            return "always"
    raise ValueError(f"{where} must be True (once per estimator class and reason), 'always' or False; got {value!r}")


def _from_environment() -> dict:
    raw = os.environ.get(ENV_WARN)
    try:
        warn = True if raw is None else _parse_warn(raw, f"the environment variable {ENV_WARN}")
    except ValueError as e:
        import warnings
        warnings.warn(f"{e}; using the default (1)", RuntimeWarning, stacklevel=3)
        warn = True
    return {"warn_not_private": warn}


_config = _from_environment()
# (estimator class, reason) pairs already warned about in this process (warn_not_private=True; _warnings.py); set_config
# clears them when it turns the warnings on again.
warned = set()


def get_config() -> dict:
    """dpclust's current settings (a copy): ``{'warn_not_private': True | 'always' | False}``."""
    with _lock:
        return dict(_config)


def set_config(warn_not_private=None) -> None:
    """Changes dpclust's settings for this process and the processes it starts (module docstring).

    Parameters
    ----------
    warn_not_private : True, 'always', False or None
        True: warn once per estimator class and reason that a fit is not a private release; 'always': on every
        fit; False: never. None leaves it as it is.
    """
    if warn_not_private is None:
        return
    warn = _parse_warn(warn_not_private, "warn_not_private")
    with _lock:
        _config["warn_not_private"] = warn
        os.environ[ENV_WARN] = {True: "1", False: "0", "always": "always"}[warn]
        if warn is not False:
            warned.clear()  # warn again about every class and reason


@contextlib.contextmanager
def config_context(warn_not_private=None) -> Iterator[None]:
    """``set_config`` for the block only (it returns a context manager; the previous settings are restored after it,
    as scikit-learn's ``config_context`` does)."""
    old = get_config()
    previous_env = os.environ.get(ENV_WARN)
    set_config(warn_not_private=warn_not_private)
    try:
        yield
    finally:
        with _lock:
            _config.update(old)
            if previous_env is None:
                os.environ.pop(ENV_WARN, None)
            else:
                os.environ[ENV_WARN] = previous_env
