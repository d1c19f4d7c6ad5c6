"""The backend interface: the only thing the sim and cann backends implement.

The daemon service (server, workers, cache, ledger) knows nothing about a backend beyond this.
`Backend.evaluate` is the one path of an evaluation (build, check each case, time the bench case,
fill the profile, turn failures into results); a backend supplies its hooks. Backends are named
here as "module:Class" and imported on first use, so this module imports neither.
"""

from __future__ import annotations

import abc
import contextlib
import importlib
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any, NamedTuple

import numpy as np

from ascend_core import soc
from ascend_core.package import Case, OperatorPackage, OperatorSpec
from ascend_core.protocol import CaseCheck, Cost, EvalRequest, EvalResult, Profile, Stage, Status
from npu_daemon import candidate_files, checker

LOG_TAIL_CHARS = 4000


class CaseFailure(Exception):
    """A candidate's failure on one case, raised inside a backend and returned as a result."""

    def __init__(self, status: Status, message: str, log: str = "", check: CaseCheck | None = None):
        super().__init__(message)
        self.status, self.message, self.log, self.check = status, message, log, check


# How one output file is read and compared: (its path, the output's name, the reference).
CompareFile = Callable[[Path, str, np.ndarray], CaseCheck]


def check_outputs(
    spec: OperatorSpec,
    case: Case,
    case_dir: Path,
    expected: list[np.ndarray],
    log: str,
    compare: CompareFile | None = None,
) -> CaseCheck | None:
    """Compare each output file the candidate wrote in `case_dir` with its reference; the first
    that differs is a WRONG_ANSWER. The files are never followed and read only up to their exact
    size: a link, FIFO or oversized file is the candidate's (RUNTIME_ERROR), a short one the
    daemon's full disk (OSError: DAEMON_ERROR, uncharged). `compare` reads a file another way (a
    sampled run's ranges); by default it holds the whole output. The last check, None with no
    outputs."""

    def whole(path: Path, output: str, want: np.ndarray) -> CaseCheck:
        dtype = spec.arg_dtype(case, output)
        storage = np.dtype(checker.STORAGE[dtype])
        raw = candidate_files.read_exact(path, want.size * storage.itemsize)
        got = np.frombuffer(raw, dtype=storage).reshape(want.shape)
        return checker.compare(case.name, got, want, dtype, spec.tolerance_for(dtype))

    check = None
    for arg, want in zip(spec.outputs, expected):
        try:
            check = (compare or whole)(case_dir / f"out_{arg.name}.bin", arg.name, want)
        except candidate_files.Tampered as e:
            raise CaseFailure(
                Status.RUNTIME_ERROR, f"case {case.name}, output {arg.name}: {e}", log
            ) from None
        if not check.passed:
            raise wrong_answer(case, arg.name, check, log)
    return check


def wrong_answer(case: Case, output: str, check: CaseCheck, log: str) -> CaseFailure:
    """The failure of an output that differs from its reference."""
    return CaseFailure(
        Status.WRONG_ANSWER, f"case {case.name}, output {output}: {check.message}", log, check
    )


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


class Timing(NamedTuple):
    """The bench case's time and the backend's profile fields (the SoC's are added by evaluate)."""

    latency_us: float
    profile: dict[str, Any]


