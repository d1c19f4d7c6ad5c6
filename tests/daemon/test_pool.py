"""The pool keeps a run on its daemon, moves it when that daemon dies, and accounts for it in full:
receipts stand in for the dead daemon's ledger row, and nothing is charged twice."""

from __future__ import annotations

import signal

from ascend_gym.client import DaemonPool, LocalDaemon, connect

from .conftest import add_variant, small_request


def test_a_run_that_moves_off_a_dead_daemon_is_accounted_once(tmp_path):
    first = add_variant(tmp_path / "1", comment="first")
    second = add_variant(tmp_path / "2", comment="second")
    a = LocalDaemon(workers=1, state_dir=tmp_path / "a")
    b = LocalDaemon(workers=1, state_dir=tmp_path / "b")
    try:
        pool = connect(f"{a.address},{b.address}", heartbeat_s=0.5, refresh_s=0.0)
        assert isinstance(pool, DaemonPool)
        one = pool.evaluate(small_request(first, run_id="move"))
        home = pool.last_address
        # The run stays home while its daemon lives: a resubmission is that daemon's cache hit.
        assert pool.evaluate(small_request(first, run_id="move")).cache_hit
        assert pool.last_address == home
        dead = a if home == a.address else b
        alive = b if dead is a else a
        dead.process.send_signal(signal.SIGKILL)
        dead.process.wait()
        two = pool.evaluate(small_request(second, run_id="move"))
        assert one.ok and two.ok and pool.last_address == alive.address
        # A candidate the dead daemon charged comes back free, from the pool's copy.
        again = pool.evaluate(small_request(first, run_id="move"))
        assert again.cache_hit and again.latency_us == one.latency_us
        assert pool.served_by("move") == {dead.address: 1, alive.address: 1}
        ledger = pool.ledger("move")
        assert ledger.evaluations == 2  # one receipt for the dead daemon + the live one's row
    finally:
        a.close()
        b.close()
