"""The cube unit's basic API on our own kernels: GM -> L1 (ND2NZ), LoadData, Mmad, Fixpipe, the
bias table, img2col, and their errors. Every matmul is bit-exact against ascend_core/suite/cube_ref.py."""

from __future__ import annotations

import numpy as np
import pytest

from ascend_core.suite.cube_ref import mmad

# One tile on one AIC: A [M, K] and B [K, N] in ND from GM, C [M, N] back in ND (M, N, K <= 128).
# Params: M, N, K, transposed B (B given as [N, K]), accumulate rounds (Mmad into the same L0C),
# fixpipe relu.
MATMUL = """
GET_TILING_DATA(t, tiling);
const uint32_t M = t.p[0], N = t.p[1], K = t.p[2];
const bool transB = t.p[3] != 0;
const uint32_t rounds = t.p[4] ? t.p[4] : 1;
const uint32_t Ma = (M + 15) / 16 * 16, Na = (N + 15) / 16 * 16, Ka = (K + 15) / 16 * 16;
const uint32_t M1 = Ma / 16, N1 = Na / 16, K1 = Ka / 16;
TPipe pipe;
TQue<TPosition::A1, 1> qa1; TQue<TPosition::B1, 1> qb1;
TQue<TPosition::A2, 1> qa2; TQue<TPosition::B2, 1> qb2; TQue<TPosition::CO1, 1> qc;
pipe.InitBuffer(qa1, 1, Ma * Ka * 2); pipe.InitBuffer(qb1, 1, Ka * Na * 2);
pipe.InitBuffer(qa2, 1, Ma * Ka * 2); pipe.InitBuffer(qb2, 1, Ka * Na * 2); pipe.InitBuffer(qc, 1, Ma * Na * 4);
GlobalTensor<half> ga, gb; GlobalTensor<float> gc;
ga.SetGlobalBuffer((__gm__ half*)a); gb.SetGlobalBuffer((__gm__ half*)b); gc.SetGlobalBuffer((__gm__ float*)c);
LocalTensor<half> a1 = qa1.AllocTensor<half>();
DataCopy(a1, ga, Nd2NzParams(1, M, K, 0, K, Ma, 1, 0));
qa1.EnQue(a1);
LocalTensor<half> b1 = qb1.AllocTensor<half>();
if (transB) DataCopy(b1, gb, Nd2NzParams(1, N, K, 0, K, Na, 1, 0));   // B^T [N, K] -> NZ
else DataCopy(b1, gb, Nd2NzParams(1, K, N, 0, N, Ka, 1, 0));          // B [K, N] -> NZ
qb1.EnQue(b1);
a1 = qa1.DeQue<half>();
LocalTensor<half> a2 = qa2.AllocTensor<half>();
for (uint32_t i = 0; i < M1; ++i) LoadData(a2[i * K1 * 256], a1[i * 256], LoadData2DParams(0, K1, M1, 0, 0, false, 0));
qa2.EnQue(a2); qa1.FreeTensor(a1);
b1 = qb1.DeQue<half>();
LocalTensor<half> b2 = qb2.AllocTensor<half>();
// Zn: fractal (k, n) row-major over fractals, each fractal column by column.
if (transB) LoadData(b2, b1, LoadData2DParams(0, K1 * N1, 1, 0, 0, false, 0));
else for (uint32_t k = 0; k < K1; ++k) LoadData(b2[k * N1 * 256], b1[k * 256], LoadData2DParams(0, N1, K1, 0, 0, true, 0));
qb2.EnQue(b2); qb1.FreeTensor(b1);
a2 = qa2.DeQue<half>(); b2 = qb2.DeQue<half>();
LocalTensor<float> co = qc.AllocTensor<float>();
for (uint32_t r = 0; r < rounds; ++r) {
  MmadParams mp; mp.m = M; mp.n = N; mp.k = K; mp.cmatrixInitVal = r == 0;
  Mmad(co, a2, b2, mp);
  PipeBarrier<PIPE_M>();
}
qc.EnQue(co); qa2.FreeTensor(a2); qb2.FreeTensor(b2);
co = qc.DeQue<float>();
FixpipeParamsV220 fp(N, M, Ma, N, t.p[5] != 0);
Fixpipe(gc, co, fp);
qc.FreeTensor(co);
"""

