"""An HTTP reward endpoint compatible with OpenRLHF's remote reward model (`--remote_rm_url`).

    python -m ascend_gym.rl.adapters.http --port 5000 [--daemons tcp://...] [--preset speedup]

POST /get_reward {"query": [prompt + response, ...], "prompts": [prompt, ...],
"labels": [operator address, ...]} -> {"rewards": [...], "scores": [...], "extra_logs": {...}}.
The response is the query with its prompt cut off. When any item met an infrastructure fault
the answer is 503 (OpenRLHF's client retries the request; the items already evaluated are then
served from the daemons' cache, free), so a fault never reaches the trainer as a reward.
"""

from __future__ import annotations

import argparse
import contextlib
import json
import re
import socket
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

from pydantic import BaseModel, ValidationError

from ascend_gym.rl.reward import PRESETS
from ascend_gym.rl.service import RewardService
from npu_daemon.main import is_loopback
from npu_daemon.service.inflight import max_connections
from npu_daemon.service.server import MAX_QUEUE_BYTES

# The request bodies this server holds at once: the daemon's own bound on the requests it holds
# (--max-queue-bytes), so its clients never make it hold more than every daemon behind it would.
MAX_BODY_BYTES = MAX_QUEUE_BYTES
# Seconds a client may pause while sending: a connection that stops mid-request is let go.
CLIENT_TIMEOUT_S = 60.0


# A label is a suite operator's address: `levelN/name`, or `op://<suite>/levelN/name`. Resolved as
# given, a label reached this host's filesystem (a directory path, `..` out of the suite: any
# operator the service's user can read, evaluated and charged to its run), and each spelling of
# one operator (`level1/./add`) was an operator of its own: a baseline evaluated and kept for the
# service's life, without bound.
LABEL = re.compile(r"(op://[A-Za-z0-9_-][A-Za-z0-9._-]*/)?level[0-9]+/[A-Za-z_][A-Za-z0-9_]*")


class RewardQuery(BaseModel):
    query: list[str]
    prompts: list[str] = []
    labels: list[str]


def answer(service: RewardService, body: bytes) -> tuple[int, dict]:
    """(HTTP status, JSON body) for one /get_reward request."""
    try:
        q = RewardQuery.model_validate_json(body)
    except ValidationError as e:
        return 400, {"error": str(e)}
    prompts = q.prompts or [""] * len(q.query)
    if not len(q.query) == len(prompts) == len(q.labels):
        return 400, {"error": "query, prompts and labels must have the same length"}
    strange = next((label for label in q.labels if not LABEL.fullmatch(label)), None)
    if strange is not None:
        return 400, {
            "error": f"not an operator address (levelN/name or op://suite/levelN/name): {strange[:200]!r}"
        }
    responses = [x.removeprefix(p) for x, p in zip(q.query, prompts)]
    try:
        scored = service.score(responses, q.labels)
    except ValueError as e:  # a label that is no operator
        return 400, {"error": str(e)}
    faults = [s.reward for s in scored if s.reward.total is None]
    if faults:
        return 503, {"error": f"{len(faults)} infrastructure faults: {faults[0].status}"}
    rewards = [s.reward.total for s in scored]
    names = sorted({k for s in scored for k in s.reward.components})
    logs = {f"ascend/{n}": [s.reward.components.get(n, 0.0) for s in scored] for n in names}
    return 200, {"rewards": rewards, "scores": rewards, "extra_logs": logs}


def body_length(header: str | None) -> int | None:
    """The declared body length when it is one this server reads: a decimal count of at most
    MAX_BODY_BYTES. Read unchecked, a client's Content-Length of 2^40 held a thread on a read
    of that many bytes (and the bytes it sent in memory), and a missing one raised in the
    handler."""
    if header is None or not header.strip().isdigit():
        return None
    length = int(header)
    return length if length <= MAX_BODY_BYTES else None


class BodyBudget:
    """The body bytes the requests being read and scored hold together, each reserved at its
    declared length before a byte is read: one thread a connection, each with a body of up to
    MAX_BODY_BYTES, let many clients make the server hold that many times over."""

    def __init__(self, total: int = MAX_BODY_BYTES):
        self._left, self._lock = total, threading.Lock()

    def take(self, n: int) -> bool:
        with self._lock:
            if n > self._left:
                return False
            self._left -= n
            return True

    def give(self, n: int) -> None:
        with self._lock:
            self._left += n


