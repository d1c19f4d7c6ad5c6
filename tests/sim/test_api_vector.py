"""Vector APIs on kernels of our own, exact against numpy: the CMPMASK register (SetCmpMask /
GetCmpMask, Compare into it and Select<T, VSEL_CMPMASK_SPR> from it), Compares, comparison
operators on LocalTensors, Select by repeats and SelectWithBytesMask, GatherMask in counter mode,
the mask set through AscendCUtils, casts (SetDeqScale, float to float with CAST_NONE), Broadcast,
SoftMax without sum and max, and the high-level math (Frac, Atan, Acos, Tan, Trunc; the forms
without a count)."""

import numpy as np
from conftest import UB_HELPERS


def test_set_and_get_cmp_mask(kernel):
    rng = np.random.default_rng(5)
    bits = rng.integers(0, 2**63, 2, dtype=np.uint64)
    a = rng.integers(-2, 2, 64).astype(np.float32)
    b = rng.integers(-2, 2, 64).astype(np.float32)
    p = np.arange(64, dtype=np.float32)
    q = -np.arange(64, dtype=np.float32) - 1
    # SetCmpMask from the UB drives a Select of 64 float lanes (the low 64 bits); a Compare into
    # the register, read back with GetCmpMask, gives its bits lane by lane.
    body = """Ub ub; LocalTensor<uint64_t> m = ub.In<uint64_t>(bits, 4), back = ub.Alloc<uint64_t>(4);
  LocalTensor<float> x = ub.In<float>(a, 64), y = ub.In<float>(b, 64);
  LocalTensor<float> s0 = ub.In<float>(p, 64), s1 = ub.In<float>(q, 64), o = ub.Alloc<float>(64);
  SYNC();
  SetCmpMask(m);
  Select<float, SELMODE::VSEL_CMPMASK_SPR>(o, s0, s1, 1, {});
  Compare<float>(x, y, CMPMODE::LE, 64, {});
  GetCmpMask(back);
  SYNC(); ub.Out(z, o, 64); ub.Out(w, back, 4);"""
    r = kernel(
        body,
        {"bits": np.concatenate([bits, bits]).view(np.int64), "a": a, "b": b, "p": p, "q": q},
        {"z": ("float32", (64,)), "w": ("int64", (4,))},
        prelude=UB_HELPERS,
    ).ok()
    low = (int(bits[0]) >> np.arange(64)) & 1
    np.testing.assert_array_equal(r.outputs["z"], np.where(low == 1, p, q))
    le = sum(1 << i for i in range(64) if a[i] <= b[i])
    assert [int(v) for v in r.outputs["w"][:2].view(np.uint64)] == [le, 0]


def test_frac_forms(kernel):
    x = np.array([-258.41888, 5592.625, 0.5, -0.0, 3.0, -7.75, 1e-3, 123456.7] * 8, np.float32)
    body = """Ub ub; LocalTensor<float> v = ub.In<float>(x, 64), o = ub.Alloc<float>(4 * 64);
  LocalTensor<uint8_t> tmp = ub.Alloc<uint8_t>(1024); SYNC();
  Frac(o, v, 64);
  Frac(o[64], v, tmp, 32);
  Frac(o[128], v);
  Frac(o[192], v, tmp);
  SYNC(); ub.Out(z, o, 4 * 64);"""
    z = kernel(body, {"x": x}, {"z": ("float32", (4, 64))}, prelude=UB_HELPERS).ok().outputs["z"]
    want = x - np.trunc(x)
    for row in (0, 2, 3):
        np.testing.assert_array_equal(z[row], want)
    np.testing.assert_array_equal(z[1, :32], want[:32])


def test_the_documented_forms_without_a_count_take_the_whole_source(kernel):
    # Log10(dst, src) has no buffer form without a count; Sin and Atanh have both (adv_api/math).
    x = np.linspace(0.1, 0.9, 64, dtype=np.float32)
    body = """Ub ub; LocalTensor<float> v = ub.In<float>(x, 64), o = ub.Alloc<float>(3 * 64);
  LocalTensor<uint8_t> tmp = ub.Alloc<uint8_t>(1024); SYNC();
  Log10(o, v);
  Sin(o[64], v, tmp);
  Atanh(o[128], v);
  SYNC(); ub.Out(z, o, 3 * 64);"""
    z = kernel(body, {"x": x}, {"z": ("float32", (3, 64))}, prelude=UB_HELPERS).ok().outputs["z"]
    x64 = x.astype(np.float64)
    for row, want in enumerate((np.log10(x64), np.sin(x64), np.arctanh(x64))):
        np.testing.assert_allclose(z[row], want, rtol=1e-6, atol=1e-7)