AIC = "KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);\n"


def _halves(rng, *shape):
    return (rng.standard_normal(shape) * 2).astype(np.float16)


@pytest.mark.parametrize(
    "m,n,k", [(32, 48, 64), (30, 40, 70), (16, 16, 16), (128, 64, 128), (5, 17, 33)]
)
def test_matmul_tile_bit_exact(kernel, m, n, k):
    rng = np.random.default_rng(m * 1000 + n * 10 + k)
    a, b = _halves(rng, m, k), _halves(rng, k, n)
    run = kernel(
        AIC + MATMUL, {"a": a, "b": b}, {"c": ("float32", (m, n))}, params=[m, n, k, 0, 1, 0]
    ).ok()
    np.testing.assert_array_equal(run.outputs["c"], mmad(a, b))
    # The documented order is not numpy's: a float64 product rounded once differs somewhere.
    if k >= 64:
        assert not np.array_equal(run.outputs["c"], (a.astype(np.float64) @ b).astype(np.float32))


def test_matmul_transposed_b_accumulate_relu(kernel):
    m, n, k = 48, 32, 80
    rng = np.random.default_rng(7)
    a, bt = _halves(rng, m, k), _halves(rng, n, k)
    run = kernel(
        AIC + MATMUL, {"a": a, "b": bt}, {"c": ("float32", (m, n))}, params=[m, n, k, 1, 3, 1]
    ).ok()
    once = mmad(a, bt.T)
    thrice = mmad(a, bt.T, init=mmad(a, bt.T, init=once))
    np.testing.assert_array_equal(run.outputs["c"], np.maximum(thrice, 0))


def test_matmul_on_vector_core_is_an_error(kernel):
    body = "KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIV_ONLY);\n" + MATMUL
    a, b = np.ones((16, 16), np.float16), np.ones((16, 16), np.float16)
    run = kernel(body, {"a": a, "b": b}, {"c": ("float32", (16, 16))}, params=[16, 16, 16, 0, 1])
    assert run.status == "RUNTIME_ERROR"
    assert "on a vector core (AIV)" in run.message and "simk.cpp:" in run.message


def test_l0a_capacity_error(kernel):
    body = AIC + "TPipe pipe; TQue<TPosition::A2, 1> q; pipe.InitBuffer(q, 2, 40000);"
    run = kernel(body, {"x": np.zeros(16, np.float16)}, {"y": ("float16", (16,))})
    assert run.status == "RUNTIME_ERROR"
    assert "needs L0A" in run.message and "65536" in run.message and "simk.cpp:" in run.message


def test_mmad_alignment_and_layout_errors(kernel):
    body = (
        AIC
        + """
TPipe pipe; TBuf<TPosition::A2> ba; TBuf<TPosition::B2> bb; TBuf<TPosition::CO1> bc;
pipe.InitBuffer(ba, 4096); pipe.InitBuffer(bb, 4096); pipe.InitBuffer(bc, 8192);
LocalTensor<half> A = ba.Get<half>(), B = bb.Get<half>(); LocalTensor<float> C = bc.Get<float>();
MmadParams mp; mp.m = 16; mp.n = 16; mp.k = 16;
GET_TILING_DATA(t, tiling);
if (t.p[0] == 0) Mmad(C, A[16], B, mp);          // L0A operand not 512 B aligned
if (t.p[0] == 1) { mp.k = 256; Mmad(C, A, B, mp); }  // A needs 16 fractals: 4096 B hold 8
if (t.p[0] == 2) Mmad(C, B, A, mp);              // operands swapped: fm in L0B
"""
    )
    x = {"x": np.zeros(16, np.float16)}
    y = {"y": ("float16", (16,))}
    r = kernel(body, x, y, params=[0])
    assert r.status == "RUNTIME_ERROR" and "not 512 B aligned" in r.message, r.message
    r = kernel(body, x, y, params=[1])
    assert r.status == "RUNTIME_ERROR" and "fm (A) footprint of 8192 bytes" in r.message, r.message
    r = kernel(body, x, y, params=[2])
    assert r.status == "RUNTIME_ERROR" and "must be in L0A but the tensor is in L0B" in r.message


