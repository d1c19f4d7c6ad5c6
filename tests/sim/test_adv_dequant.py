"""AscendDequant (ascendc_sim/adv_quant.h) against numpy: the A2's forms from int32_t (asc-devkit's
page: each row's first calCount multiplied in float by deqScale, the rest of its n cast as they
are, rows padded to 32 bytes of the destination; DEQUANT_WITH_SINGLE_ROW's {1, n, calCount} taken
as n / calCount rows; a uint64_t scale's low 32 bits a float; bfloat16 rounded to nearest even)."""

import numpy as np
from conftest import UB_HELPERS, bf16_bits, bf16_values


def dequant(src: np.ndarray, scale: np.ndarray, cal: int) -> np.ndarray:
    """Rows of src (float32) with their first `cal` columns times scale[:cal]."""
    out = src.astype(np.float32)
    out[:, :cal] *= np.asarray(scale, np.float32)[:cal]
    return out


def test_the_page_example_and_padded_bfloat16_rows(kernel):
    src = np.arange(-16, 16, dtype=np.int32)
    scale = np.array([2.2, -2.2] * 3 + [0, 0], np.float32)
    body = """Ub ub;
  LocalTensor<int32_t> s = ub.In<int32_t>(sx, 32);
  LocalTensor<float> c = ub.In<float>(cx, 8), d = ub.Alloc<float>(32);
  LocalTensor<bfloat16_t> b = ub.Alloc<bfloat16_t>(64);
  LocalTensor<uint8_t> tmp = ub.Alloc<uint8_t>(1024); SYNC();
  Duplicate(b, static_cast<bfloat16_t>(7.0f), 64);
  AscendDequant(d, s, c, tmp, {4, 8, 6});
  AscendDequant(b, s, c, DequantParams{4, 8, 4});
  SYNC(); ub.Out(z, d, 32); ub.Out(zb, b, 64);"""
    outs = {"z": ("float32", (4, 8)), "zb": ("bfloat16", (4, 16))}
    r = kernel(body, {"sx": src, "cx": scale}, outs, prelude=UB_HELPERS).ok().outputs
    want = dequant(src.reshape(4, 8), scale, 6)
    np.testing.assert_array_equal(r["z"], want)
    # The page's printed rows: -16 * 2.2 = -35.2, and the last two columns -10, -9 as they were.
    np.testing.assert_allclose(r["z"][0], [-35.2, 33, -30.8, 28.6, -26.4, 24.2, -10, -9], rtol=1e-6)
    b = bf16_values(r["zb"])
    np.testing.assert_array_equal(
        b[:, :8], bf16_values(bf16_bits(dequant(src.reshape(4, 8), scale, 4)))
    )
    np.testing.assert_array_equal(b[:, 8:], 7.0)  # the padding is not written


def test_scalar_single_and_multi_row_and_uint64_scale(kernel):
    rng = np.random.default_rng(31)
    src = rng.integers(-1000, 1000, 64).astype(np.int32)
    fscale = rng.uniform(-2, 2, 16).astype(np.float32)
    # uint64_t deqScale: the low 32 bits the float, the high ones control bits the API ignores.
    u64 = fscale.view(np.uint32).astype(np.uint64) | (np.uint64(0x5A5A) << np.uint64(32))
    body = """Ub ub;
  LocalTensor<int32_t> s = ub.In<int32_t>(sx, 64);
  LocalTensor<float> d = ub.Alloc<float>(4 * 64);
  LocalTensor<uint64_t> u = ub.In<int64_t>(ux, 16).ReinterpretCast<uint64_t>();
  LocalTensor<half> h = ub.Alloc<half>(64);
  LocalTensor<float> c = ub.In<float>(cx, 16); SYNC();
  AscendDequant(d, s, 0.5f, {1, 64, 16});
  AscendDequant<float, float, DeQuantMode::DEQUANT_WITH_MULTI_ROW>(d[64], s, 0.5f, {1, 64, 16});
  AscendDequant(d[128], s, c, 40u);
  AscendDequant(d[192], s, c);
  AscendDequant(h, s, u, {4, 16, 16});
  SYNC(); ub.Out(z, d, 4 * 64); ub.Out(zh, h, 64);"""
    ins = {"sx": src, "ux": u64.view(np.int64), "cx": fscale}
    outs = {"z": ("float32", (4, 64)), "zh": ("float16", (64,))}
    r = kernel(body, ins, outs, prelude=UB_HELPERS).ok().outputs
    z, rows = r["z"], src.reshape(4, 16)
    # SINGLE_ROW: {1, 64, 16} is {4, 16, 16}, every element halved.
    np.testing.assert_array_equal(z[0], src.astype(np.float32) * 0.5)
    # MULTI_ROW: one row of 64, its first 16 halved.
    np.testing.assert_array_equal(z[1], dequant(src[None], np.full(16, 0.5), 16)[0])
    # A count of 40: rows of the scale's 16, the third row's first 8 only.
    np.testing.assert_array_equal(z[2][:40], dequant(rows, fscale, 16).ravel()[:40])
    np.testing.assert_array_equal(z[3], dequant(rows, fscale, 16).ravel())
    np.testing.assert_array_equal(r["zh"], dequant(rows, fscale, 16).ravel().astype(np.float16))


def test_a_shape_past_the_destination_stops_the_kernel(kernel):
    body = """Ub ub;
  LocalTensor<int32_t> s = ub.Alloc<int32_t>(64);
  LocalTensor<bfloat16_t> b = ub.Alloc<bfloat16_t>(32); SYNC();
  AscendDequant(b, s, 1.0f, {4, 8, 8});"""
    r = kernel(body, {"x": np.zeros(8, np.float32)}, {"z": ("float32", (8,))}, prelude=UB_HELPERS)
    assert r.status == "RUNTIME_ERROR"
    assert "AscendDequant: the destination needs 64 elements, the tensor has 32" in r.message
