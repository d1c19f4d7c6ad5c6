"""Arange (ascendc_sim/adv_arange.h) against its page's formula, dst[i] = firstValue + i * diffValue,
for the A2's types, past one repeat (values exact in each type, so the block-wise Adds agree)."""

import numpy as np
from conftest import UB_HELPERS


def test_arange_float_half_int32_int16(kernel):
    body = """Ub ub;
  LocalTensor<float> f = ub.Alloc<float>(200);
  LocalTensor<half> h = ub.Alloc<half>(144);
  LocalTensor<int32_t> i = ub.Alloc<int32_t>(72);
  LocalTensor<int16_t> s = ub.Alloc<int16_t>(144);
  Arange(f, 0.5f, 0.25f, 200);
  Arange(h, static_cast<half>(-8.0f), static_cast<half>(0.5f), 144);
  Arange(i, static_cast<int32_t>(-30), static_cast<int32_t>(7), 72);
  Arange(s, static_cast<int16_t>(3), static_cast<int16_t>(2), 144);
  SYNC(); ub.Out(zf, f, 200); ub.Out(zh, h, 144); ub.Out(zi, i, 72); ub.Out(zs, s, 144);"""
    outs = {
        "zf": ("float32", (200,)),
        "zh": ("float16", (144,)),
        "zi": ("int32", (72,)),
        "zs": ("int16", (144,)),
    }
    r = kernel(body, {"x": np.zeros(8, np.float32)}, outs, prelude=UB_HELPERS).ok().outputs
    np.testing.assert_array_equal(r["zf"], 0.5 + 0.25 * np.arange(200, dtype=np.float32))
    np.testing.assert_array_equal(r["zh"], (-8.0 + 0.5 * np.arange(144)).astype(np.float16))
    np.testing.assert_array_equal(r["zi"], -30 + 7 * np.arange(72, dtype=np.int32))
    np.testing.assert_array_equal(r["zs"], (3 + 2 * np.arange(144)).astype(np.int16))