def test_int8_matmul_and_fixpipe_requant(kernel):
    # int8 x int8 -> int32 in L0C; Fixpipe REQ8 scales and saturates to int8, NoQuant keeps int32.
    m, n, k = 32, 32, 64
    body = (
        AIC
        + """
GET_TILING_DATA(t, tiling);
TPipe pipe; TBuf<TPosition::A1> l1a; TBuf<TPosition::B1> l1b; TBuf<TPosition::A2> l0a; TBuf<TPosition::B2> l0b; TBuf<TPosition::CO1> l0c;
pipe.InitBuffer(l1a, 2048); pipe.InitBuffer(l1b, 2048); pipe.InitBuffer(l0a, 2048); pipe.InitBuffer(l0b, 2048); pipe.InitBuffer(l0c, 4096);
GlobalTensor<int8_t> ga, gbt; GlobalTensor<int32_t> gc; GlobalTensor<int8_t> gq;
ga.SetGlobalBuffer((__gm__ int8_t*)a); gbt.SetGlobalBuffer((__gm__ int8_t*)bt);
gc.SetGlobalBuffer((__gm__ int32_t*)c); gq.SetGlobalBuffer((__gm__ int8_t*)q);
LocalTensor<int8_t> A1 = l1a.Get<int8_t>(), B1 = l1b.Get<int8_t>(), A2 = l0a.Get<int8_t>(), B2 = l0b.Get<int8_t>();
LocalTensor<int32_t> C = l0c.Get<int32_t>();
DataCopy(A1, ga, Nd2NzParams(1, 32, 64, 0, 64, 32, 1, 0));   // 2 column blocks of 32 int8
DataCopy(B1, gbt, Nd2NzParams(1, 32, 64, 0, 64, 32, 1, 0));  // B^T [N, K]
SetFlag<HardEvent::MTE2_MTE1>(0); WaitFlag<HardEvent::MTE2_MTE1>(0);
for (int i = 0; i < 2; ++i) LoadData(A2[i * 1024], A1[i * 512], LoadData2DParams(0, 2, 2, 0, 0, false, 0));
LoadData(B2, B1, LoadData2DParams(0, 4, 1, 0, 0, false, 0));  // Zn fractals (k block, n block) of B^T NZ
SetFlag<HardEvent::MTE1_M>(0); WaitFlag<HardEvent::MTE1_M>(0);
MmadParams mp; mp.m = 32; mp.n = 32; mp.k = 64;
Mmad(C, A2, B2, mp);
SetFlag<HardEvent::M_FIX>(0); WaitFlag<HardEvent::M_FIX>(0);
Fixpipe(gc, C, FixpipeParamsV220(32, 32, 32, 32, false));
FixpipeParamsV220 q8(32, 32, 32, 32, false); q8.quantPre = QuantMode_t::REQ8;
float scale = 0.0625f; uint32_t bits; std::memcpy(&bits, &scale, 4); q8.deqScalar = bits;
Fixpipe(gq, C, q8);
"""
    )
    rng = np.random.default_rng(3)
    a = rng.integers(-128, 128, (m, k), dtype=np.int8)
    bt = rng.integers(-128, 128, (n, k), dtype=np.int8)
    run = kernel(
        body,
        {"a": a, "bt": bt},
        {"c": ("int32", (m, n)), "q": ("int8", (m, n))},
    ).ok()
    exact = mmad(a, bt.T)
    np.testing.assert_array_equal(run.outputs["c"], exact)
    want = np.clip(np.rint(exact.astype(np.float32) * np.float32(0.0625)), -128, 127).astype(
        np.int8
    )
    np.testing.assert_array_equal(run.outputs["q"], want)


