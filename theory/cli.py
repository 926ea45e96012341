"""The ``ngc-ref`` command: ``check`` (the theory checker), ``reproduce`` (the paper's
experiments beside its numbers), ``sweep`` (parameter grids) and ``demo`` (Figure 1 graphs)."""

from __future__ import annotations

import argparse
import datetime
import json
import os
import re
import sys
import time
from pathlib import Path

from .kit.claim import RERUN_DIR, rerun_command
from .output.files import data_root, staged_output
from .sweep.cost import THOROUGH_MEASURED_MINUTES, plural


def _check(args):
    """``ngc-ref check``: validate, plan or run the checks into a staged report, print the
    table; the exit status (:func:`_summary`)."""
    from . import run_checks
    from .paper.source import paper_source
    from .output.paper_md import write_paper
    from .output.report import write_report
    from .check import data_notice, dry_run, resolve_ids, select

    _thorough_only(args)
    args.only = resolve_ids(args.only)     # unknown ids fail here, before anything is created
    claims, keep = select(args.only)
    family_lines = family_notice(args.family, claims, keep)
    ctx = _context(args)
    paper = paper_source()        # another version of the paper stops the run here (exit 2)
    if args.dry_run:
        for line in family_lines:
            print(line, file=sys.stderr)
        store = ctx.store if ctx.store and ctx.store.exists() else None
        print("\n".join(dry_run(ctx, claims, store)))
        return 0
    started = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    t0 = time.perf_counter()
    with staged_output(args.out) as staged:
        if not args.force:
            refuse_to_shrink(args.out, args.only, keep, args.thorough)
        for line in [*family_lines, *data_notice(ctx, claims), *paper_notice(paper)]:
            print(line, file=sys.stderr, flush=True)
        ctx.out_dir = staged.dir
        try:
            results = run_checks(ctx, only=args.only, progress=not args.no_progress,
                                 raise_errors=args.debug)
            meta = _meta(args, ctx, started, t0, paper)
            write_report(results, staged.dir, meta, claims)
            if paper.available:
                write_paper(results, staged.dir, meta, paper, keep)
            staged.commit(*report_files(staged.dir, args.out))
        except KeyboardInterrupt:
            if staged.committed:
                print("ngc-ref: interrupted after the report was written", file=sys.stderr)
                return 130
            if ctx.store is None:
                print("ngc-ref: interrupted; no report was replaced", file=sys.stderr)
                return 130
            return _interrupted(ctx.store, " (no report was replaced)")
    return _summary(results, ctx, args.out, meta["paper"])


def paper_notice(paper):
    """The line a run prints before it starts when the paper's LaTeX is not available (it then
    writes no ``paper.md``); none when it is."""
    return [] if paper.available else [f"ngc-ref: no paper.md: {paper.why}"]


def _context(args):
    """The run context of ``check``'s arguments (a bad ``--family`` or ``NGC_REF_DATA`` stops
    the run here, before anything is created)."""
    from . import Context
    from .sweep.cost import scale_from_env
    families = _families(args)
    root = data_root()
    return Context(seed=args.seed, thorough=args.thorough, data_root=root and Path(root),
                   scale=(args.scale or scale_from_env()) if args.thorough else 1.0,
                   # a thorough run's cells live beside the report and outlive it (resume)
                   store=args.out / ".thorough" / "store.jsonl" if args.thorough else None,
                   n_jobs=-1 if args.jobs is None else args.jobs, scheduler=args.scheduler,
                   # -j on a default run: its checks on local workers (else one by one here)
                   parallel=args.jobs is not None and not args.thorough, families=families)


def _interrupted(cells, note=""):
    """Say that the run was interrupted and where its finished ``cells`` are (the same
    command resumes); the exit status 130."""
    print(f"ngc-ref: interrupted; finished cells are in {cells}; re-run the same command to "
          f"resume{note}", file=sys.stderr)
    return 130


def _thorough_only(args):
    for flag, given in (("--scale", args.scale is not None), ("--scheduler", args.scheduler)):
        if given and not args.thorough:
            raise ValueError(f"{flag} applies to --thorough runs only")


