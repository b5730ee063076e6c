"""A differentially private grid clustering written in Python, run by dpclust as `method: python`
(noisy_grid.yaml): the count of every cell of a public grid with Laplace noise, the cells whose noisy
count reaches a threshold are dense, and the connected dense cells are the clusters. The release is the
dense cells with their cluster ids; the points' labels (the cluster of their cell) are for evaluation.

The privacy argument, as the ledger records it: adding or removing one point changes one cell count by
1 (L1 sensitivity 1) and the cells are disjoint, so the noisy histogram is epsilon-DP (parallel
composition); everything after it is post-processing of the noisy counts.
"""
import numpy as np
from scipy import ndimage


def noisy_grid(points, bounds, params, rng, ledger):
    lo, hi = bounds
    width = params["cell_width"]
    shape = np.maximum(1, np.ceil((hi - lo) / width)).astype(np.int64)
    cell = np.minimum(((points - lo) / width).astype(np.int64), shape - 1)  # points are inside the bounds
    flat = np.ravel_multi_index(tuple(cell.T), tuple(shape))
    counts = np.bincount(flat, minlength=int(np.prod(shape)))
    noisy = ledger.laplace_counts(counts, sensitivity=1, epsilon=params["epsilon"], step="noisy cell counts",
                                  note="one point changes one count by 1; disjoint cells (parallel composition)")
    dense = noisy.reshape(tuple(shape)) >= params["min_count"]
    cells, n_clusters = ndimage.label(dense, structure=np.ones((3,) * len(shape)))  # corner-touching cells adjacent
    labels = cells.reshape(-1)[flat] - 1  # 0 = not dense -> -1 (noise)
    dense_cells = np.argwhere(dense)
    return {"labels": labels,
            "release": {"shape": shape.tolist(), "cell_width": width,
                        "dense_cells": np.column_stack([dense_cells, cells[dense] - 1]).tolist()},
            "diagnostics": {"clusters": int(n_clusters), "dense_cells": int(dense.sum())}}
