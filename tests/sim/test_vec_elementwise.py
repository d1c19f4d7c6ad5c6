"""Element-wise vector families: count form with tails, continuous and bit masks, block/repeat strides,
counter mode, fused ops, operator forms; fp16 and fp32 against numpy."""

import numpy as np
import pytest
from conftest import UB_HELPERS, lane_offsets

N = 1024


@pytest.mark.parametrize("dtype,ctype", [(np.float16, "half"), (np.float32, "float")])
def test_binary_unary_scalar_count_form_with_tail(kernel, dtype, ctype):
    rng = np.random.default_rng(1)
    x = rng.uniform(0.5, 2, N).astype(dtype)
    y = rng.uniform(-2, 2, N).astype(dtype)
    ops = ["Add", "Sub", "Mul", "Div", "Max", "Min", "AddRelu", "SubRelu"]
    unary = ["Exp", "Ln", "Sqrt", "Rsqrt", "Reciprocal", "Abs", "Relu"]
    scalar = [("Adds", 1.5), ("Muls", -0.5), ("Maxs", 1.0), ("Mins", 1.0), ("LeakyRelu", 0.1)]
    n_out = len(ops) + len(unary) + len(scalar) + 4
    body = f"""Ub ub; using T = {ctype};
  LocalTensor<T> a = ub.In<T>(x, {N}), b = ub.In<T>(y, {N}); LocalTensor<T> o = ub.Alloc<T>({N} * {n_out});
  SYNC(); Duplicate(o, (T)7, {N} * {n_out}); const int32_t n = 1000; int k = 0;
"""
    body += "".join(f"  {op}(o[{N} * k++], a, b, n);\n" for op in ops)
    body += "".join(f"  {op}(o[{N} * k++], a, n);\n" for op in unary)
    body += "".join(f"  {op}(o[{N} * k++], a, (T){v}, n);\n" for op, v in scalar)
    body += f"""  {{ LocalTensor<T> d = o[{N} * k++]; DataCopy(d, b, {N}); MulAddDst(d, a, b, n); }}
  {{ LocalTensor<T> d = o[{N} * k++]; DataCopy(d, b, {N}); FusedMulAdd(d, a, b, n); }}
  {{ LocalTensor<T> d = o[{N} * k++]; DataCopy(d, b, {N}); Axpy(d, a, (T)0.5, n); }}
  {{ LocalTensor<T> d = o[{N} * k++]; d = a * b; }}
  SYNC(); ub.Out(z, o, {N} * {n_out});"""
    r = kernel(
        body, {"x": x, "y": y}, {"z": (np.dtype(dtype).name, (n_out, N))}, prelude=UB_HELPERS
    ).ok()
    z = r.outputs["z"]
    xf = x.astype(np.float32)

    def relu(v):
        return np.maximum(v, 0)

    want = [
        x + y,
        x - y,
        x * y,
        x / y,
        np.maximum(x, y),
        np.minimum(x, y),
        relu(x + y),
        relu(x - y),
        np.exp(xf),
        np.log(xf),
        np.sqrt(xf),
        1 / np.sqrt(xf),
        1 / xf,
        np.abs(x),
        relu(x),
        x + dtype(1.5),
        x * dtype(-0.5),
        np.maximum(x, dtype(1)),
        np.minimum(x, dtype(1)),
        np.where(x >= 0, x, x * dtype(0.1)),
        (x * y).astype(dtype) + y,
        (x * y).astype(dtype) + y,
        (x * dtype(0.5)).astype(dtype) + y,
        x * y,
    ]
    for k, w in enumerate(want):
        got = z[k]
        # Operator forms run over the whole tensor; the others over 1000 elements.
        n = N if k == len(want) - 1 else 1000
        np.testing.assert_allclose(
            got[:n].astype(np.float32),
            np.asarray(w, dtype)[:n].astype(np.float32),
            rtol=1e-6 if dtype == np.float32 else 1e-3,
            err_msg=f"op #{k}",
        )
        if n < N:  # lanes past the count keep what was there (7, or y for the dst-accumulating ops)
            np.testing.assert_array_equal(
                got[n:], y[n:] if k >= 20 else dtype(7), err_msg=f"op #{k} wrote past its count"
            )


