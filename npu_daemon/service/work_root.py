"""A daemon's work root: its directory under the work dir (`--work-dir`, default the system temp
dir), in which its workers make each evaluation's throwaway directory.

A daemon removes its root when it stops. One that cannot (SIGKILL, a crash, a power cut) leaves
the root behind, so each daemon reclaims, as it starts, the roots of daemons that are gone: a
long-lived host whose daemon restarts does not fill its disk. Whose root is whose: each holds an
`owner` file (the daemon's pid, for a reader) that its daemon keeps flock'ed while it lives. The
kernel drops that lock when the process dies, whatever killed it, and a later process given the
same pid does not hold it; so a root is reclaimed only once its lock can be taken. A live
daemon's root, another user's directory, a symlink, or a root without an owner file (one being
made, or one of an older daemon) is left alone.
"""

from __future__ import annotations

import fcntl
import logging
import os
import shutil
import stat
import tempfile
from pathlib import Path
from typing import IO

log = logging.getLogger("npu_daemon")

PREFIX = "npu_daemon-"
OWNER = "owner"


class WorkRoot:
    """A fresh root, made after reclaiming the dead daemons' roots beside it; `remove()` at stop."""

    def __init__(self, workdir: Path | None = None):
        parent = Path(workdir) if workdir else Path(tempfile.gettempdir())
        self.reclaimed = reclaim_stale(parent)
        self.path = Path(tempfile.mkdtemp(prefix=PREFIX, dir=parent))
        try:
            self.path.chmod(0o711)  # traversable, not listable, by the sandbox users
            self._owner: IO[str] | None = _hold(self.path)
        except BaseException:
            shutil.rmtree(self.path, ignore_errors=True)
            raise

    def remove(self) -> None:
        """The root and everything in it; the lock goes last, so no starting daemon reclaims a
        half-removed root while this one still removes it."""
        shutil.rmtree(self.path, ignore_errors=True)
        if self._owner is not None:
            self._owner.close()
            self._owner = None


def _hold(root: Path) -> IO[str]:
    """The root's owner file, locked before it takes its name: no other daemon ever sees it
    unlocked while this one lives. Mode 0600: a candidate cannot open it, so cannot hold the
    lock for a dead daemon either."""
    staging = root / f".{OWNER}"
    owner = os.fdopen(
        os.open(staging, os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_CLOEXEC, 0o600), "w"
    )
    fcntl.flock(owner, fcntl.LOCK_EX | fcntl.LOCK_NB)
    owner.write(f"{os.getpid()}\n")
    owner.flush()
    staging.rename(root / OWNER)
    return owner


def reclaim_stale(parent: Path) -> list[Path]:
    """Remove the roots under `parent` whose daemons are gone; returns them."""
    reclaimed = []
    for root in parent.glob(f"{PREFIX}*"):
        try:
            info = root.lstat()
            fd = os.open(root / OWNER, os.O_RDONLY | os.O_NOFOLLOW | os.O_CLOEXEC)
        except OSError:  # gone meanwhile, or no daemon's root (the uid locks, a probe's directory)
            continue
        with os.fdopen(fd) as owner:
            if not stat.S_ISDIR(info.st_mode) or info.st_uid != os.geteuid():
                continue
            try:
                fcntl.flock(owner, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:  # its daemon is alive
                continue
            pid = owner.read().strip()
            shutil.rmtree(root, ignore_errors=True)
        log.info("reclaimed %s, the work root of daemon pid %s, which is gone", root, pid)
        reclaimed.append(root)
    return reclaimed
