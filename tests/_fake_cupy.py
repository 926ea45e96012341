"""A NumPy/SciPy stand-in for the parts of CuPy that ngc_ref uses: its GPU branches, on the CPU.

Test-only. Nothing imports it but the tests, and :func:`install` puts it into ``sys.modules`` as
``cupy`` / ``cupyx`` / ``cupyx.scipy`` / ``cupyx.scipy.sparse`` / ``cupy.cuda`` only inside a
``pytest.MonkeyPatch`` context, which restores the real modules (or their absence) afterwards: a
user importing ``cupy`` never gets it.

It tests our code paths, not the device: the numbers are NumPy's and SciPy's, computed on the
host. What it does copy from CuPy (cupy/_core/core.pyx, cupy/_core/_routines_indexing.pyx,
cupyx/scipy/sparse/_base.py, _compressed.py, _csr.py, _coo.py, _construct.py, cupyx/cusparse.py)
is every rule a GPU branch of ngc_ref relies on, so that a branch that breaks one fails here as it
would on a GPU:

* ``ndarray`` is its own type (``type(x).__module__ == "cupy"``, with a
  ``__cuda_array_interface__``), not a ``numpy.ndarray``. It refuses implicit conversion:
  ``__array__`` raises CuPy's TypeError, so ``np.asarray(x)``, ``np.array(x)``, a SciPy
  function given ``x``, or a SciPy matrix built from ``x`` fail; only ``x.get()`` /
  ``cupy.asnumpy(x)`` leave the device (as copies).
* Arithmetic and the ``cupy.*`` functions take device arrays and scalars only: a
  ``numpy.ndarray`` operand is CuPy's ``TypeError: Unsupported type``. NumPy functions called on
  device arrays dispatch to the ``cupy`` function of the same name (``__array_function__``,
  ``__array_ufunc__``), as CuPy's do. ``cupy.asarray``/``cupy.array`` (host to device) and
  indexing with host index arrays are the explicit ways in.
* Reductions return 0-d device arrays, not scalars (``float()``/``bool()``/``int()`` of one
  work, as on CuPy). dtypes: bool, integers, float16/32/64, complex64/128 (no object, str or
  long double: ``ValueError: Unsupported dtype``).
* ``cupyx.scipy.sparse``: the matrix classes (``*`` is the matrix product; ``@`` refuses a
  scalar), csr/csc/coo/dia, with data of bool, float32, float64, complex64 or complex128 only
  (``ValueError: Only bool, float32, float64, complex64 and complex128 are supported``).
  Constructors take device arrays (``(data, indices, indptr)``, ``(data, (row, col))``, a dense
  device array), another device matrix or a SciPy matrix (copied to the device); a NumPy array
  is ``Unsupported initializer format``. Products with a dense device array are device arrays
  (2-D ones F-ordered, as cuSPARSE returns them) in the promoted dtype; ``.T`` of a CSR matrix is
  CSC; sums of matrices of any formats are CSR; ``csr.maximum``/``minimum`` take a scalar, a
  dense array or a CSR matrix only (CuPy raises NotImplementedError for a CSC one); ``.sum(axis)``
  is a 2-D device array; ``.get()`` returns the SciPy matrix.
* ``cupy.cuda.runtime.memGetInfo()`` / ``cupy.cuda.Device().mem_info`` report the device memory
  of :class:`Device`, which a test sets (``free``, ``total``, and what the default memory pool
  holds free: ``pool_free``).

It does not model streams, asynchrony, out-of-bounds wrap-around of CuPy's integer indexing,
or the speed of anything. The real-device checks of tests/test_gpu.py still need CuPy and a GPU.
"""

from __future__ import annotations

import contextlib
import functools
import operator
import sys
import types

import numpy as np
import pytest
import scipy.sparse as sp

_IMPLICIT = ("Implicit conversion to a NumPy array is not allowed. Please use `.get()` to "
             "construct a NumPy array explicitly.")
_SPARSE_DTYPES = "?fdFD"
_SCALAR_TYPES = (bool, int, float, complex, np.generic)


class Device:
    """The one simulated GPU: its memory (bytes) as ``memGetInfo`` reports it."""

    def __init__(self, total=16 * 2**30, free=None, pool_free=0, name="stand-in GPU"):
        self.total, self.free = int(total), int(total if free is None else free)
        self.pool_free, self.name = int(pool_free), name


