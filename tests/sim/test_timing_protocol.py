"""The timing protocol (EvalRequest.timing_protocol): two temperatures chosen independently, L2
flushed or resident (what the launch before of the same kernel left) and the launch first or
repeated (a first launch's head or a warm one's). The default, "flushed-repeated", is how benchmarks
time a kernel; "cold" is flushed-first and "warm" resident-repeated."""

import json
import subprocess
from pathlib import Path

import numpy as np
import pytest
from conftest import UB_HELPERS

from ascend_core.package import load_package
from ascend_core.protocol import TIMING_PROTOCOLS, EvalRequest, Stage, timing_axes
from npu_daemon.backends.common import build
from npu_daemon.backends.sim import SimBackend
from npu_daemon.backends.sim.backend import soc_params
from npu_daemon.backends.sim.calibration import anchors
from npu_daemon.service.store import cache_key

PACKAGE = Path(__file__).resolve().parents[2] / "ascend_core" / "suite" / "level1" / "add"
N = 2048  # floats per block
COPY = f"""Ub ub; const int64_t b = GetBlockIdx();
  LocalTensor<float> a = ub.In<float>(x + b * {N} * sizeof(float), {N});
  SYNC(); Adds(a, a, 1.0f, {N}); SYNC();
  ub.Out(z + b * {N} * sizeof(float), a, {N});"""


def rerun(work, *lines: str) -> dict:
    """The harness again on the same launch (the kernel fixture's: flushed-first) with `lines`
    added to its launch spec: `l2_resident`, `launch_repeated`."""
    spec = work / "launch.txt"
    spec.write_text(spec.read_text() + "".join(f"{line}\n" for line in lines))
    (work / "result.json").unlink()
    subprocess.run(
        [str(build.ensure_runtime().harness), "launch.txt"], cwd=work, check=True, timeout=120
    )
    return json.loads((work / "result.json").read_text())


def test_names_map_onto_the_two_axes():
    assert timing_axes("flushed-repeated") == (False, True)
    assert timing_axes("resident-first") == (True, False)
    assert timing_axes("cold") == timing_axes("flushed-first") == (False, False)
    assert timing_axes("warm") == timing_axes("resident-repeated") == (True, True)
    assert EvalRequest.model_fields["timing_protocol"].default == "flushed-repeated"


@pytest.mark.parametrize("resident", [False, True])
@pytest.mark.parametrize("repeated", [False, True])
def test_data_and_launch_temperature_are_chosen_independently(kernel, tmp_path, resident, repeated):
    blocks = 8
    x = np.arange(blocks * N, dtype=np.float32)
    first = kernel(
        COPY, {"x": x}, {"z": ("float32", (blocks * N,))}, block_dim=blocks, prelude=UB_HELPERS
    ).ok()
    np.testing.assert_array_equal(first.outputs["z"], x + 1)
    lines = [*(["l2_resident"] if resident else []), *(["launch_repeated"] if repeated else [])]
    run = rerun(tmp_path / "k0" / "simk", *lines)
    assert run["status"] == "OK", run["message"]
    p = run["profile"]
    # Resident: every byte read was left in L2 by the launch before; flushed: every read misses.
    if resident:
        assert p["l2_hit_bytes"] >= x.nbytes and p["hbm_bytes"] == 0
    else:
        assert p["l2_hit_bytes"] < x.nbytes
    params = soc_params("Ascend910B4")
    kind = "launch_repeated" if repeated else "launch"
    assert (
        p["head_us"] == float(params[f"{kind}_us"]) + float(params[f"{kind}_us_per_core"]) * blocks
    )
    # The kernel body (Task Duration less the head) depends on the data's temperature alone.
    c = first.result["profile"]
    body, first_body = p["task_duration_us"] - p["head_us"], c["task_duration_us"] - c["head_us"]
    assert (body < first_body) if resident else body == pytest.approx(first_body)


def test_a_footprint_past_l2_finds_little_in_it_and_writes_back_the_launch_before(kernel, tmp_path):
    # 96 MiB of L2 on the 910B4: 64 blocks of 2 MiB read and write 256 MiB, so what the launch
    # before left in L2 is its last wave's data (written: dirty), long evicted when the next launch
    # reaches it; each miss of the warm launch writes one of those dirty lines back to HBM.
    blocks, n = 64, 1 << 19
    body = f"""Ub ub; const int64_t b = GetBlockIdx();
  for (int64_t t = 0; t < 16; ++t) {{
    LocalTensor<float> a = ub.In<float>(x + (b * {n} + t * {n // 16}) * sizeof(float), {n // 16});
    SYNC(); ub.Out(z + (b * {n} + t * {n // 16}) * sizeof(float), a, {n // 16}); SYNC();
    ub.used = 0;
  }}"""
    x = np.zeros(blocks * n, dtype=np.float32)
    cold = kernel(
        body, {"x": x}, {"z": ("float32", (blocks * n,))}, block_dim=blocks, prelude=UB_HELPERS
    ).ok()
    warm = rerun(tmp_path / "k0" / "simk", "l2_resident", "launch_repeated")
    w, c = warm["profile"], cold.result["profile"]
    assert w["l2_hit_bytes"] < 0.1 * x.nbytes
    assert w["hbm_bytes"] > c["hbm_bytes"]
    assert w["task_duration_us"] - w["head_us"] > c["task_duration_us"] - c["head_us"]


def test_the_protocol_is_a_request_option_and_part_of_the_cache_key(tmp_path):
    pkg = load_package(PACKAGE)
    request = EvalRequest(package=pkg, stages=[Stage.COMPILE, Stage.TIME])
    assert "timing_protocol" not in request.model_dump()  # the default is left off the wire
    requests = {p: request.model_copy(update={"timing_protocol": p}) for p in TIMING_PROTOCOLS}
    assert len({cache_key(r, {}) for r in requests.values()}) == len(TIMING_PROTOCOLS)
    results = {}
    for name in ("flushed-repeated", "cold", "warm"):
        work = tmp_path / name
        work.mkdir()
        results[name] = SimBackend().evaluate(requests[name], work)
        launch = (work / f"case-{pkg.spec.bench_case.name}" / "launch.txt").read_text().split("\n")
        resident, repeated = timing_axes(name)
        assert ("l2_resident" in launch, "launch_repeated" in launch) == (resident, repeated)
        assert results[name].profile.timing_protocol == name
    assert "timing_protocol" not in results["cold"].profile.model_dump()  # as before the axes
    latency = {name: r.latency_us for name, r in results.items()}
    assert latency["warm"] < latency["flushed-repeated"] < latency["cold"]


def test_l2_hit_reads_follow_the_public_fit_of_one_cores_copies():
    """Anchor P1: one core's copies of data resident in L2 against hw-native-sys/pto-isa's on-device
    fit, (K + bytes) / peak; the larger the copy, the closer (the model's fixed cost per copy is
    ~64 cycles above the fit's: docs/performance_model.md, The fitted constants)."""
    rows = anchors.calibrate(["P1"], "Ascend910B3")
    errors = [r.error for r in rows]
    assert [r.case for r in rows] == ["l2_copy_8k", "l2_copy_32k", "l2_copy_64k"]
    assert all(0 < e < 0.3 for e in errors) and errors == sorted(errors, reverse=True)
