"""The cann backend end to end against the fake toolkit (tests/cann/fake_toolchain): real CMake,
real g++ builds of the kernel-launch project, the app run on the fake device, msprof op CSVs read
back. What is fake is only the device and its tools; see the toolkit's README."""

from __future__ import annotations

import json
import statistics
import threading
import time
from pathlib import Path

import pytest

from ascend_core.package import OperatorPackage, load_package
from ascend_core.protocol import EvalRequest, EvalResult, Status
from npu_daemon.backends.base import BACKENDS, get_backend
from npu_daemon.backends.cann import CannBackend, CannConfig, device, msprof

SUITE_ADD = Path(__file__).resolve().parents[2] / "ascend_core" / "suite" / "level1" / "add"


def small_add() -> OperatorPackage:
    """level1/add with its fp16 cases and a small bench case, so one build serves every case."""
    pkg = load_package(SUITE_ADD, uri="op://ascend-ops-v1/level1/add")
    cases = [c for c in pkg.spec.cases if c.name in ("aligned_fp16", "tail_fp16")]
    bench = pkg.spec.bench_case.model_copy(update={"shapes": {"x": [64, 1000], "y": [64, 1000]}})
    return pkg.model_copy(update={"spec": pkg.spec.model_copy(update={"cases": [*cases, bench]})})


def edit_kernel(pkg: OperatorPackage, old: str, new: str) -> OperatorPackage:
    assert old in pkg.kernel_source
    return pkg.with_sources(kernel=pkg.kernel_source.replace(old, new))


def evaluate(
    pkg: OperatorPackage, tmp_path: Path, name: str = "run", **request: object
) -> EvalResult:
    backend = CannBackend(CannConfig(warmup=2, repeats=5, state_dir=tmp_path / "state"))
    workdir = tmp_path / name
    workdir.mkdir()
    return backend.evaluate(EvalRequest(package=pkg, **request), workdir)


def events(log: Path, kind: str) -> list[dict]:
    return (
        [e for e in map(json.loads, log.read_text().splitlines()) if e["event"] == kind]
        if log.exists()
        else []
    )


def test_registered() -> None:
    assert BACKENDS == ("sim", "sim-guest", "cann")
    backend = get_backend("cann")
    assert (
        isinstance(backend, CannBackend) and backend.name == "cann" and backend.simulated is False
    )


def test_correct_add_is_ok_with_latency_and_profile(cann_env: Path, tmp_path: Path) -> None:
    result = evaluate(small_add(), tmp_path)
    assert result.status is Status.OK, result.message + result.log_tail
    assert result.backend == "cann" and result.simulated is False
    assert [c.name for c in result.cases] == ["aligned_fp16", "tail_fp16", "bench_fp16"]
    assert all(c.passed and c.max_abs_error == 0 for c in result.cases)
    assert (
        result.fingerprint["cann"] == "8.0.0-fake" and result.fingerprint["driver"] == "24.1.0-fake"
    )
    assert result.fingerprint["device"] == "0:910B4"

    # latency_us is the median Task Duration of the profiled launches msprof op wrote.
    launches = msprof.read_output(tmp_path / "run" / "case-bench_fp16" / "msprof")
    assert len(launches) == 5
    assert result.latency_us == pytest.approx(
        statistics.median(l.task_duration_us for l in launches)
    )
    profile = result.profile
    assert profile.block_dim == 40 and profile.aiv_cores > 0  # the add tiling's 40 blocks
    assert (
        0 < profile.aiv_mte2_ratio < 1
        and profile.aiv_mte2_time_us > 0
        and profile.aiv_vec_time_us > 0
    )
    assert profile.model_extra["timing_repeats"] == 5
    element_bytes = 64 * 1000 * 2  # fp16 x, y and z of the bench case
    assert profile.gm_read_bytes == 2 * element_bytes and profile.gm_write_bytes == element_bytes
    assert len(events(cann_env, "msprof")) == 1


def test_syntax_error_is_compile_error(cann_env: Path, tmp_path: Path) -> None:
    pkg = edit_kernel(small_add(), "KernelAdd op;", "KernelAdd op")
    result = evaluate(pkg, tmp_path)
    assert result.status is Status.COMPILE_ERROR
    assert "error:" in result.message and "add.cpp" in result.message
    assert result.latency_us is None and not events(cann_env, "msprof")


def test_list_package_is_rejected_before_any_build(cann_env: Path, tmp_path: Path) -> None:
    pkg = load_package(Path(__file__).resolve().parents[1] / "sim" / "packages" / "list_scale")
    result = evaluate(pkg, tmp_path)
    assert result.status is Status.REJECTED
    assert "dynamic (list) inputs or outputs" in result.message
    assert not (tmp_path / "run" / "case-" / "x").exists() and not events(cann_env, "msprof")


