"""The size knob and the cost model of ``ngc-ref check --thorough``.

``--scale`` (or ``NGC_REF_THOROUGH_SCALE``) multiplies every planned grid's sizes, and below 1
its trial and draw counts too (:func:`scaled_sizes`, :func:`scaled_count`); 0.01 is the tiny
profile the tests run end to end, above 1 the grids reach sizes meant for a cluster.

The cost model (:func:`cell_seconds`) is what ``--dry-run`` prints before anything runs: a
sparse × dense product costs about :data:`SECONDS_PER_ENTRY` per stored entry of Ã, per column
and per step of the series; a cell of the ``check`` task (a claim without a plan) costs what
its check measured here (:data:`CHECK_SECONDS`). Both are CPU seconds on one core of the
2-core machine of the README: the time on an idle core. Other work on the machine stretches
the wall time by its load.
"""

from __future__ import annotations

import math
import os

from ngc_ref.graphs import family_info

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
#: Seconds per node to build a family's graph (networkx-based generators dominate).
BUILD_SECONDS_PER_NODE = {"random_regular_4": 8e-5, "barabasi_albert_3": 1e-4,
                          "rr-blocks": 8e-5, "ba-blocks": 1e-4}
#: Fixed cost of any cell (process hop, graph normalisation, the record).
CELL_OVERHEAD = 0.05

#: CPU seconds per norm of each claim's check run in one cell (claims without a plan): (default
#: grid, thorough grid), measured here (``ngc-ref check [--thorough]``; a cell's
#: ``cpu_seconds``, the first cell of a worker including its imports; the thorough column is
#: the slower norm's cell of one thorough run on the idle machine). The planned claims'
#: entries are for their default grid only (their thorough work is their cells).
CHECK_SECONDS = {
    "gsd-closed-form": (0.5, 2.3), "gsd-trace": (0.1, 0.1), "neumann-identity": (0.1, 0.4),
    "neumann-truncation": (1.6, 19.2), "row-sum": (0.6, 1.9), "row-square-bounds": (0.2, 1.7),
    "tau-range": (1.3, 2.6), "ngc-framework": (1.0, 5.5), "tau-headline": (0.8, 1.6),
    "case-study": (0.4, 0.3), "assumption-2": (1.9, 0.0),
    "isolated-tau": (1.4, 132.0), "lemma-1": (3.6, 0.0), "noise-vanishing": (1.2, 49.0),
    "theorem-1": (29.0, 0.0), "tau-linearity": (1.0, 5.7), "inner-max": (0.1, 10.8),
    "agsd-stationarity": (0.1, 1.6), "rngc-approximation": (1.2, 92.0),
    "rngc-convergence": (10.4, 51.8), "rngc-tau": (1.8, 70.0), "rngc-edge-cost": (3.3, 14.8),
    "depth-denoising": (1.7, 11.2), "row-normalization": (8.0, 45.6),
    "denoising-accuracy": (9.2, 45.1), "flip-noise": (1.4, 0.7),
    # issue 33's last results: estimated from their default runs and the thorough work they add
    # (rngc-smoothness: Cora's four rows in both norms and Citeseer; degree-connectivity: exact
    # τ of Coauthor-CS and Pubmed at the co-author settings)
    "assumption-4": (0.6, 0.9), "rngc-smoothness": (2.5, 30.0),
    "dataset-statistics": (0.5, 0.5), "degree-connectivity": (1.5, 250.0),
}


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


#: Expected average degree of Theorem 1's own graphs (not in the registry: they come with
#: their features), and of a family that declares none.
HYP_DEGREES = {"rr-blocks": 6.0, "ba-blocks": 6.0, "csbm-fixed-degree": 20.0}
DEFAULT_DEGREE = 8.0


def registered_family(family):
    """The registry's record of ``family``, or None for Theorem 1's own graphs."""
    try:
        return family_info(family)
    except (TypeError, ValueError):
        return None