N = 256


def test_broadcast_old_spelling(kernel):
    body = """
  GlobalTensor<float> xg, yg;
  xg.SetGlobalBuffer((__gm__ float*)x);
  yg.SetGlobalBuffer((__gm__ float*)y);
  TPipe pipe;
  TBuf<TPosition::VECCALC> a, b;
  pipe.InitBuffer(a, 64);
  pipe.InitBuffer(b, 4 * 16 * 4);
  LocalTensor<float> src = a.Get<float>(), dst = b.Get<float>();
  DataCopy(src, xg, 16);
  SetFlag<HardEvent::MTE2_V>(0);
  WaitFlag<HardEvent::MTE2_V>(0);
  const uint32_t dstShape[2] = {4, 16}, srcShape[2] = {1, 16};
  BroadCast<float, 2, 0>(dst, src, dstShape, srcShape);
  SetFlag<HardEvent::V_MTE3>(0);
  WaitFlag<HardEvent::V_MTE3>(0);
  DataCopy(yg, dst, 64);
"""
    x = np.arange(16, dtype=np.float32)
    r = kernel(body, {"x": x}, {"y": ("float32", (4, 16))}).ok()
    np.testing.assert_array_equal(r.outputs["y"], np.tile(x, (4, 1)))


def test_atan_is_the_high_level_arctangent(kernel):
    body = """
  GlobalTensor<float> xg, yg;
  xg.SetGlobalBuffer((__gm__ float*)x);
  yg.SetGlobalBuffer((__gm__ float*)y);
  TPipe pipe;
  TBuf<TPosition::VECCALC> a, b;
  pipe.InitBuffer(a, 256);
  pipe.InitBuffer(b, 256);
  DataCopy(a.Get<float>(), xg, 64);
  PipeBarrier<PIPE_ALL>();
  Atan<float, false>(b.Get<float>(), a.Get<float>(), 64);
  PipeBarrier<PIPE_ALL>();
  DataCopy(yg, b.Get<float>(), 64);
"""
    x = np.linspace(-20, 20, 64, dtype=np.float32)
    r = kernel(body, {"x": x}, {"y": ("float32", (64,))}).ok()
    np.testing.assert_allclose(
        r.outputs["y"], np.arctan(x.astype(np.float64)), rtol=1e-6, atol=1e-7
    )


def test_ascendc_utils_set_mask_and_core_type_as_cann_rms_norm_uses_them(kernel):
    # SetMask<float>(len) sets the low len bits of the mask register (64: the low register alone),
    # which a reduction with isSetMask = false then uses; g_coreType names the running core.
    x = np.arange(1, 129, dtype=np.float32)
    body = """
  TPipe pipe; TBuf<> buf; pipe.InitBuffer(buf, 1024);
  LocalTensor<float> a = buf.Get<float>(), s = a[128];
  GlobalTensor<float> xg, yg; xg.SetGlobalBuffer((__gm__ float*)x); yg.SetGlobalBuffer((__gm__ float*)y);
  DataCopy(a, xg, 128); PipeBarrier<PIPE_ALL>();
  const int lens[3] = {5, 64, 13};
  for (int i = 0; i < 3; ++i) {
    AscendCUtils::SetMask<float>(lens[i]);
    if (g_coreType == AIV) RepeatReduceSum<float, false>(s[8 * i], a, 1, 0, 0, 1, 1, 8);
  }
  AscendCUtils::ResetMask();
  PipeBarrier<PIPE_ALL>();
  yg.SetValue(0, s.GetValue(0)); yg.SetValue(1, s.GetValue(8)); yg.SetValue(2, s.GetValue(16));
  yg.SetValue(3, static_cast<float>(AscendC::AlignUp(333u, 8u)));
"""
    r = kernel(body, {"x": x}, {"y": ("float32", (4,))}).ok()
    np.testing.assert_array_equal(r.outputs["y"], [x[:5].sum(), x[:64].sum(), x[:13].sum(), 336])


