"""Where a comparison left its headroom: the baselines no search improved, by what bounds them.

    python benchmarks/headroom.py OUT [--jobs 2]

OUT holds the benches of `benchmarks/real_comparison.sh` (`full` and, where present, the others).
An operator counts as unimproved when no task of any bench beat its baseline by 2 %. Each such
baseline is evaluated again (compile, check, time at the main bench's SoC and timing protocol,
through the daemon's evaluation in process) and put in one class by its profile: `launch head`
when the head is half its Task Duration or more, else the pipe with the largest share of the
vector cores' time (scalar, vec, mte2, mte3), else `cube`. Prints a Markdown table: per class
the operators, their summed baseline time and the slowest three. The figures are simulated.
"""

from __future__ import annotations

import argparse
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from ascend_core import suite
from ascend_core.protocol import EvalRequest, EvalResult, Stage
from ascend_gym import metrics, report
from ascend_gym.records import SweepConfig
from npu_daemon import evaluation
from npu_daemon.backends.sim import SimBackend

IMPROVED = 1.02  # a best at least this much faster than its baseline counts as found
BENCHES = ("full", "bon-n5", "stage1-only", "stage2-only")
PIPES = ("scalar", "vec", "mte2", "mte3")


def unimproved(out: Path) -> tuple[list[str], SweepConfig]:
    """The operators no task of any bench in `out` improved, and the main bench's config."""
    loaded = {b: report.load(out / b) for b in BENCHES if (out / b / report.RESULTS).is_file()}
    config = loaded["full"][0]
    best = metrics.best_speedups(r for _, records in loaded.values() for r in records)
    ops = [op for op in config.ops if best.get(op, 1.0) < IMPROVED]
    return ops, config


def baseline(uri: str, config: SweepConfig) -> EvalResult:
    request = EvalRequest(
        run_id="headroom",
        package=suite.resolve(uri),
        stages=[Stage.COMPILE, Stage.CHECK, Stage.TIME],
        soc=config.soc,
        timing=config.timing,
        timing_protocol=config.timing_protocol,
    )
    return evaluation.evaluate_alone(SimBackend(), request)


def bound(result: EvalResult) -> str:
    """What bounds the baseline: its launch head, else its busiest vector-core pipe, else the cube."""
    p = result.profile
    extra = p.model_extra or {}
    if extra.get("head_us", 0.0) >= 0.5 * extra.get("task_duration_us", float("inf")):
        return "launch head"
    share, pipe = max((getattr(p, f"aiv_{pipe}_ratio"), pipe) for pipe in PIPES)
    return pipe if share > 0 else "cube"


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("out", type=Path, help="the comparison's directory (its `full` bench)")
    parser.add_argument("--jobs", type=int, default=2, help="baselines evaluated at a time")
    args = parser.parse_args()
    if not (args.out / "full" / report.RESULTS).is_file():
        print(
            f"no {report.RESULTS} in {args.out / 'full'}: give the comparison's OUT",
            file=sys.stderr,
        )
        return 2
    ops, config = unimproved(args.out)
    with ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        results = dict(zip(ops, pool.map(lambda op: baseline(op, config), ops)))
    failed = [op for op, r in results.items() if not r.ok]
    classes: dict[str, list[tuple[float, str]]] = {}
    for op, r in results.items():
        if r.ok:
            classes.setdefault(bound(r), []).append((r.latency_us, op.rsplit("/", 2)[-1]))
    print(
        f"{len(ops)} of {len(config.ops)} operators unimproved "
        f"(simulated, {config.soc}, {config.timing_protocol} protocol)"
    )
    print("| bound | operators | summed baseline (us) | slowest |\n|---|---|---|---|")
    for name, rows in sorted(classes.items(), key=lambda kv: -sum(us for us, _ in kv[1])):
        slowest = ", ".join(f"{op} {us:,.1f}" for us, op in sorted(rows, reverse=True)[:3])
        print(f"| {name} | {len(rows)} | {sum(us for us, _ in rows):,.1f} | {slowest} |")
    for op in failed:
        print(f"{op}: {results[op].status.value}: {results[op].message.splitlines()[0]}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
