"""Vectorised exact Bernoulli sampling shared by :mod:`ngc_ref.graphs` and :mod:`ngc_ref.noise`.

Both random graphs (one Bernoulli trial per node pair) and feature flipping (one trial per
matrix entry) need the *positions* of the successes among a huge number ``N`` of i.i.d.
Bernoulli(p) trials, without ever materialising the ``N`` trials. Geometric skipping
(Batagelj & Brandes, 2005) does this exactly: the gaps between successive successes are i.i.d.
Geometric(p) on {1, 2, ...}, so the cumulative sums of geometric draws are the success positions.
The cost is O(pN) time and memory, the positions come out strictly increasing (hence without
duplicates and sorted), and the distribution is the exact product-Bernoulli one, up to the
floating-point accuracy of NumPy's geometric sampler.
"""

from __future__ import annotations

import math

import numpy as np


def bernoulli_positions(N, p, rng):
    """Sorted positions ``k`` in ``range(N)`` at which i.i.d. Bernoulli(p) trials succeed.

    Parameters
    ----------
    N : int
        Number of trials (may be far larger than memory allows to enumerate, e.g. 5e11).
    p : float
        Success probability, 0 <= p <= 1 (validated by the caller).
    rng : numpy.random.Generator

    Returns
    -------
    numpy.ndarray of int64, strictly increasing.
    """
    N = int(N)
    if N <= 0 or p <= 0.0:
        return np.empty(0, dtype=np.int64)
    if p >= 1.0:
        return np.arange(N, dtype=np.int64)
    mean = N * p
    # Draw a little more than the expected number of successes, so one batch almost always
    # reaches past N; the loop only runs again in the rare under-shoot.
    batch = int(mean + 6.0 * math.sqrt(mean) + 16)
    pieces = []
    last = -1
    while True:
        pos = last + np.cumsum(rng.geometric(p, size=batch), dtype=np.int64)
        if pos[-1] >= N:
            pieces.append(pos[: np.searchsorted(pos, N)])
            break
        pieces.append(pos)
        last = int(pos[-1])
        remaining = (N - 1 - last) * p
        batch = int(remaining + 6.0 * math.sqrt(remaining) + 16)
    return pieces[0] if len(pieces) == 1 else np.concatenate(pieces)


def lower_triangle_pairs(k):
    """Map linear indices of the strict lower triangle to pairs ``(i, j)`` with ``i > j``.

    The order is row-major over the strict lower triangle: ``k = i (i - 1) / 2 + j``.
    Exact for every ``k`` below 2**52 (graphs up to ~6e7 nodes): the float square root only
    gives a first guess that is corrected in integer arithmetic.
    """
    k = np.asarray(k, dtype=np.int64)
    i = ((1.0 + np.sqrt(1.0 + 8.0 * k.astype(np.float64))) // 2.0).astype(np.int64)
    i -= (i * (i - 1)) // 2 > k
    i += ((i + 1) * i) // 2 <= k
    j = k - (i * (i - 1)) // 2
    return i, j
