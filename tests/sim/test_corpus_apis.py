"""The API surface real custom operators use that our headers lacked (issue 15), each on a kernel
or tiling of our own: host registry and attrs, the *_t aliases and intrinsics spellings,
InitGlobalMemory, LocalTensor::operator(), queues bound to GM."""

import numpy as np
from conftest import HOST, UB_HELPERS

# The generic host of conftest, with the tiling registered through IMPL_OP_OPTILING and a
# TilingParse that fills a CompileInfo the tiling reads back (block dim from it, not the attr).
IMPL_HOST = (
    HOST.replace(
        "this->AICore().SetTiling(optiling::SimkTiling).AddConfig",
        "this->AICore().AddConfig",
    )
    .replace(
        "namespace optiling {",
        """#include <iostream>
#include "platform/platform_info.h"
namespace optiling {
struct SimkCompileInfo { uint32_t cores = 0; };
static ge::graphStatus SimkParse(gert::TilingParseContext* ctx) {
  auto* info = ctx->GetCompiledInfo<SimkCompileInfo>();
  info->cores = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo()).GetCoreNumAiv();
  return ge::GRAPH_SUCCESS;
}""",
    )
    .replace(
        "ctx->SetBlockDim(static_cast<uint32_t>(*attrs->GetInt(1)));",
        """const auto* info = ctx->GetCompileInfo<SimkCompileInfo>();
  if (info == nullptr || info->cores == 0) return ge::GRAPH_FAILED;
  // CANN's getters do not check the type: an Int attr read as int32_t is its low half.
  const int32_t blocks = *attrs->GetAttrPointer<int32_t>(1);
  std::ostringstream note;
  note << "cores " << info->cores;
  (void)ge::DT_COMPLEX64;
  ctx->SetBlockDim(static_cast<uint32_t>(blocks) > info->cores ? info->cores : blocks);""",
    )
    .replace(
        "}  // namespace optiling",
        """}  // namespace optiling
IMPL_OP_OPTILING(Simk).Tiling(optiling::SimkTiling).TilingParse<optiling::SimkCompileInfo>(optiling::SimkParse);
IMPL_OP_INFERSHAPE(Simk).InferShape([](gert::InferShapeContext* c) {
  return c->GetInputTensor(0) == nullptr ? ge::GRAPH_SUCCESS : ge::GRAPH_PARAM_INVALID;
});""",
    )
)

COPY_BODY = """
  GET_TILING_DATA(t, tiling);
  GlobalTensor<float32_t> xg, yg;
  const int64_t n = t.p[0] / GetBlockNum();
  xg.SetGlobalBuffer((__gm__ float32_t*)x + GetBlockIdx() * n);
  yg.SetGlobalBuffer((__gm__ float32_t*)y + GetBlockIdx() * n);
  TPipe pipe;
  TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> q;
  pipe.InitBuffer(q, 1, n * 4);
  LocalTensor<float32_t> v = q.AllocTensor<float32_t>();
  DataCopy(v, xg, n);
  q.EnQue(v);
  v = q.DeQue<float32_t>();
  if (likely(n > 0)) DataCopy(yg, v, n);
  q.FreeTensor(v);
"""


def test_impl_op_optiling_with_tiling_parse_and_unchecked_attr_getters(kernel):
    x = np.arange(256, dtype=np.float32)
    r = kernel(
        COPY_BODY, {"x": x}, {"y": ("float32", (256,))}, params=[256], block_dim=4, host=IMPL_HOST
    ).ok()
    np.testing.assert_array_equal(r.outputs["y"], x)
    assert r.result["block_dim"] == 4


def test_init_global_memory_then_syncall_orders_the_fill(kernel):
    body = """
  GET_TILING_DATA(t, tiling);
  GlobalTensor<float> yg;
  yg.SetGlobalBuffer((__gm__ float*)y);
  if (GetBlockIdx() == 0) InitGlobalMemory(yg, t.p[0], 2.5f);
  SyncAll();
  TPipe pipe;
  TBuf<TPosition::VECCALC> b;
  pipe.InitBuffer(b, 64);
  LocalTensor<float> v = b.Get<float>();
  Duplicate(v, 1.0f, 8);
  SetFlag<HardEvent::V_MTE3>(0);
  WaitFlag<HardEvent::V_MTE3>(0);
  SetAtomicAdd<float>();
  DataCopy(yg[GetBlockIdx() * 8], v, 8);
  SetAtomicNone();
"""
    r = kernel(body, {}, {"y": ("float32", (32,))}, params=[32], block_dim=4).ok()
    np.testing.assert_array_equal(r.outputs["y"], np.full(32, 3.5, np.float32))