def _meta(args, ctx, started, t0, paper):
    """The run's record in ``report.json``: settings, provenance, skips, the rerun pattern,
    and ``paper``: the file ``paper.md`` and the LaTeX it was made from, or why there is
    none."""
    from .paper.source import PAPER_SHA256
    from .output.provenance import machine, source, versions
    meta = {"seed": args.seed, "thorough": args.thorough, "only": args.only,
            "version": versions()["ngc_ref"], "source": source(), "started": started,
            "seconds": round(time.perf_counter() - t0, 1), **versions(), **machine(),
            "data_root": None if ctx.data_root is None else str(ctx.data_root),
            "skipped": list(ctx.skipped), "families": list(ctx.families),
            # the pattern of a statement without --family (those with it: their own rerun)
            "rerun": rerun_command("ID", ctx, needs_data=ctx.data_root is not None,
                                   families=False),
            "paper": ({"file": "paper.md", "source": str(paper.path), "sha256": PAPER_SHA256}
                      if paper.available else {"file": None, "why": paper.why})}
    if args.thorough:
        meta["scale"] = ctx.scale
        meta["store"] = str(Path(".thorough") / "store.jsonl")
    return meta


def _summary(results, ctx, out, paper):
    """Print the table, the counts, the skips and where the report is (and ``paper.md``, or
    why there is none); the exit status."""
    from .output.report import counts, counts_line, format_table, skipped_lines
    print(format_table(results))
    c = counts(results)
    print(f"\nthe paper's statements as stated: {counts_line(c, 'as-stated')}; extensions and "
          f"corrections: {counts_line(c, 'extension')}; errata: {counts_line(c, 'erratum')}")
    for line in skipped_lines(ctx.skipped):
        print(line)
    errors = [r for r in results if r.verdict == "error"]
    if paper["file"]:
        print(f"\nreport: {out / 'report.md'}, {out / 'report.json'} and, the paper sentence "
              f"by sentence with these verdicts, {out / paper['file']}")
    else:
        print(f"skipped: paper.md — {paper['why']}")
        print(f"\nreport: {out / 'report.md'} and {out / 'report.json'}")
    if errors:
        print(f"ngc-ref: {len(errors)} check(s) could not run: "
              + ", ".join(sorted({f'{r.claim} [{r.norm}]' for r in errors})), file=sys.stderr)
        return 1
    return 0


def family_notice(families, claims, keep):
    """The line a ``--family`` run prints when it starts: which of the selected statements run
    on the families (the others keep their own graphs). ``ValueError`` (exit 2) when none of
    them does, naming the claims that take families. ``[]`` without ``--family``."""
    from .kit.claim import registry
    if not families:
        return []
    used = [sid for c in claims.values() for sid in c.statements
            if (keep is None or sid in keep) and c.uses_families(sid)]
    given = ", ".join(dict.fromkeys(families))
    if not used:
        takers = ", ".join(c.id for c in registry().values() if c.uses_families())
        raise ValueError(f"--family {given}: none of the selected statements runs on graph "
                         f"families; the claims that do are {takers} (e.g. ngc-ref check "
                         f"--only assumption-2 --family ...)")
    others = sum(len(c.statements) for c in claims.values()) if keep is None else len(keep)
    rest = others - len(used)
    return [f"ngc-ref: --family {given} replaces the graph families of {', '.join(used)}"
            + (f"; the other {plural(rest, 'statement')} run as without it" if rest else "")]


def _families(args):
    """``--family`` values, each resolved and built once (a bad one stops here, exit 2)."""
    from .kit.graphs import check_family
    if args.family and args.thorough:
        raise ValueError("--family applies to default runs; for large n put the family in a "
                         "sweep config (family = \"package.module:function\")")
    return list(dict.fromkeys(check_family(f, "--family") for f in args.family or ()))