def test_set_deq_scale_scales_the_int32_to_half_cast(kernel):
    x = np.array([1, -3, 2048, 4097, 100000, 7, 0, -65504] * 2, dtype=np.int32)
    body = """
  TPipe pipe; TBuf<> buf; pipe.InitBuffer(buf, 1024);
  LocalTensor<int32_t> a = buf.Get<int32_t>();
  LocalTensor<half> h = buf.GetWithOffset<half>(16, 256);
  GlobalTensor<int32_t> xg; xg.SetGlobalBuffer((__gm__ int32_t*)x);
  GlobalTensor<half> yg; yg.SetGlobalBuffer((__gm__ half*)y);
  DataCopy(a, xg, 16); PipeBarrier<PIPE_ALL>();
  SetDeqScale(static_cast<half>(0.5f));
  Cast(h, a, RoundMode::CAST_NONE, 16);  // the round mode is ignored: src * scale, rounded to half
  PipeBarrier<PIPE_ALL>();
  DataCopy(yg, h, 16);
"""
    r = kernel(body, {"x": x}, {"y": ("float16", (16,))}).ok()
    np.testing.assert_array_equal(r.outputs["y"], (x.astype(np.float32) * 0.5).astype(np.float16))


def test_float_to_float_cast_none_issues_nothing(kernel):
    # The A2 library has no float -> float conversion for CAST_NONE: dst keeps what it held (here
    # the 7.0 Duplicate wrote), a warning by default and an error in strict mode.
    x = np.linspace(-2.6, 2.6, 64, dtype=np.float32)
    body = """
  TPipe pipe; TBuf<> buf; pipe.InitBuffer(buf, 1024);
  LocalTensor<float> a = buf.Get<float>(), b = a[64];
  GlobalTensor<float> xg, yg; xg.SetGlobalBuffer((__gm__ float*)x); yg.SetGlobalBuffer((__gm__ float*)y);
  DataCopy(a, xg, 64); Duplicate(b, 7.0f, 64); PipeBarrier<PIPE_ALL>();
  Cast(b, a, RoundMode::CAST_NONE, 64);
  PipeBarrier<PIPE_ALL>();
  DataCopy(yg, b, 64);
"""
    lax = kernel(body, {"x": x}, {"y": ("float32", (64,))}, strict=False).ok()
    np.testing.assert_array_equal(lax.outputs["y"], np.full(64, 7.0, np.float32))
    assert any("CAST_NONE issues no instruction" in w for w in lax.result.get("warnings", []))
    strict = kernel(body, {"x": x}, {"y": ("float32", (64,))})
    assert strict.status == "RUNTIME_ERROR" and "CAST_NONE" in strict.message


def test_select_with_bytes_mask_takes_src1_where_the_mask_is_nonzero(kernel):
    # The documentation's example: src0 a half tensor [2, 16], src1 a scalar, a bool mask [2, 32]
    # of which the first 16 of each row apply.
    x = np.arange(32, dtype=np.float16)
    mask = (np.arange(64) % 3 == 0).astype(np.uint8)
    body = """
  TPipe pipe; TBuf<> buf; pipe.InitBuffer(buf, 2048);
  LocalTensor<half> a = buf.Get<half>(), d = a[32], e = a[64];
  LocalTensor<uint8_t> m = buf.GetWithOffset<uint8_t>(64, 256), tmp = buf.GetWithOffset<uint8_t>(1024, 1024);
  GlobalTensor<half> xg, yg; xg.SetGlobalBuffer((__gm__ half*)x); yg.SetGlobalBuffer((__gm__ half*)y);
  GlobalTensor<uint8_t> mg; mg.SetGlobalBuffer((__gm__ uint8_t*)mask);
  DataCopy(a, xg, 32); DataCopy(m, mg, 64); PipeBarrier<PIPE_ALL>();
  SelectWithBytesMaskShapeInfo info; info.firstAxis = 2; info.srcLastAxis = 16; info.maskLastAxis = 32;
  SelectWithBytesMask(d, a, static_cast<half>(-1.0f), m, tmp, info);
  SelectWithBytesMask(e, static_cast<half>(-1.0f), a, m, tmp, info);
  PipeBarrier<PIPE_ALL>();
  DataCopy(yg, d, 32); DataCopy(yg[32], e, 32);
"""
    r = kernel(body, {"x": x, "mask": mask}, {"y": ("float16", (64,))}).ok()
    on = mask.reshape(2, 32)[:, :16].ravel() != 0
    np.testing.assert_array_equal(r.outputs["y"][:32], np.where(on, -1.0, x).astype(np.float16))
    np.testing.assert_array_equal(r.outputs["y"][32:], np.where(on, x, -1.0).astype(np.float16))


