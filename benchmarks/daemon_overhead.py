"""Daemon request overhead on loopback: what a request costs beyond the evaluation itself.

    python benchmarks/daemon_overhead.py [--n 300]

Three paths through a local daemon (1 worker, fresh state dir), each timed at the client:
- stats: a round trip through the main loop (parse, answer), no evaluation;
- cache hit: an evaluation request served from the cache (validate the request, hash the
  package, SQLite lookup and ledger charge, reply);
- fresh: a compile-only evaluation whose artefacts are already built (distinct seeds, so no
  cache hit), minus the time the worker spent in it (`cost.worker_s`): queueing, the hop to the
  worker process and back, the SQLite write and both JSON encodings.
Medians and 95th percentiles in milliseconds.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import tempfile
import time
from pathlib import Path

from ascend_gym.client import DaemonClient, LocalDaemon
from ascend_gym.package import load_package
from ascend_gym.protocol import EvalRequest, Stage

SUITE = Path(__file__).resolve().parents[1] / "ascend_gym" / "suite"


def summary(ms: list[float]) -> dict[str, float]:
    ms = sorted(ms)
    return {"n": len(ms), "median_ms": round(statistics.median(ms), 3), "p95_ms": round(ms[int(0.95 * (len(ms) - 1))], 3)}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--n", type=int, default=300)
    ap.add_argument("--op", default="level1/add")
    args = ap.parse_args()
    pkg = load_package(SUITE / args.op)
    with tempfile.TemporaryDirectory() as state, LocalDaemon(workers=1, state_dir=state) as daemon:
        client = DaemonClient(daemon.address)
        compile_only = dict(run_id="overhead", package=pkg, stages=[Stage.COMPILE])
        client.evaluate(EvalRequest(**compile_only, seed=-1))  # builds (or finds) the artefacts; warms the worker

        stats = []
        for _ in range(args.n):
            t = time.perf_counter()
            client.stats()
            stats.append((time.perf_counter() - t) * 1e3)

        hits = []
        for _ in range(args.n):
            t = time.perf_counter()
            r = client.evaluate(EvalRequest(**compile_only, seed=-1))
            hits.append((time.perf_counter() - t) * 1e3)
            assert r.cache_hit

        fresh, worker = [], []
        for seed in range(args.n):
            t = time.perf_counter()
            r = client.evaluate(EvalRequest(**compile_only, seed=seed))
            total = (time.perf_counter() - t) * 1e3
            assert not r.cache_hit and r.ok, r.message
            fresh.append(total - r.cost.worker_s * 1e3)
            worker.append(r.cost.worker_s * 1e3)
    report = {"stats_round_trip": summary(stats), "cache_hit_round_trip": summary(hits),
              "fresh_overhead_beyond_worker": summary(fresh), "fresh_worker_time": summary(worker),
              "request_bytes": len(EvalRequest(**compile_only).model_dump_json()), "loadavg": os.getloadavg()}
    print(json.dumps(report, indent=2))


if __name__ == "__main__":
    main()