def test_bias_table_fp16_out_and_nz_output(kernel):
    # Mmad with a bias from the bias table (half in L1 widened to float), Fixpipe F322F16 to ND and
    # NoQuant to NZ.
    body = (
        AIC
        + """
TPipe pipe; TBuf<TPosition::A1> l1; TBuf<TPosition::A2> l0a; TBuf<TPosition::B2> l0b; TBuf<TPosition::CO1> l0c;
TBuf<TPosition::C2> bt;
pipe.InitBuffer(l1, 4096); pipe.InitBuffer(l0a, 512); pipe.InitBuffer(l0b, 1024); pipe.InitBuffer(l0c, 2048); pipe.InitBuffer(bt, 128);
GlobalTensor<half> ga, gb, gbias, gh; GlobalTensor<float> gz;
ga.SetGlobalBuffer((__gm__ half*)a); gb.SetGlobalBuffer((__gm__ half*)b); gbias.SetGlobalBuffer((__gm__ half*)bias);
gh.SetGlobalBuffer((__gm__ half*)h); gz.SetGlobalBuffer((__gm__ float*)z);
LocalTensor<half> L1 = l1.Get<half>();
LocalTensor<half> A1 = L1, B1 = L1[256], Bias1 = L1[768];
DataCopy(A1, ga, Nd2NzParams(1, 16, 16, 0, 16, 16, 1, 0));
DataCopy(B1, gb, Nd2NzParams(1, 16, 32, 0, 32, 16, 1, 0));
DataCopy(Bias1, gbias, 32);
SetFlag<HardEvent::MTE2_MTE1>(0); WaitFlag<HardEvent::MTE2_MTE1>(0);
LocalTensor<half> A2 = l0a.Get<half>(), B2 = l0b.Get<half>(); LocalTensor<float> BT = bt.Get<float>();
LoadData(A2, A1, LoadData2DParams(0, 1, 1, 0, 0, false, 0));
LoadData(B2, B1, LoadData2DParams(0, 2, 1, 0, 0, true, 0));
DataCopy(BT, Bias1, DataCopyParams{1, 2, 0, 0});  // 2 x 64 B of float
SetFlag<HardEvent::MTE1_M>(0); WaitFlag<HardEvent::MTE1_M>(0);
LocalTensor<float> C = l0c.Get<float>();
MmadParams mp; mp.m = 16; mp.n = 32; mp.k = 16;
Mmad(C, A2, B2, BT, mp);
SetFlag<HardEvent::M_FIX>(0); WaitFlag<HardEvent::M_FIX>(0);
FixpipeParamsV220 f16(32, 16, 16, 32, false); f16.quantPre = QuantMode_t::F322F16;
Fixpipe(gh, C, f16);
Fixpipe<float, float, CFG_NZ>(gz, C, FixpipeParamsV220(32, 16, 16, 64 * 16 / 32, false));
"""
    )
    rng = np.random.default_rng(11)
    a, b = _halves(rng, 16, 16), _halves(rng, 16, 32)
    bias = _halves(rng, 32)
    run = kernel(
        body,
        {"a": a, "b": b, "bias": bias},
        {"h": ("float16", (16, 32)), "z": ("float32", (2, 16, 16))},
    ).ok()
    c = mmad(a, b, init=np.broadcast_to(bias.astype(np.float32), (16, 32)))
    np.testing.assert_array_equal(run.outputs["h"], c.astype(np.float16))
    # NZ: two 16 x 16 column blocks, 64 float rows of 16 apart (dstStride in 32 B units).
    np.testing.assert_array_equal(run.outputs["z"][0], c[:, :16])
    np.testing.assert_array_equal(run.outputs["z"][1], c[:, 16:])