# --- dense arrays --------------------------------------------------------------------------

def _check_dtype(dtype):
    dtype = np.dtype(dtype)
    if dtype.kind not in "biufc" or dtype.itemsize > {"f": 8, "c": 16}.get(dtype.kind, 8):
        raise ValueError(f"Unsupported dtype {dtype}")
    return dtype


def _dev(a):
    """A device array around the host buffer ``a`` (no copy: the buffer is the "device")."""
    out = object.__new__(ndarray)
    out._a = a
    _check_dtype(a.dtype)
    return out


def _host(x, *, allow_numpy=False):
    """The buffers behind device arguments; a NumPy array refused as CuPy refuses it."""
    if isinstance(x, ndarray):
        return x._a
    if isinstance(x, np.ndarray) and not allow_numpy:
        raise TypeError(f"Unsupported type {type(x)}")
    if isinstance(x, spmatrix) or sp.issparse(x):
        raise TypeError(f"Unsupported type {type(x)}")
    if isinstance(x, (list, tuple)):
        return type(x)(_host(v, allow_numpy=allow_numpy) for v in x)
    if isinstance(x, dict):
        return {k: _host(v, allow_numpy=allow_numpy) for k, v in x.items()}
    return x


def _result(r, outs=()):
    """A function's result on the device: arrays wrapped, NumPy scalars as 0-d arrays."""
    if isinstance(r, np.ndarray):
        for o in outs:
            if o._a is r:
                return o
        return _dev(r)
    if isinstance(r, np.generic):
        return _dev(np.asarray(r))
    if isinstance(r, tuple):
        return tuple(_result(v, outs) for v in r)
    if isinstance(r, list):
        return [_result(v, outs) for v in r]
    return r


def _outs(kwargs):
    out = kwargs.get("out")
    outs = out if isinstance(out, tuple) else (out,)
    return tuple(o for o in outs if isinstance(o, ndarray))


def _device_function(func):
    """``func`` (a NumPy function) on device arguments only, returning device results."""
    @functools.wraps(func)
    def on_device(*args, **kwargs):
        outs = _outs(kwargs)
        return _result(func(*_host(args), **_host(kwargs)), outs)
    on_device.__module__ = "cupy"
    return on_device


def _is_scalar(x):
    return isinstance(x, _SCALAR_TYPES)


def _operand(other):
    """The buffer of an operator's other side, or None for "not mine" (NotImplemented)."""
    if isinstance(other, ndarray):
        return other._a
    if _is_scalar(other):
        return other
    if isinstance(other, np.ndarray):
        raise TypeError(f"Unsupported type {type(other)}")
    return None


def _binary(op, reflected=False):
    def method(self, other):
        o = _operand(other)
        if o is None:
            return NotImplemented
        return _result(op(o, self._a) if reflected else op(self._a, o))
    return method


def _inplace(ufunc):
    def method(self, other):
        o = _operand(other)
        if o is None:
            raise TypeError(f"Unsupported type {type(other)}")
        ufunc(self._a, o, out=self._a, casting="same_kind")
        return self
    return method


def _index(key):
    # Host index arrays and lists are converted (CuPy's _prepare_slice_list does it too).
    if isinstance(key, tuple):
        return tuple(_index(k) for k in key)
    if isinstance(key, ndarray):
        return key._a
    return key


def _advanced(key):
    keys = key if isinstance(key, tuple) else (key,)
    return any(isinstance(k, (ndarray, np.ndarray, list)) for k in keys)


