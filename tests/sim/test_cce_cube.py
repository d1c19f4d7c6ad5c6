"""The cube's CCE intrinsics on the native engine (ascendc_sim/cce_cube.h): a matmul tile written in
raw intrinsics (copy_gm_to_cbuf_multi_nd2nz_b16, load_cbuf_to_ca / _cb, mad, set_nd_para +
copy_matrix_cc_to_gm) is bit-exact against the cube's reference and equal to the same tile through
the basic API (DataCopy Nd2Nz, LoadData, Mmad, Fixpipe); each step in its intrinsic costs every cube
pipe what the API call costs; an address past its buffer stops the kernel. The new vector intrinsics (vexp, vdiv, vbrcb, vconv_f322f16) match numpy."""

from __future__ import annotations

import numpy as np
import pytest

from ascend_core.suite.cube_ref import mmad

AIC = "KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);\n"

# One M x K by K x N tile (multiples of 16) on one AIC; A at L1 byte 0, B after it, L0A / L0B / L0C
# at 0. FORM is the cube's four steps, in intrinsics or in the API; the flags are the same.
TILE = """
GET_TILING_DATA(t, tiling);
const uint32_t M = t.p[0], N = t.p[1], K = t.p[2];
const uint32_t M1 = M / 16, N1 = N / 16, K1 = K / 16;
const uint32_t bAt = t.p[3] ? t.p[3] : M * K * 2;  // B's L1 byte address
FORM
"""

RAW = """
__cbuf__ half* a1 = (__cbuf__ half*)(uintptr_t)0;
__cbuf__ half* b1 = (__cbuf__ half*)(uintptr_t)bAt;
__ca__ half* a2 = (__ca__ half*)(uintptr_t)0;
__cb__ half* b2 = (__cb__ half*)(uintptr_t)0;
__cc__ float* c0 = (__cc__ float*)(uintptr_t)0;
copy_gm_to_cbuf_multi_nd2nz_b16(a1, (__gm__ half*)a, 0, 1, M, K, 0, K, M, 1, 0);
copy_gm_to_cbuf_multi_nd2nz_b16(b1, (__gm__ half*)b, 0, 1, K, N, 0, N, K, 1, 0);
set_flag(PIPE_MTE2, PIPE_MTE1, EVENT_ID0);
wait_flag(PIPE_MTE2, PIPE_MTE1, EVENT_ID0);
for (uint32_t i = 0; i < M1; ++i) load_cbuf_to_ca(a2 + i * K1 * 256, a1 + i * 256, 0, K1, M1, 0, 0, false, inc);
for (uint32_t k = 0; k < K1; ++k) load_cbuf_to_cb(b2 + k * N1 * 256, b1 + k * 256, 0, N1, K1, 0, 0, true, inc);
set_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
mad(c0, a2, b2, M, K, N, 0, false, false, true);
set_flag(PIPE_M, PIPE_FIX, EVENT_ID0);
wait_flag(PIPE_M, PIPE_FIX, EVENT_ID0);
set_nd_para(1);
copy_matrix_cc_to_gm((__gm__ float*)c, c0, 0, N, M, N, M, 0, NoQuant, 0, false, true);
"""

API = """
LocalTensor<half> a1(TPosition::A1, 0, M * K), b1(TPosition::B1, bAt, K * N);
LocalTensor<half> a2(TPosition::A2, 0, M * K), b2(TPosition::B2, 0, K * N);
LocalTensor<float> c0(TPosition::CO1, 0, M * N);
GlobalTensor<half> ga, gb;
GlobalTensor<float> gc;
ga.SetGlobalBuffer((__gm__ half*)a); gb.SetGlobalBuffer((__gm__ half*)b); gc.SetGlobalBuffer((__gm__ float*)c);
DataCopy(a1, ga, Nd2NzParams(1, M, K, 0, K, M, 1, 0));
DataCopy(b1, gb, Nd2NzParams(1, K, N, 0, N, K, 1, 0));
set_flag(PIPE_MTE2, PIPE_MTE1, EVENT_ID0);
wait_flag(PIPE_MTE2, PIPE_MTE1, EVENT_ID0);
for (uint32_t i = 0; i < M1; ++i) LoadData(a2[i * K1 * 256], a1[i * 256], LoadData2DParams(0, K1, M1, 0, 0, false, 0));
for (uint32_t k = 0; k < K1; ++k) LoadData(b2[k * N1 * 256], b1[k * 256], LoadData2DParams(0, N1, K1, 0, 0, true, 0));
set_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
wait_flag(PIPE_MTE1, PIPE_M, EVENT_ID0);
MmadParams mp; mp.m = M; mp.n = N; mp.k = K;
Mmad(c0, a2, b2, mp);
set_flag(PIPE_M, PIPE_FIX, EVENT_ID0);
wait_flag(PIPE_M, PIPE_FIX, EVENT_ID0);
set_nd_para(1);
Fixpipe(gc, c0, FixpipeParamsV220(N, M, M, N, false));
"""

