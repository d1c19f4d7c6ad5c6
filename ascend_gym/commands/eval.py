"""Compile, check and time one operator package and print the EvalResult.

Exit status 0 when the candidate passes every case, 1 when it fails (compile error, wrong
answer, ...), 2 on a usage error or when no daemon answers.
"""

from __future__ import annotations

import argparse
import uuid

from ascend_core.protocol import MAX_TIMEOUT_S, EvalRequest, Timeouts
from ascend_gym.commands.common import (
    add_daemon,
    add_json,
    add_soc,
    add_timing,
    check_cases,
    daemon_client,
    load_operator,
)


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("operator", help="package directory, op:// URI or <level>/<name>")
    parser.add_argument("--spec", help="op.toml kept outside the package directory")
    add_soc(parser)
    parser.add_argument(
        "--case",
        action="append",
        help="correctness case to run, by its name in op.toml (repeatable; default all)",
    )
    add_timing(parser)
    parser.add_argument(
        "--run-timeout",
        type=_run_timeout,
        default=Timeouts().run_s,
        metavar="S",
        help="seconds each case's run may take, at most 600 (default %(default)g; a "
        "benchmark-sized bench case, gigabytes per tensor, takes minutes)",
    )
    add_daemon(parser)
    add_json(parser, "the full EvalResult")


def _run_timeout(text: str) -> float:
    seconds = float(text)
    if not 0 < seconds <= MAX_TIMEOUT_S:
        raise argparse.ArgumentTypeError(f"must be in (0, {MAX_TIMEOUT_S:g}] seconds, got {text}")
    return seconds


def run(args: argparse.Namespace) -> int:
    package = load_operator(args.operator, spec_file=args.spec)
    check_cases(package, args.case)
    request = EvalRequest(
        run_id=f"cli-eval-{uuid.uuid4().hex[:12]}",
        package=package,
        soc=args.soc,
        cases=args.case,
        timing=args.timing,
        timing_protocol=args.timing_protocol,
        timeouts=Timeouts(run_s=args.run_timeout),
    )
    with daemon_client(args.daemon) as client:
        client.open_run(request.run_id, 1)
        result = client.evaluate(request)
    if args.json:
        print(result.model_dump_json(indent=2))
    else:
        label = "simulated" if result.simulated else "measured"
        if result.profile is not None and result.profile.timing == "sampled":
            label += (
                f", sampled: {result.profile.blocks_simulated} blocks ran,"
                " bench case checked on their outputs"
            )
        if result.profile is not None and result.profile.sampled_unchecked:
            label += f", {result.profile.sampled_unchecked}"
        print(
            f"{package.uri}: {result.status.value}"
            + (
                f"  {result.latency_us:.2f} us ({label}, {result.soc}, {args.timing_protocol})"
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
