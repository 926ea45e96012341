"""The size knob and the cost model of ``ngc-ref check --thorough``.

``--scale`` (or ``NGC_REF_THOROUGH_SCALE``) multiplies every planned grid's sizes, and below 1
its trial and draw counts too (:func:`scaled_sizes`, :func:`scaled_count`); 0.01 is the tiny
profile the tests run end to end, above 1 the grids reach sizes meant for a cluster.

The cost model is what ``--dry-run`` prints before anything runs. Each sweep task declares
its own cost (``register_task(..., cost=fn)``; :func:`ngc_ref_theory.sweep.tasks.cell_seconds`
reads it) from the pieces here: a sparse × dense product costs about
:data:`SECONDS_PER_ENTRY` per stored entry of Ã, per column and per step of the series
(:func:`product_seconds`), building a graph what its family declares per node
(:func:`build_seconds`); a cell of the ``check`` task (a claim without a plan) costs what its
check measured here, which the claim declares (``claim(..., seconds=(default, thorough))``).
All are CPU seconds on one core of the 2-core machine of the README: the time on an idle core.
Other work on the machine stretches the wall time by its load.
"""

from __future__ import annotations

import math
import os

from ..kit.graphs import declared

SCALE_ENV = "NGC_REF_THOROUGH_SCALE"

#: The full ``check --thorough`` (scale 1, with the data) measured on the README's 2-core
#: machine with nothing else running: wall minutes (docs/thorough.md "Bounded", commit
#: e71cc31). The one source of the time ``check --help``, the README and the docs quote;
#: ``--dry-run``'s estimate is the cost model's (tests/test_thorough.py keeps both in step).
THOROUGH_MEASURED_MINUTES = 28.2

#: CPU seconds per (stored entry of Ã + I) × column × series step of a sparse × dense product
#: (SciPy CSR, float64), measured here as the cells' ``cpu_seconds`` on 10⁴-10⁵-node graphs
#: of the idle machine (one full thorough run: the random families' cells summed to 0.74 of
#: the previous 1.1e-9's estimate): about 4e-10 on banded graphs (ring, path, grid, torus,
#: star: the rows' neighbours sit close in memory), 8e-10 on random ones (every neighbour a
#: cache miss). Under load the wall time is several times that.
SECONDS_PER_ENTRY = 8e-10
SECONDS_PER_ENTRY_BANDED = 4e-10
#: Seconds per node to build a graph whose family declares no ``build_seconds_per_node``
#: (vectorised generators).
DEFAULT_BUILD_SECONDS_PER_NODE = 2e-6
#: Fixed cost of any cell (process hop, graph normalisation, the record).
CELL_OVERHEAD = 0.05
#: A cell of a task that declares no cost.
DEFAULT_CELL_SECONDS = 1.0


def parse_scale(value, name="--scale"):
    """A positive, finite scale factor from a number or a string; ValueError naming ``name``."""
    try:
        scale = float(value)
    except (TypeError, ValueError):
        raise ValueError(f"{name} must be a positive number, got {value!r}") from None
    if not math.isfinite(scale) or scale <= 0:
        raise ValueError(f"{name} must be a positive number, got {value!r}")
    return scale


def scale_from_env(default=1.0):
    """The scale of ``NGC_REF_THOROUGH_SCALE``, or ``default`` when it is not set."""
    raw = os.environ.get(SCALE_ENV)
    return default if raw in (None, "") else parse_scale(raw, SCALE_ENV)


def scaled_sizes(sizes, scale, minimum=16):
    """``sizes`` × ``scale``, rounded, at least ``minimum``, without repeats, in order."""
    out = []
    for n in sizes:
        m = max(int(minimum), int(round(n * scale)))
        if m not in out:
            out.append(m)
    return tuple(out)


def scaled_count(k, scale, minimum=1):
    """A trial or draw count under ``scale``: shrunk below 1 (at least ``minimum``), kept
    above (a larger scale buys larger graphs, not more draws)."""
    return max(int(minimum), int(round(k * min(1.0, scale))))


#: Expected average degree of a family that declares none.
DEFAULT_DEGREE = 8.0


def avg_degree(family, n, graph_params=None, default=DEFAULT_DEGREE):
    """Expected average degree of a family's graph at n (for the cost model): what the registry
    declares (:class:`ngc_ref.graphs.GraphFamily`), p·(n − 1) for ``erdos_renyi``, d or 2m
    for the parametrised regular / Barabási–Albert families, else ``default`` (a graph the
    registry does not hold: its builder's own, e.g. Theorem 1's blocks)."""
    gp = graph_params or {}
    if "p" in gp:
        return float(gp["p"]) * (n - 1)
    if "d" in gp or "m" in gp:
        return float(gp.get("d", 2 * gp.get("m", 0)))
    info = declared(family)
    degree = info.degree(n) if info is not None else None
    return default if degree is None else degree


