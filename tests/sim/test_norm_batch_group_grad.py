"""BatchNorm, GroupNorm and LayerNormGrad (ascendc_sim/adv_batchnorm.h, adv_groupnorm.h,
adv_layernormgrad.h) against numpy as asc-devkit's pages define them, their host tiling helpers,
and the documented minimum of their sharedTmpBuffer (norm_tmp_sizes.h): less stops the kernel."""

import numpy as np
import pytest
from conftest import UB_HELPERS, tiling_words

TOL = {"float32": 1e-4, "float16": 3e-3}


def ctype(dtype: str) -> str:
    return "float" if dtype == "float32" else "half"


def test_batch_norm_matches_the_pages_example(kernel):
    """The page's example: x = arange(64) as [8, 4, 2], gamma = beta = arange(8): mean 28..35,
    variance 336, rows 1, 2 and 7 are -0.091073155, 0.6907122 and 17.692516 throughout (its
    epsilon, not shown, is 0.01: 1e-5 gives -0.0910894)."""
    body = """Ub ub;
  LocalTensor<float> x = ub.In<float>(xs, 64), gb = ub.In<float>(gs, 16);
  LocalTensor<float> o = ub.Alloc<float>(80);
  LocalTensor<uint8_t> tmp = ub.Alloc<uint8_t>(4096); SYNC();
  BatchNormTiling t{};
  t.originalBLength = 8; t.meanVarSize = 8; t.firstDimValueBack = 1.0f / 8;
  BatchNorm<float, false, false>(o, o[64], o[72], x, gb, gb[8], tmp, 0.01f, t);
  SYNC(); ub.Out(z, o, 80);"""
    x = np.arange(64, dtype=np.float32)
    g = np.concatenate([np.arange(8), np.arange(8)]).astype(np.float32)
    r = kernel(body, {"xs": x, "gs": g}, {"z": ("float32", (80,))}, prelude=UB_HELPERS).ok()
    z = r.outputs["z"]
    np.testing.assert_allclose(z[64:72], np.arange(28, 36), rtol=1e-6)
    np.testing.assert_allclose(z[72:80], np.full(8, 336.0), rtol=1e-6)
    for row, value in [(1, -0.091073155), (2, 0.6907122), (7, 17.692516)]:
        np.testing.assert_allclose(z[8 * row : 8 * row + 8], np.full(8, value), rtol=1e-6)


@pytest.mark.parametrize("dtype", ["float32", "float16"])
def test_batch_norm_against_numpy(kernel, dtype):
    rng = np.random.default_rng(7)
    b, sh = 4, 32
    x = rng.normal(1, 2, (b, sh)).astype(dtype)
    gb = rng.normal(0, 1, 2 * b).astype(dtype)
    t = ctype(dtype)
    body = f"""Ub ub;
  LocalTensor<{t}> x = ub.In<{t}>(xs, {b * sh}), gb = ub.In<{t}>(gs, 32);
  LocalTensor<{t}> o = ub.Alloc<{t}>({b * sh + 2 * sh});
  LocalTensor<uint8_t> tmp = ub.Alloc<uint8_t>(4096); SYNC();
  BatchNormTiling t{{}};
  t.originalBLength = {b}; t.meanVarSize = {sh}; t.firstDimValueBack = 1.0f / {b};
  BatchNorm<{t}, false, false>(o, o[{b * sh}], o[{b * sh + sh}], x, gb, gb[16], tmp, ({t})1e-5f, t);
  SYNC(); ub.Out(z, o, {b * sh + 2 * sh});"""
    gpad = np.zeros(32, dtype)
    gpad[:b], gpad[16 : 16 + b] = gb[:b], gb[b:]
    r = kernel(
        body, {"xs": x.ravel(), "gs": gpad}, {"z": (dtype, (b * sh + 2 * sh,))}, prelude=UB_HELPERS
    ).ok()
    f = x.astype(np.float64)
    mean, var = f.mean(axis=0), f.var(axis=0)
    want = (f - mean) / np.sqrt(var + 1e-5) * gb[:b, None].astype(np.float64) + gb[b:, None].astype(
        np.float64
    )
    z = r.outputs["z"].astype(np.float64)
    np.testing.assert_allclose(z[: b * sh], want.ravel(), rtol=TOL[dtype], atol=TOL[dtype] * 4)
    np.testing.assert_allclose(z[b * sh : b * sh + sh], mean, rtol=TOL[dtype], atol=TOL[dtype])
    np.testing.assert_allclose(z[b * sh + sh :], var, rtol=TOL[dtype] * 2, atol=TOL[dtype])


