"""Data movement parameter structs with every documented constructor (asc-devkit
kernel_struct_data_copy.h; issue 33 item 6): DataCopyPadExtParams and DataCopyPadParams built with
the four-argument constructor in parentheses, DataCopyParams' srcGap / dstGap names."""

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
