"""Compile, check and time one operator package and print the EvalResult."""

from __future__ import annotations

import argparse

from ascend_gym import suite
from ascend_gym.client import DaemonClient, LocalDaemon
from ascend_gym.package import load_package
from ascend_gym.protocol import DEFAULT_SOC, EvalRequest


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("operator", help="package directory, op:// URI or <level>/<name>")
    parser.add_argument("--spec", help="op.toml kept outside the package directory")
    parser.add_argument("--soc", default=DEFAULT_SOC)
    parser.add_argument(
        "--case", action="append", help="correctness case to run (repeatable; default all)"
    )
    parser.add_argument(
        "--daemon", help="daemon endpoint (default: an embedded local simulator daemon)"
    )
    parser.add_argument("--json", action="store_true", help="print the full result as JSON")


def run(args: argparse.Namespace) -> int:
    package = (
        load_package(args.operator, spec_file=args.spec)
        if args.spec
        else suite.resolve(args.operator)
    )
    request = EvalRequest(run_id="cli-eval", package=package, soc=args.soc, cases=args.case)
    local = None if args.daemon else LocalDaemon()
    try:
        result = DaemonClient(args.daemon or local.address).evaluate(request)
    finally:
        if local is not None:
            local.close()
    if args.json:
        print(result.model_dump_json(indent=2))
    else:
        label = "simulated" if result.simulated else "measured"
        print(
            f"{package.uri}: {result.status.value}"
            + (
                f"  {result.latency_us:.2f} us ({label}, {result.soc})"
                if result.latency_us is not None
                else ""
            )
        )
        if result.message:
            print(result.message)
        for case in result.cases:
            error = "" if case.max_abs_error is None else f" max_abs_error={case.max_abs_error:g}"
            print(f"  case {case.name}: {'pass' if case.passed else 'FAIL'}{error}")
    return 0 if result.ok else 1
