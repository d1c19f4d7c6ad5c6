"""Issue 52's kernel gaps of dev-corpus operators (native engine): `vtranspose`, the 16 x 16 b16
transpose intrinsic; `vand` / `vor` on 16-bit lanes; the CTRL register through `get_ctrl` / `set_ctrl` / `sbitset0` / `sbitset1`
(bits 46, 47 and 51 emulated, a set of any other refused); `CopyRepeatParams`' four-argument
constructor; and the race checker ordering GM at a mode-0 flag barrier as the device does."""

from __future__ import annotations

import numpy as np
import pytest

from tests.sim.test_cce_intrinsics import PRELUDE

H = (np.arange(512) - 256).astype(np.float16) / 4


def test_vtranspose_transposes_16_by_16_halves_in_place_and_apart(kernel):
    body = """__ubuf__ uint16_t* a = Ub<uint16_t>(0); __ubuf__ uint16_t* d = Ub<uint16_t>(1024);
  copy_gm_to_ubuf(a, h, 0, 1, 32, 0, 0);
  MteToV();
  vtranspose(d, a);          // the first 256 halves into d
  vtranspose(a + 256, a + 256);  // the second in place
  VToMte3();
  copy_ubuf_to_gm(z, d, 0, 1, 16, 0, 0);
  copy_ubuf_to_gm((__gm__ uint16_t*)z + 256, a + 256, 0, 1, 16, 0, 0);"""
    r = kernel(body, {"h": H}, {"z": ("float16", (512,))}, prelude=PRELUDE).ok()
    want = np.concatenate([H[:256].reshape(16, 16).T.ravel(), H[256:].reshape(16, 16).T.ravel()])
    np.testing.assert_array_equal(r.outputs["z"], want)


def test_vtranspose_past_the_ub_is_refused(kernel):
    # 128 halves before the UB's end.
    body = "vtranspose(Ub<uint16_t>(0), Ub<uint16_t>(0) + (196608 - 256) / 2);"
    r = kernel(body, {"h": H}, {"z": ("float16", (512,))}, prelude=PRELUDE)
    assert r.status == "RUNTIME_ERROR" and "Transpose" in r.message, r.message


I16 = np.random.default_rng(3).integers(-32768, 32767, 256, dtype=np.int16)


def test_vand_vor_on_int16_lanes_under_the_mask(kernel):
    # add_layer_norm's use: a repeat of 128 lanes, src1's repeat stride 0 (one row for every repeat).
    body = """__ubuf__ int16_t* a = Ub<int16_t>(0); __ubuf__ int16_t* m = Ub<int16_t>(512); __ubuf__ int16_t* d = Ub<int16_t>(1024);
  copy_gm_to_ubuf(a, h, 0, 1, 16, 0, 0);
  MteToV();
  set_mask_norm(); set_vector_mask(~0ull, ~0ull);
  vector_dup(m, (int16_t)0x0F0F, 1, 1, 1, 8, 0);
  pipe_barrier(PIPE_V);
  vor(d, a, m, 1, 1, 1, 1, 8, 8, 0);
  vand(d + 128, a + 128, m, 1, 1, 1, 1, 8, 8, 0);
  VToMte3(); copy_ubuf_to_gm(z, d, 0, 1, 16, 0, 0);"""
    r = kernel(body, {"h": I16}, {"z": ("int16", (256,))}, prelude=PRELUDE).ok()
    want = np.concatenate([I16[:128] | np.int16(0x0F0F), I16[128:] & np.int16(0x0F0F)])
    np.testing.assert_array_equal(r.outputs["z"], want)


# The CTRL value a kernel reads back after each change, into z's words.
CTRL = """GlobalTensor<int64_t> zg; zg.SetGlobalBuffer((__gm__ int64_t*)z, 4);
  zg.SetValue(0, get_ctrl());
  set_ctrl(sbitset1(get_ctrl(), 51));
  zg.SetValue(1, get_ctrl());
  SetHF32Mode(true);
  zg.SetValue(2, get_ctrl());
  set_ctrl(sbitset0(sbitset0(get_ctrl(), 51), 46));
  zg.SetValue(3, get_ctrl());"""


