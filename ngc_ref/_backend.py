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


def check_adjacency_gpu(A, *, symmetrize=False, name="A"):
    """GPU twin of :func:`ngc_ref._validation.check_adjacency` (same rules and messages)."""
    import cupy
    import cupyx.scipy.sparse as csp

    if is_cupy_array(A):
        if A.ndim != 2:
            raise ValueError(f"{name} must be 2-D (an n x n adjacency), got shape={A.shape}")
        A = csp.csr_matrix(A)
    if A.dtype.kind not in "biuf":
        raise TypeError(f"{name} must have a real numeric dtype, got {A.dtype}")
    dtype = np.float32 if A.dtype == np.float32 else np.float64
    A = csp.csr_matrix(A, dtype=dtype, copy=True)
    if A.shape[0] != A.shape[1]:
        raise ValueError(f"{name} must be a square adjacency matrix, but got shape={A.shape}")
    A.sum_duplicates()
    if A.nnz:
        if not bool(cupy.isfinite(A.data).all()):
            raise ValueError(f"{name} has non-finite (NaN or inf) edge weights")
        if float(A.data.min()) < 0:
            raise ValueError(f"{name} has negative edge weights; the normalisations need "
                             f"non-negative weights")
    A.eliminate_zeros()
    if symmetrize:
        A = A.maximum(A.T).tocsr() if symmetrize in (True, "max") else ((A + A.T) * 0.5).tocsr()
    else:
        diff = abs(A - A.T)
        scale = float(abs(A).max()) if A.nnz else 0.0
        if diff.nnz and float(diff.max()) > 1e-12 * scale:
            raise ValueError(f"{name} is not symmetric; pass symmetrize=True (max(A, A.T)) or "
                             f"symmetrize='mean'")
    A.sort_indices()
    return A


def check_features_gpu(X, n, *, name="X"):
    """GPU twin of :func:`ngc_ref._validation.check_features` (densifies sparse input)."""
    import cupy

    if is_cupy_sparse(X):
        X = X.toarray()
    if X.dtype.kind not in "biuf":
        raise TypeError(f"{name} must have a real numeric dtype, got {X.dtype}")
    if X.ndim == 1:
        X = X[:, None]
    if X.ndim != 2 or X.shape[0] != n:
        raise ValueError(f"{name} must have one row per node: expected {n} rows, got "
                         f"shape={X.shape}")
    X = X.astype(cupy.float32 if X.dtype == cupy.float32 else cupy.float64, copy=False)
    if not bool(cupy.isfinite(X).all()):
        raise ValueError(f"{name} contains non-finite values (NaN or inf)")
    return X


def to_numpy(x):
    """Host copy of a CuPy array; NumPy arrays pass through."""
    return x.get() if is_cupy_array(x) else x


def csr_type(gpu):
    """The CSR class for the device: ``scipy.sparse.csr_array`` or ``cupyx`` ``csr_matrix``."""
    if not gpu:
        return sp.csr_array
    import cupyx.scipy.sparse as csp
    return csp.csr_matrix
