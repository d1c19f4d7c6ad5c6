"""Shared fixtures: one embedded daemon per test session (tests start what they need themselves).

On an empty build cache the simulator runtime and the guest engine's precompiled header are built
once, in the background from the session's start and side by side (the header needs nothing of the
runtime's build, and the runtime links its library and harness one after the other on one core):
collection and the tests that need neither run meanwhile, and the first daemon or compile that
needs one waits on its lock instead of building it.
"""

from __future__ import annotations

import threading
from collections.abc import Callable

import pytest

from ascend_gym.client import DaemonClient, LocalDaemon
from npu_daemon.backends.common import build
from npu_daemon.backends.sim import guest_build

_prebuilds: list[threading.Thread] = []


def _build_once(ensure: Callable[[], object]) -> None:
    """One cache entry; a failure is left to the first test that needs it."""
    try:
        ensure()
    except Exception:  # reported by the tests that build them, with their context
        pass


def pytest_sessionstart(session: pytest.Session) -> None:
    if session.config.option.collectonly:
        return
    for ensure in (build.ensure_runtime, guest_build.ensure_pch):  # built already: file checks
        thread = threading.Thread(target=_build_once, args=(ensure,), name="prebuild", daemon=True)
        thread.start()
        _prebuilds.append(thread)


def pytest_sessionfinish(session: pytest.Session) -> None:
    for thread in _prebuilds:  # no compiler left behind, no half-built cache entry
        thread.join()


@pytest.fixture(scope="session")
def daemon() -> str:
    with LocalDaemon(workers=2) as d:
        yield d.address


@pytest.fixture(scope="session")
def token_daemon(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A daemon that serves only runs that were opened (as every daemon bound beyond loopback),
    one for the session: its users open runs of their own ids."""
    state = tmp_path_factory.mktemp("token_state")
    with LocalDaemon(workers=2, state_dir=state, require_run_tokens=True) as d:
        yield d.address


@pytest.fixture()
def client(daemon: str) -> DaemonClient:
    c = DaemonClient(daemon)
    yield c
    c.close()
