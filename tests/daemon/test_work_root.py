"""What a daemon leaves on disk: a killed worker's evaluation directory goes when the worker is
replaced, a SIGKILLed daemon's root when the next daemon on the same work dir starts (its owner
file's lock is free), and an embedded daemon whose owner was killed stops by itself and removes
its root; a live daemon's root, and a directory that is no daemon's root, are never reclaimed."""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

from ascend_core.protocol import Status
from ascend_gym.client import DaemonClient, LocalDaemon
from npu_daemon.service import workers
from npu_daemon.service.work_root import OWNER, PREFIX, reclaim_stale

from .conftest import add_variant, reply_of, send_raw, small_request, stall, wait_until

# An owner of an embedded daemon: it says the daemon's pid, then waits to be killed.
OWNER_SCRIPT = """import sys, time
from ascend_gym.client import LocalDaemon
daemon = LocalDaemon(workers=1, state_dir=sys.argv[1], extra_args=["--work-dir", sys.argv[2]])
print(daemon.process.pid, flush=True)
time.sleep(600)
"""


def _roots(work_dir: Path) -> set[Path]:
    return {p for p in work_dir.glob(f"{PREFIX}*") if (p / OWNER).exists()}


def _running(pid: int) -> bool:
    """Not yet exited (an orphan's zombie waits for init's reaping)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def _worker(daemon: LocalDaemon) -> int:
    """The pid of the daemon's one worker (a multiprocessing child; the other child, if any, is
    multiprocessing's resource tracker)."""
    for task in Path(f"/proc/{daemon.process.pid}/task").iterdir():
        for child in (task / "children").read_text().split():
            if b"spawn_main" in Path(f"/proc/{child}/cmdline").read_bytes():
                return int(child)
    raise AssertionError("the daemon has no worker")


def test_a_killed_daemons_root_is_reclaimed_and_an_orphaned_daemon_stops_leaving_nothing(tmp_path):
    work_dir = Path(tempfile.mkdtemp(prefix="work_root-test-"))
    work_dir.chmod(0o755)  # traversable by the sandbox users, as the system temp dir
    # Beside the roots: no daemon's (the uid locks' name pattern, no owner file) and a symlink.
    foreign = work_dir / f"{PREFIX}uids"
    foreign.mkdir()
    (work_dir / f"{PREFIX}link").symlink_to(foreign)
    extra = ["--work-dir", str(work_dir)]
    try:
        first = LocalDaemon(workers=1, state_dir=tmp_path / "a", extra_args=extra)
        try:
            (root,) = _roots(work_dir)
            client = DaemonClient(first.address)
            pkg = add_variant(tmp_path, stall(30), comment="work root")
            running = send_raw(first.address, small_request(pkg, run_id="root", run_s=60))
            wait_until(lambda: any((root / "worker-0").glob("eval-*")), timeout_s=120)
            os.kill(_worker(first), signal.SIGKILL)  # mid-evaluation: no cleanup of its own
            assert reply_of(running, 60)["status"] == Status.DAEMON_ERROR.value
            wait_until(lambda: client.health().ok)  # replaced, on an emptied directory
            assert list((root / "worker-0").iterdir()) == []
            client.close()
            first.process.send_signal(signal.SIGKILL)  # it cannot clean up: its root stays
            first.process.wait()
            assert _roots(work_dir) == {root}
        finally:
            first.close()
        # The next daemon is embedded in a process that is then killed: no SIGTERM reaches it.
        owner = subprocess.Popen(
            [sys.executable, "-c", OWNER_SCRIPT, str(tmp_path / "b"), str(work_dir)],
            stdout=subprocess.PIPE,
            text=True,
        )
        try:
            second = int(owner.stdout.readline())
            (live,) = _roots(work_dir)  # the first daemon's root reclaimed as this one started
            assert live != root and not root.exists()
            assert reclaim_stale(work_dir) == [] and live.exists()  # a live daemon's is kept
        finally:
            owner.kill()
            owner.wait()
        # Nobody reads its stdout now: it stops as on SIGTERM, and its root goes with it.
        wait_until(lambda: not _running(second), timeout_s=60)
        assert sorted(p.name for p in work_dir.iterdir()) == [f"{PREFIX}link", f"{PREFIX}uids"]
    finally:
        shutil.rmtree(work_dir)


def test_uid_blocks_are_claimed_host_wide_whatever_the_temp_dir(tmp_path, monkeypatch):
    """Two daemons with different TMPDIRs claimed the same uid block (their locks under each
    one's temp dir), and each killed the other's candidates with its own."""
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    first = workers._claim_block(90_000, 64, [])
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path / "other"))
    second = workers._claim_block(90_000, 64, [])
    try:
        assert Path(first.lock.name).parent == workers.UID_LOCKS
        assert second.first_uid != first.first_uid
    finally:
        first.release()
        second.release()
