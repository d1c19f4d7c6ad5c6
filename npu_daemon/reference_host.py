"""Where a client's reference runs: a child of a process that holds nothing of the daemon's.

`sandbox.call` forks the caller: the child has the caller's whole memory. A daemon's worker holds
the case secret (the key of every case a candidate is judged on), the evaluation's drawn seed and
whatever case data its earlier evaluations left in its heap, and a client's reference is Python,
which reaches all of it (its own stack's frames, `gc`, its process's pages). So client code runs
in a child of this host instead: a fresh interpreter the worker execs once (nothing of the
worker's memory crosses an exec), which imports what references may use and then only forks.
The host never reads a job: it receives a job's descriptors (the job's socket and its two log
files) and forks, and the child reads the job, so no job leaves a trace in the host's memory for
the next one's child to find. The child confines itself as `sandbox.call`'s does (`sandbox.enter`:
limits, the worker's sandbox user, namespaces) and gets a /proc showing its own user's processes
only (the daemon's command line carries `--case-secret` where a researcher passed one), then runs
the job's function and reports.

The worker's side (`call`) is `sandbox.call`'s: the same limits, logs and `sandbox.Completed`,
the wall time counted by the worker, the child's process group killed when it ends. The host
reaps a child only when the worker says so, after that kill, so the group's id is never another
process's.
"""

from __future__ import annotations

import contextlib
import functools
import importlib
import os
import pickle
import select
import signal
import socket
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from npu_daemon import sandbox

# What a client's reference may import besides what the reference host has loaded already. The
# sandboxed child is forked, not exec'd, and its user may have no access to the interpreter's files
# (a venv under /root, or in a 0700 directory), so a module first imported there is not found: the
# submodules numpy loads lazily are imported in the host before the fork, and so is the cube's
# documented accumulation, which the references of cube operators call.
REFERENCE_MODULES = (
    "numpy.ma",
    "numpy.fft",
    "numpy.random",
    "numpy.polynomial",
    "math",
    "ascend_core.suite.cube_ref",
)
OPTIONAL_REFERENCE_MODULES = ("scipy.special",)  # where installed (the `embed` extra brings it)


@functools.cache
def preload_reference_modules() -> tuple[str, ...]:
    """Import every module a client's reference may use; the ones that are installed."""
    for name in REFERENCE_MODULES:
        importlib.import_module(name)
    loaded = list(REFERENCE_MODULES)
    for name in OPTIONAL_REFERENCE_MODULES:
        try:
            importlib.import_module(name)
        except ImportError:
            continue
        loaded.append(name)
    return tuple(loaded)


# What torch goldens import beside torch, where installed (the cann-bench extra brings them):
# ml_dtypes and en_dtypes for the float8/MX helpers, einops for rearrange.
OPTIONAL_GOLDEN_MODULES = ("ml_dtypes", "en_dtypes", "einops")


@functools.cache
def preload_torch() -> None:
    """Import torch (and the modules goldens reach) before a torch golden's child is forked."""
    for name in ("torch", "torch.nn.functional", "torch.fft", "torch.linalg"):
        importlib.import_module(name)
    for name in OPTIONAL_GOLDEN_MODULES:
        try:
            importlib.import_module(name)
        except ImportError:
            continue
    importlib.import_module("npu_daemon.torch_golden")


NEW, NEW_TORCH, REAP = b"n", b"t", b"r"
STARTUP_S = 60.0  # the host's start and its torch import, at most, before a job's child exists
_PID = struct.Struct("<q")
_host: tuple[subprocess.Popen, socket.socket] | None = None
_lock = threading.Lock()


def _started() -> socket.socket:
    """The worker's end of its host's control socket, the host started (again) if it is gone."""
    global _host
    if _host is not None and _host[0].poll() is None:
        return _host[1]
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)  # one message a recv
    process = subprocess.Popen(
        [sys.executable, "-m", "npu_daemon.reference_host", str(theirs.fileno())],
        pass_fds=(theirs.fileno(),),
        stdin=subprocess.DEVNULL,
        close_fds=True,
    )
    theirs.close()
    _host = (process, ours)
    return ours


