"""Shared fixtures: one embedded daemon per test session (tests start what they need themselves)."""

from __future__ import annotations

import pytest

from ascend_gym.client import DaemonClient, LocalDaemon


@pytest.fixture(scope="session")
def daemon() -> str:
    with LocalDaemon(workers=2) as d:
        yield d.address


@pytest.fixture()
def client(daemon: str) -> DaemonClient:
    c = DaemonClient(daemon)
    yield c
    c.close()