def test_wrong_numbers_are_wrong_answer(cann_env: Path, tmp_path: Path) -> None:
    pkg = edit_kernel(small_add(), "Add(zLocal, xLocal, yLocal", "Sub(zLocal, xLocal, yLocal")
    result = evaluate(pkg, tmp_path)
    assert result.status is Status.WRONG_ANSWER
    assert result.cases[-1].name == "aligned_fp16" and not result.cases[-1].passed
    assert result.cases[-1].max_abs_error > 0.01
    assert "output z" in result.message and not events(cann_env, "msprof")


def test_out_of_bounds_kernel_is_runtime_error(cann_env: Path, tmp_path: Path) -> None:
    pkg = edit_kernel(
        small_add(), "(__gm__ DTYPE_X*)x + offset,", "(__gm__ DTYPE_X*)x + offset + (1 << 20),"
    )
    result = evaluate(pkg, tmp_path)
    assert result.status is Status.RUNTIME_ERROR
    assert (
        "aclrtSynchronizeStream" in result.message and "outside every GM buffer" in result.message
    )


def test_hanging_kernel_is_run_timeout(cann_env: Path, tmp_path: Path) -> None:
    pkg = edit_kernel(
        small_add(), "op.Process();", "volatile uint32_t spin = 1;\n  while (spin) {}"
    )
    result = evaluate(pkg, tmp_path, timeouts={"build_s": 60, "run_s": 1})
    assert result.status is Status.RUN_TIMEOUT and "exceeded 1 s" in result.message


def test_slow_build_is_build_timeout(cann_env: Path, tmp_path: Path) -> None:
    pkg = edit_kernel(small_add(), "KernelAdd op;", "KernelAdd op;  // not built before")
    result = evaluate(pkg, tmp_path, timeouts={"build_s": 0.2, "run_s": 10})
    assert result.status is Status.BUILD_TIMEOUT


def test_failing_tiling_is_tiling_error(cann_env: Path, tmp_path: Path) -> None:
    pkg = small_add()
    tiling = pkg.tiling_source.replace(
        "AddTilingData tiling;", "AddTilingData tiling;\n  return ge::GRAPH_FAILED;"
    )
    result = evaluate(pkg.with_sources(tiling=tiling), tmp_path)
    assert result.status is Status.TILING_ERROR and "GRAPH_FAILED" in result.message
    assert not events(cann_env, "compile")  # nothing was built for the device


def test_unhealthy_device_is_daemon_error(
    cann_env: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("ASCEND_FAKE_NPU_HEALTH", "Alarm")
    result = evaluate(small_add(), tmp_path)
    assert result.status is Status.DAEMON_ERROR and "health is Alarm" in result.message
    assert not events(cann_env, "compile")


def test_device_failing_during_the_build_is_daemon_error(
    cann_env: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Another evaluation holds the device while this one builds; the device fails meanwhile.
    results: list[EvalResult] = []
    with device.exclusive(tmp_path / "state", 0):
        worker = threading.Thread(target=lambda: results.append(evaluate(small_add(), tmp_path)))
        worker.start()
        tiled = (
            tmp_path / "run" / "case-bench_fp16" / "tiling.json"
        )  # written after the first health check
        deadline = time.monotonic() + 60
        while not tiled.exists() and time.monotonic() < deadline:
            time.sleep(0.05)
        monkeypatch.setenv("ASCEND_FAKE_NPU_HEALTH", "Critical")
    worker.join()
    assert results[0].status is Status.DAEMON_ERROR and "health is Critical" in results[0].message
    assert not events(cann_env, "msprof")


def test_missing_toolkit_is_daemon_error(
    cann_env: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("ASCEND_HOME_PATH")
    result = evaluate(small_add(), tmp_path)
    assert result.status is Status.DAEMON_ERROR and "set_env.sh" in result.message


def test_concurrent_evaluations_build_in_parallel_and_time_one_at_a_time(
    cann_env: Path, tmp_path: Path
) -> None:
    # Two candidates whose kernels differ, so each needs its own build.
    pkgs = [
        edit_kernel(
            small_add(),
            "constexpr int32_t BUFFER_NUM = 2;",
            f"constexpr int32_t BUFFER_NUM = 2;  // variant {i}",
        )
        for i in range(2)
    ]
    results: list[EvalResult] = [None, None]

    def run(i: int) -> None:
        results[i] = evaluate(pkgs[i], tmp_path, f"run{i}")

    threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert [r.status for r in results] == [Status.OK, Status.OK], [r.message for r in results]

    timings = sorted(events(cann_env, "msprof"), key=lambda e: e["start"])
    assert (
        len(timings) == 2 and timings[0]["end"] <= timings[1]["start"]
    )  # the device lock serialised them
    builds: dict[str, list[dict]] = {}
    for e in events(cann_env, "compile"):
        builds.setdefault(e["cwd"], []).append(e)
    assert len(builds) == 2
    a, b = builds.values()
    assert any(
        x["start"] < y["end"] and y["start"] < x["end"] for x in a for y in b
    )  # the builds overlapped
