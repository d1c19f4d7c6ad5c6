"""Read a numpy reference as an expression graph, by calling it on symbolic arrays.

The reference is the spec's executable half: calling it with `Sym` arrays (shapes of one case,
attributes as marked scalars) records every ufunc, reduction, split and select it performs.
Anything outside that vocabulary (fancy indexing, scans, whole-tensor reductions, dtype tricks)
raises `Unsupported`, and the offline generator reports the operator as out of its reach.
"""

from __future__ import annotations

import math
from collections.abc import Collection
from dataclasses import dataclass, field
from functools import partial
from typing import Any

import numpy as np


class Unsupported(ValueError):
    """The reference does something the DSL templates cannot express."""


@dataclass(eq=False)
class Sym:
    op: str  # input, const, attr, unary, binary, compare, select, reduce, part, view, transpose, permute, matmul, cat, slice, gather, pool, conv, repeat, fill, write, band
    shape: tuple[int, ...]
    args: tuple[Sym, ...] = ()
    fn: str = ""
    value: float = 0.0
    name: str = ""
    axis: int = -1  # reduce: the reduced axis (normalised, >= 0)
    part: tuple[int, int] = (0, 1)
    keepdims: bool = True
    meta: dict[str, Any] = field(default_factory=dict)

    __array_priority__ = 1000

    # numpy protocols
    def __array_ufunc__(self, ufunc: Any, method: str, *inputs: Any, **kwargs: Any) -> Any:
        scans = {"add": "sum", "maximum": "max", "minimum": "min"}
        if method == "accumulate" and ufunc.__name__ in scans and set(kwargs) <= {"axis"}:
            return scan(scans[ufunc.__name__], lift(inputs[0]), kwargs.get("axis", 0))
        if method != "__call__" or kwargs:
            raise Unsupported(f"np.{ufunc.__name__}.{method}")
        handler = UFUNCS.get(ufunc.__name__)
        if handler is None:
            raise Unsupported(f"np.{ufunc.__name__}")
        return handler(*(lift(x) for x in inputs))

    def __array_function__(self, func: Any, types: Any, args: Any, kwargs: Any) -> Any:
        handler = FUNCTIONS.get(func.__name__)
        if handler is None:
            raise Unsupported(f"np.{func.__name__}")
        return handler(*args, **kwargs)

    def __array__(self, *a: Any, **k: Any) -> Any:
        # np.array([total]) wraps a value into an array: keep the Sym inside an object array
        if self.shape:
            raise Unsupported("the reference turns a tensor into a plain array")
        box = np.empty((), dtype=object)
        box[()] = self
        return box

    @property
    def ndim(self) -> int:
        return len(self.shape)

    # the lowering picks the compute dtype (per tensor): a dtype read to cast back is a no-op
    dtype = np.dtype(np.float32)

    def astype(self, dtype: Any, *a: Any, **k: Any) -> Sym:
        # to an integer dtype numpy converts toward zero (exact on values already integral)
        return unary("trunc", self) if np.dtype(dtype).kind in "iu" else self

    def reshape(self, *shape: Any, **k: Any) -> Sym:
        return reshape(self, shape[0] if len(shape) == 1 else shape)

    def swapaxes(self, axis1: int, axis2: int) -> Sym:
        return swap(self, axis1, axis2)

    def transpose(self, *axes: Any) -> Sym:
        axes = axes[0] if len(axes) == 1 else axes
        return self.T if not axes else permute(self, axes)

    @property
    def T(self) -> Sym:  # noqa: N802 (numpy's name)
        if self.ndim != 2:
            raise Unsupported(f".T of a {self.ndim}-d array (axes reversed)")
        return transpose(self)

    mT = property(lambda self: transpose(self))  # noqa: N815 (the last two axes swapped)

    def __matmul__(self, o: Any) -> Sym:
        return matmul(self, lift(o))

    def __rmatmul__(self, o: Any) -> Sym:
        return matmul(lift(o), self)

    def __getitem__(self, item: Any) -> Any:
        return index(self, item)

    def __len__(self) -> int:
        return self.shape[0]

    def __iter__(self) -> Any:
        raise Unsupported("iterating over a tensor")

    def __bool__(self) -> bool:
        raise Unsupported("a tensor used as a condition")

    # operators
    def __add__(self, o: Any) -> Sym:
        return binary("add", self, lift(o))

    def __radd__(self, o: Any) -> Sym:
        return binary("add", lift(o), self)

    def __sub__(self, o: Any) -> Sym:
        return binary("sub", self, lift(o))

    def __rsub__(self, o: Any) -> Sym:
        return binary("sub", lift(o), self)

    def __mul__(self, o: Any) -> Sym:
        return binary("mul", self, lift(o))

    def __rmul__(self, o: Any) -> Sym:
        return binary("mul", lift(o), self)

    def __truediv__(self, o: Any) -> Sym:
        return binary("div", self, lift(o))

    def __rtruediv__(self, o: Any) -> Sym:
        return binary("div", lift(o), self)

    def __pow__(self, o: Any) -> Sym:
        return power(self, lift(o))

    def __rpow__(self, o: Any) -> Sym:
        return power(lift(o), self)

    def __neg__(self) -> Sym:
        return unary("neg", self)

    def __abs__(self) -> Sym:
        return unary("abs", self)

    def __gt__(self, o: Any) -> Sym:  # type: ignore[override]
        return compare("gt", self, lift(o))

    def __ge__(self, o: Any) -> Sym:  # type: ignore[override]
        return compare("ge", self, lift(o))

    def __lt__(self, o: Any) -> Sym:  # type: ignore[override]
        return compare("lt", self, lift(o))

    def __le__(self, o: Any) -> Sym:  # type: ignore[override]
        return compare("le", self, lift(o))

    def __eq__(self, o: Any) -> Sym:  # type: ignore[override]
        return compare("eq", self, lift(o))

    def __ne__(self, o: Any) -> Sym:  # type: ignore[override]
        return compare("ne", self, lift(o))

    __hash__ = object.__hash__  # nodes are compared by identity everywhere else

    # reductions
    def sum(self, axis: Any = None, keepdims: bool = False, **k: Any) -> Sym:
        return reduce("sum", self, axis, keepdims, k)

    def mean(self, axis: Any = None, keepdims: bool = False, **k: Any) -> Sym:
        return reduce("mean", self, axis, keepdims, k)

    def max(self, axis: Any = None, keepdims: bool = False, **k: Any) -> Sym:
        return reduce("max", self, axis, keepdims, k)

    def min(self, axis: Any = None, keepdims: bool = False, **k: Any) -> Sym:
        return reduce("min", self, axis, keepdims, k)


