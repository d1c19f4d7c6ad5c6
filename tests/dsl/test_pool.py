"""A pool kernel (`k.pool`: a Gather per tap from offsets the scalar unit writes once) on both
engines: max over padded 2-d windows in fp16 and a mean over strided 1-d windows in fp32, each
checked against a numpy reference of pooling's definition, with simulated latencies within 5 %."""

from __future__ import annotations

import pytest

from ascend_core.package import OperatorPackage, OperatorSpec
from ascend_gym.dsl.generate import build

from .conftest import passes

REFERENCE = """\
import numpy as np


def _pool(x, kernel, stride, padding, kind):
    n = len(kernel)
    fill = -np.inf if kind == "max" else 0.0
    x = x.astype(np.float64)
    padded = np.pad(x, [(0, 0)] * (x.ndim - n) + [(p, p) for p in padding], constant_values=fill)
    sizes = [(m + 2 * p - k) // s + 1 for m, k, s, p in zip(x.shape[-n:], kernel, stride, padding)]
    taps = []
    for tap in np.ndindex(*kernel):
        region = [slice(None)] * (x.ndim - n)
        region += [slice(t, t + s * (o - 1) + 1, s) for t, s, o in zip(tap, stride, sizes)]
        taps.append(padded[tuple(region)])
    return np.max(taps, axis=0) if kind == "max" else np.mean(taps, axis=0)


def max_pool_pad(x):
    return _pool(x, (3, 3), (2, 2), (1, 1), "max").astype(x.dtype)


def avg_pool_stride(x):
    return _pool(x, (4,), (2,), (1,), "avg").astype(x.dtype)
"""

PROGRAM = """\
from ascend_gym.dsl import Kernel

k = Kernel("{name}")
x = k.input("x")
y = k.output("y")
k.pool(y, x, {call})
k.schedule(buffer_num=2, block_dim=8)
"""

POOLS = {
    "max_pool_pad": (
        '"max", kernel=(3, 3), stride=(2, 2), padding=(1, 1)',
        "float16",
        [2, 4, 17, 23],
        [2, 4, 9, 12],
    ),
    "avg_pool_stride": (
        '"avg", kernel=(4,), stride=(2,), padding=(1,)',
        "float32",
        [3, 8, 50],
        [3, 8, 25],
    ),
}


def pool_spec(name: str) -> OperatorPackage:
    _, dtype, x, y = POOLS[name]
    spec = OperatorSpec.model_validate(
        {
            "name": name,
            "level": 1,
            "category": "pooling",
            "description": f"{name}: windows reduced by max or mean",
            "inputs": [{"name": "x", "dtypes": [dtype]}],
            "outputs": [{"name": "y", "dtypes": [dtype]}],
            "reference": f"reference:{name}",
            "cases": [{"name": "c", "dtype": dtype, "shapes": {"x": x, "y": y}, "bench": True}],
        }
    )
    return OperatorPackage(spec=spec, files={"reference.py": REFERENCE})


@pytest.mark.slow
@pytest.mark.parametrize("name", list(POOLS))
def test_a_pool_kernel_passes_alike_on_both_engines(client, native, name):
    pkg = build(pool_spec(name), PROGRAM.format(name=name, call=POOLS[name][0]))
    assert "Gather(tap" in pkg.kernel_source
    guest = passes(client, pkg, "dsl-pool")
    # 3.53 us guest against 3.68 us native for the mean (the max within 2 %): a difference not
    # yet traced, the taps' offsets being the kernel's one scalar loop
    assert guest.latency_us == pytest.approx(passes(native, pkg, "dsl-pool").latency_us, rel=0.05)
