"""The one-byte floats (float8_e4m3fn, float8_e5m2, float8_e8m0, hifloat8): our HiFloat8 codec
against the values its definition gives, inputs drawn in them, the checker comparing their values,
and a cann-bench task that takes HiFloat8 and answers float8 imported and judged by its golden."""

from __future__ import annotations

import math

import ml_dtypes
import numpy as np
import pytest

from ascend_core import suite
from ascend_core.package import DTYPE_BYTES
from ascend_gym.cannbench.importer import import_tasks
from npu_daemon import checker, float8

from .conftest import write_task

# HiFloat8 bytes and their values, from its definition (arXiv 2409.16626; CANN amct's
# hifloat8_quantization.md): the dot field 0001 is exponent 0, 001 +-1, 01 +-[2, 3], 10 +-[4, 7],
# 11 +-[8, 15]; 0000 the denormals 2^(m-23); 0x00 zero, 0x80 NaN, 0x6F inf.
HIF8_POINTS = {
    0x00: 0.0,
    0x08: 1.0,  # dot 0001, mantissa 000
    0x0F: 1.875,  # dot 0001, mantissa 111
    0x10: 2.0,  # dot 001, exponent +1
    0x18: 0.5,  # dot 001, exponent -1
    0x20: 4.0,  # dot 01, exponent +2
    0x28: 8.0,  # dot 01, exponent +3
    0x30: 0.25,  # dot 01, exponent -2
    0x40: 16.0,  # dot 10, exponent +4, two mantissa bits
    0x5C: 2.0**-7,  # dot 10, exponent -7
    0x60: 256.0,  # dot 11, exponent +8, one mantissa bit
    0x6E: 32768.0,  # exponent +15: the largest finite value
    0x7F: 1.5 * 2.0**-15,  # exponent -15, mantissa 1
    0x01: 2.0**-22,  # the least denormal
    0x07: 2.0**-16,  # the largest denormal
    0x88: -1.0,
    0xEE: -32768.0,
}


def test_hifloat8_decodes_the_values_its_definition_gives():
    for code, value in HIF8_POINTS.items():
        assert float8.hif8_decode(np.array([code]))[0] == value, hex(code)
    assert np.isnan(float8.hif8_decode(np.array([0x80]))[0])
    assert float8.hif8_decode(np.array([0x6F, 0xEF])).tolist() == [math.inf, -math.inf]
    # every finite byte encodes back to itself (no value has two codes but +-0)
    codes = np.array([c for c in range(256) if c not in (0x80, 0x6F, 0xEF)], np.uint8)
    assert np.array_equal(float8.hif8_encode(float8.hif8_decode(codes)), codes)


def test_hifloat8_rounds_to_nearest_ties_away_and_overflows_to_inf():
    x = np.array([1.0625, -1.0625, 1.06, 2.0**-23, 2.0**-24, 40959.0, 40960.0, 1e9, -math.inf])
    assert float8.hif8_decode(float8.hif8_encode(x)).tolist() == [
        1.125,  # the tie between 1.0 and 1.125 goes away from zero
        -1.125,
        1.0,
        2.0**-22,  # half the least denormal rounds up to it
        0.0,
        32768.0,
        math.inf,  # the midpoint to where the next code would be (49152)
        math.inf,
        -math.inf,
    ]
    assert float8.hif8_encode(np.array([math.nan, -0.0])).tolist() == [0x80, 0x00]


def test_hifloat8_agrees_with_en_dtypes():
    """en_dtypes (what cann-bench's goldens quantise with) as a second implementation."""
    en_dtypes = pytest.importorskip("en_dtypes")
    rng = np.random.default_rng(5)
    x = (rng.standard_normal(100_000) * 10.0 ** rng.uniform(-8, 5, 100_000)).astype(np.float32)
    ties = (float8._HIF8_SORTED[:-1] + float8._HIF8_SORTED[1:]) / 2
    x = np.concatenate([x, ties, -ties]).astype(np.float32)
    assert np.array_equal(float8.hif8_encode(x), x.astype(en_dtypes.hifloat8).view(np.uint8))


