"""Cast round modes, Compare/CompareScalar/Select/GatherMask bit masks, and the reductions."""

import numpy as np
from conftest import UB_HELPERS, bf16_bits


def _round(v: np.ndarray, mode: str) -> np.ndarray:
    return {
        "RINT": np.rint,
        "FLOOR": np.floor,
        "CEIL": np.ceil,
        "TRUNC": np.trunc,
        "ROUND": lambda a: np.sign(a) * np.floor(np.abs(a) + 0.5),
    }[mode](v)


MODES = ["RINT", "FLOOR", "CEIL", "ROUND", "TRUNC"]


def test_cast_round_modes(kernel):
    rng = np.random.default_rng(4)
    f = np.concatenate(
        [
            np.array([0.5, 1.5, 2.5, -0.5, -1.5, -2.5, 1e10, -1e10], np.float32),
            rng.uniform(-100, 100, 248).astype(np.float32),
        ]
    )
    # float -> int32 in every mode, float -> half (RINT/FLOOR/CEIL/ODD), half -> float, float -> bf16, int32 -> float.
    body = "Ub ub;\n  LocalTensor<float> a = ub.In<float>(x, 256); LocalTensor<int32_t> o = ub.Alloc<int32_t>(5 * 256);\n"
    body += "  LocalTensor<half> h = ub.Alloc<half>(4 * 256); LocalTensor<float> back = ub.Alloc<float>(256);\n"
    body += "  LocalTensor<bfloat16_t> bf = ub.Alloc<bfloat16_t>(256); SYNC();\n"
    body += "".join(
        f"  Cast(o[{k * 256}], a, RoundMode::CAST_{m}, 256);\n" for k, m in enumerate(MODES)
    )
    body += "".join(
        f"  Cast(h[{k * 256}], a, RoundMode::CAST_{m}, 256);\n"
        for k, m in enumerate(["RINT", "FLOOR", "CEIL", "ODD"])
    )
    body += "  Cast(back, h, RoundMode::CAST_NONE, 256); Cast(bf, a, RoundMode::CAST_RINT, 256);\n"
    body += "  SYNC(); ub.Out(z, o, 5 * 256); ub.Out(hz, h, 4 * 256); ub.Out(fz, back, 256); ub.Out(bz, bf.ReinterpretCast<int16_t>(), 256);"
    r = kernel(
        body,
        {"x": f},
        {
            "z": ("int32", (5, 256)),
            "hz": ("float16", (4, 256)),
            "fz": ("float32", (256,)),
            "bz": ("int16", (256,)),
        },
        prelude=UB_HELPERS,
    ).ok()
    for k, m in enumerate(MODES):
        want = np.clip(_round(f.astype(np.float64), m), -(2**31), 2**31 - 1).astype(np.int64)
        np.testing.assert_array_equal(r.outputs["z"][k], want, err_msg=m)
    h = r.outputs["hz"].astype(np.float64)
    exact = f.astype(np.float64)
    finite = np.abs(exact) < 65504
    np.testing.assert_array_equal(r.outputs["hz"][0], f.astype(np.float16))
    assert (h[1][finite] <= exact[finite]).all() and (h[2][finite] >= exact[finite]).all()
    ulp = np.abs(np.spacing(f.astype(np.float16)[finite])).astype(np.float64)
    assert (np.abs(h[1] - exact)[finite] <= ulp).all() and (
        np.abs(h[2] - exact)[finite] <= ulp
    ).all()
    odd = r.outputs["hz"][3].view(np.uint16)
    inexact = f.astype(np.float16).astype(np.float64) != exact
    assert (odd[inexact & finite] & 1).all(), "CAST_ODD must give an odd mantissa when inexact"
    np.testing.assert_array_equal(r.outputs["fz"], r.outputs["hz"][0].astype(np.float32))
    np.testing.assert_array_equal(r.outputs["bz"].view(np.uint16), bf16_bits(f))


def test_unsupported_cast_pair_fails_to_compile(kernel):
    body = (
        "Ub ub; LocalTensor<half> h = ub.Alloc<half>(64); LocalTensor<bfloat16_t> b = ub.Alloc<bfloat16_t>(64);\n"
        "  Cast(b, h, RoundMode::CAST_RINT, 64);"
    )
    r = kernel(body, {}, {"z": ("float32", (8,))}, prelude=UB_HELPERS)
    assert r.status == "COMPILE_ERROR" and "not supported" in r.message