def test_select_tensor_scalar_by_repeats_and_a_mask_past_the_repeat_runs_every_lane(kernel):
    # A float Select with mask 128 (a half op's lane count, as cann-ops fake_quant_affine_cachemask
    # passes): AscendCUtils::SetMask sets both registers full, so all 64 lanes run (a warning).
    x = np.arange(64, dtype=np.float32)
    bits = np.packbits((np.arange(64) % 3 == 0).astype(np.uint8), bitorder="little")
    body = """
  Ub u;
  LocalTensor<float> s = u.In<float>(x, 64), d = u.Alloc<float>(64);
  LocalTensor<uint8_t> m = u.In<uint8_t>(sel, 32);
  SYNC();
  Select(d, m, s, 5.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, 128, 1, {1, 1, 1, 8, 8, 8});
  SYNC();
  u.Out(y, d, 64);
"""
    inputs = {"x": x, "sel": np.concatenate([bits, np.zeros(24, np.uint8)])}
    lax = kernel(body, inputs, {"y": ("float32", (64,))}, prelude=UB_HELPERS, strict=False).ok()
    np.testing.assert_array_equal(lax.outputs["y"], np.where(np.arange(64) % 3 == 0, x, 5.0))
    assert any("continuous mask 128 out of range" in w for w in lax.result["warnings"])
    strict = kernel(body, inputs, {"y": ("float32", (64,))}, prelude=UB_HELPERS)
    assert strict.status == "RUNTIME_ERROR" and "whole repeat runs" in strict.message


def test_comparison_operators_on_local_tensors_write_compare_masks(kernel):
    rng = np.random.default_rng(2)
    a = rng.integers(-3, 3, 64).astype(np.float32)
    b = rng.integers(-3, 3, 64).astype(np.float32)
    body = """Ub ub; LocalTensor<float> p = ub.In<float>(a, 64), q = ub.In<float>(b, 64);
  LocalTensor<uint8_t> m = ub.Alloc<uint8_t>(192);
  SYNC();
  LocalTensor<uint8_t> r[6] = {m, m[32], m[64], m[96], m[128], m[160]};
  r[0] = p < q; r[1] = p > q; r[2] = p == q; r[3] = p <= q; r[4] = p >= q; r[5] = p != q;
  SYNC(); ub.Out(z, m, 192);"""
    r = kernel(body, {"a": a, "b": b}, {"z": ("uint8", (192,))}, prelude=UB_HELPERS).ok()
    got = np.unpackbits(r.outputs["z"].reshape(6, 32)[:, :8], axis=1, bitorder="little").astype(
        bool
    )
    want = [a < b, a > b, a == b, a <= b, a >= b, a != b]
    for g, w in zip(got, want):
        np.testing.assert_array_equal(g, w)


def test_softmax_without_sum_and_max_outputs(kernel):
    x = np.random.default_rng(3).uniform(-3, 3, (4, 24)).astype(np.float32)
    body = """Ub ub; LocalTensor<float> a = ub.In<float>(x, 96), o = ub.Alloc<float>(192);
  LocalTensor<uint8_t> tmp = ub.Alloc<uint8_t>(4096);
  SYNC();
  SoftMaxTiling t{}; t.srcM = 4; t.srcK = 24;
  SoftMax<float>(o, a, t, SoftMaxShapeInfo{4, 24, 4, 20});  // only the first 20 of each row count
  SoftMax<float>(o[96], a, tmp, t);
  SYNC(); ub.Out(z, o, 192);"""
    z = kernel(body, {"x": x}, {"z": ("float32", (2, 4, 24))}, prelude=UB_HELPERS).ok().outputs["z"]
    for k, out in ((20, z[0]), (24, z[1])):
        e = np.exp(x[:, :k] - x[:, :k].max(1, keepdims=True))
        np.testing.assert_allclose(out[:, :k], e / e.sum(1, keepdims=True), rtol=1e-5, atol=1e-7)


