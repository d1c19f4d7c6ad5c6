"""Data movement on kernels of our own: the parameter structs with every documented constructor
(asc-devkit kernel_struct_data_copy.h; issue 33 item 6: DataCopyPadExtParams and DataCopyPadParams
built with the four-argument constructor in parentheses, DataCopyParams' srcGap / dstGap names),
Copy with masks and repeat strides, DataCopyPad of zero length and its dummy fill, DataCopy with
SliceInfo, and the library's Impl forms on raw UB pointers."""

import numpy as np
from conftest import UB_HELPERS


def test_data_copy_pad_ext_params_four_argument_constructor(kernel):
    x = np.arange(3 * 13, dtype=np.float32)
    body = """Ub ub; GlobalTensor<float> xg; xg.SetGlobalBuffer((__gm__ float*)x, 39);
  LocalTensor<float> t = ub.Alloc<float>(3 * 16);
  DataCopyExtParams rows(3, 13 * 4, 0, 0, 0);
  DataCopyPadExtParams<float> pad(true, 0, 3, -2.5f);
  DataCopyPad(t, xg, rows, pad);
  SYNC(); ub.Out(z, t, 48);"""
    r = kernel(body, {"x": x}, {"z": ("float32", (3, 16))}, prelude=UB_HELPERS).ok()
    want = np.full((3, 16), -2.5, np.float32)
    want[:, :13] = x.reshape(3, 13)
    np.testing.assert_array_equal(r.outputs["z"], want)


def test_data_copy_pad_params_constructor_and_gap_names(kernel):
    # Legacy DataCopyPad form: DataCopyParams (blockLen in bytes) and DataCopyPadParams(...); the
    # UB->GM copy skips one 32 B block between rows through dstGap.
    x = np.arange(2 * 5, dtype=np.int32)
    body = """Ub ub; GlobalTensor<int32_t> xg, zg; xg.SetGlobalBuffer((__gm__ int32_t*)x, 10);
  zg.SetGlobalBuffer((__gm__ int32_t*)z, 32);
  LocalTensor<int32_t> t = ub.Alloc<int32_t>(2 * 8);
  DataCopyParams in(2, 5 * 4, 0, 0);
  DataCopyPad(t, xg, in, DataCopyPadParams(true, 0, 3, 7));
  SYNC();
  DataCopyParams out; out.blockCount = 2; out.blockLen = 1; out.dstGap = 1;
  ASSERT(out.dstStride == 1 && out.srcGap == 0);
  DataCopy(zg, t, out);"""
    r = kernel(body, {"x": x}, {"z": ("int32", (32,))}, prelude=UB_HELPERS).ok()
    row = lambda i: np.concatenate([x[i * 5 : i * 5 + 5], np.full(3, 7, np.int32)])  # noqa: E731
    np.testing.assert_array_equal(r.outputs["z"][:8], row(0))
    np.testing.assert_array_equal(r.outputs["z"][16:24], row(1))


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


def test_datacopy_with_slice_info_gathers_and_scatters_pieces(kernel):
    x = np.arange(3 * 40, dtype=np.float32).reshape(3, 40)
    body = """Ub ub; LocalTensor<float> t = ub.Alloc<float>(64);
  GlobalTensor<float> xg, zg; xg.SetGlobalBuffer((__gm__ float*)x); zg.SetGlobalBuffer((__gm__ float*)z);
  // rows 0 and 2 of a [3, 40] tensor, elements 4..23 of each in pieces of 8 with a gap of 4
  SliceInfo src[] = {{4, 23, 4, 1, 40}, {0, 2, 1, 1, 3}};
  SliceInfo dst[] = {{0, 15, 0, 1, 16}, {0, 1, 0, 1, 2}};
  DataCopy(t, xg, dst, src, 2);
  SYNC();
  // back out: the two 16-element halves to elements 0..15 and 24..39 of z
  SliceInfo ubs[] = {{0, 31, 0, 2, 32}};
  SliceInfo gms[] = {{0, 39, 8, 2, 40}};
  DataCopy(zg, t, gms, ubs, 1);"""
    r = kernel(body, {"x": x}, {"z": ("float32", (40,))}, prelude=UB_HELPERS).ok()
    pieces = np.concatenate([x[row, s : s + 8] for row in (0, 2) for s in (4, 16)])
    want = np.full(40, np.nan, np.float32)
    want[0:16] = pieces[0:16]
    want[24:40] = pieces[16:32]
    np.testing.assert_array_equal(r.outputs["z"][:16], want[:16])
    np.testing.assert_array_equal(r.outputs["z"][24:], want[24:])


def test_datacopypad_dummy_fill_repeats_the_first_element_without_padding(kernel):
    x = np.arange(1, 11, dtype=np.float32)
    body = """Ub ub; LocalTensor<float> t = ub.Alloc<float>(16);
  GlobalTensor<float> xg; xg.SetGlobalBuffer((__gm__ float*)x);
  Duplicate(t, 0.0f, 16);
  SetFlag<HardEvent::V_MTE2>(0); WaitFlag<HardEvent::V_MTE2>(0);
  // 5 floats per burst, no left/right padding: each row's 32 B tail is the hardware's dummy fill
  DataCopyPad(t, xg, DataCopyExtParams{2, 20, 0, 0, 0}, DataCopyPadExtParams<float>{true, 0, 0, 7.0f});
  SYNC(); ub.Out(z, t, 16);"""
    z = kernel(body, {"x": x}, {"z": ("float32", (16,))}, prelude=UB_HELPERS).ok().outputs["z"]
    np.testing.assert_array_equal(z, [1, 2, 3, 4, 5, 1, 1, 1, 6, 7, 8, 9, 10, 6, 6, 6])
