"""A bounded service (issue 50): open runs, bytes on their way in and the acceptance check count
against stated bounds (BUSY, a cut connection or a charged REJECTED, never growth), and every
evaluation spends a budget opened for it. Each test failed on main 66da4b1; each is safe if the
defence fails (the memory it could make the daemon take is a few hundred MiB at most, and it
talks to 127.0.0.1 only).
"""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from ascend_core.package import load_package
from ascend_core.protocol import OpenRunRequest, Status, Timeouts
from ascend_gym.client import DaemonClient, DaemonError, LocalDaemon
from npu_daemon import main
from npu_daemon.service import store as store_module
from npu_daemon.service.store import RunsFull, Store

from . import zmtp
from .conftest import (
    ADD_DIR,
    add_variant,
    daemon_args,
    reply_of,
    send_raw,
    small_request,
    wait_until,
)


def _status(pid: int, field: str) -> int:
    """A /proc/PID/status field in KiB (VmRSS, VmHWM)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise KeyError(field)


def _children(pid: int) -> list[int]:
    found = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        found += [int(c) for c in (task / "children").read_text().split()]
    return found


# ---- the acceptance check -------------------------------------------------------------------
def _macro_bomb(tmp_path: Path):
    """add whose kernel file ends with 254 bytes of macros expanding to 2 x 4^10 tokens of the
    candidate's own (about 150 MiB preprocessed): tokens the old check held in the worker."""
    add_variant(tmp_path, comment="bomb")
    lines = ["#define B0 a a"] + [
        f"#define B{k} B{k - 1} B{k - 1} B{k - 1} B{k - 1}" for k in range(1, 11)
    ]
    kernel = tmp_path / "add" / "op_kernel" / "add.cpp"
    kernel.write_text(kernel.read_text() + "\n".join(lines) + "\nB10\n")
    return load_package(tmp_path / "add")


def test_the_acceptance_check_does_not_grow_the_worker(tmp_path, native_daemon, native_client):
    """A 4 KiB source made the check grow a worker by 941 MiB for 102 s (its preprocessed tokens
    held in the worker). The check reads a unit in a forked child bounded in memory and time:
    this one is a charged REJECTED, and the workers' peak memory does not move."""
    # Native engine: the check is its token gate (the guest's gate reads the module's imports).
    daemon, client = native_daemon, native_client
    workers = _children(daemon.process.pid)
    before = {pid: _status(pid, "VmHWM") for pid in workers}
    request = small_request(_macro_bomb(tmp_path), run_id="bomb")
    result = client.evaluate(request.model_copy(update={"timeouts": Timeouts(build_s=120)}))
    assert result.status is Status.REJECTED, result.message
    assert "take more than" in result.message and result.message.startswith("op_kernel/add.cpp")
    grown = max(
        _status(pid, "VmHWM") - before[pid] for pid in workers if Path(f"/proc/{pid}").exists()
    )
    assert grown < 64 * 1024, f"a worker's peak grew by {grown} KiB"


# ---- budgets ----------------------------------------------------------------------------------
def test_every_evaluation_needs_an_opened_run_by_default(tmp_path):
    """A loopback daemon served never-opened run ids unbudgeted by default: throw-away run ids
    gave 5 evaluations for a ledger of 1. Run tokens are now required by default on loopback too;
    only --allow-unopened-runs (loopback only) serves runs never opened."""
    assert main.tokens_required(daemon_args(["--bind", "tcp://127.0.0.1:5555"]))
    assert not main.tokens_required(daemon_args(["--allow-unopened-runs"]))
    remote = ["--bind", "tcp://0.0.0.0:5555", "--keys", "k", "--allow-unopened-runs"]
    assert main.tokens_required(daemon_args(remote))
    pkg = load_package(ADD_DIR)
    with LocalDaemon(workers=1, state_dir=tmp_path, require_run_tokens=True) as d:
        client = DaemonClient(d.address, heartbeat_s=1.0)
        client.open_run("budget-1", budget=1)
        assert client.evaluate(small_request(pkg, run_id="budget-1")).status is Status.OK
        for k in range(5):
            dodge = client.evaluate(small_request(pkg, run_id=f"throw-away-{k}"))
            assert dodge.status is Status.REJECTED and "not opened" in dodge.message
        assert client.stats().evaluations == 1
        client.close()


