"""The engine's data generators (``dpclust list`` shows them), as a config's ``generator:`` entry makes
them: the same parameters, checks and numbers (``scale='standard'`` as ``scale: standard``)."""
from . import _core


def generate(type, scale=None, **params):
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


def make_moons(n_samples=100, noise=0.0, shuffle=True, random_state=0, scale=None, **params):
    """Two interleaving half circles (scikit-learn's make_moons, the engine's generator)."""
    return generate("moons", scale=scale, n_samples=n_samples, noise=noise, shuffle=shuffle, seed=random_state, **params)


def make_circles(n_samples=100, noise=0.0, factor=0.8, shuffle=True, random_state=0, scale=None, **params):
    """A circle inside a circle (scikit-learn's make_circles, the engine's generator)."""
    return generate("circles", scale=scale, n_samples=n_samples, noise=noise, factor=factor, shuffle=shuffle,
                    seed=random_state, **params)


def make_blobs(n_samples=100, centers=3, n_features=2, cluster_std=1.0, shuffle=True, random_state=0, scale=None, **params):
    """Isotropic Gaussian blobs (scikit-learn's make_blobs, the engine's generator)."""
    return generate("blobs", scale=scale, n_samples=n_samples, centers=centers, n_features=n_features,
                    cluster_std=cluster_std, shuffle=shuffle, seed=random_state, **params)
