"""Deliberately broken Python mechanisms for the privacy audit (test_audit_bit_channels.py).

Each releases one noisy count of the records, n + Z with Z calibrated to epsilon through the ledger (its
entry is right, so the runner's ledger check passes), and leaks the private bit n mod 2 through the
output's binary representation, which no threshold or atom event on the value can see:

``mantissa_bit``  n + continuous Laplace(1/eps) (sampler textbook: a double), its lowest mantissa bit
                  overwritten by n mod 2 (the audit's "bits" family must flag it);
``count_parity``  n + discrete Laplace(1/eps) (an integer), moved up by one when its parity differs from
                  n's (the "parity" family must flag it, at any epsilon);
``honest_count``  n + discrete Laplace(1/eps): the correct mechanism, which must stay consistent.
"""
import numpy as np


def _noisy_n(points, params, ledger, sampler):
    return float(ledger.laplace_counts([len(points)], sensitivity=1, epsilon=params["epsilon"], step="noisy n",
                                       sampler=sampler)[0])


def mantissa_bit(points, bounds, params, rng, ledger):
    value = np.array([_noisy_n(points, params, ledger, "textbook")], dtype=np.float64)
    bits = value.view(np.uint64)
    bits[0] = (bits[0] & ~np.uint64(1)) | np.uint64(len(points) % 2)  # the private bit in the last place
    return {"labels": np.zeros(len(points), dtype=np.int32), "release": {"value": float(value[0])}}


def count_parity(points, bounds, params, rng, ledger):
    value = _noisy_n(points, params, ledger, "secure")
    if int(value) % 2 != len(points) % 2:
        value += 1  # the output's parity is the true count's
    return {"labels": np.zeros(len(points), dtype=np.int32), "release": {"value": value}}


def honest_count(points, bounds, params, rng, ledger):
    return {"labels": np.zeros(len(points), dtype=np.int32), "release": {"value": _noisy_n(points, params, ledger, "secure")}}