CUBE_PIPES = ("aic_mte2_time_us", "aic_mte1_time_us", "aic_mac_time_us", "aic_fixpipe_time_us")


def _tile(kernel, form: str, m: int, n: int, k: int, b_at: int = 0):
    rng = np.random.default_rng(m * 100 + n + k)
    a = (rng.standard_normal((m, k)) * 2).astype(np.float16)
    b = (rng.standard_normal((k, n)) * 2).astype(np.float16)
    run = kernel(
        AIC + TILE.replace("FORM", form),
        {"a": a, "b": b},
        {"c": ("float32", (m, n))},
        params=[m, n, k, b_at],
    )
    return run, a, b


def _pipes(run) -> dict[str, float]:
    (block,) = [b for b in run.result["profile"]["blocks"] if "aic_time_us" in b]
    return {p: block[p] for p in CUBE_PIPES}


# Each cube step of the API tile in its intrinsic, the rest of the kernel unchanged: the step is the
# same instruction, so its pipe costs the same to the last digit. The kernels' scalar code differs
# (the API's tensor objects, their operator[]), so later instructions arrive at other times, and
# MTE2 / FIXPIPE time GM through the L2 model, whose state depends on when each access arrives: a
# GM pipe the swapped step is not on may then differ (up to 2 % on these tiles).
STEP_IN_INTRINSICS = {
    "nd2nz": (
        "DataCopy(a1, ga, Nd2NzParams(1, M, K, 0, K, M, 1, 0));",
        "copy_gm_to_cbuf_multi_nd2nz_b16((__cbuf__ half*)(uintptr_t)0, (__gm__ half*)a, 0, 1, M, K, 0, K, M, 1, 0);",
    ),
    "load": (
        "LoadData(a2[i * K1 * 256], a1[i * 256], LoadData2DParams(0, K1, M1, 0, 0, false, 0));",
        "load_cbuf_to_ca((__ca__ half*)(uintptr_t)(i * K1 * 512), (__cbuf__ half*)(uintptr_t)(i * 512), 0, K1, M1, 0, "
        "0, false, inc);",
    ),
    "mad": (
        "Mmad(c0, a2, b2, mp);",
        "mad((__cc__ float*)(uintptr_t)0, (__ca__ half*)(uintptr_t)0, "
        "(__cb__ half*)(uintptr_t)0, M, K, N, 0, false, false, true);",
    ),
    "fixpipe": (
        "Fixpipe(gc, c0, FixpipeParamsV220(N, M, M, N, false));",
        "copy_matrix_cc_to_gm((__gm__ float*)c, (__cc__ float*)(uintptr_t)0, 0, N, M, N, M, 0, NoQuant, 0, false, "
        "true);",
    ),
}


STEP_PIPE = {
    "nd2nz": "aic_mte2_time_us",
    "load": "aic_mte1_time_us",
    "mad": "aic_mac_time_us",
    "fixpipe": "aic_fixpipe_time_us",
}


@pytest.mark.parametrize("m,n,k", [(32, 48, 64), (16, 16, 16)])
def test_the_raw_matmul_is_bit_exact_and_the_api_matmul(kernel, m, n, k):
    raw, a, b = _tile(kernel, RAW, m, n, k)
    api, _, _ = _tile(kernel, API, m, n, k)
    np.testing.assert_array_equal(raw.ok().outputs["c"], mmad(a, b))
    np.testing.assert_array_equal(api.ok().outputs["c"], raw.outputs["c"])
    for pipe in ("aic_mte1_time_us", "aic_mac_time_us"):  # no GM: equal whatever the timing
        assert _pipes(raw)[pipe] == _pipes(api)[pipe] > 0


