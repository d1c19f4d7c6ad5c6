"""System values, event ids, ASSERT, DumpTensor and the CCE intrinsics (docs/ascendc.md API 1-3)."""

import numpy as np
from conftest import UB_HELPERS


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


def test_dump_tensor_runs_and_checks_its_range(kernel):
    x = np.arange(8, dtype=np.float32)
    body = """Ub ub; LocalTensor<float> a = ub.In<float>(x, 8); SYNC(); DumpTensor(a, 7, 8);
  GlobalTensor<float> xg; xg.SetGlobalBuffer((__gm__ float*)x, 8); DumpTensor(xg, 9, 4); ub.Out(z, a, 8);"""
    r = kernel(body, {"x": x}, {"z": ("float32", (8,))}, prelude=UB_HELPERS).ok()
    np.testing.assert_array_equal(r.outputs["z"], x)
    # More elements than the tensor holds print the UB after it (the documentation bounds only
    # the printed total): a warning, an error when strict; past the UB an error.
    over = "Ub ub; LocalTensor<float> a = ub.Alloc<float>(8); DumpTensor(a, 1, 9);"
    text = "DumpTensor of 9 elements from a 8-element tensor"
    lax = kernel(over, {"x": x}, {"z": ("float32", (8,))}, prelude=UB_HELPERS, strict=False)
    assert lax.status == "OK" and any(text in w for w in lax.result.get("warnings", []))
    r = kernel(over, {"x": x}, {"z": ("float32", (8,))}, prelude=UB_HELPERS)
    assert r.status == "RUNTIME_ERROR" and text in r.message
    past = "Ub ub; LocalTensor<float> a = ub.Alloc<float>(8); DumpTensor(a, 1, 1 << 20);"
    r = kernel(past, {"x": x}, {"z": ("float32", (8,))}, prelude=UB_HELPERS, strict=False)
    assert r.status == "RUNTIME_ERROR" and "runs past the UB" in r.message, r.message


def test_assert_after_an_expression_compiles_and_still_checks(kernel):
    # The official op template writes `this->tileNum = tileNum ASSERT(tileNum != 0 && "...");` with no
    # semicolon, which compiles on the device because ASSERT is empty there.
    body = """GlobalTensor<int32_t> zg; zg.SetGlobalBuffer((__gm__ int32_t*)z, 8);
  int32_t n = 0; int32_t tiles = 3;
  n = tiles ASSERT(tiles != 0 && "tile num can not be zero!");
  zg.SetValue(0, n);
  ASSERT(n == {expect});"""
    r = kernel(
        body.replace("{expect}", "3"), {"x": np.zeros(8, np.float32)}, {"z": ("int32", (8,))}
    ).ok()
    assert r.outputs["z"][0] == 3
    r = kernel(
        body.replace("{expect}", "4"), {"x": np.zeros(8, np.float32)}, {"z": ("int32", (8,))}
    )
    assert r.status == "RUNTIME_ERROR" and "ASSERT(n == 4) failed" in r.message


def test_cce_block_intrinsics_and_stride_constants(kernel):
    # Each block's scalar stores in a 64 B line of its own (cores write whole cache lines back).
    body = """GlobalTensor<int32_t> zg; zg.SetGlobalBuffer((__gm__ int32_t*)z, 8 * 16);
  int64_t b = get_block_idx();
  zg.SetValue(b * 16 + 0, (int32_t)get_block_num()); zg.SetValue(b * 16 + 1, (int32_t)get_subblockid());
  zg.SetValue(b * 16 + 2, DEFAULT_BLK_STRIDE * 100 + DEFAULT_REPEAT_STRIDE); zg.SetValue(b * 16 + 3, (int32_t)BLOCK_CUBE);"""
    r = kernel(body, {"x": np.zeros(8, np.float32)}, {"z": ("int32", (8, 16))}, block_dim=8).ok()
    assert (r.outputs["z"][:, :4] == np.array([8, 0, 108, 16])).all()


def test_tiling_key_var_is_the_launched_key(kernel):
    body = """GlobalTensor<int32_t> zg; zg.SetGlobalBuffer((__gm__ int32_t*)z, 8);
  int32_t branch = -1;
  if (TILING_KEY_IS(3)) { branch = 30; } else if (TILING_KEY_IS(7)) { branch = 70; }
  switch (TILING_KEY_VAR) { case 7: zg.SetValue(1, 7); break; default: zg.SetValue(1, 0); }
  zg.SetValue(0, branch);"""
    r = kernel(body, {"x": np.zeros(8, np.float32)}, {"z": ("int32", (8,))}, tiling_key=7).ok()
    assert list(r.outputs["z"][:2]) == [70, 7]


def test_scalar_bf16_conversions(kernel):
    body = """GlobalTensor<float> zg; zg.SetGlobalBuffer((__gm__ float*)z, 8);
  bfloat16_t b = ToBfloat16(1.00390625f);  // halfway between two bf16 values: rounds to even (1.0)
  zg.SetValue(0, ToFloat(b)); zg.SetValue(1, ToFloat(ToBfloat16(-3.5f)));"""
    r = kernel(body, {"x": np.zeros(8, np.float32)}, {"z": ("float32", (8,))}).ok()
    assert list(r.outputs["z"][:2]) == [1.0, -3.5]
