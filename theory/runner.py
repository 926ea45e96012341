"""Run the registered checks with a progress bar and collect their results."""

from __future__ import annotations

import time
import traceback

from ._core import Result, registry


def run_checks(ctx, only=None, progress=True):
    """Run every claim (or those in ``only``) in each of its norms; returns a list of Result.

    A check that raises is not turned into a verdict: the exception propagates, because a
    crash of the checker is not a finding about the paper.
    """
    claims = registry()
    if only:
        unknown = sorted(set(only) - set(claims))
        if unknown:
            raise ValueError(f"unknown claim id(s) {unknown}; valid ids: {sorted(claims)}")
        claims = {k: v for k, v in claims.items() if k in set(only)}
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
            t0 = time.perf_counter()
            out = c.check(ctx, norm)
            out = [out] if isinstance(out, Result) else list(out)
            for r in out:
                r.seconds = round(time.perf_counter() - t0, 3)
            results.extend(out)
            if bar is not None:
                bar.update(1)
    finally:
        if bar is not None:
            bar.close()
    return results


def format_exception(exc):
    return "".join(traceback.format_exception_only(type(exc), exc)).strip()
