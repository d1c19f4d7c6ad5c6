"""Scalar operations and data types on kernels of our own: the scalar Cast / ScalarCast with the
documented pairs and modes, DivCeil, the float abs, the __bf16 builtin, int4b_t tensors (two
elements a byte) with the half <-> int4b_t Cast, complex64, and the __CCE_AICORE__ macro."""

import numpy as np
from conftest import UB_HELPERS

GM_I32 = "GlobalTensor<int32_t> zg; zg.SetGlobalBuffer((__gm__ int32_t*)z, 16);\n"


X = np.zeros(8, dtype=np.float32)


def test_div_ceil_is_the_library_scalar_ceiling_division(kernel):
    body = """
  GlobalTensor<int32_t> yg;
  yg.SetGlobalBuffer((__gm__ int32_t*)y);
  constexpr uint32_t blocks = AscendC::DivCeil(333u * 4u, 32u);  // usable in constant expressions
  yg.SetValue(0, blocks);
  yg.SetValue(1, AscendC::DivCeil(64u, 32u));
"""
    r = kernel(body, {"x": np.zeros(8, np.float32)}, {"y": ("int32", (2,))}).ok()
    np.testing.assert_array_equal(r.outputs["y"], [42, 2])


def test_cce_aicore_names_the_a2_vector_core(kernel):
    body = """
  GlobalTensor<int32_t> yg;
  yg.SetGlobalBuffer((__gm__ int32_t*)y);
#if defined(__CCE_AICORE__) && __CCE_AICORE__ == 220
  yg.SetValue(0, 220);  // the path real operators take on Atlas A2
#else
  yg.SetValue(0, -1);
#endif
"""
    r = kernel(body, {"x": np.zeros(8, np.float32)}, {"y": ("int32", (1,))}).ok()
    assert r.outputs["y"][0] == 220


def test_unqualified_abs_of_a_float_is_the_float_abs(kernel):
    # The device compiler's global abs takes a float (cann-ops' Std::abs calls ::abs on one);
    # C's int abs would truncate -0.75 to 0.
    body = """
  GlobalTensor<float> xg, yg;
  xg.SetGlobalBuffer((__gm__ float*)x); yg.SetGlobalBuffer((__gm__ float*)y);
  yg.SetValue(0, abs(xg.GetValue(0)));
"""
    r = kernel(body, {"x": np.array([-0.75] * 8, np.float32)}, {"y": ("float32", (1,))}).ok()
    assert r.outputs["y"][0] == 0.75


def test_bf16_builtin_names_the_bfloat16_type(kernel):
    # ops-nn gelu and mish pick their bf16 path with std::is_same_v<T, __bf16>.
    body = """
  static_assert(std::is_same_v<bfloat16_t, __bf16>, "__bf16 is bfloat16_t");
  GlobalTensor<__bf16> xg; xg.SetGlobalBuffer((__gm__ __bf16*)x, 8);
  GlobalTensor<float> yg; yg.SetGlobalBuffer((__gm__ float*)y, 8);
  for (int i = 0; i < 8; ++i) yg.SetValue(i, ToFloat(xg.GetValue(i)) * 2.0f);
"""
    bits = (np.arange(8, dtype=np.float32).view(np.uint32) >> 16).astype(np.uint16)
    r = kernel(body, {"x": ("bfloat16", bits)}, {"y": ("float32", (8,))}).ok()
    np.testing.assert_array_equal(r.outputs["y"], np.arange(8, dtype=np.float32) * 2)


def test_scalar_cast_rounds_as_documented(kernel):
    body = (
        GM_I32
        + """GlobalTensor<half> hg; hg.SetGlobalBuffer((__gm__ half*)h, 16);
  const float v[4] = {1.5f, 2.5f, -2.5f, -1.25f};
  for (int i = 0; i < 4; ++i) {
    zg.SetValue(4 * i + 0, Cast<float, int32_t, RoundMode::CAST_ROUND>(v[i]));
    zg.SetValue(4 * i + 1, ScalarCast<float, int32_t, RoundMode::CAST_CEIL>(v[i]));
    zg.SetValue(4 * i + 2, ScalarCast<float, int32_t, RoundMode::CAST_FLOOR>(v[i]));
    zg.SetValue(4 * i + 3, ScalarCast<float, int32_t, RoundMode::CAST_RINT>(v[i]));
  }
  // CAST_ODD: an inexact result takes the neighbour whose last mantissa bit is 1.
  hg.SetValue(0, ScalarCast<float, half, RoundMode::CAST_ODD>(3.14159f));
  hg.SetValue(1, ScalarCast<float, half, RoundMode::CAST_ODD>(1.0f + 1.0f / 4096));
  hg.SetValue(2, ScalarCast<float, half, RoundMode::CAST_ODD>(0.5f));
  hg.SetValue(3, Cast(Cast(1.00390625f)) == 1.0f ? half(1) : half(0));  // float -> bf16 -> float, RINT"""
    )
    r = kernel(body, {"x": X}, {"z": ("int32", (16,)), "h": ("float16", (16,))}).ok()
    assert r.outputs["z"].reshape(4, 4).tolist() == [
        [2, 2, 1, 2],
        [3, 3, 2, 2],
        [-3, -2, -3, -2],
        [-1, -1, -2, -1],
    ]
    h = r.outputs["h"]
    assert h[0] == np.float16(3.142578) and h[2] == np.float16(0.5) and h[3] == 1
    # 1 + 2^-12 lies between 1 and 1 + 2^-10; CAST_ODD takes 1 + 2^-10 (odd mantissa), RINT 1.
    assert h[1] == np.float16(1 + 2**-10)


