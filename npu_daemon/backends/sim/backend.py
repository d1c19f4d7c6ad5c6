"""The embedded AscendC CPU simulator backend.

Builds the candidate with g++ against our emulation headers, runs the launch harness once per
shape case (functional run for numerics, pipe-level model for time) and checks the outputs
against the numpy reference. Every result is labelled simulated.
"""

from __future__ import annotations

import contextlib
import functools
import hashlib
import json
import math
import os
import tomllib
from collections.abc import Iterator
from concurrent import futures
from pathlib import Path
from typing import NamedTuple

import numpy as np

from ascend_core.package import Case, OperatorPackage, dtype_macros
from ascend_core.protocol import CaseCheck, EvalRequest, Stage, Status, timing_axes
from ascend_core.soc import PRESETS, preset
from npu_daemon import candidate_files, checker, references, sandbox
from npu_daemon.backends.base import Backend, CaseFailure, Timing, check_outputs
from npu_daemon.backends.common import build, kernel_view, launch
from npu_daemon.backends.sim import (
    case_data,
    guest_build,
    kernel_build,
    output_stream,
    sampled_outputs,
)

MODEL = Path(__file__).resolve().parent / "soc" / "model.toml"
HARNESS_STATUS = {
    "OK": Status.OK,
    "TILING_ERROR": Status.TILING_ERROR,
    "RUNTIME_ERROR": Status.RUNTIME_ERROR,
    "RACE_DETECTED": Status.RACE_DETECTED,
}
MAX_RESULT_BYTES = 1 << 20  # the launcher's result: a few KB
# How the scheduler names a poll of GM bytes that no running core can change (core.cpp).
POLL_DEADLOCK = "deadlock: polling GM"
# How the native engine names a launch past its raw pointer trap budget (raw_access.cpp): each
# access costs it a page fault and a single step, where the guest engine's is one import call.
RAW_BUDGET = "raw pointer accesses in this launch"
# How the harness names an allocation past its address-space bound: an uncaught std::bad_alloc,
# a guest core's 64 MiB memory that could not be reserved (wasmtime's mmap), a core's thread whose
# stack could not be mapped (EAGAIN); and the signals a process can die of when an allocation
# fails where nothing catches it.
OUT_OF_MEMORY = ("bad_alloc", "Cannot allocate memory", "Resource temporarily unavailable")
MEMORY_SIGNALS = ("SIGABRT", "SIGSEGV", "SIGBUS", "SIGKILL")
# The harness's address space: what it needs besides GM, plus every GM tensor twice (the guarded
# view and the emulation's view of the same pages, reserved, committed only where touched).
ADDRESS_SPACE_MB = 16384
# What a harness process needs to run the smallest case: 226 to 269 MiB of address space peaked in
# the level-1 add, matmul and linear launches (VmPeak, 2026-11-28), and room for their traces. A
# mixed launch reserves 64 MiB of guest memory a core besides (level2/matmul_bias_relu peaked at
# 2,654 MiB, level3/attention at 4,017 MiB, GM's views included).
HARNESS_MIN_MB = 1024
# The share a daemon's default worker count leaves each process: the suite's largest launch,
# level3/attention (mixed), peaked at 4,017 MiB. A smaller share, chosen with --workers, fails such
# kernels with the bound's RUNTIME_ERROR.
DEFAULT_SHARE_MB = 4096
# The machine's memory the daemon keeps for itself, its workers' Python and the system.
RESERVED_MB = 2048


def process_bound_mb(physical_mb: int, workers: int) -> int:
    """Each sandboxed process's address-space bound (the harness's, a client's reference's): the
    machine's memory less the reserve, shared by the workers, each running at most two such
    processes at once (the harness's launcher and the kernel's engine, both holding a block's
    trace and GM), so that evaluations together cannot hold more than the machine
    (docs/daemon.md, Sandbox: memory share)."""
    return (physical_mb - RESERVED_MB) // (2 * workers)