class ndarray:
    """A device array: a private host buffer that only ``get()`` copies out."""

    __array_priority__ = 100
    __hash__ = None

    def __init__(self, shape, dtype=float, memptr=None, strides=None, order="C"):
        self._a = np.empty(shape, dtype=_check_dtype(dtype), order=order)

    # The device protocol; implicit conversion to NumPy refused, as CuPy refuses it.
    @property
    def __cuda_array_interface__(self):
        return {"shape": self.shape, "typestr": self.dtype.str, "version": 3,
                "data": (self._a.__array_interface__["data"][0], False),
                "strides": None if self._a.flags.c_contiguous else self.strides}

    def __array__(self, dtype=None, copy=None):
        raise TypeError(_IMPLICIT)

    def __array_ufunc__(self, ufunc, method, *inputs, **kwargs):
        if method != "__call__" or not hasattr(_CUPY, ufunc.__name__):
            return NotImplemented
        if "out" in kwargs:
            kwargs["out"] = kwargs["out"][0]
        for x in inputs + _outs(kwargs):
            if not (isinstance(x, (ndarray, np.ndarray)) or _is_scalar(x)):
                return NotImplemented
        return getattr(_CUPY, ufunc.__name__)(*inputs, **kwargs)

    def __array_function__(self, func, types_, args, kwargs):
        module = _CUPY
        for part in func.__module__.split(".")[1:]:
            module = getattr(module, part, None)
        impl = getattr(module, func.__name__, None)
        if impl is None or any(t not in (ndarray, np.ndarray) for t in types_):
            return NotImplemented
        return impl(*args, **kwargs)

    def get(self, stream=None, order="C", out=None):
        """A host copy (the only way out besides ``cupy.asnumpy``)."""
        if out is not None:
            out[...] = self._a
            return out
        return np.array(self._a, order=order, copy=True)

    # Attributes (shape, ndim, dtype, ... : the buffer's, set below from one table).
    device = property(lambda self: _CUPY.cuda.Device(0))
    T = property(lambda self: _dev(self._a.T))
    real = property(lambda self: _dev(self._a.real))
    imag = property(lambda self: _dev(self._a.imag))

    def astype(self, dtype, order="K", casting=None, subok=None, copy=True):
        dtype = _check_dtype(dtype)
        if not copy and dtype == self.dtype:
            return self
        return _dev(self._a.astype(dtype, order=order, copy=True))

    def copy(self, order="C"):
        return _dev(self._a.copy(order=order))

    def item(self):
        return self._a.item()

    def tolist(self):
        return self._a.tolist()

    def fill(self, value):
        if isinstance(value, np.ndarray) and value.shape != ():
            raise ValueError("non-scalar numpy.ndarray cannot be used for fill")
        self._a.fill(_host(value, allow_numpy=True))

    def __getattr__(self, name):
        # The remaining ndarray methods CuPy has (reshape, sum, max, ravel, ...): the NumPy
        # method on the buffer, device arguments only, device results.
        if name not in _METHODS:
            raise AttributeError(f"'cupy.ndarray' object has no attribute {name!r}")
        method = getattr(self._a, name)

        def on_device(*args, **kwargs):
            outs = _outs(kwargs)
            return _result(method(*_host(args), **_host(kwargs)), outs)
        return on_device

    # Python protocols.
    def __len__(self):
        if self.ndim == 0:
            raise TypeError("len() of unsized object")
        return len(self._a)

    def __iter__(self):
        if self.ndim == 0:
            raise TypeError("iteration over a 0-d array")
        return (self[i] for i in range(len(self)))

    def __getitem__(self, key):
        return _result(self._a[_index(key)])

    def __setitem__(self, key, value):
        if isinstance(value, np.ndarray) and value.ndim and not _advanced(key) and not (
                key == slice(None) and value.shape == self.shape and value.dtype == self.dtype):
            raise ValueError("non-scalar numpy.ndarray cannot be used for fill")
        if isinstance(value, spmatrix):
            raise TypeError(f"Unsupported type {type(value)}")
        self._a[_index(key)] = value._a if isinstance(value, ndarray) else value

    # The host conversions (bool, float, int, complex, repr, str, format) and the unary
    # operators are set below from one table each.


_METHODS = frozenset(
    "all any argmax argmin clip conj conjugate cumsum diagonal dot flatten max mean min "
    "nonzero prod ravel repeat reshape round sort squeeze std sum swapaxes take transpose "
    "var view".split())

for _name in ("shape", "ndim", "size", "dtype", "itemsize", "nbytes", "strides", "flags"):
    setattr(ndarray, _name, property(operator.attrgetter(f"_a.{_name}")))
# Host conversions: the builtin on the buffer (a 0-d or one-element array, as in CuPy).
for _name, _fn in [("bool", bool), ("float", float), ("int", int), ("complex", complex),
                   ("repr", repr), ("str", str), ("format", format)]:
    setattr(ndarray, f"__{_name}__", lambda self, *args, _fn=_fn: _fn(self._a, *args))
