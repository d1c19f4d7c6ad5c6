"""DeepNorm (ascendc_sim/adv_deepnorm.h) against numpy, as asc-devkit's page defines it: LayerNorm of
alpha * x + gx over the first originalHLength of each [B, S, H] row, in float, with mean and rstd
per row; and its host tiling (GetDeepNormMaxMinTmpSize, GetDeepNormTilingInfo)."""

import numpy as np
from conftest import UB_HELPERS, tiling_words

B, S, H, OH = 2, 3, 32, 30
ALPHA, EPS = 0.5, 1e-5


def deep_norm(x, gx, gamma, beta):
    x1 = (ALPHA * x + gx)[..., :OH].astype(np.float64)
    mean = x1.mean(axis=-1, keepdims=True)
    rstd = 1 / np.sqrt(((x1 - mean) ** 2).mean(axis=-1, keepdims=True) + EPS)
    return (x1 - mean) * rstd * gamma[:OH] + beta[:OH], mean[..., 0], rstd[..., 0]


def kernel_body(t: str) -> str:
    n = B * S * H
    return f"""Ub ub;
  LocalTensor<{t}> x = ub.In<{t}>(xx, {n}), gx = ub.In<{t}>(gxx, {n});
  LocalTensor<{t}> g = ub.In<{t}>(gx2, {H}), b = ub.In<{t}>(bx, {H});
  LocalTensor<{t}> y = ub.Alloc<{t}>({n}), st = ub.Alloc<{t}>(2 * 16);
  LocalTensor<uint8_t> tmp = ub.Alloc<uint8_t>(8192); SYNC();
  DeepNormTiling t{{}};
  t.bLength = {B}; t.sLength = {S}; t.hLength = {H}; t.originalHLength = {OH};
  t.lastDimValueBack = 1.0f / {OH};
  DeepNorm<{t}, false, false>(y, st, st[16], x, gx, b, g, tmp, static_cast<{t}>({ALPHA}f),
                              static_cast<{t}>({EPS}f), t);
  SYNC(); ub.Out(z, y, {n}); ub.Out(s, st, 32);"""


def run(kernel, dtype: str, rtol: float):
    rng = np.random.default_rng(41)
    x = rng.normal(1, 2, (B, S, H)).astype(dtype)
    gx = rng.normal(0, 1, (B, S, H)).astype(dtype)
    g = rng.uniform(0.5, 2, H).astype(dtype)
    b = rng.uniform(-1, 1, H).astype(dtype)
    t = "float" if dtype == "float32" else "half"
    ins = {"xx": x, "gxx": gx, "gx2": g, "bx": b}
    outs = {"z": (dtype, (B, S, H)), "s": (dtype, (2, 16))}
    r = kernel(kernel_body(t), ins, outs, prelude=UB_HELPERS).ok().outputs
    want, mean, rstd = deep_norm(x.astype(np.float32), gx.astype(np.float32), g, b)
    np.testing.assert_allclose(r["z"][..., :OH].astype(np.float64), want, rtol=rtol, atol=rtol)
    np.testing.assert_allclose(r["s"][0][: B * S], mean.ravel(), rtol=rtol, atol=rtol)
    np.testing.assert_allclose(r["s"][1][: B * S], rstd.ravel(), rtol=rtol)


def test_deep_norm_float(kernel):
    run(kernel, "float32", 1e-5)


def test_deep_norm_half(kernel):
    run(kernel, "float16", 4e-3)


def test_deep_norm_host_tiling(kernel):
    code = """uint32_t mx = 0, mn = 0;
  const ge::Shape s({2, 8, 64}), o({2, 8, 60});
  AscendC::GetDeepNormMaxMinTmpSize(s, 2, false, false, mx, mn); p[0] = mx; p[1] = mn;
  AscendC::GetDeepNormMaxMinTmpSize(s, 4, true, false, mx, mn); p[2] = mx; p[3] = mn;
  optiling::DeepNormTiling dn;
  p[4] = AscendC::GetDeepNormTilingInfo(s, o, 4096, 2, false, false, dn);
  p[5] = dn.get_oneTmpSize() * 1000 + dn.get_loopRound();
  p[6] = dn.get_inputTailSize() * 1000 + dn.get_meanVarTailSize();
  p[7] = AscendC::GetDeepNormTilingInfo(s, o, 256, 2, false, false, dn);"""
    # Three float [B, S, H] buffers (two reusing a float source) and the float mean and variance
    # [16] at the most; one row [64] each at the least. 4096 B is 1024 floats: 2 x 16 for the
    # statistics, then 3 buffers of 5 rows (320 floats) each: 3 rounds and a tail of one row. 256 B
    # holds no row beside the statistics.
    assert tiling_words(kernel, '#include "tiling/tiling_api.h"\n', code) == [
        3 * 4096 + 2 * 64,
        3 * 256 + 2 * 64,
        2 * 4096 + 2 * 64,
        2 * 256 + 2 * 64,
        1,
        320 * 1000 + 3,
        64 * 1000 + 1,
        0,
    ]