def test_compare_select_gathermask(kernel):
    rng = np.random.default_rng(5)
    x = rng.integers(-3, 4, 256).astype(np.float32)
    y = rng.integers(-3, 4, 256).astype(np.float32)
    modes = ["LT", "GT", "EQ", "LE", "GE", "NE"]
    body = "Ub ub;\n  LocalTensor<float> a = ub.In<float>(x, 256), b = ub.In<float>(y, 256), o = ub.Alloc<float>(3 * 256);\n"
    body += "  LocalTensor<uint8_t> m = ub.Alloc<uint8_t>(8 * 32); SYNC(); Duplicate(o, 0.0f, 3 * 256);\n"
    body += "".join(
        f"  Compare(m[{k * 32}], a, b, CMPMODE::{md}, 256);\n" for k, md in enumerate(modes)
    )
    body += "  CompareScalar(m[192], a, 0.0f, CMPMODE::GT, 256);\n"
    body += "  Select(o, m, a, b, SELMODE::VSEL_TENSOR_TENSOR_MODE, 256);\n"
    body += "  Select(o[256], m[192], a, -9.0f, SELMODE::VSEL_TENSOR_SCALAR_MODE, 256);\n"
    body += "  uint64_t cnt = 0; GatherMask(o[512], a, (uint8_t)2, false, 0, GatherMaskParams{1, 2, 8, 0}, cnt);\n"
    body += "  o.SetValue(767, (float)cnt);\n"
    body += "  SYNC(); ub.Out(z, o, 3 * 256); ub.Out(mz, m, 256);"
    r = kernel(
        body,
        {"x": x, "y": y},
        {"z": ("float32", (3, 256)), "mz": ("uint8", (256,))},
        prelude=UB_HELPERS,
    ).ok()
    bits = np.unpackbits(r.outputs["mz"], bitorder="little").reshape(8, 256)
    ops = [np.less, np.greater, np.equal, np.less_equal, np.greater_equal, np.not_equal]
    for k, op in enumerate(ops):
        np.testing.assert_array_equal(bits[k], op(x, y), err_msg=modes[k])
    np.testing.assert_array_equal(bits[6], x > 0)
    z = r.outputs["z"]
    np.testing.assert_array_equal(z[0], np.where(x < y, x, y))
    np.testing.assert_array_equal(z[1], np.where(x > 0, x, -9))
    np.testing.assert_array_equal(z[2][:64], x[1:128:2])  # pattern 2: odd lanes of 2 repeats
    assert z[2][255] == 64


def test_reductions(kernel):
    rng = np.random.default_rng(6)
    x = rng.uniform(-1, 1, 1024).astype(np.float32)
    h = rng.uniform(-1, 1, 1024).astype(np.float16)
    body = """Ub ub;
  LocalTensor<float> a = ub.In<float>(x, 1024), o = ub.Alloc<float>(1024), work = ub.Alloc<float>(1024);
  LocalTensor<half> hs = ub.In<half>(hx, 1024), ho = ub.Alloc<half>(256);
  SYNC(); Duplicate(o, 0.0f, 1024); Duplicate(ho, (half)0, 256);
  WholeReduceSum(o, a, 64, 4, 1, 1, 8);                              // o[0..3]: per-repeat sums
  WholeReduceMax(o[8], a, 64, 2, 1, 1, 8, ReduceOrder::ORDER_VALUE_INDEX);   // o[8..11]: (max, index) pairs
  BlockReduceSum(o[16], a, 2, 64, 1, 1, 8);                          // o[16..31]: per-block sums
  BlockReduceMin(o[32], a, 1, 64, 1, 1, 8);
  PairReduceSum(o[64], a, 1, 64, 1, 1, 8);                           // o[64..95]
  RepeatReduceSum(o[96], a, 2, 64, 0, 1, 1, 8);
  ReduceSum(o[128], a, work, 1000);
  ReduceMax(o[136], a, work, 1000, true);
  ReduceMin(o[144], a, work, 1000, true);
  ReduceSum(ho, hs, ho[128], 1024);
  WholeReduceMin(ho[16], hs, 128, 2, 1, 1, 8, ReduceOrder::ORDER_ONLY_VALUE);
  SYNC(); ub.Out(z, o, 1024); ub.Out(hz, ho, 256);"""
    r = kernel(
        body,
        {"x": x, "hx": h},
        {"z": ("float32", (1024,)), "hz": ("float16", (256,))},
        prelude=UB_HELPERS,
    ).ok()
    z, hz = r.outputs["z"], r.outputs["hz"]
    rows = x[:256].reshape(4, 64)
    np.testing.assert_allclose(z[:4], rows.sum(1), rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(z[8:12:2], rows[:2].max(1))
    np.testing.assert_array_equal(z[9:12:2].view(np.uint32), rows[:2].argmax(1))
    np.testing.assert_allclose(z[16:32], x[:128].reshape(16, 8).sum(1), rtol=1e-5, atol=1e-5)
    np.testing.assert_array_equal(z[32:40], x[:64].reshape(8, 8).min(1))
    np.testing.assert_allclose(z[64:96], x[:64].reshape(32, 2).sum(1), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(z[96:98], rows[:2].sum(1), rtol=1e-5, atol=1e-5)
    np.testing.assert_allclose(z[128], x[:1000].sum(), rtol=1e-4)
    assert z[136] == x[:1000].max() and z[137:138].view(np.uint32)[0] == x[:1000].argmax()
    assert z[144] == x[:1000].min() and z[145:146].view(np.uint32)[0] == x[:1000].argmin()
    np.testing.assert_allclose(float(hz[0]), h.astype(np.float32).sum(), rtol=2e-3, atol=2e-2)
    np.testing.assert_array_equal(hz[16:18], h[:256].reshape(2, 128).min(1))
