"""Kernel utilities real operators call, on kernels of our own: ArithProgression (built block by
block as the library builds it, so a float sequence carries the additions' rounding),
AscendC::Std, PRINTF, ascendc_assert, the TQue forms that fill a held tensor, and the launch's
parameter block (get_para_base)."""

import numpy as np
from conftest import UB_HELPERS


def test_arith_progression_int_and_float(kernel):
    body = """Ub ub; LocalTensor<int32_t> a = ub.Alloc<int32_t>(200); LocalTensor<float> f = ub.Alloc<float>(200);
  ArithProgression<int32_t>(a, 5, -3, 200);
  ArithProgression<float>(f, 0.1f, 0.3f, 200);
  SYNC(); ub.Out(z, a, 200); ub.Out(w, f, 200);"""
    run = kernel(
        body, {}, {"z": ("int32", (200,)), "w": ("float32", (200,))}, prelude=UB_HELPERS
    ).ok()
    np.testing.assert_array_equal(run.outputs["z"], 5 - 3 * np.arange(200))
    # The library's order: 8 scalar values, 7 blocks added one after another (+ 8 * 0.3 each),
    # then whole repeats (+ 64 * 0.3), each addition rounded to float.
    f32 = np.float32
    want = np.empty(200, f32)
    want[:8] = f32(0.1) + f32(0.3) * np.arange(8, dtype=f32)
    for n in range(8, 64, 8):
        want[n : n + 8] = want[n - 8 : n] + f32(f32(0.3) * f32(8))
    for n in range(64, 200, 64):
        k = min(64, 200 - n)
        want[n : n + k] = want[n - 64 : n - 64 + k] + f32(f32(0.3) * f32(64))
    np.testing.assert_array_equal(run.outputs["w"], want)


def test_std_helpers_and_printf(kernel):
    body = """Ub ub; LocalTensor<int32_t> a = ub.Alloc<int32_t>(8);
  static_assert(Std::is_same<int32_t, int>::value && !AscendC::Std::is_same_v<float, int>, "");
  Duplicate(a, (int32_t)(Std::min(7, 9L) + AscendC::Std::max(2u, 3u)), 8);
  AscendC::PRINTF("progress %d\\n", 1);
  SYNC(); ub.Out(z, a, 8);"""
    run = kernel(body, {}, {"z": ("int32", (8,))}, prelude=UB_HELPERS).ok()
    np.testing.assert_array_equal(run.outputs["z"], 10)


def test_a_failed_ascendc_assert_stops_the_kernel(kernel):
    body = """Ub ub; LocalTensor<int32_t> a = ub.Alloc<int32_t>(8);
  ascendc_assert(GetBlockNum() == 1, "one block");
  ascendc_assert(GetBlockIdx() > 0, "block %d is not first", 0);
  Duplicate(a, 1, 8); SYNC(); ub.Out(z, a, 8);"""
    run = kernel(body, {}, {"z": ("int32", (8,))}, prelude=UB_HELPERS)
    assert run.status == "RUNTIME_ERROR"
    assert "ascendc_assert(GetBlockIdx() > 0) failed" in run.message


def test_que_forms_that_fill_a_tensor_the_caller_holds(kernel):
    x = np.arange(64, dtype=np.float32)
    body = """TPipe pipe; TQue<TPosition::VECIN, 1> q; pipe.InitBuffer(q, 1, 256);
  GlobalTensor<float> gx, gz; gx.SetGlobalBuffer((__gm__ float*)x, 64); gz.SetGlobalBuffer((__gm__ float*)z, 64);
  LocalTensor<float> t;
  q.AllocTensor<float>(t);
  DataCopy(t, gx, 64);
  q.EnQue(t);
  LocalTensor<float> u;
  q.DeQue<float>(u);
  Muls(u, u, 2.0f, 64);
  SetFlag<HardEvent::V_MTE3>(0); WaitFlag<HardEvent::V_MTE3>(0);
  DataCopy(gz, u, 64);
  q.FreeTensor(u);"""
    run = kernel(body, {"x": x}, {"z": ("float32", (64,))}).ok()
    np.testing.assert_array_equal(run.outputs["z"], 2 * x)


def test_para_base_holds_the_arguments_then_the_tiling_data(kernel):
    body = (
        "GlobalTensor<int32_t> zg; zg.SetGlobalBuffer((__gm__ int32_t*)z, 16);\n"
        """GM_ADDR* pb = reinterpret_cast<GM_ADDR*>(get_para_base());
  zg.SetValue(0, pb[0] == x); zg.SetValue(1, pb[1] == z); zg.SetValue(2, pb[2] == workspace);
  zg.SetValue(3, pb[3] == tiling);
  const int64_t* inl = reinterpret_cast<const int64_t*>(pb + 4);  // the tiling data, inline
  for (int i = 0; i < 8; ++i) zg.SetValue(4 + i, static_cast<int32_t>(inl[i]));
  GlobalTensor<float> xg; xg.SetGlobalBuffer((__gm__ float*)pb[0], 8);
  zg.SetValue(12, static_cast<int32_t>(xg.GetValue(3)));"""
    )
    x = np.arange(8, dtype=np.float32) * 10
    r = kernel(
        body, {"x": x}, {"z": ("int32", (16,))}, params=[5, -6, 7, 8, 9, 10, 11, 12], workspace=64
    )
    assert r.ok().outputs["z"][:13].tolist() == [1, 1, 1, 1, 5, -6, 7, 8, 9, 10, 11, 12, 30]
