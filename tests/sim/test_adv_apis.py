"""High-level APIs (docs/ascendc.md API 7) against numpy, batched into one fp32 kernel."""

import math

import numpy as np
from conftest import UB_HELPERS

N = 256


def _sigmoid(v):
    return 1 / (1 + np.exp(-v))


def test_elementwise_and_row_apis(kernel):
    rng = np.random.default_rng(7)
    x = rng.uniform(0.1, 3, N).astype(np.float32)
    s = rng.uniform(-3, 3, N).astype(np.float32)
    unary = {
        "Sigmoid": _sigmoid(s),
        "Tanh": np.tanh(s),
        "Sin": np.sin(s),
        "Cos": np.cos(s),
        "Erf": np.vectorize(math.erf)(s),
        "Sign": np.sign(s),
        "Gelu": s * _sigmoid(1.5957691216057308 * (s + 0.044715 * s**3)),
        "FasterGelu": s / (1 + np.exp(-1.702 * np.abs(s))) * np.exp(0.851 * (s - np.abs(s))),
        "Silu": s * _sigmoid(s),
        "Floor": np.floor(s),
        "Ceil": np.ceil(s),
        "Round": np.rint(s),
    }
    body = f"""Ub ub;
  LocalTensor<float> a = ub.In<float>(x, {N}), b = ub.In<float>(sx, {N}), o = ub.Alloc<float>(32 * {N});
  LocalTensor<uint8_t> tmp = ub.Alloc<uint8_t>(8192); SYNC(); int k = 0;  // CumSum's [4, 64] minimum
"""
    body += "".join(f"  {name}(o[{N} * k++], b, tmp, {N});\n" for name in unary)
    body += f"""  Log(o[{N} * k++], a, {N}); Log2(o[{N} * k++], a, {N}); Log10(o[{N} * k++], a, {N});
  Exp<float, 3>(o[{N} * k++], b, {N}); Swish(o[{N} * k++], b, {N}, 1.5f);
  ClampMax(o[{N} * k++], b, 1.0f, {N}); ClampMin(o[{N} * k++], b, tmp, -1.0f, {N});
  Power(o[{N} * k++], a, b, {N}); Power(o[{N} * k++], a, 2.0f, {N}); Power(o[{N} * k++], 2.0f, b, {N});
  SumParams sp{{4, 64, 60}}; Sum(o[{N} * k++], b, tmp, sp);
  MeanParams mp{{4, 64, 64}}; Mean(o[{N} * k++], b, tmp, mp);
  uint32_t shp[2] = {{4, 64}};
  ReduceSum<float, Pattern::Reduce::AR>(o[{N} * k++], b, tmp, shp, true);
  ReduceMax<float, Pattern::Reduce::RA>(o[{N} * k++], b, tmp, shp, true);
  uint32_t dsh[2] = {{4, 64}}, ssh[2] = {{4, 1}};
  Broadcast<float, 2, 1>(o[{N} * k++], b, dsh, ssh);
  static constexpr CumSumConfig cfg{{true, false, true}};
  CumSum<float, cfg>(o[{N} * k], o[{N} * (k + 1)], b, tmp, CumSumInfo{{4, 64}}); k += 2;
  SYNC(); ub.Out(z, o, 32 * {N});"""
    z = (
        kernel(body, {"x": x, "sx": s}, {"z": ("float32", (32, N))}, prelude=UB_HELPERS)
        .ok()
        .outputs["z"]
    )
    want = list(unary.values()) + [
        np.log(x),
        np.log2(x),
        np.log10(x),
        np.exp(s),
        s * _sigmoid(1.5 * s),
        np.minimum(s, 1),
        np.maximum(s, -1),
        x**s,
        x**2,
        2.0**s,
    ]
    names = list(unary) + [
        "Log",
        "Log2",
        "Log10",
        "Exp",
        "Swish",
        "ClampMax",
        "ClampMin",
        "Power tt",
        "Power ts",
        "Power st",
    ]
    for k, (w, name) in enumerate(zip(want, names)):
        np.testing.assert_allclose(z[k], w, rtol=2e-6, atol=2e-6, err_msg=name)
    k = len(want)
    rows = s.reshape(4, 64)
    np.testing.assert_allclose(z[k][:4], rows[:, :60].sum(1), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(z[k + 1][:4], rows.mean(1), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(z[k + 2][:4], rows.sum(1), rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(z[k + 3][:64], rows.max(0))
    np.testing.assert_array_equal(z[k + 4], np.repeat(s[:4], 64))
    np.testing.assert_allclose(z[k + 5], np.cumsum(rows, 1).ravel(), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(z[k + 6][:64], np.cumsum(rows, 1)[-1], rtol=1e-5, atol=1e-5)


def test_softmax_layernorm_rmsnorm(kernel):
    rng = np.random.default_rng(8)
    m, k = 4, 64
    x = rng.uniform(-2, 2, (m, k)).astype(np.float32)
    g = rng.uniform(0.5, 1.5, k).astype(np.float32)
    b = rng.uniform(-0.5, 0.5, k).astype(np.float32)
    body = f"""Ub ub;
  LocalTensor<float> a = ub.In<float>(x, {m * k}), ga = ub.In<float>(gx, {k}), be = ub.In<float>(bx, {k});
  LocalTensor<float> o = ub.Alloc<float>(4 * {m * k}), st = ub.Alloc<float>(4 * {m} * 8);
  LocalTensor<uint8_t> tmp = ub.Alloc<uint8_t>(8192); SYNC();
  SoftMaxTiling smt{{}}; smt.srcM = {m}; smt.srcK = {k};
  SoftMax<float>(o, st, st[{m} * 8], a, tmp, smt, SoftMaxShapeInfo{{{m}, {k}, {m}, {k}}});
  LogSoftMax<float>(o[{m * k}], st[2 * {m} * 8], st[3 * {m} * 8], a, tmp, smt, SoftMaxShapeInfo{{{m}, {k}, {m}, {k}}});
  LayerNormTiling lnt{{}}; lnt.bLength = 1; lnt.sLength = {m}; lnt.hLength = {k}; lnt.originalHLength = {k};
  LocalTensor<float> mean = ub.Alloc<float>(8), var = ub.Alloc<float>(8);
  LayerNorm<float>(o[2 * {m * k}], mean, var, a, ga, be, tmp, 1e-5f, lnt);
  RmsNormTiling rnt{{}}; rnt.bLength = 1; rnt.sLength = {m}; rnt.hLength = {k}; rnt.originalHLength = {k};
  RmsNorm<float>(o[3 * {m * k}], a, ga, tmp, 1e-5f, rnt);
  SYNC(); ub.Out(z, o, 4 * {m * k}); ub.Out(sz, st, 4 * {m} * 8); ub.Out(mz, mean, 8);"""
    r = kernel(
        body,
        {"x": x, "gx": g, "bx": b},
        {"z": ("float32", (4, m, k)), "sz": ("float32", (4, m, 8)), "mz": ("float32", (8,))},
        prelude=UB_HELPERS,
    ).ok()
    z, sz = r.outputs["z"], r.outputs["sz"]
    e = np.exp(x - x.max(1, keepdims=True))
    np.testing.assert_allclose(z[0], e / e.sum(1, keepdims=True), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(sz[1][:, 0], x.max(1))
    np.testing.assert_allclose(sz[0], np.repeat(e.sum(1, keepdims=True), 8, 1), rtol=1e-5)
    np.testing.assert_allclose(z[1], np.log(e / e.sum(1, keepdims=True)), rtol=1e-5, atol=1e-5)
    mu, var = x.mean(1, keepdims=True), x.var(1, keepdims=True)
    np.testing.assert_allclose(z[2], (x - mu) / np.sqrt(var + 1e-5) * g + b, rtol=1e-4, atol=1e-5)
    np.testing.assert_allclose(r.outputs["mz"][:m], mu.ravel(), rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(
        z[3], x / np.sqrt((x * x).mean(1, keepdims=True) + 1e-5) * g, rtol=1e-5, atol=1e-6
    )


def test_cumsum_default_config_writes_the_last_row(kernel):
    x = np.random.default_rng(3).uniform(-1, 1, (4, 16)).astype(np.float32)
    body = """Ub ub; LocalTensor<float> a = ub.In<float>(x, 64), o = ub.Alloc<float>(64), last = ub.Alloc<float>(16); SYNC();
  CumSum<float>(o, last, a, CumSumInfo{4, 16}); SYNC();
  ub.Out(z, o, 64); GlobalTensor<float> lg; lg.SetGlobalBuffer((__gm__ float*)z + 64, 16); DataCopy(lg, last, 16);"""
    r = kernel(body, {"x": x}, {"z": ("float32", (80,))}, prelude=UB_HELPERS).ok()
    expect = np.cumsum(x, axis=1)
    np.testing.assert_allclose(r.outputs["z"][:64].reshape(4, 16), expect, rtol=1e-6, atol=1e-6)
    np.testing.assert_allclose(r.outputs["z"][64:], expect[-1], rtol=1e-6, atol=1e-6)