@pytest.mark.parametrize("dtype", ["float8_e4m3fn", "float8_e5m2", "float8_e8m0", "hifloat8"])
def test_inputs_are_drawn_as_one_byte_and_compared_as_values(dtype):
    assert DTYPE_BYTES[dtype] == 1 and checker.STORAGE[dtype] == np.uint8
    lo, hi = (0.25, 8.0) if dtype == "float8_e8m0" else (-8.0, 8.0)
    raw = checker._draw(np.random.default_rng(1), dtype, lo, hi, 4096)
    values = checker.to_values(raw, dtype)
    assert raw.dtype == np.uint8 and values.dtype == np.float32
    assert values.min() >= lo and values.max() <= hi
    assert len(np.unique(values)) >= 6  # e8m0: the six powers of two in the range
    assert np.array_equal(checker.to_storage(values, dtype), raw)  # exact values round-trip
    if dtype != "hifloat8":  # the OCP types are ml_dtypes' own rounding
        typed = getattr(ml_dtypes, float8.ML_DTYPES[dtype])
        x = np.linspace(lo, hi, 999, dtype=np.float32)
        assert np.array_equal(checker.to_storage(x, dtype), x.astype(typed).view(np.uint8))


def test_the_checker_judges_float8_by_cann_benchs_threshold():
    from ascend_gym.cannbench.tasks import tolerance

    tol = tolerance({})
    assert tol["float8_e4m3fn"].rtol == 10 * 2.0**-3 and tol["float8_e5m2"].rtol == 10 * 2.0**-2
    want = checker.to_storage(np.array([1.0, 2.0, -3.0, 0.0], np.float32), "float8_e4m3fn")
    one_step = want + np.array([1, 1, 1, 1], np.uint8)  # the next byte: one mantissa step
    assert checker.compare("y", one_step, want, "float8_e4m3fn", tol["float8_e4m3fn"]).passed
    far = checker.to_storage(np.array([1.0, 2.0, -3.0, 1.0], np.float32), "float8_e4m3fn")
    check = checker.compare("y", far, want, "float8_e4m3fn", tol["float8_e4m3fn"])
    assert not check.passed and "first at flat index 3" in check.message
    scale = checker.to_storage(np.array([1.0, 4.0], np.float32), "float8_e8m0")
    doubled = checker.to_storage(np.array([1.0, 8.0], np.float32), "float8_e8m0")
    assert not checker.compare("s", doubled, scale, "float8_e8m0", tol["float8_e8m0"]).passed


QUANT_PROTO = """\
operator:
  name: HifQuant
  difficulty: L3
  inputs:
  - name: x
    dtype: [hifloat8]
  - name: scale
    dtype: [float8_e8m0]
  outputs:
  - name: y
    dtype: [float8_e4m3fn, float8_e5m2]
  schema: hif_quant(Tensor x, Tensor scale) -> Tensor y
"""
QUANT_GOLDEN = """\
import torch


def hif_quant(x: torch.Tensor, scale: torch.Tensor) -> torch.Tensor:
    assert x.dtype == torch.float32 and scale.dtype == torch.float8_e8m0fnu
    return (x * scale.float()).to(torch.float8_e4m3fn)
"""
QUANT_CASES = """\
cases:
- case_id: 1
  input_shape: [[4, 32], [4, 1]]
  dtype: [hifloat8, float8_e8m0]
  attrs: {}
  value_range: [[-4, 4], [0.5, 4]]
"""


def test_a_task_in_float8_and_hifloat8_imports_and_its_golden_answers_float8(tmp_path, monkeypatch):
    monkeypatch.setenv("ASCEND_GYM_DATA", str(tmp_path / "data"))
    root = tmp_path / "fp8_bench"
    write_task(root / "level3" / "hif_quant", QUANT_PROTO, QUANT_GOLDEN, QUANT_CASES, "cases.yaml")
    manifest = import_tasks(root, "cb-fp8")
    assert not manifest.failed and [t.name for t in manifest.tasks] == ["hif_quant"]
    pkg = suite.resolve("op://cb-fp8/level3/hif_quant")
    (case,) = pkg.spec.cases
    assert case.dtypes == {"x": "hifloat8", "scale": "float8_e8m0", "y": "float8_e4m3fn"}
    assert case.shapes["y"] == [4, 32]  # said by the golden
    assert pkg.spec.tolerance_for("float8_e4m3fn").rtol == 10 * 2.0**-3

    inputs = checker.make_inputs(pkg, case, seed=3)
    (y,) = checker.reference_outputs(pkg, case, inputs)
    x = checker.to_values(inputs["x"], "hifloat8")
    scale = checker.to_values(inputs["scale"], "float8_e8m0")
    want = (x * scale).astype(ml_dtypes.float8_e4m3fn).view(np.uint8)
    assert y.dtype == np.uint8 and np.array_equal(y, want)
    assert checker.compare(
        "y", want, y, "float8_e4m3fn", pkg.spec.tolerance_for("float8_e4m3fn")
    ).passed