def test_local_tensor_call_operator_reads_and_writes_one_element(kernel):
    body = """
  GlobalTensor<int32_t> xg, yg;
  xg.SetGlobalBuffer((__gm__ int32_t*)x);
  yg.SetGlobalBuffer((__gm__ int32_t*)y);
  TPipe pipe;
  TBuf<TPosition::VECCALC> b;
  pipe.InitBuffer(b, 32);
  LocalTensor<int32_t> v = b.Get<int32_t>();
  DataCopy(v, xg, 8);
  SetFlag<HardEvent::MTE2_S>(0);
  WaitFlag<HardEvent::MTE2_S>(0);
  v(3) = v(1) + v(2);
  SetFlag<HardEvent::S_MTE3>(0);
  WaitFlag<HardEvent::S_MTE3>(0);
  DataCopy(yg, v, 8);
"""
    x = np.arange(8, dtype=np.int32) * 10
    r = kernel(body, {"x": x}, {"y": ("int32", (8,))}).ok()
    want = x.copy()
    want[3] = 30
    np.testing.assert_array_equal(r.outputs["y"], want)


def test_queue_bound_to_gm_orders_mte2_before_the_vector_and_gettpipeptr_is_global(kernel):
    body = """
  GlobalTensor<half> xg, yg;
  xg.SetGlobalBuffer((__gm__ half*)x);
  yg.SetGlobalBuffer((__gm__ half*)y);
  TPipe pipe;
  TQueBind<TPosition::GM, TPosition::VECIN, 1> in;
  TQueBind<TPosition::VECOUT, TPosition::GM, 1> out;
  GetTPipePtr()->InitBuffer(in, 1, 256);
  GetTPipePtr()->InitBuffer(out, 1, 256);
  LocalTensor<half> a = in.AllocTensor<half>();
  DataCopy(a, xg, 128);
  in.EnQue(a);
  a = in.DeQue<half>();
  LocalTensor<half> b = out.AllocTensor<half>();
  Adds(b, a, (half)1, 128);
  out.EnQue(b);
  in.FreeTensor(a);
  b = out.DeQue<half>();
  DataCopy(yg, b, 128);
  out.FreeTensor(b);
"""
    x = np.linspace(-4, 4, 128).astype(np.float16)
    r = kernel(body, {"x": x}, {"y": ("float16", (128,))}).ok()
    np.testing.assert_array_equal(r.outputs["y"], x + np.float16(1))


# ---- conditions the device runs through: warnings by default, errors in strict mode ------------
TOLERATED = {
    "vector footprint past the tensor, inside the UB": (
        """
  TPipe pipe;
  TBuf<TPosition::VECCALC> a, b;
  pipe.InitBuffer(a, 256);
  pipe.InitBuffer(b, 1024);
  LocalTensor<float> t = a.Get<float>();
  Duplicate(t, 1.0f, 128);  // 512 bytes into a 256-byte buffer: the device writes on into b
""",
        "Duplicate: operand 0 touches 128 elements but the tensor has 64",
    ),
    "SetValue index past the tensor, inside the UB": (
        """
  TPipe pipe;
  TBuf<TPosition::VECCALC> a, b;
  pipe.InitBuffer(a, 32);
  pipe.InitBuffer(b, 64);
  a.Get<float>().SetValue(10, 1.0f);
""",
        "LocalTensor::SetValue index 10 out of range (tensor has 8 elements)",
    ),
    "InitBuffer into the bytes the runtime reserves": (
        """
  TPipe pipe;
  TBuf<TPosition::VECCALC> a;
  pipe.InitBuffer(a, 196608);
""",
        "into the 256 bytes the runtime reserves",
    ),
    "a static LocalTensor into the bytes the runtime reserves": (
        "LocalTensor<float> top(TPosition::VECCALC, 196352, 64);",
        "bytes [196352, 196608), into the bytes the runtime reserves above 196352",
    ),
    "InitBuffer past the UB, its buffer never touched": (
        """
  TPipe pipe;
  TBuf<TPosition::VECCALC> a, b;
  pipe.InitBuffer(a, 160 * 1024);
  pipe.InitBuffer(b, 64 * 1024);  // a temp buffer a dtype branch of the kernel never uses
""",
        "InitBuffer of 1 x 65536 bytes needs UB [163840, 229376) but only 196352 bytes are available",
    ),
    "GM read past the buffer's padding": (
        """
  GlobalTensor<float> xg;
  xg.SetGlobalBuffer((__gm__ float*)x);
  TPipe pipe;
  TBuf<TPosition::VECCALC> a;
  pipe.InitBuffer(a, 1024);
  DataCopy(a.Get<float>(), xg, 256);  // 1 KiB from a 64-element input
""",
        "runs past the buffer",
    ),
    "GM write past the buffer's padding, inside its allocator block": (
        """
  GlobalTensor<float> yg;
  yg.SetGlobalBuffer((__gm__ float*)y);
  TPipe pipe;
  TBuf<TPosition::VECCALC> a;
  pipe.InitBuffer(a, 1024);
  Duplicate(a.Get<float>(), 2.0f, 128);
  PipeBarrier<PIPE_ALL>();
  DataCopy(yg, a.Get<float>(), 96);  // 384 B into an 8-element output: its block is 512 B
  yg.SetValue(100, 3.0f);
""",
        "runs past the buffer's padding, inside its 512 B allocator block",
    ),
    "WholeReduceSum results past the destination, inside the UB": (
        """
  TPipe pipe;
  TBuf<TPosition::VECCALC> a, b;
  pipe.InitBuffer(a, 4096);
  pipe.InitBuffer(b, 32);
  Duplicate(a.Get<float>(), 1.0f, 1024);
  PipeBarrier<PIPE_V>();
  WholeReduceSum(b.Get<float>(), a.Get<float>(), 64, 16, 1, 1, 8);  // 16 sums into 8 elements
""",
        "WholeReduceSum: writes 16 elements, the destination has 8",
    ),
}