class AttrCondition(Unsupported):
    """A float attribute the reference compares in Python (`if base > 0`): it chooses what is
    computed, so it must be traced with the case's value instead."""

    def __init__(self, name: str):
        super().__init__(f"attribute {name} decides a branch of the reference")
        self.attr_name = name


class AttrValue(float):
    """An attribute's value in the trace: a float that remembers the attribute's name."""

    attr_name: str

    def _decides(self, *a: Any) -> bool:
        raise AttrCondition(self.attr_name)

    __lt__ = __le__ = __gt__ = __ge__ = __eq__ = __ne__ = __bool__ = _decides
    __hash__ = float.__hash__


def _attr_arithmetic(op: str) -> Any:
    """`-limit`, `2 * alpha`: arithmetic on an attribute with numbers is a scalar of the kernel
    (computed from the attribute the host passes), not a float the trace cannot name."""

    def method(self: AttrValue, *other: Any) -> Any:
        if not all(isinstance(o, int | float | np.number) for o in other):
            return NotImplemented  # a tensor operand: its reflected method takes the attribute
        return getattr(lift(self), op)(*other)

    return method


for _op in (
    "__add__ __radd__ __sub__ __rsub__ __mul__ __rmul__ __truediv__ __rtruediv__ __neg__ __abs__"
).split():
    setattr(AttrValue, _op, _attr_arithmetic(_op))


_ATTRS: dict[float, str] = {}
_MAGIC = 1.2345678901234567e29


def attr_value(name: str, index: int) -> AttrValue:
    # a value no reference computes by accident, so a float(attr) copy is still recognised and
    # any arithmetic on it outside the tensors shows up as an absurd constant
    v = AttrValue(_MAGIC * (index + 1))
    v.attr_name = name
    _ATTRS[float(v)] = name
    return v


def lift(x: Any) -> Sym:
    if isinstance(x, Sym):
        return x
    if isinstance(x, np.ndarray):
        if x.ndim == 0:
            x = x.item()
        else:
            raise Unsupported("a constant array in the reference")
    if isinstance(x, bool | np.bool_) or not isinstance(x, int | float | np.number):
        raise Unsupported(f"an operand of type {type(x).__name__}")
    v = float(x)
    if v in _ATTRS:
        return Sym("attr", (), name=_ATTRS[v])
    if not math.isfinite(v) or abs(v) > _MAGIC / 1e9:
        raise Unsupported("arithmetic on attributes outside the tensors")
    return Sym("const", (), value=v)


