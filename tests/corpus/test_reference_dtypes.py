"""A numpy reference that declares `dtypes` gets the case's dtype of every argument: bfloat16
reaches it as float32 values, so this is how it rounds an intermediate as the device does."""

from pathlib import Path

import numpy as np
import pytest
from pydantic import ValidationError

from ascend_core.package import OperatorPackage, OperatorSpec, load_package
from npu_daemon import checker

OPS = Path(__file__).resolve().parents[2] / "ascend_gym" / "corpus" / "ops"

SPEC = {
    "name": "round_sum",
    "inputs": [{"name": "x", "dtypes": ["float32", "bfloat16"]}],
    "outputs": [{"name": "y", "dtypes": ["float32"]}],
    "attrs": [{"name": "scale", "type": "float", "default": 1.0}],
    "reference": "reference:round_sum",
    "cases": [
        {"name": "f32", "dtype": "float32", "shapes": {"x": [4], "y": [4]}},
        {
            "name": "bf16",
            "dtype": "bfloat16",
            "shapes": {"x": [4], "y": [4]},
            "dtypes": {"y": "float32"},
            "bench": True,
        },
    ],
}
SEEN = """
def round_sum(x, scale, dtypes):
    code = {"float32": 1.0, "bfloat16": 2.0}
    return np.full(x.shape, code[dtypes["x"]] * 10 + code[dtypes["y"]] + scale)
"""


def test_a_reference_declaring_dtypes_gets_each_arguments_dtype_of_the_case():
    pkg = OperatorPackage(spec=OperatorSpec.model_validate(SPEC), files={"reference.py": SEEN})
    f32, bf16 = pkg.spec.cases
    (y,) = checker.reference_outputs(pkg, f32, checker.make_inputs(pkg, f32, 0))
    assert np.all(y == 12.0)  # x float32, y float32, scale 1
    (y,) = checker.reference_outputs(pkg, bf16, checker.make_inputs(pkg, bf16, 0))
    assert np.all(y == 22.0)  # x bfloat16 (values as float32), y float32


def test_a_reference_without_the_parameter_is_called_as_before():
    plain = "def round_sum(x, scale):\n    return x * scale\n"
    pkg = OperatorPackage(spec=OperatorSpec.model_validate(SPEC), files={"reference.py": plain})
    case = pkg.spec.cases[1]
    inputs = checker.make_inputs(pkg, case, 0)
    (y,) = checker.reference_outputs(pkg, case, inputs)
    assert np.array_equal(y, checker.to_values(inputs["x"], "bfloat16"))


def test_an_attr_named_dtypes_is_a_spec_error():
    spec = {**SPEC, "attrs": [{"name": "dtypes", "type": "int", "default": 0}]}
    with pytest.raises(ValidationError, match="dtypes"):
        OperatorSpec.model_validate(spec)


def test_inplace_add_rms_norm_normalises_the_sum_rounded_to_bf16():
    pkg = load_package(OPS / "inplace_add_rms_norm")
    case = next(c for c in pkg.spec.cases if c.name == "rows_bf16")
    inputs = checker.make_inputs(pkg, case, 0)
    _, rstd, _ = checker.reference_outputs(pkg, case, inputs)
    x1, x2 = (checker.to_values(inputs[n], "bfloat16") for n in ("x1", "x2"))
    x = checker.to_values(checker.to_storage(x1 + x2, "bfloat16"), "bfloat16").astype(np.float64)
    want = 1.0 / np.sqrt((x * x).mean(axis=-1, keepdims=True) + 1e-05)
    assert np.array_equal(rstd, want.astype(np.float32))