class Connections:
    """The connections the server holds, at most `limit` (the daemon's own bound: 256, or a
    quarter of the descriptor limit). Each is a thread and a descriptor, and one still sending its
    request may do so for as long as it sends a byte a minute, so clients could hold every
    descriptor and the server accepted no other. Past the bound the connection that has sent its
    request the longest is cut (its client may retry); one being scored is never cut, and when
    all are, the new connection is closed unanswered."""

    def __init__(self, limit: int):
        self.limit = limit
        self._lock = threading.Lock()
        self._open: set[socket.socket] = set()
        self._sending: dict[socket.socket, float] = {}  # -> when accepted

    def admit(self, conn: socket.socket) -> bool:
        with self._lock:
            if len(self._open) >= self.limit:
                if not self._sending:
                    return False
                oldest = min(self._sending, key=self._sending.__getitem__)
                del self._sending[oldest]
                self._open.discard(oldest)  # its thread ends on the cut and closes it
                with contextlib.suppress(OSError):
                    oldest.shutdown(socket.SHUT_RDWR)
            self._open.add(conn)
            self._sending[conn] = time.monotonic()
            return True

    def scoring(self, conn: socket.socket) -> None:
        with self._lock:
            self._sending.pop(conn, None)

    def closed(self, conn: socket.socket) -> None:
        with self._lock:
            self._open.discard(conn)
            self._sending.pop(conn, None)


class RewardHTTPServer(ThreadingHTTPServer):
    """A threading HTTP server whose connections are held to `connections`."""

    def __init__(self, address: tuple[str, int], handler: type[BaseHTTPRequestHandler]):
        self.connections = Connections(max_connections())
        # The kernel queues as many connections as the server holds (socketserver listens with a
        # queue of 5): a trainer's burst of concurrent reward requests past 5 lost its SYNs, and
        # each such client waited a second for the retry before it was accepted.
        self.request_queue_size = self.connections.limit
        super().__init__(address, handler)

    def process_request(self, request: socket.socket, client_address: tuple[str, int]) -> None:
        if self.connections.admit(request):
            super().process_request(request, client_address)
        else:
            super().shutdown_request(request)

    def shutdown_request(self, request: socket.socket) -> None:
        self.connections.closed(request)
        super().shutdown_request(request)


def server(service: RewardService, host: str = "127.0.0.1", port: int = 0) -> RewardHTTPServer:
    """A threading HTTP server answering /get_reward (call serve_forever; port 0 picks one)."""
    budget = BodyBudget()

    class Handler(BaseHTTPRequestHandler):
        timeout = CLIENT_TIMEOUT_S

        def do_POST(self) -> None:
            length = body_length(self.headers["Content-Length"])
            if self.path.rstrip("/") != "/get_reward":
                status, body = 404, {"error": f"no endpoint {self.path}: POST /get_reward"}
            elif length is None:
                status = 413
                body = {"error": f"a body of a declared length up to {MAX_BODY_BYTES} bytes"}
                self.close_connection = True  # its bytes, if any follow, are never read
            elif not budget.take(length):
                # OpenRLHF's client retries a 503, as it does an infrastructure fault.
                status, body = 503, {"error": "the server holds its bound of request bodies"}
                self.close_connection = True
            else:
                try:
                    sent = self.rfile.read(length)
                    self.server.connections.scoring(self.connection)  # type: ignore[attr-defined]
                    status, body = answer(service, sent)
                finally:
                    budget.give(length)
            data = json.dumps(body).encode()
            self.send_response(status)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Length", str(len(data)))
            self.end_headers()
            self.wfile.write(data)

        def log_message(self, *_: object) -> None:  # one line per request is noise at RL rates
            pass

    return RewardHTTPServer((host, port), Handler)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="OpenRLHF-compatible remote reward over npu_daemon")
    ap.add_argument("--host", default="127.0.0.1")
    ap.add_argument("--port", type=int, default=5000)
    ap.add_argument("--daemons", default="", help="comma list of daemon addresses (none: local)")
    ap.add_argument("--preset", default="speedup", choices=sorted(PRESETS))
    ap.add_argument(
        "--insecure", action="store_true", help="allow a non-loopback --host (no authentication)"
    )
    args = ap.parse_args(argv)
    # An IPv6 address in brackets, as a URL spells it.
    host = f"[{args.host}]" if ":" in args.host else args.host
    if not is_loopback(f"tcp://{host}:0") and not args.insecure:
        # Every request is an evaluation charged to this service's run and answers whether a
        # candidate is right: the daemon's rule for a bind beyond loopback (CURVE keys) has no
        # counterpart here, so such a bind is a choice made with --insecure.
        ap.error(f"refusing to serve on {args.host} beyond loopback (--insecure to override)")
    with RewardService([a for a in args.daemons.split(",") if a] or None, args.preset) as service:
        httpd = server(service, args.host, args.port)
        print(f"serving /get_reward on http://{args.host}:{httpd.server_port}", file=sys.stderr)
        try:
            httpd.serve_forever()
        except KeyboardInterrupt:
            pass
    return 0


if __name__ == "__main__":
    sys.exit(main())
