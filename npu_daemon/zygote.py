"""Compilers started once, each sandboxed command of theirs a fork of a ready copy (zygote.c).

clang and wasm-ld spend 20 and 15 ms of CPU before their main (the dynamic loader relocating
libLLVM, and its page faults); the guest engine's kernel build runs them three times a kernel
(docs/trust_boundary.md, What it costs). A program registered with `serve` is started once per
worker process, with zygote.c preloaded: it stops before its main and serves requests on a socket
only this worker holds. Each command then is a fork of it, confined by sandbox_exec's own code
(the same arguments `sandbox.run` gives sandbox_exec) before the program's main runs in it: the
same limits, identity, namespaces and view, the same session and group kill, the timeout kept by
the server. Idle servers are kept per program, one per command running at once.
"""

from __future__ import annotations

import array
import functools
import logging
import os
import shutil
import socket
import struct
import subprocess
import threading
from pathlib import Path

from npu_daemon import helpers

SOURCE = Path(__file__).with_name("zygote.c")
CONFINE_SOURCE = Path(__file__).with_name("sandbox_exec.c")
REPLY = struct.Struct("4q")
ERRFD = 3  # where the child finds sandbox_exec's report descriptor
# Beyond the command's own timeout: the server itself failing to answer is our fault, not the
# command's (the server is then stopped and the command reported as a sandbox error).
GRACE_S = 30.0

log = logging.getLogger(__name__)
_programs: set[str] = set()
_idle: dict[str, list[Server]] = {}
_lock = threading.Lock()
_owner = os.getpid()
_cpu_s = 0.0  # the CPU of the commands served, which this process's RUSAGE_CHILDREN lacks


def serve(program: str) -> None:
    """Run `program`'s sandboxed commands as forks of a started copy from now on."""
    _programs.add(program)


def serves(program: str) -> bool:
    return program in _programs


class ServerError(OSError):
    """The fork server failed (not the command): the command is run by sandbox_exec instead."""


def stop(program: str, error: Exception | None = None) -> None:
    """Serve `program` no more in this process (its server failed: `error`); idle servers end."""
    if error is not None and program in _programs:
        log.warning("fork server of %s stopped (%s): sandbox_exec from now on", program, error)
    _programs.discard(program)
    with _lock:
        idle = _idle.pop(program, [])
    for server in idle:
        server.close()


def cpu_s() -> float:
    """User + system CPU of every command served so far for this process (their server reaped
    them, so they are in the server's children's times, not in ours)."""
    return _cpu_s


@functools.cache
def library() -> Path:
    """zygote.so (preloaded into a program that runs as root until its children drop to the
    sandbox user)."""
    flags = ["-shared", "-fPIC", "-DSANDBOX_CONFINE_ONLY"]
    return helpers.compiled("zygote.so", [SOURCE, CONFINE_SOURCE], flags)


class Server:
    """One started copy of a program, serving one command at a time."""

    def __init__(self, program: str):
        ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
        path = shutil.which(program) or program
        env = {
            "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
            "LD_PRELOAD": str(library()),
            "ASCENDC_ZYGOTE_FD": str(theirs.fileno()),
        }
        with theirs:
            self.process = subprocess.Popen(
                [path],
                env=env,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.DEVNULL,
                stderr=subprocess.DEVNULL,
                start_new_session=True,
                close_fds=True,
                pass_fds=(theirs.fileno(),),
            )
        self.socket = ours

    def run(
        self,
        args: list[str],
        env: dict[str, str],
        cwd: Path,
        fds: tuple[int, int, int],
        timeout_s: float,
    ) -> tuple[int, bool]:
        """sandbox_exec's `args` (ERRFD 3) in a fork in `cwd` with `fds` as stdout, stderr and
        ERRFD: (wait status, timed out). ServerError if the server is gone, fails or does not
        answer."""
        global _cpu_s
        ms = max(0, min(int(timeout_s * 1000), 2**31 - 1))
        strings = [*(f"{k}={v}" for k, v in env.items()), "", str(cwd), *args]
        payload = struct.pack("I", ms) + b"".join(s.encode() + b"\0" for s in strings)
        try:
            self.socket.sendmsg(
                [payload], [(socket.SOL_SOCKET, socket.SCM_RIGHTS, array.array("i", fds))]
            )
            self.socket.settimeout(timeout_s + GRACE_S)
            reply = self.socket.recv(REPLY.size)
        except OSError as e:
            raise ServerError(f"the fork server did not answer: {e}") from e
        if len(reply) != REPLY.size:
            raise ServerError("the fork server ended")
        status, timed_out, user_us, system_us = REPLY.unpack(reply)
        if status < 0:
            raise ServerError("the fork server could not start the command")
        with _lock:
            _cpu_s += (user_us + system_us) / 1e6
        return status, bool(timed_out)

    def close(self) -> None:
        self.socket.close()  # the server's recv ends: it exits
        try:
            self.process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()


def take(program: str) -> Server:
    """An idle server of `program`, or a new one."""
    global _owner
    with _lock:
        if _owner != os.getpid():  # a forked worker: its parent's servers are not its own
            _idle.clear()
            _owner = os.getpid()
        idle = _idle.setdefault(program, [])
        if idle:
            return idle.pop()
    return Server(program)


def give_back(program: str, server: Server) -> None:
    with _lock:
        _idle.setdefault(program, []).append(server)
