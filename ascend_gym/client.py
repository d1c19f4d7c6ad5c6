"""Client side of the daemon protocol, and the embedded local daemon.

`DaemonClient` talks to one npu_daemon over a DEALER socket. `LocalDaemon` starts a daemon in a
subprocess on a free loopback port (what `daemon=None` means for the env and the bench) and stops
it on close.
"""

from __future__ import annotations

import atexit
import json
import os
import subprocess
import sys
import time

import zmq

from ascend_gym.protocol import ErrorReply, EvalRequest, EvalResult, StatsReply, StatsRequest


class DaemonError(RuntimeError):
    """The daemon did not answer, or answered something that is not a result."""


class DaemonClient:
    def __init__(self, address: str, timeout_s: float = 600.0):
        self.address = address
        self.timeout_s = timeout_s
        self._ctx = zmq.Context.instance()
        self._sock: zmq.Socket | None = None

    def _socket(self) -> zmq.Socket:
        if self._sock is None:
            self._sock = self._ctx.socket(zmq.DEALER)
            self._sock.setsockopt(zmq.LINGER, 0)
            self._sock.connect(self.address)
        return self._sock

    def _call(self, message: EvalRequest | StatsRequest, timeout_s: float) -> dict:
        sock = self._socket()
        sock.send_multipart([b"", message.model_dump_json().encode()])
        deadline = time.monotonic() + timeout_s
        while True:
            remaining_ms = int((deadline - time.monotonic()) * 1000)
            if remaining_ms <= 0 or not sock.poll(remaining_ms):
                self.close()  # a late reply must not be read as the answer to the next request
                raise DaemonError(f"no answer from {self.address} within {timeout_s:g} s")
            reply = json.loads(sock.recv_multipart()[-1])
            if reply.get("kind") == "error":
                raise DaemonError(ErrorReply.model_validate(reply).message)
            if reply.get("request_id") == message.request_id:
                return reply

    def evaluate(self, request: EvalRequest) -> EvalResult:
        timeout = self.timeout_s + request.timeouts.build_s + request.timeouts.run_s * max(1, len(request.package.spec.cases))
        return EvalResult.model_validate(self._call(request, timeout))

    def stats(self, timeout_s: float = 5.0) -> StatsReply:
        return StatsReply.model_validate(self._call(StatsRequest(), timeout_s))

    def close(self) -> None:
        if self._sock is not None:
            self._sock.close(0)
            self._sock = None


class LocalDaemon:
    """An npu_daemon subprocess on a free loopback port; `address` is its endpoint."""

    def __init__(self, backend: str = "sim", workers: int | None = None, startup_timeout_s: float = 300.0):
        cmd = [sys.executable, "-m", "npu_daemon", "--backend", backend, "--bind", "tcp://127.0.0.1:*"]
        if workers:
            cmd += ["--workers", str(workers)]
        self._proc = subprocess.Popen(cmd, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True, env=os.environ.copy())
        line = _readline(self._proc, startup_timeout_s)
        if not line.startswith("READY "):
            self.close()
            raise DaemonError(f"embedded daemon failed to start: {line!r}")
        self.address = line.split()[1]
        atexit.register(self.close)

    def close(self) -> None:
        if self._proc.poll() is None:
            self._proc.terminate()
            try:
                self._proc.wait(timeout=30)
            except subprocess.TimeoutExpired:
                self._proc.kill()
                self._proc.wait()

    def __enter__(self) -> LocalDaemon:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


def _readline(proc: subprocess.Popen, timeout_s: float) -> str:
    """The daemon's first stdout line (it builds the simulator runtime first, which takes a while)."""
    import selectors

    sel = selectors.DefaultSelector()
    sel.register(proc.stdout, selectors.EVENT_READ)
    if not sel.select(timeout_s):
        return "<timeout>"
    return proc.stdout.readline().strip()
