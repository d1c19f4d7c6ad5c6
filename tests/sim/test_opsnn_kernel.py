"""Kernel-side spellings hicann/ops-nn's operators use (our kernels)."""

import numpy as np


def test_bf16_builtin_names_the_bfloat16_type(kernel):
    # ops-nn gelu and mish pick their bf16 path with std::is_same_v<T, __bf16>.
    body = """
  static_assert(std::is_same_v<bfloat16_t, __bf16>, "__bf16 is bfloat16_t");
  GlobalTensor<__bf16> xg; xg.SetGlobalBuffer((__gm__ __bf16*)x, 8);
  GlobalTensor<float> yg; yg.SetGlobalBuffer((__gm__ float*)y, 8);
  for (int i = 0; i < 8; ++i) yg.SetValue(i, ToFloat(xg.GetValue(i)) * 2.0f);
"""
    bits = (np.arange(8, dtype=np.float32).view(np.uint32) >> 16).astype(np.uint16)
    r = kernel(body, {"x": ("bfloat16", bits)}, {"y": ("float32", (8,))}).ok()
    np.testing.assert_array_equal(r.outputs["y"], np.arange(8, dtype=np.float32) * 2)