def test_device_tolerated_conditions_warn_by_default_and_fail_when_strict(kernel):
    x = np.ones(64, np.float32)
    for name, (body, text) in TOLERATED.items():
        lax = kernel(body, {"x": x}, {"y": ("float32", (8,))}, strict=False)
        assert lax.status == "OK", (name, lax.message)
        assert any(text in w for w in lax.result.get("warnings", [])), (name, lax.result)
        strict = kernel(body, {"x": x}, {"y": ("float32", (8,))})
        assert strict.status == "RUNTIME_ERROR" and text in strict.message, (name, strict.message)


def test_copy_moves_masked_lanes_with_repeat_strides(kernel):
    # Two repeats of the first 48 lanes; the source advances 16 blocks (128 floats) a repeat, the
    # destination 8 (64 floats): dst[0:48] = x[0:48], dst[64:112] = x[128:176].
    body = """
  GlobalTensor<float> xg, yg;
  xg.SetGlobalBuffer((__gm__ float*)x);
  yg.SetGlobalBuffer((__gm__ float*)y);
  TPipe pipe;
  TBuf<TPosition::VECCALC> a, b;
  pipe.InitBuffer(a, 1024);
  pipe.InitBuffer(b, 512);
  LocalTensor<float> src = a.Get<float>(), dst = b.Get<float>();
  DataCopy(src, xg, 256);
  Duplicate(dst, -1.0f, 128);
  SetFlag<HardEvent::MTE2_V>(0);
  WaitFlag<HardEvent::MTE2_V>(0);
  Copy(dst, src, 48, 2, {1, 1, 8, 16});
  SetFlag<HardEvent::V_MTE3>(0);
  WaitFlag<HardEvent::V_MTE3>(0);
  DataCopy(yg, dst, 128);
"""
    x = np.arange(256, dtype=np.float32)
    r = kernel(body, {"x": x}, {"y": ("float32", (128,))}).ok()
    want = np.full(128, -1.0, np.float32)
    want[0:48] = x[0:48]
    want[64:112] = x[128:176]
    np.testing.assert_array_equal(r.outputs["y"], want)


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


def test_tiling_reads_a_value_depend_input_with_get_data(kernel):
    # Only an input the OpDef marks ValueDepend reaches the tiling's GetData, as in CANN.
    host = HOST.replace(
        "ctx->SetBlockDim(static_cast<uint32_t>(*attrs->GetInt(1)));",
        "ctx->SetBlockDim(static_cast<uint32_t>(ctx->GetInputTensor(0)->GetData<float>()[2]));",
    ).replace(
        "explicit Simk(const char* name) : OpDef(name) {",
        'explicit Simk(const char* name) : OpDef(name) { this->Input("x").ValueDepend(REQUIRED);',
    )
    x = np.array([0, 0, 3, 0, 0, 0, 0, 0], np.float32)
    r = kernel("", {"x": x}, {"y": ("float32", (8,))}, host=host).ok()
    assert r.result["block_dim"] == 3


