"""The ``ngc-ref`` command: ``check`` (the theory checker), ``reproduce`` (the paper's
experiments beside its numbers), ``sweep`` (parameter grids) and ``demo`` (Figure 1 graphs)."""

from __future__ import annotations

import argparse
import datetime
import json
import os
import shutil
import sys
import tempfile
import time
from pathlib import Path

from ._files import sigint_held


def _check(args):
    from . import Context, run_checks
    from ._provenance import machine, source, versions
    from ._thorough import parse_scale, scale_from_env
    from .report import counts, counts_line, format_table, skipped_lines, write_report
    from .runner import dry_run, select

    if args.seed < 0:
        raise ValueError(f"--seed must be a non-negative integer, got {args.seed}")
    for flag, given in (("--scale", args.scale is not None), ("--scheduler", args.scheduler),
                        ("--jobs", args.jobs is not None)):
        if given and not args.thorough:
            raise ValueError(f"{flag} applies to --thorough runs only")
    if args.jobs is not None and args.jobs == 0:
        raise ValueError(f"--jobs must be a non-zero integer (-1: all cores), got {args.jobs}")
    if args.scheduler and not args.scheduler.startswith(("tcp://", "tls://", "inproc://",
                                                         "ws://", "wss://")):
        raise ValueError(f"--scheduler must be an address like tcp://HOST:PORT, got "
                         f"{args.scheduler!r}")
    scale = 1.0
    if args.thorough:
        scale = parse_scale(args.scale) if args.scale is not None else scale_from_env()
    claims, _ = select(args.only)     # unknown ids fail here, before anything is created
    families = _families(args)
    out = Path(args.out)
    data_root = os.environ.get("NGC_REF_DATA") or None
    # The thorough run's cells live beside the report and outlive it: a re-run resumes.
    store = out / ".thorough" / "store.jsonl" if args.thorough else None
    ctx = Context(seed=args.seed, thorough=args.thorough, out_dir=None,
                  data_root=Path(data_root) if data_root else None, scale=scale, store=store,
                  n_jobs=-1 if args.jobs is None else args.jobs, scheduler=args.scheduler,
                  families=families)
    if args.dry_run:
        print("\n".join(dry_run(ctx, claims, store if store and store.exists() else None)))
        return 0
    created = not out.exists()
    try:
        out.mkdir(parents=True, exist_ok=True)
        stage = Path(tempfile.mkdtemp(prefix=".ngc-ref-staging-", dir=out))
    except OSError as exc:
        raise ValueError(f"--out {args.out!r} is not a writable directory: "
                         f"{exc.strerror}") from None
    ctx.out_dir = stage
    started = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    t0 = time.perf_counter()
    committed = False
    try:
        results = run_checks(ctx, only=args.only, progress=not args.no_progress,
                             raise_errors=args.debug)
        meta = {"seed": args.seed, "thorough": args.thorough, "only": args.only,
                "version": versions()["ngc_ref"], "source": source(), "started": started,
                "seconds": round(time.perf_counter() - t0, 1), **versions(), **machine(),
                "data_root": data_root, "skipped": list(ctx.skipped),
                "rerun": f"ngc-ref check --only ID --seed {args.seed}", "families": families}
        if args.thorough:
            meta["scale"] = scale
            meta["store"] = str(Path(".thorough") / "store.jsonl")
        write_report(results, stage, meta, claims)
        commit_report(stage, out)
        committed = True
    except KeyboardInterrupt:
        print("ngc-ref: interrupted; no report was replaced" if not committed else
              "ngc-ref: interrupted after the report was written", file=sys.stderr)
        if store is not None and not committed:
            print(f"ngc-ref: finished cells are in {store}; re-run the same command to resume",
                  file=sys.stderr)
        return 130
    finally:
        shutil.rmtree(stage, ignore_errors=True)
        if created and not committed and not any(out.iterdir()):
            out.rmdir()
    print(format_table(results))
    c = counts(results)
    print(f"\nthe paper's statements as stated: {counts_line(c, 'as-stated')}; extensions and "
          f"corrections: {counts_line(c, 'extension')}; errata: {counts_line(c, 'erratum')}")
    for line in skipped_lines(ctx.skipped):
        print(line)
    errors = [r for r in results if r.verdict == "error"]
    print(f"\nreport: {out / 'report.md'} and {out / 'report.json'}")
    if errors:
        print(f"ngc-ref: {len(errors)} check(s) could not run: "
              + ", ".join(sorted({f'{r.claim} [{r.norm}]' for r in errors})), file=sys.stderr)
        return 1
    return 0


def _families(args):
    """``--family`` values, each resolved and built once (a bad one stops here, exit 2)."""
    from ._graphs import check_family
    if args.family and args.thorough:
        raise ValueError("--family applies to default runs; for large n put the family in a "
                         "sweep config (family = \"package.module:function\")")
    return list(dict.fromkeys(check_family(f, "--family") for f in args.family or ()))


