"""Kernel APIs the hicann/ops-nn experimental losses, norms and pooling operators use: Compares
(the current library's name for CompareScalar)."""

import numpy as np
from conftest import UB_HELPERS


def test_compares_count_and_mask_forms(kernel):
    x = np.random.default_rng(11).integers(-3, 4, 256).astype(np.float32)
    modes = ["LT", "GT", "EQ", "LE", "GE", "NE"]
    body = "Ub ub;\n  LocalTensor<float> a = ub.In<float>(x, 256);\n"
    body += "  LocalTensor<uint8_t> m = ub.Alloc<uint8_t>(8 * 32); SYNC();\n"
    body += "".join(
        f"  Compares(m[{k * 32}], a, 1.0f, CMPMODE::{md}, 256);\n" for k, md in enumerate(modes)
    )
    # The mask-count form over the first 64 lanes of one repeat, then the mask-array form.
    body += "  Compares(m[192], a, 0.0f, CMPMODE::GT, (uint64_t)64, 1, UnaryRepeatParams{1, 1, 8, 8});\n"
    body += "  uint64_t bits[2] = {~0ULL, 0}; Compares(m[224], a, 0.0f, CMPMODE::LT, bits, 1, UnaryRepeatParams{1, 1, 8, 8});\n"
    body += "  SYNC(); ub.Out(mz, m, 256);"
    r = kernel(body, {"x": x}, {"mz": ("uint8", (256,))}, prelude=UB_HELPERS).ok()
    bits = np.unpackbits(r.outputs["mz"], bitorder="little").reshape(8, 256)
    ops = [np.less, np.greater, np.equal, np.less_equal, np.greater_equal, np.not_equal]
    for k, op in enumerate(ops):
        np.testing.assert_array_equal(bits[k], op(x, 1.0), err_msg=modes[k])
    np.testing.assert_array_equal(bits[6][:64], x[:64] > 0)
    np.testing.assert_array_equal(bits[7][:64], x[:64] < 0)
