"""Outputs too large for files, compared while the harness writes them.

A checked run of a case whose outputs exceed the file-size bound of a sandboxed command
(`case_data.streamed`) gives the harness a FIFO per output instead of a file. The launcher writes
each output in turn once the launch is done; a thread of the daemon reads it `checker.CHUNK`
elements at a time and feeds `checker.Comparison` against the reference, memory-mapped from the
case cache. No output is ever whole in the daemon's memory or in a file.
"""

from __future__ import annotations

import errno
import io
import math
import os
import stat
import threading
from pathlib import Path

import numpy as np

from ascend_core.package import Case, OperatorSpec
from ascend_core.protocol import CaseCheck, Status
from npu_daemon import candidate_files, checker, sandbox
from npu_daemon.backends.base import CaseFailure, wrong_answer
from npu_daemon.backends.sim import sampled_outputs


class OutputStream:
    """FIFOs `out_<name>.bin` in `case_dir`, read and compared from the moment it is made."""

    def __init__(
        self,
        spec: OperatorSpec,
        case: Case,
        case_dir: Path,
        expected: list[np.ndarray],
        sampled: bool = False,
    ):
        # `sampled`: the outputs come in a sampled run's format (sampled_outputs)
        self.spec, self.case, self.expected, self.sampled = spec, case, expected, sampled
        self.fifos: list[tuple[Path, int]] = []  # path, inode: the daemon's own FIFO, not a swap
        identity = sandbox.current_identity()
        for arg in spec.outputs:
            path = case_dir / f"out_{arg.name}.bin"
            os.mkfifo(path, 0o600)
            if identity is not None:  # the launcher runs as the sandbox user
                os.chown(path, identity.uid, identity.gid)
            self.fifos.append((path, os.stat(path).st_ino))
        self.checks: list[CaseCheck] = []
        self.swapped = ""  # a FIFO that is not the daemon's: the candidate's doing
        self.short = ""  # a stream cut short
        self._error: BaseException | None = None
        self._thread = threading.Thread(target=self._read, name="output-stream", daemon=True)
        self._thread.start()

    def _read(self) -> None:
        try:
            for (path, inode), arg, want in zip(self.fifos, self.spec.outputs, self.expected):
                dtype = self.spec.arg_dtype(self.case, arg.name)
                storage = np.dtype(checker.STORAGE[dtype])
                # Blocks until the launcher opens its end (or `finish` does).
                with open(os.open(path, os.O_RDONLY | os.O_CLOEXEC), "rb", buffering=0) as f:
                    info = os.fstat(f.fileno())
                    if not stat.S_ISFIFO(info.st_mode) or info.st_ino != inode:
                        self.swapped = f"{path.name} is not the FIFO the daemon made"
                        return
                    if self.sampled:
                        self.checks.append(
                            sampled_outputs.compare(f, self.spec, self.case, arg.name, want)
                        )
                        continue
                    comparison = checker.Comparison(dtype, self.spec.tolerance_for(dtype))
                    flat, size = want.reshape(-1), math.prod(want.shape)
                    buffer = bytearray(min(size, checker.CHUNK) * storage.itemsize)
                    for lo in range(0, size, checker.CHUNK):
                        n = min(checker.CHUNK, size - lo)
                        if not _read_into(f, memoryview(buffer)[: n * storage.itemsize]):
                            self.short = f"output {arg.name} ended after {lo} of {size} elements"
                            return
                        got = np.frombuffer(buffer, dtype=storage, count=n)
                        comparison.add(got, flat[lo : lo + n])
                    self.checks.append(comparison.check(self.case.name))
        except BaseException as e:  # noqa: BLE001 - re-raised in the evaluation by `check`
            self._error = e

    def finish(self) -> None:
        """Once the harness has ended: a FIFO the launcher never opened is opened here (and
        closed) so the reader sees it end, and the reader is joined."""
        while self._thread.is_alive():
            for path, _ in self.fifos:
                try:
                    os.close(os.open(path, os.O_WRONLY | os.O_NONBLOCK | os.O_CLOEXEC))
                except OSError as e:
                    if e.errno not in (errno.ENXIO, errno.ENOENT):  # no reader waiting there
                        raise
            self._thread.join(0.05)

    def check(self, log: str) -> CaseCheck:
        """The verdict, as `check_outputs` gives it for files: the first output that differs is a
        WRONG_ANSWER; a swapped FIFO is the candidate's (RUNTIME_ERROR), a stream the launcher cut
        short after reporting success the daemon's (OSError: DAEMON_ERROR, uncharged)."""
        if isinstance(self._error, candidate_files.Tampered):
            raise CaseFailure(Status.RUNTIME_ERROR, f"case {self.case.name}: {self._error}", log)
        if self._error is not None:
            raise self._error
        if self.swapped:
            raise CaseFailure(Status.RUNTIME_ERROR, f"case {self.case.name}: {self.swapped}", log)
        if self.short:
            raise OSError(errno.EIO, f"case {self.case.name}: {self.short}")
        for arg, check in zip(self.spec.outputs, self.checks):
            if not check.passed:
                raise wrong_answer(self.case, arg.name, check, log)
        return check


def _read_into(f: io.RawIOBase, view: memoryview) -> bool:
    """Fill `view` from `f`; False if the stream ends first."""
    done = 0
    while done < len(view):
        n = f.readinto(view[done:])
        if not n:
            return False
        done += n
    return True
