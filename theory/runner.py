"""Run the registered checks with a progress bar and collect their results."""

from __future__ import annotations

import time
import traceback

from ._core import format_exception, registry, statement_ids
from .report import sort_results


def select(only=None):
    """The claims to run for ``--only`` and the statement ids to keep (``None``: all).

    ``only`` may name claims (``lemma-1``: all its statements) or single statements
    (``lemma-1-corrected:frobenius``, ``case-study:3``); an unknown id raises ``ValueError``
    listing the valid ones.
    """
    claims = registry()
    if not only:
        return claims, None
    index = statement_ids()
    unknown = [i for i in only if i not in index]
    if unknown:
        raise ValueError(f"unknown claim id(s) {unknown}; valid ids: {', '.join(index)}")
    keep = set()
    for i in only:
        keep.update(claims[i].statements if i in claims else [i])
    wanted = {index[i].id for i in only}
    return {k: c for k, c in claims.items() if k in wanted}, keep


def run_checks(ctx, only=None, progress=True, raise_errors=False):
    """Run every claim (or those ``only`` selects) in each of its norms; returns the results in
    report order.

    A check that raises does not stop the run: it becomes an ``error`` result of the claim
    (the message and the last lines of the traceback are its evidence), because one claim's
    missing data or crash must not throw away the others. ``raise_errors=True`` (``--debug``)
    lets the exception through instead. ``KeyboardInterrupt`` always propagates.
    """
    claims, keep = select(only)
    jobs = [(c, norm) for c in claims.values() for norm in c.norms]
    bar = None
    if progress:
        from tqdm.auto import tqdm
        bar = tqdm(total=len(jobs), unit="check", dynamic_ncols=True)
    results = []
    try:
        for c, norm in jobs:
            if bar is not None:
                bar.set_description(f"{c.id} [{norm}]")
            ctx.current = (c.id, norm)
            t0 = time.perf_counter()
            try:
                out = c.run(ctx, norm)
            except Exception as exc:  # noqa: BLE001 - recorded as this claim's outcome
                if raise_errors:
                    raise
                out = [_error_result(c, norm, exc)]
            finally:
                ctx.current = (None, None)
            for r in out:
                r.seconds = round(time.perf_counter() - t0, 3)
            results.extend(r for r in out if keep is None or r.id in keep)
            if bar is not None:
                bar.update(1)
    finally:
        if bar is not None:
            bar.close()
    return sort_results(results, claims)


def _error_result(c, norm, exc):
    tb = traceback.format_exception(type(exc), exc, exc.__traceback__)
    message = format_exception(exc)
    return c.result(norm, "error", {"error": message, "traceback": "".join(tb[-3:]).strip()},
                    f"could not run: {message}")
