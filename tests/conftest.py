"""Shared fixtures: one embedded daemon of each engine per test session (tests start what else
they need themselves). Under pytest-xdist (`-n 2`, the README's command) each worker process is a
session of its own, with its own daemons; the build cache is shared, its entries file-locked.

On an empty build cache the simulator runtime and the guest engine's precompiled header are built
once, in the background from the session's start and side by side (the header needs nothing of the
runtime's build, and the runtime links its library and harness one after the other on one core):
collection and the tests that need neither run meanwhile, and the first daemon or compile that
needs one waits on its lock instead of building it (so do the other xdist processes' prebuilds).
"""

from __future__ import annotations

import fcntl
import tempfile
import threading
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from ascend_core.cache import cache_dir
from ascend_gym.client import DaemonClient, LocalDaemon
from npu_daemon.backends.common import build
from npu_daemon.backends.sim import guest_build
from npu_daemon.service.work_root import reclaim_stale

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
    # The daemons tests SIGKILL on purpose (restart, pool and failover tests) cannot remove their
    # work roots; a later daemon's start reclaims them, and after the session's last one, this.
    reclaim_stale(Path(tempfile.gettempdir()))


@pytest.fixture(autouse=True)
def _object_cache_turn(request: pytest.FixtureRequest) -> Iterator[None]:
    """Every test holds the build cache's test lock shared; one marked `alone` holds it alone: it
    counts what daemons leave (the object cache's artefacts while its daemon evaluates), and the
    daemons of another pytest-xdist worker, or of any other test run on the cache, would add
    theirs (every daemon on a cache builds into its one object cache)."""
    alone = request.node.get_closest_marker("alone") is not None
    cache_dir().mkdir(parents=True, exist_ok=True)
    with (
        (cache_dir() / "tests.turn").open("a") as turn,
        (cache_dir() / "tests.lock").open("a") as lock,
    ):
        # Through the turnstile first: a test waiting to run alone holds it, so the other worker
        # starts no new test meanwhile (flock would grant its shared lock again and again).
        fcntl.flock(turn, fcntl.LOCK_EX)
        fcntl.flock(lock, fcntl.LOCK_EX if alone else fcntl.LOCK_SH)
        if not alone:
            fcntl.flock(turn, fcntl.LOCK_UN)
        yield


def _started(
    tmp_path_factory: pytest.TempPathFactory, name: str, **engine: str
) -> Iterator[LocalDaemon]:
    with LocalDaemon(workers=2, state_dir=tmp_path_factory.mktemp(name), **engine) as d:
        yield d


# One daemon of each engine for the session, shared by every directory (tests/daemon takes the
# objects, the rest their addresses): each start costs a daemon's start and stop and, with its own
# case secret, every case's inputs and reference drawn again. A test whose property is a daemon's
# own state or flags starts its own.
@pytest.fixture(scope="session")
def guest_local(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalDaemon]:
    """The default engine, `sim-guest`."""
    yield from _started(tmp_path_factory, "guest_state")


@pytest.fixture(scope="session")
def native_local(tmp_path_factory: pytest.TempPathFactory) -> Iterator[LocalDaemon]:
    """The native engine (`--backend sim`), still selectable: its parity and containment tests."""
    yield from _started(tmp_path_factory, "native_state", backend="sim")


@pytest.fixture(scope="session")
def daemon(guest_local: LocalDaemon) -> str:
    return guest_local.address


@pytest.fixture(scope="session")
def native_daemon(native_local: LocalDaemon) -> str:
    return native_local.address


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