def _shape(*xs: Sym) -> tuple[int, ...]:
    try:
        return tuple(np.broadcast_shapes(*(x.shape for x in xs)))
    except ValueError as e:
        raise Unsupported(str(e)) from None


def unary(fn: str, a: Sym) -> Sym:
    if a.op == "const":
        table = {
            "neg": lambda v: -v,
            "abs": abs,
            "exp": math.exp,
            "log": math.log,
            "sqrt": math.sqrt,
            "tanh": math.tanh,
            "reciprocal": lambda v: 1 / v,
            **{f: getattr(np, NUMPY_NAMES.get(f, f)) for f in MATH},
        }
        return Sym("const", (), value=float(table[fn](a.value)))
    return Sym("unary", a.shape, (a,), fn=fn)


def binary(fn: str, a: Sym, b: Sym) -> Sym:
    if a.op == "const" and b.op == "const":
        f = {
            "add": lambda x, y: x + y,
            "sub": lambda x, y: x - y,
            "mul": lambda x, y: x * y,
            "div": lambda x, y: x / y,
            "max": max,
            "min": min,
            "pow": lambda x, y: x**y,
        }[fn]
        return Sym("const", (), value=f(a.value, b.value))
    return Sym("binary", _shape(a, b), (a, b), fn=fn)


def compare(fn: str, a: Sym, b: Sym) -> Sym:
    if a.op in ("const", "attr"):  # keep the tensor on the left
        flip = {"gt": "lt", "lt": "gt", "ge": "le", "le": "ge", "eq": "eq", "ne": "ne"}
        a, b, fn = b, a, flip[fn]
    return Sym("compare", _shape(a, b), (a, b), fn=fn)


def power(a: Sym, b: Sym) -> Sym:
    if b.op == "const" and float(b.value).is_integer() and 1 <= b.value <= 4:
        out = a
        for _ in range(int(b.value) - 1):
            out = binary("mul", out, a)
        return out
    if b.op == "const" and b.value == 0.5:
        return unary("sqrt", a)
    if b.op == "const" and b.value == -1:
        return unary("reciprocal", a)
    return binary("pow", a, b)


def where(c: Any, a: Any, b: Any) -> Sym:
    c, a, b = lift(c), lift(a), lift(b)
    if c.op != "compare":
        raise Unsupported("np.where on something other than a comparison")
    return Sym("select", _shape(c, a, b), (c, a, b))


def clip(x: Any, lo: Any, hi: Any, **k: Any) -> Sym:
    out = lift(x)
    if lo is not None:
        out = binary("max", out, lift(lo))
    if hi is not None:
        out = binary("min", out, lift(hi))
    return out


def reduce(fn: str, a: Sym, axis: Any, keepdims: bool, extra: dict[str, Any]) -> Sym:
    if extra.get("dtype") is not None or extra.get("out") is not None:
        raise Unsupported(f"{fn} with dtype/out")
    if axis is None and fn in ("sum", "mean", "max", "min"):  # every element (keepdims: all ones)
        return Sym("total", (1,) * a.ndim if keepdims else (), (a,), fn=fn)
    if isinstance(axis, tuple | list) and len(axis) == 1:
        axis = axis[0]
    if isinstance(axis, tuple | list):
        return _reduce_trailing(fn, a, axis, keepdims)
    if axis is None:
        raise Unsupported(f"{fn} over more than one axis")
    ax = axis % a.ndim
    shape = list(a.shape)
    if keepdims:
        shape[ax] = 1
    else:
        del shape[ax]
    return Sym("reduce", tuple(shape), (a,), fn=fn, axis=ax, keepdims=keepdims)


def _reduce_trailing(fn: str, a: Sym, axes: Any, keepdims: bool) -> Sym:
    """A reduction over the last n axes (a mean over H and W): a row of n axes (rows loops'
    `row_axes`), marked by `row_axes`; its axis is the last."""
    n = len(axes)
    if sorted(int(d) % a.ndim for d in axes) != list(range(a.ndim - n, a.ndim)):
        raise Unsupported(f"{fn} over axes {list(axes)}, not the trailing ones")
    if fn in ("argmax", "argmin"):
        raise Unsupported(f"{fn} over several axes")
    lead = a.shape[: a.ndim - n]
    shape = (*lead, *(1,) * n) if keepdims else lead
    return Sym(
        "reduce", shape, (a,), fn=fn, axis=a.ndim - 1, keepdims=keepdims, meta={"row_axes": n}
    )


