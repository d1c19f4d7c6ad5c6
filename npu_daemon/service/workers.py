"""A pool of worker processes, each evaluating one request at a time.

Each worker talks to the server over its own pipe (a socketpair): it announces READY, receives
`(task_id, request)`, answers with the result. A pipe per worker, polled by the server next to its
ZeroMQ socket, is one wake-up per message where a ZeroMQ hop costs four (two I/O threads), and a
late message from a worker that was replaced cannot arrive: its pipe went with it. The server keeps
the pool's bookkeeping in its own thread; a worker that dies or overruns its request's deadline is killed,
its request answered DAEMON_ERROR (the client may retry it) and a fresh worker takes its slot.
Each worker evaluates in its own throwaway directory and, under a root daemon, runs candidate
commands as its own unprivileged uid (see npu_daemon/sandbox.py).
"""

from __future__ import annotations

import ctypes
import fcntl
import gc
import hashlib
import hmac
import logging
import multiprocessing
import os
import shutil
import signal
import stat
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import IO

import zmq

from ascend_core.protocol import EvalRequest, Stage
from npu_daemon import evaluation, references, sandbox, source_policy
from npu_daemon.backends.base import Backend

log = logging.getLogger("npu_daemon")

READY, STOP = b"READY", b"STOP"
PR_SET_PDEATHSIG, PR_SET_CHILD_SUBREAPER = 1, 36
DEADLINE_MARGIN_S = 60.0
UID_BLOCK = 64  # sandbox uids per daemon
# The claims on uid blocks are the host's, whatever TMPDIR a daemon has: under the temp dir of
# its environment, two daemons claimed the same block, and each one's "kill everything of the
# uid" killed the other's compilers and kernels (SIGKILL mid-evaluation). Only root daemons claim
# (only they switch users), so the place is one where only root may add a name: in /tmp, where
# every user may, whoever made `npu_daemon-uids` first kept every root daemon from starting.
UID_LOCKS = Path("/run/npu_daemon-uids")
# Where daemons of earlier trees claim. While a host runs both kinds, a block is claimed in both
# places, so neither kind hands out a block the other holds; a directory there that is not ours
# alone (planted by a user) is passed over, not a reason to stop.
LEGACY_UID_LOCKS = Path("/tmp/npu_daemon-uids")
RESPAWN_BACKOFF_S = 1.0


def deadline_s(request: EvalRequest) -> float:
    """The longest a worker may spend on a request: every build, run and client reference at its
    timeout, plus slack."""
    cases = len(request.package.spec.cases) + 1
    runs = 2 * cases  # the harness and the reference of each case
    return (
        request.timeouts.build_s * (1 + cases) + request.timeouts.run_s * runs + DEADLINE_MARGIN_S
    )


@dataclass
class SandboxUsers:
    """The uids this daemon's workers run candidates as: first_uid + worker index, group gid.

    Every daemon of a host takes its own block of uids (held by a lock file for its lifetime), so
    killing everything a worker's uid runs never touches another daemon's candidates; the group
    is shared, because the build cache it may write to is."""

    first_uid: int
    gid: int
    writable: list[Path]
    lock: IO | None = None
    legacy_lock: IO | None = None  # the same claim where earlier trees look (LEGACY_UID_LOCKS)
    groups: list[int] = field(default_factory=list)

    def release(self) -> None:
        """Give the block back (a daemon's claim ends with its process; tests end theirs)."""
        for held in (self.lock, self.legacy_lock):
            if held is not None:
                held.close()

    def identity(self, index: int) -> sandbox.Identity:
        return sandbox.Identity(
            uid=self.first_uid + index, gid=self.gid, writable=self.writable, groups=self.groups
        )


class SandboxUnavailable(Exception):
    """A root daemon's candidates cannot run as sandbox users here: it must not start."""


