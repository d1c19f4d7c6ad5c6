"""The ZeroMQ ROUTER server: one per NPU host.

One thread owns everything: the client ROUTER, the workers' pipes, the bounded queue and
the SQLite store. Evaluations run in worker processes (npu_daemon/service/workers.py); the main
loop only routes, so stats, health and ledger requests are answered at once even when every
worker is busy. A full queue answers BUSY instead of hanging; a malformed message gets an error
reply; nothing a client sends can take the server down. A request id already answered is
answered again from the store, one still in flight is attached to the running evaluation: a
retried request is evaluated and charged once. On stop, queued requests are answered BUSY (the
client resubmits elsewhere), running ones are finished and answered, then the daemon exits.
"""

from __future__ import annotations

import collections
import contextlib
import fcntl
import functools
import gc
import importlib.metadata
import json
import logging
import os
import platform
import secrets
import sqlite3
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated

import zmq
import zmq.auth.thread
from pydantic import BaseModel, Field, TypeAdapter

import ascend_core
from ascend_core import identity
from ascend_core.cache import cache_dir
from ascend_core.protocol import (
    PROTOCOL_VERSION,
    ErrorReply,
    EvalRequest,
    EvalResult,
    HealthReply,
    HealthRequest,
    LedgerRequest,
    OpenRunReply,
    OpenRunRequest,
    StatsReply,
    StatsRequest,
    Status,
)
from npu_daemon.backends.base import Backend
from npu_daemon.service.inflight import InFlight
from npu_daemon.service.keys import ServerKeys
from npu_daemon.service.store import RunsFull, Store, cache_key
from npu_daemon.service.work_root import WorkRoot
from npu_daemon.service.workers import SandboxUsers, WorkerPool, deadline_s, secret_id

log = logging.getLogger("npu_daemon")

Request = TypeAdapter(
    Annotated[
        EvalRequest | StatsRequest | HealthRequest | LedgerRequest | OpenRunRequest,
        Field(discriminator="kind"),
    ]
)
MAX_MESSAGE_BYTES = 16 * 1024 * 1024
MAX_QUEUE_BYTES = 256 * 1024 * 1024  # requests waiting for a worker, by size (each up to 16 MiB)
TRIM_EVERY = 256  # answers between two cache/request-log trims
CASE_SECRETS = "case_secrets.jsonl"  # in the state directory: one line per daemon that stopped
STATE_UNWRITABLE = "the daemon cannot write its state file (disk full?): not charged, resubmit"
MAX_FINGERPRINTS = 64  # socs remembered (any string may arrive)


@dataclass
class Task:
    request: EvalRequest
    key: str
    payload: bytes
    held: int  # memory the waiting request holds (held_bytes): what the queue bound counts
    waiters: list[list[bytes]]  # reply envelopes: the first submission and its retries
    # Other requests for the same evaluation (same cache key) that arrived while it ran: each is
    # answered from the cache once it is done, and charged by its own run's rules.
    # (Each with the memory it holds, counted against the queue bound while it waits.)
    duplicates: dict[str, tuple[EvalRequest, list[list[bytes]], int]] = field(default_factory=dict)


