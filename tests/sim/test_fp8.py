"""Ascend 950's one-byte floats on the native engine: fp8_e4m3fn_t, fp8_e5m2_t and hifloat8_t
tensors copied between GM and UB as bytes, `Cast` from float with the mode each documents
(CAST_RINT for the OCP types, CAST_ROUND for HiFloat8) and back to float exactly, against
ml_dtypes' rounding (and, for HiFloat8, en_dtypes', the library cann-bench's goldens use); the
scalar types convert alike, and a mode a type does not have is a RUNTIME_ERROR."""

import ml_dtypes
import numpy as np
import pytest
from conftest import UB_HELPERS

from npu_daemon import float8

N = 512
TYPES = {"float8_e4m3fn": "CAST_RINT", "float8_e5m2": "CAST_RINT", "hifloat8": "CAST_ROUND"}

CAST = """
  using F = DTYPE_Y;
  Ub ub;
  LocalTensor<float> lx = ub.In<float>(x, N);
  LocalTensor<F> lq = ub.In<F>(q, N);
  LocalTensor<F> ly = ub.Alloc<F>(N);
  LocalTensor<float> lz = ub.Alloc<float>(N);
  SYNC();
  Cast(ly, lx, RoundMode::MODE, N);
  Cast(lz, lq, RoundMode::CAST_NONE, N);
  SYNC();
  ub.Out(y, ly, N);
  ub.Out(z, lz, N);
"""


def rounded(x: np.ndarray, dtype: str) -> np.ndarray:
    """x's bytes in dtype by the reference library: ml_dtypes, or en_dtypes for HiFloat8."""
    if dtype == "hifloat8":
        en_dtypes = pytest.importorskip("en_dtypes")
        return x.astype(en_dtypes.hifloat8).view(np.uint8)
    return x.astype(getattr(ml_dtypes, float8.ML_DTYPES[dtype])).view(np.uint8)


def values_to_round(dtype: str, rng: np.random.Generator) -> np.ndarray:
    """Random magnitudes across the type's range, its ties (midpoints of neighbours), overflow."""
    finite = float8.decode(np.arange(256, dtype=np.uint8), dtype)
    finite = np.unique(finite[np.isfinite(finite)])
    ties = (finite[:-1] + finite[1:]) / 2
    top = finite.max()
    spread = rng.choice([-1, 1], N) * top * 2.0 ** rng.uniform(-24, 1.2, N)
    x = np.concatenate([rng.choice(ties, N // 4), [top * 1.2, -top * 3, 0.0, -0.0], spread])
    return x[:N].astype(np.float32)


@pytest.mark.parametrize("dtype", TYPES)
def test_cast_to_and_from_the_one_byte_floats_rounds_as_the_libraries(kernel, dtype):
    rng = np.random.default_rng(7)
    x = values_to_round(dtype, rng)
    q = rng.integers(0, 256, N).astype(np.uint8)  # every byte, NaN and inf included
    body = CAST.replace("MODE", TYPES[dtype])
    r = kernel(
        body,
        {"x": x, "q": (dtype, q)},
        {"y": (dtype, (N,)), "z": ("float32", (N,))},
        prelude=f"constexpr uint32_t N = {N};\n{UB_HELPERS}",
    ).ok()
    np.testing.assert_array_equal(r.outputs["y"], rounded(x, dtype))
    np.testing.assert_array_equal(r.outputs["z"], float8.decode(q, dtype))  # NaN where NaN


def test_the_scalar_types_convert_as_the_vector_cast(kernel):
    body = """
  GlobalTensor<float> yg; yg.SetGlobalBuffer((__gm__ float*)y, 8);
  yg.SetValue(0, static_cast<float>(fp8_e4m3fn_t(464.0f)));  // a tie to even: 448
  yg.SetValue(1, static_cast<float>(fp8_e5m2_t(1.0e6f)));  // past the range: inf
  yg.SetValue(2, static_cast<float>(hifloat8_t(1.0625f)));  // a tie away: 1.125
  yg.SetValue(3, static_cast<float>(fp8_e8m0_t(3.0f)));  // a scale's tie upwards: 4
  yg.SetValue(4, static_cast<float>(hifloat8_t(40960.0f)));  // HiFloat8 overflows to inf
  yg.SetValue(5, sizeof(fp8_e4m3fn_t) + sizeof(fp8_e5m2_t) + sizeof(fp8_e8m0_t) + sizeof(hifloat8_t));
"""
    r = kernel(body, {"x": np.zeros(8, np.float32)}, {"y": ("float32", (6,))}).ok()
    assert r.outputs["y"].tolist() == [448.0, np.inf, 1.125, 4.0, np.inf, 4.0]


def test_a_round_mode_the_type_does_not_have_is_a_runtime_error(kernel):
    body = CAST.replace("MODE", "CAST_RINT")  # hifloat8_t has CAST_ROUND
    r = kernel(
        body,
        {"x": np.ones(N, np.float32), "q": ("hifloat8", np.zeros(N, np.uint8))},
        {"y": ("hifloat8", (N,)), "z": ("float32", (N,))},
        prelude=f"constexpr uint32_t N = {N};\n{UB_HELPERS}",
    )
    assert r.status == "RUNTIME_ERROR" and "only CAST_ROUND" in r.message
