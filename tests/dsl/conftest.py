"""Fixtures of the DSL tests that run kernels: a native-engine daemon beside the session's."""

from __future__ import annotations

import pytest

from ascend_core.package import OperatorPackage
from ascend_core.protocol import EvalRequest, EvalResult, Stage
from ascend_gym.client import DaemonClient, LocalDaemon


@pytest.fixture(scope="module")
def native(tmp_path_factory) -> DaemonClient:
    """A daemon of the native engine beside the session's (the guest engine, the default)."""
    with LocalDaemon(backend="sim", workers=1, state_dir=tmp_path_factory.mktemp("n")) as d:
        c = DaemonClient(d.address)
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
