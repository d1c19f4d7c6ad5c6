"""Run a directory of real custom operators (not ours) on the simulator: evaluated with our
specs, built alone, or read by the acceptance check."""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

from ascend_core.protocol import DEFAULT_BACKEND
from ascend_gym.commands.common import UsageError, add_soc


def configure(parser: argparse.ArgumentParser) -> None:
    sub = parser.add_subparsers(dest="corpus_command", required=True)
    run = sub.add_parser(
        "run", help="evaluate every custom-op directory under SRC_DIR and print the table"
    )
    build = sub.add_parser(
        "compile",
        help="build every custom-op directory under SRC_DIR (the tiling program and the kernel, "
        "through the daemon's acceptance check), with our spec where there is one and otherwise "
        "the arguments its OpDef declares; prints the compile rate and the causes",
    )
    check = sub.add_parser(
        "check",
        help="the daemon's acceptance check alone on every custom-op directory under SRC_DIR "
        "(every unit preprocessed and read as the build does, nothing compiled or run); prints "
        "the acceptance rate and every rejection",
    )
    for parser_, verb in ((run, "evaluated"), (build, "built"), (check, "checked")):
        parser_.add_argument("src", type=Path, metavar="SRC_DIR")
        parser_.add_argument(
            "--json-out", type=Path, metavar="FILE", help="write every operator's outcome here"
        )
        parser_.add_argument("--jobs", type=int, default=1, help=f"operators {verb} in parallel")
        add_soc(parser_)
        parser_.add_argument("--quiet", action="store_true", help="no line per operator")
    for parser_ in (run, build):
        parser_.add_argument(
            "--any-soc",
            action="store_true",
            help="also try operators whose OpDef registers only SoCs without the A2 AI core",
        )
        parser_.add_argument(
            "--backend",
            choices=("sim", "sim-guest"),
            default=DEFAULT_BACKEND,
            help="the simulator engine: native (sim) or the kernel as a metered guest "
            "(sim-guest, docs/trust_boundary.md)",
        )
    for parser_ in (run, build, check):
        parser_.add_argument(
            "--include-dir",
            action="append",
            default=[],
            metavar="DIR",
            help="an include directory the repository's build files do not give (a path from the "
            "repository's root; repeatable), searched after theirs",
        )
        parser_.add_argument(
            "--op",
            action="append",
            default=[],
            metavar="NAME",
            help="only this operator (its name, or its directory relative to SRC_DIR; "
            "repeatable): part of a repository, with the include roots of the whole checkout",
        )


def run(args: argparse.Namespace) -> int:
    from ascend_gym.corpus import runner

    if not args.src.is_dir():
        print(f"ascend-gym corpus: {args.src} is not a directory", file=sys.stderr)
        return 2

    def progress(o: runner.OpOutcome) -> None:
        if not args.quiet and o.tried:
            detail = f"  {o.message.splitlines()[0][:200]}" if o.message else ""
            print(f"{o.status:<14} {o.path}{detail}", flush=True)

    checking, compiling = args.corpus_command == "check", args.corpus_command == "compile"
    outcomes = runner.run(
        args.src,
        jobs=args.jobs,
        soc=args.soc,
        progress=progress,
        any_soc=getattr(args, "any_soc", False),
        accept_only=checking,
        include_dirs=args.include_dir,
        backend=getattr(args, "backend", DEFAULT_BACKEND),
        only=args.op,
        compile_only=compiling,
    )
    if not outcomes and args.op:
        raise UsageError(f"no custom-op directory under {args.src} is {', '.join(args.op)}")
    if not outcomes:
        raise UsageError(f"no custom-op directory (op_host/ and op_kernel/) under {args.src}")
    table = runner.acceptance if checking else runner.compilation if compiling else runner.summary
    print(table(outcomes))
    if args.json_out:
        args.json_out.parent.mkdir(parents=True, exist_ok=True)
        args.json_out.write_text(json.dumps([o.model_dump() for o in outcomes], indent=1))
    if why := runner.none_tried(outcomes):
        print(f"ascend-gym corpus: {why}", file=sys.stderr)
        return 1
    return 0
