"""The engine's data generators (``dpclust list`` shows them), as a config's ``generator:`` entry makes
them: the same parameters, checks and numbers (``scale='standard'`` as ``scale: standard``)."""
from __future__ import annotations

import os
from typing import Any, List, NamedTuple, Optional, Sequence, Tuple, Union

import numpy as np

from . import _core

__all__ = ["generate", "make_moons", "make_circles", "make_blobs", "read_file", "FileData"]


class FileData(NamedTuple):
    """A data file as the CLI reads it: X (n_samples, n_features), y (labels or None), the column names."""
    X: np.ndarray
    y: Optional[np.ndarray]
    columns: List[str]


def read_file(path: Union[str, os.PathLike], *, format: Optional[str] = None, columns: Optional[Sequence[str]] = None,
              label: Optional[str] = None, nominal: Optional[str] = None, missing: Optional[str] = None,
              header: Optional[str] = None, delimiter: Optional[str] = None, max_rows: Optional[int] = None,
              identifier_columns: Optional[str] = None, header_rows: Optional[int] = None,
              nominal_order: Optional[str] = None, dates: Optional[str] = None) -> FileData:
    """Reads a CSV, TSV (plain or gzip), ARFF, FIMI or Gowalla file exactly as a config's dataset entry with
    these keys does (docs/config.md, docs/datasets.md): the same columns, label rule, ``nominal: skip | codes |
    onehot`` (ARFF nominal attributes, CSV text and true/false columns) with ``nominal_order: sorted |
    appearance`` (CSV), ``dates: skip | days | seconds`` (CSV date and timestamp columns), ``header_rows``
    (CSV names in several rows), ``missing: refuse | drop``, identifier columns and warnings.
    ``label='none'`` reads no labels; without ``label`` an ARFF file's label is its last attribute when
    nominal, else (ARFF and CSV) the one column named class, label or target. Returns
    ``FileData(X, y, columns)``."""
    entry: dict = {"name": "data", "file": os.path.abspath(os.fspath(path))}
    for key, value in (("format", format), ("label", label), ("nominal", nominal), ("missing", missing), ("header", header),
                       ("delimiter", delimiter), ("max_rows", max_rows), ("identifier_columns", identifier_columns),
                       ("header_rows", header_rows), ("nominal_order", nominal_order), ("dates", dates)):
        if value is not None:
            entry[key] = value
    if columns is not None:
        entry["columns"] = [str(c) for c in columns]
    from .experiment import _source
    config = {"experiment": "read_file", "datasets": [entry], "methods": [_core.methods()[0]]}
    data = _core.load_dataset(_source(config, None), "data")
    return FileData(data["X"], data["y"], list(data["columns"]))


def generate(type: str, scale: Optional[str] = None, **params: Any) -> Tuple[np.ndarray, Optional[np.ndarray]]:
    """(X, y) from generator ``type`` (moons, circles, blobs, gaussian_mixture, spirals, uniform) with its
    parameters as in a config; ``scale='standard'`` standard-scales the points as the config key does."""
    if scale not in (None, "none", "standard"):
        raise ValueError(f"scale must be 'standard' or None, got {scale!r}")
    generator = {"type": type, **params}
    if scale == "standard":
        generator["scale"] = "standard"
    from .experiment import _source
    config = {"experiment": "generate", "datasets": [{"name": "data", "generator": generator}],
              "methods": [_core.methods()[0]]}
    data = _core.load_dataset(_source(config, None), "data")
    return data["X"], data["y"]


def make_moons(n_samples: int = 100, noise: float = 0.0, shuffle: bool = True, random_state: int = 0,
               scale: Optional[str] = None, **params: Any) -> Tuple[np.ndarray, np.ndarray]:
    """Two interleaving half circles (scikit-learn's make_moons, the engine's generator)."""
    return generate("moons", scale=scale, n_samples=n_samples, noise=noise, shuffle=shuffle, seed=random_state, **params)


def make_circles(n_samples: int = 100, noise: float = 0.0, factor: float = 0.8, shuffle: bool = True, random_state: int = 0,
                 scale: Optional[str] = None, **params: Any) -> Tuple[np.ndarray, np.ndarray]:
    """A circle inside a circle (scikit-learn's make_circles, the engine's generator)."""
    return generate("circles", scale=scale, n_samples=n_samples, noise=noise, factor=factor, shuffle=shuffle,
                    seed=random_state, **params)


def make_blobs(n_samples: int = 100, centers: int = 3, n_features: int = 2, cluster_std: float = 1.0, shuffle: bool = True,
               random_state: int = 0, scale: Optional[str] = None, **params: Any) -> Tuple[np.ndarray, np.ndarray]:
    """Isotropic Gaussian blobs (scikit-learn's make_blobs, the engine's generator)."""
    return generate("blobs", scale=scale, n_samples=n_samples, centers=centers, n_features=n_features,
                    cluster_std=cluster_std, shuffle=shuffle, seed=random_state, **params)