@pytest.mark.parametrize("dtype", ["float32", "float16"])
def test_group_norm_against_numpy(kernel, dtype):
    """[N, C, H, W] = [2, 4, 3, 5] in 2 groups; each channel's 15 elements padded to 16 (half) or
    16 (float, 64 B) in the UB, the padding left alone."""
    rng = np.random.default_rng(11)
    n, c, h, w, g = 2, 4, 3, 5, 2
    hw, hwa = h * w, 16
    x = rng.normal(0.5, 1.5, (n, c, hw)).astype(dtype)
    xpad = np.full((n, c, hwa), 7, dtype)
    xpad[..., :hw] = x
    gamma, beta = rng.normal(1, 0.5, c).astype(dtype), rng.normal(0, 0.5, c).astype(dtype)
    params = np.zeros(32, dtype)
    params[:c], params[16 : 16 + c] = gamma, beta
    t = ctype(dtype)
    total = n * c * hwa
    body = f"""Ub ub;
  LocalTensor<{t}> x = ub.In<{t}>(xs, {total}), pr = ub.In<{t}>(ps, 32);
  LocalTensor<{t}> o = ub.Alloc<{t}>({total + 32});
  LocalTensor<uint8_t> tmp = ub.Alloc<uint8_t>(8192); SYNC();
  Duplicate(o, ({t})7.0f, {total}); SYNC();
  GroupNormTiling t{{}};
  t.n = {n}; t.c = {c}; t.hw = {hw}; t.g = {g}; t.d = {c // g}; t.hwAlignSize = {hwa};
  t.factor = 1.0f / {c // g * hw};
  GroupNorm<{t}, false>(o, o[{total}], o[{total + 16}], x, pr, pr[16], tmp, ({t})1e-5f, t);
  SYNC(); ub.Out(z, o, {total + 32});"""
    r = kernel(
        body, {"xs": xpad.ravel(), "ps": params}, {"z": (dtype, (total + 32,))}, prelude=UB_HELPERS
    ).ok()
    f = x.astype(np.float64).reshape(n, g, -1)
    mean, var = f.mean(axis=2), f.var(axis=2)
    norm = ((f - mean[..., None]) / np.sqrt(var[..., None] + 1e-5)).reshape(n, c, hw)
    want = norm * gamma.astype(np.float64)[None, :, None] + beta.astype(np.float64)[None, :, None]
    z = r.outputs["z"].astype(np.float64)
    out = z[:total].reshape(n, c, hwa)
    np.testing.assert_allclose(out[..., :hw], want, rtol=TOL[dtype], atol=TOL[dtype] * 4)
    assert (out[..., hw:] == 7).all()  # the padding is left as it was
    np.testing.assert_allclose(
        z[total : total + n * g], mean.ravel(), rtol=TOL[dtype], atol=TOL[dtype]
    )
    np.testing.assert_allclose(
        z[total + 16 : total + 16 + n * g], var.ravel(), rtol=TOL[dtype] * 2, atol=TOL[dtype]
    )


def layer_norm_grad_reference(dy, x, var, mean, gamma, eps, oh):
    x1 = dy * gamma
    x2 = x - mean[:, None]
    rstd = (var + eps)[:, None] ** -0.5
    pd_var = (-0.5 * x1 * x2 * rstd**3).sum(axis=1, keepdims=True)
    pd_mean = (-x1 * rstd).sum(axis=1, keepdims=True) + pd_var / oh * (-2.0 * x2).sum(
        axis=1, keepdims=True
    )
    return x1 * rstd + pd_var * 2.0 / oh * x2 + pd_mean / oh, x2 * rstd


@pytest.mark.parametrize("dtype", ["float32", "float16"])
def test_layer_norm_grad_against_numpy(kernel, dtype):
    """[B, S, H] = [2, 4, 32]: the page's formulas, the statistics from the data; the pdX of a row is
    also the gradient of LayerNorm's (x - mean) * rstd * gamma summed against dy."""
    rng = np.random.default_rng(23)
    b, s, h = 2, 4, 32
    rows = b * s
    x = rng.normal(0, 1, (rows, h)).astype(dtype)
    dy = rng.normal(0, 1, (rows, h)).astype(dtype)
    gamma = rng.normal(1, 0.3, h).astype(dtype)
    f = x.astype(np.float64)
    mean, var = f.mean(axis=1).astype(dtype), f.var(axis=1).astype(dtype)
    stats = np.zeros(32, dtype)
    stats[:rows], stats[16 : 16 + rows] = var, mean
    t = ctype(dtype)
    n = rows * h
    body = f"""Ub ub;
  LocalTensor<{t}> dy = ub.In<{t}>(ds, {n}), x = ub.In<{t}>(xs, {n}), st = ub.In<{t}>(ss, 32);
  LocalTensor<{t}> ga = ub.In<{t}>(gs, {h});
  LocalTensor<{t}> o = ub.Alloc<{t}>({2 * n});
  LocalTensor<uint8_t> tmp = ub.Alloc<uint8_t>(40960); SYNC();
  LayerNormGradTiling t{{}};
  t.bLength = {b}; t.sLength = {s}; t.hLength = {h}; t.originalHLength = {h};
  const float rec = 1.0f / {h}, rec2 = 2.0f / {h};
  memcpy(&t.lastDimValueBack, &rec, 4); memcpy(&t.lastDimValueBackMulTwo, &rec2, 4);
  LayerNormGrad<{t}, false>(o, o[{n}], dy, x, st, st[16], ga, tmp, ({t})1e-5f, t);
  SYNC(); ub.Out(z, o, {2 * n});"""
    inputs = {"ds": dy.ravel(), "xs": x.ravel(), "ss": stats, "gs": gamma}
    r = kernel(
        body, inputs, {"z": (dtype, (2 * n,))}, prelude="#include <cstring>\n" + UB_HELPERS
    ).ok()
    pdx, res = layer_norm_grad_reference(
        dy.astype(np.float64),
        f,
        var.astype(np.float64),
        mean.astype(np.float64),
        gamma.astype(np.float64),
        1e-5,
        h,
    )
    z = r.outputs["z"].astype(np.float64)
    tol = TOL[dtype] * (10 if dtype == "float16" else 1)
    np.testing.assert_allclose(z[:n], pdx.ravel(), rtol=tol, atol=tol)
    np.testing.assert_allclose(z[n:], res.ravel(), rtol=tol, atol=tol)


