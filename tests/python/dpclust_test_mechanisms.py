"""Python mechanisms for the `method: python` tests (test_dpclust.py): one that spends its budget as
declared, and deliberately wrong ones the runner's ledger check must reject."""
import numpy as np


def grid_counts(points, bounds, params, rng, ledger):
    """Noisy counts of a public grid (one entry: sensitivity 1, disjoint cells); each point labelled with
    its cell when the cell's noisy count reaches min_count, else noise. The release is the noisy counts;
    the permutation drawn from rng only renumbers the cells (it tests that rng is seeded per trial)."""
    lo, hi = bounds
    g = params["cells"]
    cell = np.minimum(((points - lo) / (hi - lo) * g).astype(np.int64), g - 1)
    flat = cell[:, 0] * g + cell[:, 1]
    counts = np.bincount(flat, minlength=g * g)
    noisy = ledger.laplace_counts(counts, sensitivity=1, epsilon=params["epsilon"], step="noisy grid counts")
    order = rng.permutation(g * g)
    dense = noisy >= params["min_count"]
    labels = np.where(dense[flat], order[flat], -1)
    return {"labels": labels, "release": {"noisy_counts": noisy.tolist()},
            "diagnostics": {"dense_cells": int(dense.sum())}}


def one_cluster(points, bounds, params, rng, ledger):
    """The cheapest private mechanism: one noisy count, every point in one cluster (the cost of a Python
    call per trial)."""
    ledger.laplace_counts([len(points)], sensitivity=1, epsilon=params["epsilon"], step="noisy n")
    return np.zeros(len(points), dtype=np.int32)


def half_budget(points, bounds, params, rng, ledger):
    """Wrong: spends half of its epsilon, so the ledger does not add up to the configured total."""
    ledger.laplace_counts([len(points)], sensitivity=1, epsilon=params["epsilon"] / 2, step="noisy n")
    return np.zeros(len(points), dtype=np.int32)


def double_budget(points, bounds, params, rng, ledger):
    """Wrong: spends its epsilon twice (sequential composition makes that 2 epsilon)."""
    for step in ("first look", "second look"):
        ledger.laplace_counts([len(points)], sensitivity=1, epsilon=params["epsilon"], step=step)
    return np.zeros(len(points), dtype=np.int32)


def spends_anyway(points, bounds, params, rng, ledger):
    """Wrong when declared private: false: a non-private method may not spend budget."""
    ledger.laplace_counts([len(points)], sensitivity=1, epsilon=1.0, step="noisy n")
    return np.zeros(len(points), dtype=np.int32)


def keeps_ledger(points, bounds, params, rng, ledger):
    """Wrong: keeps the ledger to spend after the trial has finished."""
    global kept_ledger
    kept_ledger = ledger
    return one_cluster(points, bounds, params, rng, ledger)


kept_ledger = None


def numpy_noise(points, bounds, params, rng, ledger):
    """Draws its own Laplace noise with numpy and records the entry through ledger.charge: the budget adds
    up, but the noise never went through dpclust's samplers, so the result must be flagged non-private."""
    noisy_n = len(points) + rng.laplace(0.0, 1.0 / params["epsilon"])
    ledger.charge(step="noisy n (numpy)", epsilon=params["epsilon"], mechanism="laplace (numpy)", sensitivity=1.0,
                  sensitivity_norm="l1")
    return {"labels": np.zeros(len(points), dtype=np.int32), "release": {"noisy_n": float(noisy_n)}}


def _k_centres_from_noisy_means(points, bounds, params, ledger, start):
    """One private Lloyd step from `start` (k x d centres): noisy counts and per-coordinate noisy sums, one
    ledger entry each (disjoint clusters), the centres clamped into the box."""
    lo, hi = bounds
    k, d = start.shape
    nearest = np.argmin(((points[:, None, :] - start[None, :, :]) ** 2).sum(axis=2), axis=1)
    half = params["epsilon"] / 2
    counts = ledger.laplace_counts(np.bincount(nearest, minlength=k), sensitivity=1, epsilon=half, step="counts")
    mid, width = (lo + hi) / 2, (hi - lo) / 2
    sums = np.zeros((k, d))
    for j in range(d):
        sums[:, j] = ledger.laplace_reals(np.bincount(nearest, weights=np.clip(points[:, j], lo[j], hi[j]) - mid[j], minlength=k),
                                          sensitivity=width[j], epsilon=half / d, bound=1e6 * width[j], step=f"sums {j}")
    return np.clip(mid + sums / np.maximum(counts, 1)[:, None], lo, hi)


def box_start(bounds, params, rng):
    """k centres uniform in the public box, drawn without the data (the entry's init)."""
    lo, hi = bounds
    return rng.uniform(lo, hi, size=(params["k"], len(lo)))


def lloyd_step(points, bounds, params, rng, ledger, init):
    """Releases its centres (releases_centres: true) from a start drawn by box_start; no labels returned: the
    runner labels each point by its nearest released centre (for evaluation)."""
    return {"centres": _k_centres_from_noisy_means(points, bounds, params, ledger, np.asarray(init))}


def lloyd_step_drawing_inside(points, bounds, params, rng, ledger):
    """The same with the start drawn from rng while holding the data: flagged (the runner cannot tell)."""
    return {"centres": _k_centres_from_noisy_means(points, bounds, params, ledger, box_start(bounds, params, rng))}


def lloyd_step_global_numpy(points, bounds, params, rng, ledger):
    """The same with the start drawn from numpy's global generator: flagged too."""
    lo, hi = bounds
    start = np.random.uniform(lo, hi, size=(params["k"], len(lo)))
    return {"centres": _k_centres_from_noisy_means(points, bounds, params, ledger, start)}


def centres_undeclared(points, bounds, params, rng, ledger):
    """Returns centres although its entry does not declare releases_centres."""
    ledger.laplace_counts([len(points)], sensitivity=1, epsilon=params["epsilon"], step="noisy n")
    return {"labels": np.zeros(len(points), dtype=np.int32), "centres": np.zeros((1, points.shape[1]))}


def ledger_call_missing_epsilon(points, bounds, params, rng, ledger):
    """Wrong: calls the ledger with the data and without epsilon."""
    ledger.laplace_counts(points[:, 0], sensitivity=1.0, step="first coordinates")
    return np.zeros(len(points), dtype=np.int32)


def ledger_call_wrong_type(points, bounds, params, rng, ledger):
    """Wrong: passes the sensitivity as text."""
    ledger.laplace_reals(points[:, 0], sensitivity="1", epsilon=params["epsilon"], bound=100.0, step="first coordinates")
    return np.zeros(len(points), dtype=np.int32)


def own_error_quoting_a_record(points, bounds, params, rng, ledger):
    """A bug that puts a record in its error message."""
    raise ValueError(f"cannot place the point {points[2].tolist()}")


def fractional_counts(points, bounds, params, rng, ledger):
    """Wrong: noisy 'counts' of real values (the discrete noise would keep their fractional parts exact)."""
    ledger.laplace_counts(points[:, 0], sensitivity=1.0, epsilon=params["epsilon"], step="sums as counts")
    return np.zeros(len(points), dtype=np.int32)