def test_bias_table_count_form_copies_64_byte_blocks(kernel):
    # DataCopy(LocalTensor, LocalTensor, count) from L1 to the bias table counts 64 B blocks, the unit
    # of that copy (asc-devkit's count form): 16 floats are one block, the BT tensor 64 B, no overrun.
    body = (
        AIC
        + """
TPipe pipe; TBuf<TPosition::A1> l1; TBuf<TPosition::C1> l1b; TBuf<TPosition::A2> l0a; TBuf<TPosition::B2> l0b;
TBuf<TPosition::CO1> l0c; TBuf<TPosition::C2> bt0, bt1;
pipe.InitBuffer(l1, 1536); pipe.InitBuffer(l1b, 128); pipe.InitBuffer(l0a, 512); pipe.InitBuffer(l0b, 1024);
pipe.InitBuffer(l0c, 2048); pipe.InitBuffer(bt0, 64); pipe.InitBuffer(bt1, 64);
GlobalTensor<half> ga, gb; GlobalTensor<float> gbias, gc;
ga.SetGlobalBuffer((__gm__ half*)a); gb.SetGlobalBuffer((__gm__ half*)b);
gbias.SetGlobalBuffer((__gm__ float*)bias); gc.SetGlobalBuffer((__gm__ float*)c);
LocalTensor<half> A1 = l1.Get<half>(), B1 = A1[256];
LocalTensor<float> Bias1 = l1b.Get<float>();
DataCopy(A1, ga, Nd2NzParams(1, 16, 16, 0, 16, 16, 1, 0));
DataCopy(B1, gb, Nd2NzParams(1, 16, 32, 0, 32, 16, 1, 0));
DataCopy(Bias1, gbias, 32);
SetFlag<HardEvent::MTE2_MTE1>(0); WaitFlag<HardEvent::MTE2_MTE1>(0);
LocalTensor<half> A2 = l0a.Get<half>(), B2 = l0b.Get<half>();
LocalTensor<float> BT0 = bt0.Get<float>(), BT1 = bt1.Get<float>();
LoadData(A2, A1, LoadData2DParams(0, 1, 1, 0, 0, false, 0));
LoadData(B2, B1, LoadData2DParams(0, 2, 1, 0, 0, true, 0));
DataCopy(BT0, Bias1, 16);
DataCopy(BT1, Bias1[16], 16);
SetFlag<HardEvent::MTE1_M>(0); WaitFlag<HardEvent::MTE1_M>(0);
LocalTensor<float> C = l0c.Get<float>();
MmadParams mp; mp.m = 16; mp.n = 16; mp.k = 16;
Mmad(C, A2, B2, BT0, mp);
Mmad(C[256], A2, B2[256], BT1, mp);
SetFlag<HardEvent::M_FIX>(0); WaitFlag<HardEvent::M_FIX>(0);
Fixpipe(gc, C, FixpipeParamsV220(32, 16, 16, 32, false));
"""
    )
    rng = np.random.default_rng(12)
    a, b = _halves(rng, 16, 16), _halves(rng, 16, 32)
    bias = rng.standard_normal(32).astype(np.float32)
    run = kernel(body, {"a": a, "b": b, "bias": bias}, {"c": ("float32", (16, 32))}).ok()
    want = mmad(a, b, init=np.broadcast_to(bias, (16, 32)))
    np.testing.assert_array_equal(run.outputs["c"], want)


def test_load_data_with_transpose_b32_to_l0b(kernel):
    # fp32 B [32, 32] not transposed: per 16-column strip, 16 x 16 squares of two 16 x 8 fractals side
    # by side in L1; LoadDataWithTranspose writes each square's transpose as the two Zn fractals of
    # L0B (dstFracGap between them, dstGap between squares); Mmad against A [16, 32], k0 = 8.
    body = (
        AIC
        + """
TPipe pipe; TBuf<TPosition::A1> l1a; TBuf<TPosition::B1> l1b; TBuf<TPosition::A2> l0a; TBuf<TPosition::B2> l0b;
TBuf<TPosition::CO1> l0c;
pipe.InitBuffer(l1a, 2048); pipe.InitBuffer(l1b, 4096); pipe.InitBuffer(l0a, 2048); pipe.InitBuffer(l0b, 4096);
pipe.InitBuffer(l0c, 2048);
GlobalTensor<float> ga, gb, gc;
ga.SetGlobalBuffer((__gm__ float*)a); gb.SetGlobalBuffer((__gm__ float*)b); gc.SetGlobalBuffer((__gm__ float*)c);
LocalTensor<float> A1 = l1a.Get<float>(), B1 = l1b.Get<float>(), A2 = l0a.Get<float>(), B2 = l0b.Get<float>();
DataCopy(A1, ga, Nd2NzParams(1, 16, 32, 0, 32, 16, 1, 0));
for (int j = 0; j < 2; ++j)
  DataCopy(B1[j * 512], gb[j * 16], Nd2NzParams(2, 16, 16, 16 * 32, 32, 16, 1, 256));
SetFlag<HardEvent::MTE2_MTE1>(0); WaitFlag<HardEvent::MTE2_MTE1>(0);
LoadData(A2, A1, LoadData2DParams(0, 4, 1, 0, 0, false, 0));
for (int j = 0; j < 2; ++j)
  LoadDataWithTranspose(B2[j * 128], B1[j * 512], LoadData2dTransposeParams(0, 2, 1, 3, 1));
SetFlag<HardEvent::MTE1_M>(0); WaitFlag<HardEvent::MTE1_M>(0);
LocalTensor<float> C = l0c.Get<float>();
MmadParams mp; mp.m = 16; mp.n = 32; mp.k = 32;
Mmad(C, A2, B2, mp);
SetFlag<HardEvent::M_FIX>(0); WaitFlag<HardEvent::M_FIX>(0);
Fixpipe(gc, C, FixpipeParamsV220(32, 16, 16, 32, false));
"""
    )
    rng = np.random.default_rng(13)
    a = rng.standard_normal((16, 32)).astype(np.float32)
    b = rng.standard_normal((32, 32)).astype(np.float32)
    run = kernel(body, {"a": a, "b": b}, {"c": ("float32", (16, 32))}).ok()
    np.testing.assert_array_equal(run.outputs["c"], mmad(a, b, k0=8))