def test_a_tmp_buffer_under_the_documented_minimum_stops_the_kernel(kernel):
    """BatchNorm [8, 1, 8] in float needs 3 x 8 x 32 + 2 x 32 = 832 B (GetBatchNormMaxMinTmpSize)."""
    body = """Ub ub;
  LocalTensor<float> x = ub.Alloc<float>(64), gb = ub.Alloc<float>(16), o = ub.Alloc<float>(80);
  LocalTensor<uint8_t> tmp = ub.Alloc<uint8_t>(512);
  Duplicate(x, 1.0f, 64); Duplicate(gb, 1.0f, 16); SYNC();
  BatchNormTiling t{};
  t.originalBLength = 8; t.meanVarSize = 8; t.firstDimValueBack = 1.0f / 8;
  BatchNorm<float, false, false>(o, o[64], o[72], x, gb, gb[8], tmp, 1e-5f, t);
  SYNC(); ub.Out(z, o, 80);"""
    r = kernel(body, {"xs": np.zeros(8, np.float32)}, {"z": ("float32", (80,))}, prelude=UB_HELPERS)
    assert r.status == "RUNTIME_ERROR", r.message
    assert (
        "BatchNorm: the sharedTmpBuffer holds 512 bytes, under the minimum of 832 bytes"
        in r.message
    )
    assert "GetBatchNormMaxMinTmpSize" in r.message


def test_norm_host_tiling(kernel):
    code = """uint32_t mx = 0, mn = 0;
  const AscendC::TensorShape bs({8, 4, 2});
  AscendC::GetBatchNormMaxMinTmpSize(bs, bs, 4, false, mx, mn); p[0] = mx; p[1] = mn;
  optiling::BatchNormTiling bt;
  p[2] = AscendC::GetBatchNormNDTilingInfo(bs, bs, mn, 4, false, bt) * 1000 + bt.get_oneTmpSize();
  p[3] = bt.get_loopRound() * 1000 + bt.get_shCurLength();
  const ge::Shape gs({2, 4, 3, 5});
  AscendC::GetGroupNormMaxMinTmpSize(gs, 2, false, 2, mx, mn); p[4] = mx * 100000 + mn;
  optiling::GroupNormTiling gt;
  AscendC::GetGroupNormNDTilingInfo(gs, mn, 2, false, 2, gt);
  p[5] = gt.get_hwAlignSize() * 1000 + gt.get_bsCurLength();
  const ge::Shape ls({2, 32, 16, 16});
  AscendC::GetLayerNormGradMaxMinTmpSize(ls, 4, false, mx, mn); p[6] = mx * 100000 + mn;
  optiling::LayerNormGradTiling lt;
  AscendC::GetLayerNormGradNDTilingInfo(ls, mn, 4, false, lt);
  p[7] = lt.get_oneCalSize() * 1000 + lt.get_loopNum();"""
    # BatchNorm [8, 4, 2] float: three buffers of the 256 B input and 2 x 32 B of statistics at the
    # most, 3 x 8 x 32 + 64 at the least (the same here); those 208 floats make three buffers of 64
    # (8 rows of 8 columns): one round.
    # GroupNorm [2, 4, 3, 5] half in 2 groups: channels of 16 floats (64 B), 3 x 8 x 64 + 2 x 32 at
    # the most, 3 x 2 x 64 + 64 at the least (one group a round, of 2 x 16).
    # LayerNormGrad [2, 32, 16] float: six buffers of max/min(1024, 256) floats; the minimum makes
    # buffers of 256 floats, 16 rows (rounded to blocks of 8): 4 rounds.
    assert tiling_words(kernel, '#include "tiling/tiling_api.h"\n', code) == [
        3 * 256 + 64,
        3 * 8 * 32 + 64,
        1000 + 64,
        1000 + 8,
        (3 * 8 * 64 + 64) * 100000 + 3 * 2 * 64 + 64,
        16 * 1000 + 1,
        (6 * 1024 * 4) * 100000 + 6 * 256 * 4,
        256 * 1000 + 4,
    ]
