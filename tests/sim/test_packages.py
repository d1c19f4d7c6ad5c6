"""Operator packages in the styles real custom ops use compile unmodified and pass every case."""

import tempfile
from pathlib import Path

import pytest

from ascend_gym.package import load_package
from ascend_gym.protocol import EvalRequest, Status
from npu_daemon.backends.sim import SimBackend

from conftest import PACKAGES

NAMES = sorted(p.name for p in PACKAGES.iterdir() if (p / "op.toml").exists())


def test_there_are_at_least_20_packages():
    assert len(NAMES) >= 20


@pytest.mark.parametrize("name", NAMES)
def test_package_passes(name):
    with tempfile.TemporaryDirectory() as d:
        r = SimBackend().evaluate(EvalRequest(package=load_package(PACKAGES / name)), Path(d))
    assert r.status is Status.OK, f"{r.status}: {r.message}\n{r.log_tail}"
    assert r.latency_us and r.latency_us > 0
    assert all(c.passed for c in r.cases)
