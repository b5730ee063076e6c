"""A differentially private k-means written in Python (private Lloyd: Blum, Dwork, McSherry & Nissim, PODS
2005, "Practical privacy: the SuLQ framework", Sec. 5; the DPLloyd of Su et al., CODASPY 2016), run by dpclust
as `method: python` beside the built-in methods (private_lloyd.yaml; the researcher's path in
docs/researcher.md).

    init            k centres drawn uniformly in the public box: randomness that does not depend on the
                    data, drawn by `random_start`, which the runner calls without the data.
    each iteration  (the budget epsilon split evenly over `iterations`; `count_share` of an iteration's
                    budget for the counts, the rest split evenly over the d coordinates)
                    1. every point to its nearest centre (the current centres are public: released noise);
                    2. the k cluster counts + discrete Laplace noise: one record changes one count by 1
                       (L1 sensitivity 1, disjoint clusters: parallel composition), one ledger entry;
                    3. per coordinate j, the k cluster sums of (clamp(x_j) - m_j), m_j the box's midpoint,
                       released by the snapping mechanism: one record changes one of them by at most h_j,
                       the box's half width (sensitivity h_j), and |sum| <= N h_j for a public bound N on
                       the number of points (n_public, else 2^32); one ledger entry per coordinate;
                    4. the new centres m + noisy sum / max(noisy count, 1), clamped into the box
                       (post-processing of the noisy values).

Released: the centres after the last iteration (and every iteration's noisy counts, which the centres are
computed from). The points' labels are their nearest released centre, for evaluation only (the runner
labels them so when the mechanism returns centres without labels).
"""
import numpy as np

COUNT_BOUND = 2.0 ** 32  # |sum| <= N h_j: the public bound N on the number of points when n_public is 0


def random_start(bounds, params, rng):
    """k centres uniform in the public box: called by the runner before the mechanism, without the data, so
    these draws are public randomness (docs/python.md "Randomness")."""
    lo, hi = bounds
    return rng.uniform(lo, hi, size=(params["k"], len(lo)))


def _nearest(points, centres):
    # |x - c|^2 = |x|^2 - 2 x.c + |c|^2; the |x|^2 term does not change which centre is nearest.
    scores = (centres * centres).sum(axis=1)[None, :] - 2.0 * points @ centres.T
    return np.argmin(scores, axis=1)


def private_lloyd(points, bounds, params, rng, ledger, init):
    lo, hi = bounds
    k, d = params["k"], points.shape[1]
    mid, half = (lo + hi) / 2.0, (hi - lo) / 2.0
    count_bound = float(params["n_public"]) if params["n_public"] > 0 else COUNT_BOUND
    iterations = params["iterations"]
    eps_iteration = params["epsilon"] / iterations
    eps_counts = eps_iteration * params["count_share"]
    varying = np.flatnonzero(half > 0)  # a constant coordinate tells nothing: no budget, no noise
    eps_sums = eps_iteration * (1.0 - params["count_share"]) / max(len(varying), 1)
    if len(varying) == 0:
        eps_counts = eps_iteration  # all the budget to the counts
    centres = np.array(init, dtype=np.float64)
    centred = np.clip(points, lo, hi) - mid
    noisy_counts = []
    for t in range(iterations):
        cluster = _nearest(points, centres)
        counts = np.bincount(cluster, minlength=k)
        noisy = ledger.laplace_counts(counts, sensitivity=1, epsilon=eps_counts, step=f"cluster counts, iteration {t + 1}",
                                      note="one record changes one of the k counts by 1 (disjoint clusters)")
        noisy_counts.append(noisy.tolist())
        sums = np.zeros((k, d))
        for j in varying:
            true_sums = np.bincount(cluster, weights=centred[:, j], minlength=k)
            sums[:, j] = ledger.laplace_reals(true_sums, sensitivity=half[j], epsilon=eps_sums, bound=count_bound * half[j],
                                              step=f"cluster sums of coordinate {j}, iteration {t + 1}",
                                              note="sum of clamp(x_j) - m_j per cluster; one record changes one of the k "
                                                   "sums by at most h_j (disjoint clusters)")
        centres = np.clip(mid + sums / np.maximum(noisy, 1.0)[:, None], lo, hi)
    return {"centres": centres,
            "release": {"centers": centres.tolist(), "noisy_counts": noisy_counts},
            "diagnostics": {"iterations": iterations, "empty_clusters": int((noisy <= 0).sum())}}
