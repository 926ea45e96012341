"""A memory guard: refuse, with the numbers, work whose buffers cannot fit in memory.

An operation that would allocate more than the memory budget raises a ``ValueError`` that says
what it would need, what is available and what to do instead, rather than being killed by the
operating system part-way through (or swapping the machine to a halt).

The budget is the environment variable ``NGC_REF_MEMORY_BUDGET`` when it is set, otherwise the
memory the kernel reports as available (``MemAvailable`` in ``/proc/meminfo``, else
``os.sysconf``); when neither is known there is no budget and nothing is refused. The variable
takes a number of bytes (``"4000000000"``, ``"4e9"``) or a number with a unit: ``KB``, ``MB``,
``GB``, ``TB`` are powers of 1000, ``KiB``, ``MiB``, ``GiB``, ``TiB`` (and the bare ``K``, ``M``,
``G``, ``T``) powers of 1024, case-insensitive (``"4GiB"``, ``"512 MiB"``, ``"2g"``). Set it
lower to keep a shared machine safe, or higher than the free memory to insist.

Work on a GPU (CuPy input, ``gpu=True`` here) allocates device memory, so it is checked against
the GPU's budget instead: ``NGC_REF_GPU_MEMORY_BUDGET`` (same format) when it is set, otherwise
the free memory of the current CUDA device (``cupy.cuda.runtime.memGetInfo``) plus what CuPy's
default memory pool holds without using it (CuPy reuses those blocks first). The host's budget
says nothing about the device's, and the reverse.

Examples
--------
>>> from ngc_ref._memory import format_bytes, parse_bytes
>>> parse_bytes("4GiB"), parse_bytes("1.5 MB"), parse_bytes("2048")
(4294967296, 1500000, 2048)
>>> format_bytes(12.3 * 2**30)
'12.3 GiB'
"""

from __future__ import annotations

import math
import os
import re

ENV_VAR = "NGC_REF_MEMORY_BUDGET"
#: The budget of work on a GPU (CuPy input): bytes of device memory.
GPU_ENV_VAR = "NGC_REF_GPU_MEMORY_BUDGET"

_UNITS = {"": 1, "b": 1,
          "kb": 10**3, "mb": 10**6, "gb": 10**9, "tb": 10**12,
          "k": 2**10, "m": 2**20, "g": 2**30, "t": 2**40,
          "kib": 2**10, "mib": 2**20, "gib": 2**30, "tib": 2**40}


def parse_bytes(text, name=ENV_VAR):
    """Bytes from ``"4GiB"``, ``"1.5 GB"``, ``"2g"`` or ``"123"`` (see the module docstring);
    a ValueError naming the variable ``name`` otherwise."""
    m = re.fullmatch(r"\s*([0-9]*\.?[0-9]+(?:[eE][+-]?[0-9]+)?)\s*([A-Za-z]*)\s*", str(text))
    if m is None or m.group(2).lower() not in _UNITS:
        raise ValueError(f"{name} must be a number of bytes, optionally with a unit "
                         f"(e.g. '4GiB', '512MB', '2e9'), got {text!r}")
    nbytes = float(m.group(1)) * _UNITS[m.group(2).lower()]
    if not math.isfinite(nbytes):   # "1e400": int() of it would raise OverflowError
        raise ValueError(f"{name} must be a finite number of bytes, got {text!r}")
    return int(nbytes)


def format_bytes(nbytes):
    """``nbytes`` with a binary unit and three significant figures: ``'12.3 GiB'``."""
    value = float(nbytes)
    for unit in ("B", "KiB", "MiB", "GiB", "TiB"):
        if value < 1024 or unit == "TiB":
            # .3g writes 1000-1023 as "1e+03"; those get their four digits.
            return f"{value:.3g} {unit}" if value < 999.5 else f"{value:.0f} {unit}"
        value /= 1024


