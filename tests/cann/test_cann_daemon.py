"""The cann backend behind the real daemon server and client: results cross the wire, and a
byte-identical resubmission is served from the daemon's cache (the fingerprint is stable)."""

from __future__ import annotations

import threading
from pathlib import Path

from test_cann_backend import small_add

from ascend_core.protocol import EvalRequest, Status
from ascend_gym.client import DaemonClient
from npu_daemon.backends.cann import CannBackend, CannConfig
from npu_daemon.service.server import Server


def test_cann_daemon_round_trip(cann_env: Path, tmp_path: Path) -> None:
    backend = CannBackend(CannConfig(warmup=1, repeats=3, state_dir=tmp_path / "state"))
    server = Server(
        backend, "tcp://127.0.0.1:*", workers=2, state_dir=tmp_path / "daemon", workdir=tmp_path
    )
    thread = threading.Thread(target=server.serve_forever)
    thread.start()
    client = DaemonClient(server.endpoint, timeout_s=120)
    try:
        request = EvalRequest(package=small_add(), run_id="cann-test")
        first = client.evaluate(request)
        again = client.evaluate(request.model_copy(update={"request_id": "again"}))
    finally:
        client.close()
        server.stop()
        thread.join()
    assert first.status is Status.OK and first.backend == "cann" and not first.simulated, (
        first.message
    )
    assert first.profile.model_extra["timing_repeats"] == 3
    assert again.cache_hit and again.latency_us == first.latency_us