def scan(fn: str, a: Sym, axis: Any, **extra: Any) -> Sym:
    if axis is None or extra.get("dtype") is not None or extra.get("out") is not None:
        raise Unsupported(f"a running {fn} over a flattened tensor or with dtype/out")
    return Sym("scan", a.shape, (a,), fn=fn, axis=axis % a.ndim)


def reshape(a: Sym, shape: Any) -> Sym:
    """A view: the elements keep their row-major order. One that inserts or drops axes of one
    (`unsqueeze`, `view(1, -1)`, keepdim undone) only changes the broadcasting; one that moves
    elements between axes (a flatten, a split of an axis) is marked `flat`, which only loops
    over every element in order can take."""
    dims = [int(d) for d in (shape if isinstance(shape, list | tuple) else [shape])]
    if dims.count(-1) > 1:
        raise Unsupported("a reshape with two -1 dims")
    if -1 in dims:
        known = math.prod(d for d in dims if d != -1)
        dims[dims.index(-1)] = math.prod(a.shape) // max(known, 1)
    new = tuple(dims)
    if a.op == "view" and not a.meta.get("flat"):
        a = a.args[0]
    if math.prod(new) != math.prod(a.shape):
        raise Unsupported(f"a reshape of {list(a.shape)} to {list(new)}")
    if new == a.shape:
        return a
    if [d for d in new if d != 1] != [d for d in a.shape if d != 1]:
        # the same elements in the same order on other axes: element-wise loops only
        return Sym("view", new, (a,), meta={"flat": True})
    if a.op == "input":  # the tensor as the computation sees it (its layout follows)
        return Sym("input", new, name=a.name)
    return Sym("view", new, (a,))


def transpose(a: Sym) -> Sym:
    """The last two axes swapped (`x.T` of a matrix, `swapaxes(x, -1, -2)`, torch's `t()`,
    `transpose(-1, -2)`, `mT`): the elements reordered, so only a matmul operand takes it."""
    if a.ndim < 2:
        raise Unsupported(f"a transpose of a {a.ndim}-d tensor")
    if a.op == "transpose":
        return a.args[0]
    return Sym("transpose", (*a.shape[:-2], a.shape[-1], a.shape[-2]), (a,))


def swap(a: Sym, d0: int, d1: int) -> Sym:
    """Axes d0 and d1 swapped: the last two, or two axes of one (the same elements)."""
    d0, d1 = sorted((d0 % a.ndim, d1 % a.ndim))
    if d0 == d1:
        return a
    if (d0, d1) == (a.ndim - 2, a.ndim - 1):
        return transpose(a)
    if a.shape[d0] == 1 or a.shape[d1] == 1:
        shape = list(a.shape)
        shape[d0], shape[d1] = shape[d1], shape[d0]
        return reshape(a, shape)
    order = list(range(a.ndim))
    order[d0], order[d1] = d1, d0
    return permute(a, order)


def permute(a: Sym, dims: Any) -> Sym:
    """An axis order: the identity, or the last two swapped (axes of one aside)."""
    order = [int(d) % a.ndim for d in dims]
    if sorted(order) != list(range(a.ndim)):
        raise Unsupported(f"a permutation {order} of {a.ndim} axes")
    moved = [d for i, d in enumerate(order) if d != i and a.shape[d] != 1]
    if not moved:
        return reshape(a, [a.shape[d] for d in order])
    if order[:-2] == list(range(a.ndim - 2)) and order[-2:] == [a.ndim - 1, a.ndim - 2]:
        return transpose(a)
    groups = _two_groups(order)
    if groups is None:
        raise Unsupported(f"a permutation {order} of {a.ndim} axes")
    return Sym("permute", tuple(a.shape[d] for d in order), (a,), meta={"groups": groups})


def _two_groups(order: list[int]) -> tuple[int, int, int] | None:
    """(p, q, s) when the order swaps the axis groups [p, q) and [q, s), the others in place
    (`permute(0, 2, 1, 3)`, `transpose(0, 1)` of a 3-d tensor, `permute(1, 2, 0)`)."""
    n = len(order)
    for p in range(n):
        for q in range(p + 1, n):
            for e in range(q + 1, n + 1):
                rest = list(range(e, n))
                if order == [*range(p), *range(q, e), *range(p, q), *rest]:
                    return p, q, e
    return None