def test_load_data_with_transpose_b16_to_l0a(kernel):
    # fp16 A given transposed ([K 32, M 16] in GM, NZ in L1): LoadDataWithTranspose turns each
    # 16 x 16 fractal (k, m) into the Zz fractal (m, k) of L0A, srcStride 1, dstGap 0.
    body = (
        AIC
        + """
TPipe pipe; TBuf<TPosition::A1> l1a; TBuf<TPosition::B1> l1b; TBuf<TPosition::A2> l0a; TBuf<TPosition::B2> l0b;
TBuf<TPosition::CO1> l0c;
pipe.InitBuffer(l1a, 1024); pipe.InitBuffer(l1b, 1024); pipe.InitBuffer(l0a, 1024); pipe.InitBuffer(l0b, 1024);
pipe.InitBuffer(l0c, 1024);
GlobalTensor<half> gat, gb; GlobalTensor<float> gc;
gat.SetGlobalBuffer((__gm__ half*)at); gb.SetGlobalBuffer((__gm__ half*)b); gc.SetGlobalBuffer((__gm__ float*)c);
LocalTensor<half> A1 = l1a.Get<half>(), B1 = l1b.Get<half>(), A2 = l0a.Get<half>(), B2 = l0b.Get<half>();
DataCopy(A1, gat, Nd2NzParams(1, 32, 16, 0, 16, 32, 1, 0));   // A^T [32, 16]: one column block, k fractals
DataCopy(B1, gb, Nd2NzParams(1, 32, 16, 0, 16, 32, 1, 0));    // B [32, 16]
SetFlag<HardEvent::MTE2_MTE1>(0); WaitFlag<HardEvent::MTE2_MTE1>(0);
LoadDataWithTranspose(A2, A1, LoadData2dTransposeParams(0, 2, 1, 0, 0));
LoadData(B2, B1, LoadData2DParams(0, 2, 1, 0, 0, true, 0));
SetFlag<HardEvent::MTE1_M>(0); WaitFlag<HardEvent::MTE1_M>(0);
LocalTensor<float> C = l0c.Get<float>();
MmadParams mp; mp.m = 16; mp.n = 16; mp.k = 32;
Mmad(C, A2, B2, mp);
SetFlag<HardEvent::M_FIX>(0); WaitFlag<HardEvent::M_FIX>(0);
Fixpipe(gc, C, FixpipeParamsV220(16, 16, 16, 16, false));
"""
    )
    rng = np.random.default_rng(14)
    a, b = _halves(rng, 16, 32), _halves(rng, 32, 16)
    run = kernel(body, {"at": np.ascontiguousarray(a.T), "b": b}, {"c": ("float32", (16, 16))}).ok()
    np.testing.assert_array_equal(run.outputs["c"], mmad(a, b))