class Backend(abc.ABC):
    name: str
    simulated: bool
    # Set by the daemon's workers: the inputs of small cases are drawn afresh for each candidate,
    # and a kernel's output on a case kept across evaluations is not returned (sim: case_data).
    fresh_draws: bool = False
    # Set by the daemon: each sandboxed process's address-space bound in MiB, its share of the
    # machine's memory (sim: process_bound_mb, sandbox.cap_memory); None: each command's own limit.
    memory_bound_mb: int | None = None

    def evaluate(self, request: EvalRequest, workdir: Path) -> EvalResult:
        """Compile, check and time one candidate inside `workdir` (a fresh, throwaway directory).

        Candidate failures are results with a status; only faults of the backend itself raise.
        """
        pkg = request.package
        result = EvalResult(
            request_id=request.request_id,
            candidate_hash=pkg.content_hash(),
            status=Status.OK,
            backend=self.name,
            simulated=self.simulated,
            soc=request.soc,
        )
        try:
            soc.preset(request.soc)
        except KeyError as e:
            return result.model_copy(update={"status": Status.REJECTED, "message": str(e.args[0])})
        try:
            self._ready(request)
        except CaseFailure as f:
            return result.model_copy(update={"status": f.status, "message": f.message})
        result.fingerprint = self.fingerprint(request.soc)
        root = pkg.write_tree(workdir)  # the operator's directory
        cases = requested_cases(pkg, request)

        t0 = time.monotonic()
        try:
            # A compile-only request builds the kernel for every case's types all the same.
            built = self._build(pkg, cases or pkg.spec.cases, request, root)
        except CaseFailure as f:
            return _failed(result, f, [], Cost(compile_s=time.monotonic() - t0))
        compile_s = time.monotonic() - t0

        t1 = time.monotonic()
        checks: list[CaseCheck] = []
        try:
            with self._running(request):
                for case in cases:
                    timed = case.bench and Stage.TIME in request.stages
                    check, timing = self._run_case(built, case, request, timed)
                    if check is not None:
                        checks.append(check)
                    if timing is not None:
                        result.latency_us, result.bench_case = timing.latency_us, case.name
                        result.profile = Profile.model_validate(
                            {
                                **timing.profile,
                                "aiv_cores": soc.aiv_cores(request.soc),
                                "ub_capacity_bytes": soc.ub_capacity_bytes(request.soc),
                            }
                        )
        except CaseFailure as f:
            if f.check is not None:
                checks.append(f.check)
            return _failed(
                result, f, checks, Cost(compile_s=compile_s, run_s=time.monotonic() - t1)
            )
        # A passed case may carry a note (the simulator's device-tolerated warnings): the first
        # becomes the result's message.
        notes = [c.message for c in checks if c.passed and c.message]
        return result.model_copy(
            update={
                "cases": checks,
                "cost": Cost(compile_s=compile_s, run_s=time.monotonic() - t1),
                **({"message": notes[0]} if notes else {}),
            }
        )

    # -- hooks ---------------------------------------------------------------------------------

    def _ready(self, request: EvalRequest) -> None:
        """Raise CaseFailure (DAEMON_ERROR) when this backend cannot evaluate now. Optional."""

    @abc.abstractmethod
    def _build(
        self, pkg: OperatorPackage, cases: list[Case], request: EvalRequest, workdir: Path
    ) -> Any:
        """Everything the cases run from (written into `workdir`); a compile failure raises
        CaseFailure. What it returns is handed back to `_run_case` unread."""

    def _running(self, request: EvalRequest) -> contextlib.AbstractContextManager[None]:
        """Held while the cases run (a device lock, say). Optional."""
        return contextlib.nullcontext()

    @abc.abstractmethod
    def _run_case(
        self, built: Any, case: Case, request: EvalRequest, timed: bool
    ) -> tuple[CaseCheck | None, Timing | None]:
        """Run and check one case (a failure raises CaseFailure), and time it when `timed`; a
        backend may skip the check (None) of a request without the check stage."""

    @abc.abstractmethod
    def fingerprint(self, soc: str) -> dict[str, str]:
        """Hardware and software identity recorded with every result (and part of the cache key)."""

    def prepare(self) -> None:
        """One-time set-up before serving (build runtimes, check devices). Optional."""


def _failed(result: EvalResult, f: CaseFailure, checks: list[CaseCheck], cost: Cost) -> EvalResult:
    return result.model_copy(
        update={
            "status": f.status,
            "message": f.message,
            "log_tail": f.log[-LOG_TAIL_CHARS:],
            "cases": checks,
            "cost": cost,
        }
    )


# The backends the daemon accepts for --backend, imported on first use.
_BACKENDS = {
    "sim": "npu_daemon.backends.sim:SimBackend",
    "sim-guest": "npu_daemon.backends.sim:GuestSimBackend",
    "cann": "npu_daemon.backends.cann:CannBackend",
}
BACKENDS = tuple(_BACKENDS)


def get_backend(name: str) -> Backend:
    if name not in _BACKENDS:
        raise ValueError(f"unknown backend {name!r} (available: {', '.join(BACKENDS)})")
    module, cls = _BACKENDS[name].split(":")
    return getattr(importlib.import_module(module), cls)()