def matmul(a: Sym, b: Sym) -> Sym:
    """A matrix product (`@`, np.matmul, torch.matmul/mm/bmm): [..., M, K] x [..., K, N], the
    batch axes broadcast as numpy does. Vectors (1-d operands) are not taken."""
    if a.ndim < 2 or b.ndim < 2:
        raise Unsupported("a matrix-vector product (a 1-d matmul operand)")
    if a.shape[-1] != b.shape[-2]:
        raise Unsupported(f"matmul of {list(a.shape)} and {list(b.shape)}")
    batch = _shape(Sym("const", a.shape[:-2]), Sym("const", b.shape[:-2]))
    return Sym("matmul", (*batch, a.shape[-2], b.shape[-1]), (a, b))


def concat(xs: Any, axis: int = 0) -> Sym:
    """Tensors joined along an axis (np.concatenate, torch.cat): equal shapes but that axis."""
    xs = [lift(x) for x in xs]
    # a 1-d empty tensor joins anything (torch's legacy rule); other empty ones must agree
    xs = [x for x in xs if x.shape != (0,)] or xs[:1]
    if not xs or any(x.ndim != xs[0].ndim or x.ndim == 0 for x in xs):
        raise Unsupported("a concatenation of tensors of different ranks")
    ax = axis % xs[0].ndim
    rest = {x.shape[:ax] + x.shape[ax + 1 :] for x in xs}
    if len(rest) != 1:
        raise Unsupported(f"a concatenation of shapes {[list(x.shape) for x in xs]}")
    shape = list(xs[0].shape)
    shape[ax] = sum(x.shape[ax] for x in xs)
    xs = [x for x in xs if math.prod(x.shape)] or xs[:1]  # an empty one adds nothing
    return xs[0] if len(xs) == 1 else Sym("cat", tuple(shape), tuple(xs), axis=ax)


def repeat(a: Sym, times: int, axis: int, interleave: bool) -> Sym:
    """`x.repeat_interleave(times, dim=axis)` (each element `times` times in a row) or, with
    interleave False, `x.repeat` along one axis (the whole axis `times` times)."""
    ax = axis % a.ndim
    if times == 1:
        return a
    shape = list(a.shape)
    shape[ax] *= times
    return Sym(
        "repeat", tuple(shape), (a,), axis=ax, meta={"times": times, "interleave": interleave}
    )


def stack(xs: Any, axis: int = 0) -> Sym:
    """np.stack / torch.stack along any axis: a concatenation of the tensors with that axis
    added (of one) to each."""
    xs = [lift(x) for x in xs]
    ax = axis % (xs[0].ndim + 1)
    return concat([reshape(x, (*x.shape[:ax], 1, *x.shape[ax:])) for x in xs], ax)


def index(a: Sym, item: Any) -> Sym:
    """Basic indexing along one axis: a slice with step 1 (`x[..., 2:5]`, `x[:, :n]`) or an
    integer (the slice of one, its axis dropped); the other axes whole."""
    items = list(item) if isinstance(item, tuple) else [item]
    if isinstance(items[-1], Sym) and all(i is Ellipsis for i in items[:-1]):
        return gather(a, -1, items[-1], shared=True)  # x[..., idx]: index_select on the last axis
    if sum(i is Ellipsis for i in items) > 1:
        raise Unsupported("indexing with two ellipses")
    if any(i is None for i in items):
        return _with_new_axes(a, items)
    if Ellipsis in items:
        at = items.index(Ellipsis)
        items[at : at + 1] = [slice(None)] * (a.ndim - len(items) + 1)
    if len(items) > a.ndim or not all(isinstance(i, slice | int) for i in items):
        raise Unsupported("indexing other than by slices and integers")
    cut = [
        (ax, i)
        for ax, i in enumerate(items)
        if isinstance(i, int) or i.indices(a.shape[ax]) != (0, a.shape[ax], 1)
    ]
    if not cut:
        return a
    if any(isinstance(i, slice) and not len(range(*i.indices(a.shape[ax]))) for ax, i in cut):
        # an empty cut (`x[n:]` of n rows): no elements, whatever the other axes take
        kept = [
            len(range(*i.indices(d)))
            for i, d in zip(items, a.shape, strict=False)
            if isinstance(i, slice)
        ]
        return empty([*kept, *a.shape[len(items) :]])
    if len(cut) > 1:
        raise Unsupported("indexing along more than one axis")
    ax, i = cut[0]
    n = a.shape[ax]
    if isinstance(i, int):
        if not -n <= i < n:
            raise Unsupported(f"index {i} of an axis of {n}")
        i = slice(i % n, i % n + 1)
    start, stop, step = i.indices(n)
    if step != 1:
        raise Unsupported("a slice with a step")
    shape = list(a.shape)
    shape[ax] = max(stop - start, 0)
    out = Sym("slice", tuple(shape), (a,), axis=ax, meta={"start": start})
    if isinstance(cut[0][1], int):
        del shape[ax]
        return reshape(out, shape or [1])
    return out


