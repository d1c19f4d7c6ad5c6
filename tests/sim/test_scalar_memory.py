"""Scalar-heavy kernels in bounded memory: the race checker's per-access GM bookkeeping merges
interleaved runs and fixed-pitch rows, so loops of GetValue/SetValue cost a few records however
many accesses they make; scattered accesses past the bound stop with a RUNTIME_ERROR naming why."""

import resource
import subprocess

import numpy as np
import pytest

from npu_daemon.backends.common import build
from npu_daemon.backends.sim.calibration.anchors import model_constants

HEAD = "GET_TILING_DATA(t, tiling); const int64_t n = t.p[0], reps = t.p[1];\n"
GM = (
    "GlobalTensor<float> xg, yg, zg; xg.SetGlobalBuffer((__gm__ float*)x); yg.SetGlobalBuffer((__gm__ float*)y); "
    "zg.SetGlobalBuffer((__gm__ float*)z);\n"
)
# Three interleaved streams: x forward, y at a pitch of two elements, z forward.
STREAMS = "for (int64_t r = 0; r < reps; ++r) for (int64_t i = 0; i < n; ++i) zg.SetValue(i, xg.GetValue(i) + yg.GetValue(2 * i));"


def rerun_within(work, limit_bytes: int) -> subprocess.CompletedProcess:
    """The harness again on the same launch, its address space capped."""

    def cap() -> None:
        resource.setrlimit(resource.RLIMIT_AS, (limit_bytes, limit_bytes))

    rt = build.ensure_runtime()
    return subprocess.run(
        [str(rt.harness), "launch.txt"],
        cwd=work,
        capture_output=True,
        text=True,
        preexec_fn=cap,
        timeout=600,
    )


def test_interleaved_scalar_streams_stay_in_bounded_memory(kernel, tmp_path):
    n = 1 << 20  # 3 Mi scalar accesses: one record each would be ~150 MB of bookkeeping
    x = np.arange(n, dtype=np.float32)
    y = np.arange(2 * n, dtype=np.float32) * 0.5
    r = kernel(HEAD + GM + STREAMS, {"x": x, "y": y}, {"z": ("float32", (n,))}, params=[n, 1]).ok()
    np.testing.assert_array_equal(r.outputs["z"], x + y[::2])
    # 3 Mi accesses of sequential streams: data cache hits (scalar_dcache_hit_cycles) but for one
    # miss (scalar_gm_access_cycles) per 64 B line, whatever else the model adds
    model = model_constants()
    hit, miss = model["scalar_dcache_hit_cycles"], model["scalar_gm_access_cycles"]
    assert r.result["latency_us"] > (3 * n * hit + (2 * n / 16 + n / 8) * miss) / 1800
    # The same launch under a 160 MiB address-space cap (GM buffers take 16 MiB): still OK.
    work = tmp_path / "k0" / "simk"
    (work / "result.json").unlink()
    rerun_within(work, 160 << 20)
    assert '"status": "OK"' in (work / "result.json").read_text()


@pytest.mark.slow
def test_a_hundred_million_scalar_accesses(kernel, tmp_path):
    n = 1 << 20
    reps = 32  # 3 x 2^25 ~ 10^8 accesses (about a minute on a quiet core)
    x = np.arange(n, dtype=np.float32)
    y = np.ones(2 * n, dtype=np.float32)
    r = kernel(
        HEAD + GM + STREAMS, {"x": x, "y": y}, {"z": ("float32", (n,))}, params=[n, reps]
    ).ok()
    np.testing.assert_array_equal(r.outputs["z"], x + 1)
    work = tmp_path / "k0" / "simk"
    (work / "result.json").unlink()
    rerun_within(work, 256 << 20)
    assert '"status": "OK"' in (work / "result.json").read_text()


@pytest.mark.slow  # 9 M scattered reads: about a minute on a quiet core
def test_scattered_scalar_accesses_past_the_bound_are_timed_and_checked_in_part(kernel):
    n = 1 << 16
    x = np.ones(n, dtype=np.float32)
    # An LCG walk over x: no run and no pitch beyond a pair; past 2^22 records the cross-core check
    # keeps what it has and the launch goes on, every access still charged.
    reads = 9_000_000  # ~2 per record: just past the bound
    body = (
        HEAD
        + GM
        + "uint32_t h = 1; float s = 0; for (int64_t i = 0; i < reps; ++i) { h = h * 1664525u + 1013904223u; "
        "s += xg.GetValue(h % n); } zg.SetValue(0, s);"
    )
    r = kernel(
        body, {"x": x, "y": x}, {"z": ("float32", (1,))}, params=[n, reads], strict=False
    ).ok()
    assert r.outputs["z"][0] == reads
    (warning,) = [w for w in r.result["warnings"] if "GM footprints between SyncAlls" in w]
    assert "more than 4194304" in warning and "timed but not checked" in warning
    assert "GlobalTensor::GetValue" in warning and "DataCopy" in warning
    # Charged: at least a data cache hit (9 cycles at 1.8 GHz) for each of the 12 M reads.
    assert r.result["profile"]["aiv_scalar_time_us"] > reads * 9 / 1800
