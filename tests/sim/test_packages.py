"""Operator packages in the styles real custom ops use compile unmodified and pass every case."""

import os
import tempfile
from pathlib import Path

import pytest
from conftest import PACKAGES

from ascend_core.package import load_package
from ascend_core.protocol import EvalRequest, Status
from npu_daemon import candidate_files
from npu_daemon.backends.sim import SimBackend

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


def test_short_output_is_a_daemon_fault_not_a_verdict(monkeypatch):
    """An output file cut short (the daemon's disk filled up) raises, so the worker answers
    DAEMON_ERROR (uncharged), rather than a reshape error or a verdict on the candidate."""
    real = candidate_files.read_exact

    def cut_short(path: Path, size: int) -> bytes:
        if path.parent.name.startswith("case-"):  # the kernel's outputs, not a reference's
            os.truncate(path, size - 1)
        return real(path, size)

    monkeypatch.setattr(candidate_files, "read_exact", cut_short)
    with (
        tempfile.TemporaryDirectory() as d,
        pytest.raises(OSError, match=r"bytes on disk \(disk full\?\)"),
    ):
        SimBackend().evaluate(EvalRequest(package=load_package(PACKAGES / NAMES[0])), Path(d))