def empty(shape: list[int]) -> Sym:
    """A tensor of no elements (an empty slice): nothing to compute; a concatenation drops it."""
    return Sym("fill", tuple(shape), value=0.0, meta={"empty": True})


def band(a: Sym, fn: str, diagonal: int) -> Sym:
    """torch.triu / tril: the upper or lower triangle of each matrix (the last two axes)."""
    if a.ndim < 2:
        raise Unsupported(f"torch.{fn} of a {a.ndim}-d tensor")
    return Sym("band", a.shape, (a,), fn=fn, value=float(diagonal))


def lanes(n: int) -> Sym:
    """0, 1, ..., n - 1 (torch.arange): the index along the last axis where it broadcasts."""
    return Sym("lanes", (int(n),))


def fill(shape: Any, value: float) -> Sym:
    """torch.zeros / ones / full / empty: a tensor of one value (empty's, undefined, is 0)."""
    return Sym("fill", tuple(int(d) for d in shape), value=float(value))


def write(base: Sym, item: Any, value: Any) -> Sym:
    """`base[item] = value` for basic indexing along one axis: the region's elements replaced
    by the value (of the region's element count, or a number)."""
    region = index(base, item)
    cut = region
    while cut.op == "view":
        cut = cut.args[0]
    v = lift(value)
    if cut is base:  # the whole tensor
        return v if v.op == "const" else reshape(v, base.shape)
    if cut.op != "slice" or cut.args[0] is not base:
        raise Unsupported("a write through other than basic indexing of one axis")
    if v.op != "const":
        if math.prod(v.shape) != math.prod(cut.shape):
            raise Unsupported(f"a write of {list(v.shape)} into {list(region.shape)}")
        v = reshape(v, cut.shape)
    return Sym("write", base.shape, (base, v), axis=cut.axis, meta={"start": cut.meta["start"]})


def _with_new_axes(a: Sym, items: list[Any]) -> Sym:
    """Indexing with None (`w[:, None]`, `x[None, ...]`): the index without it, then an axis
    of one where each None stood (a view)."""
    if any(isinstance(i, Sym) for i in items):
        raise Unsupported("indexing by a tensor beside None")
    if Ellipsis in items:
        at = items.index(Ellipsis)
        taken = sum(i is not None for i in items) - 1
        items[at : at + 1] = [slice(None)] * (a.ndim - taken)
    kept = [i for i in items if i is not None]
    out = index(a, tuple(kept)) if kept else a
    shape, ax = [], 0
    for i in items:
        if i is None:
            shape.append(1)
        elif not isinstance(i, int):  # a slice keeps its axis; an integer dropped it
            shape.append(out.shape[ax])
            ax += 1
    return reshape(out, [*shape, *out.shape[ax:]])


def gather(x: Sym, axis: int, index: Sym, shared: bool = False) -> Sym:
    """Elements of x's last axis picked by an index tensor: `shared`, one index row for every
    row (index_select, x[..., idx]), else an index of the result's shape (torch.gather)."""
    if axis % x.ndim != x.ndim - 1:
        raise Unsupported("a gather along other than the last axis")
    if shared and index.ndim != 1:
        raise Unsupported("index_select with an index of more than one axis")
    if not shared and (index.ndim != x.ndim or index.shape[:-1] != x.shape[:-1]):
        raise Unsupported(f"a gather of {list(x.shape)} by an index of {list(index.shape)}")
    shape = (*x.shape[:-1], index.shape[-1])
    return Sym("gather", shape, (x, index), meta={"shared": shared})