def refuse_to_shrink(out, only, keep, thorough):
    """``ValueError`` (exit 2) when ``out`` holds a report that this run would replace without
    re-running all of it: one with a statement this run does not check (``keep``: its
    statement ids, None for all), or a ``--thorough`` report replaced by a default run. A
    ``report.json`` that cannot be read is not replaced either. ``--force`` skips this."""
    path = Path(out) / "report.json"
    if not path.exists():
        return
    elsewhere = f"{RERUN_DIR}/{'_'.join(only)}" if only and len(only) <= 2 else "OTHER"
    how = (f"write this run elsewhere with --out {elsewhere}, or replace that report with "
           "--force")
    try:
        prev = json.loads(path.read_text(encoding="utf-8"))
        old = {r["id"] for r in prev["results"]}
        was_thorough = bool(prev["meta"].get("thorough"))
    except (OSError, ValueError, KeyError, TypeError, AttributeError):
        raise ValueError(f"--out {str(out)!r} holds a report.json this run cannot read; "
                         f"{how}") from None
    lost = set() if keep is None else old - keep
    if lost or (was_thorough and not thorough):
        why = (f"this run does not check {len(lost)} of its {len(old)} statements"
               if lost else "it is a --thorough report and this run is not")
        raise ValueError(f"--out {str(out)!r} holds a report this run would replace, and "
                         f"{why}; {how}")


def report_files(stage, out):
    """The staged report's files in the order they move into ``out`` (figures, report.json,
    paper.md when the run wrote one, report.md: the file a reader opens first moves last),
    and the files of the previous report in ``out`` that this one does not have: its figures
    and its paper.md (removed, so no file of another run stays beside this report)."""
    old = set()
    try:
        prev = json.loads((out / "report.json").read_text(encoding="utf-8"))
        old = {f for r in prev.get("results", []) for f in r.get("figures", [])}
    except (OSError, ValueError, AttributeError):
        pass
    figures = sorted(p.name for p in stage.glob("*.png"))
    stale = sorted(n for n in old - set(figures) if "/" not in n and n.endswith(".png"))
    paper = ["paper.md"] if (stage / "paper.md").exists() else []
    if not paper and (out / "paper.md").exists():
        stale.append("paper.md")
    return [*figures, "report.json", *paper, "report.md"], stale


