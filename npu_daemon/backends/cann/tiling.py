"""Host tiling for the cann backend.

The kernel-launch app needs the TilingFunc's output (tiling bytes, block dim, workspace size) before
it can launch. We build the package's op_host program with g++ against the simulator's host
headers (our own gert::TilingContext / PlatformAscendC, the same tiling.so the sim backend builds,
backends/common/build.py) and run it for each shape case with the SoC's preset values. The
assumption, stated in docs/cann.md: those presets describe the device (core count, UB size), and
the TilingFunc uses only host APIs our headers provide.
"""

from __future__ import annotations

import fcntl
import json
import os
import subprocess
from pathlib import Path

from pydantic import BaseModel

from ascend_core.package import Case, OperatorPackage
from ascend_core.soc import preset
from npu_daemon import sandbox
from npu_daemon.backends.common import build, launch

RUNNER_SOURCE = Path(__file__).resolve().parent / "tiling_runner.cpp"


class TilingFailure(Exception):
    pass


class Tiling(BaseModel):
    """What the TilingFunc decided for one case; `path` holds the raw tiling bytes."""

    block_dim: int
    tiling_key: int
    workspace_bytes: int
    tiling_bytes: int
    path: Path


def cache_root() -> Path:
    root = build.cache_root().parent / "cann"
    root.mkdir(parents=True, exist_ok=True)
    return root


def ensure_runner(rt: build.Runtime) -> Path:
    """The tiling runner, built once per simulator runtime and runner source (file-locked)."""
    key = build.digest("tiling-runner", rt.digest, RUNNER_SOURCE.read_bytes())
    target = cache_root() / f"tiling-runner-{key}"
    if target.exists():
        return target
    with (cache_root() / f"tiling-runner-{key}.lock").open("w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not target.exists():
            tmp = target.with_name(f"{target.name}.tmp{os.getpid()}")
            cmd = [
                build.CXX,
                *build.CXXFLAGS,
                *build.INCLUDE_FLAGS,
                str(RUNNER_SOURCE),
                *rt.link_flags(),
                "-ldl",
                "-o",
                str(tmp),
            ]
            done = subprocess.run(cmd, capture_output=True, text=True)
            if done.returncode != 0:
                raise RuntimeError(
                    f"building the cann tiling runner failed:\n{done.stderr[-4000:]}"
                )
            os.replace(tmp, target)
    return target


def build_host(pkg: OperatorPackage, workdir: Path, timeout_s: float) -> tuple[Path, build.Runtime]:
    """tiling.so from op_host/ (raises build.BuildError like the sim backend)."""
    rt = build.ensure_runtime()
    return build.build_tiling(pkg, workdir, rt, timeout_s)[0], rt


def run_tiling(
    pkg: OperatorPackage,
    case: Case,
    soc: str,
    tiling_so: Path,
    rt: build.Runtime,
    case_dir: Path,
    timeout_s: float,
) -> Tiling:
    spec = pkg.spec
    inputs, outputs = launch.case_tensors(spec, case)  # no GM: the tiling sees shapes and dtypes
    try:
        launch.LaunchSpec(
            op_type=spec.op_type,
            tiling_so=tiling_so,
            tiling_out=case_dir / "tiling.bin",
            result=case_dir / "tiling.json",
            params=preset(soc),
            inputs=inputs,
            outputs=outputs,
            attrs=launch.case_attrs(spec, case),
        ).write(case_dir / "tiling.txt")
    except ValueError as e:  # a string attribute the line format cannot carry
        raise TilingFailure(str(e)) from None
    done = sandbox.run(
        [str(ensure_runner(rt)), "tiling.txt"],
        case_dir,
        timeout_s,
        sandbox.Limits(cpu_s=int(timeout_s) + 1, address_space_mb=4096),
    )
    result_path = case_dir / "tiling.json"
    if done.timed_out:
        raise TilingFailure(f"case {case.name}: tiling program exceeded {timeout_s:g} s")
    if not result_path.exists():
        why = (
            f"killed by {done.signal_name}" if done.signal_name else f"exit code {done.returncode}"
        )
        raise TilingFailure(
            f"case {case.name}: tiling program crashed ({why}): {(done.stdout + done.stderr)[-400:]}"
        )
    out = json.loads(result_path.read_text())
    if out["status"] != "OK":
        raise TilingFailure(f"case {case.name}: {out['message']}")
    return Tiling(
        **{k: out[k] for k in ("block_dim", "tiling_key", "workspace_bytes", "tiling_bytes")},
        path=case_dir / "tiling.bin",
    )