def banded(family):
    """Whether the family's neighbours sit close in index order (the registry's ``local``)."""
    info = declared(family)
    return info is not None and info.local


def product_seconds(family, n, S, columns, graph_params=None, degree=DEFAULT_DEGREE):
    """Seconds of ``columns`` columns through S steps of Ã_S on the family's graph at n
    (``degree``: the average degree of a graph the registry does not hold)."""
    entries = n * (avg_degree(family, n, graph_params, degree) + 1.0)
    rate = SECONDS_PER_ENTRY_BANDED if banded(family) else SECONDS_PER_ENTRY
    return rate * entries * columns * max(int(S), 1)


def exact_tau_seconds(family, S, entries, nodes):
    """Seconds of exact τ: ``nodes`` columns (every node, or one on a vertex-transitive graph)
    through S steps of a matrix with ``entries`` stored entries (Ã + I). The 455 s cell of the
    issue (n = 8000, λ = √n, S = 179, under load) is where this picks the estimator."""
    rate = SECONDS_PER_ENTRY_BANDED if banded(family) else SECONDS_PER_ENTRY
    return rate * entries * max(int(S), 1) * nodes


def exact_tau_ok(p, entries, nodes):
    """Whether a ``tau`` cell with parameters ``p`` computes τ exactly: S·entries·nodes within
    ``exact_max_cost`` where given, else :func:`exact_tau_seconds` within
    ``exact_max_seconds``."""
    if p.get("exact_max_cost") is not None:
        return p["S"] * entries * nodes <= p["exact_max_cost"]
    return exact_tau_seconds(p["family"], p["S"], entries, nodes) <= p["exact_max_seconds"]


def build_seconds(family, n, per_node=DEFAULT_BUILD_SECONDS_PER_NODE):
    """Seconds to build the family's graph at n: n × what the family declares per node
    (``build_seconds_per_node``), else ``per_node`` (a graph the registry does not hold: its
    builder's own)."""
    info = declared(family)
    declared_per_node = info.build_seconds_per_node if info is not None else None
    return (per_node if declared_per_node is None else declared_per_node) * n


def format_seconds(s):
    """``42 s``, ``3.5 min``, ``1.2 h``."""
    if s < 90:
        return f"{s:.0f} s"
    if s < 5400:
        return f"{s / 60:.1f} min"
    return f"{s / 3600:.1f} h"


def plural(k, noun, nouns=None):
    """``1 cell``, ``2 cells``: ``k`` and ``noun`` in the number ``k`` asks for (``nouns``: an
    irregular plural).

    Examples
    --------
    >>> plural(1, "cell"), plural(0, "cell"), plural(3, "family", "families")
    ('1 cell', '0 cells', '3 families')
    """
    return f"{k} {noun if k == 1 else (nouns or noun + 's')}"


def vary_lines(cells):
    """One line per task of ``cells``: its cell count and the values each varying parameter
    takes (what ``--dry-run`` prints under a claim or a sweep)."""
    out = []
    for task in dict.fromkeys(c.task for c in cells):
        mine = [with_expressions(c.params) for c in cells if c.task == task]
        keys = sorted({k for p in mine for k in p})
        parts = []
        for k in keys:
            values = sorted({_key(p.get(k)) for p in mine}, key=_sort_key)
            hidden = k in ("graph_seed", "eta_seed", "data_root", "run_seed")
            if hidden or len(values) == 1 and k not in ("family", "n", "claim", "trials", "S",
                                                        "lam", "d"):
                continue
            shown = values if len(values) <= 8 else values[:3] + ["…"] + values[-3:]
            parts.append(f"{k}={','.join(map(str, shown))}")
        out.append(f"{task} × {len(mine)}: " + "; ".join(parts))
    return out


def with_expressions(params):
    """A cell's parameters with each expression of n a config gave (``exprs``) in place of its
    value at this n (``p = "3*log(n)/n"``), so the cells of one expression form one series."""
    exprs = params.get("exprs") or {}
    out = {k: v for k, v in params.items() if k != "exprs"}
    for name, text in exprs.items():
        if name.startswith("graph_params."):
            out["graph_params"] = dict(out.get("graph_params") or {},
                                       **{name.split(".", 1)[1]: text})
        else:
            out[name] = text
    return out


def _key(v):
    if isinstance(v, float):
        return float(f"{v:.6g}")   # an expression's value per n: short
    return v if isinstance(v, (int, str, bool)) or v is None else str(v)


def _sort_key(v):
    return (0, v, "") if isinstance(v, (int, float)) and not isinstance(v, bool) else (
        1, 0, str(v))