def prepare_sandbox(
    base_uid: int,
    workers: int,
    read: list[Path],
    write: list[Path],
    unlisted: list[Path],
    groups: list[int] | None = None,
) -> SandboxUsers | None:
    """Sandbox users from base_uid on; None for a daemon that is not root (it cannot switch users).

    A root daemon never runs candidates as root unasked: when the sandbox cannot work here it
    raises SandboxUnavailable (the daemon refuses to start; `--sandbox-uid 0` asks for root
    explicitly). `read` (the backend's files sandboxed commands use) must be reachable by others,
    `write` (its build cache) is made writable by the sandbox group (sticky, so no uid removes
    another's artefacts), `unlisted` traversable but not listable; `groups` are supplementary
    groups of the sandbox users (device nodes)."""
    if os.geteuid() != 0:
        return None
    for path in read:
        blocked = next(
            (p for p in [path, *path.parents] if not p.stat().st_mode & stat.S_IXOTH), None
        )
        if blocked is not None:
            raise SandboxUnavailable(
                f"{blocked} is not traversable by other users (needed: {path}); "
                "set ASCEND_GYM_CACHE to a directory they can reach"
            )
    write = [p.resolve() for p in write]
    for path in write:
        path.mkdir(parents=True, exist_ok=True)
        os.chown(path, -1, base_uid)
        path.chmod(0o1775)
    for path in unlisted:
        path.mkdir(parents=True, exist_ok=True)
        path.chmod(0o711)
    users = _claim_block(base_uid, max(UID_BLOCK, workers), write)
    users.groups = list(groups or [])
    why = _probe(users.identity(0))
    if why:
        raise SandboxUnavailable(f"the sandbox does not work here ({why})")
    return users


def _probe(identity: sandbox.Identity) -> str:
    """Why a sandboxed command cannot run here (no namespaces, no mount_setattr...), or ''."""
    probe_dir = Path(tempfile.mkdtemp(prefix="npu_daemon-probe-"))
    sandbox.configure(identity)
    try:
        done = sandbox.run(["/bin/sh", "-c", "echo ok > probe"], probe_dir, 10.0, sandbox.Limits())
        return (
            ""
            if done.returncode == 0
            else f"exit code {done.returncode}: {done.stderr.strip()[:200]}"
        )
    except (OSError, subprocess.SubprocessError) as e:
        return f"{type(e).__name__}: {e}"
    finally:
        sandbox.configure(None)
        shutil.rmtree(probe_dir, ignore_errors=True)


def _claims_place(locks: Path) -> None:
    """Refuse a claims directory in a directory where another user may add or replace names:
    there they can make its name first (the daemon then refuses it, and no root daemon of the
    host starts) or swap an ancestor for a link. Every directory above it, as resolved, must be
    root's or ours and written by no one else."""
    for parent in [locks.parent.resolve(), *locks.parent.resolve().parents]:
        try:
            info = os.stat(parent)
        except OSError as e:  # a host without the place's directory
            raise PermissionError(
                f"{parent}: {e.strerror} (the uid claims' place {locks})"
            ) from None
        if info.st_uid not in (0, os.geteuid()) or info.st_mode & 0o022:
            raise PermissionError(
                f"{parent} lets other users add names: the uid claims ({locks}) need a place "
                "only root can create names in"
            )