for _name, _op in [("neg", operator.neg), ("pos", operator.pos), ("abs", operator.abs),
                   ("invert", operator.invert)]:
    setattr(ndarray, f"__{_name}__", lambda self, _op=_op: _dev(_op(self._a)))
for _name, _op in [("add", operator.add), ("sub", operator.sub), ("mul", operator.mul),
                   ("truediv", operator.truediv), ("floordiv", operator.floordiv),
                   ("mod", operator.mod), ("pow", operator.pow), ("matmul", operator.matmul),
                   ("and", operator.and_), ("or", operator.or_), ("xor", operator.xor)]:
    setattr(ndarray, f"__{_name}__", _binary(_op))
    setattr(ndarray, f"__r{_name}__", _binary(_op, reflected=True))
for _name, _op in [("lt", operator.lt), ("le", operator.le), ("gt", operator.gt),
                   ("ge", operator.ge), ("eq", operator.eq), ("ne", operator.ne)]:
    setattr(ndarray, f"__{_name}__", _binary(_op))
for _name, _uf in [("add", np.add), ("sub", np.subtract), ("mul", np.multiply),
                   ("truediv", np.true_divide), ("floordiv", np.floor_divide),
                   ("mod", np.remainder), ("pow", np.power), ("and", np.bitwise_and),
                   ("or", np.bitwise_or), ("xor", np.bitwise_xor)]:
    setattr(ndarray, f"__i{_name}__", _inplace(_uf))
ndarray.__module__ = "cupy"


# --- creation and transfer -----------------------------------------------------------------

def asarray(a, dtype=None, order=None, *, blocking=False):
    """Host data (or a device array) as a device array: the explicit way onto the device."""
    if isinstance(a, ndarray):
        if (dtype is None or np.dtype(dtype) == a.dtype) and order in (None, "K", "A"):
            return a
        return _dev(np.array(a._a, dtype=None if dtype is None else _check_dtype(dtype),
                             order=order or "K", copy=True))
    return array(a, dtype=dtype, order=order or "K")


def array(obj, dtype=None, copy=True, order="K", subok=False, ndmin=0, *, blocking=False):
    if isinstance(obj, ndarray):
        return _dev(np.array(obj._a, dtype=dtype, copy=True, order=order, ndmin=ndmin))
    if isinstance(obj, spmatrix) or sp.issparse(obj):
        raise ValueError("Unsupported dtype object")
    host = np.array(obj, dtype=dtype, copy=True, order=order, ndmin=ndmin)
    _check_dtype(host.dtype)
    return _dev(host)


def asnumpy(a, stream=None, order="C", out=None, *, blocking=True):
    return a.get(order=order, out=out) if isinstance(a, ndarray) else np.asarray(a, order=order)


def _like(func):
    @functools.wraps(func)
    def like(a, *args, **kwargs):
        if not isinstance(a, ndarray):
            raise TypeError(f"Unsupported type {type(a)}")
        return _dev(func(a._a, *args, **kwargs))
    return like


def _creation(func):
    @functools.wraps(func)
    def create(*args, **kwargs):
        out = func(*args, **kwargs)
        _check_dtype(out.dtype)
        return _dev(out)
    return create


def atleast_1d(*arys):
    for a in arys:
        if not isinstance(a, ndarray):
            raise TypeError("Only cupy arrays can be atleast_1d")
    out = [_dev(np.atleast_1d(a._a)) for a in arys]
    return out[0] if len(out) == 1 else out


# --- cupy.cuda: the device and its memory --------------------------------------------------

class _MemoryPool:
    def __init__(self, device):
        self._device = device

    def free_bytes(self):
        return self._device.pool_free

    def used_bytes(self):
        return 0

    def total_bytes(self):
        return self._device.pool_free

    def free_all_blocks(self, stream=None):
        self._device.free += self._device.pool_free
        self._device.pool_free = 0


def _cuda_module(device):
    cuda = types.ModuleType("cupy.cuda")
    runtime = types.ModuleType("cupy.cuda.runtime")
    runtime.memGetInfo = lambda: (device.free, device.total)
    runtime.getDeviceCount = lambda: 1
    runtime.getDevice = lambda: 0
    runtime.getDeviceProperties = lambda i: {"name": device.name.encode(),
                                             "totalGlobalMem": device.total}
    runtime.runtimeGetVersion = lambda: 0
    runtime.driverGetVersion = lambda: 0

    class CudaDevice:
        def __init__(self, device_id=None):
            self.id = 0

        mem_info = property(lambda self: (device.free, device.total))
        compute_capability = "00"

        def synchronize(self):
            pass

        def __enter__(self):
            return self

        def __exit__(self, *exc):
            return False

    cuda.runtime, cuda.Device = runtime, CudaDevice
    cuda.is_available = lambda: True
    return cuda, runtime


