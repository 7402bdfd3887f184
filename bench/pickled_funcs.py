"""A compiled function importable by name, for bench/pickling.py (pickled by reference)."""
import numpy as np

from ruchey import njit


@njit
def smooth(a, k):
    out = np.empty_like(a)
    for i in range(a.shape[0]):
        lo = max(i - k, 0)
        hi = min(i + k + 1, a.shape[0])
        s = 0.0
        for j in range(lo, hi):
            s += a[j]
        out[i] = s / (hi - lo)
    return out
