"""An attention kernel (`k.attention`: q @ k^T on the cube, the softmax on the vector cores, p @ v
on the cube, in one mixed launch) on both engines, against a numpy reference of the definition:
key/value heads shared by groups of query heads, rows and keys that are not multiples of 16
(the softmax's UB pitch, the items' tails), fp16 and bf16, a given scale and torch's default."""

from __future__ import annotations

import pytest

from ascend_core.package import OperatorPackage, OperatorSpec
from ascend_gym.dsl.generate import build
from ascend_gym.dsl.lang import DslError

from .conftest import passes

REFERENCE = """\
import numpy as np


def _attention(q, k, v, scale, bias=0.0):
    group = q.shape[-3] // k.shape[-3]
    k = np.repeat(k.astype(np.float64), group, axis=-3)
    v = np.repeat(v.astype(np.float64), group, axis=-3)
    s = q.astype(np.float64) @ np.swapaxes(k, -1, -2) * scale + np.asarray(bias, np.float64)
    p = np.exp(s - s.max(axis=-1, keepdims=True))
    p = (p / p.sum(axis=-1, keepdims=True)).astype(q.dtype)  # rounded for the second matmul
    return (p.astype(np.float64) @ v).astype(q.dtype)


def attention_gqa(q, k, v):
    return _attention(q, k, v, 1.0 / np.sqrt(q.shape[-1]))


def attention_scaled(q, k, v):
    return _attention(q, k, v, 0.3)


def attention_biased(q, k, v, bias=None):
    return _attention(q, k, v, 0.2, 0.0 if bias is None else bias)
"""

PROGRAM = """\
from ascend_gym.dsl import Kernel

k = Kernel("{name}")
q = k.input("q")
key = k.input("k")
v = k.input("v")
{bias}out = k.output("out")
k.attention(out, q, key, v{scale})
"""

# name: (scale argument, cases: dtype, q, k / v, v's last axis)
ATTENTIONS = {
    "attention_gqa": (
        "",
        [
            ("float16", [2, 4, 40, 32], [2, 2, 72, 32], 32),
            ("bfloat16", [1, 3, 17, 16], [1, 1, 33, 16], 48),
        ],
    ),
    "attention_scaled": (", scale=0.3", [("float16", [3, 70, 64], [3, 50, 64], 32)]),
    # a bias [H, S, L] over q [B, H, S, D]: q's matrix h adds the bias's h % H
    # the second case leaves the (optional) bias out: the same kernel adds nothing
    "attention_biased": (
        ", scale=0.2, bias=b",
        [
            ("float16", [2, 3, 40, 32], [2, 3, 56, 32], 32),
            ("float16", [1, 2, 24, 16], [1, 2, 40, 16], 16),
        ],
    ),
}


def attention_spec(name: str) -> OperatorPackage:
    cases = []
    for i, (dtype, q, kv, e) in enumerate(ATTENTIONS[name][1]):
        shapes = {"q": q, "k": kv, "v": [*kv[:-1], e], "out": [*q[:-1], e]}
        case = {"name": f"c{i}", "dtype": dtype, "shapes": shapes, "bench": i == 0}
        if name == "attention_biased" and i == 0:
            shapes["bias"] = [*q[1:-1], kv[-2]]
        elif name == "attention_biased":
            case["absent"] = ["bias"]
        cases.append(case)
    dtypes = sorted({c["dtype"] for c in cases})
    spec = OperatorSpec.model_validate(
        {
            "name": name,
            "level": 2,
            "category": "attention",
            "description": f"{name}: softmax(q @ k^T * scale) @ v",
            "inputs": [{"name": n, "dtypes": dtypes} for n in cases[0]["shapes"] if n != "out"],
            "outputs": [{"name": "out", "dtypes": dtypes}],
            "reference": f"reference:{name}",
            "cases": cases,
        }
    )
    return OperatorPackage(spec=spec, files={"reference.py": REFERENCE})


def attention_package(name: str) -> OperatorPackage:
    bias = 'b = k.input("bias")\n' if name == "attention_biased" else ""
    program = PROGRAM.format(name=name, scale=ATTENTIONS[name][0], bias=bias)
    return build(attention_spec(name), program)


def test_attention_lowers_to_two_matmuls_and_a_softmax_between():
    pkg = attention_package("attention_gqa")
    kernel, host = pkg.kernel_source, pkg.files["op_host/attention_gqa.cpp"]
    assert "qk.IterateAll(gs);" in kernel and "pv.IterateAll(gout[" in kernel
    assert "ReduceMax(red[r * SLOT], row, work, L);" in kernel
    assert "h / t.group" in kernel  # shared key / value heads
    assert "1.0f / std::sqrt(static_cast<float>(D))" in host
    assert (
        "set_scale(0.3f)"
        in attention_package("attention_scaled").files["op_host/attention_scaled.cpp"]
    )
    biased = attention_package("attention_biased")
    assert "Add(row, row, widened, L);" in biased.kernel_source
    assert "h / t.biasDiv % t.biasMod" in biased.kernel_source
    assert 'this->Input("bias").ParamType(OPTIONAL)' in biased.files["op_host/attention_biased.cpp"]


def test_attention_refuses_operands_other_than_the_specs_three():
    with pytest.raises(DslError, match=r"inputs q, k, v\(, bias\) in order"):
        build(
            attention_spec("attention_gqa"),
            PROGRAM.format(name="attention_gqa", scale="", bias="").replace(
                "q, key, v", "q, v, key"
            ),
        )


@pytest.mark.slow
@pytest.mark.parametrize("name", list(ATTENTIONS))
def test_an_attention_kernel_passes_alike_on_both_engines(client, native, name):
    pkg = attention_package(name)
    guest = passes(client, pkg, "dsl-attention")
    assert guest.latency_us == pytest.approx(
        passes(native, pkg, "dsl-attention").latency_us, rel=0.1
    )