# --- cupyx.scipy.sparse --------------------------------------------------------------------

def _check_sparse_dtype(dtype):
    if np.dtype(dtype).char not in _SPARSE_DTYPES:
        raise ValueError("Only bool, float32, float64, complex64 and complex128 are supported")


def _sparse(m):
    """A SciPy matrix (its buffers become the device's) as the device matrix of its format."""
    cls = {"csr": csr_matrix, "csc": csc_matrix, "coo": coo_matrix, "dia": dia_matrix}[m.format]
    if not isinstance(m, sp.spmatrix):
        m = getattr(sp, f"{m.format}_matrix")(m)
    _check_sparse_dtype(m.dtype)
    out = object.__new__(cls)
    out._m = m
    return out


def _is_shape(x):
    return isinstance(x, tuple) and len(x) == 2 and all(
        isinstance(v, (int, np.integer)) for v in x)


def _dense_1d(*xs):
    return all(isinstance(x, ndarray) and x.ndim == 1 for x in xs)


class spmatrix:
    """A device sparse matrix (the SciPy matrix ``_m`` holds its buffers)."""

    __array_priority__ = 101
    format = None
    ndim = 2

    def __init__(self, arg1, shape=None, dtype=None, copy=False):
        scipy_cls = getattr(sp, f"{self.format}_matrix")
        if isinstance(arg1, spmatrix):
            m = arg1._m.asformat(self.format)
            m = m.copy() if copy else m
        elif _is_shape(arg1):
            m = scipy_cls(arg1, dtype=dtype or "d")
        elif sp.issparse(arg1):      # SciPy on the host: copied to the device
            m = scipy_cls(arg1, copy=True)
        elif isinstance(arg1, tuple) and len(arg1) == 2:
            m = coo_matrix(arg1, shape=shape, dtype=dtype, copy=copy)._m.asformat(self.format)
        elif isinstance(arg1, tuple) and len(arg1) == 3 and self.format in ("csr", "csc"):
            if not _dense_1d(*arg1):
                raise ValueError("data, indices, and indptr should be 1-D")
            m = scipy_cls(tuple(x._a for x in arg1), shape=shape, copy=copy)
        elif isinstance(arg1, ndarray):
            if arg1.ndim > 2:
                raise ValueError("expected dimension <= 2 array or matrix")
            m = scipy_cls(np.atleast_2d(arg1._a))
        else:
            raise ValueError("Unsupported initializer format")
        dtype = m.dtype if dtype is None else np.dtype(dtype)
        _check_sparse_dtype(dtype)
        self._m = m.astype(dtype, copy=copy) if dtype != m.dtype or copy else m

    # Attributes.
    shape = property(lambda self: self._m.shape)
    dtype = property(lambda self: self._m.dtype)
    nnz = property(lambda self: self._m.nnz)
    size = property(lambda self: self._m.nnz)
    T = property(lambda self: self.transpose())

    def getnnz(self, axis=None):
        return self._m.getnnz(axis)

    def get(self, stream=None):
        """The SciPy matrix on the host (a copy)."""
        return self._m.copy()

    # Conversions.
    def asformat(self, format):
        return self if format in (None, self.format) else getattr(self, f"to{format}")()

    def tocsr(self, copy=False):
        return _sparse(self._m.tocsr(copy=copy))

    def tocsc(self, copy=False):
        return _sparse(self._m.tocsc(copy=copy))

    def tocoo(self, copy=False):
        return _sparse(self._m.tocoo(copy=copy))

    def transpose(self, axes=None, copy=False):
        return _sparse(self._m.transpose(copy=copy))

    def toarray(self, order=None, out=None):
        return _dev(self._m.toarray(order=order))

    todense = toarray

    def astype(self, t):
        return _sparse(self._m.astype(t))

    def copy(self):
        return _sparse(self._m.copy())

    def diagonal(self, k=0):
        return _dev(self._m.diagonal(k))

    def sum(self, axis=None, dtype=None, out=None):
        return _dev(np.asarray(self._m.sum(axis=axis, dtype=dtype)))

    def _reduce_all(self, op, axis):
        if axis is not None:
            raise NotImplementedError("the stand-in reduces sparse matrices over all entries")
        return _dev(np.asarray(getattr(self._m, op)()))

    def max(self, axis=None, out=None):
        return self._reduce_all("max", axis)

    def min(self, axis=None, out=None):
        return self._reduce_all("min", axis)

    def count_nonzero(self):
        return self._m.count_nonzero()

    def maximum(self, other):
        return self.tocsr().maximum(other)

    def minimum(self, other):
        return self.tocsr().minimum(other)

    def multiply(self, other):
        return self.tocsr().multiply(other)

    # Operators (CuPy's base class sends everything through CSR).
    def __len__(self):
        raise TypeError("sparse matrix length is ambiguous; use getnnz() or shape[0]")

    def __bool__(self):
        if self.shape == (1, 1):
            return self.nnz != 0
        raise ValueError("The truth value of an array with more than one element is ambiguous.")

    def __abs__(self):
        return _sparse(abs(self._m.tocsr()))

    def __neg__(self):
        return _sparse(-self._m.tocsr())

    def _add(self, other, lhs_negative, rhs_negative):
        a = -self._m.tocsr() if lhs_negative else self._m.tocsr()
        if _is_scalar(other):
            if other != 0:
                raise NotImplementedError(
                    "adding a nonzero scalar to a sparse matrix is not supported")
            return _sparse(a.copy())
        if isinstance(other, spmatrix):
            b = other._m.tocsr()
            return _sparse(a - b if rhs_negative else a + b)
        if isinstance(other, ndarray):
            dense = a.toarray()
            return _dev(dense - other._a if rhs_negative else dense + other._a)
        return NotImplemented

    def __add__(self, other):
        return self._add(other, False, False)

    __radd__ = __add__

    def __sub__(self, other):
        return self._add(other, False, True)

    def __rsub__(self, other):
        return self._add(other, True, False)

    def __mul__(self, other):
        m = self._m.tocsr()
        if _is_scalar(other) or isinstance(other, ndarray) and other.ndim == 0:
            return _sparse(m * _host(other))
        if isinstance(other, spmatrix):
            return _sparse((m @ other._m.tocsr()).tocsr())
        if isinstance(other, ndarray):
            if other.ndim > 2:
                raise ValueError("could not interpret dimensions")
            dtype = np.promote_types(m.dtype, other.dtype)
            out = m.astype(dtype) @ other._a.astype(dtype)
            return _dev(np.asfortranarray(out) if out.ndim == 2 else out)
        return NotImplemented

    def __rmul__(self, other):
        if _is_scalar(other) or isinstance(other, ndarray) and other.ndim == 0:
            return self * other
        if not isinstance(other, ndarray):
            return NotImplemented
        return (self.T * other.T).T

    def _matmul(self, other, reflected=False):
        # ``@`` is ``*`` but for scalars, which it refuses (either side).
        if _is_scalar(other):
            raise ValueError("Scalar operands are not allowed, use '*' instead")
        return self.__rmul__(other) if reflected else self.__mul__(other)

    __matmul__ = _matmul
    __rmatmul__ = functools.partialmethod(_matmul, reflected=True)

    def __truediv__(self, other):
        if not _is_scalar(other):
            return NotImplemented
        dtype = np.float64 if self.dtype == np.float32 else self.dtype
        return _sparse(self._m.tocsr().astype(np.result_type(dtype, other)) / other)

    def __repr__(self):
        return f"<device {self.shape[0]}x{self.shape[1]} {self.format} matrix, nnz={self.nnz}>"