def test_gather_mask_counter_mode_takes_mask_lanes_of_every_repeat(kernel):
    x = np.arange(128, dtype=np.float32)
    pattern = np.array([0b1001, 0], dtype=np.int32)  # lanes 0 and 3; stride 0 rereads it per repeat
    body = """Ub ub; LocalTensor<float> a = ub.In<float>(x, 128), o = ub.Alloc<float>(64);
  LocalTensor<uint32_t> pat = ub.In<uint32_t>(p, 8);
  SYNC();
  Duplicate(o, -1.0f, 64);
  uint64_t n = 0;
  GatherMask(o, a, pat, true, 4, GatherMaskParams{1, 2, 8, 0}, n);
  SYNC();
  o.SetValue(63, (float)n);
  SetFlag<HardEvent::S_MTE3>(0); WaitFlag<HardEvent::S_MTE3>(0);
  ub.Out(z, o, 64);"""
    z = kernel(
        body, {"x": x, "p": np.resize(pattern, 8)}, {"z": ("float32", (64,))}, prelude=UB_HELPERS
    )
    z = z.ok().outputs["z"]
    np.testing.assert_array_equal(z[:4], [0, 3, 64, 67])
    assert z[4] == -1 and z[63] == 4


def test_gather_mask_counter_mode_over_more_than_a_repeat(kernel):
    # One repeat of mask 150 floats, built-in pattern 1 (even lanes): the repeat's blocks follow
    # src0BlockStride (1) whatever src0RepeatStride says, so lanes 0, 2, ..., 148.
    x = np.arange(384, dtype=np.float32)
    body = """Ub ub; LocalTensor<float> a = ub.In<float>(x, 384), o = ub.Alloc<float>(80);
  SYNC();
  Duplicate(o, -1.0f, 80);
  uint64_t n = 0;
  GatherMask(o, a, (uint8_t)1, true, 150, GatherMaskParams{1, 1, 16, 0}, n);
  SYNC();
  o.SetValue(79, (float)n);
  SetFlag<HardEvent::S_MTE3>(0); WaitFlag<HardEvent::S_MTE3>(0);
  ub.Out(z, o, 80);"""
    z = kernel(body, {"x": x}, {"z": ("float32", (80,))}, prelude=UB_HELPERS).ok().outputs["z"]
    np.testing.assert_array_equal(z[:75], np.arange(0, 150, 2))
    assert z[75] == -1 and z[79] == 75


def test_gather_mask_counter_mode_repeats_a_long_row_with_repeat_stride_0(kernel):
    # ops-nn's broadcast idiom: mask 100 lanes, 3 repeats, src0RepeatStride 0 and src1RepeatStride 0:
    # every repeat rereads the same row and the same pattern, consumed continuously within it
    # (words 0..3 of the pattern cover lanes 0..127: all but lane 70).
    x = np.arange(128, dtype=np.float32)
    pattern = np.array([-1, -1, ~(1 << 6), -1, 0, 0, 0, 0], dtype=np.int32)
    body = """Ub ub; LocalTensor<float> a = ub.In<float>(x, 128), o = ub.Alloc<float>(304);
  LocalTensor<uint32_t> pat = ub.In<uint32_t>(p, 8);
  SYNC();
  uint64_t n = 0;
  GatherMask(o, a, pat, true, 100, GatherMaskParams{1, 3, 0, 0}, n);
  SYNC();
  o.SetValue(303, (float)n);
  SetFlag<HardEvent::S_MTE3>(0); WaitFlag<HardEvent::S_MTE3>(0);
  ub.Out(z, o, 304);"""
    z = kernel(body, {"x": x, "p": pattern}, {"z": ("float32", (304,))}, prelude=UB_HELPERS)
    z = z.ok().outputs["z"]
    row = np.delete(np.arange(100, dtype=np.float32), 70)
    np.testing.assert_array_equal(z[:297], np.tile(row, 3))
    assert z[303] == 297


def test_acos_with_and_without_a_shared_buffer(kernel):
    s = np.random.default_rng(3).uniform(-1, 1, N).astype(np.float32)
    body = f"""Ub ub;
  LocalTensor<float> b = ub.In<float>(x, {N}), o = ub.Alloc<float>(2 * {N});
  LocalTensor<uint8_t> tmp = ub.Alloc<uint8_t>(4096); SYNC();
  Acos(o, b, {N}); Acos(o[{N}], b, tmp, {N});
  SYNC(); ub.Out(z, o, 2 * {N});"""
    prelude = '#include "adv_api/math/acos.h"\n#include "adv_api/pad/broadcast.h"\n' + UB_HELPERS
    z = kernel(body, {"x": s}, {"z": ("float32", (2, N))}, prelude=prelude).ok().outputs["z"]
    np.testing.assert_allclose(z, np.broadcast_to(np.arccos(s), (2, N)), rtol=1e-6, atol=1e-6)