def _sweep(args):
    if args.list_tasks:
        from .sweep import describe, tasks
        print("\n\n".join(describe(t) for t in tasks()))
        return 0
    if args.summary is not None:
        if args.config is not None:
            raise ValueError("give either CONFIG (run a sweep) or --summary OUT.jsonl, not both")
        from .sweep.summary import summarize
        text, figs = summarize(args.summary, args.plots, plots=not args.no_plots)
        print(text)
        if figs:
            print("\nplots: " + ", ".join(figs))
        return 0
    if args.config is None:
        raise ValueError("sweep needs a CONFIG.toml/.json (or --summary OUT.jsonl, --list-tasks)")
    from .sweep import SweepError, load_config, run_sweep
    sweep = load_config(args.config)
    out = Path(args.out) if args.out else sweep.out or Path(Path(args.config).stem + ".jsonl")
    if out.suffix != ".jsonl":
        raise ValueError(f"--out must name a .jsonl file, got {str(out)!r}")
    if args.dry_run:
        from joblib import effective_n_jobs

        from .sweep.plan import dry_run_lines
        workers = 1 if args.scheduler else max(1, effective_n_jobs(args.jobs))
        print("\n".join(dry_run_lines(sweep, out, workers)))
        return 0
    t0 = time.perf_counter()
    try:
        records = run_sweep(sweep, out, n_jobs=args.jobs, scheduler=args.scheduler,
                            progress=not args.no_progress)
    except SweepError as exc:
        print(f"ngc-ref: error: {exc}; the other cells are in {out}; re-run to retry",
              file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        return _interrupted(out)
    print(f"{plural(len(records), 'cell')} of task {sweep.task!r} in {out} "
          f"({time.perf_counter() - t0:.1f} s); summary: ngc-ref sweep --summary {out}")
    return 0


def _reproduce(args):
    """``ngc-ref reproduce``: run (or resume) the experiments; 1 when a cell failed."""
    from .reproduce.run import STORE, reproduce

    command = "ngc-ref reproduce " + " ".join(sys.argv[2:]) if sys.argv[1:2] == [
        "reproduce"] else "ngc-ref reproduce"
    try:
        _, meta = reproduce(only=args.only, runs=args.runs, full=args.full, out=args.out,
                            jobs=args.jobs, scheduler=args.scheduler, seed=args.seed,
                            progress=not args.no_progress, scale=args.scale_run,
                            command=command.strip())
    except KeyboardInterrupt:
        return _interrupted(Path(args.out) / STORE, " (no report was replaced)")
    print(f"\nreport: {Path(args.out) / 'reproduce.md'} and {Path(args.out) / 'reproduce.json'}")
    if meta["cell_failures"]:
        print(f"ngc-ref: {len(meta['cell_failures'])} cell(s) failed (listed in "
              "reproduce.json meta.cell_failures); re-run to retry them", file=sys.stderr)
        return 1
    return 0


def _reproduce_epilog():
    from .reproduce.targets import NOT_RUN, TARGETS, run_counts
    lines = ["targets for --only (TARGET, TARGET:DATASET or TARGET:SENTENCE; default runs / "
             "paper's runs):"]
    for key, t in TARGETS.items():
        runs = run_counts(key)
        lines.append(f"  {key!r}: " + ", ".join(f"{d} {runs[d]}/{t.paper_runs or '-'}"
                                                 for d in t.datasets))
        lines.append("      sentences: " + ", ".join(t.quotes))
    lines.append("aliases: fig:depth_ngc, fig:depth_rngc = fig:depth; tab:row-normalization = "
                 "'tab:row normalization'")
    lines.append("not run (listed in the output with the reason): " + ", ".join(NOT_RUN))
    lines.append("'scale': the synthetic ogbn-products-size run (same as --scale-run)")
    return "\n".join(lines) + "\n"


def _data_fetch(args):
    """``ngc-ref data fetch``: download the data files into the data folder; 0 when every
    requested file is in place and verified, 1 when some could not be fetched (each named with
    its source and why), 130 interrupted (partial downloads are kept and resumed next time)."""
    from tqdm.auto import tqdm

    from ngc_ref.datasets import NOT_FETCHED, FetchError, fetch, fetch_root
    root = fetch_root(args.root)
    print(f"ngc-ref data fetch: into {root}{_root_origin(args.root)}", file=sys.stderr)
    try:
        outcomes = fetch(args.names or None, root, base_url=args.base_url,
                         progress=not args.no_progress,
                         log=lambda line: tqdm.write(line, file=sys.stderr))
        failed = []
    except FetchError as exc:
        outcomes, failed = exc.outcomes, [o for o in exc.outcomes if not o.ok]
    except KeyboardInterrupt:
        print("ngc-ref: interrupted; files already verified stay, a partial download is kept "
              "and the same command resumes it", file=sys.stderr)
        return 130
    for o in failed:
        print(f"ngc-ref: could not fetch {o.relpath} (from {o.source}): {o.detail}",
              file=sys.stderr)
    for o in outcomes:
        if o.status == "optional":
            print(f"ngc-ref: {o.relpath} (from {o.source}) is {o.detail}; Pubmed then loads "
                  "with features only for its training and test nodes", file=sys.stderr)
    fetched = sum(o.status == "fetched" for o in outcomes)
    present = sum(o.status == "present" for o in outcomes)
    optional = sum(o.status == "optional" for o in outcomes)
    print(f"{plural(len(outcomes), 'file')} in {root}: {fetched} fetched, {present} already "
          f"there (verified by size and sha256)"
          + (f"; {optional} optional not fetched (above)" if optional else "")
          + (f"; {len(failed)} could not be fetched (above)" if failed else ""))
    print("not fetched (no pinned source): "
          + "; ".join(f"{name}: {why}" for name, why in NOT_FETCHED.items()))
    if not failed:
        use = "ngc-ref check" if args.root is None and not os.environ.get("NGC_REF_DATA") \
            else f"NGC_REF_DATA={root} ngc-ref check"
        print(f"the checks read it: {use}")
    return 1 if failed else 0


def _data_verify(args):
    """``ngc-ref data verify``: check the data folder; 0 when every file is there and matches
    its record, 1 when some is missing, different or partial (each named with its source)."""
    from ngc_ref.datasets import fetch_root, verify
    root = fetch_root(args.root)
    outcomes = verify(args.names or None, root)
    bad = [o for o in outcomes if not o.ok]
    for o in bad:
        print(f"{o.status}: {o.relpath} (from {o.source})"
              + (f": {o.detail}" if o.detail != o.status else ""))
    optional = [o.relpath for o in outcomes if o.status == "optional"]
    good = sum(o.status == "present" for o in outcomes)
    print(f"{root}{_root_origin(args.root)}: {good} of {plural(len(outcomes), 'file')} "
          f"verified by size and sha256"
          + (f", {len(bad)} missing or different" if bad else "")
          + (f"; optional, absent: {', '.join(optional)}" if optional else "")
          + ("; `ngc-ref data fetch` gets what is missing" if bad else ""))
    return 1 if bad else 0


def _root_origin(given):
    if given is not None:
        return " (--root)"
    return " (NGC_REF_DATA)" if os.environ.get("NGC_REF_DATA") else \
        " (the default data folder: NGC_REF_DATA is not set)"


def demo(lam=64.0, S=64, norm="rw", out=None):
    """Print τ, τ·log n/n and the truncation error of Ã_S against (I + λL̃)⁻¹ for the paper's
    Figure 1 graphs G1–G4. Everything is computed before anything is printed, so bad
    arguments print nothing but the error."""
    import numpy as np

    from ngc_ref import NeumannFilter, connectivity_factor, series_ratio
    from ngc_ref.graphs import figure1_graphs

    labels = {"G1": "G1 isolated n=4", "G2": "G2 star n=4", "G3": "G3 complete n=4",
              "G4": "G4 ring n=8"}
    rows = []
    for key, G in figure1_graphs().items():
        res = connectivity_factor(G, lam, S, norm=norm)
        filt = NeumannFilter(G, lam, S, norm=norm)
        exact = filt.exact(np.eye(filt.n), method="dense")
        err = np.linalg.norm(filt.matrix() - exact, ord=np.inf if norm == "rw" else 2)
        rows.append(f"{labels[key]:<18}{res.n:>4}{res.tau:>10.4f}{res.tau_log_n_over_n:>15.4f}"
                    f"{err:>16.4e}")
    header = f"{'graph':<18}{'n':>4}{'tau':>10}{'tau*log(n)/n':>15}{'||A_S - inv||':>16}"
    print(f"Figure 1 graphs at lam={lam:g}, S={S}, norm={norm!r} (truncation bound r^(S+1) = "
          f"{series_ratio(lam) ** (S + 1):.4g}, {'inf' if norm == 'rw' else '2'}-norm)",
          header, "-" * len(header), *rows, sep="\n", file=out or sys.stdout)


def _demo(args):
    demo(args.lam, args.S, args.norm)
    return 0


class UsageError(Exception):
    """A command line argparse rejects (exit status 2); the message is what to print."""


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose epilog may be a function, called only when help is shown (the
    list of claim ids imports every claim module), and whose usage errors return to
    :func:`main` (exit status 2) instead of leaving the interpreter."""

    def format_help(self):
        if callable(self.epilog):
            self.epilog = self.epilog()
        return super().format_help()

    def error(self, message):
        # "argument -j/--jobs: must be ..." reads "--jobs must be ..." (as the checks' errors)
        m = re.fullmatch(r"argument (?:\S+/)?(\S+): (?:\1 )?(must be .*)", message, re.S)
        raise UsageError(f"{self.format_usage()}{self.prog}: error: "
                         + (f"{m[1]} {m[2]}" if m else message))


def _arg_type(convert):
    """An argparse ``type=`` from ``convert(text)``: its ``ValueError`` is a usage error."""
    def checked(text):
        try:
            return convert(text)
        except ValueError as exc:
            raise argparse.ArgumentTypeError(str(exc)) from None
    checked.__name__ = convert.__name__
    return checked


def _integer(text, what, ok):
    try:
        value = int(text)
    except ValueError:
        value = None
    if value is None or not ok(value):
        raise ValueError(f"must be {what}, got {text!r}")
    return value


@_arg_type
def _seed(text):
    return _integer(text, "a non-negative integer", lambda v: v >= 0)


@_arg_type
def _jobs(text):
    return _integer(text, "a non-zero integer (-1: all cores)", lambda v: v != 0)


@_arg_type
def _runs(text):
    return _integer(text, "a positive integer", lambda v: v >= 1)


@_arg_type
def _scale(text):
    from .sweep.cost import parse_scale
    return parse_scale(text, "--scale")


CHECK_DESCRIPTION = """\
Check the paper's claims numerically and write OUT/report.md and OUT/report.json (with the
figures). Claims that read the paper's data sets use NGC_REF_DATA (a folder: a path that is
not one, or one inside the layout, stops the run at once), else the default data folder that
`ngc-ref data fetch` fills; the data sets a run will skip are named when it starts.