def test_scalar_cast_outside_the_documented_pairs_returns_zero(kernel):
    body = (
        GM_I32
        + "zg.SetValue(0, (int32_t)(float)ScalarCast<float, bfloat16_t, RoundMode::CAST_ODD>(2.0f));"
    )
    r = kernel(body, {"x": X}, {"z": ("int32", (16,))}, strict=False).ok()
    assert r.outputs["z"][0] == 0 and "returns 0" in " ".join(r.result.get("warnings", []))
    r = kernel(body, {"x": X}, {"z": ("int32", (16,))})
    assert r.status == "RUNTIME_ERROR" and "returns 0" in r.message


def test_int4_tensors_pack_two_a_byte_and_cast_from_and_to_half(kernel):
    rng = np.random.default_rng(4)
    v = rng.integers(-8, 8, 128).astype(np.float16) + np.float16(0.25)
    body = """Ub ub; LocalTensor<half> a = ub.In<half>(x, 128), back = ub.Alloc<half>(128);
  LocalTensor<uint8_t> bytes = ub.Alloc<uint8_t>(64);
  SYNC();
  LocalTensor<int4b_t> q = bytes.ReinterpretCast<int4b_t>();
  Cast(q, a, RoundMode::CAST_RINT, 128);
  SYNC();
  q.SetValue(5, int4b_t(-3));  // the high nibble of byte 2
  int32_t got = static_cast<int8_t>(q[4].GetValue(1)) * 100 + q.GetSize() / 2 + q[64].GetLength();
  SYNC();
  Cast(back, q, RoundMode::CAST_NONE, 128);
  SYNC(); ub.Out(b, bytes, 64); ub.Out(h, back, 128);
  GlobalTensor<int32_t> zg; zg.SetGlobalBuffer((__gm__ int32_t*)z, 8);
  zg.SetValue(0, got); zg.SetValue(1, static_cast<int32_t>(q[64].GetPhyAddr() - q.GetPhyAddr()));"""
    r = kernel(
        body,
        {"x": v},
        {"b": ("uint8", (64,)), "h": ("float16", (128,)), "z": ("int32", (8,))},
        prelude=UB_HELPERS,
    ).ok()
    q = np.rint(v.astype(np.float32)).astype(np.int64)
    q[5] = -3
    nib = (q & 0xF).astype(np.uint8)
    np.testing.assert_array_equal(r.outputs["b"], nib[0::2] | (nib[1::2] << 4))
    np.testing.assert_array_equal(r.outputs["h"], q.astype(np.float16))
    assert r.outputs["z"][:2].tolist() == [-300 + 64 + 32, 32]


def test_kernel_names_complex64_itself_and_repeat_params_take_parentheses(kernel):
    # The A2 toolkit defines no complex64: a kernel's own alias must not clash. The repeat
    # parameter structs are constructed as in the library, with parentheses too.
    x = np.arange(64, dtype=np.float32)
    body = """Ub ub; LocalTensor<float> a = ub.In<float>(x, 64), o = ub.Alloc<float>(64);
  SYNC();
  Adds(o, a, 1.0f, 8, 4, UnaryRepeatParams(1, 1, 2, 2));  // 8 lanes of each 16-element step
  Muls(o[8], a[8], 0.0f, 8, 4, UnaryRepeatParams(1, 1, 2, 2));
  SYNC(); ub.Out(z, o, 64);
  GlobalTensor<int32_t> wg; wg.SetGlobalBuffer((__gm__ int32_t*)w, 8);
  wg.SetValue(0, sizeof(complex64));"""
    r = kernel(
        body,
        {"x": x},
        {"z": ("float32", (64,)), "w": ("int32", (8,))},
        prelude=UB_HELPERS + "using complex64 = uint64_t;",
    ).ok()
    want = np.where(np.arange(64) % 16 < 8, x + 1, 0)
    np.testing.assert_array_equal(r.outputs["z"], want)
    assert r.outputs["w"][0] == 8