def test_tbuf_takes_the_queue_forms_and_zero_length_queues_still_queue(kernel):
    body = """
  GlobalTensor<float> xg, yg;
  xg.SetGlobalBuffer((__gm__ float*)x);
  yg.SetGlobalBuffer((__gm__ float*)y);
  TPipe pipe;
  TBuf<TPosition::VECCALC> tmp;
  TQue<QuePosition::VECOUT, 1> empty;
  pipe.InitBuffer(tmp, 2, 64);   // the queue form on a TBuf: 2 x 64 bytes
  pipe.InitBuffer(empty, 1, 0);  // a zero-length buffer, as tilings with an empty tail make
  LocalTensor<float> t = tmp.AllocTensor<float>();
  DataCopy(t, xg, 32);
  SetFlag<HardEvent::MTE2_MTE3>(0);
  WaitFlag<HardEvent::MTE2_MTE3>(0);
  DataCopy(yg, t, 32);
  tmp.FreeTensor(t);
  LocalTensor<float> e = empty.AllocTensor<float>();
  empty.EnQue(e);
  e = empty.DeQue<float>();
  empty.FreeTensor(e);
"""
    x = np.arange(32, dtype=np.float32)
    r = kernel(body, {"x": x}, {"y": ("float32", (32,))}).ok()
    np.testing.assert_array_equal(r.outputs["y"], x)


def test_tiling_header_includes_of_toolkit_headers_parse_at_global_scope(kernel):
    # The kernel sees the tiling header wrapped in a namespace of its own; the toolkit headers it
    # includes (here two that declare std:: names) must be parsed before that namespace.
    from conftest import TILING_H

    tiling_h = TILING_H.replace(
        '#include "register/tilingdata_base.h"',
        '#include "register/op_def_registry.h"\n#include "tiling/platform/platform_ascendc.h"\n'
        '#include "register/tilingdata_base.h"',
    )
    x = np.arange(8, dtype=np.float32)
    body = """
  GlobalTensor<float> xg, yg;
  xg.SetGlobalBuffer((__gm__ float*)x);
  yg.SetGlobalBuffer((__gm__ float*)y);
  yg.SetValue(0, xg.GetValue(7));
"""
    r = kernel(body, {"x": x}, {"y": ("float32", (1,))}, tiling_h=tiling_h).ok()
    assert r.outputs["y"][0] == 7


def test_data_copy_pad_of_zero_length_moves_nothing(kernel):
    # The A2 library's range for DataCopyPad is blockCount [0, 4095], blockLen [0, 2097151] bytes:
    # an empty tail copies nothing, in and out, and is no error in strict mode either.
    body = """
  GlobalTensor<float> xg, yg;
  xg.SetGlobalBuffer((__gm__ float*)x);
  yg.SetGlobalBuffer((__gm__ float*)y);
  TPipe pipe;
  TQue<QuePosition::VECOUT, 1> q;
  pipe.InitBuffer(q, 1, 64);
  LocalTensor<float> t = q.AllocTensor<float>();
  Duplicate(t, 5.0f, 16);
  q.EnQue(t);
  t = q.DeQue<float>();
  DataCopyPad(t, xg, DataCopyExtParams{1, 0, 0, 0, 0}, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
  DataCopyPad(t, xg, DataCopyExtParams{0, 32, 0, 0, 0}, DataCopyPadExtParams<float>{false, 0, 0, 0.0f});
  DataCopyPad(yg, t, DataCopyExtParams{1, 0, 0, 0, 0});
  DataCopyPad(yg[4], t, DataCopyExtParams{1, 16, 0, 0, 0});
  q.FreeTensor(t);
"""
    x = np.arange(8, dtype=np.float32)
    r = kernel(body, {"x": x}, {"y": ("float32", (8,))}).ok()
    assert r.result.get("warnings", []) == []
    np.testing.assert_array_equal(r.outputs["y"][4:], [5, 5, 5, 5])


def test_gm_write_past_the_allocator_block_stays_an_error(kernel):
    body = """
  GlobalTensor<float> yg;
  yg.SetGlobalBuffer((__gm__ float*)y);
  yg.SetValue(128, 1.0f);  // byte 512 of an 8-element output: past its 512 B allocator block
"""
    r = kernel(body, {"x": np.zeros(8, np.float32)}, {"y": ("float32", (8,))}, strict=False)
    assert r.status == "RUNTIME_ERROR" and "outside every GM buffer" in r.message, r.message