class Server:
    def __init__(
        self,
        backend: Backend,
        bind: str,
        workers: int = 2,
        max_queue: int = 64,
        state_dir: Path | None = None,
        keys: ServerKeys | None = None,
        sandbox: SandboxUsers | None = None,
        cache_entries: int = 100_000,
        workdir: Path | None = None,
        source_policy: bool = True,
        require_tokens: bool = False,
        max_open_runs: int = 100_000,
        max_queue_bytes: int = MAX_QUEUE_BYTES,
        disk_quota_mb: int = 0,
        case_secret: bytes | None = None,
    ):
        self.backend, self.max_queue, self.max_queue_bytes = backend, max_queue, max_queue_bytes
        self.require_tokens = require_tokens
        self.started = time.monotonic()
        self.state_dir = Path(state_dir or default_state_dir())
        self._state_lock = lock_state_dir(self.state_dir)
        self.store = Store(
            self.state_dir / "state.db", max_entries=cache_entries, max_open_runs=max_open_runs
        )
        # Case inputs are drawn with this secret (workers.case_seed): a fresh one per start unless
        # a researcher reproduces a run with the one reported when that daemon stopped.
        self.case_secret = case_secret or secrets.token_bytes(16)
        self._ctx = zmq.Context()
        self._auth = None
        if keys is not None:
            self._auth = zmq.auth.thread.ThreadAuthenticator(self._ctx)
            self._auth.start()
            self._auth.configure_curve(domain="*", location=str(keys.authorized))
        self._router = self._ctx.socket(zmq.ROUTER)
        self._router.setsockopt(zmq.LINGER, 1000)
        self._router.setsockopt(zmq.MAXMSGSIZE, MAX_MESSAGE_BYTES)
        if keys is not None:
            self._router.curve_server = True
            self._router.curve_publickey, self._router.curve_secretkey = keys.public, keys.secret
        self._router.bind(bind)
        self.endpoint = self._router.getsockopt_string(zmq.LAST_ENDPOINT)
        # Throwaway directories live here (under workdir, default the system temp dir). Made once
        # bound: a refused bind leaves nothing behind, nor reclaims another daemon's root.
        self._root = WorkRoot(workdir)
        self.work_root = self._root.path
        self.sandbox_user = (
            f"uid {sandbox.first_uid}+worker"
            if sandbox
            else f"uid {os.geteuid()} (the daemon's own)"
        )
        self._poller = zmq.Poller()
        self._poller.register(self._router, zmq.POLLIN)
        try:  # the parts that can fail to start: no root left behind by them either
            # Bytes on their way in (incomplete frames, unread messages) count against the bound too.
            self._inflight = InFlight(self._router, MAX_MESSAGE_BYTES)
            self._poller.register(self._inflight.monitor, zmq.POLLIN)
            self.pool = WorkerPool(
                self._poller,
                backend,
                workers,
                self.work_root,
                sandbox,
                source_policy,
                disk_quota_mb,
                self.case_secret,
            )
        except BaseException:
            self._root.remove()
            raise
        self._queue: collections.deque[str] = collections.deque()
        self._queued_bytes = 0
        self._tasks: dict[str, Task] = {}
        self._running_keys: dict[str, str] = {}  # cache key -> request id of its task
        self._duplicates: dict[str, Task] = {}  # request id of a duplicate -> the task it waits on
        self._pending: collections.Counter[str] = collections.Counter()  # run -> in flight
        self._fingerprints: dict[str, dict[str, str]] = {}
        self._answers = 0
        self._stopping = False
        self._owner_pipe: int | None = None

    # ---- main loop -------------------------------------------------------------------------
    def serve_forever(self) -> None:
        # Start-up objects (modules, pydantic schemas) leave the collector's view: an older-generation
        # collection otherwise walks them all in the middle of some request (1.5 ms gen 1, 100+ ms gen 2).
        gc.freeze()
        log.info("case inputs drawn with secret %s", secret_id(self.case_secret))
        try:
            while not (self._stopping and not self._tasks):
                if self._stopping and self._queue:
                    self._refuse_queued()
                events = dict(self._poller.poll(50))
                if self._owner_pipe is not None and self._owner_pipe in events:
                    self._owner_gone()
                for task_id, payload in self.pool.receive(events):
                    self._finish(task_id.decode(), payload, "")
                if self._inflight.monitor in events:
                    self._inflight.connections()
                if self._router in events:
                    self._drain(self._client_message)
                self._inflight.bound(self.max_queue_bytes - self._queued_bytes)
                for task_id, why in self.pool.reap():
                    self._finish(task_id.decode(), None, why)
                self._assign()
        finally:
            self._close()

    def stop(self) -> None:
        """Graceful: answer queued requests BUSY, finish running ones, then return from serve_forever."""
        self._stopping = True

    def stop_with_reader(self, fd: int) -> None:
        """Stop, as on SIGTERM, once no process reads the pipe `fd` (the daemon's stdout): an
        embedded daemon's owner that was killed sends no SIGTERM, and the daemon would serve on
        for no one, its work root with it."""
        self._poller.register(
            fd, zmq.POLLERR
        )  # a pipe's writer polls POLLERR once its readers are gone
        self._owner_pipe = fd

    def _owner_gone(self) -> None:
        self._poller.unregister(self._owner_pipe)
        self._owner_pipe = None
        log.warning("no process reads the daemon's stdout any more (its owner is gone): stopping")
        self.stop()

    def _drain(self, handle) -> None:
        for _ in range(1000):  # bounded, so a flood of clients cannot starve the workers' answers
            try:
                frames = self._router.recv_multipart(zmq.NOBLOCK, copy=False)
            except zmq.Again:
                return
            self._inflight.read(frames)
            handle([f.bytes for f in frames])

    def _close(self) -> None:
        try:
            self.pool.close()
            self._report_secret()
            self._inflight.close()
            self._router.close()
            if self._auth is not None:
                self._auth.stop()
            self._ctx.term()
            self.store.close()
        finally:  # whatever failed above, the root goes (a long-lived host's disk)
            self._root.remove()

    def _report_secret(self) -> None:
        """After the run, the case secret: in the log and in the state directory (the daemon's
        alone), so a researcher can draw the same inputs again (`--case-secret`)."""
        line = {
            "id": secret_id(self.case_secret),
            "secret": self.case_secret.hex(),
            "stopped": time.time(),
        }
        log.info("case secret %s was %s", line["id"], line["secret"])
        with contextlib.suppress(OSError):  # a full state disk: the log still has it
            with (self.state_dir / CASE_SECRETS).open("a") as f:
                f.write(json.dumps(line) + "\n")

    # ---- client messages -------------------------------------------------------------------
    def _client_message(self, frames: list[bytes]) -> None:
        envelope, payload = frames[:-1], frames[-1]
        try:
            request = Request.validate_json(payload)
        except Exception as e:  # whatever arrives: an answer, never a dead daemon
            self._send(envelope, ErrorReply(message=f"invalid request: {_short(e)}"))
            return
        try:
            if isinstance(request, EvalRequest):
                self._submit(envelope, request, payload)
            elif isinstance(request, StatsRequest):
                self._send(envelope, self.stats(request.request_id))
            elif isinstance(request, HealthRequest):
                self._send(envelope, self.health(request.request_id, request.about))
            elif isinstance(request, OpenRunRequest):
                self._open_run(envelope, request)
            else:
                self._send(
                    envelope,
                    self.store.ledger(request.run_id).model_copy(
                        update={"request_id": request.request_id}
                    ),
                )
        except Exception as e:  # a fault of ours is an answer, never a dead daemon
            log.exception("failed on %s", request.request_id)
            self._send(
                envelope,
                ErrorReply(
                    request_id=request.request_id, status=Status.DAEMON_ERROR, message=_short(e)
                ),
            )

    def _open_run(self, envelope: list[bytes], request: OpenRunRequest) -> None:
        try:
            token = self.store.open_run(request.run_id, request.budget)
        except ValueError as e:
            self._send(envelope, ErrorReply(request_id=request.request_id, message=str(e)))
            return
        except RunsFull as e:  # not a refusal of this run: open it again later
            reply = ErrorReply(request_id=request.request_id, status=Status.BUSY, message=str(e))
            self._send(envelope, reply)
            return
        self._send(
            envelope,
            OpenRunReply(
                request_id=request.request_id,
                run_id=request.run_id,
                budget=request.budget,
                token=token,
            ),
        )

    def _submit(self, envelope: list[bytes], request: EvalRequest, payload: bytes) -> None:
        key = cache_key(request, self._fingerprint(request.soc))
        answered = self.store.answered(request.request_id)
        reused = self._status(
            request, Status.REJECTED, "request_id already used for a different request or run"
        )
        if answered is not None:  # a retry: answered again, never under another run
            self._send(envelope, answered[2] if answered[:2] == (key, request.run_id) else reused)
            return
        task = self._tasks.get(request.request_id)
        if task is not None:  # a retry of a request still in flight: one evaluation answers both
            if (task.key, task.request.run_id) == (key, request.run_id):
                task.waiters.append(envelope)
            else:
                self._send(envelope, reused)
            return
        primary = self._duplicates.get(request.request_id)
        if primary is not None:  # a retry of a duplicate still waiting
            first, envelopes, _ = primary.duplicates[request.request_id]
            if (primary.key, first.run_id) == (key, request.run_id):
                envelopes.append(envelope)
            else:
                self._send(envelope, reused)
            return
        cached = self.store.lookup(request.run_id, key)
        free = cached is not None and cached.cache_hit  # a resubmission the run already paid for
        why = self.store.refusal(
            request.run_id,
            request.token,
            None if free else self._pending[request.run_id],
            self.require_tokens,
        )
        if why:  # refused, not charged
            self._send(envelope, self._status(request, Status.REJECTED, why))
            return
        if cached is not None:
            self._answer(
                [envelope],
                request,
                key,
                cached.model_copy(update={"request_id": request.request_id}),
            )
            return
        held = held_bytes(request, payload)
        full = len(self._queue) >= self.max_queue or (
            self._queued_bytes + held > self.max_queue_bytes
        )
        if self._stopping or full:
            why = (
                "daemon shutting down"
                if self._stopping
                else f"queue full ({len(self._queue)} waiting, {self._queued_bytes} bytes held; "
                f"this request holds {held})"
            )
            self._send(envelope, self._status(request, Status.BUSY, why))
            return
        self._queued_bytes += held
        running = self._tasks.get(self._running_keys.get(key, ""))
        if running is not None:  # the same evaluation is in flight: answered when it is done
            running.duplicates[request.request_id] = (request, [envelope], held)
            self._duplicates[request.request_id] = running
            self._pending[request.run_id] += 1
            return
        self._tasks[request.request_id] = Task(request, key, payload, held, [envelope])
        self._running_keys[key] = request.request_id
        self._pending[request.run_id] += 1
        self._queue.append(request.request_id)

    def _assign(self) -> None:
        for slot in self.pool.idle():
            if not self._queue:
                return
            task = self._tasks[self._queue.popleft()]
            self._queued_bytes -= task.held
            self.pool.assign(
                slot, task.request.request_id.encode(), task.payload, deadline_s(task.request)
            )

    def _refuse_queued(self) -> None:
        while self._queue:
            self._queued_bytes -= self._tasks[self._queue[0]].held
            self._finish(
                self._queue.popleft(),
                None,
                "daemon shutting down before this request started",
                Status.BUSY,
            )

    # ---- worker answers --------------------------------------------------------------------
    def _finish(
        self, request_id: str, payload: bytes | None, why: str, status: Status = Status.DAEMON_ERROR
    ) -> None:
        task = self._tasks.pop(request_id, None)
        if task is None:
            return
        self._running_keys.pop(task.key, None)
        try:
            result = (
                self._status(task.request, status, why)
                if payload is None
                else EvalResult.model_validate_json(payload)
            )
        except ValueError:  # no candidate text in a DAEMON_ERROR: the payload is not quoted
            log.exception("unreadable worker answer for %s", request_id)
            result = self._status(task.request, Status.DAEMON_ERROR, "unreadable worker answer")
        self._pending[task.request.run_id] -= 1
        self._answer(task.waiters, task.request, task.key, result)
        for request, envelopes, held in task.duplicates.values():
            del self._duplicates[request.request_id]
            self._queued_bytes -= held
            self._pending[request.run_id] -= 1
            cached = self.store.lookup(request.run_id, task.key)
            answer = result if cached is None else cached  # uncached: BUSY or DAEMON_ERROR
            self._answer(
                envelopes,
                request,
                task.key,
                answer.model_copy(update={"request_id": request.request_id}),
            )
        for run in {task.request.run_id, *(r.run_id for r, _, _ in task.duplicates.values())}:
            if self._pending[run] <= 0:
                del self._pending[run]

    def _answer(
        self, envelopes: list[list[bytes]], request: EvalRequest, key: str, result: EvalResult
    ) -> None:
        """Charge and log (one transaction), then reply: a crash in between loses no charge. A
        state file that cannot be written (a full disk) charges nothing: DAEMON_ERROR, and the
        daemon serves on."""
        try:
            result = self.store.record(request.run_id, key, result)
        except sqlite3.Error as e:
            log.error("cannot record %s in the state file: %s", request.request_id, e)
            result = self._status(request, Status.DAEMON_ERROR, STATE_UNWRITABLE)
        for envelope in envelopes:
            self._send(envelope, result)
        self._answers += 1
        if self._answers % TRIM_EVERY == 0:
            with contextlib.suppress(sqlite3.Error):  # trimmed at the next chance
                self.store.trim()

    # ---- replies ---------------------------------------------------------------------------
    def _send(self, envelope: list[bytes], message: BaseModel) -> None:
        self._router.send_multipart([*envelope, message.model_dump_json().encode()])

    def _status(self, request: EvalRequest, status: Status, message: str) -> EvalResult:
        return EvalResult(
            request_id=request.request_id,
            status=status,
            message=message,
            backend=self.backend.name,
            simulated=self.backend.simulated,
            soc=request.soc,
        )

    def _fingerprint(self, soc: str) -> dict[str, str]:
        """Per soc, computed once: the backend's sources do not change under a running daemon."""
        if soc in self._fingerprints:
            return self._fingerprints[soc]
        fingerprint = {**self.backend.fingerprint(soc), "daemon_code": _code_digest()}
        if len(self._fingerprints) < MAX_FINGERPRINTS:
            self._fingerprints[soc] = fingerprint
        return fingerprint

    def stats(self, request_id: str = "") -> StatsReply:
        totals = self.store.totals()
        return StatsReply(
            request_id=request_id,
            backend=self.backend.name,
            simulated=self.backend.simulated,
            workers=self.pool.size,
            queued=len(self._queue),
            running=self.pool.running(),
            workers_alive=self.pool.alive(),
            max_queue=self.max_queue,
            evaluations=totals["evaluations"],
            cache_hits=totals["cache_hits"],
            shared_cache_hits=totals["shared_cache_hits"],
            cache_entries=totals["cache_entries"],
            sandbox_user=self.sandbox_user,
            uptime_s=time.monotonic() - self.started,
            queued_bytes=self._queued_bytes,
            in_flight_bytes=self._inflight.held,
            connections_cut=self._inflight.cut,
            versions={
                "ascend_gym": importlib.metadata.version("ascend_gym"),
                "protocol": str(PROTOCOL_VERSION),
                "python": platform.python_version(),
                "pyzmq": zmq.pyzmq_version(),
                "zmq": zmq.zmq_version(),
            },
        )

    def health(self, request_id: str = "", about: str = "") -> HealthReply:
        alive = self.pool.alive()
        known = (
            (
                about in self._tasks
                or about in self._duplicates
                or self.store.answered(about) is not None
            )
            if about
            else None
        )
        return HealthReply(
            request_id=request_id,
            ok=not self._stopping and alive > 0,
            workers=self.pool.size,
            workers_alive=alive,
            queued=len(self._queue),
            running=self.pool.running(),
            max_queue=self.max_queue,
            known=known,
        )