def test_img2col_conv(kernel):
    # A 3x3 convolution, stride 1, pad 1, of a [16 channel, 6 x 6] feature map (C1 = 1, C0 = 16) with
    # 16 filters: img2col into L0A (output positions x kernel taps x channels), weights as B.
    body = (
        AIC
        + """
TPipe pipe; TBuf<TPosition::A1> l1; TBuf<TPosition::B1> l1w; TBuf<TPosition::A2> l0a; TBuf<TPosition::B2> l0b; TBuf<TPosition::CO1> l0c;
pipe.InitBuffer(l1, 6 * 6 * 16 * 2); pipe.InitBuffer(l1w, 144 * 16 * 2); pipe.InitBuffer(l0a, 48 * 144 * 2);
pipe.InitBuffer(l0b, 144 * 16 * 2); pipe.InitBuffer(l0c, 48 * 16 * 4);
GlobalTensor<half> gx, gw; GlobalTensor<float> gy;
gx.SetGlobalBuffer((__gm__ half*)x); gw.SetGlobalBuffer((__gm__ half*)w); gy.SetGlobalBuffer((__gm__ float*)y);
LocalTensor<half> X = l1.Get<half>(), W1 = l1w.Get<half>(), A2 = l0a.Get<half>(), B2 = l0b.Get<half>();
DataCopy(X, gx, 6 * 6 * 16);                                       // NC1HWC0 with C1 = 1
DataCopy(W1, gw, Nd2NzParams(1, 16, 144, 0, 144, 16, 1, 0));        // W^T [16 filters, 144 taps]
SetFlag<HardEvent::MTE2_MTE1>(0); WaitFlag<HardEvent::MTE2_MTE1>(0);
LoadData3DParamsV2<half> p;
p.padList[0] = p.padList[1] = p.padList[2] = p.padList[3] = 1;
p.l1H = 6; p.l1W = 6; p.channelSize = 16; p.kExtension = 144; p.mExtension = 48;
p.filterW = 3; p.filterH = 3;
LoadData(A2, X, p);
LoadData(B2, W1, LoadData2DParams(0, 9, 1, 0, 0, false, 0));
SetFlag<HardEvent::MTE1_M>(0); WaitFlag<HardEvent::MTE1_M>(0);
LocalTensor<float> C = l0c.Get<float>();
MmadParams mp; mp.m = 36; mp.n = 16; mp.k = 144;
Mmad(C, A2, B2, mp);
SetFlag<HardEvent::M_FIX>(0); WaitFlag<HardEvent::M_FIX>(0);
Fixpipe(gy, C, FixpipeParamsV220(16, 36, 48, 16, false));
"""
    )
    rng = np.random.default_rng(5)
    x = _halves(rng, 6, 6, 16)  # H, W, C0
    w = _halves(rng, 16, 3, 3, 16)  # filters, kh, kw, c
    run = kernel(body, {"x": x, "w": w.reshape(16, 144)}, {"y": ("float32", (36, 16))}).ok()
    xp = np.pad(x, ((1, 1), (1, 1), (0, 0)))
    cols = np.stack(
        [xp[i : i + 3, j : j + 3, :].reshape(-1) for i in range(6) for j in range(6)]
    )  # [36, 144] with k = (kh * 3 + kw) * 16 + c
    np.testing.assert_array_equal(run.outputs["y"], mmad(cols, w.reshape(16, 144).T))


def test_missing_flag_between_mte2_and_mte1_is_a_race(kernel):
    body = (
        AIC
        + """
TPipe pipe; TBuf<TPosition::A1> l1; TBuf<TPosition::A2> l0a;
pipe.InitBuffer(l1, 512); pipe.InitBuffer(l0a, 512);
GlobalTensor<half> gx; gx.SetGlobalBuffer((__gm__ half*)x);
LocalTensor<half> A1 = l1.Get<half>(), A2 = l0a.Get<half>();
DataCopy(A1, gx, 256);
LoadData(A2, A1, LoadData2DParams(0, 1, 1, 0, 0, false, 0));
"""
    )
    run = kernel(body, {"x": np.zeros(256, np.float16)}, {"y": ("float16", (16,))})
    assert run.status == "RACE_DETECTED", run.message
    assert "LoadData(2D)" in run.message and "PIPE_MTE1" in run.message


