"""The warnings of a fit that is not a differentially private release, said once per estimator class and reason in
a process (or always, or never: ``dpclust.set_config``)."""
from __future__ import annotations

import os
import sys
import warnings

from ._config import get_config, warned


class NotPrivateReleaseWarning(RuntimeWarning):
    """A fit whose output is not a differentially private release (``private_release_`` is False).

    Emitted once per estimator class and reason in a process (``dpclust.set_config``): seeded randomness
    (``random_state`` given: the seed regenerates the noise, so the output is reproducible and not a secure
    release), a method that is not differentially private (``WaveCluster``, ``DRBT``), a sampler or parameter
    the engine flags (``non_private_``), or bounds taken from the data (the subclass ``PrivacyLeakWarning``).
    Every fit's ``private_release_`` and ``non_private_`` say it whether or not it warned. The fit itself is
    complete and its numbers are the engine's; the warning says what may not be published as a DP release.
    Silence it for research runs with ``dpclust.set_config(warn_not_private=False)`` (or the environment
    variable ``DPCLUST_WARN_NOT_PRIVATE=0``): unlike ``warnings.simplefilter``, both reach joblib's worker
    processes. ``set_config(warn_not_private="always")`` warns on every fit.
    """


class PrivacyLeakWarning(NotPrivateReleaseWarning):
    """A differentially private estimator was fitted with bounds taken from the data.

    The bounding box of the data is a function of its most extreme records, so a release computed on a
    grid over it is not differentially private (diffprivlib warns the same way). The fitted estimator
    says so in ``non_private_``; pass public ``bounds=(lower, upper)`` to avoid it.
    """


_DATA_BOUNDS_NOTE = "domain bounds derived from the data (bounds: data)"
_NOT_PRIVATE_NOTE = "method is not differentially private"
_SILENCE = ("(Said once per estimator class and reason; dpclust.set_config(warn_not_private=False) or "
            "DPCLUST_WARN_NOT_PRIVATE=0 silences it, 'always' repeats it.)")


def _stacklevel_outside_package() -> int:
    """The warnings.warn stacklevel of the first caller outside the dpclust package, counted from the function
    that calls warnings.warn (the caller of this one): a fit reached through a subclass's fit, a mixin or
    super() adds frames, so a fixed stacklevel would point into the package instead of at the user's line."""
    package = os.path.dirname(os.path.abspath(__file__))
    frame = sys._getframe(1)  # the function about to call warnings.warn: stacklevel 1
    level = 1
    while frame is not None and os.path.dirname(os.path.abspath(frame.f_code.co_filename)) == package:
        frame = frame.f_back
        level += 1
    return level


def _warn_not_private(est, reasons, category, stacklevel=None, prefix="", suffix=""):
    """Warns `category` about `reasons` ((key, text) pairs) of estimator `est`, as the warn_not_private setting
    says: never, always, or each (class, key) once per process. The setting an estimator was pickled under
    (a joblib worker's copy) counts too: False there silences, 'always' repeats. The warning points at the
    first line outside the package (stacklevel, when given, is ignored: kept for callers' signatures)."""
    mode = get_config()["warn_not_private"]
    carried = est.__dict__.get("_dpclust_config", {}).get("warn_not_private", mode)
    if mode is False or carried is False:
        return
    if mode != "always" and carried != "always":
        reasons = [(key, text) for key, text in reasons if (type(est).__name__, key) not in warned]
        warned.update((type(est).__name__, key) for key, _ in reasons)
    if reasons:
        warnings.warn(f"{type(est).__name__}: {prefix}" + "; ".join(text for _, text in reasons) + f"{suffix} {_SILENCE}",
                      category, stacklevel=_stacklevel_outside_package())