def test_ctrl_holds_the_mmad_direction_and_the_hf32_bits(kernel):
    r = kernel(CTRL, {"x": np.zeros(8, np.float32)}, {"z": ("int64", (4,))}).ok()
    assert [int(v) for v in r.outputs["z"]] == [0, 1 << 51, (1 << 51) | (1 << 46), 0]


@pytest.mark.parametrize("bit", [48, 59])
def test_a_ctrl_bit_not_emulated_is_refused_by_name(kernel, bit):
    body = f"set_ctrl(sbitset1(get_ctrl(), {bit}));"
    r = kernel(body, {"x": np.zeros(8, np.float32)}, {"z": ("int64", (4,))})
    assert r.status == "RUNTIME_ERROR" and f"CTRL bit {bit} is not emulated" in r.message, r.message


def test_copy_repeat_params_by_its_constructor(kernel):
    body = """__ubuf__ float* a = Ub<float>(0); __ubuf__ float* d = Ub<float>(2048);
  copy_gm_to_ubuf(a, x, 0, 1, 64, 0, 0);
  MteToV();
  const CopyRepeatParams para(1, 1, 8, 8);
  LocalTensor<float> src(TPosition::VECCALC, 0, 512), dst(TPosition::VECCALC, 2048, 512);
  Copy(dst, src, 64, 8, para);
  VToMte3(); copy_ubuf_to_gm(z, d, 0, 1, 64, 0, 0);"""
    x = np.arange(512, dtype=np.float32)
    r = kernel(body, {"x": x}, {"z": ("float32", (512,))}, prelude=PRELUDE).ok()
    np.testing.assert_array_equal(r.outputs["z"], x)


# Each block writes its part of y, meets the others at the mode-0 barrier (the A2 SyncAll's set and
# wait), then copies the next block's part into the second half of y. LATE runs between a block's
# set and its wait: what it writes is not ordered before the other blocks' reads after theirs.
NEIGHBOUR = """
    GlobalTensor<float> gx, gy;
    gx.SetGlobalBuffer((__gm__ float*)x); gy.SetGlobalBuffer((__gm__ float*)y);
    TPipe pipe; TBuf<> ub; pipe.InitBuffer(ub, 256);
    LocalTensor<float> t = ub.Get<float>();
    const int b = GetBlockIdx(), n = GetBlockNum();
    DataCopy(t, gx[b * 64], 64);
    SetFlag<HardEvent::MTE2_MTE3>(0); WaitFlag<HardEvent::MTE2_MTE3>(0);
    DataCopy(gy[b * 64], t, 64);
    ffts_cross_core_sync(PIPE_MTE3, GetffstMsg(0, SYNC_AIV_ONLY_ALL));
    LATE
    wait_flag_dev(SYNC_AIV_ONLY_ALL);
    SetFlag<HardEvent::MTE3_MTE2>(0); WaitFlag<HardEvent::MTE3_MTE2>(0);
    DataCopy(t, gy[(b + 1) % n * 64], 64);
    SetFlag<HardEvent::MTE2_MTE3>(0); WaitFlag<HardEvent::MTE2_MTE3>(0);
    DataCopy(gy[(n + b) * 64], t, 64);
    """
LATE_WRITE = """SetFlag<HardEvent::MTE3_V>(0); WaitFlag<HardEvent::MTE3_V>(0);
    Duplicate(t, 1.0f, 64);
    SetFlag<HardEvent::V_MTE3>(0); WaitFlag<HardEvent::V_MTE3>(0);
    DataCopy(gy[b * 64], t, 64);"""


def test_the_mode_0_barrier_orders_each_block_before_the_others(kernel):
    x = np.arange(4 * 64, dtype=np.float32)
    run = kernel(
        NEIGHBOUR.replace("LATE", ""), {"x": x}, {"y": ("float32", (8 * 64,))}, block_dim=4
    ).ok()
    np.testing.assert_array_equal(run.outputs["y"], np.concatenate([x, np.roll(x, -64)]))


def test_a_write_after_the_set_is_not_ordered_by_the_barrier(kernel):
    x = np.arange(4 * 64, dtype=np.float32)
    run = kernel(
        NEIGHBOUR.replace("LATE", LATE_WRITE), {"x": x}, {"y": ("float32", (8 * 64,))}, block_dim=4
    )
    assert run.status == "RACE_DETECTED" and "cross-core GM race" in run.message, run.message
