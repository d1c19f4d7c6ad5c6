"""Evaluations per minute of a local simulator daemon with 1 and 2 worker processes.

    python benchmarks/daemon_throughput.py [--op level1/add] [--n 8] [--workers 1,2] [--backend sim-guest]

For each worker count a fresh daemon (fresh state dir) gets `--n` distinct candidates at once:
each is the op with a unique comment in its kernel and tiling sources, so every evaluation
compiles both programs, checks every correctness case and times the bench case, as a search
policy's new candidates do. Throughput is n / (wall time from first submission to last answer).
All numbers are simulated-backend wall-clock numbers of this machine at the time of the run, except
`cpu_s_per_eval`: user + sys of the daemon, its workers and every command they ran (compiles,
harness runs) over the same span, per evaluation, which does not grow with the machine's load;
60 * cores / cpu_s_per_eval is the throughput the host's cores allow when nothing else runs.
"""

from __future__ import annotations

import argparse
import json
import os
import tempfile
import time
import uuid
from pathlib import Path

import zmq
from fresh_cpu import tree_cpu_s

from ascend_core.package import load_package
from ascend_core.protocol import DEFAULT_BACKEND, EvalRequest
from ascend_gym.client import LocalDaemon

SUITE = Path(__file__).resolve().parents[1] / "ascend_core" / "suite"


def run(pkg, workers: int, n: int, backend: str = DEFAULT_BACKEND) -> dict:
    with (
        tempfile.TemporaryDirectory() as state,
        LocalDaemon(
            backend, workers=workers, state_dir=state, extra_args=["--max-queue", str(n)]
        ) as d,
    ):
        ctx = zmq.Context.instance()
        socks = []
        tag = uuid.uuid4().hex[:8]
        requests = [
            EvalRequest(
                run_id=f"throughput-{workers}",
                package=pkg.with_sources(
                    tiling=pkg.tiling_source + f"\n// {tag} {i}\n",
                    kernel=pkg.kernel_source + f"\n// {tag} {i}\n",
                ),
            )
            for i in range(n)
        ]
        time.sleep(2.0)  # the workers import and announce themselves
        cpu_0 = tree_cpu_s(d.process.pid)
        start = time.perf_counter()
        for r in requests:
            s = ctx.socket(zmq.DEALER)
            s.connect(d.address)
            s.send_multipart([b"", r.model_dump_json().encode()])
            socks.append(s)
        results = [json.loads(s.recv_multipart()[-1]) for s in socks]
        wall = time.perf_counter() - start
        cpu = tree_cpu_s(d.process.pid) - cpu_0
        for s in socks:
            s.close(0)
    statuses = sorted({r["status"] for r in results})
    compile_s = sum(r["cost"]["compile_s"] for r in results) / n
    run_s = sum(r["cost"]["run_s"] for r in results) / n
    return {
        "backend": backend,
        "workers": workers,
        "n": n,
        "wall_s": round(wall, 2),
        "evaluations_per_minute": round(60 * n / wall, 1),
        "mean_compile_s": round(compile_s, 2),
        "mean_run_s": round(run_s, 2),
        "cpu_s_per_eval": round(cpu / n, 3),
        "statuses": statuses,
        "loadavg_1min": round(os.getloadavg()[0], 2),
    }


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--op", default="level1/add")
    ap.add_argument("--n", type=int, default=8)
    ap.add_argument("--workers", default="1,2")
    ap.add_argument("--backend", default=DEFAULT_BACKEND, help="sim (native engine) or sim-guest")
    args = ap.parse_args()
    pkg = load_package(SUITE / args.op)
    for workers in map(int, args.workers.split(",")):
        print(json.dumps(run(pkg, workers, args.n, args.backend)), flush=True)


if __name__ == "__main__":
    main()