def test_div_ceil_is_the_library_scalar_ceiling_division(kernel):
    body = """
  GlobalTensor<int32_t> yg;
  yg.SetGlobalBuffer((__gm__ int32_t*)y);
  constexpr uint32_t blocks = AscendC::DivCeil(333u * 4u, 32u);  // usable in constant expressions
  yg.SetValue(0, blocks);
  yg.SetValue(1, AscendC::DivCeil(64u, 32u));
"""
    r = kernel(body, {"x": np.zeros(8, np.float32)}, {"y": ("int32", (2,))}).ok()
    np.testing.assert_array_equal(r.outputs["y"], [42, 2])


def test_cce_aicore_names_the_a2_vector_core(kernel):
    body = """
  GlobalTensor<int32_t> yg;
  yg.SetGlobalBuffer((__gm__ int32_t*)y);
#if defined(__CCE_AICORE__) && __CCE_AICORE__ == 220
  yg.SetValue(0, 220);  // the path real operators take on Atlas A2
#else
  yg.SetValue(0, -1);
#endif
"""
    r = kernel(body, {"x": np.zeros(8, np.float32)}, {"y": ("int32", (1,))}).ok()
    assert r.outputs["y"][0] == 220


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


def test_broadcast_tmp_size_host_helper_has_the_library_spelling(kernel):
    host = HOST.replace(
        "namespace optiling {",
        '#include "tiling/platform/platform_ascendc.h"\n#include "tiling/tiling_api.h"\nnamespace optiling {',
        1,
    ).replace(
        "ctx->SetBlockDim(static_cast<uint32_t>(*attrs->GetInt(1)));",
        """uint32_t mx = 0, mn = 0;
  AscendC::GetBroadCastMaxMinTmpSize(platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo()), ge::Shape({1, 64}),
                                     ge::Shape({4, 64}), 4, false, mx, mn);
  ctx->SetBlockDim(mn > 0 && mn <= mx && mx >= 4 * 64 * 4 ? 2 : 1);""",
    )
    r = kernel("", {"x": np.zeros(8, np.float32)}, {"y": ("float32", (8,))}, host=host).ok()
    assert r.result["block_dim"] == 2


def test_an_access_past_the_ub_is_an_error_in_either_mode(kernel):
    body = """
  TPipe pipe;
  TBuf<TPosition::VECCALC> a, b;
  pipe.InitBuffer(a, 160 * 1024);
  pipe.InitBuffer(b, 64 * 1024);
  Duplicate(b.Get<float>(), 1.0f, 64);  // inside the UB: runs
  %s
"""
    x = np.zeros(8, np.float32)
    for touch in (
        "Duplicate(b.Get<float>()[8192], 1.0f, 64);",
        "b.Get<float>().SetValue(8200, 1.0f);",
    ):
        r = kernel(body % touch, {"x": x}, {"y": ("float32", (8,))}, strict=False)
        assert r.status == "RUNTIME_ERROR", (touch, r.message)
        assert "past the end of the 196608-byte UB" in r.message, r.message


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


def test_untyped_deque_waits_like_the_typed_one(kernel):
    x = np.arange(64, dtype=np.float32)
    body = """
  TPipe pipe; TQue<TPosition::VECIN, 1> q; pipe.InitBuffer(q, 1, 256);
  GlobalTensor<float> xg, yg; xg.SetGlobalBuffer((__gm__ float*)x); yg.SetGlobalBuffer((__gm__ float*)y);
  LocalTensor<float> a = q.AllocTensor<float>();
  DataCopy(a, xg, 64);
  q.EnQue(a);
  q.DeQue();  // the handle form: the same MTE2 -> V wait, the tensor kept from AllocTensor
  Muls(a, a, 2.0f, 64);
  PipeBarrier<PIPE_ALL>();
  DataCopy(yg, a, 64);
  q.FreeTensor(a);
"""
    r = kernel(body, {"x": x}, {"y": ("float32", (64,))}).ok()
    np.testing.assert_array_equal(r.outputs["y"], x * 2)


def test_tiling_header_helpers_over_tiling_parse_context_compile_on_the_kernel_side(kernel):
    from conftest import TILING_H

    tiling_h = TILING_H.replace(
        "namespace optiling {",
        """namespace optiling {
template <typename T>
inline T* GetCompileInfoPtr(gert::TilingParseContext* context) { return context->GetCompiledInfo<T>(); }""",
    )
    body = """
  GlobalTensor<float> xg, yg;
  xg.SetGlobalBuffer((__gm__ float*)x); yg.SetGlobalBuffer((__gm__ float*)y);
  yg.SetValue(0, xg.GetValue(3));
"""
    x = np.arange(8, dtype=np.float32)
    r = kernel(body, {"x": x}, {"y": ("float32", (1,))}, tiling_h=tiling_h).ok()
    assert r.outputs["y"][0] == 3


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


