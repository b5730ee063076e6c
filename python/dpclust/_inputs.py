"""The input checks and messages of the estimators: scikit-learn's wording for bad X, never a value of X in a message
(it would release data without noise), and labels renumbered as scikit-learn numbers them."""
from __future__ import annotations

import numpy as np


def _check_finite(X: np.ndarray) -> None:
    """scikit-learn's ValueError for NaN or inf ("Input X contains NaN"), naming the first such value by row and
    column as the engine does, never by its neighbours' values (an error text is not a release)."""
    finite = np.isfinite(X)
    if finite.all():
        return
    row, col = (int(i) for i in np.argwhere(~finite)[0])
    kind = "NaN" if np.isnan(X[row, col]) else f"infinity or a value too large for {X.dtype!r}"
    raise ValueError(f"Input X contains {kind}: point {row} (0-based, in file order): coordinate {col} is not finite")


# Config phrasing in the engine's fixes -> what a Python user sets instead.
_CONFIG_TO_PYTHON = (
    ("widen the bounds (`bounds` in the config, bounds= in Python), or drop or clamp the points outside them "
     "(clip_to_bounds: drop | clamp)",
     "widen bounds=(lower, upper), or drop the rows outside them before fitting "
     "(X[((X >= lower) & (X <= upper)).all(axis=1)])"),
    ("widen the dataset's bounds or drop out-of-domain points (clip_to_bounds: true)",
     "widen bounds=(lower, upper), or drop the rows outside them before fitting "
     "(X[((X >= lower) & (X <= upper)).all(axis=1)])"),
    ("(clip_to_bounds: true)", "(drop the rows outside bounds= before fitting)"),
)

# scikit-learn's check_array messages that state shapes, types and kinds but never values of the data.
_SAFE_INPUT_MESSAGES = ("Found array with", "A sparse matrix was passed", "Input X contains", "Input contains", "X has ",
                        "setting an array element with a sequence", "dtype='numeric' is not compatible",
                        "argument must be a string", "Unable to convert array of bytes/strings", "The feature names",
                        "Feature names", "X does not contain any features", "Sparse data was passed",
                        "Expected a 2-dimensional container")


def _first_text_cell(X):
    """(row, column) of the first entry of X that float() cannot read, or None."""
    try:
        cells = np.asarray(X, dtype=object)
    except Exception:  # noqa: BLE001 - ragged input: no position to name
        return None
    if cells.ndim != 2:
        return None
    for (row, col), value in np.ndenumerate(cells):
        try:
            float(value)
        except (TypeError, ValueError):
            return row, col
    return None


def _input_error(error: Exception, X, owner: str, what: str) -> Exception:
    """scikit-learn's check_array error in words that never quote the data (an error text is
    not a release): its shape and kind, the position of a bad entry, and the fix."""
    text = str(error)
    shape = getattr(X, "shape", None)
    shape = f" of shape {tuple(shape)}" if shape is not None else ""
    if text.startswith("Expected 2D array"):
        kind = "scalar" if "scalar" in text.split("\n", 1)[0] else "1D"
        return ValueError(f"Expected 2D array, got {kind} array instead ({owner}: {what}{shape}; the values are not shown, "
                          f"error messages never print the data). Reshape your data either using {what}.reshape(-1, 1) if "
                          f"your data has a single feature or {what}.reshape(1, -1) if it contains a single sample.")
    if text.startswith("Complex data not supported"):
        return ValueError(f"Complex data not supported: {owner}: {what}{shape} holds complex numbers (not shown); pass "
                          "real numbers (e.g. the real and imaginary parts as two columns).")
    if text.startswith("could not convert") or "could not convert" in text:
        where = _first_text_cell(X)
        at = f": point {where[0]} (0-based): coordinate {where[1]}" if where else ""
        column = ""
        if where is not None and hasattr(X, "columns"):
            column = f" (column {X.columns[where[1]]!r})"
        return ValueError(f"{owner}: {what} must hold numbers{at}{column} is text that is not a number (the value is not "
                          "shown: error messages never print the data). Convert or drop that column before fitting "
                          "(e.g. one-hot encode a categorical field).")
    if any(text.startswith(safe) or safe in text.split("\n", 1)[0] for safe in _SAFE_INPUT_MESSAGES):
        return type(error)(text)
    return type(error)(f"{owner}: scikit-learn's check_array refused {what}{shape} ({type(error).__name__}); its message is "
                       f"not shown because it can quote values of {what}. {what} must be a 2-D array of real numbers "
                       "(n_samples, n_features).")


def _consecutive(labels: np.ndarray) -> np.ndarray:
    """Cluster ids renumbered 0..m-1 in their order, -1 (noise) kept: a released cluster may hold none of
    the training points (a span, centre or cell cluster made by noise), which leaves a gap in the ids."""
    present = np.unique(labels[labels >= 0])
    if present.size == 0 or present[-1] == present.size - 1:
        return labels
    out = labels.copy()
    mask = labels >= 0
    out[mask] = np.searchsorted(present, labels[mask]).astype(labels.dtype)
    return out
