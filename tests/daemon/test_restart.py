"""Kill -9 and restart: ledger and cache survive, retrying clients complete every request exactly
once; a pool resubmits a killed daemon's request elsewhere."""

from __future__ import annotations

import signal
import socket
import threading

from ascend_core.protocol import Status
from ascend_gym.client import DaemonClient, DaemonPool, LocalDaemon
from ascend_gym.commands import daemon as daemon_cmd

from .conftest import add_variant, daemon_args, small_request, stall, wait_until


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_kill_and_restart_loses_nothing_and_charges_once(tmp_path, capsys):
    state, address = tmp_path / "state", f"tcp://127.0.0.1:{_free_port()}"
    pkg = add_variant(tmp_path, stall(1), comment="restart")
    requests = [small_request(pkg, run_id="restart", seed=s) for s in range(5)]
    daemon = LocalDaemon(workers=1, state_dir=state, bind=address)
    client = DaemonClient(address, heartbeat_s=0.5, retries=30)
    results = {}

    def submit_all() -> None:
        for r in requests:
            results[r.request_id] = client.evaluate(r)

    worker = threading.Thread(target=submit_all)
    worker.start()
    watcher = DaemonClient(address)
    wait_until(
        lambda: watcher.stats(timeout_s=2).evaluations >= 2 and watcher.health().running == 1
    )
    daemon.process.send_signal(signal.SIGKILL)  # mid-request: its evaluation is lost, never charged
    daemon.process.wait()
    daemon = LocalDaemon(workers=1, state_dir=state, bind=address)
    worker.join(180)
    try:
        assert not worker.is_alive()
        assert len(results) == 5 and all(r.status is Status.OK for r in results.values())
        after = DaemonClient(address)
        ledger = after.ledger("restart")
        assert (ledger.evaluations, ledger.cache_hits) == (
            5,
            0,
        )  # each request charged exactly once
        # The cache and the request log survived: a resubmission is free, a retry is answered from the log.
        again = after.evaluate(requests[0].model_copy(update={"request_id": "fresh-id"}))
        assert again.cache_hit and again.cost.cache_source == "run"
        assert after.evaluate(requests[1]) == results[requests[1].request_id]
        assert after.ledger("restart").evaluations == 5
    finally:
        daemon.close()
    args = daemon_args(["ledger", "restart", "--db", str(state / "state.db")])
    assert daemon_cmd.run(args) == 0
    assert "evaluations charged   5" in capsys.readouterr().out


def test_pool_routes_to_the_least_loaded_and_resubmits_when_a_daemon_dies(tmp_path):
    pkg = add_variant(tmp_path, stall(5), comment="pool")
    quick = add_variant(tmp_path / "quick")
    a = LocalDaemon(workers=1, state_dir=tmp_path / "a")
    b = LocalDaemon(workers=1, state_dir=tmp_path / "b")
    try:
        pool = DaemonPool([a.address, b.address], heartbeat_s=0.5, refresh_s=0.0)
        outcome = {}
        thread = threading.Thread(
            target=lambda: outcome.setdefault("r", pool.evaluate(small_request(pkg, run_id="pool")))
        )
        thread.start()
        probes = {d: DaemonClient(d.address) for d in (a, b)}
        wait_until(lambda: any(p.health().running == 1 for p in probes.values()))
        busy = next(d for d, p in probes.items() if p.health().running == 1)
        idle = b if busy is a else a
        # Least loaded: a second pool's request goes to the idle daemon.
        other = DaemonPool([a.address, b.address], refresh_s=0.0).evaluate(
            small_request(quick, run_id="pool-2")
        )
        assert other.status is Status.OK and probes[idle].ledger("pool-2").evaluations == 1
        assert probes[busy].health().running == 1
        busy.process.send_signal(
            signal.SIGKILL
        )  # mid-request: the pool resubmits to the other daemon
        thread.join(120)
        assert outcome["r"].status is Status.OK
        assert probes[idle].ledger("pool").evaluations == 1
        assert pool.ledger("pool").evaluations == 1  # summed over the daemons that still answer
    finally:
        a.close()
        b.close()