def _buffer(name):
    def get(self):
        return _dev(getattr(self._m, name))

    def set(self, value):
        if not isinstance(value, ndarray):
            raise TypeError(f"{name} must be a cupy.ndarray, got {type(value)}")
        setattr(self._m, name, value._a)
    return property(get, set)


class _compressed(spmatrix):
    data, indices, indptr = _buffer("data"), _buffer("indices"), _buffer("indptr")

    has_sorted_indices = property(lambda self: self._m.has_sorted_indices,
                                  lambda self, v: setattr(self._m, "has_sorted_indices", v))
    has_canonical_format = property(lambda self: self._m.has_canonical_format,
                                    lambda self, v: setattr(self._m, "has_canonical_format", v))

    def sort_indices(self):
        self._m.sort_indices()

    def sum_duplicates(self):
        self._m.sum_duplicates()

    def eliminate_zeros(self):
        self._m.eliminate_zeros()


class csr_matrix(_compressed):
    format = "csr"

    def _maximum_minimum(self, other, op):
        if _is_scalar(other) or isinstance(other, ndarray):
            return _result(getattr(self._m, op)(_host(other)))
        if isinstance(other, csr_matrix):
            return _sparse(getattr(self._m, op)(other._m))
        raise NotImplementedError      # CuPy: a scalar, a dense array or a CSR matrix only

    def maximum(self, other):
        return self._maximum_minimum(other, "maximum")

    def minimum(self, other):
        return self._maximum_minimum(other, "minimum")

    def multiply(self, other):
        if _is_scalar(other) or isinstance(other, ndarray):
            return _result(self._m.multiply(_host(other)))
        if isinstance(other, csr_matrix):
            return _sparse(self._m.multiply(other._m).tocsr())
        raise TypeError("expected scalar, dense matrix/vector or csr matrix")


