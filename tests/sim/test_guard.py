"""Raw pointer accesses: kernel code that loads or stores GM or UB with plain C++ instead of the
AscendC API is charged like GetValue/SetValue (one scalar access each), and stopped past a cap.
Equal but for each side's own scalar instructions (test_scalar_unit.py): raw code counts its loads
and stores, API code the argument set-up of each call, hence a tolerance."""

import numpy as np
import pytest

from npu_daemon.backends.sim.calibration.anchors import model_constants

N = 4096
X = np.arange(N, dtype=np.float32)
Y = np.full(N, 0.5, dtype=np.float32)
OUT = {"z": ("float32", (N,))}
HEAD = "GET_TILING_DATA(t, tiling); const int64_t n = t.p[0];\n"  # a runtime count: g++ keeps the loops scalar
GM = (
    "GlobalTensor<float> xg, yg, zg; xg.SetGlobalBuffer((__gm__ float*)x, n); yg.SetGlobalBuffer((__gm__ float*)y, n); "
    "zg.SetGlobalBuffer((__gm__ float*)z, n);\n"
)


def latency(r) -> float:
    return r.ok().result["latency_us"]


def test_gm_raw_loop_is_charged_like_get_set_value(kernel):
    raw = kernel(
        HEAD
        + "for (int64_t i = 0; i < n; ++i) ((__gm__ float*)z)[i] = ((__gm__ float*)x)[i] + ((__gm__ float*)y)[i];",
        {"x": X, "y": Y},
        OUT,
        params=[N],
    )
    api = kernel(
        HEAD
        + GM
        + "for (int64_t i = 0; i < n; ++i) zg.SetValue(i, xg.GetValue(i) + yg.GetValue(i));",
        {"x": X, "y": Y},
        OUT,
        params=[N],
    )
    vec = kernel(
        HEAD
        + GM
        + "TPipe pipe; TBuf<> b; pipe.InitBuffer(b, 3 * N * 4); LocalTensor<float> a = b.Get<float>();"
        "DataCopy(a, xg, n); DataCopy(a[N], yg, n); PipeBarrier<PIPE_ALL>(); Add(a[2 * N], a, a[N], n); "
        "PipeBarrier<PIPE_ALL>(); DataCopy(zg, a[2 * N], n);",
        {"x": X, "y": Y},
        OUT,
        params=[N],
        prelude=f"constexpr int N = {N};",
    )
    np.testing.assert_array_equal(raw.ok().outputs["z"], X + Y)
    assert latency(raw) == pytest.approx(latency(api), rel=0.3)
    assert latency(raw) > 20 * latency(vec)


@pytest.mark.slow  # 524289 traps: about 10 s of host time
def test_gm_raw_loop_past_the_trap_budget_stops_the_native_harness(kernel):
    # The harness stops; the backend then times the launch on the guest engine
    # (tests/guest/test_raw_pointers.py, the trap budget).
    n = 180000  # 3 accesses per element: past the cap of 524288
    big = np.ones(n, dtype=np.float32)
    r = kernel(
        HEAD
        + "for (int64_t i = 0; i < n; ++i) ((__gm__ float*)z)[i] = ((__gm__ float*)x)[i] + ((__gm__ float*)y)[i];",
        {"x": big, "y": big},
        {"z": ("float32", (n,))},
        params=[n],
    )
    assert r.status == "RUNTIME_ERROR", r.message
    assert r.message.startswith(
        "block 0: 524289 raw pointer accesses in this launch, the first to x+0: "
    ), r.message
    for f in [
        "bypassing the AscendC API",
        f"~{model_constants()['scalar_gm_access_cycles']} cycles on GM",  # soc/model.toml
        f"~{model_constants()['scalar_ub_access_cycles']} on UB",
        "hands a launch past 524288 to the guest engine",
    ]:
        assert f in r.message, f


