"""Fixtures of the DSL tests that run kernels: a client of the session's native-engine daemon."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from ascend_core.package import OperatorPackage
from ascend_core.protocol import EvalRequest, EvalResult, Stage
from ascend_gym.client import DaemonClient


@pytest.fixture()
def native(native_daemon: str) -> Iterator[DaemonClient]:
    """The session's daemon of the native engine (tests/conftest.py), beside the default one."""
    c = DaemonClient(native_daemon)
    yield c
    c.close()


def passes(client: DaemonClient, pkg: OperatorPackage, run_id: str) -> EvalResult:
    """The package compiled, checked on every case and timed: OK."""
    result = client.evaluate(
        EvalRequest(run_id=run_id, package=pkg, stages=[Stage.COMPILE, Stage.CHECK, Stage.TIME])
    )
    assert result.status.value == "OK", result.message
    assert len(result.cases) == len(pkg.spec.cases)
    return result
