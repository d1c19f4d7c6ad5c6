"""The timing protocol (EvalRequest.timing_protocol): "cold", the default, is one launch on an
empty L2 with a first launch's head (what reproduces the published msprof op anchors); "warm" is the
steady state of repeated launches as benchmark harnesses time a kernel (the launch before's data
in L2, a warm launch's head)."""

import json
import subprocess
from pathlib import Path

import numpy as np
from conftest import UB_HELPERS

from ascend_core.package import load_package
from ascend_core.protocol import EvalRequest, Stage
from npu_daemon.backends.common import build
from npu_daemon.backends.sim import SimBackend
from npu_daemon.backends.sim.backend import soc_params
from npu_daemon.service.store import cache_key

PACKAGE = Path(__file__).resolve().parents[2] / "ascend_core" / "suite" / "level1" / "add"
N = 2048  # floats per block
COPY = f"""Ub ub; const int64_t b = GetBlockIdx();
  LocalTensor<float> a = ub.In<float>(x + b * {N} * sizeof(float), {N});
  SYNC(); Adds(a, a, 1.0f, {N}); SYNC();
  ub.Out(z + b * {N} * sizeof(float), a, {N});"""


def rerun_warm(work) -> dict:
    """The harness again on the same launch, timed as the steady state of repeated launches."""
    spec = work / "launch.txt"
    spec.write_text(spec.read_text() + "warm_launch\n")
    (work / "result.json").unlink()
    subprocess.run(
        [str(build.ensure_runtime().harness), "launch.txt"], cwd=work, check=True, timeout=120
    )
    return json.loads((work / "result.json").read_text())


def test_warm_launch_finds_its_inputs_in_l2_and_pays_a_warm_head(kernel, tmp_path):
    blocks = 8
    x = np.arange(blocks * N, dtype=np.float32)
    cold = kernel(
        COPY, {"x": x}, {"z": ("float32", (blocks * N,))}, block_dim=blocks, prelude=UB_HELPERS
    ).ok()
    np.testing.assert_array_equal(cold.outputs["z"], x + 1)
    warm = rerun_warm(tmp_path / "k0" / "simk")
    assert warm["status"] == "OK", warm["message"]
    w, c = warm["profile"], cold.result["profile"]
    assert w["timing_protocol"] == "warm" and "timing_protocol" not in c
    # Warm: every byte read was left in L2 by the launch before; cold: every read misses.
    assert w["l2_hit_bytes"] >= x.nbytes and w["hbm_bytes"] == 0
    assert c["l2_hit_bytes"] < x.nbytes
    params = soc_params("Ascend910B4")
    assert (
        w["head_us"]
        == float(params["launch_warm_us"]) + float(params["launch_warm_us_per_core"]) * blocks
    )
    assert c["head_us"] == float(params["launch_us"]) + float(params["launch_us_per_core"]) * blocks
    assert warm["latency_us"] < cold.result["latency_us"]
    # Warm, a small kernel is not dominated by a head larger than a device's whole kernel time
    # (public figures of 1.4-2 us for tiny kernels timed by repeated launches).
    assert warm["latency_us"] < 3.0 < cold.result["latency_us"]


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
    warm = rerun_warm(tmp_path / "k0" / "simk")
    w, c = warm["profile"], cold.result["profile"]
    assert w["l2_hit_bytes"] < 0.1 * x.nbytes
    assert w["hbm_bytes"] > c["hbm_bytes"]
    assert w["task_duration_us"] - w["head_us"] > c["task_duration_us"] - c["head_us"]


def test_the_protocol_is_a_request_option_and_part_of_the_cache_key(tmp_path):
    pkg = load_package(PACKAGE)
    request = EvalRequest(package=pkg, stages=[Stage.COMPILE, Stage.TIME])
    assert "timing_protocol" not in request.model_dump()  # the default leaves requests as they were
    warm = request.model_copy(update={"timing_protocol": "warm"})
    assert cache_key(warm, {}) != cache_key(request, {})
    results = {}
    for r in (request, warm):
        work = tmp_path / r.timing_protocol
        work.mkdir()
        results[r.timing_protocol] = SimBackend().evaluate(r, work)
    launch = tmp_path / "warm" / f"case-{pkg.spec.bench_case.name}" / "launch.txt"
    assert launch.read_text().count("warm_launch") == 1
    assert results["warm"].profile.timing_protocol == "warm"
    assert results["cold"].profile.timing_protocol == "cold"
    assert results["warm"].latency_us < results["cold"].latency_us