def default_workers(physical_mb: int, cores: int) -> int:
    """One worker a core, but no more than leave each process DEFAULT_SHARE_MB (at least one)."""
    return max(1, min(cores, (physical_mb - RESERVED_MB) // (2 * DEFAULT_SHARE_MB)))


def compile_slots(bound_mb: int | None, cores: int) -> int:
    """The compiles one worker runs at once: as many as fit in the two processes' share its memory
    bound assumes (`process_bound_mb`), each compile's processes held to min(COMPILE_MB, bound);
    at most one a core, at least one; one a core where nothing bounds the memory."""
    if bound_mb is None:
        return cores
    return max(1, min(cores, 2 * bound_mb // min(build.COMPILE_MB, bound_mb)))


@functools.cache
def _compiles() -> futures.ThreadPoolExecutor:
    """The tiling and kernel compiles of an evaluation run concurrently on threads that live as
    long as the process (starting them per evaluation cost milliseconds); made on the first
    build, after the worker has set its memory bound: one a core had a 64-core worker run 64
    compiles of 4 GiB each against a share that assumes two processes."""
    slots = compile_slots(sandbox.memory_cap_mb(), os.cpu_count() or 1)
    return futures.ThreadPoolExecutor(max_workers=slots, thread_name_prefix="sim-compile")


def physical_mb() -> int:
    return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") // 2**20


@functools.cache
def soc_params(soc: str) -> dict[str, str]:
    """SoC preset plus the model's cost constants, flattened for the harness."""
    model = tomllib.loads(MODEL.read_text())
    return {**preset(soc), **{k: str(v) for k, v in model.items()}}


class Built(NamedTuple):
    workdir: Path
    tiling_so: Path
    # Per dtype combination, the builds by the core type each serves (kernel_view.core_builds).
    kernels: dict[tuple, dict[str, Path]]


class SimBackend(Backend):
    name = "sim"
    simulated = True
    # "native": the kernel compiled by g++ into the process that emulates it; "guest": the kernel
    # as a metered WebAssembly module that reaches the emulation only through the API's imports
    # (docs/trust_boundary.md).
    engine = "native"

    def prepare(self) -> None:
        build.ensure_runtime()

    def fingerprint(self, soc: str) -> dict[str, str]:
        model = hashlib.sha256(MODEL.read_bytes() + PRESETS.read_bytes()).hexdigest()
        return {
            "backend": "sim",
            "soc": soc,
            "simulator": build.runtime_sources_digest(),
            "model": model[:24],
            "compiler": build.compiler_version(),
            **(
                {"engine": "guest", "guest_compiler": guest_build.toolchain_version()}
                if self.engine == "guest"
                else {}
            ),
        }

    def _build(
        self, pkg: OperatorPackage, cases: list[Case], request: EvalRequest, workdir: Path
    ) -> Built:
        """tiling.so and one kernel.so per dtype combination and core type built for, compiled
        concurrently (`compile_slots` at once).

        A failure is reported as the sequential build would: the tiling's first, then the kernels' in case order.
        """
        timeout_s = request.timeouts.build_s
        rt = build.ensure_runtime()
        combos = {tuple(sorted(m.items())): m for m in (dtype_macros(pkg.spec, c) for c in cases)}
        cores = kernel_view.core_builds(pkg)
        tiling = _compiles().submit(build.build_tiling, pkg, workdir, rt, timeout_s)
        kernels = {
            (key, core): _compiles().submit(
                self._build_kernel, pkg, {**macros, **core_macros}, workdir, rt, timeout_s
            )
            for key, macros in combos.items()
            for core, core_macros in cores.items()
        }
        futures.wait(
            [tiling, *kernels.values()]
        )  # all settled before any failure is raised: none outlives the evaluation
        try:
            tiling_so = tiling.result()[0]
            built: dict[tuple, dict[str, Path]] = {key: {} for key in combos}
            for (key, core), f in kernels.items():
                built[key][core] = f.result()[0]
            return Built(workdir, tiling_so, built)
        except build.BuildError as e:
            status = Status.BUILD_TIMEOUT if e.timed_out else Status.COMPILE_ERROR
            raise CaseFailure(status, f"{e.what}: {_first_error(e.log)}", e.log) from e

    def _build_kernel(
        self,
        pkg: OperatorPackage,
        macros: dict[str, str],
        workdir: Path,
        rt: build.Runtime,
        timeout_s: float,
    ) -> tuple[Path, bool]:
        if self.engine == "guest":
            return guest_build.build_kernel(pkg, macros, workdir, rt, timeout_s)
        return kernel_build.build_kernel(pkg, macros, workdir, rt, timeout_s)

    def _run_case(
        self, built: Built, case: Case, request: EvalRequest, timed: bool, whole: bool = False
    ) -> tuple[CaseCheck | None, Timing | None]:
        """One harness run gives both the outputs and the modelled time (the time alone, and no
        check, when the request has no check stage). A sampled run whose outputs cannot vouch
        for the launch (sampled_outputs) is run again `whole`."""
        pkg = request.package
        builds = built.kernels[tuple(sorted(dtype_macros(pkg.spec, case).items()))]
        # The AIV cores' build (or the only one), and the AIC cores' when they have their own: the
        # launcher picks a core's by the type it starts the core as, never by the kernel.
        kernel = builds.get("aiv") or builds.get("") or builds["aic"]
        cube = builds["aic"] if "aiv" in builds and "aic" in builds else None
        case_dir = built.workdir / f"case-{case.name}{'-whole' if whole else ''}"
        case_dir.mkdir()
        # The harness's launcher writes its result to this descriptor, which the candidate process
        # it forks never holds: not a file a kernel could write.
        result_fd = os.memfd_create("result", os.MFD_CLOEXEC)
        # A timing-only run (no check stage) writes no output files, reads no reference and maps
        # its inputs lazily. (The daemon checks the bench case of every request that times it:
        # workers.checked_when_timed.) A sampled run's outputs hold the simulated blocks' ranges.
        sampled = timed and not whole and request.bench_timing() == "sampled"
        checked = Stage.CHECK in request.stages
        # Outputs too large for files are compared as the launcher writes them (output_stream).
        streamed = checked and case_data.streamed(pkg, case)
        with (
            _case_inputs(pkg, case, request.seed, self.fresh_draws) as data,
            open(result_fd, "rb"),
        ):
            spec = pkg.spec
            strict = {"sim_strict": "1"} if os.environ.get("ASCEND_GYM_SIM_STRICT") == "1" else {}
            stream = None
            if streamed:  # the reference first: it is read while the launcher writes
                reference = _reference(data, case, request)
                stream = output_stream.OutputStream(spec, case, case_dir, reference, sampled)
            # Inputs are read in place from the case cache.
            inputs, outputs = launch.case_tensors(
                spec,
                case,
                input_path=lambda name: str(data.input_path(name)),
                output_path=lambda name: str(case_dir / f"out_{name}.bin") if checked else "-",
            )
            l2_resident, launch_repeated = timing_axes(request.timing_protocol)
            launch.LaunchSpec(
                op_type=spec.op_type,
                kernel=spec.kernel,
                tiling_so=built.tiling_so,
                kernel_so=kernel if self.engine == "native" else None,
                kernel_so_aic=cube if self.engine == "native" else None,
                kernel_wasm=kernel if self.engine == "guest" else None,
                kernel_wasm_aic=cube if self.engine == "guest" else None,
                kernel_type=kernel_view.kernel_type(pkg),
                result_fd=result_fd,
                params={**soc_params(request.soc), **strict},
                timing_only=not checked,
                sample_blocks=sampled,
                l2_resident=l2_resident,
                launch_repeated=launch_repeated,
                inputs=inputs,
                outputs=outputs,
                attrs=launch.case_attrs(spec, case),
            ).write(case_dir / "launch.txt")

            rt = build.ensure_runtime()
            views_mb = 2 * _gm_bytes(pkg, case) // 2**20
            try:
                done = sandbox.run(
                    [str(rt.harness), "launch.txt"],
                    case_dir,
                    request.timeouts.run_s,
                    sandbox.Limits(
                        cpu_s=int(request.timeouts.run_s) + 1,
                        # ASan reserves terabytes of shadow up front: no real bound when sanitized.
                        # A daemon's worker caps all but GM's views at its share of the machine
                        # (sandbox.cap_memory).
                        address_space_mb=1 << 27 if build.SANITIZE else ADDRESS_SPACE_MB + views_mb,
                        mapped_mb=0 if build.SANITIZE else views_mb,
                    ),
                    pass_fds=(result_fd,),
                )
            finally:
                if stream is not None:
                    stream.finish()
            log = data.kernel_log(done.stdout + done.stderr)
            if done.timed_out:
                raise CaseFailure(
                    Status.RUN_TIMEOUT,
                    f"case {case.name}: kernel run exceeded {request.timeouts.run_s:g} s",
                    log,
                )
            written = candidate_files.read_descriptor(result_fd, MAX_RESULT_BYTES)
            if done.returncode != 0 or not written:
                why = (
                    f"killed by {done.signal_name}"
                    if done.signal_name
                    else f"exit code {done.returncode}"
                )
                raise CaseFailure(
                    Status.RUNTIME_ERROR,
                    f"case {case.name}: kernel process crashed ({why})"
                    + (self._bound_note() if done.signal_name in MEMORY_SIGNALS else ""),
                    log,
                )
            outcome = json.loads(written)
            if outcome["status"] == "DAEMON_FAULT":  # the launcher's own failure: uncharged
                raise OSError(outcome["message"])
            status = HARNESS_STATUS[outcome["status"]]
            # A sampled launch runs blocks apart: one polling a GM flag that a block outside the
            # sample writes waits for ever (docs/simulator.md, Flags in GM). It runs whole.
            polls_apart = (
                sampled
                and status is Status.RUNTIME_ERROR
                and POLL_DEADLOCK in outcome.get("message", "")
            )
            if (
                self.engine == "native"
                and status is Status.RUNTIME_ERROR
                and RAW_BUDGET in outcome.get("message", "")
            ):
                return self._run_on_guest(built, case, request, timed)
            if status is not Status.OK and not polls_apart:
                short = any(m in outcome["message"] for m in OUT_OF_MEMORY)
                note = self._bound_note() if short else ""
                raise CaseFailure(
                    status, f"case {case.name}: {data.run_text(outcome['message'])}{note}", log
                )

            if polls_apart or outcome.get("sampled_unchecked"):
                check, timing = self._run_case(built, case, request, timed, whole=True)
                reason = (
                    "a block polls GM that a block outside the sample writes"
                    if polls_apart
                    else data.run_text(outcome["sampled_unchecked"])
                )
                why = f"sampled timing ran whole: {reason}"
                return check, Timing(
                    timing.latency_us, {**timing.profile, "sampled_unchecked": why}
                )
            if stream is not None:
                check = stream.check(log)
            else:
                expected_outputs = _reference(data, case, request, log) if checked else []
                # A sampled run's files hold the simulated blocks' ranges (sampled_outputs).
                ranges = functools.partial(sampled_outputs.compare_file, spec=spec, case=case)
                check = check_outputs(
                    spec, case, case_dir, expected_outputs, log, ranges if sampled else None
                )
            if (
                outcome.get("warnings") and check is not None
            ):  # device-tolerated: noted, verdict unchanged
                warnings = data.run_text("; ".join(outcome["warnings"]))
                message = f"case {case.name}: warning: {warnings}"
                check = check.model_copy(update={"message": message})
            profile = {**outcome["profile"], "timing_protocol": request.timing_protocol}
            return check, Timing(outcome["latency_us"], profile) if timed else None

    def _bound_note(self) -> str:
        """Why a harness ran out of memory: the bound it had, which the kernel's work reached."""
        if self.memory_bound_mb is None:
            return ""
        # Each core of the guest engine has its guest memory reserved whole (runtime/guest/guest.cpp).
        cores = "; each core launched reserves 64 MiB in it" if self.engine == "guest" else ""
        return (
            f" (the harness's memory bound: {self.memory_bound_mb} MiB of address space a process"
            f" besides the case's GM{cores})"
        )

    def _run_on_guest(
        self, built: Built, case: Case, request: EvalRequest, timed: bool
    ) -> tuple[CaseCheck | None, Timing | None]:
        """The case on the guest engine, which charges every raw pointer access as the native engine
        does (GetValue / SetValue's cost) for an import call instead of a trapped page fault: a
        launch past the native trap budget is timed there, not stopped (docs/simulator.md)."""
        pkg, guest = request.package, GuestSimBackend()
        guest.memory_bound_mb = self.memory_bound_mb
        macros = dtype_macros(pkg.spec, case)
        rt = build.ensure_runtime()
        try:
            wasm = {
                core: guest._build_kernel(
                    pkg, {**macros, **core_macros}, built.workdir, rt, request.timeouts.build_s
                )[0]
                for core, core_macros in kernel_view.core_builds(pkg).items()
            }
        except build.BuildError as e:
            raise CaseFailure(
                Status.RUNTIME_ERROR,
                f"case {case.name}: past the native engine's raw pointer trap budget, and the guest "
                f"engine, which has none, does not build the kernel: {_first_error(e.log)}",
                e.log,
            ) from e
        guest_dir = built.workdir / "on-guest"
        guest_dir.mkdir(exist_ok=True)
        kernels = {
            tuple(sorted(macros.items())): wasm
        }  # this case's builds: the native ones are not its
        check, timing = guest._run_case(
            Built(guest_dir, built.tiling_so, kernels), case, request, timed
        )
        why = "raw pointer accesses past the native engine's trap budget: timed on the guest engine"
        return check, Timing(
            timing.latency_us, {**timing.profile, "ran_on_guest": why}
        ) if timing else None


@contextlib.contextmanager
def _case_inputs(
    pkg: OperatorPackage, case: Case, seed: int, fresh: bool
) -> Iterator[case_data.CaseData]:
    """The case's data; a golden whose input preparation (`get_input`) fails is a REJECTED
    candidate, as a failing reference is."""
    with contextlib.ExitStack() as stack:
        try:
            data = stack.enter_context(case_data.case_data(pkg, case, seed, fresh))
        except references.ReferenceFailed as e:
            raise CaseFailure(Status.REJECTED, f"case {case.name}: {e}") from None
        yield data


def _reference(
    data: case_data.CaseData, case: Case, request: EvalRequest, log: str = ""
) -> list[np.ndarray]:
    """The case's reference outputs; a client's reference that fails is a REJECTED candidate."""
    try:
        return data.reference(request.timeouts.run_s)
    except references.ReferenceFailed as e:
        raise CaseFailure(Status.REJECTED, f"case {case.name}: {e}", log) from None


def _gm_bytes(pkg: OperatorPackage, case: Case) -> int:
    spec = pkg.spec
    return sum(
        math.prod(spec.arg_shape(case, a.name))
        * np.dtype(checker.STORAGE[spec.arg_dtype(case, a.name)]).itemsize
        for a in [*spec.inputs, *spec.outputs]
        if a.name not in case.absent
    )


def _first_error(log: str) -> str:
    """The compiler's first error line, for the one-line message."""
    for line in log.splitlines():
        if "error" in line:
            return line.strip()[:400]
    return log.strip().splitlines()[0][:400] if log.strip() else "unknown error"


class GuestSimBackend(SimBackend):
    """The simulator with the kernel run as a metered guest (`--backend sim-guest`)."""

    name = "sim-guest"  # results and records say which engine timed them
    engine = "guest"

    def prepare(self) -> None:
        guest_build.toolchain_version()  # the missing toolchain said in one line, before any request
        super().prepare()
