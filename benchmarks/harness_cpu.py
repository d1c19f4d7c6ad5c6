"""CPU per fresh evaluation in this process, split into the harness runs and the rest.

    python benchmarks/harness_cpu.py [--n 20] [--op level1/add]

The sim backend evaluates the op in this process (no daemon, no sandbox user: the harness and the
Python around it alone), seeds 0..n-1, compile found in the build cache; run a version's daemon
benchmark (`fresh_cpu.py --cases-cached`) first so that every seed's case data is cached too.
`harness`: user + sys of the commands `sandbox.run` waited for (the harness's processes);
`python`: this process's own; and the harness's minor page faults (a count: load-proof). Only interfaces older commits share are used, so the same script
compares two commits: run it with each on PYTHONPATH, from that commit's tree.
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import tempfile
from pathlib import Path

from ascend_core.package import load_package
from ascend_core.protocol import EvalRequest, Stage, Status
from npu_daemon import sandbox
from npu_daemon.backends.sim import SimBackend


def cpu_s(who: int) -> float:
    r = resource.getrusage(who)
    return r.ru_utime + r.ru_stime


def minor_faults() -> int:
    return resource.getrusage(resource.RUSAGE_CHILDREN).ru_minflt


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--n", type=int, default=20)
    ap.add_argument("--op", default="level1/add")
    args = ap.parse_args()
    # The suite of the tree on PYTHONPATH: the op as that commit defines it.
    suite = Path(os.environ.get("PYTHONPATH", Path(__file__).resolve().parents[1]))
    pkg = load_package(suite / "ascend_core" / "suite" / args.op)
    backend = SimBackend()
    backend.prepare()
    harness = {"s": 0.0, "runs": 0, "faults": 0}
    run = sandbox.run

    def counted(*a, **kw):
        before, faults = cpu_s(resource.RUSAGE_CHILDREN), minor_faults()
        done = run(*a, **kw)
        harness["s"] += cpu_s(resource.RUSAGE_CHILDREN) - before
        harness["faults"] += minor_faults() - faults
        harness["runs"] += 1
        return done

    sandbox.run = counted  # the backend calls it through the module

    def evaluate(seed: int) -> None:
        stages = [Stage.COMPILE, Stage.CHECK, Stage.TIME]
        with tempfile.TemporaryDirectory() as work:
            request = EvalRequest(run_id="cpu", package=pkg, stages=stages, seed=seed)
            result = backend.evaluate(request, Path(work))
            assert result.status is Status.OK, result.message

    evaluate(10**6)  # built, warmed
    harness.update(s=0.0, runs=0, faults=0)
    own_0 = cpu_s(resource.RUSAGE_SELF)
    for seed in range(args.n):
        evaluate(seed)
    own_s = cpu_s(resource.RUSAGE_SELF) - own_0
    print(
        json.dumps(
            {
                "op": args.op,
                "n": args.n,
                "commands_per_eval": harness["runs"] / args.n,
                "harness_cpu_s_per_eval": round(harness["s"] / args.n, 4),
                "python_cpu_s_per_eval": round(own_s / args.n, 4),
                "harness_minor_faults_per_eval": harness["faults"] // args.n,
                "load_average": os.getloadavg(),
            }
        )
    )


if __name__ == "__main__":
    main()
