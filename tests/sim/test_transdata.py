"""TransDataTo5HD (the scatter transpose) on kernels of our own against numpy: the 16-, 32- and
8-bit element layouts, repeats with strides (NCHW -> NC1HWC0), the stride of a single repeat, and
each way of passing the address lists."""

import numpy as np
from conftest import UB_HELPERS


def test_b16_transposes_16_blocks_and_the_list_forms_agree(kernel):
    x = np.arange(256, dtype=np.float16).reshape(16, 16)
    body = """Ub ub; LocalTensor<half> a = ub.In<half>(x, 256), o = ub.Alloc<half>(768);
  LocalTensor<uint64_t> lists = ub.Alloc<uint64_t>(32);
  SYNC();
  TransDataTo5HDParams p(false, false, 1, 0, 0);
  LocalTensor<half> dl[16], sl[16];
  uint64_t du[16], su[16];
  __ubuf__ half* dp[16]; __ubuf__ half* sp[16];
  for (int i = 0; i < 16; ++i) {
    dl[i] = o[16 * i]; sl[i] = a[16 * i];
    du[i] = (uint64_t)o[256 + 16 * i].GetPhyAddr(); su[i] = (uint64_t)a[16 * i].GetPhyAddr();
    dp[i] = (__ubuf__ half*)o[512 + 16 * i].GetPhyAddr(); sp[i] = (__ubuf__ half*)a[16 * i].GetPhyAddr();
  }
  TransDataTo5HD<half>(dl, sl, p);
  TransDataTo5HD<half>(du, su, p);
  TransDataTo5HDImpl(dp, sp, p);
  SYNC(); ub.Out(z, o, 768);"""
    z = (
        kernel(body, {"x": x}, {"z": ("float16", (3, 16, 16))}, prelude=UB_HELPERS)
        .ok()
        .outputs["z"]
    )
    for k in range(3):
        np.testing.assert_array_equal(z[k], x.T)


def test_address_lists_in_the_ub_are_read_by_the_instruction(kernel):
    x = np.arange(256, dtype=np.int16).reshape(16, 16)
    body = """Ub ub; LocalTensor<int16_t> a = ub.In<int16_t>(x, 256), o = ub.Alloc<int16_t>(256);
  LocalTensor<uint64_t> d = ub.Alloc<uint64_t>(16), s = ub.Alloc<uint64_t>(16);
  SYNC();
  for (int i = 0; i < 16; ++i) { d.SetValue(i, (uint64_t)o[16 * i].GetPhyAddr()); s.SetValue(i, (uint64_t)a[16 * i].GetPhyAddr()); }
  SetFlag<HardEvent::S_V>(0); WaitFlag<HardEvent::S_V>(0);
  TransDataTo5HD<int16_t>(d, s, TransDataTo5HDParams(false, false, 1, 0, 0));
  SYNC(); ub.Out(z, o, 256);"""
    z = kernel(body, {"x": x}, {"z": ("int16", (16, 16))}, prelude=UB_HELPERS).ok().outputs["z"]
    np.testing.assert_array_equal(z, x.T)


def test_b32_pairs_destinations_and_repeats_make_nc1hwc0(kernel):
    # 16 channels of an 8 x 4 plane (32 floats, 4 blocks each) to [HW, C0 = 16]: the NCHW -> NC1HWC0
    # recipe (sources a plane apart, destinations consecutive blocks, srcRepStride 1, dstRepStride 16).
    x = np.random.default_rng(0).standard_normal((16, 32)).astype(np.float32)
    body = """Ub ub; LocalTensor<float> a = ub.In<float>(x, 512), o = ub.Alloc<float>(512);
  SYNC();
  uint64_t d[16], s[16];
  for (int i = 0; i < 16; ++i) { d[i] = (uint64_t)o[8 * i].GetPhyAddr(); s[i] = (uint64_t)a[32 * i].GetPhyAddr(); }
  TransDataTo5HD<float>(d, s, TransDataTo5HDParams(false, false, 4, 16, 1));
  SYNC(); ub.Out(z, o, 512);"""
    z = kernel(body, {"x": x}, {"z": ("float32", (32, 16))}, prelude=UB_HELPERS).ok().outputs["z"]
    np.testing.assert_array_equal(z, x.T)


def test_a_single_repeat_steps_by_its_stride_and_b8_fills_half_blocks(kernel):
    x = np.arange(1024, dtype=np.uint8).reshape(32, 32)  # 32 blocks of 32 bytes
    body = """Ub ub; LocalTensor<uint8_t> a = ub.In<uint8_t>(x, 1024), o = ub.Alloc<uint8_t>(1024);
  SYNC();
  Duplicate(o.ReinterpretCast<int16_t>(), (int16_t)0, 512);
  PipeBarrier<PIPE_V>();
  LocalTensor<uint8_t> dl[16], sl[16];
  for (int i = 0; i < 16; ++i) { dl[i] = o[32 * i]; sl[i] = a[32 * i]; }
  TransDataTo5HD<uint8_t>(dl, sl, TransDataTo5HDParams(false, true, 1, 0, 0));   // low half <- bytes 16..31
  TransDataTo5HD<uint8_t>(dl, sl, TransDataTo5HDParams(true, false, 1, 16, 16));  // one repeat, stepped 16 blocks
  SYNC(); ub.Out(z, o, 1024);"""
    z = kernel(body, {"x": x}, {"z": ("uint8", (32, 32))}, prelude=UB_HELPERS).ok().outputs["z"]
    np.testing.assert_array_equal(z[:16, :16], x[:16, 16:].T)
    np.testing.assert_array_equal(z[:16, 16:], 0)
    np.testing.assert_array_equal(z[16:, 16:], x[16:, :16].T)
    np.testing.assert_array_equal(z[16:, :16], 0)
