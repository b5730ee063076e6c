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
