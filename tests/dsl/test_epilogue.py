"""A matmul with an element-wise epilogue (`k.cube()`): bias, activation, scale, a residual of
C's shape and a [1] scale on the vector cores of a mixed kernel, on both engines; the offline
template finds the epilogue in a reference."""

from __future__ import annotations

import pytest

from ascend_core.package import OperatorPackage, OperatorSpec
from ascend_gym.client import DaemonClient
from ascend_gym.dsl.generate import build, generate_offline
from ascend_gym.dsl.lang import DslError

from .conftest import passes

LINEAR_ACT = """\
import numpy as np


def linear_act(x, w, b, res, scale):
    p = x.astype(np.float32) @ w.astype(np.float32).T + b  # the product rounded once, as torch's
    p = p.astype(x.dtype).astype(np.float32)
    h = np.maximum(p, 0) * 0.5 + res.astype(np.float32) * scale
    return h.astype(x.dtype), (p * 2).astype(x.dtype)
"""

PROGRAM = """\
from ascend_gym.dsl import Kernel, relu

k = Kernel("linear_act")
x = k.input("x")
w = k.input("w")
b = k.input("b")
res = k.input("res")
scale = k.input("scale", "scalar")
y = k.output("y")
z = k.output("z")
with k.cube(x, w, trans_b=True, bias=b) as m:
    p = m.product().float()
    m.store(y, relu(p) * 0.5 + m.load(res).float() * m.load(scale))
    m.store(z, p * 2)
k.schedule(block_dim=4, rows_per_tile=16)
"""


def linear_act(dtype: str = "float32") -> OperatorPackage:
    def case(name: str, m: int, n: int, kk: int, bench: bool = False) -> dict:
        return {
            "name": name,
            "dtype": dtype,
            "shapes": {
                **{"x": [m, kk], "w": [n, kk], "b": [n], "res": [m, n], "scale": [1]},
                **{"y": [m, n], "z": [m, n]},
            },
            "dtypes": {"b": "float32", "scale": "float32"},
            "bench": bench,
        }

    spec = OperatorSpec.model_validate(
        {
            "name": "linear_act",
            "level": 2,
            "category": "matmul",
            "description": "relu(x @ w.T + b) / 2 + res * scale, and 2 (x @ w.T + b)",
            "inputs": [
                {"name": "x", "dtypes": [dtype]},
                {"name": "w", "dtypes": [dtype]},
                {"name": "b", "dtypes": ["float32"]},
                {"name": "res", "dtypes": [dtype]},
                {"name": "scale", "dtypes": ["float32"]},
            ],
            "outputs": [{"name": "y", "dtypes": [dtype]}, {"name": "z", "dtypes": [dtype]}],
            "reference": "reference:linear_act",
            "cases": [case("tails", 100, 72, 40), case("blocks", 256, 320, 64, bench=True)],
        }
    )
    return OperatorPackage(spec=spec, files={"reference.py": LINEAR_ACT})


def _run(client: DaemonClient, pkg: OperatorPackage):
    return passes(client, pkg, "dsl-epilogue")


@pytest.mark.parametrize("dtype", ["float32", "float16"])
def test_a_written_epilogue_passes_on_both_engines(client, native, dtype):
    pkg = build(linear_act(dtype), PROGRAM)
    kernel = pkg.files["op_kernel/linear_act.cpp"]
    assert "KERNEL_TYPE_MIX_AIC_1_2" in kernel and "mm.IterateAll(cGm[cOff]);" in kernel
    guest = _run(client, pkg)
    assert guest.latency_us == pytest.approx(_run(native, pkg).latency_us, rel=0.02)


RESIDUAL = """\
import numpy as np


def gemm_tanh(x, w, b, res, alpha):
    return (np.tanh(x @ w + b) * alpha + res).astype(np.float32)
"""


def gemm_tanh() -> OperatorPackage:
    spec = OperatorSpec.model_validate(
        {
            "name": "gemm_tanh",
            "level": 2,
            "category": "matmul",
            "description": "tanh(x @ w + b) * alpha + res",
            "inputs": [{"name": n, "dtypes": ["float32"]} for n in ("x", "w", "b", "res")],
            "outputs": [{"name": "y", "dtypes": ["float32"]}],
            "attrs": [{"name": "alpha", "type": "float", "default": 1.0}],
            "reference": "reference:gemm_tanh",
            "cases": [
                {
                    "name": "fp32",
                    "dtype": "float32",
                    "shapes": {
                        **{"x": [3, 40, 32], "w": [32, 56], "b": [56]},
                        **{"res": [3, 40, 56], "y": [3, 40, 56]},
                    },
                    "attrs": {"alpha": 0.75},
                    "bench": True,
                }
            ],
        }
    )
    return OperatorPackage(spec=spec, files={"reference.py": RESIDUAL})


def test_the_template_writes_the_epilogue_of_a_reference(client):
    pkg, draft = generate_offline(gemm_tanh())
    assert draft.category == "matmul"
    assert "with k.cube(x, w, bias=b) as m:" in draft.source  # the bias as the cube's initial C
    assert "p = m.product().float()" in draft.source and "m.load(res)" in draft.source
    _run(client, pkg)


def test_the_cube_loop_refuses_what_it_does_not_lower():
    where = PROGRAM.replace("relu(p) * 0.5", "where(p > 0, p, 0)").replace(", relu", ", where")
    with pytest.raises(DslError, match="comparisons and where"):
        build(linear_act(), where)
    with pytest.raises(DslError, match="x is a matmul operand: use product"):
        build(linear_act(), PROGRAM.replace("m.load(res)", "m.load(x)"))
    with pytest.raises(DslError, match="cube\\(\\) loops store full tensors"):
        build(linear_act(), PROGRAM.replace('k.output("z")', 'k.output("z", "rows")'))


SWAP_ACT = """\
import numpy as np


def swap_act(x, scale):
    return np.maximum(np.swapaxes(x, -1, -2) * scale, 0).astype(x.dtype)
"""


def swap_act() -> OperatorPackage:
    spec = OperatorSpec.model_validate(
        {
            "name": "swap_act",
            "level": 2,
            "category": "transpose",
            "description": "relu(x^T * scale)",
            "inputs": [{"name": "x", "dtypes": ["float16"]}],
            "outputs": [{"name": "y", "dtypes": ["float16"]}],
            "attrs": [{"name": "scale", "type": "float", "default": 1.0}],
            "reference": "reference:swap_act",
            "cases": [
                {
                    "name": "tails",
                    "dtype": "float16",
                    "shapes": {"x": [2, 40, 72], "y": [2, 72, 40]},
                    "attrs": {"scale": 0.5},
                    "bench": True,
                }
            ],
        }
    )
    return OperatorPackage(spec=spec, files={"reference.py": SWAP_ACT})


def test_work_around_a_transpose_passes_on_both_engines(client, native):
    pkg, draft = generate_offline(swap_act())
    assert "with k.transposed(y, x) as t:" in draft.source
    guest = _run(client, pkg)
    assert guest.latency_us == pytest.approx(_run(native, pkg).latency_us, rel=0.02)
    with pytest.raises(DslError, match="loads its input x only"):
        build(
            linear_act(),
            PROGRAM.replace("k.cube(x, w, trans_b=True, bias=b)", "k.transposed(y, x)").replace(
                "m.product()", "m.load(res)"
            ),
        )
