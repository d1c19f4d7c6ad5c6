"""CURVE: a daemon started with keys serves the clients it knows and nobody else."""

from __future__ import annotations

import shutil

import pytest

from ascend_core import suite
from ascend_core.protocol import EvalRequest, Stage, Status
from ascend_gym.client import DaemonClient, DaemonError, LocalDaemon
from ascend_gym.commands import daemon as daemon_cmd
from npu_daemon.service.keys import keygen

from .conftest import daemon_args


@pytest.fixture(scope="module")
def keys(tmp_path_factory):
    known = tmp_path_factory.mktemp("keys")
    keygen(known)
    stranger = tmp_path_factory.mktemp("stranger")
    keygen(stranger)
    shutil.copy(
        known / "server.key", stranger / "server.key"
    )  # knows the daemon, is not known by it
    return known, stranger


@pytest.fixture(scope="module")
def secure_daemon(keys, tmp_path_factory):
    with LocalDaemon(
        workers=1, state_dir=tmp_path_factory.mktemp("state"), extra_args=["--keys", str(keys[0])]
    ) as d:
        yield d


def test_known_client_is_served(keys, secure_daemon):
    client = DaemonClient(secure_daemon.address, keys=keys[0])
    assert client.stats().workers == 1
    result = client.evaluate(
        EvalRequest(run_id="curve", package=suite.resolve("level1/add"), stages=[Stage.COMPILE])
    )
    assert result.status is Status.OK


@pytest.mark.parametrize("who", ["stranger", "plaintext"])
def test_unknown_client_gets_nothing(keys, secure_daemon, who, monkeypatch):
    monkeypatch.delenv("ASCEND_GYM_DAEMON_KEYS", raising=False)
    client = DaemonClient(
        secure_daemon.address, heartbeat_s=0.5, keys=keys[1] if who == "stranger" else None
    )
    with pytest.raises(DaemonError):
        client.stats(timeout_s=2.0)
    known = DaemonClient(secure_daemon.address, keys=keys[0])
    assert known.stats().evaluations <= 1  # the stranger's attempt reached nothing


def test_keygen_command_writes_the_documented_layout(tmp_path, capsys):
    assert daemon_cmd.run(daemon_args(["keygen", str(tmp_path)])) == 0
    written = {p.relative_to(tmp_path).as_posix() for p in tmp_path.rglob("*") if p.is_file()}
    assert written == {
        "server.key",
        "server.key_secret",
        "client.key",
        "client.key_secret",
        "authorized/client.key",
    }
    assert (tmp_path / "server.key_secret").stat().st_mode & 0o077 == 0
    assert "ASCEND_GYM_DAEMON_KEYS" in capsys.readouterr().out
