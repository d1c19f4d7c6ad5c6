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


def test_a_queue_used_in_place_names_each_hop(kernel):
    # ops-nn relu and swish_v2: one TQueBind<VECIN, VECOUT> buffer per tile, EnQue<GM, VECIN> after
    # the copy in, EnQue<VECOUT, GM> before the copy out; each DeQue waits for its hop's flag.
    x = np.linspace(-2, 2, 256, dtype=np.float32)
    body = """
  TPipe pipe; TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> q; pipe.InitBuffer(q, 2, 512);
  GlobalTensor<float> xg; xg.SetGlobalBuffer((__gm__ float*)x); GlobalTensor<float> yg; yg.SetGlobalBuffer((__gm__ float*)y);
  for (int i = 0; i < 2; ++i) {
    LocalTensor<float> t = q.AllocTensor<float>();
    DataCopy(t, xg[i * 128], 128);
    q.EnQue<TPosition::GM, TPosition::VECIN, float>(t);
    LocalTensor<float> in = q.DeQue<TPosition::GM, TPosition::VECIN, float>();
    Relu(in, in, 128);
    q.EnQue<TPosition::VECOUT, TPosition::GM, float>(in);
    LocalTensor<float> out = q.DeQue<TPosition::VECOUT, TPosition::GM, float>();
    DataCopy(yg[i * 128], out, 128);
    q.FreeTensor(out);
  }
"""
    r = kernel(body, {"x": x}, {"y": ("float32", (256,))}).ok()
    np.testing.assert_array_equal(r.outputs["y"], np.maximum(x, 0))