def available_bytes():
    """Memory available to new allocations, in bytes, or None when it cannot be read.

    ``MemAvailable`` from ``/proc/meminfo`` (Linux; it counts reclaimable caches), else
    ``os.sysconf("SC_AVPHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")`` (free pages only).
    """
    try:
        with open("/proc/meminfo") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    try:
        return int(os.sysconf("SC_AVPHYS_PAGES")) * int(os.sysconf("SC_PAGE_SIZE"))
    except (AttributeError, ValueError, OSError):
        return None


def device_available_bytes():
    """``(bytes or None, which device)``: memory free for new CuPy arrays on the current GPU.

    The driver's free memory (``cupy.cuda.runtime.memGetInfo``) plus the blocks CuPy's default
    memory pool holds unused, which it hands out before asking the driver. None when CuPy or
    the driver cannot say. Only called for CuPy input, so CuPy is already imported.
    """
    try:
        import cupy
        free, _total = cupy.cuda.runtime.memGetInfo()
        pooled = cupy.get_default_memory_pool().free_bytes()
        device = cupy.cuda.runtime.getDevice()
        name = cupy.cuda.runtime.getDeviceProperties(device)["name"]
    except Exception:   # no driver, no device, an unusual CuPy build: no budget, as on the CPU
        return None, "free GPU memory"
    name = name.decode(errors="replace") if isinstance(name, bytes) else str(name)
    return int(free) + int(pooled), f"free memory on GPU {device} ({name})"


def memory_budget(gpu=False):
    """``(bytes or None, where it came from)``: on the host ``NGC_REF_MEMORY_BUDGET`` if set,
    else :func:`available_bytes`; on the GPU (``gpu=True``) ``NGC_REF_GPU_MEMORY_BUDGET`` if
    set, else :func:`device_available_bytes`."""
    name = GPU_ENV_VAR if gpu else ENV_VAR
    env = os.environ.get(name, "").strip()
    if env:
        return parse_bytes(env, name), f"the budget {name}={env}"
    return device_available_bytes() if gpu else (available_bytes(), "available memory")


def fits(nbytes, gpu=False):
    """Whether ``nbytes`` is within the memory budget of the host (or of the GPU when ``gpu``;
    True when there is none)."""
    budget, _ = memory_budget(gpu)
    return budget is None or nbytes <= budget


def check_memory(nbytes, what, how_to_proceed, *, detail="", gpu=False):
    """Raise ValueError when ``nbytes`` exceeds the memory budget.

    Parameters
    ----------
    nbytes : int or float
        What the operation would allocate at its peak (an estimate is fine; say so in
        ``detail``).
    what : str
        The operation, as the caller would write it: ``"gsd_solve(method='dense')"``.
    how_to_proceed : str
        The alternative: a sparse or estimated method, a smaller block, ...
    detail : str
        What the bytes are (``"a dense 40000 x 40000 float64 matrix"``).
    gpu : bool
        The bytes are device memory (CuPy input): checked against the GPU's budget.
    """
    budget, source = memory_budget(gpu)
    if budget is None or nbytes <= budget:
        return
    detail = f" ({detail})" if detail else ""
    where = " on the GPU" if gpu else ""
    raise ValueError(f"{what} would need {format_bytes(nbytes)}{where}{detail} but only "
                     f"{format_bytes(budget)} is available ({source}); {how_to_proceed}. Set "
                     f"{GPU_ENV_VAR if gpu else ENV_VAR} to a larger number of bytes to insist.")


def check_dense_work(shape, itemsize, arrays, what, how_to_proceed, *, detail="", gpu=False):
    """:func:`check_memory` for ``arrays`` dense arrays of ``shape`` (n x d) and ``itemsize``.

    The message says ``arrays`` dense n x d arrays (``detail`` adds what they are, e.g. "the
    densified sparse X and two Horner buffers"); ``gpu``: they are device memory.
    """
    n, d = (int(s) for s in shape)
    what_arrays = (f"{arrays} dense {n} x {d} arrays of {itemsize} bytes per entry"
                   if arrays != 1 else f"a dense {n} x {d} array of {itemsize} bytes per entry")
    check_memory(float(arrays) * n * d * itemsize, what, how_to_proceed,
                 detail=f"{what_arrays}: {detail}" if detail else what_arrays, gpu=gpu)
