"""The reference tracer and the template choice, without the simulator."""

from __future__ import annotations

import numpy as np
import pytest

from ascend_core import suite
from ascend_gym.dsl.generate import offline_draft
from ascend_gym.dsl.trace import AttrCondition, Unsupported, trace


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


def test_arithmetic_on_attributes_is_a_kernel_scalar_and_python_math_on_them_is_refused():
    # `a * 3.0`, `-a`, `1 + a`: computed from the attribute the host passes
    (root,) = trace(lambda x, a=1.0: x * (a * 3.0) - (1 + a) / -a, {"x": (8,)}, ["a"])
    assert ("attr", "") in _ops(root) and ("unary", "neg") in _ops(root)
    # a power of it is left to Python's float: its absurd value shows, and is refused
    with pytest.raises(Unsupported, match="attributes"):
        trace(lambda x, a=1.0: x * a**2, {"x": (8,)}, ["a"])


def test_small_integer_powers_unroll_and_logaddexp_is_the_stable_form():
    (cube,) = trace(lambda x: x**3, {"x": (8,)}, [])
    assert [op for op in _ops(cube) if op[0] != "input"] == [("binary", "mul")] * 2
    (sp,) = trace(lambda x: np.logaddexp(0, x), {"x": (8,)}, [])
    fns = {fn for _, fn in _ops(sp)}
    assert {"max", "abs", "exp", "log"} <= fns  # max(x, 0) + log(1 + e^-|x|)


def test_max_and_min_of_every_element_are_totals():
    for fn in ("max", "min"):
        (t,) = trace(lambda x, fn=fn: getattr(x, fn)(), {"x": (4, 8)}, [])
        assert (t.op, t.fn, t.shape) == ("total", fn, ())


@pytest.mark.parametrize(
    ("ref", "why"),
    [
        (lambda x: x[[0, 1]], "indexing other than by slices"),
        (lambda x: np.sort(x), "np.sort"),
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


def _draft(ref, inputs, attrs=(), fixed=None, dtypes=("float16",)):
    from ascend_gym.dsl.templates import draft

    roots = trace(ref, inputs, list(attrs), fixed)
    outs = {f"y{i}": None for i in range(len(roots))}
    return draft("op", "", inputs, outs, roots, list(attrs), set(dtypes))


def test_views_that_add_axes_of_one_are_rows_and_columns():
    col = _draft(lambda x, s: x * s.reshape(-1, 1), {"x": (64, 32), "s": (64,)})
    assert col.category == "broadcast" and 's = k.input("s", "rows")' in col.source
    row = _draft(lambda x, w: x + np.expand_dims(w, 0), {"x": (32, 32), "w": (32,)})
    assert 'w = k.input("w", "cols")' in row.source  # [32] read as [1, 32], not as a column
    norm = _draft(lambda x: x / x.sum(axis=-1).reshape(8, 1), {"x": (8, 16)})
    assert norm.category == "normalization"
    with pytest.raises(Unsupported, match="moves elements between axes"):
        _draft(lambda x: x.reshape(16, 8).sum(axis=-1), {"x": (8, 16)})


def test_fixed_attributes_choose_the_computation_and_cases_must_agree():
    def ref(x, axis=-1, keepdims=True, scale=1.0):
        return (x * scale).sum(axis=axis, keepdims=keepdims)

    last = _draft(ref, {"x": (8, 16)}, ["scale"], {"axis": -1, "keepdims": True})
    mid = _draft(ref, {"x": (4, 8, 16)}, ["scale"], {"axis": 1, "keepdims": True})
    assert last.category == "reduction" and "k.rows()" in last.source
    assert "k.columns(axis=1)" in mid.source
    both = _draft(ref, {"x": (8, 16)}, ["scale"], {"axis": -1, "keepdims": False})
    assert both.source == last.source  # keepdims changes the shape, not the program


def test_bfloat16_computes_in_fp32_and_int32_where_it_must():
    shapes = {"a": (8, 16), "b": (8, 16)}
    for dtypes in (("float16",), ("int32",), ("int32", "float16")):
        exact = _draft(lambda a, b: np.maximum(a, b), shapes, dtypes=dtypes)
        assert ".float()" not in exact.source  # max is exact in the tensors' dtype
    assert ".float()" in _draft(lambda a, b: np.maximum(a, b), shapes, dtypes=("bfloat16",)).source
    assert ".float()" not in _draft(lambda a, b: a * b + a, shapes, dtypes=("int32",)).source
    assert ".float()" in _draft(lambda a, b: a * b + a, shapes, dtypes=("int32", "float16")).source
    assert ".float()" in _draft(lambda a: np.sqrt(a), {"a": (8, 16)}, dtypes=("int32",)).source


def test_a_float_attribute_that_picks_a_branch_is_traced_with_the_cases_value():
    def ref(x, base=-1.0, scale=1.0):
        y = x * scale
        return np.exp(y * np.log(base)) if base > 0 else np.exp(y)

    with pytest.raises(AttrCondition, match="base"):
        trace(ref, {"x": (8,)}, ["base", "scale"])
    (root,) = trace(ref, {"x": (8,)}, ["scale"], {"base": 2.0})
    consts = [s.value for s in _nodes_of(root) if s.op == "const"]
    assert consts == [pytest.approx(np.log(2.0))]  # ln(base) folded, scale still the kernel's
    assert {s.name for s in _nodes_of(root) if s.op == "attr"} == {"scale"}


def _nodes_of(root):
    seen, out = set(), []

    def visit(s):
        if id(s) not in seen:
            seen.add(id(s))
            out.append(s)
            for a in s.args:
                visit(a)

    visit(root)
    return out


def test_a_mean_over_every_axis_with_keepdims_is_a_total():
    (root,) = trace(lambda x: x.mean(keepdims=True), {"x": (4, 8)}, [])
    assert root.op == "total" and root.shape == (1, 1)


def test_a_reshape_that_moves_elements_is_element_wise_only():
    flat = _draft(lambda x, y: (x.reshape(-1) * 2).reshape(4, 16) + y, {"x": (8, 8), "y": (4, 16)})
    assert flat.category == "elementwise" and "k.tiles()" in flat.source
    loss = _draft(lambda x, y: ((x.reshape(64) - y) ** 2).mean(), {"x": (8, 8), "y": (64,)})
    assert loss.category == "total"
    with pytest.raises(Unsupported, match="and an axis operation"):
        _draft(lambda x: x.reshape(4, 16).sum(axis=-1), {"x": (8, 8)})
    with pytest.raises(Unsupported, match="and a broadcast"):
        _draft(lambda x, w: x.reshape(4, 16) * w, {"x": (8, 8), "w": (16,)})