def test_ub_raw_loop_after_data_copy_is_charged_like_get_set_value(kernel):
    setup = (
        HEAD
        + GM
        + (
            "TPipe pipe; TBuf<> b; pipe.InitBuffer(b, N * 4); LocalTensor<float> a = b.Get<float>(); DataCopy(a, xg, n); "
            "PipeBarrier<PIPE_ALL>();\n"
        )
    )
    done = "PipeBarrier<PIPE_ALL>(); DataCopy(zg, a, n);"
    pre = f"constexpr int N = {N};"
    raw = kernel(
        setup
        + "__ubuf__ float* p = (__ubuf__ float*)a.GetPhyAddr(); for (int64_t i = 0; i < n; ++i) p[i] = p[i] * 2.0f;\n"
        + done,
        {"x": X, "y": Y},
        OUT,
        params=[N],
        prelude=pre,
    )
    api = kernel(
        setup + "for (int64_t i = 0; i < n; ++i) a.SetValue(i, a.GetValue(i) * 2.0f);\n" + done,
        {"x": X, "y": Y},
        OUT,
        params=[N],
        prelude=pre,
    )
    np.testing.assert_array_equal(raw.ok().outputs["z"], X * 2)
    assert latency(raw) == pytest.approx(latency(api), rel=0.3)
    assert (
        latency(raw)
        > latency(kernel(setup + done, {"x": X, "y": Y}, OUT, params=[N], prelude=pre)) + 1.0
    )


def test_ub_raw_race_is_detected_like_get_value(kernel):
    r = kernel(
        HEAD
        + GM
        + "TPipe pipe; TBuf<> b; pipe.InitBuffer(b, N * 4); LocalTensor<float> a = b.Get<float>(); "
        "DataCopy(a, xg, n); volatile float v = ((__ubuf__ float*)a.GetPhyAddr())[5]; (void)v;",
        {"x": X, "y": Y},
        OUT,
        params=[N],
        prelude=f"constexpr int N = {N};",
    )
    assert r.status == "RACE_DETECTED", r.message
    assert "raw UB load reads UB address 20" in r.message and "DataCopy" in r.message, r.message


def test_one_scalar_read_straight_from_gm_is_charged_once(kernel):
    store = "zg.SetValue(0, s); zg.SetValue(1, 1.0f);"
    raw = kernel(
        HEAD + GM + "float s = *(__gm__ float*)y;" + store, {"x": X, "y": Y}, OUT, params=[N]
    )
    api = kernel(HEAD + GM + "float s = yg.GetValue(0);" + store, {"x": X, "y": Y}, OUT, params=[N])
    none = kernel(HEAD + GM + "float s = 0.5f;" + store, {"x": X, "y": Y}, OUT, params=[N])
    assert raw.ok().outputs["z"][0] == 0.5
    assert latency(raw) == pytest.approx(latency(api), rel=0.3)
    assert latency(api) > latency(none)


def test_raw_stores_of_identical_bytes_from_two_blocks_warn(kernel):
    # Both blocks store x[0:64] into z[0:64] through raw pointers: the store is recorded once it has
    # run, so the second block's writes are seen to leave the bytes GM already held (as DataCopy's).
    body = "for (int i = 0; i < 64; ++i) ((__gm__ float*)z)[i] = ((__gm__ float*)x)[i];"
    r = kernel(body, {"x": X}, {"z": ("float32", (64,))}, block_dim=2, strict=False).ok()
    np.testing.assert_array_equal(r.outputs["z"], X[:64])
    warnings = r.result.get("warnings", [])
    assert any("block 1 writing z+0" in w and "bytes GM already held" in w for w in warnings), (
        warnings
    )


def test_raw_stores_of_differing_bytes_from_two_blocks_race(kernel):
    body = (
        "for (int i = 0; i < 64; ++i) "
        "((__gm__ float*)z)[i] = ((__gm__ float*)x)[i] + static_cast<float>(GetBlockIdx());"
    )
    r = kernel(body, {"x": X}, {"z": ("float32", (64,))}, block_dim=2, strict=False)
    assert r.status == "RACE_DETECTED" and "block 1 writing z+0" in r.message, r.message
