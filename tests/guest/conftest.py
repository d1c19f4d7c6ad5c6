"""Fixtures for the guest engine's API families (docs/trust_boundary.md): the session's `sim-guest`
daemon and its native (`sim`) daemon (tests/conftest.py), and `engines.same(...)`, which evaluates
one package on both and holds the guest engine to the native engine's verdict and simulated
latency."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass

import pytest

from ascend_core.package import OperatorPackage
from ascend_core.protocol import EvalRequest, EvalResult, Stage, Status, Timeouts
from ascend_core.suite import resolve
from ascend_gym.client import DaemonClient
from npu_daemon.backends.sim import guest_build


@pytest.fixture(scope="session")
def guest_daemon(daemon: str) -> str:
    """The session's daemon (tests/conftest.py), of the default engine, `sim-guest`."""
    try:
        guest_build.toolchain_version()
    except (
        guest_build.GuestToolchainMissing
    ) as e:  # .ci/run installs it; a developer machine may not
        pytest.skip(str(e))
    return daemon


@pytest.fixture()
def clang() -> None:
    """The guest toolchain, for the tests that build a kernel's IR themselves."""
    try:
        guest_build.toolchain_version()
    except guest_build.GuestToolchainMissing as e:  # .ci/run installs it
        pytest.skip(str(e))


@dataclass
class Engines:
    native: DaemonClient
    guest: DaemonClient

    def both(
        self, pkg: OperatorPackage | str, run_id: str = "parity"
    ) -> tuple[EvalResult, EvalResult]:
        request = _request(pkg, run_id)
        return self.native.evaluate(request), self.guest.evaluate(request)

    def guest_only(self, pkg: OperatorPackage | str, run_id: str = "parity") -> EvalResult:
        """The guest engine's result alone, for a test that compares nothing with the native one."""
        return self.guest.evaluate(_request(pkg, run_id))

    def same(self, pkg: OperatorPackage | str, rel: float = 0.02) -> EvalResult:
        """The guest engine's result, OK where the native engine's is, within `rel` of its latency
        (the kernel's own scalar work is counted in wasm instructions there, x86 ones here)."""
        return self.pair(pkg, rel)[1]

    def pair(self, pkg: OperatorPackage | str, rel: float = 0.02) -> tuple[EvalResult, EvalResult]:
        """`same`'s checks, and both engines' results, for a test that compares more of them."""
        native, guest = self.both(pkg)
        assert native.status is Status.OK, native.message
        assert guest.status is Status.OK, guest.message
        assert all(c.passed for c in guest.cases)
        assert guest.latency_us == pytest.approx(native.latency_us, rel=rel)
        return native, guest


def _request(pkg: OperatorPackage | str, run_id: str) -> EvalRequest:
    return EvalRequest(
        run_id=run_id,
        package=resolve(pkg) if isinstance(pkg, str) else pkg,
        stages=[Stage.COMPILE, Stage.CHECK, Stage.TIME],
        timeouts=Timeouts(build_s=300, run_s=300),
    )


@pytest.fixture()
def engines(native_daemon: str, guest_daemon: str) -> Iterator[Engines]:
    pair = Engines(DaemonClient(native_daemon), DaemonClient(guest_daemon))
    yield pair
    pair.native.close()
    pair.guest.close()


def lean(values: list, keep: int = 2) -> list:
    """The default run keeps the first `keep` of a family's parity cases; the rest are marked slow
    (run with `-m slow`): each costs an evaluation on both engines."""
    return [
        v
        if i < keep
        else pytest.param(*(v if isinstance(v, tuple) else (v,)), marks=pytest.mark.slow)
        for i, v in enumerate(values)
    ]
