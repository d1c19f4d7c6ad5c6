"""The server's contract: back-pressure, idempotent request ids, stats/health/ledger, graceful stop."""

from __future__ import annotations

import signal
import subprocess
import sys

import pytest

from ascend_core.protocol import Status
from ascend_gym.client import DaemonClient, LocalDaemon
from ascend_gym.commands import daemon as daemon_cmd

from .conftest import (
    add_variant,
    daemon_args,
    reply_of,
    send_raw,
    small_request,
    stall,
    wait_until,
)


@pytest.fixture(scope="module")
def small_daemon(tmp_path_factory):
    """One worker, a queue of one: easy to fill."""
    state = tmp_path_factory.mktemp("state")
    with LocalDaemon(workers=1, state_dir=state, extra_args=["--max-queue", "1"]) as d:
        d.state_dir = state
        yield d


def test_full_queue_answers_busy_at_once(tmp_path, small_daemon):
    pkg = add_variant(tmp_path, stall(2), comment="busy")
    client = DaemonClient(small_daemon.address)
    running = send_raw(small_daemon.address, small_request(pkg, run_id="busy", seed=1))
    wait_until(lambda: client.health().running == 1)
    queued = send_raw(small_daemon.address, small_request(pkg, run_id="busy", seed=2))
    wait_until(lambda: client.health().queued == 1)
    refused = reply_of(
        send_raw(small_daemon.address, small_request(pkg, run_id="busy", seed=3)), timeout_s=2
    )
    assert refused["status"] == "BUSY" and "queue full" in refused["message"]
    assert reply_of(running)["status"] == "OK" and reply_of(queued)["status"] == "OK"
    ledger = client.ledger("busy")
    assert ledger.evaluations == 2 and ledger.by_status == {"OK": 2}  # BUSY is never charged


def test_a_retried_request_is_evaluated_and_charged_once(tmp_path, small_daemon):
    pkg = add_variant(tmp_path, stall(1), comment="idempotent")
    request = small_request(pkg, run_id="idem")
    first = send_raw(small_daemon.address, request)
    client = DaemonClient(small_daemon.address)
    wait_until(lambda: client.health().running == 1)
    retry_in_flight = send_raw(small_daemon.address, request)  # same request id, new connection
    a, b = reply_of(first), reply_of(retry_in_flight)
    assert a == b and a["status"] == "OK" and not a["cache_hit"]
    assert (
        client.evaluate(request).model_dump(mode="json") == a
    )  # a retry after the answer: from the log
    ledger = client.ledger("idem")
    assert (ledger.evaluations, ledger.cache_hits) == (1, 0)
    reused = request.model_copy(update={"seed": 7})
    assert client.evaluate(reused).status is Status.REJECTED  # one id, two different requests


def test_stats_health_and_ledger(small_daemon):
    client = DaemonClient(small_daemon.address)
    stats = client.stats()
    assert stats.workers == stats.workers_alive == 1 and stats.max_queue == 1
    assert stats.backend == "sim-guest" and stats.simulated  # the engine that times, named
    assert stats.versions["protocol"] == "1" and stats.versions["zmq"]
    assert client.health().ok
    assert client.ledger("never-seen").evaluations == 0


def test_ledger_command_reads_the_state_file(small_daemon, capsys):
    args = daemon_args(
        ["ledger", "busy", "--db", str(small_daemon.state_dir / "state.db"), "--json"]
    )
    assert daemon_cmd.run(args) == 0
    out = capsys.readouterr().out
    assert '"evaluations": 2' in out and '"OK": 2' in out
    assert (
        daemon_args(["--backend", "sim", "--bind", "tcp://127.0.0.1:5555"]).action is None
    )  # the README's form


def test_graceful_stop_answers_every_request(tmp_path):
    pkg = add_variant(tmp_path, stall(2), comment="stop")
    daemon = LocalDaemon(workers=1, state_dir=tmp_path / "state")
    client = DaemonClient(daemon.address)
    running = send_raw(daemon.address, small_request(pkg, run_id="stop", seed=1))
    wait_until(lambda: client.health().running == 1)
    queued = [send_raw(daemon.address, small_request(pkg, run_id="stop", seed=s)) for s in (2, 3)]
    wait_until(lambda: client.health().queued == 2)
    daemon.process.send_signal(signal.SIGTERM)
    assert [reply_of(q, 5)["status"] for q in queued] == [
        "BUSY",
        "BUSY",
    ]  # at once: resubmit elsewhere
    assert reply_of(running)["status"] == "OK"  # the running one is finished and answered
    assert daemon.process.wait(30) == 0


def test_refuses_a_public_bind_without_keys():
    done = subprocess.run(
        [sys.executable, "-m", "npu_daemon", "--bind", "tcp://0.0.0.0:*"],
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert done.returncode == 2 and "CURVE" in done.stderr
