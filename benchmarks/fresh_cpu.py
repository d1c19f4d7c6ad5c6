"""CPU time per fresh evaluation: what the daemon, its worker and every command they ran spent.

    python benchmarks/fresh_cpu.py [--n 30] [--op level1/add] [--cases-cached] [--daemon-args ARGS]

CPU seconds (user + sys) do not grow with the machine's load the way wall time does, so two
versions can be compared on a busy machine: run this script once with each on PYTHONPATH (the
embedded daemon it starts is the one on PYTHONPATH). A local daemon (1 worker) builds the
operator once, then gets `--n` evaluations with distinct seeds (no cache hit; artefacts already
built), each compiling (found in the build cache), checking every case and timing the bench case:
case data, the harness runs, the reference, the checker and the daemon's own work. Counted: the
daemon process and its live descendants (utime + stime), plus what each of them spent in the
children it waited for (cutime + cstime: the compiler and harness runs), before and after; and
this client process apart. With `--cases-cached`, a first daemon (not counted) evaluates the same
seeds, so the counted daemon (its own state dir: no run-cache hit) finds every case's inputs and
reference in the case data cache (both daemons draw cases with one `--case-secret`): the
evaluation without case generation. `--daemon-args` go to both daemons (e.g. "--sandbox-uid 0": a root daemon without its sandbox user).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import tempfile
import time
from pathlib import Path

from ascend_core.package import load_package
from ascend_core.protocol import EvalRequest, Stage, Status
from ascend_gym.client import DaemonClient, LocalDaemon

SUITE = Path(__file__).resolve().parents[1] / "ascend_core" / "suite"
TICK = os.sysconf("SC_CLK_TCK")


def _descendants(pid: int) -> list[int]:
    found, stack = [], [pid]
    while stack:
        p = stack.pop()
        found.append(p)
        try:
            tasks = os.listdir(f"/proc/{p}/task")
        except FileNotFoundError:
            continue
        for tid in tasks:
            try:
                stack += [
                    int(c) for c in Path(f"/proc/{p}/task/{tid}/children").read_text().split()
                ]
            except FileNotFoundError:
                continue
    return found


def tree_cpu_s(pid: int) -> float:
    """utime + stime + cutime + cstime of `pid` and its live descendants."""
    total = 0
    for p in _descendants(pid):
        try:
            fields = Path(f"/proc/{p}/stat").read_text().rsplit(")", 1)[1].split()
        except FileNotFoundError:
            continue
        total += sum(int(f) for f in fields[11:15])  # utime stime cutime cstime
    return total / TICK


def client_cpu_s() -> float:
    r = resource.getrusage(resource.RUSAGE_SELF)
    return r.ru_utime + r.ru_stime


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--n", type=int, default=30)
    ap.add_argument("--op", default="level1/add")
    ap.add_argument("--cases-cached", action="store_true")
    ap.add_argument("--daemon-args", default="", help="npu_daemon options for both daemons")
    args = ap.parse_args()
    pkg = load_package(SUITE / args.op)
    # One case secret for both daemons: the counted one finds the cases the first one drew.
    extra = [*args.daemon_args.split(), "--case-secret", os.urandom(16).hex()]
    stages = [Stage.COMPILE, Stage.CHECK, Stage.TIME]
    if (
        args.cases_cached
    ):  # generate every seed's case data, in a daemon whose run cache is then dropped
        with (
            tempfile.TemporaryDirectory() as state,
            LocalDaemon(workers=1, state_dir=state, extra_args=extra) as d,
        ):
            client = DaemonClient(d.address)
            for seed in range(args.n):
                r = client.evaluate(
                    EvalRequest(run_id="cpu", package=pkg, stages=stages, seed=seed)
                )
                assert r.status is Status.OK, r.message
            client.close()
    with (
        tempfile.TemporaryDirectory() as state,
        LocalDaemon(workers=1, state_dir=state, extra_args=extra) as daemon,
    ):
        client = DaemonClient(daemon.address)
        warm = client.evaluate(EvalRequest(run_id="cpu", package=pkg, stages=stages, seed=10**6))
        assert warm.status is Status.OK, warm.message
        pid = daemon.process.pid
        daemon_0, client_0, wall_0 = tree_cpu_s(pid), client_cpu_s(), time.monotonic()
        worker_s, compile_s, run_s = [], [], []
        for seed in range(args.n):
            r = client.evaluate(EvalRequest(run_id="cpu", package=pkg, stages=stages, seed=seed))
            assert r.status is Status.OK and r.cost.cache_source == "none", r.message
            worker_s.append(r.cost.worker_s)
            compile_s.append(r.cost.compile_s)
            run_s.append(r.cost.run_s)
        daemon_s, client_s = tree_cpu_s(pid) - daemon_0, client_cpu_s() - client_0
        wall_s = time.monotonic() - wall_0
        client.close()
    print(
        json.dumps(
            {
                "op": args.op,
                "n": args.n,
                "cases_cached": args.cases_cached,
                "daemon_cpu_s_per_eval": round(daemon_s / args.n, 4),
                "client_cpu_s_per_eval": round(client_s / args.n, 4),
                "wall_s_per_eval": round(wall_s / args.n, 4),
                "median_worker_s": round(statistics.median(worker_s), 4),
                "median_compile_s": round(statistics.median(compile_s), 4),
                "median_run_s": round(statistics.median(run_s), 4),
                "load_average": os.getloadavg(),
            }
        )
    )


if __name__ == "__main__":
    main()