One run at a time per output folder: a second run into the same --out stops at once (exit 2)
naming the first (pid, start time, command). A run replaces the report in --out only if it
checks every statement of that report (a full run, or the same or a larger --only) and is
--thorough if that report was; otherwise it stops before running anything (exit 2) and says
how to proceed: another --out, or --force. Every `rerun` command a report prints writes into
its own folder, ngc_ref_rerun/<id>, so running it as printed replaces no report.

exit status: 0 done, 1 some check could not run (an `error` result), 2 bad input (arguments,
NGC_REF_DATA, an output folder in use or holding a larger report), 130 interrupted (the
previous report is left whole).
"""


def _ids_epilog():
    from .kit.claim import registry
    import textwrap
    lines = ["claim and statement ids for --only (a claim id runs all its statements):"]
    for c in registry().values():
        lines += textwrap.wrap(", ".join(c.statements), 78, initial_indent="  ",
                               subsequent_indent="      ", break_on_hyphens=False)
    return "\n".join(lines) + "\n"


def build_parser():
    """The ``ngc-ref`` parser: ``--debug`` and one subcommand per ``_add_*`` builder below
    (``check``, ``sweep``, ``reproduce``, ``data``, ``demo``, in that order in ``--help``).

    A new subcommand is one more builder ``_add_NAME(sub, parents)`` that sets ``func``."""
    parser = _Parser(
        prog="ngc-ref",
        description="Reference implementation and theory checker for Neumann Graph Convolution.")
    parser.add_argument("--debug", action="store_true", help="show tracebacks on errors")
    parser.add_argument("--version", action="version", version=_version_line())
    # Each subcommand accepts --debug after its name too; SUPPRESS keeps a --debug given before
    # the subcommand from being reset by the subcommand's default.
    debug = argparse.ArgumentParser(add_help=False)
    debug.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                       help="show tracebacks on errors")
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)
    for add in (_add_check, _add_sweep, _add_reproduce, _add_data, _add_demo):
        add(sub, [debug])
    return parser


def _version_line():
    """``ngc-ref 0.1.0 (ngc_ref 0.1.0, Python 3.11.7)``: the installed distribution's version."""
    from importlib.metadata import PackageNotFoundError, version
    import platform
    try:
        v = version("ngc_ref")
    except PackageNotFoundError:    # a source tree that is not installed
        v = "unknown (not installed)"
    return f"ngc-ref {v} (Python {platform.python_version()})"


