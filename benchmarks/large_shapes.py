"""Time a suite operator at a benchmark-sized shape (sampled timing), with its memory and wall time.

    python benchmarks/large_shapes.py level1/relu x=4096,393216
    python benchmarks/large_shapes.py level2/reduce_sum_last x=128,4096,4095 y=128,4096,1

The operator's bench case gets the given shapes (other tensors keep theirs) and is timed alone,
timing-only and sampled (EvalRequest.timing = "sampled"): inputs are generated chunk by chunk into
the case cache, GM is mapped lazily, no reference or output is produced. Prints the simulated
latency, the blocks simulated, the wall time of input generation and of the evaluation, and the
peak resident memory of this process and of its largest child (the harness). Run one at a time.
"""

from __future__ import annotations

import argparse
import os
import resource
import sys
import tempfile
import time
from pathlib import Path

from ascend_core.package import load_package
from ascend_core.protocol import EvalRequest, Stage, Timeouts
from npu_daemon.backends.sim import SimBackend, case_data

SUITE = Path(__file__).resolve().parents[1] / "ascend_core" / "suite"


def shape_arg(text: str) -> tuple[str, list[int]]:
    name, _, dims = text.partition("=")
    try:
        return name, [int(d) for d in dims.split(",")]
    except ValueError:
        raise argparse.ArgumentTypeError(f"expected NAME=D0,D1,..., got {text!r}") from None


def gib(kib: int) -> str:
    return f"{kib / 2**20:.2f} GiB"


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("op", help="suite operator, e.g. level1/relu")
    ap.add_argument("shapes", nargs="+", type=shape_arg, help="NAME=D0,D1,... per tensor")
    args = ap.parse_args()
    if not (SUITE / args.op / "op.toml").exists():
        print(f"no suite operator {args.op}", file=sys.stderr)
        sys.exit(2)
    pkg = load_package(SUITE / args.op)
    bench = pkg.spec.bench_case
    bench = bench.model_copy(update={"shapes": {**bench.shapes, **dict(args.shapes)}})
    pkg = pkg.model_copy(update={"spec": pkg.spec.model_copy(update={"cases": [bench]})})
    print(f"{args.op} {bench.name} {bench.shapes}; load average {os.getloadavg()[0]:.2f}")

    backend = SimBackend()
    backend.prepare()
    t0 = time.monotonic()
    with case_data.case_data(pkg, bench, 0):  # the inputs, generated chunk by chunk (cached)
        pass
    generated = time.monotonic() - t0
    request = EvalRequest(
        package=pkg,
        stages=[Stage.COMPILE, Stage.TIME],
        cases=[],
        timing="sampled",
        timeouts=Timeouts(run_s=600),
    )
    t1 = time.monotonic()
    with tempfile.TemporaryDirectory() as d:
        result = backend.evaluate(request, Path(d))
    wall = time.monotonic() - t1
    print(f"status {result.status.value} {result.message[:300]}")
    if result.profile is not None:
        p = result.profile
        print(
            f"latency {result.latency_us:.1f} us (simulated), block dim {p.block_dim}, timing "
            f"{p.timing}, blocks simulated {p.blocks_simulated}"
        )
    print(
        f"inputs generated in {generated:.1f} s; evaluation {wall:.1f} s (compile "
        f"{result.cost.compile_s:.1f} s, run {result.cost.run_s:.1f} s)"
    )
    print(
        f"peak RSS: this process {gib(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)}, "
        f"largest child {gib(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss)}; "
        f"load average {os.getloadavg()[0]:.2f}"
    )


if __name__ == "__main__":
    main()
