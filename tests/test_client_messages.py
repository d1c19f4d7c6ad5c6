"""What a client says when a daemon does not answer or a local daemon does not start: the time it
actually waited, not a configured figure it never reached."""

from __future__ import annotations

import re
import time

import pytest
import zmq

from ascend_core import suite
from ascend_core.protocol import EvalRequest
from ascend_gym.client import DaemonClient, DaemonError, LocalDaemon


def test_a_silent_daemon_is_reported_with_the_time_waited_and_the_tries():
    silent = zmq.Context.instance().socket(zmq.ROUTER)  # takes requests, never answers
    port = silent.bind_to_random_port("tcp://127.0.0.1")
    client = DaemonClient(f"tcp://127.0.0.1:{port}", timeout_s=600, retries=1, heartbeat_s=0.2)
    started = time.monotonic()
    try:
        with pytest.raises(DaemonError) as raised:
            client.evaluate(EvalRequest(run_id="r", package=suite.resolve("level1/add")))
    finally:
        client.close()
        silent.close(0)
    waited = time.monotonic() - started
    said = str(raised.value)
    assert "2 tries" in said and "600" not in said, said  # given up long before the timeout
    assert abs(int(re.search(r"after (\d+) s", said)[1]) - waited) <= 1, said


def test_a_local_daemon_that_does_not_start_names_the_time_it_was_given():
    with pytest.raises(DaemonError, match=r"did not start within 0\.01 s"):
        LocalDaemon(startup_timeout_s=0.01)


def test_a_local_daemon_that_exits_says_so_with_its_last_words():
    with pytest.raises(DaemonError, match=r"exited with status 2 before it was ready.*--no-such"):
        LocalDaemon(extra_args=["--no-such-flag"])