def _add_check(sub, parents):
    """``ngc-ref check``: the theory checker (:func:`_check`)."""
    chk = sub.add_parser("check", help="check the paper's claims numerically and write a report",
                         parents=parents, epilog=_ids_epilog, description=CHECK_DESCRIPTION,
                         formatter_class=argparse.RawDescriptionHelpFormatter)
    chk.add_argument("--only", nargs="+", metavar="ID",
                     help="run only these claims or statements (ids listed below; any letter "
                     "case)")
    chk.add_argument("--seed", type=_seed, default=0, help="run seed (default 0)")
    chk.add_argument("--thorough", action="store_true",
                     help="the asymptotic claims at large n (up to 10^5) and more trials, as "
                     "sweep cells kept in OUT/.thorough/ (re-running resumes); about "
                     f"{THOROUGH_MEASURED_MINUTES:.0f} min on 2 idle cores (measured; --dry-run "
                     "estimates it for your workers)")
    chk.add_argument("--out", type=Path, default=Path("ngc_ref_report"),
                     help="output folder (default ngc_ref_report); see above for when a report "
                     "there is replaced")
    chk.add_argument("--force", action="store_true",
                     help="replace the report in --out even if it has statements this run does "
                     "not check, or is a --thorough report and this run is not")
    _add_cells(chk, None, "--thorough: ", progress="no progress bar (--thorough: one line per "
               "finished claim)",
               jobs_help="local joblib workers: a default run's checks one per claim and norm "
               "(-1: all cores; without -j one after another in this process), --thorough's "
               "cells (default -1)")
    chk.add_argument("--scale", metavar="FLOAT", type=_scale,
                     help="--thorough: multiply every planned grid's sizes (and, below 1, its "
                     "trial counts) by FLOAT; default $NGC_REF_THOROUGH_SCALE or 1")
    chk.add_argument("--family", action="append", metavar="NAME|MODULE:FUNCTION",
                     help="run the asymptotic claims (assumption-2, noise-vanishing, lemma-1, "
                     "theorem-1's λ = √n half) on this graph family instead of their own: a "
                     "registered name or your function(n, seed) -> adjacency; repeatable")
    chk.add_argument("--dry-run", "--plan", action="store_true", dest="dry_run",
                     help="print each claim's cells and estimated time, and run nothing")
    chk.set_defaults(func=_check)


