"""Transpose of one 16 x 16 matrix of 2-byte elements (docs/ascendc.md API 6)."""

import numpy as np
from conftest import UB_HELPERS


def test_transpose_16x16_half_in_place_and_out_of_place(kernel):
    x = (np.arange(512) % 97 - 48).astype(np.float16)
    body = """Ub ub; LocalTensor<half> a = ub.In<half>(x, 512), o = ub.Alloc<half>(512); SYNC();
  Transpose(o, a); Transpose(a[256], a[256]); SYNC();
  ub.Out(z, o, 256); GlobalTensor<half> zg; zg.SetGlobalBuffer((__gm__ half*)z + 256, 256); DataCopy(zg, a[256], 256);"""
    r = kernel(body, {"x": x}, {"z": ("float16", (512,))}, prelude=UB_HELPERS).ok()
    np.testing.assert_array_equal(r.outputs["z"][:256].reshape(16, 16), x[:256].reshape(16, 16).T)
    np.testing.assert_array_equal(r.outputs["z"][256:].reshape(16, 16), x[256:].reshape(16, 16).T)


def test_transpose_needs_a_full_matrix(kernel):
    body = "TPipe pipe; TBuf<> b; pipe.InitBuffer(b, 1024); LocalTensor<half> t = b.Get<half>(128); Transpose(t, b.Get<half>());"
    r = kernel(body, {"x": np.zeros(8, np.float32)}, {"z": ("float32", (8,))})
    assert (
        r.status == "RUNTIME_ERROR"
        and "Transpose: needs 256 elements" in r.message
        and "dst has 128" in r.message
    )