def held_bytes(*roots: object) -> int:
    """The memory the objects hold, each shared object once: a parsed request is not its wire
    size (a str takes up to 4 bytes a character, so one astral character makes a whole source
    four times its UTF-8 size; a number in a list takes 32 bytes where its JSON takes a few)."""
    seen: set[int] = set()
    stack, total = list(roots), 0
    while stack:
        obj = stack.pop()
        if id(obj) in seen:
            continue
        seen.add(id(obj))
        total += sys.getsizeof(obj)
        if isinstance(obj, dict):
            stack += [*obj.keys(), *obj.values()]
        elif isinstance(obj, list | tuple | set | frozenset):
            stack += obj
        elif isinstance(obj, BaseModel):
            stack.append(obj.__dict__)
    return total


@functools.cache
def _code_digest() -> str:
    """The Python that evaluates and checks (backends, checker, package model): part of the cache key,
    so a persisted result never outlives the code that produced it."""
    daemon, core = Path(__file__).resolve().parents[1], Path(ascend_core.__file__).resolve().parent
    files = sorted([*daemon.rglob("*.py"), *core.glob("*.py")])
    parts = [[f.relative_to(daemon.parent).as_posix(), f.read_bytes()] for f in files]
    return identity.digest("daemon-code", parts)[:24]


class StateDirInUse(RuntimeError):
    """Another daemon serves from this state directory: two would share one ledger and charge
    each run twice, so the second is refused."""


def lock_state_dir(state_dir: Path) -> int:
    """An exclusive lock on `state_dir` for this process's lifetime (released when it exits, even
    by a kill); the file descriptor that holds it."""
    state_dir.mkdir(parents=True, exist_ok=True)
    fd = os.open(state_dir / "daemon.lock", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.pread(fd, 32, 0).decode(errors="replace").strip() or "?"
        os.close(fd)
        raise StateDirInUse(
            f"state dir {state_dir} is in use by another daemon (pid {holder}); give each daemon "
            "its own --state-dir"
        ) from None
    os.ftruncate(fd, 0)
    os.pwrite(fd, str(os.getpid()).encode(), 0)
    return fd


def default_state_dir() -> Path:
    return cache_dir() / "daemon"


def _short(e: Exception) -> str:
    return str(e).replace("\n", "; ")[:500]