def _add_sweep(sub, parents):
    """``ngc-ref sweep``: run, plan or summarise a grid of cells (:func:`_sweep`)."""
    swp = sub.add_parser("sweep", parents=parents,
                         help="run a grid of cells of a registered task (--list-tasks lists "
                         "them) locally or on a Dask cluster; resumable",
                         description="Run the cells of CONFIG (.toml or .json) that are not yet "
                         "in the output file, appending one JSON line per finished cell; "
                         "re-running the same command resumes. --summary OUT.jsonl prints a "
                         "table and writes plots.")
    swp.add_argument("config", nargs="?", metavar="CONFIG", help="sweep config (.toml/.json)")
    swp.add_argument("--out", help="output .jsonl (default: the config's 'out', else "
                     "CONFIG-STEM.jsonl in the current folder)")
    _add_cells(swp)
    swp.add_argument("--summary", metavar="OUT.jsonl", help="summarise a sweep output")
    swp.add_argument("--plots", metavar="DIR", help="folder for the summary plots (default: "
                     "beside OUT.jsonl)")
    swp.add_argument("--no-plots", action="store_true", help="summary table only")
    swp.add_argument("--list-tasks", action="store_true", help="list tasks and their parameters")
    swp.add_argument("--dry-run", action="store_true",
                     help="print the cells and their estimated time, and run nothing")
    swp.set_defaults(func=_sweep)


def _add_reproduce(sub, parents):
    """``ngc-ref reproduce``: the paper's experiments beside its numbers (:func:`_reproduce`)."""
    rep = sub.add_parser("reproduce", parents=parents, epilog=_reproduce_epilog,
                         formatter_class=argparse.RawDescriptionHelpFormatter,
                         help="run the paper's experiments and judge them against the paper's "
                         "numbers (needs NGC_REF_DATA); resumable",
                         description="Run every experiment of the paper whose data is here "
                         "(tables and figures of Sec. 5 and the appendix), print the paper's "
                         "number beside ours cell by cell with an interval and a verdict, judge "
                         "the paper's claims, and write OUT/reproduce.json, OUT/reproduce.md "
                         "and figures. Finished cells are kept in OUT/reproduce.jsonl: the same "
                         "command resumes.")
    rep.add_argument("--only", nargs="+", metavar="TARGET",
                     help="run only these targets (or TARGET:DATASET; TARGET:SENTENCE, a "
                     "sentence's id such as tab:flip:bold, reports only that sentence); "
                     "listed below")
    rep.add_argument("--runs", type=_runs, metavar="N",
                     help="runs per cell for every target (default: the budgeted counts "
                     "below; --full: the paper's)")
    rep.add_argument("--full", action="store_true", help="the paper's run counts (hours)")
    rep.add_argument("--out", type=Path, default=Path("ngc_ref_reproduce"),
                     help="output folder (default ngc_ref_reproduce; one run at a time)")
    _add_cells(rep)
    rep.add_argument("--seed", type=_seed, default=0, help="sweep seed (default 0)")
    rep.add_argument("--scale-run", action="store_true",
                     help="also time NGC/RNGC on a synthetic graph of ogbn-products' size")
    rep.set_defaults(func=_reproduce)


def _add_cells(parser, default=-1, note="", progress="no progress bar", jobs_help=None):
    """``--no-progress``, ``-j/--jobs`` and ``--scheduler``: how the cells of ``check
    --thorough``, ``sweep`` and ``reproduce`` show their progress and where they run (``note``
    prefixes the help of the last two; ``check``'s default None tells whether ``--jobs`` was
    given)."""
    parser.add_argument("--no-progress", action="store_true", help=progress)
    parser.add_argument("-j", "--jobs", type=_jobs, default=default,
                        help=jobs_help or f"{note}local joblib workers (default -1: all cores; "
                        "1: in-process)")
    parser.add_argument("--scheduler", metavar="tcp://HOST:PORT",
                        help=f"{note}run the cells on this dask.distributed scheduler")