@pytest.mark.parametrize("step", sorted(STEP_IN_INTRINSICS))
def test_each_step_in_its_intrinsic_costs_what_the_api_call_costs(kernel, step):
    old, new = STEP_IN_INTRINSICS[step]
    assert API.count(old) == 1
    api, a, b = _tile(kernel, API, 32, 48, 64)
    swapped, _, _ = _tile(kernel, API.replace(old, new), 32, 48, 64)
    np.testing.assert_array_equal(swapped.ok().outputs["c"], mmad(a, b))
    # The step's own pipe, and the pipes with no GM traffic, to the last digit.
    same = {STEP_PIPE[step], "aic_mte1_time_us", "aic_mac_time_us"}
    assert {p: _pipes(swapped)[p] for p in same} == {p: _pipes(api.ok())[p] for p in same}


def test_an_l1_address_past_l1_stops_the_kernel(kernel):
    # B placed at 1 MiB: past the A2's 512 KiB L1, refused by the nd2nz copy that names it.
    run, _, _ = _tile(kernel, RAW, 16, 16, 16, b_at=1024 * 1024)
    assert run.status == "RUNTIME_ERROR"
    assert "copy_gm_to_cbuf_multi_nd2nz_b16" in run.message and "L1" in run.message


def test_a_tile_reaching_past_l0a_stops_the_kernel(kernel):
    # A at the last fractal of L0A: the 2 x 4 fractals of a 32 x 64 A run past its end.
    form = RAW.replace(
        "__ca__ half* a2 = (__ca__ half*)(uintptr_t)0;",
        "__ca__ half* a2 = (__ca__ half*)(uintptr_t)(64 * 1024 - 512);",
    )
    run, _, _ = _tile(kernel, form, 32, 48, 64)
    assert run.status == "RUNTIME_ERROR"
    assert "LoadData(2D): dst footprint of 2048 bytes exceeds" in run.message


# The vector intrinsics laser_attention's softmax uses, on one AIV, each against numpy: vexp of
# 64 fp32 lanes, vdiv, vbrcb of 8 values to 8 blocks, vconv_f322f16 of the quotient.
VECTOR = """
__ubuf__ float* x = (__ubuf__ float*)(uintptr_t)0;
__ubuf__ float* y = (__ubuf__ float*)(uintptr_t)256;
__ubuf__ float* e = (__ubuf__ float*)(uintptr_t)512;
__ubuf__ float* q = (__ubuf__ float*)(uintptr_t)768;
__ubuf__ uint32_t* w = (__ubuf__ uint32_t*)(uintptr_t)1024;
__ubuf__ half* h = (__ubuf__ half*)(uintptr_t)2048;
copy_gm_to_ubuf(x, (__gm__ float*)a, 0, 1, 8, 0, 0);
copy_gm_to_ubuf(y, (__gm__ float*)b, 0, 1, 8, 0, 0);
pipe_barrier(PIPE_ALL);
set_vector_mask(0, ~0ull);
vexp(e, x, 1, 1, 1, 8, 8);
vdiv(q, e, y, 1, 1, 1, 1, 8, 8, 8);
vbrcb(w, (__ubuf__ uint32_t*)q, 1, 8, 1);
vconv_f322f16(h, q, 1, 1, 1, 4, 8);
pipe_barrier(PIPE_ALL);
copy_ubuf_to_gm((__gm__ float*)c, e, 0, 1, 8, 0, 0);
copy_ubuf_to_gm((__gm__ float*)c + 64, q, 0, 1, 8, 0, 0);
copy_ubuf_to_gm((__gm__ int32_t*)d, w, 0, 1, 8, 0, 0);
copy_ubuf_to_gm((__gm__ half*)z, h, 0, 1, 4, 0, 0);
"""


def test_the_softmax_vector_intrinsics(kernel):
    rng = np.random.default_rng(7)
    x = rng.uniform(-3, 3, 64).astype(np.float32)
    y = rng.uniform(0.5, 2, 64).astype(np.float32)
    run = kernel(
        "KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);\n" + VECTOR,
        {"a": x, "b": y},
        {"c": ("float32", (128,)), "d": ("int32", (64,)), "z": ("float16", (64,))},
    ).ok()
    e = run.outputs["c"][:64]
    np.testing.assert_allclose(e, np.exp(x), rtol=1e-6)
    q = run.outputs["c"][64:]
    np.testing.assert_array_equal(q, e / y)
    np.testing.assert_array_equal(run.outputs["d"], np.repeat(q[:8].view(np.int32), 8))
    np.testing.assert_array_equal(run.outputs["z"], q.astype(np.float16))
