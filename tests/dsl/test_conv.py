"""A conv kernel (`k.conv`: a Gather and an Axpy per tap, weights read by the scalar unit) on both
engines: a depthwise conv1d with a bias in fp32 and a grouped, strided, padded conv2d in fp16,
each checked against a numpy reference of convolution's definition, with the same verdict and
simulated latencies within 10 % (measured gaps below)."""

from __future__ import annotations

import pytest

from ascend_core.package import OperatorPackage, OperatorSpec
from ascend_gym.dsl.generate import build
from ascend_gym.dsl.lang import DslError

from .conftest import passes

REFERENCE = """\
import numpy as np


def _conv(x, w, b, stride, padding):
    n = w.ndim - 2
    x, w = x.astype(np.float64), w.astype(np.float64)
    cin, cout = x.shape[-n - 1], w.shape[0]
    groups, cg = cin // w.shape[1], w.shape[1]
    padded = np.pad(x, [(0, 0)] * (x.ndim - n) + [(p, p) for p in padding])
    sizes = [(m + 2 * p - k) // s + 1 for m, k, s, p in zip(x.shape[-n:], w.shape[2:], stride, padding)]
    out = np.zeros((*x.shape[: -n - 1], cout, *sizes))
    for o in range(cout):
        for c in range(cg):
            for tap in np.ndindex(*w.shape[2:]):
                region = [slice(None)] * (x.ndim - n - 1) + [o // (cout // groups) * cg + c]
                region += [slice(t, t + s * (m - 1) + 1, s) for t, s, m in zip(tap, stride, sizes)]
                out[(..., o) + (slice(None),) * n] += w[(o, c, *tap)] * padded[tuple(region)]
    if b is not None:
        out += b.astype(np.float64).reshape(cout, *(1,) * n)
    return out


def conv_depthwise(x, w, b):
    return _conv(x, w, b, (1,), (2,)).astype(x.dtype)


def conv_grouped(x, w):
    return _conv(x, w, None, (2, 1), (1, 1)).astype(x.dtype)
"""

PROGRAM = """\
from ascend_gym.dsl import Kernel

k = Kernel("{name}")
x = k.input("x")
w = k.input("w")
{bias}y = k.output("y")
k.conv(y, x, w, {call})
k.schedule(buffer_num=2, block_dim=8)
"""

CONVS = {
    "conv_depthwise": ("bias=b, stride=(1,), padding=(2,)", "float32", [2, 6, 40], [6, 1, 4], 41),
    "conv_grouped": ("stride=(2, 1), padding=(1, 1)", "float16", [2, 4, 9, 12], [6, 2, 3, 3], 12),
}


def conv_spec(name: str) -> OperatorPackage:
    _, dtype, x, w, last = CONVS[name]
    shapes = {"x": x, "w": w}
    if name == "conv_depthwise":
        shapes["b"] = [w[0]]
        shapes["y"] = [x[0], w[0], last]
    else:
        shapes["y"] = [x[0], w[0], (x[2] + 2 - 3) // 2 + 1, last]
    spec = OperatorSpec.model_validate(
        {
            "name": name,
            "level": 1,
            "category": "convolution",
            "description": f"{name}: a convolution",
            "inputs": [{"name": n, "dtypes": [dtype]} for n in shapes if n != "y"],
            "outputs": [{"name": "y", "dtypes": [dtype]}],
            "reference": f"reference:{name}",
            "cases": [{"name": "c", "dtype": dtype, "shapes": shapes, "bench": True}],
        }
    )
    return OperatorPackage(spec=spec, files={"reference.py": REFERENCE})


def test_a_conv_kernel_reads_the_specs_operands():
    call = CONVS["conv_depthwise"][0].replace("bias=b, ", "")
    program = PROGRAM.format(name="conv_depthwise", call=call, bias="")
    with pytest.raises(DslError, match=r"inputs x, weight\(, bias\) in order"):
        build(conv_spec("conv_depthwise"), program)


@pytest.mark.slow
@pytest.mark.parametrize("name", list(CONVS))
def test_a_conv_kernel_passes_alike_on_both_engines(client, native, name):
    bias = 'b = k.input("b")\n' if name == "conv_depthwise" else ""
    pkg = build(conv_spec(name), PROGRAM.format(name=name, call=CONVS[name][0], bias=bias))
    assert "Axpy(acc, tap" in pkg.kernel_source
    guest = passes(client, pkg, "dsl-conv")
    # measured: conv_depthwise 3.96 us guest against 4.21 us native (6 %), conv_grouped within
    # 5 %; the guest is the faster, as on the pool kernel (4 %) whose walk this shares, and the
    # conv adds a scalar GM read per tap: the engines' scalar-unit charge is the suspect, not
    # established here
    assert guest.latency_us == pytest.approx(passes(native, pkg, "dsl-conv").latency_us, rel=0.1)