def _add_data(sub, parents):
    """``ngc-ref data fetch|verify``: the paper's data files (:func:`_data_fetch`,
    :func:`_data_verify`)."""
    data = sub.add_parser("data", parents=parents,
                          help="download the paper's data sets (fetch) or check a data folder "
                          "(verify)",
                          description="The paper's data files, from their source repositories "
                          "at the pinned commits (data/README.md). The data folder is --root, "
                          "else NGC_REF_DATA, else the default data folder "
                          "($XDG_CACHE_HOME/ngc_ref/data, ~/.cache/ngc_ref/data), which "
                          "check, reproduce and the loaders read when NGC_REF_DATA is unset.")
    acts = data.add_subparsers(dest="action", parser_class=_Parser, required=True,
                               metavar="{fetch,verify}")
    names = {"nargs": "*", "metavar": "NAME",
             "help": "data sets (default: all): cora citeseer pubmed cornell texas wisconsin "
                     "actor coauthor-cs coauthor-physics, or an alias (cs, physics, film)"}
    root = {"type": Path, "metavar": "DIR",
            "help": "the data folder (default: NGC_REF_DATA, else ~/.cache/ngc_ref/data)"}
    fet = acts.add_parser("fetch", parents=parents,
                          help="download the data files, verified, into the data folder",
                          description="Download each data file from its source repository at "
                          "the pinned commit into the data folder's layout. Each file is "
                          "verified (size and sha256) before it is moved into place; a file "
                          "already there and verified is never downloaded again; an "
                          "interrupted download resumes (HTTP Range). Exit status: 0 every "
                          "file in place, 1 some file could not be fetched (named with its "
                          "source), 2 bad input, 130 interrupted.")
    fet.add_argument("names", **names)
    fet.add_argument("--root", **root)
    fet.add_argument("--base-url", metavar="URL",
                     help="where the repositories are served: URL/OWNER/REPO/COMMIT/PATH "
                     "(default: $NGC_REF_DATA_URL, else https://raw.githubusercontent.com)")
    fet.add_argument("--no-progress", action="store_true", help="no progress bar")
    fet.set_defaults(func=_data_fetch)
    ver = acts.add_parser("verify", parents=parents,
                          help="check the data folder: name each missing or different file",
                          description="Check every data file of the data folder against its "
                          "recorded size and sha256. Exit status: 0 all there and verified, 1 "
                          "some missing, different or partial (each named with its source), "
                          "2 bad input.")
    ver.add_argument("names", **names)
    ver.add_argument("--root", **root)
    ver.set_defaults(func=_data_verify)


def _add_demo(sub, parents):
    """``ngc-ref demo`` (also ``ngc-ref`` alone): τ on the Figure 1 graphs (:func:`demo`)."""
    dem = sub.add_parser("demo", parents=parents,
                         help="tau and the truncation error on the Figure 1 graphs")
    dem.add_argument("--lam", type=float, default=64.0, help="lambda (default 64)")
    dem.add_argument("--S", type=int, default=64, help="expansion order S (default 64)")
    dem.add_argument("--norm", choices=("rw", "sym"), default="rw", help="normalisation")
    dem.set_defaults(func=_demo)


def main(argv=None):
    parser = build_parser()
    try:
        args = parser.parse_args(argv)
        if args.command is None:
            args = parser.parse_args(["demo"] + (["--debug"] if args.debug else []))
    except UsageError as exc:
        print(exc, file=sys.stderr)
        return 2
    try:
        return args.func(args)
    except BrokenPipeError:
        # `ngc-ref check | head`: the reader left; the report files are already written.
        # Point stdout at devnull so the interpreter's final flush does not fail again.
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except (ValueError, TypeError, OSError) as exc:
        if args.debug:
            raise
        print(f"ngc-ref: error: {exc}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("ngc-ref: interrupted; no report was replaced", file=sys.stderr)
        return 130


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
