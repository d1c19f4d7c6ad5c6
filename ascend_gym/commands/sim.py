"""Simulator tools: `calibrate` times the docs/ascendc.md calibration anchors with either sim engine and
prints simulated vs measured for each case (simulated numbers, labelled as such): Task Durations
for A1/A2, ratios to the base case for A3/A4 (measured there in cycles of one loop), and for the
cube anchors C1-C6 Task Duration, the largest per-core aic_time or the cube's busy ratio (aic_mac_ratio);
beside each anchor, the cost constants fitted to it with their values (docs/performance_model.md).
`coverage` prints the documented AscendC API by family, documented / emulated / tested, read from
our headers and test kernels (ascend_gym/sim_coverage.py)."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from ascend_core.protocol import TIMING_PROTOCOLS

if TYPE_CHECKING:
    from npu_daemon.backends.sim.calibration.anchors import Row

# A1's cases 3->4 and 5->6 are 1.7% apart on hardware; the model resolves them as ties (both are
# at the HBM roof), so the ladder is also reported for rungs further apart than this.
LADDER_STEP = 0.05


def configure(parser: argparse.ArgumentParser) -> None:
    verbs = parser.add_subparsers(dest="sim_command", required=True)
    cov = verbs.add_parser(
        "coverage",
        help="the documented AscendC API by family: documented / emulated by our headers / tested",
    )
    cov.add_argument("--json", action="store_true", help="every API with its flags, as JSON")
    cov.add_argument(
        "--missing", action="store_true", help="also list the documented APIs not emulated"
    )
    cal = verbs.add_parser("calibrate", help="simulated vs measured for the calibration anchors")
    cal.add_argument(
        "--soc", default="Ascend910B2", help="SoC preset (anchors were measured on 48-AIV parts)"
    )
    cal.add_argument(
        "--anchors",
        default="A1,A2,A3,A4,L1,P1,S1,S2,H1",
        help="comma-separated anchors (A1-A4 vector; L1 a repeated launch's head, H1 a first "
        "launch's; P1 L2-hit streaming; S1, S2 the scalar unit; M1 MrgSort; C1-C6 cube, "
        "each timed on the part it was measured on; C1 and C4 run 86 G multiply-adds on the CPU, "
        "minutes each)",
    )
    cal.add_argument(
        "--backend",
        choices=("sim", "sim-guest"),
        default="sim",
        help="the engine: native (sim) or the metered guest (sim-guest), each charging the "
        "kernel's own scalar work in its unit (docs/performance_model.md, The scalar unit)",
    )
    cal.add_argument(
        "--protocol",
        choices=TIMING_PROTOCOLS,
        help="time every anchor under this timing protocol instead of its measurement's "
        "(docs/performance_model.md, Timing protocol)",
    )
    cal.add_argument(
        "--skip",
        default="",
        help="comma-separated case names to leave out (e.g. case0_scalar_1core)",
    )
    cal.add_argument(
        "--cases",
        default="",
        help="comma-separated case names: time only these (ratio anchors add their base)",
    )
    cal.add_argument(
        "--pipes",
        action="store_true",
        help="also print per-pipe busy times (simulated / measured) where the anchor publishes them (A1)",
    )


def _split(text: str) -> set[str]:
    return {s.strip() for s in text.split(",") if s.strip()}


def run(args: argparse.Namespace) -> int:
    if args.sim_command == "coverage":
        return _coverage(args)
    from npu_daemon.backends.sim.calibration import anchors

    names = [a.strip() for a in args.anchors.split(",") if a.strip()]
    unknown = [n for n in names if n not in anchors.ANCHORS]
    if unknown:
        print(f"unknown anchors {unknown}; known: {sorted(anchors.ANCHORS)}", file=sys.stderr)
        return 2
    rows = anchors.calibrate(
        names, args.soc, _split(args.skip), _split(args.cases), args.protocol, args.backend
    )
    model = anchors.model_constants()
    print(
        f"| anchor | case | protocol | simulated ({args.backend}, {args.soc} unless named; A3/A4 aiv_vec_time) | measured "
        "| simulated ratio | measured ratio | error | within | constants fitted to it |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    worst = 0.0
    for r in rows:
        anchor = anchors.ANCHORS[r.anchor]
        ok = abs(r.error) <= anchor.tolerance
        worst = max(worst, abs(r.error))
        ratios = (
            ("-", "-")
            if r.simulated_ratio is None
            else (f"{r.simulated_ratio:.3f}", f"{r.measured_ratio:.3f}")
        )
        band = f"+-{anchor.tolerance:.0%}"
        print(
            f"| {r.anchor} | {r.case} | {args.protocol or anchor.protocol} | {r.simulated_us:,.2f}{f' ({anchor.soc})' if anchor.soc else ''} "
            f"| {r.measured:,.2f} {anchor.unit} | {ratios[0]} | {ratios[1]} "
            f"| {r.error:+.1%} | {'yes' if ok else 'NO'} ({band}) "
            f"| {', '.join(f'{c} = {model[c]}' for c in anchor.fits) or '-'} |"
        )
    steps = "yes" if anchors.ladder_ok(rows, LADDER_STEP) else "NO"
    print(
        f"\nworst error {worst:.1%}; ladder order preserved: {'yes' if anchors.ladder_ok(rows) else 'NO'} "
        f"(rungs measured more than {LADDER_STEP:.0%} apart: {steps})"
    )
    if args.pipes:
        _print_pipes(rows)
    return 0


def _coverage(args: argparse.Namespace) -> int:
    import json

    from ascend_gym import sim_coverage

    apis = sim_coverage.measure()
    families = sim_coverage.by_family(apis)
    if args.json:
        print(json.dumps([a.model_dump() for a in apis], ensure_ascii=False, indent=1))
        return 0
    print(sim_coverage.table(families))
    if args.missing:
        for f in families:
            if f.missing:
                print(f"\nnot emulated, {f.family}: {', '.join(f.missing)}")
    return 0


def _print_pipes(rows: list[Row]) -> None:
    from npu_daemon.backends.sim.calibration import anchors

    print(
        f"\n| anchor | case | {' | '.join(f.removesuffix('_us') + ' us, simulated / measured' for f in anchors.PIPES)} |"
    )
    print("|---|---|" + "---|" * len(anchors.PIPES))
    for r in rows:
        measured = dict(anchors.ANCHORS[r.anchor].pipes).get(r.case)
        if measured:
            cells = " | ".join(f"{sim:,.2f} / {m:,.2f}" for sim, m in zip(r.pipes, measured))
            print(f"| {r.anchor} | {r.case} | {cells} |")