@pytest.mark.parametrize("dtype,ctype", [(np.float16, "half"), (np.float32, "float")])
def test_mask_forms_strides_and_counter_mode(kernel, dtype, ctype):
    per_rep, per_blk = 256 // np.dtype(dtype).itemsize, 32 // np.dtype(dtype).itemsize
    rng = np.random.default_rng(2)
    x = rng.uniform(-1, 1, 4096).astype(dtype)
    y = rng.uniform(-1, 1, 4096).astype(dtype)
    bits = (0x5555AAAA0F0F00FF, 0x8000000000000001 if per_rep == 128 else 0)
    body = f"""Ub ub; using T = {ctype};
  LocalTensor<T> a = ub.In<T>(x, 4096), b = ub.In<T>(y, 4096), o = ub.Alloc<T>(4 * 4096);
  SYNC(); Duplicate(o, (T)0, 4 * 4096);
  Add(o, a, b, 50, 3, {{1, 1, 1, 8, 8, 8}});                       // continuous mask, 3 repeats
  Mul(o[4096], a, b, 64, 2, {{2, 1, 1, 16, 8, 8}});                // dst block stride 2, repeat stride 16
  uint64_t m[2] = {{{bits[0]}ull, {bits[1]}ull}};
  Sub(o[8192], a, b, m, 2, {{1, 1, 1, 8, 8, 8}});                  // bit mask
  SetMaskCount(); SetVectorMask<T, MaskMode::COUNTER>(0, 300);     // counter mode: 300 lanes
  Max<T, false>(o[12288], a, b, MASK_PLACEHOLDER, 1, {{1, 1, 1, 8, 8, 8}});
  SetMaskNorm(); ResetMask();
  SYNC(); ub.Out(z, o, 4 * 4096);"""
    z = (
        kernel(body, {"x": x, "y": y}, {"z": (np.dtype(dtype).name, (4, 4096))}, prelude=UB_HELPERS)
        .ok()
        .outputs["z"]
    )
    want = np.zeros((4, 4096), dtype)
    off = lane_offsets(3, per_rep, per_blk, list(range(50)), 1, 8)
    want[0][off] = x[off] + y[off]
    lanes = list(range(64))
    d, s = (
        lane_offsets(2, per_rep, per_blk, lanes, 2, 16),
        lane_offsets(2, per_rep, per_blk, lanes, 1, 8),
    )
    want[1][d] = x[s] * y[s]
    active = [e for e in range(per_rep) if (bits[e // 64] >> (e % 64)) & 1]
    off = lane_offsets(2, per_rep, per_blk, active, 1, 8)
    want[2][off] = x[off] - y[off]
    want[3][:300] = np.maximum(x[:300], y[:300])
    np.testing.assert_array_equal(z, want)


@pytest.mark.parametrize("dtype,ctype", [(np.int32, "int32_t"), (np.int16, "int16_t")])
def test_integer_arithmetic_wraps(kernel, dtype, ctype):
    """Sums and products past the type's range wrap, as two's complement (numpy's arithmetic):
    computed on unsigned values, with no signed overflow in the emulation."""
    info = np.iinfo(dtype)
    x = np.array(
        [info.max, info.min, info.max - 1, -1, 12345, info.min + 7, 3, info.max // 3] * 8, dtype
    )
    y = np.array([1, -1, info.max, info.min, info.max, -9, info.min, 5] * 8, dtype)
    n = x.size
    ops = ["Add", "Sub", "Mul", "AddRelu", "SubRelu"]
    body = f"""Ub ub; using T = {ctype};
  LocalTensor<T> a = ub.In<T>(x, {n}), b = ub.In<T>(y, {n}), o = ub.Alloc<T>({n} * 7);
  SYNC();
"""
    body += "".join(f"  {op}(o[{n * k}], a, b, {n});\n" for k, op in enumerate(ops))
    body += f"""  Adds(o[{n * 5}], a, (T){info.max}, {n}); Muls(o[{n * 6}], a, (T)-3, {n});
  SYNC(); ub.Out(z, o, {n} * 7);"""
    r = kernel(body, {"x": x, "y": y}, {"z": (np.dtype(dtype).name, (7, n))}, prelude=UB_HELPERS)
    z = r.ok().outputs["z"]
    with np.errstate(over="ignore"):
        want = [x + y, x - y, x * y, np.maximum(x + y, 0), np.maximum(x - y, 0)]
        want += [x + dtype(info.max), x * dtype(-3)]
    np.testing.assert_array_equal(z, np.stack(want))


def test_integer_logic_shift_index_brcb_gather_copy(kernel):
    rng = np.random.default_rng(3)
    x = rng.integers(-1000, 1000, 256).astype(np.int16)
    y = rng.integers(-1000, 1000, 256).astype(np.int16)
    f = rng.uniform(-1, 1, 64).astype(np.float32)
    off = (rng.permutation(64) * 4).astype(np.int32)
    body = """Ub ub;
  LocalTensor<int16_t> a = ub.In<int16_t>(x, 256), b = ub.In<int16_t>(y, 256), o = ub.Alloc<int16_t>(5 * 256);
  LocalTensor<float> fs = ub.In<float>(f, 64), fo = ub.Alloc<float>(3 * 512);
  LocalTensor<uint32_t> offs = ub.In<int32_t>(off, 64).ReinterpretCast<uint32_t>();
  SYNC();
  And(o, a, b, 256); Or(o[256], a, b, 256); Not(o[512], a, 256); ShiftLeft(o[768], a, (int16_t)3, 256);
  ShiftRight(o[1024], a, (int16_t)2, 256);
  CreateVecIndex(fo, 5.0f, 64);
  Brcb(fo[64], fs, 1, BrcbRepeatParams{1, 8});
  Gather(fo[512], fs, offs, 0, 64);
  DataCopy(fo[1024], fs, 64);
  SYNC(); ub.Out(z, o, 5 * 256); ub.Out(w, fo, 3 * 512);"""
    r = kernel(
        body,
        {"x": x, "y": y, "f": f, "off": off},
        {"z": ("int16", (5, 256)), "w": ("float32", (3, 512))},
        prelude=UB_HELPERS,
    ).ok()
    z, w = r.outputs["z"], r.outputs["w"]
    np.testing.assert_array_equal(z, [x & y, x | y, ~x, (x << 3).astype(np.int16), x >> 2])
    np.testing.assert_array_equal(w[0][:64], 5 + np.arange(64))
    np.testing.assert_array_equal(w[0][64:128], np.repeat(f[:8], 8))
    np.testing.assert_array_equal(w[1][:64], f[off // 4])
    np.testing.assert_array_equal(w[2][:64], f)


def test_gather_from_a_source_off_the_32_byte_grid_runs_as_on_the_a2(kernel):
    # The A2 adds src's address to srcBaseAddr: src = f[1] gathers f[1 + off / 4], with a warning
    # (the documentation asks for 32 B) that the strict mode keeps as an error.
    f = np.arange(72, dtype=np.float32) * 0.5 - 7.0
    off = (np.arange(64)[::-1] * 4).astype(np.int32)
    body = """Ub ub;
  LocalTensor<float> fs = ub.In<float>(f, 72), fo = ub.Alloc<float>(64);
  LocalTensor<uint32_t> offs = ub.In<int32_t>(off, 64).ReinterpretCast<uint32_t>();
  SYNC();
  Gather(fo, fs[1], offs, 0, 64);
  SYNC(); ub.Out(w, fo, 64);"""
    args = (body, {"f": f, "off": off}, {"w": ("float32", (64,))})
    r = kernel(*args, prelude=UB_HELPERS, strict=False).ok()
    np.testing.assert_array_equal(r.outputs["w"], f[1 + off // 4])
    warnings = r.result.get("warnings", [])
    assert any("src at UB address 4 is not 32 B aligned" in w for w in warnings), warnings
    r = kernel(*args, prelude=UB_HELPERS)
    assert r.status == "RUNTIME_ERROR" and "not 32 B aligned" in r.message, r.message


def test_every_ge_datatype_is_a_macro_for_preprocessor_tests(kernel):
    # An undefined name is 0 (DT_FLOAT) in an #if: `ORIG_DTYPE_X == DT_HIFLOAT8` held for float32.
    body = """GlobalTensor<int32_t> zg; zg.SetGlobalBuffer((__gm__ int32_t*)z, 8);
#if DT_COMPLEX32 != 33 || DT_HIFLOAT8 != 34 || DT_FLOAT8_E5M2 != 35 || DT_FLOAT8_E4M3FN != 36 || DT_MAX != 42
#error "ge::DataType values"
#endif
#if DT_FLOAT == DT_HIFLOAT8 || DT_FLOAT == DT_FLOAT4_E2M1 || DT_FLOAT == DT_QINT8
  zg.SetValue(0, 1);
#else
  zg.SetValue(0, 2);
#endif"""
    r = kernel(body, {"x": np.zeros(8, np.int32)}, {"z": ("int32", (8,))}).ok()
    assert r.outputs["z"][0] == 2