def commit_report(stage, out):
    """Move the report staged in ``stage`` (figures, report.json, report.md) into ``out``.

    Figures move first and report.md last, each by an atomic rename, with SIGINT held off for
    the few milliseconds this takes, so ``out`` never holds a report whose figures come from
    another run. Figures that the previous report listed and this one does not are removed.
    """
    old = set()
    try:
        prev = json.loads((out / "report.json").read_text(encoding="utf-8"))
        old = {f for r in prev.get("results", []) for f in r.get("figures", [])}
    except (OSError, ValueError, AttributeError):
        pass
    figures = sorted(p.name for p in stage.glob("*.png"))
    with sigint_held():
        for name in figures:
            os.replace(stage / name, out / name)
        os.replace(stage / "report.json", out / "report.json")
        os.replace(stage / "report.md", out / "report.md")
        for name in old - set(figures):
            if "/" not in name and name.endswith(".png"):
                (out / name).unlink(missing_ok=True)


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
        print(f"ngc-ref: interrupted; finished cells are in {out}; re-run the same command to "
              "resume", file=sys.stderr)
        return 130
    print(f"{len(records)} cells of task {sweep.task!r} in {out} "
          f"({time.perf_counter() - t0:.1f} s); summary: ngc-ref sweep --summary {out}")
    return 0


def _reproduce(args):
    from .reproduce.run import reproduce
    from .sweep import SweepError

    command = "ngc-ref reproduce " + " ".join(sys.argv[2:]) if sys.argv[1:2] == [
        "reproduce"] else "ngc-ref reproduce"
    try:
        _, meta = reproduce(only=args.only, runs=args.runs, full=args.full, out=args.out,
                            jobs=args.jobs, scheduler=args.scheduler, seed=args.seed,
                            progress=not args.no_progress, scale=args.scale_run,
                            command=command.strip())
    except SweepError as exc:  # pragma: no cover - run_sweep is called with raise_errors=False
        print(f"ngc-ref: error: {exc}", file=sys.stderr)
        return 1
    except KeyboardInterrupt:
        print(f"ngc-ref: interrupted; finished cells are in {Path(args.out) / 'reproduce.jsonl'}"
              "; re-run the same command to resume (no report was replaced)", file=sys.stderr)
        return 130
    print(f"\nreport: {Path(args.out) / 'reproduce.md'} and {Path(args.out) / 'reproduce.json'}")
    if meta["cell_failures"]:
        print(f"ngc-ref: {len(meta['cell_failures'])} cell(s) failed (listed in "
              "reproduce.json meta.cell_failures); re-run to retry them", file=sys.stderr)
        return 1
    return 0


def _reproduce_epilog():
    from .reproduce.targets import NOT_RUN, TARGETS, run_counts
    lines = ["targets for --only (TARGET or TARGET:DATASET; default runs / paper's runs):"]
    for key, t in TARGETS.items():
        runs = run_counts(key)
        lines.append(f"  {key!r}: " + ", ".join(f"{d} {runs[d]}/{t.paper_runs or '-'}"
                                                 for d in t.datasets))
    lines.append("aliases: fig:depth_ngc, fig:depth_rngc = fig:depth; tab:row-normalization = "
                 "'tab:row normalization'")
    lines.append("not run (listed in the output with the reason): " + ", ".join(NOT_RUN))
    lines.append("'scale': the synthetic ogbn-products-size run (same as --scale-run)")
    return "\n".join(lines) + "\n"


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


class _Parser(argparse.ArgumentParser):
    """An ArgumentParser whose epilog may be a function, called only when help is shown (the
    list of claim ids imports every claim module)."""

    def format_help(self):
        if callable(self.epilog):
            self.epilog = self.epilog()
        return super().format_help()


def _ids_epilog():
    from ._core import registry
    import textwrap
    lines = ["claim and statement ids for --only (a claim id runs all its statements):"]
    for c in registry().values():
        lines += textwrap.wrap(", ".join(c.statements), 78, initial_indent="  ",
                               subsequent_indent="      ", break_on_hyphens=False)
    return "\n".join(lines) + "\n"


