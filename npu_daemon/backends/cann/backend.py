"""The CANN backend: the same operator package, built with the vendor toolchain and timed on an NPU.

For each shape case: the host TilingFunc runs on the CPU (tiling.py), the kernel and a small ACL
host app build as a kernel-launch CMake project with ascendc_library (project.py), the app runs
on the device with the inputs the sim backend would use and its outputs are checked against the
same numpy reference (npu_daemon/checker.py). The bench case is then timed under `msprof op`
(warm-up launches skipped, `repeats` launches profiled; latency_us is the median Task Duration).
Device runs hold a per-device lock; builds run in parallel. Results are never simulated.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

import numpy as np
from pydantic import BaseModel, Field

from ascend_core.package import Case, OperatorPackage, dtype_macros
from ascend_core.protocol import CaseCheck, EvalRequest, Status
from npu_daemon import checker, references, sandbox
from npu_daemon.backends.base import Backend, CaseFailure, Timing, check_outputs
from npu_daemon.backends.cann import device, msprof, project, tiling
from npu_daemon.backends.cann.toolkit import Toolkit, ToolkitMissing
from npu_daemon.backends.common import build


class CannConfig(BaseModel):
    device_id: int = Field(0, ge=0)
    warmup: int = Field(5, ge=0)
    repeats: int = Field(
        10, ge=1, le=100
    )  # msprof op collects at most 100 launches, each replayed for its metrics
    state_dir: Path | None = None  # device locks; default: <cache>/cann/state
    msprof_timeout_s: float = Field(600.0, gt=0)
    # ACL reserves large virtual address ranges for device memory, so the app's RLIMIT_AS is generous.
    app_address_space_mb: int = Field(1 << 20, gt=0)

    @classmethod
    def from_env(cls) -> CannConfig:
        names = {
            "device_id": "ASCEND_GYM_CANN_DEVICE",
            "warmup": "ASCEND_GYM_CANN_WARMUP",
            "repeats": "ASCEND_GYM_CANN_REPEATS",
        }
        return cls(**{field: os.environ[env] for field, env in names.items() if env in os.environ})


class Built(NamedTuple):
    toolkit: Toolkit
    plans: dict[str, tuple[Path, tiling.Tiling, Path]]  # case -> (case dir, tiling, app)


class CannBackend(Backend):
    name = "cann"
    simulated = False

    def __init__(self, config: CannConfig | None = None):
        self.config = config or CannConfig.from_env()
        self._identity: dict[str, str] | None = None

    @property
    def state_dir(self) -> Path:
        return self.config.state_dir or tiling.cache_root() / "state"

    def prepare(self) -> None:
        Toolkit.discover()
        device.check_health(self.config.device_id)
        tiling.ensure_runner(build.ensure_runtime())

    def fingerprint(self, soc: str) -> dict[str, str]:
        if self._identity is None:
            try:
                toolkit, info = Toolkit.discover(), device.npu_smi_info()
                npu = info.device(self.config.device_id)
                self._identity = {
                    "cann": toolkit.version,
                    "driver": info.driver,
                    "device": f"{npu.device_id}:{npu.name}",
                }
            except (ToolkitMissing, device.DeviceError) as e:
                return {"backend": "cann", "soc": soc, "error": str(e)}
        return {
            "backend": "cann",
            "soc": soc,
            **self._identity,
            "tiling_host": build.runtime_sources_digest(),
        }

    def _ready(self, request: EvalRequest) -> None:
        """Fail fast, before building for a device that cannot run it."""
        try:
            Toolkit.discover()
            device.check_health(self.config.device_id)
        except (ToolkitMissing, device.DeviceError) as e:
            raise CaseFailure(Status.DAEMON_ERROR, str(e)) from e

    @contextlib.contextmanager
    def _running(self, request: EvalRequest) -> Iterator[None]:
        with device.exclusive(self.state_dir, self.config.device_id):
            self._recheck_health()  # the build may have taken minutes
            yield

    def _run_case(
        self, built: Built, case: Case, request: EvalRequest, timed: bool
    ) -> tuple[CaseCheck, Timing | None]:
        plan = built.plans[case.name]
        check = self._check_case(request.package, case, *plan, request, built.toolkit)
        if not timed:
            return check, None
        return check, Timing(*self._time_case(request.package, case, *plan, request, built.toolkit))

    def _recheck_health(self) -> None:
        try:
            device.check_health(self.config.device_id)
        except device.DeviceError as e:
            raise CaseFailure(Status.DAEMON_ERROR, str(e)) from e

    def _build(
        self, pkg: OperatorPackage, cases: list[Case], request: EvalRequest, workdir: Path
    ) -> Built:
        """Host tiling per case, then one app per (dtypes, tiling key); no device needed."""
        unsupported = _unsupported(pkg)
        if unsupported:
            raise CaseFailure(Status.REJECTED, f"the cann backend does not build {unsupported} yet")
        budget = request.timeouts.build_s
        toolkit = Toolkit.discover()
        try:
            tiling_so, rt = tiling.build_host(pkg, workdir, budget)
            plans = {}
            for case in cases:
                case_dir = workdir / f"case-{case.name}"
                case_dir.mkdir()
                out = tiling.run_tiling(pkg, case, request.soc, tiling_so, rt, case_dir, budget)
                app, _ = project.build_app(
                    pkg, dtype_macros(pkg.spec, case), out.tiling_key, request.soc, toolkit, budget
                )
                plans[case.name] = (case_dir, out, app)
            return Built(toolkit, plans)
        except build.BuildError as e:
            status = Status.BUILD_TIMEOUT if e.timed_out else Status.COMPILE_ERROR
            raise CaseFailure(status, f"{e.what}: {project.first_error(e.log)}", e.log) from e
        except tiling.TilingFailure as e:
            raise CaseFailure(Status.TILING_ERROR, str(e)) from e
        except project.BuildFailure as e:
            raise CaseFailure(
                Status.BUILD_TIMEOUT if e.timed_out else Status.COMPILE_ERROR,
                f"kernel: {e.message}",
                e.log,
            ) from e

    def _write_run_spec(
        self,
        pkg: OperatorPackage,
        case: Case,
        case_dir: Path,
        tiling_out: tiling.Tiling,
        launches: int,
        seed: int,
        name: str,
    ) -> dict[str, np.ndarray]:
        spec = pkg.spec
        inputs = checker.make_inputs(pkg, case, seed)
        lines = [
            f"device {self.config.device_id}",
            f"block_dim {tiling_out.block_dim}",
            f"launches {launches}",
            f"workspace {tiling_out.workspace_bytes}",
            f"tiling {tiling_out.path} {tiling_out.tiling_bytes}",
        ]
        for arg in spec.inputs:
            path = case_dir / f"in_{arg.name}.bin"
            inputs[arg.name].tofile(path)
            lines.append(f"input {path} {inputs[arg.name].nbytes}")
        for arg in spec.outputs:
            count = int(np.prod(spec.arg_shape(case, arg.name)))
            nbytes = count * np.dtype(checker.STORAGE[spec.arg_dtype(case, arg.name)]).itemsize
            lines.append(f"output {case_dir / f'out_{arg.name}.bin'} {nbytes}")
        (case_dir / name).write_text("\n".join(lines) + "\n")
        return inputs

    def _limits(self, timeout_s: float) -> sandbox.Limits:
        return sandbox.Limits(
            cpu_s=int(timeout_s) + 1,
            address_space_mb=self.config.app_address_space_mb,
            open_files=1024,
        )

    def _check_case(
        self,
        pkg: OperatorPackage,
        case: Case,
        case_dir: Path,
        tiling_out: tiling.Tiling,
        app: Path,
        request: EvalRequest,
        toolkit: Toolkit,
    ) -> CaseCheck:
        self._write_run_spec(pkg, case, case_dir, tiling_out, 1, request.seed, "run.txt")
        run_s = request.timeouts.run_s
        done = sandbox.run(
            [str(app), "run.txt"], case_dir, run_s, self._limits(run_s), env=toolkit.env
        )
        log = (done.stdout + done.stderr)[-4000:]
        if done.timed_out:
            raise CaseFailure(
                Status.RUN_TIMEOUT, f"case {case.name}: kernel run exceeded {run_s:g} s", log
            )
        if done.returncode != 0:
            why = (
                f"killed by {done.signal_name}"
                if done.signal_name
                else f"exit code {done.returncode}"
            )
            first = next((l for l in done.stderr.splitlines() if l.strip()), "")
            raise CaseFailure(
                Status.RUNTIME_ERROR, f"case {case.name}: app failed ({why}): {first[:300]}", log
            )
        spec = pkg.spec
        check = CaseCheck(name=case.name, passed=True)
        try:  # the inputs are in case_dir; a client's own reference runs in the sandbox
            expected_outputs = references.reference_outputs(
                pkg, case, case_dir, request.timeouts.run_s
            )
        except references.ReferenceFailed as e:
            raise CaseFailure(Status.REJECTED, f"case {case.name}: {e}", log) from None
        return check_outputs(spec, case, case_dir, expected_outputs, log) or check

    def _time_case(
        self,
        pkg: OperatorPackage,
        case: Case,
        case_dir: Path,
        tiling_out: tiling.Tiling,
        app: Path,
        request: EvalRequest,
        toolkit: Toolkit,
    ) -> tuple[float, dict[str, float | int]]:
        cfg = self.config
        self._write_run_spec(
            pkg, case, case_dir, tiling_out, cfg.warmup + cfg.repeats, request.seed, "time.txt"
        )
        output = case_dir / "msprof"
        output.mkdir()
        if (
            who := sandbox.current_identity()
        ) is not None:  # msprof runs as the sandbox user and writes here
            os.chown(output, who.uid, who.gid)
        cmd = msprof.command(app, "time.txt", output, pkg.spec.kernel, cfg.warmup, cfg.repeats)
        done = sandbox.run(
            cmd, case_dir, cfg.msprof_timeout_s, self._limits(cfg.msprof_timeout_s), env=toolkit.env
        )
        log = (done.stdout + done.stderr)[-4000:]
        if done.timed_out:
            raise CaseFailure(
                Status.RUN_TIMEOUT,
                f"timing under msprof op exceeded {cfg.msprof_timeout_s:g} s",
                log,
            )
        if done.returncode != 0:
            first = next((l for l in done.stderr.splitlines() if l.strip()), "")
            raise CaseFailure(
                Status.RUNTIME_ERROR,
                f"msprof op failed (exit code {done.returncode}): {first[:300]}",
                log,
            )
        try:
            return msprof.summarise(msprof.read_output(output))
        except msprof.MsprofError as e:
            raise CaseFailure(
                Status.DAEMON_ERROR, f"cannot read the msprof op output: {e}", log
            ) from e


def _unsupported(pkg: OperatorPackage) -> str:
    """What of the package format the kernel-launch project cannot express yet ('' if nothing):
    it passes one GM pointer per argument and builds the operator's directory alone."""
    spec = pkg.spec
    if any(a.dynamic for a in [*spec.inputs, *spec.outputs]):
        return "dynamic (list) inputs or outputs"
    if spec.tree_path:
        return "files of other operators' directories (tree/)"
    return ""