def pool(a: Sym, kind: str, window: dict[str, tuple[int, ...]], divisor: int | None) -> Sym:
    """Windows over the last len(kernel) axes reduced by max or mean (torch's pooling; the
    output's length along each: floor((n + 2 p - d (k - 1) - 1) / s) + 1)."""
    k, s, p, d = (window[f] for f in ("kernel", "stride", "padding", "dilation"))
    n = len(k)
    if a.ndim <= n:
        raise Unsupported(f"pooling of {list(a.shape)} over {n} axes, with no plane axis")
    sizes = [
        (m + 2 * pi - di * (ki - 1) - 1) // si + 1
        for m, ki, si, pi, di in zip(a.shape[-n:], k, s, p, d)
    ]
    if min(sizes) < 1:
        raise Unsupported(f"a pooling window larger than {list(a.shape[-n:])}")
    meta = {**window, "kind": kind, "divisor": divisor}
    return Sym("pool", (*a.shape[:-n], *sizes), (a,), meta=meta)


def conv(x: Sym, w: Sym, bias: Sym | None, window: dict[str, tuple[int, ...]], groups: int) -> Sym:
    """torch's conv1d / conv2d over the last n axes of x [..., C_in, *spatial] by w [C_out,
    C_in / groups, *kernel]: `padding` the zeros before each axis, `after` those after it."""
    s, p, d, q = (window[f] for f in ("stride", "padding", "dilation", "after"))
    n = len(s)
    if w.ndim != n + 2 or x.ndim not in (n + 1, n + 2):
        raise Unsupported(f"a conv{n}d of {list(x.shape)} by a weight of {list(w.shape)}")
    cin, cout = x.shape[-n - 1], w.shape[0]
    if w.shape[1] * groups != cin or cout % groups:
        raise Unsupported(f"a conv{n}d of {cin} channels by {list(w.shape)} in {groups} groups")
    if bias is not None and bias.shape != (cout,):
        raise Unsupported(f"a conv bias of shape {list(bias.shape)} for {cout} channels")
    sizes = [
        (m + pi + qi - di * (ki - 1) - 1) // si + 1
        for m, ki, si, pi, qi, di in zip(x.shape[-n:], w.shape[2:], s, p, q, d)
    ]
    if min(sizes) < 1:
        raise Unsupported(f"a conv window larger than {list(x.shape[-n:])}")
    args = (x, w) if bias is None else (x, w, bias)
    meta = {"stride": s, "padding": p, "dilation": d, "groups": groups}
    return Sym("conv", (*x.shape[: -n - 1], cout, *sizes), args, meta=meta)


def narrow(a: Sym, axis: int, start: int, length: int) -> Sym:
    """torch.narrow: `length` elements of `axis` from `start`."""
    ax = axis % a.ndim
    return index(a, (slice(None),) * ax + (slice(start, start + length),))


def _dot(a: Sym, b: Sym) -> Sym:
    if a.ndim != 2 or b.ndim != 2:
        raise Unsupported("np.dot other than of two matrices")
    return matmul(a, b)


