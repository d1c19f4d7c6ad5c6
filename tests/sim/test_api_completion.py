"""API.md sections 1-8 surface added after the audit: SetPadValue, Transpose, FetchEventID<>,
CumSum's default config, DumpTensor and PlatformAscendC::ReserveLocalMemory."""

import numpy as np

from conftest import HOST, UB_HELPERS


def test_set_pad_value_fills_row_tails_without_is_pad(kernel):
    x = np.arange(4 * 31, dtype=np.float32)
    body = """Ub ub; GlobalTensor<float> xg; xg.SetGlobalBuffer((__gm__ float*)x, 124);
  LocalTensor<float> t = ub.Alloc<float>(4 * 32), u = ub.Alloc<float>(4 * 32);
  DataCopyExtParams rows{4, 31 * 4, 0, 0, 0};
  DataCopyPad(t, xg, rows, DataCopyPadExtParams<float>{false, 0, 0, 0});   // no register value yet: tails untouched
  SetPadValue(37.0f);
  DataCopyPad(u, xg, rows, DataCopyPadExtParams<float>{false, 0, 0, 0});   // tails take the register value
  SYNC(); ub.Out(z, u, 128);"""
    r = kernel(body, {"x": x}, {"z": ("float32", (4, 32))}, prelude=UB_HELPERS).ok()
    expect = np.full((4, 32), 37.0, np.float32)
    expect[:, :31] = x.reshape(4, 31)
    np.testing.assert_array_equal(r.outputs["z"], expect)


def test_is_pad_value_wins_over_the_register(kernel):
    x = np.arange(2 * 13, dtype=np.float32)
    body = """Ub ub; GlobalTensor<float> xg; xg.SetGlobalBuffer((__gm__ float*)x, 26);
  LocalTensor<float> t = ub.Alloc<float>(2 * 16); SetPadValue(9.0f);
  DataCopyPad(t, xg, DataCopyExtParams{2, 13 * 4, 0, 0, 0}, DataCopyPadExtParams<float>{true, 0, 3, -1.0f});
  SYNC(); ub.Out(z, t, 32);"""
    r = kernel(body, {"x": x}, {"z": ("float32", (2, 16))}, prelude=UB_HELPERS).ok()
    expect = np.full((2, 16), -1.0, np.float32)
    expect[:, :13] = x.reshape(2, 13)
    np.testing.assert_array_equal(r.outputs["z"], expect)


def test_transpose_16x16_half_in_place_and_out_of_place(kernel):
    x = (np.arange(512) % 97 - 48).astype(np.float16)
    body = """Ub ub; LocalTensor<half> a = ub.In<half>(x, 512), o = ub.Alloc<half>(512); SYNC();
  Transpose(o, a); Transpose(a[256], a[256]); SYNC();
  ub.Out(z, o, 256); GlobalTensor<half> zg; zg.SetGlobalBuffer((__gm__ half*)z + 256, 256); DataCopy(zg, a[256], 256);"""
    r = kernel(body, {"x": x}, {"z": ("float16", (512,))}, prelude=UB_HELPERS).ok()
    np.testing.assert_array_equal(r.outputs["z"][:256].reshape(16, 16), x[:256].reshape(16, 16).T)
    np.testing.assert_array_equal(r.outputs["z"][256:].reshape(16, 16), x[256:].reshape(16, 16).T)


def test_transpose_needs_a_full_matrix(kernel):
    body = "TPipe pipe; TBuf<> b; pipe.InitBuffer(b, 1024); LocalTensor<half> t = b.Get<half>(128); Transpose(t, b.Get<half>());"
    r = kernel(body, {"x": np.zeros(8, np.float32)}, {"z": ("float32", (8,))})
    assert r.status == "RUNTIME_ERROR" and "Transpose: needs 256 elements" in r.message and "dst has 128" in r.message


def test_fetch_event_id_template_form_and_pool(kernel):
    body = """TPipe pipe; GlobalTensor<int32_t> zg; zg.SetGlobalBuffer((__gm__ int32_t*)z, 8);
  int8_t first = pipe.FetchEventID<HardEvent::V_MTE3>();
  int8_t a = pipe.AllocEventID<HardEvent::V_MTE3>(), b = pipe.AllocEventID<HardEvent::V_MTE3>();
  int8_t next = GetTPipePtr()->FetchEventID<HardEvent::V_MTE3>();
  pipe.ReleaseEventID<HardEvent::V_MTE3>(a);
  zg.SetValue(0, first); zg.SetValue(1, a); zg.SetValue(2, b); zg.SetValue(3, next);
  zg.SetValue(4, pipe.FetchEventID(HardEvent::V_MTE3)); zg.SetValue(5, pipe.FetchEventID<HardEvent::MTE2_V>());"""
    r = kernel(body, {"x": np.zeros(8, np.float32)}, {"z": ("int32", (8,))}).ok()
    assert list(r.outputs["z"][:6]) == [0, 0, 1, 2, 0, 0]


