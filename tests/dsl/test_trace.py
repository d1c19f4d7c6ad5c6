"""The reference tracer and the template choice, without the simulator."""

from __future__ import annotations

import numpy as np
import pytest

from ascend_core import suite
from ascend_gym.dsl.generate import offline_draft
from ascend_gym.dsl.trace import Unsupported, trace


def _ops(root):
    seen, out = set(), []

    def visit(s):
        if id(s) not in seen:
            seen.add(id(s))
            for a in s.args:
                visit(a)
            out.append((s.op, s.fn))

    visit(root)
    return out


def test_attributes_are_traced_by_name_even_through_float():
    def ref(x, scalar=2.0):
        return np.power(float(scalar), x.astype(np.float64)) * scalar

    (root,) = trace(ref, {"x": (4, 8)}, ["scalar"])
    attrs = {s.name for s in [root, *root.args, *root.args[0].args] if s.op == "attr"}
    assert attrs == {"scalar"} and ("binary", "pow") in _ops(root)


def test_arithmetic_on_attributes_outside_tensors_is_refused():
    with pytest.raises(Unsupported, match="attributes"):
        trace(lambda x, a=1.0: x * (a * 3.0), {"x": (8,)}, ["a"])


def test_small_integer_powers_unroll_and_logaddexp_is_the_stable_form():
    (cube,) = trace(lambda x: x**3, {"x": (8,)}, [])
    assert [op for op in _ops(cube) if op[0] != "input"] == [("binary", "mul")] * 2
    (sp,) = trace(lambda x: np.logaddexp(0, x), {"x": (8,)}, [])
    fns = {fn for _, fn in _ops(sp)}
    assert {"max", "abs", "exp", "log"} <= fns  # max(x, 0) + log(1 + e^-|x|)


@pytest.mark.parametrize(
    ("ref", "why"),
    [
        (lambda x: x[0], "indexing"),
        (lambda x: np.sort(x), "np.sort"),
        (lambda x: x.max(), "more than one axis"),
        (lambda x: np.cumsum(x), "flattened"),
    ],
)
def test_outside_the_vocabulary_says_what(ref, why):
    with pytest.raises(Unsupported, match=why):
        trace(ref, {"x": (4, 8)}, [])


@pytest.mark.parametrize(
    ("op", "category"),
    [
        ("level1/add", "elementwise"),
        ("level2/broadcast_mul_row", "broadcast"),
        ("level2/reduce_sum_last", "reduction"),
        ("level2/rms_norm", "normalization"),
        ("level2/reduce_sum_mid", "reduction"),
        ("level2/cummax", "scan"),
    ],
)
def test_the_category_follows_the_reference(op, category):
    draft = offline_draft(suite.resolve(op))
    assert draft.category == category
    assert f'k = Kernel("{op.split("/")[1]}")' in draft.source
