"""``ngc-ref sweep CONFIG --dry-run``: a sweep's cells and their estimated time, nothing run.

The estimate is each task's declared cost model (:func:`.tasks.cell_seconds`, the one
``check --thorough --dry-run`` prints): CPU seconds on one idle core per cell, from the
family's declared degree (:class:`ngc_ref.graphs.GraphFamily`), S and the columns pushed
through Ã_S; a ``tau`` cell is costed with the method it will pick (exact, or the
estimator where exact τ would exceed ``exact_max_seconds``).
"""

from __future__ import annotations

from ..kit.graphs import closed_form, declared
from .cost import (avg_degree, exact_tau_ok, exact_tau_seconds, format_seconds, plural,
                   vary_lines)
from .config import as_cells
from .store import finished, read_records
from .tasks import cell_seconds


def _exact_tau(cell):
    """``(exact?, seconds of exact τ)`` of a ``tau`` cell, as the task will decide it."""
    p = cell.params
    info = declared(p["family"])
    nodes = 1 if info is not None and info.vertex_transitive else p["n"]
    entries = p["n"] * (avg_degree(p["family"], p["n"], p.get("graph_params")) + 1.0)
    return exact_tau_ok(p, entries, nodes), exact_tau_seconds(p["family"], p["S"], entries, nodes)


def dry_run_lines(spec, store=None, workers=1):
    """The lines ``--dry-run`` prints for a sweep: per task its cells and what they vary, the
    τ cells that will use the estimator, and the total time on ``workers`` workers."""
    cells = as_cells(spec)
    done = set(finished(read_records(store))) if store is not None and store.exists() else set()
    secs = {c.id: cell_seconds(c.task, c.params) for c in cells}
    left = [c for c in cells if c.id not in done]
    total, total_left = sum(secs.values()), sum(secs[c.id] for c in left)
    longest = max((secs[c.id] for c in left), default=0.0)
    lines = vary_lines(cells)
    taus = [c for c in cells
            if c.task == "tau"
            and not closed_form(c.params["family"], c.params.get("graph_params"))]
    est = [(c, s) for c in taus for ok, s in [_exact_tau(c)] if not ok]
    if est:
        worst = max(est, key=lambda cs: cs[1])
        lines.append(f"τ estimated (bracket) in {len(est)} of {len(taus)} tau cells, where exact "
                     f"τ would exceed the budget (exact_max_seconds = "
                     f"{worst[0].params['exact_max_seconds']:g} s; largest: "
                     f"{worst[0].params['family']} n={worst[0].params['n']}, S="
                     f"{worst[0].params['S']}: ~{format_seconds(worst[1])} exact)")
    elif taus:
        lines.append(f"τ exact in all {len(taus)} tau cells")
    wall = max(total_left / max(workers, 1), longest)
    lines.append(f"total: {plural(len(cells), 'cell')} ({len(cells) - len(left)} finished), "
                 f"~{format_seconds(total)} of compute; ~{format_seconds(wall)} left on "
                 f"{workers} worker(s) (cost model of check --thorough: one idle core; other "
                 "work on the machine stretches it)")
    return lines
