"""The ``ngc-ref`` command: ``check`` (the theory checker), ``sweep`` (parameter grids) and
``demo`` (Figure 1 graphs)."""

from __future__ import annotations

import argparse
import datetime
import os
import platform
import sys
import time
from pathlib import Path


def _check(args):
    import ngc_ref

    from . import Context, run_checks
    from .report import format_table, write_report

    out = Path(args.out)
    try:
        out.mkdir(parents=True, exist_ok=True)
        probe = out / ".ngc_ref_write_test"
        probe.write_text("")
        probe.unlink()
    except OSError as exc:
        raise ValueError(f"--out {args.out!r} is not a writable directory: "
                         f"{exc.strerror}") from None
    data_root = os.environ.get("NGC_REF_DATA")
    ctx = Context(seed=args.seed, thorough=args.thorough, out_dir=out,
                  data_root=Path(data_root) if data_root else None)
    started = datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds")
    t0 = time.perf_counter()
    results = run_checks(ctx, only=args.only, progress=not args.no_progress)
    import numpy
    import scipy
    meta = {"seed": args.seed, "thorough": args.thorough, "only": args.only,
            "version": ngc_ref.__version__, "started": started,
            "seconds": round(time.perf_counter() - t0, 1),
            "python": platform.python_version(), "numpy": numpy.__version__,
            "scipy": scipy.__version__, "machine": platform.machine(),
            "cpus": os.cpu_count(),
            "data_root": data_root, "rerun": f"ngc-ref check --only ID --seed {args.seed}"}
    write_report(results, out, meta)
    print(format_table(results))
    print(f"\nreport: {out / 'report.md'} and {out / 'report.json'}")
    return 0


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


def _demo(args):
    from ngc_ref.cli import demo
    demo(args.lam, args.S, args.norm)
    return 0


def build_parser():
    parser = argparse.ArgumentParser(
        prog="ngc-ref",
        description="Reference implementation and theory checker for Neumann Graph Convolution.")
    parser.add_argument("--debug", action="store_true", help="show tracebacks on errors")
    sub = parser.add_subparsers(dest="command")
    chk = sub.add_parser("check", help="check the paper's claims numerically and write a report")
    chk.add_argument("--only", nargs="+", metavar="ID", help="run only these claim ids")
    chk.add_argument("--seed", type=int, default=0, help="run seed (default 0)")
    chk.add_argument("--thorough", action="store_true", help="larger n and more trials")
    chk.add_argument("--out", default="ngc_ref_report",
                     help="output folder (default ngc_ref_report)")
    chk.add_argument("--no-progress", action="store_true", help="no progress bar")
    chk.add_argument("--debug", action="store_true", help="show tracebacks on errors")
    chk.set_defaults(func=_check)
    swp = sub.add_parser("sweep", help="run a grid of cells (tau, lemma1, theorem1, "
                         "node_classification) locally or on a Dask cluster; resumable",
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
    swp.add_argument("--no-progress", action="store_true", help="no progress bar")
    swp.add_argument("--debug", action="store_true", help="show tracebacks on errors")
    swp.set_defaults(func=_sweep)
    demo = sub.add_parser("demo", help="tau and the truncation error on the Figure 1 graphs")
    demo.add_argument("--lam", type=float, default=64.0, help="lambda (default 64)")
    demo.add_argument("--S", type=int, default=64, help="expansion order S (default 64)")
    demo.add_argument("--norm", choices=("rw", "sym"), default="rw", help="normalisation")
    demo.add_argument("--debug", action="store_true", help="show tracebacks on errors")
    demo.set_defaults(func=_demo)
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
