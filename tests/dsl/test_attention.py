"""An attention kernel (`k.attention`: q @ k^T on the cube, the softmax on the vector cores, p @ v
on the cube, in one mixed launch) on both engines, against a numpy reference of the definition:
key/value heads shared by groups of query heads, rows and keys that are not multiples of 16
(the softmax's UB pitch, the items' tails), fp16 and bf16, a given scale and torch's default,
a bool mask input and a causal diagonal (masked_fill(-inf): a row masked whole is NaN)."""

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


def attention_keep(q, k, v, mask):
    # masked_fill(~mask, -inf): a row masked whole is NaN, as torch's softmax gives it
    with np.errstate(invalid="ignore"):
        return _attention(q, k, v, 0.25, np.where(mask != 0, 0.0, -np.inf))


def attention_causal(q, k, v):
    # tril(ones(S, L), diagonal=-1): row 0 sees no key (NaN), row i the keys j < i
    keep = np.tril(np.ones((q.shape[-2], k.shape[-2])), -1)
    with np.errstate(invalid="ignore"):
        return _attention(q, k, v, 1.0 / np.sqrt(q.shape[-1]), np.where(keep != 0, 0.0, -np.inf))
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


# masks: a bool `keep` mask [B, 1, S, L] (its row 3 of batch 1 masked whole) and causal rows
MASKED = {
    "attention_keep": ("keep=m", [("float16", [2, 3, 20, 32], [2, 3, 45, 32], 32)]),
    "attention_causal": ("causal=-1", [("bfloat16", [1, 2, 24, 16], [1, 2, 40, 16], 16)]),
}


def masked_spec(name: str) -> OperatorPackage:
    dtype, q, kv, e = MASKED[name][1][0]
    shapes = {"q": q, "k": kv, "v": [*kv[:-1], e], "out": [*q[:-1], e]}
    case: dict = {"name": "c0", "dtype": dtype, "shapes": shapes, "bench": True}
    inputs = [{"name": n, "dtypes": [dtype]} for n in ("q", "k", "v")]
    if name == "attention_keep":
        b, s, n = q[0], q[-2], kv[-2]
        shapes["mask"] = [b, 1, s, n]
        inputs.append({"name": "mask", "dtypes": ["bool"]})
        case["dtypes"] = {"mask": "bool"}
        case["ranges"] = {"mask": (0, 1)}
        case["points"] = {"mask": [((s + 3) * n + j, 0) for j in range(n)]}
    spec = OperatorSpec.model_validate(
        {
            "name": name,
            "level": 2,
            "category": "attention",
            "description": f"{name}: softmax(q @ k^T * scale, masked) @ v",
            "inputs": inputs,
            "outputs": [{"name": "out", "dtypes": [dtype]}],
            "reference": f"reference:{name}",
            "cases": [case],
        }
    )
    return OperatorPackage(spec=spec, files={"reference.py": REFERENCE})


def masked_package(name: str) -> OperatorPackage:
    mask = 'm = k.input("mask")\n' if name == "attention_keep" else ""
    scale = ", scale=0.25" if name == "attention_keep" else ""
    program = PROGRAM.format(name=name, scale=f"{scale}, {MASKED[name][0]}", bias=mask)
    return build(masked_spec(name), program)


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


def test_masks_become_minus_infinity_by_a_compare_and_a_select():
    keep = masked_package("attention_keep").kernel_source
    assert "CompareScalar(keep, AsFloat(mk[r * P], via, wide, LA), 0.0f, CMPMODE::NE, LA);" in keep
    assert "Select(row, keep, row, -__builtin_huge_valf()" in keep
    assert "h / t.maskDiv % t.maskMod" in keep
    causal = masked_package("attention_causal").kernel_source
    assert "constexpr int32_t DIAG = -1;" in causal and "CMPMODE::LE, LA);" in causal
    assert "AsFloat" not in causal  # no mask input: no widening


def test_attention_refuses_operands_other_than_the_specs_three():
    with pytest.raises(DslError, match=r"inputs q, k, v\(, bias, mask\) in order"):
        build(
            attention_spec("attention_gqa"),
            PROGRAM.format(name="attention_gqa", scale="", bias="").replace(
                "q, key, v", "q, v, key"
            ),
        )


def test_a_mask_of_one_axis_is_refused():
    spec = masked_spec("attention_keep")
    spec.spec.cases[0].shapes["mask"] = [20 * 45]
    spec.spec.cases[0].points.clear()  # the whole-row points index the 4-axis mask
    program = PROGRAM.format(
        name="attention_keep", scale=", scale=0.25, keep=m", bias='m = k.input("mask")\n'
    )
    with pytest.raises(DslError, match="an attention operand of one axis"):
        build(spec, program)


def test_one_mask_input_a_kernel():
    program = PROGRAM.format(
        name="attention_keep", scale=", keep=m, drop=m", bias='m = k.input("mask")\n'
    )
    with pytest.raises(DslError, match="one mask input"):
        build(masked_spec("attention_keep"), program)


@pytest.mark.slow
@pytest.mark.parametrize("name", [*ATTENTIONS, *MASKED])
def test_an_attention_kernel_passes_alike_on_both_engines(client, native, name):
    # the masked ones: a row masked whole is NaN in the reference and in the kernel
    pkg = masked_package(name) if name in MASKED else attention_package(name)
    guest = passes(client, pkg, "dsl-attention")
    assert guest.latency_us == pytest.approx(
        passes(native, pkg, "dsl-attention").latency_us, rel=0.1
    )