def call(
    fn: Callable[..., None],
    args: tuple[Any, ...],
    cwd: Path,
    timeout_s: float,
    limits: sandbox.Limits,
    torch: bool = False,
) -> sandbox.Completed:
    """Run `fn(*args)` (a module-level function: it is pickled by name) in a confined child of
    the host with `cwd` as its directory, as `sandbox.call` runs a function; `torch`: the host
    imports torch first. Exit status 0 if `fn` returned."""
    identity = sandbox.current_identity()
    cwd = cwd.resolve()
    if identity is not None:
        os.chown(cwd, identity.uid, identity.gid)
        os.chmod(cwd, 0o700)
    job = pickle.dumps((fn, args, cwd, limits, identity, sandbox.memory_cap_mb()))
    start = time.monotonic()
    with sandbox.logs(cwd) as (out, err):
        mine, child_end = socket.socketpair(socket.AF_UNIX, socket.SOCK_STREAM)
        with mine:
            with _lock:
                control = _started()
                try:
                    socket.send_fds(
                        control,
                        [NEW_TORCH if torch else NEW],
                        [child_end.fileno(), out.fileno(), err.fileno()],
                    )
                finally:
                    child_end.close()
            pid, returncode, timed_out = _follow(mine, job, timeout_s)
        if pid > 0:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(pid, signal.SIGKILL)
            with _lock, contextlib.suppress(OSError):  # a host gone since took its children along
                control.sendall(REAP + _PID.pack(pid))
        return sandbox.Completed(
            returncode,
            sandbox.excerpt(out),
            sandbox.excerpt(err),
            timed_out,
            time.monotonic() - start,
        )


def _follow(conn: socket.socket, job: bytes, timeout_s: float) -> tuple[int, int, bool]:
    """(the child's pid, its status, whether it timed out): the job sent, its pid read, and its
    status byte within `timeout_s` of the pid; a child that ends without one failed (a limit
    killed it). The host's own start (an interpreter, torch on a golden's first job) is ours, not
    the reference's: it has `STARTUP_S` before the child's pid arrives."""
    received = b""
    sent = False
    deadline = time.monotonic() + STARTUP_S
    conn.setblocking(False)
    payload = memoryview(_PID.pack(len(job)) + job)
    while len(received) < _PID.size + 1:
        left = deadline - time.monotonic()
        if left <= 0:
            return (
                (_PID.unpack(received[: _PID.size])[0] if len(received) >= _PID.size else 0),
                1,
                True,
            )
        readable, writable, _ = select.select([conn], [conn] if not sent else [], [], left)
        if writable:
            try:
                payload = payload[conn.send(payload) :]
            except OSError:
                payload = payload[:0]  # the child is gone: its status (none) says so
            sent = not payload
        if readable:
            try:
                chunk = conn.recv(64)
            except OSError:
                chunk = b""
            if not chunk:
                break
            if len(received) < _PID.size <= len(received) + len(chunk):
                deadline = time.monotonic() + timeout_s  # the child started: the reference's time
            received += chunk
    pid = _PID.unpack(received[: _PID.size])[0] if len(received) >= _PID.size else 0
    status = received[_PID.size] if len(received) > _PID.size else 1
    return pid, status, False


# ---- the host (`python -m npu_daemon.reference_host FD`) ------------------------------------------
def _child(conn_fd: int, out_fd: int, err_fd: int) -> None:  # pragma: no cover - a forked child
    def job() -> None:
        os.setsid()
        os.dup2(os.open(os.devnull, os.O_RDONLY), 0)
        os.dup2(out_fd, 1)
        os.dup2(err_fd, 2)
        os.dup2(conn_fd, 3)
        os.closerange(4, os.sysconf("SC_OPEN_MAX"))
        conn = socket.socket(fileno=3)
        conn.sendall(_PID.pack(os.getpid()))
        size = _PID.unpack(_read(conn, _PID.size))[0]
        fn, args, cwd, limits, identity, cap = pickle.loads(_read(conn, size))
        conn.detach()  # descriptor 3 stays open for the status byte
        sandbox.cap_memory(cap)
        sandbox.enter(limits, identity, cwd, [cwd] if identity is not None else [], own_proc=True)
        os.chdir(cwd)
        fn(*args)

    sandbox.child_exit(job, lambda code: os.write(3, bytes([code])))


def _read(conn: socket.socket, n: int) -> bytes:
    parts, left = [], n
    while left:
        chunk = conn.recv(min(left, 1 << 20))
        if not chunk:
            raise EOFError("the worker closed the job")
        parts.append(chunk)
        left -= len(chunk)
    return b"".join(parts)


def serve(control: socket.socket) -> None:
    """Fork a child for each job's descriptors; reap one when the worker asks; end with the worker."""
    preload_reference_modules()
    while True:
        message, fds, _, _ = socket.recv_fds(control, 1 + _PID.size, 3)
        if not message:
            return  # the worker is gone
        if message[:1] == REAP:
            with contextlib.suppress(ChildProcessError):
                os.waitpid(_PID.unpack(message[1:])[0], 0)
            continue
        if message[:1] == NEW_TORCH:
            preload_torch()
        if len(fds) != 3:
            raise SystemExit("a job without its three descriptors")
        if os.fork() == 0:  # pragma: no cover - the child
            control.close()
            _child(*fds)
        for fd in fds:
            os.close(fd)


if __name__ == "__main__":
    serve(socket.socket(fileno=int(sys.argv[1])))