# Two cube cores add their 16 x 16 products into one C through the Fixpipe: under SetAtomicAdd the
# writes are atomic (no race; the sum in block order), without it the cross-core checker objects.
ATOMIC_FIX = """
GET_TILING_DATA(t, tiling);
TPipe pipe; TBuf<TPosition::A1> l1; TBuf<TPosition::A2> l0a; TBuf<TPosition::B2> l0b; TBuf<TPosition::CO1> l0c;
pipe.InitBuffer(l1, 1024); pipe.InitBuffer(l0a, 512); pipe.InitBuffer(l0b, 512); pipe.InitBuffer(l0c, 1024);
GlobalTensor<half> ga, gb; GlobalTensor<float> gc;
ga.SetGlobalBuffer((__gm__ half*)a); gb.SetGlobalBuffer((__gm__ half*)b); gc.SetGlobalBuffer((__gm__ float*)c);
LocalTensor<half> L1 = l1.Get<half>(), A2 = l0a.Get<half>(), B2 = l0b.Get<half>();
LocalTensor<float> C = l0c.Get<float>();
const int i = GetBlockIdx();
DataCopy(L1, ga[i * 256], Nd2NzParams(1, 16, 16, 0, 16, 16, 1, 0));
DataCopy(L1[256], gb[i * 256], Nd2NzParams(1, 16, 16, 0, 16, 16, 1, 0));  // B^T
SetFlag<HardEvent::MTE2_MTE1>(0); WaitFlag<HardEvent::MTE2_MTE1>(0);
LoadData(A2, L1, LoadData2DParams(0, 1, 1, 0, 0, false, 0));
LoadData(B2, L1[256], LoadData2DParams(0, 1, 1, 0, 0, false, 0));
SetFlag<HardEvent::MTE1_M>(0); WaitFlag<HardEvent::MTE1_M>(0);
MmadParams mp; mp.m = 16; mp.n = 16; mp.k = 16;
Mmad(C, A2, B2, mp);
SetFlag<HardEvent::M_FIX>(0); WaitFlag<HardEvent::M_FIX>(0);
if (i == 0) Fixpipe(gc, C, FixpipeParamsV220(16, 16, 16, 16, false));
SyncAll();
if (t.p[0]) SetAtomicAdd<float>();
if (i > 0) Fixpipe(gc, C, FixpipeParamsV220(16, 16, 16, 16, false));
SetAtomicNone();
"""


@pytest.mark.parametrize("atomic", [1, 0])
def test_fixpipe_atomic_add_across_cores(kernel, atomic):
    rng = np.random.default_rng(9)
    a, b = _halves(rng, 3, 16, 16), _halves(rng, 3, 16, 16)
    run = kernel(
        AIC + ATOMIC_FIX,
        {"a": a, "b": b},
        {"c": ("float32", (16, 16))},
        block_dim=3,
        params=[atomic],
    )
    if not atomic:
        assert run.status == "RACE_DETECTED", run.message
        assert "Fixpipe" in run.message
        return
    run.ok()
    want = mmad(a[0], b[0].T) + mmad(a[1], b[1].T) + mmad(a[2], b[2].T)
    np.testing.assert_array_equal(run.outputs["c"], want)


def test_kernel_type_from_the_source():
    from ascend_core import suite
    from npu_daemon.backends.common.kernel_view import kernel_type

    pkg = suite.resolve("level1/add")
    assert kernel_type(pkg) == "KERNEL_TYPE_AIV_ONLY"
    mix = "if ASCEND_IS_AIC { Mmad(c, a, b, p); }"
    assert kernel_type(pkg.with_sources(kernel=mix)) == "KERNEL_TYPE_MIX_AIC_1_2"
    assert kernel_type(pkg.with_sources(kernel="Mmad(c, a, b, p);")) == "KERNEL_TYPE_AIC_ONLY"
    cube_only = "#define ASCENDC_CUBE_ONLY\nREGIST_MATMUL_OBJ(&pipe, ws, mm, &t);"
    assert kernel_type(pkg.with_sources(kernel=cube_only)) == "KERNEL_TYPE_AIC_ONLY"
    declared = "KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_1);\nMmad(c, a, b, p);"
    assert kernel_type(pkg.with_sources(kernel=declared)) == "KERNEL_TYPE_MIX_AIC_1_1"
    # A Matmul object alone: the Matmul API's default MIX mode, or cube only where it is defined;
    # its MatmulType is no Matmul.
    matmul = "if ASCEND_IS_AIV { return; }\nMatmulImpl<AT, BT, CT, BiasT, CFG> mm;"
    assert kernel_type(pkg.with_sources(kernel=matmul)) == "KERNEL_TYPE_MIX_AIC_1_2"
    matmul_cube = "#define ASCENDC_CUBE_ONLY\nmatmul::Matmul<AT, BT, CT> mm;"
    assert kernel_type(pkg.with_sources(kernel=matmul_cube)) == "KERNEL_TYPE_AIC_ONLY"
    types_only = "using AT = MatmulType<TPosition::GM, CubeFormat::ND, half>;"
    assert kernel_type(pkg.with_sources(kernel=types_only)) == "KERNEL_TYPE_AIV_ONLY"
