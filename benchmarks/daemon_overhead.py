"""Daemon request overhead on loopback: what a request costs beyond the evaluation itself.

    python benchmarks/daemon_overhead.py [--n 300]

Three paths through a local daemon (1 worker, fresh state dir), each timed at the client:
- stats: a round trip through the main loop (parse, answer), no evaluation;
- cache hit: an evaluation request served from the cache (validate the request, hash the
  package, SQLite lookup and ledger charge, reply);
- fresh: a compile-only evaluation whose artefacts are already built (distinct seeds, so no
  cache hit), minus the time the worker spent in it (`cost.worker_s`): queueing, the hop to the
  worker process and back, the SQLite write and both JSON encodings.
Medians and 95th percentiles in milliseconds; then the main loop's own steps for a fresh request,
timed one by one in this process, and the transport floor: the fresh request's route (client ->
ROUTER over tcp -> worker process over a pipe and back) with Python ZeroMQ and no work at all, each
worker reply held back by the fresh evaluations' median worker time so every process sleeps
between messages as it does in the daemon (what no daemon logic can go below on this machine).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import statistics
import tempfile
import time
from multiprocessing.connection import Connection
from pathlib import Path

import zmq

from ascend_gym.client import DaemonClient, LocalDaemon
from ascend_gym.package import load_package
from ascend_gym.protocol import EvalRequest, EvalResult, Stage

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
              "main_loop_work_per_fresh_request": main_loop_work(EvalRequest(**compile_only), r, args.n),
              "transport_floor": transport_floor(EvalRequest(**compile_only).model_dump_json().encode(),
                                                 statistics.median(worker) / 1e3, args.n),
              "request_bytes": len(EvalRequest(**compile_only).model_dump_json()), "loadavg": os.getloadavg()}
    print(json.dumps(report, indent=2))


def main_loop_work(request: EvalRequest, result: EvalResult, n: int) -> dict[str, float]:
    """In this process, the daemon main loop's own steps for one fresh request (median ms each):
    the rest of the fresh overhead is moving messages between processes."""
    from npu_daemon.runtime.server import Request
    from npu_daemon.runtime.store import Store, cache_key

    payload, answer = request.model_dump_json().encode(), result.model_dump_json().encode()
    fingerprint = result.fingerprint
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp) / "state.db")
        steps = {"parse_request": lambda i: Request.validate_json(payload),
                 "cache_key": lambda i: cache_key(request, fingerprint),
                 "log_and_cache_lookups": lambda i: (store.answered(f"r{i}"), store.lookup("bench", f"k{i}")),
                 "parse_result": lambda i: EvalResult.model_validate_json(answer),
                 "charge_transaction": lambda i: store.record("bench", f"k{i}", result.model_copy(update={"request_id": f"r{i}"})),
                 "encode_reply": lambda i: result.model_dump_json().encode()}
        out = {}
        for name, step in steps.items():
            times = []
            for i in range(n):
                t = time.perf_counter()
                step(i)
                times.append((time.perf_counter() - t) * 1e3)
            out[name] = round(statistics.median(times), 3)
        store.close()
    out["total"] = round(sum(out.values()), 3)
    return out


def _echo_worker(conn: Connection, hold_s: float) -> None:
    conn.send_bytes(b"READY")
    while (message := conn.recv()) != b"STOP":
        time.sleep(hold_s)  # the evaluation: the worker is busy, the relay and the client sleep
        conn.send_bytes(message[1])


def _relay(front: str, hold_s: float) -> None:
    ctx = zmq.Context()
    clients = ctx.socket(zmq.ROUTER)
    clients.connect(front)  # the client binds: which side binds makes no difference to the route's cost
    ours, theirs = multiprocessing.Pipe()
    worker = multiprocessing.get_context("spawn").Process(target=_echo_worker, args=(theirs, hold_s))
    worker.start()
    ours.recv_bytes()
    poller = zmq.Poller()
    poller.register(clients, zmq.POLLIN)
    poller.register(ours.fileno(), zmq.POLLIN)
    envelope: list[bytes] = []
    while True:
        events = dict(poller.poll(50))
        if ours.fileno() in events:
            clients.send_multipart([*envelope, ours.recv_bytes()])
        if clients in events:
            *envelope, payload = clients.recv_multipart()
            if payload == b"STOP":
                ours.send(b"STOP")
                break
            ours.send((b"task", payload))
    worker.join()


def transport_floor(payload: bytes, hold_s: float, n: int) -> dict[str, float]:
    """Round trip minus the hold, over the daemon's route with no daemon logic (see the docstring)."""
    ctx = zmq.Context()
    client = ctx.socket(zmq.DEALER)
    port = client.bind_to_random_port("tcp://127.0.0.1")
    relay = multiprocessing.get_context("spawn").Process(target=_relay, args=(f"tcp://127.0.0.1:{port}", hold_s))
    relay.start()
    client.send_multipart([b"", payload])  # queued until the relay connects; also warms the route
    client.recv_multipart()
    ms = []
    for _ in range(n):
        t = time.perf_counter()
        client.send_multipart([b"", payload])
        client.recv_multipart()
        ms.append((time.perf_counter() - t - hold_s) * 1e3)
    client.send_multipart([b"", b"STOP"])
    relay.join()
    client.close(0)
    return summary(ms)


if __name__ == "__main__":
    main()