def test_cumsum_default_config_writes_the_last_row(kernel):
    x = np.random.default_rng(3).uniform(-1, 1, (4, 16)).astype(np.float32)
    body = """Ub ub; LocalTensor<float> a = ub.In<float>(x, 64), o = ub.Alloc<float>(64), last = ub.Alloc<float>(16); SYNC();
  CumSum<float>(o, last, a, CumSumInfo{4, 16}); SYNC();
  ub.Out(z, o, 64); GlobalTensor<float> lg; lg.SetGlobalBuffer((__gm__ float*)z + 64, 16); DataCopy(lg, last, 16);"""
    r = kernel(body, {"x": x}, {"z": ("float32", (80,))}, prelude=UB_HELPERS).ok()
    expect = np.cumsum(x, axis=1)
    np.testing.assert_allclose(r.outputs["z"][:64].reshape(4, 16), expect, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(r.outputs["z"][64:], expect[-1], rtol=1e-6, atol=1e-6)


def test_dump_tensor_runs_and_checks_its_range(kernel):
    x = np.arange(8, dtype=np.float32)
    body = """Ub ub; LocalTensor<float> a = ub.In<float>(x, 8); SYNC(); DumpTensor(a, 7, 8);
  GlobalTensor<float> xg; xg.SetGlobalBuffer((__gm__ float*)x, 8); DumpTensor(xg, 9, 4); ub.Out(z, a, 8);"""
    r = kernel(body, {"x": x}, {"z": ("float32", (8,))}, prelude=UB_HELPERS).ok()
    np.testing.assert_array_equal(r.outputs["z"], x)
    r = kernel("Ub ub; LocalTensor<float> a = ub.Alloc<float>(8); DumpTensor(a, 1, 9);", {"x": x}, {"z": ("float32", (8,))},
               prelude=UB_HELPERS)
    assert r.status == "RUNTIME_ERROR" and "DumpTensor of 9 elements from a 8-element tensor" in r.message


def test_reserve_local_memory_shrinks_the_ub_the_tiling_sees(kernel):
    host = HOST.replace("t.set_p(p);", """platform_ascendc::PlatformAscendC plat(ctx->GetPlatformInfo());
  uint64_t before = 0, after = 0;
  plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, before);
  plat.ReserveLocalMemory(platform_ascendc::ReservedSize::RESERVED_SIZE_16K);
  plat.GetCoreMemSize(platform_ascendc::CoreMemType::UB, after);
  p[0] = before; p[1] = after;
  t.set_p(p);""")
    body = """GET_TILING_DATA(t, tiling); GlobalTensor<int64_t> zg; zg.SetGlobalBuffer((__gm__ int64_t*)z, 4);
  zg.SetValue(0, t.p[0]); zg.SetValue(1, t.p[1]);"""
    r = kernel(body, {"x": np.zeros(8, np.float32)}, {"z": ("int64", (4,))}, host=host).ok()
    assert list(r.outputs["z"][:2]) == [196352, 196352 - 16384]


def test_assert_after_an_expression_compiles_and_still_checks(kernel):
    # The official op template writes `this->tileNum = tileNum ASSERT(tileNum != 0 && "...");` with no
    # semicolon, which compiles on the device because ASSERT is empty there.
    body = """GlobalTensor<int32_t> zg; zg.SetGlobalBuffer((__gm__ int32_t*)z, 8);
  int32_t n = 0; int32_t tiles = 3;
  n = tiles ASSERT(tiles != 0 && "tile num can not be zero!");
  zg.SetValue(0, n);
  ASSERT(n == {expect});"""
    r = kernel(body.replace("{expect}", "3"), {"x": np.zeros(8, np.float32)}, {"z": ("int32", (8,))}).ok()
    assert r.outputs["z"][0] == 3
    r = kernel(body.replace("{expect}", "4"), {"x": np.zeros(8, np.float32)}, {"z": ("int32", (8,))})
    assert r.status == "RUNTIME_ERROR" and "ASSERT(n == 4) failed" in r.message


def test_cce_block_intrinsics_and_stride_constants(kernel):
    body = """GlobalTensor<int32_t> zg; zg.SetGlobalBuffer((__gm__ int32_t*)z, 8 * 4);
  int64_t b = get_block_idx();
  zg.SetValue(b * 4 + 0, (int32_t)get_block_num()); zg.SetValue(b * 4 + 1, (int32_t)get_subblockid());
  zg.SetValue(b * 4 + 2, DEFAULT_BLK_STRIDE * 100 + DEFAULT_REPEAT_STRIDE); zg.SetValue(b * 4 + 3, (int32_t)BLOCK_CUBE);"""
    r = kernel(body, {"x": np.zeros(8, np.float32)}, {"z": ("int32", (8, 4))}, block_dim=8).ok()
    assert (r.outputs["z"] == np.array([8, 0, 108, 16])).all()


def test_list_attr_through_get_attr_pointer(kernel):
    # Host code often reads list attrs as GetAttrPointer<gert::ContinuousVector>(i)->GetData().
    host = HOST.replace("const gert::ContinuousVector* params = attrs->GetListInt(0);",
                        "const gert::ContinuousVector* params = attrs->GetAttrPointer<gert::ContinuousVector>(0);")
    body = """GET_TILING_DATA(t, tiling); GlobalTensor<int64_t> zg; zg.SetGlobalBuffer((__gm__ int64_t*)z, 4);
  zg.SetValue(0, t.p[0]); zg.SetValue(1, t.p[1]); zg.SetValue(2, t.p[2]);"""
    r = kernel(body, {"x": np.zeros(8, np.float32)}, {"z": ("int64", (4,))}, params=[7, -3, 11], host=host).ok()
    assert list(r.outputs["z"][:3]) == [7, -3, 11]