def test_pop_stack_buffer_hands_out_the_rest_of_the_ub(kernel):
    body = """
  TPipe pipe; TBuf<> buf; pipe.InitBuffer(buf, 4096);
  LocalTensor<int16_t> rest;
  const bool ok = PopStackBuffer<int16_t, TPosition::LCM>(rest);
  GlobalTensor<int32_t> yg; yg.SetGlobalBuffer((__gm__ int32_t*)y);
  yg.SetValue(0, ok);
  yg.SetValue(1, static_cast<int32_t>(rest.GetSize()));
  yg.SetValue(2, static_cast<int32_t>(reinterpret_cast<uintptr_t>(rest.GetPhyAddr()) - reinterpret_cast<uintptr_t>(buf.Get<int16_t>().GetPhyAddr())));
"""
    r = kernel(body, {"x": np.zeros(8, np.float32)}, {"y": ("int32", (3,))}).ok()
    ok, size, offset = r.outputs["y"]
    # The UB TPipe may hand out on the A2 preset (192 KiB less the runtime's reserve) past the 4 KiB taken.
    assert ok == 1 and offset == 4096 and size * 2 + 4096 == 196352


def test_infer_shape_reads_input_descs(kernel):
    # Graph-mode shape inference is compiled, never run at a launch; it may read the input's desc.
    host = HOST.replace(
        "namespace optiling {",
        """static ge::graphStatus SimkInferShape(gert::InferShapeContext* ctx) {
  const gert::CompileTimeTensorDesc* desc = ctx->GetInputDesc(0);
  return desc != nullptr && desc->GetOriginFormat() == ge::FORMAT_ND ? ge::GRAPH_SUCCESS : ge::GRAPH_FAILED;
}
namespace optiling {""",
    )
    x = np.arange(8, dtype=np.float32)
    body = """
  GlobalTensor<float> xg, yg;
  xg.SetGlobalBuffer((__gm__ float*)x); yg.SetGlobalBuffer((__gm__ float*)y);
  yg.SetValue(0, xg.GetValue(5));
"""
    r = kernel(body, {"x": x}, {"y": ("float32", (1,))}, host=host).ok()
    assert r.outputs["y"][0] == 5


def test_data_copy_past_its_tensor_inside_the_ub_is_device_tolerated(kernel):
    # The DMA takes a UB address, so copying more than a tensor's length (zero-length queue buffers
    # of a tiling that sized them 0, as cann-ops trunc does) runs on the device inside the UB.
    x = np.arange(64, dtype=np.float32)
    body = """
  TPipe pipe; TBuf<> buf; pipe.InitBuffer(buf, 512);
  GlobalTensor<float> xg, yg; xg.SetGlobalBuffer((__gm__ float*)x); yg.SetGlobalBuffer((__gm__ float*)y);
  LocalTensor<float> a(TPosition::VECCALC, 0, 8);  // an 8-element tensor at the start of buf
  DataCopy(a, xg, 64);
  PipeBarrier<PIPE_ALL>();
  DataCopy(yg, a, 64);
"""
    lax = kernel(body, {"x": x}, {"y": ("float32", (64,))}, strict=False).ok()
    np.testing.assert_array_equal(lax.outputs["y"], x)
    assert any(
        "DataCopy GM->UB of 256 bytes into a 32-byte tensor" in w for w in lax.result["warnings"]
    )
    strict = kernel(body, {"x": x}, {"y": ("float32", (64,))})
    assert strict.status == "RUNTIME_ERROR" and "32-byte tensor" in strict.message


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


def test_library_impl_forms_on_raw_ub_pointers_fill_and_copy_out(kernel):
    # DuplicateImpl / DataCopyUB2GMImpl as a kernel calls them on GetPhyAddr pointers: fill 48
    # int16 with 7 (count form), 16 more with -1 (mask form, one repeat of 16 lanes), copy 4 blocks.
    # The inference products' Vector Core type launches vector blocks on the A2.
    body = """
  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_VECTOR_CORE);
  TPipe pipe; TBuf<> buf; pipe.InitBuffer(buf, 256);
  __ubuf__ int16_t* ub = (__ubuf__ int16_t*)buf.Get<int16_t>().GetPhyAddr();
  DuplicateImpl<int16_t>(ub, 7, 48);
  DuplicateImpl<int16_t, true>(ub + 48, -1, 16, 1, 1, 8);
  SetFlag<HardEvent::V_MTE3>(EVENT_ID0); WaitFlag<HardEvent::V_MTE3>(EVENT_ID0);
  DataCopyUB2GMImpl((__gm__ int16_t*)y, ub, {1, 4, 0, 0});
"""
    r = kernel(body, {"x": np.zeros(8, np.float32)}, {"y": ("int16", (64,))}).ok()
    np.testing.assert_array_equal(r.outputs["y"], [7] * 48 + [-1] * 16)