def split(x: Sym, parts: int, axis: int = 0) -> list[Sym]:
    if not isinstance(parts, int) or axis % x.ndim != x.ndim - 1 or x.op != "input":
        raise Unsupported("np.split other than equal parts of an input's last axis")
    if x.shape[-1] % parts:
        raise Unsupported("np.split into unequal parts")
    shape = (*x.shape[:-1], x.shape[-1] // parts)
    return [Sym("part", shape, (x,), part=(i, parts)) for i in range(parts)]


def _logaddexp(a: Sym, b: Sym) -> Sym:
    # log(e^a + e^b) = max(a, b) + log(1 + e^-|a - b|): no overflow for large inputs
    if a.op == "const" and a.value == 0:
        a, b = b, a
    if b.op == "const" and b.value == 0:
        return binary(
            "add",
            binary("max", a, b),
            unary("log", binary("add", lift(1.0), unary("exp", unary("neg", unary("abs", a))))),
        )
    d = unary("abs", binary("sub", a, b))
    return binary(
        "add",
        binary("max", a, b),
        unary("log", binary("add", lift(1.0), unary("exp", unary("neg", d)))),
    )


# the DSL's math-API functions and numpy's name for each
MATH = ("sin", "cos", "tan", "atan", "floor", "ceil", "round", "trunc")
NUMPY_NAMES = {"atan": "arctan", "round": "rint"}

UFUNCS: dict[str, Any] = {
    "add": lambda a, b: binary("add", a, b),
    "subtract": lambda a, b: binary("sub", a, b),
    "multiply": lambda a, b: binary("mul", a, b),
    "true_divide": lambda a, b: binary("div", a, b),
    "divide": lambda a, b: binary("div", a, b),
    "maximum": lambda a, b: binary("max", a, b),
    "minimum": lambda a, b: binary("min", a, b),
    "fmax": lambda a, b: binary("max", a, b),
    "fmin": lambda a, b: binary("min", a, b),
    "power": power,
    "float_power": power,
    "negative": lambda a: unary("neg", a),
    "absolute": lambda a: unary("abs", a),
    "exp": lambda a: unary("exp", a),
    "log": lambda a: unary("log", a),
    "sqrt": lambda a: unary("sqrt", a),
    "tanh": lambda a: unary("tanh", a),
    "reciprocal": lambda a: unary("reciprocal", a),
    "square": lambda a: binary("mul", a, a),
    "expm1": lambda a: binary("sub", unary("exp", a), lift(1.0)),
    "log1p": lambda a: unary("log", binary("add", lift(1.0), a)),
    "logaddexp": _logaddexp,
    **{NUMPY_NAMES.get(f, f): partial(unary, f) for f in MATH},
    "greater": lambda a, b: compare("gt", a, b),
    "greater_equal": lambda a, b: compare("ge", a, b),
    "less": lambda a, b: compare("lt", a, b),
    "equal": lambda a, b: compare("eq", a, b),
    "not_equal": lambda a, b: compare("ne", a, b),
    "less_equal": lambda a, b: compare("le", a, b),
    "matmul": matmul,
}

FUNCTIONS: dict[str, Any] = {
    "where": where,
    "clip": clip,
    "split": split,
    "sum": lambda a, axis=None, keepdims=False, **k: reduce("sum", a, axis, keepdims, k),
    "mean": lambda a, axis=None, keepdims=False, **k: reduce("mean", a, axis, keepdims, k),
    "max": lambda a, axis=None, keepdims=False, **k: reduce("max", a, axis, keepdims, k),
    "amax": lambda a, axis=None, keepdims=False, **k: reduce("max", a, axis, keepdims, k),
    "min": lambda a, axis=None, keepdims=False, **k: reduce("min", a, axis, keepdims, k),
    "cumsum": lambda a, axis=None, **k: scan("sum", a, axis, **k),
    "reshape": lambda a, shape, **k: reshape(a, shape),
    "expand_dims": lambda a, axis: reshape(
        a, np.expand_dims(np.empty(a.shape, dtype=np.bool_), axis).shape
    ),
    "amin": lambda a, axis=None, keepdims=False, **k: reduce("min", a, axis, keepdims, k),
    "swapaxes": lambda a, axis1, axis2: swap(lift(a), axis1, axis2),
    "transpose": lambda a, axes=None: lift(a).T if axes is None else permute(lift(a), axes),
    "dot": lambda a, b, **k: _dot(lift(a), lift(b)),
    "concatenate": lambda xs, axis=0, **k: concat(xs, axis),
    "stack": lambda xs, axis=0, **k: stack(xs, axis),
}


def trace(
    fn: Any,
    inputs: dict[str, tuple[int, ...]],
    attrs: list[str],
    fixed: dict[str, Any] | None = None,
    absent: Collection[str] = (),
) -> list[Sym]:
    """Call the reference on symbolic inputs; returns one graph root per output. `attrs` are
    traced as marked scalars (kernel attributes); `fixed` are passed as the case's values
    (integers, flags and strings that choose what is computed: an axis, a reduction mode);
    `absent` optional inputs are passed as None, as the reference gets them."""
    args = [None if n in absent else Sym("input", tuple(s), name=n) for n, s in inputs.items()]
    kwargs = {**(fixed or {}), **{a: attr_value(a, i) for i, a in enumerate(attrs)}}
    with np.errstate(all="ignore"):
        try:
            out = fn(*args, **kwargs)
        except Unsupported:
            raise
        except Exception as e:  # the reference needs something a Sym does not offer
            raise Unsupported(f"{type(e).__name__}: {e}") from None
    outs = list(out) if isinstance(out, tuple | list) else [out]
    outs = [o.reshape(-1)[0] if isinstance(o, np.ndarray) and o.size == 1 else o for o in outs]
    outs = [o.args[0] if isinstance(o, Sym) and o.op == "view" else o for o in outs]
    for o in outs:
        if not isinstance(o, Sym):
            raise Unsupported(f"an output of type {type(o).__name__}, not a traced tensor")
        if o.op in ("input", "const", "attr"):
            raise Unsupported("an output that is an input or a constant")
    return outs
