"""LayerNormGradBeta (ascendc_sim/adv_layernormgradbeta.h) against numpy, as asc-devkit's page defines
it: per column of [B, S, H], pdGamma = sum over the rows of dy * resForGamma and pdBeta = sum of
dy, in float; and its host tiling (GetLayerNormGradBetaMaxMinTmpSize, ...NDTilingInfo)."""

import numpy as np
import pytest
from conftest import UB_HELPERS, tiling_words

B, S, H = 2, 3, 32


@pytest.mark.parametrize(("dtype", "rtol"), [("float32", 1e-5), ("float16", 2e-3)])
def test_layer_norm_grad_beta(kernel, dtype, rtol):
    rng = np.random.default_rng(51)
    dy = rng.normal(0, 1, (B, S, H)).astype(dtype)
    res = rng.normal(0, 1, (B, S, H)).astype(dtype)
    t = "float" if dtype == "float32" else "half"
    n = B * S * H
    body = f"""Ub ub;
  LocalTensor<{t}> dy = ub.In<{t}>(dx, {n}), res = ub.In<{t}>(rx, {n});
  LocalTensor<{t}> o = ub.Alloc<{t}>(2 * {H});
  LocalTensor<uint8_t> tmp = ub.Alloc<uint8_t>(4096); SYNC();
  LayerNormGradBetaTiling t{{}};
  t.bLength = {B}; t.sLength = {S}; t.hLength = {H}; t.originalHLength = {H};
  LayerNormGradBeta<{t}, false>(o, o[{H}], res, dy, tmp, t);
  SYNC(); ub.Out(z, o, 2 * {H});"""
    r = kernel(body, {"dx": dy, "rx": res}, {"z": (dtype, (2, H))}, prelude=UB_HELPERS).ok()
    f = dy.astype(np.float64), res.astype(np.float64)
    z = r.outputs["z"].astype(np.float64)
    np.testing.assert_allclose(z[0], (f[0] * f[1]).sum(axis=(0, 1)), rtol=rtol, atol=rtol)
    np.testing.assert_allclose(z[1], f[0].sum(axis=(0, 1)), rtol=rtol, atol=rtol)


def test_layer_norm_grad_beta_host_tiling(kernel):
    code = """uint32_t mx = 0, mn = 0;
  const ge::Shape s({2, 8, 64, 60});
  AscendC::GetLayerNormGradBetaMaxMinTmpSize(s, 2, false, mx, mn); p[0] = mx; p[1] = mn;
  AscendC::GetLayerNormGradBetaMaxMinTmpSize(s, 4, false, mx, mn); p[2] = mx; p[3] = mn;
  optiling::LayerNormGradBetaTiling gb;
  AscendC::GetLayerNormGradBetaNDTilingInfo(s, 4096, 2, false, gb);
  p[4] = gb.get_oneCalSize() * 1000 + gb.get_loopRound();
  p[5] = gb.get_inputTailSize() * 1000 + gb.get_bsTailSize();
  p[6] = gb.get_resForGammaTmpTensorPos();
  p[7] = gb.get_originalHLength();"""
    # Four float buffers of [B, S, H] (half) or two (float) at the most, of [H] at the least. 4096 B
    # is 1024 floats: two [64] for a half input's gamma and beta, the rest halved (448 floats, 7
    # rows): 2 rounds and a tail of 2 rows; resForGamma's buffer after dy's.
    assert tiling_words(kernel, '#include "tiling/tiling_api.h"\n', code) == [
        4 * 1024 * 4,
        4 * 64 * 4,
        2 * 1024 * 4,
        2 * 64 * 4,
        448 * 1000 + 2,
        128 * 1000 + 2,
        128 + 448,
        60,
    ]
