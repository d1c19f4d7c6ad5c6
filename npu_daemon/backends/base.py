"""The backend interface: the only thing the sim and cann backends implement.

The daemon runtime (server, workers, cache, ledger) knows nothing about a backend beyond this.
"""

from __future__ import annotations

import abc
from pathlib import Path

from ascend_gym.package import Case, OperatorPackage
from ascend_gym.protocol import CaseCheck, EvalRequest, EvalResult, Stage, Status


class CaseFailure(Exception):
    """A candidate's failure on one case, raised inside a backend and returned as a result."""

    def __init__(self, status: Status, message: str, log: str = "", check: CaseCheck | None = None):
        super().__init__(message)
        self.status, self.message, self.log, self.check = status, message, log, check


def requested_cases(pkg: OperatorPackage, request: EvalRequest) -> list[Case]:
    """Correctness cases (all, or the requested ones) plus the bench case when timing."""
    if Stage.CHECK in request.stages:
        names = request.cases or [c.name for c in pkg.spec.cases]
        cases = [pkg.spec.case(n) for n in names]
    else:
        cases = []
    if Stage.TIME in request.stages and pkg.spec.bench_case not in cases:
        cases.append(pkg.spec.bench_case)
    return cases


class Backend(abc.ABC):
    name: str
    simulated: bool

    @abc.abstractmethod
    def evaluate(self, request: EvalRequest, workdir: Path) -> EvalResult:
        """Compile, check and time one candidate inside `workdir` (a fresh, throwaway directory).

        Candidate failures are results with a status; only faults of the backend itself raise.
        """

    @abc.abstractmethod
    def fingerprint(self, soc: str) -> dict[str, str]:
        """Hardware and software identity recorded with every result (and part of the cache key)."""

    def prepare(self) -> None:
        """One-time set-up before serving (build runtimes, check devices). Optional."""


# Names the daemon accepts for --backend.
BACKENDS = ("sim", "cann")


def get_backend(name: str) -> Backend:
    if name == "sim":
        from npu_daemon.backends.sim import SimBackend

        return SimBackend()
    if name == "cann":
        from npu_daemon.backends.cann import CannBackend

        return CannBackend()
    raise ValueError(f"unknown backend {name!r} (available: {', '.join(BACKENDS)})")
