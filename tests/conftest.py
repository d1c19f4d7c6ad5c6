"""Shared fixtures: one embedded daemon per test session (tests start what they need themselves).

On an empty build cache the simulator runtime and the guest engine's precompiled header are built
once, in the background from the session's start: collection and the tests that need neither run
meanwhile, and the first daemon or compile that needs one waits on its lock instead of building it.
"""

from __future__ import annotations

import threading

import pytest

from ascend_gym.client import DaemonClient, LocalDaemon
from npu_daemon.backends.common import build
from npu_daemon.backends.sim import guest_build

_prebuild: threading.Thread | None = None


def _build_once() -> None:
    """The runtime, then the guest header; a failure is left to the first test that needs them."""
    try:
        build.ensure_runtime()
        guest_build.ensure_pch()
    except Exception:  # reported by the tests that build them, with their context
        pass


def pytest_sessionstart(session: pytest.Session) -> None:
    global _prebuild
    if not session.config.option.collectonly:  # built already: two file checks and clang's version
        _prebuild = threading.Thread(target=_build_once, name="prebuild", daemon=True)
        _prebuild.start()


def pytest_sessionfinish(session: pytest.Session) -> None:
    if _prebuild is not None:  # no compiler left behind, no half-built cache entry
        _prebuild.join()


@pytest.fixture(scope="session")
def daemon() -> str:
    with LocalDaemon(workers=2) as d:
        yield d.address


@pytest.fixture()
def client(daemon: str) -> DaemonClient:
    c = DaemonClient(daemon)
    yield c
    c.close()
