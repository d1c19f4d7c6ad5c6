"""The [A, R] normalisations (ascendc_sim/adv_norm_ar.h) against numpy: LayerNorm's form returning
mean and rstd, Normalize, WelfordUpdate and WelfordFinalize, as asc-devkit's pages define them
(float statistics, population variance, rstd = 1 / sqrt(var + eps); Welford's update
mean' = mean + (x - mean) * nRec, M' = M + (x - mean) * (x - mean'))."""

import numpy as np
from conftest import UB_HELPERS

A, R, P = 4, 40, 48  # rows, valid columns, padded pitch (32 B of float and of half)
EPS = 1e-5


def layer_norm(x, gamma, beta):
    mean = x.mean(axis=1, keepdims=True)
    var = ((x - mean) ** 2).mean(axis=1, keepdims=True)
    rstd = 1 / np.sqrt(var + EPS)
    return (x - mean) * rstd * gamma + beta, mean[:, 0], rstd[:, 0], var[:, 0]


def test_layer_norm_rstd_form_and_normalize(kernel):
    rng = np.random.default_rng(31)
    x = rng.normal(2, 3, (A, P)).astype(np.float32)
    g = rng.uniform(0.5, 2, P).astype(np.float32)
    b = rng.uniform(-1, 1, P).astype(np.float32)
    body = f"""Ub ub;
  LocalTensor<float> x = ub.In<float>(xx, {A * P}), g = ub.In<float>(gx, {P}), b = ub.In<float>(bx, {P});
  LocalTensor<float> y = ub.Alloc<float>(2 * {A * P}), st = ub.Alloc<float>(4 * 8);
  LocalTensor<uint8_t> tmp = ub.Alloc<uint8_t>(8192); SYNC();
  Duplicate(y, 7.0f, 2 * {A * P}); SYNC();
  LayerNormPara lp{{{A}, {R}, {P}}};
  LayerNormSeparateTiling t;
  LayerNorm<float, float, false>(y, st, st[8], x, g, b, {EPS}f, tmp, lp, t);
  SYNC();
  NormalizePara np{{{A}, {R}, {P}}};
  Duplicate(st[24], 0.0f, 8); SYNC();
  Normalize<float, float, false, NLCFG_NOBETA>(y[{A * P}], st[16], st, st[24], x, g, b, {EPS}f, np);
  SYNC(); ub.Out(z, y, 2 * {A * P}); ub.Out(s, st, 32);"""
    ins = {"xx": x, "gx": g, "bx": b}
    outs = {"z": ("float32", (2, A, P)), "s": ("float32", (4, 8))}
    r = kernel(body, ins, outs, prelude=UB_HELPERS).ok().outputs
    y, mean, rstd, _ = layer_norm(x[:, :R].astype(np.float64), g[:R], b[:R])
    np.testing.assert_allclose(r["z"][0][:, :R], y, rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(r["z"][0][:, R:], 7.0)  # the padding is left as it was
    np.testing.assert_allclose(r["s"][0][:A], mean, rtol=1e-5)
    np.testing.assert_allclose(r["s"][1][:A], rstd, rtol=1e-5)
    # Normalize from the mean and a variance of 0 without beta: (x - mean) * (1 / sqrt(eps)) * gamma.
    want = (x[:, :R] - mean[:, None]) / np.sqrt(np.float32(EPS)) * g[:R]
    np.testing.assert_allclose(r["z"][1][:, :R], want, rtol=1e-4)
    np.testing.assert_allclose(r["s"][2][:A], 1 / np.sqrt(np.float32(EPS)), rtol=1e-6)


def test_layer_norm_rstd_form_half_input_and_the_variance_output(kernel):
    rng = np.random.default_rng(32)
    x = rng.normal(0, 2, (A, P)).astype(np.float16)
    g = rng.uniform(0.5, 2, P).astype(np.float32)
    b = rng.uniform(-1, 1, P).astype(np.float32)
    body = f"""Ub ub;
  LocalTensor<half> x = ub.In<half>(xx, {A * P});
  LocalTensor<float> g = ub.In<float>(gx, {P}), b = ub.In<float>(bx, {P});
  LocalTensor<half> y = ub.Alloc<half>({A * P});
  LocalTensor<float> st = ub.Alloc<float>(32); SYNC();
  LayerNormPara lp{{{A}, {R}, {P}}};
  LayerNormSeparateTiling t;
  LayerNorm<float, half, false>(y, st, st[8], x, g, b, {EPS}f, lp, t);
  static constexpr LayerNormConfig withVariance{{false, false, false, false}};
  LayerNorm<float, half, false, withVariance>(y, st[16], st[24], x, g, b, {EPS}f, lp, t);
  SYNC(); ub.Out(z, y, {A * P}); ub.Out(s, st, 32);"""
    r = kernel(
        body,
        {"xx": x, "gx": g, "bx": b},
        {"z": ("float16", (A, P)), "s": ("float32", (4, 8))},
        prelude=UB_HELPERS,
    ).ok()
    y, mean, rstd, var = layer_norm(x[:, :R].astype(np.float64), g[:R], b[:R])
    np.testing.assert_allclose(r.outputs["z"][:, :R].astype(np.float64), y, rtol=2e-3, atol=2e-3)
    np.testing.assert_allclose(r.outputs["s"][0][:A], mean, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(r.outputs["s"][1][:A], rstd, rtol=1e-5)
    # Without isOutputRstd the third output is the variance.
    np.testing.assert_allclose(r.outputs["s"][2][:A], mean, rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(r.outputs["s"][3][:A], var, rtol=1e-5)


def welford(chunks, ab):
    """The documented update over k chunks of [1, ab], then the finalize without a tail."""
    mean, m2 = np.zeros(ab, np.float32), np.zeros(ab, np.float32)
    for i, x in enumerate(chunks, 1):
        rec = np.float32(1 / i)
        delta = x - mean
        new = delta * rec + mean
        m2 = (x - new) * delta + m2
        mean = new
    return mean, m2


def test_welford_update_then_finalize_is_the_mean_and_variance(kernel):
    rng = np.random.default_rng(33)
    n, ab = 3, 64
    x = rng.normal(1, 2, (n, ab)).astype(np.float32)
    body = f"""Ub ub;
  LocalTensor<float> x = ub.In<float>(xx, {n * ab});
  LocalTensor<float> m = ub.Alloc<float>({ab}), v = ub.Alloc<float>({ab}), o = ub.Alloc<float>(16);
  LocalTensor<uint8_t> tmp = ub.Alloc<uint8_t>(1024); SYNC();
  Duplicate(m, 0.0f, {ab}); Duplicate(v, 0.0f, {ab}); SYNC();
  for (int i = 0; i < {n}; ++i) {{
    WelfordUpdateParam p{{1, {ab}, {ab}, 1.0f / (i + 1)}};
    WelfordUpdate<float, float, false>(m, v, m, v, x[i * {ab}], tmp, p);
    SYNC();
  }}
  ub.Out(zm, m, {ab}); ub.Out(zv, v, {ab});
  WelfordFinalizePara fp{{{n}, {ab}, 0, {ab}, 0, 0, 1.0f / {ab}, 1.0f / {n * ab}, 0.0f}};
  WelfordFinalize<false>(o, o[8], m, v, tmp, fp);
  SYNC(); ub.Out(z, o, 16);"""
    outs = {"zm": ("float32", (ab,)), "zv": ("float32", (ab,)), "z": ("float32", (2, 8))}
    r = kernel(body, {"xx": x}, outs, prelude=UB_HELPERS).ok().outputs
    mean, m2 = welford(list(x), ab)
    np.testing.assert_allclose(r["zm"], mean, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(r["zv"], m2, rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(r["z"][0][0], x.mean(), rtol=1e-5)
    np.testing.assert_allclose(r["z"][1][0], x.var(), rtol=1e-4)
    np.testing.assert_array_equal(r["z"][:, 1:], 0.0)


def test_welford_update_inplace_half_and_finalize_with_counts_and_tail(kernel):
    rng = np.random.default_rng(34)
    ab, c = 64, 35
    x = rng.normal(0, 1, ab).astype(np.float16)
    m0 = np.arange(ab, dtype=np.float32)
    cnt = rng.integers(1, 5, ab).astype(np.int32)
    body = f"""Ub ub;
  LocalTensor<half> x = ub.In<half>(xx, {ab});
  LocalTensor<float> m = ub.In<float>(mx, {ab}), v = ub.In<float>(mx, {ab});
  LocalTensor<int32_t> k = ub.In<int32_t>(kx, {ab});
  LocalTensor<float> om = ub.Alloc<float>({ab}), ov = ub.Alloc<float>({ab}), o = ub.Alloc<float>(32); SYNC();
  static constexpr WelfordUpdateConfig inplace{{true}};
  WelfordUpdateParam p{{1, {ab}, {c}, 0.125f}};
  WelfordUpdate<half, float, false, inplace>(om, ov, m, v, x, p);
  SYNC(); ub.Out(zm, om, {ab}); ub.Out(zv, ov, {ab});
  WelfordFinalizePara fc{{1, {ab}, 0, 0, 0, 0, 0.0f, 1.0f / 160, 0.0f}};
  WelfordFinalize(o, o[8], m, v, k, fc);
  WelfordFinalizePara ft{{2, {ab}, 3, 48, 2, 16, 1.0f / {ab}, 1.0f / 176, 0.0f}};
  WelfordFinalize(o[16], o[24], m, v, ft);
  SYNC(); ub.Out(z, o, 32);"""
    ins = {"xx": x, "mx": m0, "kx": cnt}
    outs = {"zm": ("float32", (ab,)), "zv": ("float32", (ab,)), "z": ("float32", (4, 8))}
    r = kernel(body, ins, outs, prelude=UB_HELPERS).ok().outputs
    xf = x.astype(np.float32)
    delta = xf[:c] - m0[:c]
    mean = delta * np.float32(0.125) + m0[:c]
    np.testing.assert_allclose(r["zm"][:c], mean, rtol=1e-6)
    np.testing.assert_allclose(r["zv"][:c], (xf[:c] - mean) * delta + m0[:c], rtol=1e-5)
    # isInplace: beyond abComputeLength the outputs are the inputs.
    np.testing.assert_array_equal(r["zm"][c:], m0[c:])
    np.testing.assert_array_equal(r["zv"][c:], m0[c:])

    def finalize(w, rrec):
        mu = np.sum(m0 * w * rrec)
        return mu, np.sum((m0 + w * (m0 - mu) ** 2) * rrec)

    for row, (w, rrec) in enumerate([(cnt, 1 / 160), (np.repeat([3.0, 2.0], [48, 16]), 1 / 176)]):
        mu, var = finalize(w.astype(np.float64), rrec)
        np.testing.assert_allclose(r["z"][2 * row][0], mu, rtol=1e-5)
        np.testing.assert_allclose(r["z"][2 * row + 1][0], var, rtol=1e-5)
