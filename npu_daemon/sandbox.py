"""Run one untrusted command (a compiler on candidate source, a harness running candidate code).

The child gets its own session (so a timeout kills the whole process group), resource limits on
CPU seconds, address space, file size, open files and processes, a scrubbed environment, no
inherited descriptors, and its output goes to files in its throwaway directory (bounded by the
file-size limit) of which only the tail is read back.

A daemon running as root first calls `configure(Identity(...))` in each worker: children then
drop to that worker's own unprivileged uid (root ignores RLIMIT_NPROC; a uid per worker keeps
one worker's processes from counting against another's limit and from reading its files) in a
network namespace of their own (no network at all), and after every command everything that uid
still runs is killed, so a child that escaped its process group does not outlive the command.
"""

from __future__ import annotations

import ctypes
import os
import resource
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, Field

TAIL_BYTES = 8192
CLONE_NEWNET = 0x40000000
_libc = ctypes.CDLL(None, use_errno=True)


class Limits(BaseModel):
    cpu_s: int = Field(120, gt=0)
    address_space_mb: int = Field(8192, gt=0)
    file_size_mb: int = Field(256, gt=0)  # also bounds what a command can print
    open_files: int = Field(256, gt=0)
    processes: int = Field(128, gt=0)  # threads count too: the harness runs one per parked block


class Identity(BaseModel):
    """The unprivileged user candidate commands run as (only a root daemon can switch to it)."""

    uid: int = Field(gt=0)
    gid: int = Field(gt=0)
    isolate_network: bool = True


_identity: Identity | None = None


def configure(identity: Identity | None) -> None:
    """Set, for this process, who sandboxed commands run as (None: the daemon's own user)."""
    global _identity
    _identity = identity


def current_identity() -> Identity | None:
    return _identity


@dataclass
class Completed:
    returncode: int
    stdout: str
    stderr: str
    timed_out: bool
    wall_s: float

    @property
    def signal_name(self) -> str | None:
        if self.returncode < 0:
            try:
                return signal.Signals(-self.returncode).name
            except ValueError:
                return f"signal {-self.returncode}"
        return None


def _tail(path: Path) -> str:
    with path.open("rb") as f:
        f.seek(0, os.SEEK_END)
        f.seek(max(0, f.tell() - TAIL_BYTES))
        return f.read().decode(errors="replace")


def _enter(limits: Limits, identity: Identity | None) -> None:
    """In the child, before exec: limits first (as root RLIMIT_NPROC may still be set), then drop."""
    mb = 1024 * 1024
    resource.setrlimit(resource.RLIMIT_CPU, (limits.cpu_s, limits.cpu_s + 1))
    resource.setrlimit(resource.RLIMIT_AS, (limits.address_space_mb * mb,) * 2)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limits.file_size_mb * mb,) * 2)
    resource.setrlimit(resource.RLIMIT_NOFILE, (limits.open_files,) * 2)
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))
    if identity is None:
        return
    # RLIMIT_NPROC counts every process of the uid, which is this worker's alone.
    resource.setrlimit(resource.RLIMIT_NPROC, (limits.processes,) * 2)
    if identity.isolate_network and _libc.unshare(CLONE_NEWNET) != 0:
        raise OSError(ctypes.get_errno(), "unshare(CLONE_NEWNET) failed")
    os.setgroups([])
    os.setgid(identity.gid)
    os.setuid(identity.uid)


def kill_all(uid: int) -> None:
    """SIGKILL every process of `uid` (kill(-1) from a child that became that uid)."""
    pid = os.fork()
    if pid == 0:  # pragma: no cover - the child only makes two system calls
        try:
            os.setuid(uid)
            os.kill(-1, signal.SIGKILL)
        finally:
            os._exit(0)
    os.waitpid(pid, 0)


def run(cmd: list[str], cwd: Path, timeout_s: float, limits: Limits, env: dict[str, str] | None = None) -> Completed:
    identity = _identity
    if identity is not None:  # the command's directory is its own: private to its uid
        os.chown(cwd, identity.uid, identity.gid)
        os.chmod(cwd, 0o700)
    out_path, err_path = cwd / ".stdout", cwd / ".stderr"
    clean_env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8", "HOME": str(cwd), "TMPDIR": str(cwd),
                 **(env or {})}
    start = time.monotonic()
    with out_path.open("wb") as out, err_path.open("wb") as err:
        proc = subprocess.Popen(
            cmd,
            cwd=cwd,
            stdin=subprocess.DEVNULL,
            stdout=out,
            stderr=err,
            env=clean_env,
            start_new_session=True,
            close_fds=True,
            preexec_fn=lambda: _enter(limits, identity),
        )
        timed_out = False
        try:
            proc.wait(timeout=timeout_s)
        except subprocess.TimeoutExpired:
            timed_out = True
        finally:
            # The whole group: a candidate's children die with it.
            try:
                os.killpg(proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass
            proc.wait()
            if identity is not None:
                kill_all(identity.uid)
    return Completed(proc.returncode, _tail(out_path), _tail(err_path), timed_out, time.monotonic() - start)
