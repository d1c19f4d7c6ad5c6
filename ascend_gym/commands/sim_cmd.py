"""Simulator tools: `calibrate` times the HARDWARE.md calibration anchors with the sim backend and
prints simulated vs measured Task Duration (simulated numbers, labelled as such)."""

from __future__ import annotations

import argparse


def configure(parser: argparse.ArgumentParser) -> None:
    verbs = parser.add_subparsers(dest="sim_command", required=True)
    cal = verbs.add_parser("calibrate", help="simulated vs measured for the calibration anchors")
    cal.add_argument("--soc", default="Ascend910B2", help="SoC preset (anchors were measured on 48-AIV parts)")
    cal.add_argument("--anchors", default="A1,A2", help="comma-separated anchors (A1, A2)")
    cal.add_argument("--skip", default="", help="comma-separated case names to leave out (e.g. case0_scalar_1core)")


def run(args: argparse.Namespace) -> int:
    from npu_daemon.backends.sim.calibration import anchors

    names = [a.strip() for a in args.anchors.split(",") if a.strip()]
    unknown = [n for n in names if n not in anchors.ANCHORS]
    if unknown:
        print(f"unknown anchors {unknown}; known: {sorted(anchors.ANCHORS)}")
        return 2
    rows = anchors.calibrate(names, args.soc, {s for s in args.skip.split(",") if s})
    print(f"| anchor | case | simulated us ({args.soc}) | measured us | error | within |")
    print("|---|---|---|---|---|---|")
    worst = 0.0
    for r in rows:
        ok = abs(r.error) <= anchors.ANCHORS[r.anchor].tolerance
        worst = max(worst, abs(r.error))
        print(f"| {r.anchor} | {r.case} | {r.simulated_us:,.2f} | {r.measured_us:,.2f} | {r.error:+.1%} | {'yes' if ok else 'NO'} |")
    print(f"\nworst error {worst:.1%}; ladder order preserved: {'yes' if anchors.ladder_ok(rows) else 'NO'}")
    return 0