def build_parser():
    parser = argparse.ArgumentParser(
        prog="ngc-ref",
        description="Reference implementation and theory checker for Neumann Graph Convolution.")
    parser.add_argument("--debug", action="store_true", help="show tracebacks on errors")
    # Each subcommand accepts --debug after its name too; SUPPRESS keeps a --debug given before
    # the subcommand from being reset by the subcommand's default.
    debug = argparse.ArgumentParser(add_help=False)
    debug.add_argument("--debug", action="store_true", default=argparse.SUPPRESS,
                       help="show tracebacks on errors")
    sub = parser.add_subparsers(dest="command", parser_class=_Parser)
    chk = sub.add_parser("check", help="check the paper's claims numerically and write a report",
                         parents=[debug], epilog=_ids_epilog,
                         formatter_class=argparse.RawDescriptionHelpFormatter)
    chk.add_argument("--only", nargs="+", metavar="ID",
                     help="run only these claims or statements (ids listed below)")
    chk.add_argument("--seed", type=int, default=0, help="run seed (default 0)")
    chk.add_argument("--thorough", action="store_true",
                     help="the asymptotic claims at large n (up to 10^5) and more trials, as "
                     "sweep cells kept in OUT/.thorough/ (re-running resumes); about 50 min on "
                     "2 cores")
    chk.add_argument("--out", default="ngc_ref_report",
                     help="output folder (default ngc_ref_report)")
    chk.add_argument("--no-progress", action="store_true",
                     help="no progress bar (--thorough: one line per finished claim)")
    chk.add_argument("-j", "--jobs", type=int, default=None,
                     help="--thorough: local joblib workers (default -1: all cores; 1: "
                     "in-process)")
    chk.add_argument("--scheduler", metavar="tcp://HOST:PORT",
                     help="--thorough: run the cells on this dask.distributed scheduler")
    chk.add_argument("--scale", metavar="FLOAT",
                     help="--thorough: multiply every planned grid's sizes (and, below 1, its "
                     "trial counts) by FLOAT; default $NGC_REF_THOROUGH_SCALE or 1")
    chk.add_argument("--family", action="append", metavar="NAME|MODULE:FUNCTION",
                     help="run the asymptotic claims (assumption-2, noise-vanishing, lemma-1, "
                     "theorem-1's λ = √n half) on this graph family instead of their own: a "
                     "registered name or your function(n, seed) -> adjacency; repeatable")
    chk.add_argument("--dry-run", "--plan", action="store_true", dest="dry_run",
                     help="print each claim's cells and estimated time, and run nothing")
    chk.set_defaults(func=_check)
    swp = sub.add_parser("sweep", parents=[debug],
                         help="run a grid of cells (tau, lemma1, theorem1, node_classification) "
                         "locally or on a Dask cluster; resumable",
                         description="Run the cells of CONFIG (.toml or .json) that are not yet "
                         "in the output file, appending one JSON line per finished cell; "
                         "re-running the same command resumes. --summary OUT.jsonl prints a "
                         "table and writes plots.")
    swp.add_argument("config", nargs="?", metavar="CONFIG", help="sweep config (.toml/.json)")
    swp.add_argument("--out", help="output .jsonl (default: the config's 'out', else "
                     "CONFIG-STEM.jsonl in the current folder)")
    swp.add_argument("-j", "--jobs", type=int, default=-1,
                     help="local joblib workers (default -1: all cores; 1: in-process)")
    swp.add_argument("--scheduler", metavar="tcp://HOST:PORT",
                     help="run on this dask.distributed scheduler instead of local cores")
    swp.add_argument("--summary", metavar="OUT.jsonl", help="summarise a sweep output")
    swp.add_argument("--plots", metavar="DIR", help="folder for the summary plots (default: "
                     "beside OUT.jsonl)")
    swp.add_argument("--no-plots", action="store_true", help="summary table only")
    swp.add_argument("--list-tasks", action="store_true", help="list tasks and their parameters")
    swp.add_argument("--dry-run", action="store_true",
                     help="print the cells and their estimated time, and run nothing")
    swp.add_argument("--no-progress", action="store_true", help="no progress bar")
    swp.set_defaults(func=_sweep)
    rep = sub.add_parser("reproduce", parents=[debug], epilog=_reproduce_epilog,
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
                     help="run only these targets (or TARGET:DATASET); listed below")
    rep.add_argument("--runs", type=int, metavar="N",
                     help="runs per cell for every target (default: the budgeted counts "
                     "below; --full: the paper's)")
    rep.add_argument("--full", action="store_true", help="the paper's run counts (hours)")
    rep.add_argument("--out", default="ngc_ref_reproduce",
                     help="output folder (default ngc_ref_reproduce)")
    rep.add_argument("-j", "--jobs", type=int, default=-1,
                     help="local joblib workers running the cells (default -1: all cores)")
    rep.add_argument("--scheduler", metavar="tcp://HOST:PORT",
                     help="run the cells on this dask.distributed scheduler")
    rep.add_argument("--seed", type=int, default=0, help="sweep seed (default 0)")
    rep.add_argument("--scale-run", action="store_true",
                     help="also time NGC/RNGC on a synthetic graph of ogbn-products' size")
    rep.add_argument("--no-progress", action="store_true", help="no progress bar")
    rep.set_defaults(func=_reproduce)
    dem = sub.add_parser("demo", parents=[debug],
                         help="tau and the truncation error on the Figure 1 graphs")
    dem.add_argument("--lam", type=float, default=64.0, help="lambda (default 64)")
    dem.add_argument("--S", type=int, default=64, help="expansion order S (default 64)")
    dem.add_argument("--norm", choices=("rw", "sym"), default="rw", help="normalisation")
    dem.set_defaults(func=_demo)
    return parser


def main(argv=None):
    parser = build_parser()
    args = parser.parse_args(argv)
    if args.command is None:
        args = parser.parse_args(["demo"] + (["--debug"] if args.debug else []))
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