def _claims_dir(locks: Path) -> None:
    """Make sure `locks` is a directory only this user can change: not a link (which a user of
    the host can plant in /tmp, pointing at a directory of their own, where they would hold,
    remove or add claims), owned by us, written by no one else. A claim is its lock file's
    lock: whoever else could unlink a lock file would let a second daemon claim the block a
    live one holds, and each would kill the other's candidates as its own."""
    try:
        os.mkdir(locks, 0o700)
    except FileExistsError:
        pass
    try:
        fd = os.open(locks, os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError as e:  # a link (ELOOP) or no directory (ENOTDIR)
        raise PermissionError(f"{locks} is not a directory of ours ({e.strerror})") from None
    try:
        info = os.fstat(fd)
    finally:
        os.close(fd)
    if info.st_uid != os.geteuid() or info.st_mode & 0o022:
        raise PermissionError(
            f"{locks} is not ours alone: the uid claims must be out of every other user's reach"
        )


def _legacy_claims() -> Path | None:
    """LEGACY_UID_LOCKS when it is (or is made) a directory of ours alone, else None: a user's
    directory there stops only the earlier trees' daemons."""
    try:
        _claims_dir(LEGACY_UID_LOCKS)
    except PermissionError as e:
        log.warning("uid claims: passing over the earlier trees' place (%s)", e)
        return None
    return LEGACY_UID_LOCKS


def _lock(path: Path) -> IO | None:
    """The claim `path` (a lock file opened without following a link), or None when held."""

    def nofollow(name: str, flags: int) -> int:
        return os.open(name, flags | os.O_NOFOLLOW | os.O_CLOEXEC, 0o600)

    lock = open(path, "w", opener=nofollow)
    try:
        fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        lock.close()
        return None
    return lock


def _claim_block(base_uid: int, size: int, writable: list[Path]) -> SandboxUsers:
    locks = UID_LOCKS
    _claims_place(locks)
    _claims_dir(locks)
    legacy = _legacy_claims()
    for first in range(base_uid, base_uid + 256 * size, size):
        lock = _lock(locks / f"{first}.lock")
        if lock is None:
            continue
        legacy_lock = _lock(legacy / f"{first}.lock") if legacy is not None else None
        if legacy is not None and legacy_lock is None:  # a daemon of an earlier tree holds it
            lock.close()
            continue
        return SandboxUsers(
            first_uid=first, gid=base_uid, writable=writable, lock=lock, legacy_lock=legacy_lock
        )
    raise RuntimeError(f"no free block of {size} sandbox uids from {base_uid}")


def case_seed(secret: bytes, seed: int) -> int:
    """The seed a request's case inputs are drawn from: its public seed keyed by the daemon's
    secret, so no candidate can compute the bench inputs (and embed the outputs) offline, while
    the same secret and seed give the same inputs again (`--case-secret`)."""
    return int.from_bytes(hmac.digest(secret, str(seed).encode(), "sha256")[:8], "big")


def checked_when_timed(request: EvalRequest) -> EvalRequest:
    """A request that times the bench case without the check stage also checks it (that case
    alone): a kernel that skips its work when only timed is a wrong answer, not a fast one."""
    if Stage.TIME not in request.stages or Stage.CHECK in request.stages:
        return request
    return request.model_copy(
        update={
            "stages": [*request.stages, Stage.CHECK],
            # (the bench case of the spec that judges it: a suite operator's own)
            "cases": [references.trusted_package(request.package).spec.bench_case.name],
        }
    )


def secret_id(secret: bytes) -> str:
    """A public name for a case secret (results carry it; the secret is reported at shutdown)."""
    return hashlib.sha256(b"case-secret-id" + secret).hexdigest()[:16]


# ---- inside a worker process -----------------------------------------------------------------
def worker_main(
    backend: Backend,
    conn: Connection,
    identity: sandbox.Identity | None,
    work_root: str,
    policy: bool,
    disk_quota_mb: int,
    case_secret: bytes,
) -> None:
    # Die with the server (even on SIGKILL); adopt orphaned candidate processes, so that killing
    # them (sandbox.kill_all) can also reap them; shutdown is the server's to orchestrate.
    libc = ctypes.CDLL(None)
    libc.prctl(PR_SET_PDEATHSIG, signal.SIGKILL)
    libc.prctl(PR_SET_CHILD_SUBREAPER, 1)
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    sandbox.configure(identity)
    sandbox.cap_memory(backend.memory_bound_mb)
    source_policy.configure(policy)
    if identity is not None:
        sandbox.isolate_network()
        if disk_quota_mb:
            sandbox.isolate_mounts()
    backend.prepare()  # cheap when the server's own prepare() already did the work
    backend.fresh_draws = True  # clients learn nothing from one evaluation's case data for the next
    gc.freeze()  # as the server does: collections walk what requests leave, not the start-up heap
    conn.send_bytes(READY)
    while True:
        try:
            message = conn.recv()
        except EOFError:  # the server is gone
            return
        if message == STOP:
            return
        task_id, payload = message
        request = EvalRequest.model_validate_json(payload)
        drawn = request.model_copy(update={"seed": case_seed(case_secret, request.seed)})
        result = evaluation.evaluate(
            backend, checked_when_timed(drawn), Path(work_root), disk_quota_mb
        )
        result.case_secret_id = secret_id(case_secret)
        conn.send_bytes(result.model_dump_json().encode())


# ---- inside the server -----------------------------------------------------------------------
@dataclass
class Slot:
    index: int
    process: multiprocessing.process.BaseProcess | None = None
    conn: Connection | None = None  # the server's end of the worker's pipe; None once it broke
    ready: bool = False
    task: bytes | None = None
    deadline: float = 0.0
    started: float = 0.0


class WorkerPool:
    """The workers and their pipes; `poller` is the server's, on which the pool keeps its pipes registered."""

    def __init__(
        self,
        poller: zmq.Poller,
        backend: Backend,
        size: int,
        work_root: Path,
        users: SandboxUsers | None,
        source_policy: bool,
        disk_quota_mb: int,
        case_secret: bytes,
    ):
        self.poller, self.backend, self.work_root, self.users = poller, backend, work_root, users
        self.source_policy, self.disk_quota_mb = source_policy, disk_quota_mb
        self.case_secret = case_secret
        self._mp = multiprocessing.get_context("spawn")
        self.slots = [Slot(i) for i in range(size)]
        for slot in self.slots:
            self._spawn(slot)

    def identity(self, index: int) -> sandbox.Identity | None:
        return None if self.users is None else self.users.identity(index)

    def _dir(self, slot: Slot) -> Path:
        """The worker's part of the work root, where it makes its evaluations' directories: one
        killed mid-evaluation never reaches that directory's cleanup, so its replacement starts
        from an empty one (a long-lived daemon whose workers overrun does not fill its disk)."""
        return self.work_root / f"worker-{slot.index}"

    def _spawn(self, slot: Slot) -> None:
        self._dir(slot).mkdir(exist_ok=True)
        self._dir(slot).chmod(0o711)  # as the root: traversable, not listable, by its sandbox user
        ours, theirs = self._mp.Pipe()
        slot.ready, slot.task, slot.started = False, None, time.monotonic()
        slot.process = self._mp.Process(
            target=worker_main,
            name=f"npu_daemon-worker-{slot.index}",
            daemon=True,
            args=(
                self.backend,
                theirs,
                self.identity(slot.index),
                str(self._dir(slot)),
                self.source_policy,
                self.disk_quota_mb,
                self.case_secret,
            ),
        )
        slot.process.start()
        theirs.close()  # the worker holds it now: our end sees EOF when the worker is gone
        slot.conn = ours
        self.poller.register(ours.fileno(), zmq.POLLIN)

    def _drop_pipe(self, slot: Slot) -> None:
        if slot.conn is not None:
            self.poller.unregister(slot.conn.fileno())
            slot.conn.close()
            slot.conn = None

    # ---- state -------------------------------------------------------------------------------
    @property
    def size(self) -> int:
        return len(self.slots)

    def alive(self) -> int:
        return sum(1 for s in self.slots if s.process is not None and s.process.is_alive())

    def idle(self) -> list[Slot]:
        return [s for s in self.slots if s.ready and s.task is None]

    def running(self) -> int:
        return sum(1 for s in self.slots if s.task is not None)

    # ---- traffic -----------------------------------------------------------------------------
    def assign(self, slot: Slot, task_id: bytes, payload: bytes, budget_s: float) -> None:
        slot.task, slot.deadline = task_id, time.monotonic() + budget_s
        try:  # a ready worker is blocked reading its pipe, so this returns once the request is across
            slot.conn.send((task_id, payload))
        except OSError:  # it died meanwhile: reap() answers the request and replaces it
            self._drop_pipe(slot)

    def receive(self, events: dict) -> list[tuple[bytes, bytes]]:
        """(task_id, result JSON) for each worker that answered; READY messages mark workers ready."""
        done = []
        for slot in self.slots:
            if slot.conn is None or slot.conn.fileno() not in events:
                continue
            try:
                payload = slot.conn.recv_bytes()
            except (EOFError, OSError):  # the worker is gone: reap() replaces it
                self._drop_pipe(slot)
                continue
            if payload == READY:
                slot.ready = True
            elif slot.task is not None:
                done.append((slot.task, payload))
                slot.task = None
        return done

    def reap(self) -> list[tuple[bytes, str]]:
        """Replace dead or overdue workers; returns (task_id, why) for the requests they held."""
        lost = []
        now = time.monotonic()
        for slot in self.slots:
            dead = slot.process is None or not slot.process.is_alive() or slot.conn is None
            overdue = slot.task is not None and now > slot.deadline
            if not (dead or overdue) or (
                dead and slot.task is None and now - slot.started < RESPAWN_BACKOFF_S
            ):
                continue  # healthy, or a worker that fails at start-up: respawned at most once per backoff
            why = (
                f"worker {slot.index} exceeded the request's deadline"
                if overdue and not dead
                else f"worker {slot.index} died (exit code {slot.process.exitcode if slot.process else None})"
            )
            log.warning("%s; restarting it", why)
            if slot.task is not None:
                lost.append((slot.task, why))
            self._kill(slot)
            self._spawn(slot)
        return lost

    def _kill(self, slot: Slot) -> None:
        self._drop_pipe(slot)
        if slot.process is not None and slot.process.is_alive():
            slot.process.kill()
        if slot.process is not None:
            slot.process.join(5)
        identity = self.identity(slot.index)
        if identity is not None:  # the sandboxed commands it was running
            sandbox.kill_all(identity.uid)
        shutil.rmtree(self._dir(slot), ignore_errors=True)

    def close(self, timeout_s: float = 10.0) -> None:
        for slot in self.slots:
            if slot.conn is not None and slot.process is not None and slot.process.is_alive():
                try:
                    slot.conn.send(STOP)
                except OSError:
                    pass
        end = time.monotonic() + timeout_s
        for slot in self.slots:
            if slot.process is not None:
                slot.process.join(max(0.0, end - time.monotonic()))
                if slot.process.is_alive():
                    self._kill(slot)
            self._drop_pipe(slot)