def test_tan_and_trunc_with_and_without_a_shared_buffer(kernel):
    x = np.random.default_rng(11).uniform(-1.4, 1.4, 256).astype(np.float32)
    y = np.random.default_rng(12).uniform(-50, 50, 256).astype(np.float16)
    body = """Ub ub; LocalTensor<float> a = ub.In<float>(x, 256), o = ub.Alloc<float>(512);
  LocalTensor<half> b = ub.In<half>(y, 256), h = ub.Alloc<half>(512);
  LocalTensor<uint8_t> tmp = ub.Alloc<uint8_t>(4096);
  SYNC();
  Tan(o, a, 256);
  Tan(o[256], a, tmp, 200);
  Trunc(h, b, 256);
  Trunc<half>(h[256], b, tmp, 256);
  SYNC(); ub.Out(za, o, 512); ub.Out(zb, h, 512);"""
    out = {"za": ("float32", (512,)), "zb": ("float16", (512,))}
    r = kernel(body, {"x": x, "y": y}, out, prelude=UB_HELPERS).ok().outputs
    want = np.tan(x.astype(np.float64)).astype(np.float32)
    np.testing.assert_allclose(r["za"][:256], want, rtol=1e-6)
    np.testing.assert_allclose(r["za"][256:456], want[:200], rtol=1e-6)
    np.testing.assert_array_equal(r["zb"][:256], np.trunc(y))
    np.testing.assert_array_equal(r["zb"][256:], np.trunc(y))


def test_compare_into_the_cmpmask_register_then_select_with_it(kernel):
    rng = np.random.default_rng(13)
    a = rng.integers(-2, 2, 128).astype(np.float32)
    b = rng.integers(-2, 2, 128).astype(np.float32)
    p = np.arange(128, dtype=np.float32)
    q = -np.arange(128, dtype=np.float32) - 1
    # One repeat of 64 float lanes compared (the first 40 under a continuous mask), then two
    # repeats of Select that both read the register's 64 bits.
    body = """Ub ub; LocalTensor<float> x = ub.In<float>(a, 128), y = ub.In<float>(b, 128);
  LocalTensor<float> s0 = ub.In<float>(p, 128), s1 = ub.In<float>(q, 128), o = ub.Alloc<float>(256);
  SYNC();
  Compare<float>(x, y, CMPMODE::LT, 40, {});
  Select<float, SELMODE::VSEL_CMPMASK_SPR>(o, s0, s1, 2, {});
  Compare<float, false>(x[64], y[64], CMPMODE::EQ, MASK_PLACEHOLDER, {});
  Select<float, SELMODE::VSEL_CMPMASK_SPR>(o[128], s0, s1, 2, {});
  SYNC(); ub.Out(z, o, 256);"""
    z = kernel(
        body, {"a": a, "b": b, "p": p, "q": q}, {"z": ("float32", (256,))}, prelude=UB_HELPERS
    )
    z = z.ok().outputs["z"]
    lt = np.zeros(64, bool)
    lt[:40] = a[:40] < b[:40]
    eq = a[64:] == b[64:]
    for got, bits in ((z[:128], lt), (z[128:], eq)):
        np.testing.assert_array_equal(got, np.where(np.tile(bits, 2), p, q))


def test_compares_is_compare_scalar(kernel):
    # ops-nn hard_sigmoid_grad_v2 and softshrink compare with a scalar under the current name.
    x = np.linspace(-4, 4, 64, dtype=np.float32)
    body = """
  TPipe pipe; TBuf<TPosition::VECCALC> buf; pipe.InitBuffer(buf, 1024);
  LocalTensor<float> v = buf.Get<float>(); LocalTensor<uint8_t> m = buf.GetWithOffset<uint8_t>(32, 512);
  LocalTensor<float> out = buf.GetWithOffset<float>(64, 768);
  GlobalTensor<float> xg; xg.SetGlobalBuffer((__gm__ float*)x); GlobalTensor<float> yg; yg.SetGlobalBuffer((__gm__ float*)y);
  DataCopy(v, xg, 64);
  SetFlag<HardEvent::MTE2_V>(EVENT_ID0); WaitFlag<HardEvent::MTE2_V>(EVENT_ID0);
  Compares(m, v, 1.5f, CMPMODE::GT, 64);
  Select(out, m, v, 0.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, 64);
  SetFlag<HardEvent::V_MTE3>(EVENT_ID0); WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
  DataCopy(yg, out, 64);
"""
    r = kernel(body, {"x": x}, {"y": ("float32", (64,))}).ok()
    np.testing.assert_array_equal(r.outputs["y"], np.where(x > 1.5, x, 0).astype(np.float32))
