"""Reading files in a candidate's directory, which its processes could have replaced: never follow
a link, never block on a FIFO, check the type and the exact size, read a bounded count.

A file that is missing, of the wrong type or too long is the candidate's doing (`Tampered`, a
charged RUNTIME_ERROR); one that is too short was cut by a full disk under the daemon's own writer
(an `OSError`, answered DAEMON_ERROR): candidate code cannot open files for writing (the sim
harness's syscall filter), so only the trusted launcher writes them.
"""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path


class Tampered(Exception):
    """A file the daemon reads is not what its own writer left."""


def read_exact(path: Path, size: int) -> bytes:
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    except FileNotFoundError:
        raise Tampered(f"{path.name} is missing") from None
    except OSError as e:
        if e.errno == errno.ELOOP:
            raise Tampered(f"{path.name} is a symbolic link") from None
        raise
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise Tampered(f"{path.name} is not a regular file")
        if info.st_size > size:
            raise Tampered(f"{path.name} holds {info.st_size} bytes, more than its {size}")
        if info.st_size < size:
            raise OSError(
                errno.ENOSPC, f"{path.name}: {info.st_size} of {size} bytes on disk (disk full?)"
            )
        chunks, left = [], size
        while left:
            chunk = os.read(fd, min(left, 1 << 24))
            if not chunk:
                raise OSError(errno.EIO, f"{path.name}: shorter than its size")
            chunks.append(chunk)
            left -= len(chunk)
        return b"".join(chunks)
    finally:
        os.close(fd)


def read_descriptor(fd: int, limit: int) -> bytes:
    """All of a (memfd) descriptor from its start, at most `limit` bytes."""
    os.lseek(fd, 0, os.SEEK_SET)
    chunks, left = [], limit
    while left and (chunk := os.read(fd, min(left, 1 << 16))):
        chunks.append(chunk)
        left -= len(chunk)
    return b"".join(chunks)