class csc_matrix(_compressed):
    format = "csc"


class coo_matrix(spmatrix):
    format = "coo"
    data, row, col = _buffer("data"), _buffer("row"), _buffer("col")

    def __init__(self, arg1, shape=None, dtype=None, copy=False):
        if not (isinstance(arg1, tuple) and len(arg1) == 2 and not _is_shape(arg1)):
            super().__init__(arg1, shape=shape, dtype=dtype, copy=copy)
            return
        try:
            data, (row, col) = arg1
        except (TypeError, ValueError):
            raise TypeError("invalid input format") from None
        if not _dense_1d(data, row, col):
            raise ValueError("row, column, and data arrays must be 1-D")
        if not len(data) == len(row) == len(col):
            raise ValueError("row, column, and data array must all be the same length")
        dtype = data.dtype if dtype is None else np.dtype(dtype)
        _check_sparse_dtype(dtype)
        self._m = sp.coo_matrix((data._a.astype(dtype, copy=copy),
                                 (row._a.astype(np.int32), col._a.astype(np.int32))),
                                shape=shape)

    # In place on the host matrix, as for the compressed formats (CuPy's dia has neither).
    sum_duplicates = _compressed.sum_duplicates
    eliminate_zeros = _compressed.eliminate_zeros


class dia_matrix(spmatrix):
    format = "dia"

    def __init__(self, arg1, shape=None, dtype=None, copy=False):
        if isinstance(arg1, tuple) and len(arg1) == 2 and not _is_shape(arg1):
            data, offsets = arg1
            if not (isinstance(data, ndarray) and isinstance(offsets, ndarray)):
                raise ValueError("data and offsets must be cupy.ndarray")
            arg1 = sp.dia_matrix((data._a, offsets._a), shape=shape)
        super().__init__(arg1, shape=shape, dtype=dtype, copy=copy)


for _cls in (spmatrix, _compressed, csr_matrix, csc_matrix, coo_matrix, dia_matrix):
    _cls.__module__ = "cupyx.scipy.sparse"    # what ngc_ref._backend recognises a device matrix by


def diags(diagonals, offsets=0, shape=None, format=None, dtype=None):
    """CuPy's ``diags``: the diagonals must be device arrays (or device scalars)."""
    if np.isscalar(offsets):
        diagonals = [atleast_1d(diagonals)]
    else:
        diagonals = [atleast_1d(d) for d in diagonals]
    host = [d._a for d in diagonals]
    if dtype is None:
        dtype = np.common_type(*host)
    if np.isscalar(offsets):
        host = host[0]
    return _sparse(sp.diags(host, offsets, shape=shape, format=format, dtype=dtype))


def identity(n, dtype="d", format=None):
    return _sparse(sp.identity(n, dtype=dtype, format=format))


def eye(m, n=None, k=0, dtype="d", format=None):
    return _sparse(sp.eye(m, n, k=k, dtype=dtype, format=format))


def issparse(x):
    return isinstance(x, spmatrix)


# --- the modules ---------------------------------------------------------------------------

