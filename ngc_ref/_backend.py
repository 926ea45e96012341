"""Array backend: NumPy/SciPy on the CPU, CuPy/cupyx on a GPU, chosen from the inputs.

CuPy is optional and imported lazily: nothing here imports it unless an input already is a
CuPy object (which means CuPy is installed and was imported by the caller). There are no silent
host/device copies: GPU inputs give GPU outputs, and mixing a GPU graph with CPU features is
a TypeError.
"""

from __future__ import annotations

import numpy as np
import scipy.sparse as sp


def _module_root(x):
    return type(x).__module__.split(".", 1)[0]


def is_cupy_array(x):
    """True for a ``cupy.ndarray`` (checked by type, without importing CuPy)."""
    return _module_root(x) == "cupy" and hasattr(x, "__cuda_array_interface__")


def is_cupy_sparse(x):
    """True for a ``cupyx.scipy.sparse`` matrix."""
    return _module_root(x) == "cupyx" and hasattr(x, "tocsr")


def on_gpu(*xs):
    """True when any argument lives on the GPU; TypeError when CPU and GPU data are mixed."""
    flags = [is_cupy_array(x) or is_cupy_sparse(x) for x in xs if x is not None]
    if any(flags) and not all(flags):
        raise TypeError("inputs mix CuPy (GPU) and NumPy/SciPy (CPU) data; move them to the "
                        "same device first (cupy.asarray / cupyx.scipy.sparse.csr_matrix, "
                        "or .get())")
    return any(flags)


def namespaces(gpu):
    """``(xp, xsp)``: the dense and sparse array modules for the chosen device."""
    if not gpu:
        return np, sp
    import cupy
    import cupyx.scipy.sparse as csp
    return cupy, csp


def to_numpy(x):
    """Host copy of a CuPy array; NumPy arrays pass through."""
    return x.get() if is_cupy_array(x) else x


def csr_type(gpu):
    """The CSR class for the device: ``scipy.sparse.csr_array`` or ``cupyx`` ``csr_matrix``."""
    if not gpu:
        return sp.csr_array
    import cupyx.scipy.sparse as csp
    return csp.csr_matrix