# ---- open runs --------------------------------------------------------------------------------
def test_open_runs_are_bounded(tmp_path):
    """The runs table grew without bound (about 1 GiB per 1.3 M open_run). At --max-open-runs,
    a run that spent its budget is dropped to make room; with none to drop, open_run is BUSY."""
    pkg = load_package(ADD_DIR)
    with LocalDaemon(
        workers=1, state_dir=tmp_path, extra_args=["--max-open-runs", "3"], require_run_tokens=True
    ) as d:
        client = DaemonClient(d.address, heartbeat_s=1.0)
        for k in range(3):
            client.open_run(f"run-{k}", budget=1)
        full = reply_of(send_raw(d.address, OpenRunRequest(run_id="run-3", budget=1)))
        assert (full["kind"], full["status"]) == ("error", "BUSY"), full
        assert client.evaluate(small_request(pkg, run_id="run-0")).status is Status.OK  # spent
        client.open_run("run-3", budget=1)  # run-0 made room
        with pytest.raises(DaemonError, match="already exists"):
            client.open_run("run-0", budget=5)  # its ledger stays: never reopened
        client.close()


def test_idle_runs_make_room_and_a_full_table_is_not_rescanned(tmp_path, monkeypatch):
    """A run nothing was asked of for RUN_IDLE_S is dropped when the table is full; a table the
    drop could not free is answered at once (no scan of every run per open_run)."""
    store = Store(tmp_path / "state.db", max_open_runs=2)
    store.open_run("a", 5)
    store.open_run("b", 5)
    with pytest.raises(RunsFull):
        store.open_run("c", 5)
    later = time.time() + store_module.RUN_IDLE_S + 1
    monkeypatch.setattr(store_module.time, "time", lambda: later)
    with pytest.raises(RunsFull):  # within RESCAN_S of the last full scan: refused at once
        store.open_run("c", 5)
    store._full_until = 0.0
    store.open_run("c", 5)  # a and b were idle: dropped
    assert store.refusal("a", "anything", 0, True).startswith("unknown run token")
    store.close()


# ---- bytes on their way in ------------------------------------------------------------------
@pytest.fixture()
def bounded_daemon(tmp_path):
    """A daemon whose requests may hold 64 MiB in all."""
    with LocalDaemon(
        workers=1, state_dir=tmp_path, extra_args=["--max-queue-bytes", str(64 << 20)]
    ) as d:
        yield d


def test_incomplete_frames_count_against_the_request_memory_bound(bounded_daemon):
    """Twenty connections each holding 14 MiB of an unfinished 16 MiB frame grew the daemon past
    its request bound (306 MiB past 256 MiB): libzmq holds them where the queue bound never
    looked. The bytes each connection holds unread now count against the bound: the largest
    holders are cut until they fit, and the daemon serves on."""
    client = DaemonClient(bounded_daemon.address, heartbeat_s=1.0)
    pid, port = bounded_daemon.process.pid, int(bounded_daemon.address.rsplit(":", 1)[1])
    client.stats()
    before = _status(pid, "VmRSS")
    conns = [zmtp.connect(port) for _ in range(20)]
    zmtp.send_all(conns, [zmtp.frame(16 << 20, False) + b"x" * (14 << 20)])
    wait_until(lambda: client.stats().connections_cut >= 16, timeout_s=30)
    time.sleep(0.5)
    grown = _status(pid, "VmRSS") - before
    for s in conns:
        s.close()
    stats = client.stats()
    assert grown < 96 * 1024, f"the daemon grew by {grown} KiB (bound 64 MiB)"
    assert stats.in_flight_bytes <= 64 << 20
    honest = client.evaluate(small_request(load_package(ADD_DIR), run_id="after"))
    assert honest.status is Status.OK and client.stats().connections_cut == stats.connections_cut
    client.close()


def test_a_message_whose_parts_never_end_is_cut(bounded_daemon):
    """A message of 1 MiB parts that never ends: libzmq's high-water mark counts whole messages,
    so it grew the daemon by every part. A connection holding more than two messages' worth
    unread is cut."""
    client = DaemonClient(bounded_daemon.address, heartbeat_s=1.0)
    pid, port = bounded_daemon.process.pid, int(bounded_daemon.address.rsplit(":", 1)[1])
    client.stats()
    before = _status(pid, "VmRSS")
    part = zmtp.frame(1 << 20, True) + b"x" * (1 << 20)
    zmtp.send_all([zmtp.connect(port)], [part] * 200)
    wait_until(lambda: client.stats().connections_cut >= 1, timeout_s=30)
    time.sleep(0.5)
    grown = _status(pid, "VmRSS") - before
    assert grown < 96 * 1024, f"the daemon grew by {grown} KiB"
    assert client.stats().workers_alive == 1
    client.close()