_CUPY = None     # the installed stand-in (the target of __array_function__ dispatch)

#: NumPy functions the stand-in's ``cupy`` namespace offers (all of them exist in CuPy).
_FUNCTIONS = (
    "all any amax amin argmax argmin argsort ascontiguousarray asfortranarray concatenate "
    "count_nonzero cumsum diag diff dot einsum flatnonzero isscalar matmul max mean min "
    "nonzero ravel repeat reshape result_type sort stack sum unique vdot where").split()
_CREATION = "empty zeros ones full eye identity arange linspace".split()
_PASS = ("dtype float16 float32 float64 int8 int16 int32 int64 uint8 uint32 uint64 bool_ "
         "complex64 complex128 intp newaxis inf nan pi e finfo iinfo integer floating "
         "number generic can_cast promote_types common_type issubdtype").split()


def make_modules(device=None):
    """``{name: module}`` for ``cupy``, ``cupy.cuda``, ``cupyx``, ``cupyx.scipy`` and
    ``cupyx.scipy.sparse`` backed by NumPy/SciPy, and the :class:`Device` they report."""
    device = Device() if device is None else device
    cupy = types.ModuleType("cupy")
    cupy.__version__ = "stand-in"
    for name in _FUNCTIONS:
        setattr(cupy, name, _device_function(getattr(np, name)))
    for name in dir(np):
        if isinstance(getattr(np, name), np.ufunc):
            setattr(cupy, name, _device_function(getattr(np, name)))
    for name in _CREATION:
        setattr(cupy, name, _creation(getattr(np, name)))
    for name in ("empty_like", "zeros_like", "ones_like", "full_like"):
        setattr(cupy, name, _like(getattr(np, name)))
    for name in _PASS:
        setattr(cupy, name, getattr(np, name))
    cupy.ndarray, cupy.asarray, cupy.array, cupy.asnumpy = ndarray, asarray, array, asnumpy
    cupy.atleast_1d = atleast_1d
    cupy.linalg = types.ModuleType("cupy.linalg")
    for name in ("norm", "solve", "inv", "qr", "eigh", "cholesky"):
        setattr(cupy.linalg, name, _device_function(getattr(np.linalg, name)))
    cupy.cuda, runtime = _cuda_module(device)
    pool = _MemoryPool(device)
    cupy.get_default_memory_pool = lambda: pool

    cupyx = types.ModuleType("cupyx")
    scipy_mod = types.ModuleType("cupyx.scipy")
    sparse = types.ModuleType("cupyx.scipy.sparse")
    sparse.spmatrix, sparse.csr_matrix, sparse.csc_matrix = spmatrix, csr_matrix, csc_matrix
    sparse.coo_matrix, sparse.dia_matrix = coo_matrix, dia_matrix
    sparse.diags, sparse.identity, sparse.eye = diags, identity, eye
    sparse.issparse = sparse.isspmatrix = issparse
    sparse.isspmatrix_csr = lambda x: isinstance(x, csr_matrix)
    sparse.isspmatrix_csc = lambda x: isinstance(x, csc_matrix)
    cupyx.scipy, scipy_mod.sparse = scipy_mod, sparse
    cupy.device_state = device
    return {"cupy": cupy, "cupy.cuda": cupy.cuda, "cupy.cuda.runtime": runtime,
            "cupy.linalg": cupy.linalg, "cupyx": cupyx, "cupyx.scipy": scipy_mod,
            "cupyx.scipy.sparse": sparse}


@contextlib.contextmanager
def installed(device=None):
    """The stand-in as ``cupy`` & co. in ``sys.modules`` for the ``with`` block only; yields
    ``(cupy, cupyx.scipy.sparse, device)``. Real CuPy modules, if imported, come back after."""
    global _CUPY
    modules = make_modules(device)
    saved = {name: sys.modules[name] for name in list(sys.modules)
             if name.split(".")[0] in ("cupy", "cupyx")}
    previous = _CUPY
    with pytest.MonkeyPatch.context() as mp:
        for name in saved:
            mp.delitem(sys.modules, name)
        for name, module in modules.items():
            mp.setitem(sys.modules, name, module)
        _CUPY = modules["cupy"]
        try:
            yield modules["cupy"], modules["cupyx.scipy.sparse"], modules["cupy"].device_state
        finally:
            _CUPY = previous

