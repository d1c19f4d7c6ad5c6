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
timed one by one in this process, and the transport floors: the round trip of a request-sized message
with no work at all, each reply held back by the fresh evaluations' median worker time so every
process sleeps between messages as it does in the daemon (what no daemon logic can go below on this
machine), over three routes:
- raw_tcp: a plain TCP socket to a server process (the floor of any Python server here);
- zmq_router: client -> ROUTER over tcp (ZeroMQ adds its I/O threads on both sides);
- zmq_router_pipe_worker: the daemon's route, ROUTER -> worker process over a pipe and back.
"""

from __future__ import annotations

import argparse
import functools
import json
import multiprocessing
import os
import socket
import statistics
import tempfile
import time
from collections.abc import Callable
from multiprocessing.connection import Connection
from pathlib import Path

import zmq

from ascend_core.package import load_package
from ascend_core.protocol import EvalRequest, EvalResult, Stage
from ascend_gym.client import DaemonClient, LocalDaemon

SUITE = Path(__file__).resolve().parents[1] / "ascend_core" / "suite"


def summary(ms: list[float]) -> dict[str, float]:
    ms = sorted(ms)
    return {
        "n": len(ms),
        "median_ms": round(statistics.median(ms), 3),
        "p95_ms": round(ms[int(0.95 * (len(ms) - 1))], 3),
    }


def main() -> None:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("--n", type=int, default=300)
    ap.add_argument("--op", default="level1/add")
    ap.add_argument(
        "--floor-hold-ms",
        type=float,
        help="hold each floor reply this long (default: the fresh "
        "evaluations' median worker time; 0: back-to-back, warm)",
    )
    args = ap.parse_args()
    pkg = load_package(SUITE / args.op)
    with tempfile.TemporaryDirectory() as state, LocalDaemon(workers=1, state_dir=state) as daemon:
        client = DaemonClient(daemon.address)
        compile_only = dict(run_id="overhead", package=pkg, stages=[Stage.COMPILE])
        client.evaluate(
            EvalRequest(**compile_only, seed=-1)
        )  # builds (or finds) the artefacts; warms the worker

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
    hold_ms = statistics.median(worker) if args.floor_hold_ms is None else args.floor_hold_ms
    report = {
        "stats_round_trip": summary(stats),
        "cache_hit_round_trip": summary(hits),
        "fresh_overhead_beyond_worker": summary(fresh),
        "fresh_worker_time": summary(worker),
        "main_loop_work_per_fresh_request": main_loop_work(EvalRequest(**compile_only), r, args.n),
        "transport_floors": transport_floors(
            EvalRequest(**compile_only).model_dump_json().encode(), hold_ms / 1e3, args.n
        ),
        "floor_hold_ms": round(hold_ms, 3),
        "request_bytes": len(EvalRequest(**compile_only).model_dump_json()),
        "loadavg": os.getloadavg(),
    }
    print(json.dumps(report, indent=2))


def main_loop_work(request: EvalRequest, result: EvalResult, n: int) -> dict[str, float]:
    """In this process, the daemon main loop's own steps for one fresh request (median ms each):
    the rest of the fresh overhead is moving messages between processes."""
    from npu_daemon.service.server import Request
    from npu_daemon.service.store import Store, cache_key

    payload, answer = request.model_dump_json().encode(), result.model_dump_json().encode()
    fingerprint = result.fingerprint
    with tempfile.TemporaryDirectory() as tmp:
        store = Store(Path(tmp) / "state.db")
        steps = {
            "parse_request": lambda i: Request.validate_json(payload),
            "cache_key": lambda i: cache_key(request, fingerprint),
            "log_and_cache_lookups": lambda i: (
                store.answered(f"r{i}"),
                store.lookup("bench", f"k{i}"),
                store.refusal("bench", "", 0, require=False),  # the run's token and budget
            ),
            "parse_result": lambda i: EvalResult.model_validate_json(answer),
            "charge_transaction": lambda i: store.record(
                "bench", f"k{i}", result.model_copy(update={"request_id": f"r{i}"})
            ),
            "encode_reply": lambda i: result.model_dump_json().encode(),
        }
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


def _relay(front: str, hold_s: float, worker_hop: bool) -> None:
    """A ROUTER that answers each message after hold_s, itself or through a worker process."""
    ctx = zmq.Context()
    clients = ctx.socket(zmq.ROUTER)
    clients.connect(
        front
    )  # the client binds: which side binds makes no difference to the route's cost
    poller = zmq.Poller()
    poller.register(clients, zmq.POLLIN)
    if worker_hop:
        ours, theirs = multiprocessing.Pipe()
        worker = multiprocessing.get_context("spawn").Process(
            target=_echo_worker, args=(theirs, hold_s)
        )
        worker.start()
        ours.recv_bytes()
        poller.register(ours.fileno(), zmq.POLLIN)
    envelope: list[bytes] = []
    while True:
        events = dict(poller.poll(50))
        if worker_hop and ours.fileno() in events:
            clients.send_multipart([*envelope, ours.recv_bytes()])
        if clients in events:
            *envelope, payload = clients.recv_multipart()
            if payload == b"STOP":
                break
            if worker_hop:
                ours.send((b"task", payload))
            else:
                time.sleep(hold_s)
                clients.send_multipart([*envelope, payload])
    if worker_hop:
        ours.send(b"STOP")
        worker.join()


def _raw_server(sock: socket.socket, size: int, hold_s: float) -> None:
    conn, _ = sock.accept()
    conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
    while True:
        message = b""
        while len(message) < size:
            chunk = conn.recv(size - len(message))
            if not chunk:  # the client went away without STOP: stop rather than spin
                return
            message += chunk
        if message.startswith(b"STOP"):
            break
        time.sleep(hold_s)
        conn.sendall(message)


def transport_floors(payload: bytes, hold_s: float, n: int) -> dict[str, dict[str, float]]:
    """Round trip minus the hold over each route, with no daemon logic (see the docstring)."""
    ctx = zmq.Context()
    floors = {}
    for route in ("zmq_router", "zmq_router_pipe_worker"):
        client = ctx.socket(zmq.DEALER)
        port = client.bind_to_random_port("tcp://127.0.0.1")
        relay = multiprocessing.get_context("spawn").Process(
            target=_relay, args=(f"tcp://127.0.0.1:{port}", hold_s, route.endswith("worker"))
        )
        relay.start()
        floors[route] = _round_trips(
            functools.partial(client.send_multipart, [b"", payload]),
            client.recv_multipart,
            hold_s,
            n,
        )
        client.send_multipart([b"", b"STOP"])
        relay.join()
        client.close(0)
    sock = socket.create_server(("127.0.0.1", 0))
    server = multiprocessing.get_context("spawn").Process(
        target=_raw_server, args=(sock, len(payload), hold_s)
    )
    server.start()
    conn = socket.create_connection(sock.getsockname())
    conn.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

    def receive() -> None:
        got = 0
        while got < len(payload):
            chunk = conn.recv(len(payload) - got)
            if not chunk:
                raise ConnectionError("raw_tcp floor: the echo server closed the connection")
            got += len(chunk)

    floors["raw_tcp"] = _round_trips(lambda: conn.sendall(payload), receive, hold_s, n)
    conn.sendall(b"STOP".ljust(len(payload)))
    server.join()
    conn.close()
    sock.close()
    return floors


def _round_trips(
    send: Callable[[], object], receive: Callable[[], object], hold_s: float, n: int
) -> dict[str, float]:
    send()  # the first one also waits for the far side to connect and warms the route
    receive()
    ms = []
    for _ in range(n):
        t = time.perf_counter()
        send()
        receive()
        ms.append((time.perf_counter() - t - hold_s) * 1e3)
    return summary(ms)


if __name__ == "__main__":
    main()
