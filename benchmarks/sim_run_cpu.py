"""CPU seconds of a suite op's evaluation: less at the mercy of a shared machine than wall clock.

    python benchmarks/sim_run_cpu.py [--op level1/add] [--repeats 6] [--backend sim-guest]

Evaluates the op's bench case (stages compile + time) `--repeats` times in this process and
reports, over all but the first (which builds and caches), the median and min of the wall-clock
run and of the CPU seconds (user + sys) of the processes each evaluation started
(`getrusage(RUSAGE_CHILDREN)`, which counts a process once it is waited for). Two trees compared
interleaved (A B A B, each with its own ASCEND_GYM_CACHE) show a cost that wall clock at a load of
10 or more does not (docs/simulator.md, the race checker's same-value rule).
"""

from __future__ import annotations

import argparse
import os
import resource
import statistics
import tempfile
from pathlib import Path

from ascend_core.protocol import EvalRequest, Stage, Status
from ascend_core.suite import resolve
from npu_daemon.backends.base import get_backend


def children_cpu() -> float:
    r = resource.getrusage(resource.RUSAGE_CHILDREN)
    return r.ru_utime + r.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--op", default="level1/add")
    ap.add_argument("--repeats", type=int, default=6)
    ap.add_argument("--backend", default="sim-guest", choices=("sim", "sim-guest"))
    args = ap.parse_args()
    backend = get_backend(args.backend)
    backend.prepare()
    pkg = resolve(args.op)
    runs, cpus = [], []
    for i in range(args.repeats):
        req = EvalRequest(package=pkg, stages=[Stage.COMPILE, Stage.TIME], seed=0)
        before = children_cpu()
        with tempfile.TemporaryDirectory() as d:
            r = backend.evaluate(req, Path(d))
        assert r.status is Status.OK, r.message
        if i > 0:
            runs.append(r.cost.run_s)
            cpus.append(children_cpu() - before)
    print(
        f"{args.op} on {args.backend}, {len(runs)} evaluations: run median {statistics.median(runs):.3f} s "
        f"min {min(runs):.3f} s; children CPU median {statistics.median(cpus):.3f} s min {min(cpus):.3f} s; "
        f"load average {os.getloadavg()[0]:.2f}"
    )


if __name__ == "__main__":
    main()