def test_repeat_reduce_sum_with_source_block_stride_zero_reuses_the_first_block(kernel):
    # asc-devkit's high-dimensional slicing page (which ReduceRepeat's srcBlkStride refers to):
    # with srcBlkStride 0 the source reuses its first DataBlock, so one repeat of 64 floats sums
    # block 0 eight times.
    x = np.arange(64, dtype=np.float32)
    body = """
  Ub u;
  LocalTensor<float> s = u.In<float>(x, 64), d = u.Alloc<float>(8);
  SYNC();
  RepeatReduceSum<float>(d, s, 1, 64, 0, 0, 1, 8);
  SYNC();
  u.Out(y, d, 8);
"""
    r = kernel(body, {"x": x}, {"y": ("float32", (8,))}, prelude=UB_HELPERS).ok()
    assert r.outputs["y"][0] == 8 * x[:8].sum()


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


def test_tiling_class_in_the_header_compiles_on_the_kernel_side_and_block_assert(kernel):
    # A tiling class written in the tiling header (as cann-ops mul_sigmoid has) fills the struct
    # through set_ and sizes a buffer with a high-level API's TmpSize helper; the kernel sees the
    # struct only. The host reads the deterministic option (off); ASSERT may lack its `;`.
    from conftest import TILING_H

    tiling_h = TILING_H.replace(
        "REGISTER_TILING_DATA_CLASS(Simk, SimkTilingData)",
        """REGISTER_TILING_DATA_CLASS(Simk, SimkTilingData)
class SimkFiller {
 public:
  explicit SimkFiller(gert::TilingContext* ctx) : ctx_(ctx) {}
  void Fill(SimkTilingData& t) {
    uint32_t maxTmp = 0, minTmp = 0;
    AscendC::GetSigmoidMaxMinTmpSize(ge::Shape({64}), 4, false, maxTmp, minTmp);
    int64_t p[8] = {minTmp, ctx_->GetDeterministic()};
    t.set_p(p);
  }
 private:
  gert::TilingContext* ctx_;
};""",
    ).replace("#pragma once", '#pragma once\n#include "tiling/tiling_api.h"')
    host = HOST.replace("  t.set_p(p);", "  t.set_p(p);\n  SimkFiller(ctx).Fill(t);")
    body = """
  GET_TILING_DATA(t, tiling);
  ASSERT(t.p[0] > 0)
  GlobalTensor<int64_t> yg; yg.SetGlobalBuffer((__gm__ int64_t*)y);
  yg.SetValue(0, t.p[0]);
  yg.SetValue(1, t.p[1]);
"""
    r = kernel(
        body,
        {"x": np.zeros(8, np.float32)},
        {"y": ("int64", (2,))},
        tiling_h=tiling_h,
        host=host,
    ).ok()
    # The helper's minimum: one 256 B repeat per float intermediate (two for Sigmoid).
    assert list(r.outputs["y"]) == [512, 0]


def test_unqualified_abs_of_a_float_is_the_float_abs(kernel):
    # The device compiler's global abs takes a float (cann-ops' Std::abs calls ::abs on one);
    # C's int abs would truncate -0.75 to 0.
    body = """
  GlobalTensor<float> xg, yg;
  xg.SetGlobalBuffer((__gm__ float*)x); yg.SetGlobalBuffer((__gm__ float*)y);
  yg.SetValue(0, abs(xg.GetValue(0)));
"""
    r = kernel(body, {"x": np.array([-0.75] * 8, np.float32)}, {"y": ("float32", (1,))}).ok()
    assert r.outputs["y"][0] == 0.75


