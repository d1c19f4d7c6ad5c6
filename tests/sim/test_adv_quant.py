"""AscendQuant and AscendAntiQuant (ascendc_sim/adv_quant.h) against numpy: the A2's int8 forms,
PER_TENSOR and PER_CHANNEL, computed in half as the library computes them (asc-devkit's pages:
dst = round(src * scale + offset), round half to even, saturated; dst = scale * (src + offset)
with per-channel groups, transposed or not)."""

import numpy as np
from conftest import UB_HELPERS, bf16_values

N = 256
H = np.float16


def quant(x, scale, offset):
    """int8 of half(half(half(x) * half(scale)) + half(offset)), half to even, saturated."""
    t = (x.astype(H) * np.asarray(scale).astype(H)).astype(H)
    t = (t + np.asarray(offset).astype(H)).astype(H)
    return np.clip(np.rint(t.astype(np.float32)), -128, 127).astype(np.int8)


def test_ascend_quant_per_tensor_and_per_channel(kernel):
    rng = np.random.default_rng(21)
    x = rng.uniform(-40, 40, N).astype(np.float32)
    xh = rng.uniform(-40, 40, N).astype(H)
    sc = rng.uniform(0.5, 4, 64).astype(np.float32)
    of = rng.uniform(-8, 8, 64).astype(np.float32)
    body = f"""Ub ub;
  LocalTensor<float> a = ub.In<float>(x, {N}), s = ub.In<float>(sx, 64), o = ub.In<float>(ox, 64);
  LocalTensor<half> ah = ub.In<half>(xh, {N});
  LocalTensor<int8_t> d = ub.Alloc<int8_t>(5 * {N});
  LocalTensor<uint8_t> tmp = ub.Alloc<uint8_t>(4096); SYNC();
  AscendQuant<float>(d, a, tmp, 2.5f, 1.5f, {N});
  AscendQuant<half>(d[{N}], ah, 3.0f, -0.5f);
  AscendQuant<float>(d[2 * {N}], a, s, 2.0f, 64, {N});
  AscendQuant<float>(d[3 * {N}], a, tmp, s, o, 64, 64, {N});
  static constexpr AscendQuantConfig cfg{{128, 0, 0, 0}};
  AscendQuant<float, false, cfg>(d[4 * {N}], a, 0.5f, 0.0f, {N});
  SYNC(); ub.Out(z, d, 5 * {N});"""
    ins = {"x": x, "xh": xh, "sx": sc, "ox": of}
    z = kernel(body, ins, {"z": ("int8", (5, N))}, prelude=UB_HELPERS).ok().outputs["z"]
    np.testing.assert_array_equal(z[0], quant(x, 2.5, 1.5))
    np.testing.assert_array_equal(z[1], quant(xh, 3.0, -0.5))
    np.testing.assert_array_equal(z[2], quant(x, np.tile(sc, 4), 2.0))
    np.testing.assert_array_equal(z[3], quant(x, np.tile(sc, 4), np.tile(of, 4)))
    # The config's calcCount stands for the call's: only the first 128 are written.
    np.testing.assert_array_equal(z[4][:128], quant(x[:128], 0.5, 0.0))


def test_ascend_anti_quant_per_channel_and_per_tensor(kernel):
    rng = np.random.default_rng(22)
    k, n = 64, 32  # src [K, N]; transposed [N, K]
    src = rng.integers(-128, 128, (k, n)).astype(np.int8)
    off = rng.uniform(-4, 4, (2, n)).astype(H)  # 2 groups of 32 rows
    scl = rng.uniform(0.01, 0.2, (2, n)).astype(H)
    off_t = rng.uniform(-4, 4, (n, 2)).astype(H)  # transposed: 2 groups of 32 columns
    scl_t = rng.uniform(0.01, 0.2, (n, 2)).astype(H)
    body = f"""Ub ub;
  LocalTensor<int8_t> s = ub.In<int8_t>(sx, {k * n});
  LocalTensor<half> o = ub.In<half>(ox, {2 * n}), c = ub.In<half>(cx, {2 * n});
  LocalTensor<half> ot = ub.In<half>(otx, {2 * n}), ct = ub.In<half>(ctx, {2 * n});
  LocalTensor<half> d = ub.Alloc<half>(4 * {k * n});
  LocalTensor<uint8_t> tmp = ub.Alloc<uint8_t>(8192); SYNC();
  AscendAntiQuant<int8_t, half, false>(d, s, o, c, tmp, {k});
  AscendAntiQuant<int8_t, half, true>(d[{k * n}], s, ot, ct, {k}, AntiQuantShapeInfo{{0, 2, 0, 2}});
  AscendAntiQuant<int8_t, half, false>(d[2 * {k * n}], s, static_cast<half>(1.5f), static_cast<half>(0.25f), {k});
  AscendAntiQuant<int8_t, half, false>(d[3 * {k * n}], s, c, tmp, {k});
  SYNC(); ub.Out(z, d, 4 * {k * n});"""
    ins = {"sx": src, "ox": off, "cx": scl, "otx": off_t, "ctx": scl_t}
    z = kernel(body, ins, {"z": ("float16", (4, k * n))}, prelude=UB_HELPERS).ok().outputs["z"]
    x = src.astype(H)
    rows = np.repeat(np.arange(2), 32)
    np.testing.assert_array_equal(
        z[0].reshape(k, n), ((x + off[rows]).astype(H) * scl[rows]).astype(H)
    )
    xt = src.reshape(n, k).astype(H)
    want = ((xt + off_t[:, rows]).astype(H) * scl_t[:, rows]).astype(H)
    np.testing.assert_array_equal(z[1].reshape(n, k), want)
    np.testing.assert_array_equal(z[2].reshape(k, n), ((x + H(1.5)).astype(H) * H(0.25)).astype(H))
    np.testing.assert_array_equal(z[3].reshape(k, n), (x * scl[rows]).astype(H))


def test_ascend_anti_quant_to_bfloat16(kernel):
    rng = np.random.default_rng(23)
    k, n = 32, 64
    src = rng.integers(-128, 128, (k, n)).astype(np.int8)
    body = f"""Ub ub;
  LocalTensor<int8_t> s = ub.In<int8_t>(sx, {k * n});
  LocalTensor<bfloat16_t> d = ub.Alloc<bfloat16_t>({k * n}); SYNC();
  AscendAntiQuant<int8_t, bfloat16_t, false>(d, s, static_cast<bfloat16_t>(-3.0f), static_cast<bfloat16_t>(0.125f), {k});
  SYNC(); ub.Out(z, d, {k * n});"""
    z = kernel(body, {"sx": src}, {"z": ("bfloat16", (k * n,))}, prelude=UB_HELPERS).ok()
    np.testing.assert_array_equal(bf16_values(z.outputs["z"]), (src.ravel() - 3.0) * 0.125)
