"""The engine's data generators (``dpclust list`` shows them), as a config's ``generator:`` entry makes
them: the same parameters, checks and numbers (``scale='standard'`` as ``scale: standard``)."""
from __future__ import annotations

from typing import Any, Optional, Tuple

import numpy as np

from . import _core

__all__ = ["generate", "make_moons", "make_circles", "make_blobs"]


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