def test_reduce_sum_leaves_its_result_in_acc_val_and_the_library_internals(kernel):
    # cann-ops rms_norm_grad: the count-form ReduceSum's result read back from ACC_VAL (GetAccVal,
    # raw bits, and GetReduceRepeatSumSpr<float>), the internal dav_c220 header path, `assert`
    # under __CCE_KT_TEST__, IsSameType, and InitOutput (InitGlobalMemory's predecessor).
    x = np.arange(64, dtype=np.float32) / 8
    body = """
  Ub u;
  LocalTensor<float> s = u.In<float>(x, 64), d = u.Alloc<float>(8);
  SYNC();
  ReduceSum(d, s, s, 50);
  SetFlag<HardEvent::V_S>(EVENT_ID0); WaitFlag<HardEvent::V_S>(EVENT_ID0);
  uint64_t bits = GetAccVal();
  const float sum = *reinterpret_cast<float*>(&bits);
  assert(sum == GetReduceRepeatSumSpr<float>());
  GlobalTensor<float> yg, zg;
  yg.SetGlobalBuffer((__gm__ float*)y); zg.SetGlobalBuffer((__gm__ float*)z);
  yg.SetValue(0, sum);
  InitOutput(zg, 8, IsSameType<float, float32_t>::value && !IsSameType<half, float>::value ? 2.0f : 0.0f);
"""
    prelude = '#include "impl/dav_c220/kernel_operator_reg_others_impl.h"\n' + UB_HELPERS
    r = kernel(
        body, {"x": x}, {"y": ("float32", (1,)), "z": ("float32", (8,))}, prelude=prelude
    ).ok()
    assert r.outputs["y"][0] == x[:50].sum()
    np.testing.assert_array_equal(r.outputs["z"], np.full(8, 2.0, np.float32))


def test_host_forms_of_the_toolkit_headers_and_a_tiling_struct_in_an_included_header(tmp_path):
    # cann-ops gelu_quant / ge_glu_grad_v2: the TilingData in a `_def.h` the tiling header
    # includes (found for the kernel too), END_TILING_DATA_DEF without its `;`, `map` unqualified
    # after platform/platform_info.h, gert::Shape `!=`, ge::char_t.
    from conftest import TILING_H, run_kernel

    root = tmp_path / "simk" / "op_host"
    root.mkdir(parents=True)
    (root / "simk_tiling_def.h").write_text(
        TILING_H.replace("END_TILING_DATA_DEF;", "END_TILING_DATA_DEF")
    )
    tiling_h = '#pragma once\n#include "simk_tiling_def.h"\n'
    host = HOST.replace(
        '#include "tiling/platform/platform_ascendc.h"',
        '#include "tiling/platform/platform_ascendc.h"\n#include "platform/platform_info.h"',
    ).replace(
        "  t.set_p(p);",
        """  static const map<ge::DataType, int32_t> width = {{ge::DT_FLOAT, 4}};
  const ge::char_t* name = "simk";
  const gert::Shape a({2, 3}), b({2, 4});
  p[0] = width.at(ge::DT_FLOAT) + (a != b) + (a != a) + (name[0] == 's');
  t.set_p(p);""",
    )
    body = """
  GET_TILING_DATA(t, tiling);
  GlobalTensor<int64_t> yg; yg.SetGlobalBuffer((__gm__ int64_t*)y);
  yg.SetValue(0, t.p[0]);
"""
    r = run_kernel(
        tmp_path,
        body,
        {"x": np.zeros(8, np.float32)},
        {"y": ("int64", (1,))},
        host=host,
        tiling_h=tiling_h,
    ).ok()
    assert r.outputs["y"][0] == 6


def test_a_buffer_enqueued_on_and_freed_to_another_queue_keeps_its_own_events(kernel):
    # cann-ops rms_norm_grad allocates from one VECOUT queue, enqueues on another and frees there:
    # the device keeps a buffer's state and events with the buffer, so it works (a warning here).
    x = np.arange(128, dtype=np.float32)
    body = """
  TPipe pipe; TQue<TPosition::VECOUT, 1> a, b;
  pipe.InitBuffer(a, 1, 256); pipe.InitBuffer(b, 1, 256);
  GlobalTensor<float> yg; yg.SetGlobalBuffer((__gm__ float*)y);
  for (int i = 0; i < 2; ++i) {
    LocalTensor<float> t = a.AllocTensor<float>();  // the second waits for the MTE3 read of the first
    Duplicate(t, static_cast<float>(i + 1), 64);
    b.EnQue(t);
    LocalTensor<float> out = b.DeQue<float>();
    DataCopy(yg[i * 64], out, 64);
    b.FreeTensor(out);
  }
"""
    outputs = {"y": ("float32", (128,))}
    lax = kernel(body, {"x": x}, outputs, strict=False).ok()
    np.testing.assert_array_equal(lax.outputs["y"], np.repeat([1.0, 2.0], 64).astype(np.float32))
    assert any("belongs to another queue" in w for w in lax.result.get("warnings", []))
    strict = kernel(body, {"x": x}, outputs)
    assert strict.status == "RUNTIME_ERROR" and "belongs to another queue" in strict.message