def avg_degree(family, n, graph_params=None):
    """Expected average degree of a family's graph at n (for the cost model): what the registry
    declares (:class:`ngc_ref.graphs.GraphFamily`), p·(n − 1) for ``erdos_renyi``, d or 2m
    for the parametrised regular / Barabási–Albert families, else :data:`DEFAULT_DEGREE`."""
    gp = graph_params or {}
    if "p" in gp:
        return float(gp["p"]) * (n - 1)
    if "d" in gp or "m" in gp:
        return float(gp.get("d", 2 * gp.get("m", 0)))
    info = registered_family(family)
    degree = info.degree(n) if info is not None else None
    return HYP_DEGREES.get(family, DEFAULT_DEGREE) if degree is None else degree


def banded(family):
    """Whether the family's neighbours sit close in index order (the registry's ``local``)."""
    info = registered_family(family)
    return info is not None and info.local


def product_seconds(family, n, S, columns, graph_params=None):
    """Seconds of ``columns`` columns through S steps of Ã_S on the family's graph at n."""
    entries = n * (avg_degree(family, n, graph_params) + 1.0)
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


def _tau_seconds(p, exact_ok):
    """A τ cell: exact (every node, or one if vertex-transitive) where ``exact_ok(entries,
    nodes)``, else the estimator's probes and candidates."""
    fam, n, S = p["family"], p["n"], p["S"]
    if fam == "complete" and not p.get("graph_params"):
        return CELL_OVERHEAD
    info = registered_family(fam)
    nodes = 1 if info is not None and info.vertex_transitive else n
    entries = n * (avg_degree(fam, n, p.get("graph_params")) + 1.0)
    columns = nodes if exact_ok(entries, nodes) else p["n_samples"] + p["max_candidates"]
    return (CELL_OVERHEAD + build_seconds(fam, n)
            + product_seconds(fam, n, S, columns + 1, p.get("graph_params")))


def build_seconds(family, n):
    return BUILD_SECONDS_PER_NODE.get(family, 2e-6) * n


def cell_seconds(task, params):
    """Estimated seconds of one cell of ``task`` with (coerced) ``params`` on one core."""
    p = params
    if task == "check":
        default, thorough = CHECK_SECONDS.get(p["claim"], (5.0, 30.0))
        return thorough if p["thorough"] else default
    if task in ("tau", "tau_large"):
        return _tau_seconds(p, lambda entries, nodes: exact_tau_ok(p, entries, nodes))
    if task in ("lemma1", "lemma1_trials"):
        fam, n, gp = p["family"], p["n"], p.get("graph_params")
        if fam == "complete" and not gp:
            return CELL_OVERHEAD + 2e-8 * n * p["trials"] * p["d"]
        # The draws as columns; with ``bounds`` also exact τ (every node's row).
        tau = product_seconds(fam, n, p["S"], n, gp) if p.get("bounds", False) else 0.0
        return (CELL_OVERHEAD + build_seconds(fam, n) + tau
                + product_seconds(fam, n, p["S"], p["trials"] * p["d"], gp) * 0.95)
    if task == "theorem1" and "family" in p:   # a λ = √n cell (a csbm cell has no family)
        fam, n = p["family"], p["n"]
        S = math.ceil(2 * math.sqrt(n))
        # Each run: Ã_S [X*, η] (8 columns) and 200 GD steps on n × 4 (about 2 columns' worth);
        # the blocks' graphs are local (block-diagonal), so their columns cost about half.
        runs = product_seconds(fam, n, S, 10 * p["draws"]) * 0.5
        tau = 0.0
        info = registered_family(fam)   # ring, torus: vertex-transitive, one node
        if p["tau"] and info is not None and info.vertex_transitive:
            tau = product_seconds(fam, n, S, 1)
        elif p["tau"]:
            block = n // 4
            entries = block * (avg_degree(fam, block) + 1.0)
            columns = block if S * entries * block <= p["exact_max_cost"] else (
                p["n_samples"] + p["max_candidates"])
            tau = 4 * product_seconds(fam, block, S, columns) * 0.5
        return CELL_OVERHEAD + build_seconds(fam, n) + runs + tau
    return 1.0


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
