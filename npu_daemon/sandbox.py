"""Run one untrusted command (a compiler on candidate source, a harness running candidate code).

The child gets its own session (so a timeout kills the whole process group), resource limits on
CPU seconds, address space, file size and open files, a scrubbed environment, no inherited
descriptors, and its output goes to files in its throwaway directory (bounded by the file-size
limit) of which only the tail is read back.
"""

from __future__ import annotations

import os
import resource
import signal
import subprocess
import time
from dataclasses import dataclass
from pathlib import Path

from pydantic import BaseModel, Field

TAIL_BYTES = 8192


class Limits(BaseModel):
    cpu_s: int = Field(120, gt=0)
    address_space_mb: int = Field(8192, gt=0)
    file_size_mb: int = Field(1024, gt=0)
    open_files: int = Field(256, gt=0)


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


def _limit(limits: Limits) -> None:
    mb = 1024 * 1024
    resource.setrlimit(resource.RLIMIT_CPU, (limits.cpu_s, limits.cpu_s + 1))
    resource.setrlimit(resource.RLIMIT_AS, (limits.address_space_mb * mb,) * 2)
    resource.setrlimit(resource.RLIMIT_FSIZE, (limits.file_size_mb * mb,) * 2)
    resource.setrlimit(resource.RLIMIT_NOFILE, (limits.open_files,) * 2)
    resource.setrlimit(resource.RLIMIT_CORE, (0, 0))


def run(cmd: list[str], cwd: Path, timeout_s: float, limits: Limits, env: dict[str, str] | None = None) -> Completed:
    out_path, err_path = cwd / ".stdout", cwd / ".stderr"
    clean_env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "LANG": "C.UTF-8", "HOME": str(cwd), **(env or {})}
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
            preexec_fn=lambda: _limit(limits),
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
    return Completed(proc.returncode, _tail(out_path), _tail(err_path), timed_out, time.monotonic() - start)
