"""A group_norm kernel (`k.group_norm`: rows of one sample's group of channels, three walks in
chunks, the per-channel affine a plane at a time) on both engines, against a numpy reference of
torch's definition: the group count from an int attribute (cases of 8 and 3 groups: one
program), planes that are not multiples of 8, fp32 and fp16, with and without an affine."""

from __future__ import annotations

import pytest

from ascend_core.package import OperatorPackage, OperatorSpec
from ascend_gym.dsl.generate import build
from ascend_gym.dsl.lang import DslError

from .conftest import passes

REFERENCE = """\
import numpy as np


def _group_norm(x, groups, eps, weight=None, bias=None):
    n, c = x.shape[:2]
    g = x.astype(np.float64).reshape(n, groups, -1)
    y = (g - g.mean(-1, keepdims=True)) / np.sqrt(g.var(-1, keepdims=True) + eps)
    y = y.reshape(x.shape)
    at = (1, c) + (1,) * (x.ndim - 2)  # a value a channel
    if weight is not None:
        y = y * weight.astype(np.float64).reshape(at) + bias.astype(np.float64).reshape(at)
    return y.astype(x.dtype)


def group_norm_affine(x, weight, bias, num_groups=4, eps=1e-5):
    return _group_norm(x, num_groups, eps, weight, bias)


def group_norm_plain(x):
    return _group_norm(x, 2, 1e-3)
"""

PROGRAM = """\
from ascend_gym.dsl import Kernel

k = Kernel("{name}")
x = k.input("x")
{decls}y = k.output("y")
k.group_norm(y, x, {operands})
"""

AFFINE = (
    'weight = k.input("weight")\nbias = k.input("bias")\neps = k.attr("eps")\n',
    'groups="num_groups", eps=eps, weight=weight, bias=bias',
)


def spec(name: str) -> OperatorSpec:
    affine = name == "group_norm_affine"
    # (dtype, x's shape, groups): planes of 16 x 16, 50 and 7 x 3 elements
    shapes = (
        [("float32", [4, 32, 16, 16], 8), ("float16", [2, 12, 50], 3)]
        if affine
        else [("float32", [3, 6, 7, 3], 2)]
    )
    cases = []
    for i, (dtype, x, g) in enumerate(shapes):
        case = {"name": f"c{i}", "dtype": dtype, "shapes": {"x": x, "y": x}, "bench": i == 0}
        if affine:
            case["shapes"] |= {"weight": [x[1]], "bias": [x[1]]}
            case["attrs"] = {"num_groups": g}
        cases.append(case)
    dtypes = sorted({d for d, _, _ in shapes})
    names = ["x", "weight", "bias"] if affine else ["x"]
    return OperatorSpec.model_validate(
        {
            "name": name,
            "level": 2,
            "category": "normalization",
            "description": f"{name}: F.group_norm",
            "inputs": [{"name": n, "dtypes": dtypes} for n in names],
            "outputs": [{"name": "y", "dtypes": dtypes}],
            "attrs": [
                {"name": "num_groups", "type": "int", "default": 4},
                {"name": "eps", "type": "float", "default": 1e-5},
            ]
            if affine
            else [],
            "reference": f"reference:{name}",
            "cases": cases,
        }
    )


def package(name: str) -> OperatorPackage:
    decls, operands = AFFINE if name == "group_norm_affine" else ("", "groups=2, eps=0.001")
    program = PROGRAM.format(name=name, decls=decls, operands=operands)
    return build(OperatorPackage(spec=spec(name), files={"reference.py": REFERENCE}), program)


def test_group_norm_reads_its_group_count_and_walks_a_row_three_times():
    pkg = package("group_norm_affine")
    host = pkg.files["op_host/group_norm_affine.cpp"]
    assert "context->GetAttrs()->GetInt(0);  // num_groups" in host
    assert 'this->Attr("num_groups").AttrType(OPTIONAL).Int(4);' in host
    kernel = pkg.kernel_source
    assert kernel.count("Walk(at, ") == 2 and "static_cast<float>(wGm.GetValue(ch))" in kernel
    plain = package("group_norm_plain")
    assert "const int64_t groups = 2;" in plain.files["op_host/group_norm_plain.cpp"]
    assert "wGm" not in plain.kernel_source


def test_a_group_count_attribute_must_be_an_int_one():
    program = PROGRAM.format(
        name="group_norm_affine", decls=AFFINE[0], operands=AFFINE[1].replace("num_groups", "eps")
    )
    with pytest.raises(DslError, match="'eps' is not an int attribute"):
        build(
            OperatorPackage(spec=spec("group_norm_affine"), files={"reference.py": REFERENCE}),
            program,
        )


def test_a_group_norm_kernel_reads_the_specs_operands():
    program = PROGRAM.format(name="group_norm_affine", decls="", operands="groups=2, eps=0.001")
    with pytest.raises(DslError, match=r"inputs x\(, weight, bias\) in order"):
        build(
            OperatorPackage(spec=spec("group_norm_affine"), files={"reference.py": REFERENCE}),
            program,
        )


@pytest.mark.slow
@pytest.mark.parametrize("name", ["group_norm_affine", "group_norm_plain"])
def test_a_group_norm_kernel_passes_alike_on_both_engines(client, native, name):
    pkg = package(name)
    guest = passes(client, pkg, "dsl-group-norm")
    assert guest.latency_us == pytest.approx(
        passes(native, pkg, "dsl-group-norm").latency_us, rel=0.1
    )
