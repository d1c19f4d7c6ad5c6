"""The ZeroMQ ROUTER server: one per NPU host.

The main thread owns the ROUTER socket; evaluations run on a pool of worker threads, each of
which drives the backend (whose untrusted work runs in sandboxed subprocesses) and hands its reply
back over an inproc socket, so the ROUTER is only ever touched by one thread. A full queue answers
BUSY instead of hanging; malformed messages get a REJECTED error reply; nothing a client sends can
take the server down.
"""

from __future__ import annotations

import logging
import shutil
import tempfile
import threading
import traceback
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import zmq
from pydantic import TypeAdapter, ValidationError

import ascend_gym
from ascend_gym.protocol import (
    PROTOCOL_VERSION,
    ErrorReply,
    EvalRequest,
    EvalResult,
    StatsReply,
    StatsRequest,
    Status,
)
from npu_daemon.backends.base import Backend
from npu_daemon.runtime.store import ResultCache, Ledger

log = logging.getLogger("npu_daemon")

Request = TypeAdapter(EvalRequest | StatsRequest)
MAX_MESSAGE_BYTES = 16 * 1024 * 1024


class Server:
    def __init__(self, backend: Backend, bind: str, workers: int = 2, max_queue: int = 64, workdir: Path | None = None):
        self.backend = backend
        self.workers = workers
        self.max_queue = max_queue
        self.workdir = Path(workdir or tempfile.gettempdir()) / "npu_daemon"
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.cache = ResultCache()
        self.ledger = Ledger()
        self._ctx = zmq.Context.instance()
        self._router = self._ctx.socket(zmq.ROUTER)
        self._router.setsockopt(zmq.LINGER, 0)
        self._router.setsockopt(zmq.MAXMSGSIZE, MAX_MESSAGE_BYTES)
        self._router.bind(bind)
        self.endpoint = self._router.getsockopt_string(zmq.LAST_ENDPOINT)
        self._results_addr = f"inproc://results-{id(self)}"
        self._results = self._ctx.socket(zmq.PULL)
        self._results.bind(self._results_addr)
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="eval")
        self._local = threading.local()
        self._pending = 0
        self._stop = threading.Event()

    # ---- main loop -------------------------------------------------------------------------
    def serve_forever(self) -> None:
        poller = zmq.Poller()
        poller.register(self._router, zmq.POLLIN)
        poller.register(self._results, zmq.POLLIN)
        while not self._stop.is_set():
            events = dict(poller.poll(100))
            if self._results in events:
                while True:
                    try:
                        frames = self._results.recv_multipart(zmq.NOBLOCK)
                    except zmq.Again:
                        break
                    self._pending -= 1
                    self._router.send_multipart(frames)
            if self._router in events:
                while True:
                    try:
                        frames = self._router.recv_multipart(zmq.NOBLOCK)
                    except zmq.Again:
                        break
                    self._dispatch(frames)
        self._drain()

    def stop(self) -> None:
        self._stop.set()

    def _drain(self) -> None:
        """Answer every in-flight request before closing."""
        self._pool.shutdown(wait=True)
        while self._pending > 0:
            self._router.send_multipart(self._results.recv_multipart())
            self._pending -= 1
        self._router.close()
        self._results.close()

    # ---- requests --------------------------------------------------------------------------
    def _dispatch(self, frames: list[bytes]) -> None:
        identity, payload = frames[0], frames[-1]
        envelope = frames[:-1]
        try:
            request = Request.validate_json(payload)
        except (ValidationError, ValueError) as e:
            self._router.send_multipart([*envelope, ErrorReply(message=f"invalid request: {_short(e)}").model_dump_json().encode()])
            return
        if isinstance(request, StatsRequest):
            reply = StatsReply(request_id=request.request_id, backend=self.backend.name, workers=self.workers, queued=self._pending,
                               evaluations=self.ledger.total_evaluations(), cache_hits=self.ledger.total_cache_hits(),
                               versions={"ascend_gym": ascend_gym.__version__, "protocol": str(PROTOCOL_VERSION)})
            self._router.send_multipart([*envelope, reply.model_dump_json().encode()])
            return
        if self._pending >= self.max_queue:
            busy = EvalResult(request_id=request.request_id, status=Status.BUSY, message=f"queue full ({self._pending} pending)",
                              backend=self.backend.name, simulated=self.backend.simulated)
            self._router.send_multipart([*envelope, busy.model_dump_json().encode()])
            return
        self._pending += 1
        self._pool.submit(self._evaluate, envelope, request)
        del identity

    def _evaluate(self, envelope: list[bytes], request: EvalRequest) -> None:
        result = self.evaluate(request)
        sock = getattr(self._local, "push", None)
        if sock is None:
            sock = self._local.push = self._ctx.socket(zmq.PUSH)
            sock.connect(self._results_addr)
        sock.send_multipart([*envelope, result.model_dump_json().encode()])

    def evaluate(self, request: EvalRequest) -> EvalResult:
        """Serve from the run's cache or evaluate in a throwaway directory; charge the ledger."""
        key = self.cache.key(request, self.backend.fingerprint(request.soc))
        cached = self.cache.get(request.run_id, key)
        if cached is not None:
            result = cached.model_copy(update={"request_id": request.request_id, "cache_hit": True})
            self.ledger.charge(request.run_id, result)
            return result
        workdir = Path(tempfile.mkdtemp(prefix="eval-", dir=self.workdir))
        try:
            result = self.backend.evaluate(request, workdir)
        except Exception as e:  # a backend fault is still a result, never a dead server
            log.exception("backend failed on %s", request.request_id)
            result = EvalResult(request_id=request.request_id, status=Status.DAEMON_ERROR, message=f"{type(e).__name__}: {e}",
                                log_tail=traceback.format_exc()[-4000:], backend=self.backend.name, simulated=self.backend.simulated,
                                soc=request.soc)
        finally:
            shutil.rmtree(workdir, ignore_errors=True)
        if result.status not in (Status.DAEMON_ERROR, Status.BUSY):
            self.cache.put(request.run_id, key, result)
        self.ledger.charge(request.run_id, result)
        return result


def _short(e: Exception) -> str:
    return str(e).replace("\n", "; ")[:500]
