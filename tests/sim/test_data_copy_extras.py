"""DataCopyPad padding through SetPadValue (docs/ascendc.md API 4)."""

import numpy as np
from conftest import UB_HELPERS


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
