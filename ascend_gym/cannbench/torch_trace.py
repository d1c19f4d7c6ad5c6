"""A torch golden read by the DSL tracer: the golden's source run against a stand-in `torch`.

The offline generator traces a numpy reference on symbolic arrays (`dsl/trace.py`). A cann-bench
golden calls torch instead, so it is run here with `import torch` answered by `TorchShim`, whose
functions and tensor methods forward to the same symbolic arithmetic (`Tensor` wraps a `Sym`).
What the shim lacks is the tracer's `Unsupported`: the offline templates then do not reach the
operator, as for a numpy reference they cannot read. The golden's own module is executed in the
caller's process, as the offline generator executes a numpy reference: the user's checkout.
"""

from __future__ import annotations

import builtins
import contextvars
import inspect
import math
import types
from collections.abc import Callable
from typing import Any

import numpy as np

from ascend_core.package import OperatorPackage
from ascend_gym.dsl import trace as sym
from ascend_gym.dsl.trace import Sym, Unsupported

# the golden's int attributes by value (one name a value) while a case is traced: an int a
# whole-kernel form reads at run time (group_norm's group count) is named by its attribute
INT_ATTRS: contextvars.ContextVar[dict[int, str] | None] = contextvars.ContextVar(
    "INT_ATTRS", default=None
)
FP32_UP = ("float32", "float", "float64", "double")  # casts that make a golden compute in fp32
# integer dtypes: torch converts a float to them toward zero
INTEGERS = ("int8", "uint8", "int16", "short", "int32", "int", "int64", "long")


class DType:
    """A torch dtype in the trace: the lowering picks the compute dtype, so only its name."""

    def __init__(self, name: str) -> None:
        self.name = name

    @property
    def is_floating_point(self) -> bool:
        return "float" in self.name


def _sym(x: Any) -> Any:
    if isinstance(x, Stacked):
        raise Unsupported("a stacked tensor used whole (not reduced over its stacked axis)")
    if isinstance(x, _HostTensor):  # one value broadcasts as a number; more are data
        if x.numel() != 1:
            raise Unsupported("torch.tensor of a list as an operand of the computation")
        return x.item()
    return x.sym if isinstance(x, Tensor) else x


def _shape_arg(shape: tuple[Any, ...]) -> list[int]:
    """`view(2, 3)`, `view((2, 3))` and `view(torch.Size)` alike."""
    if len(shape) == 1 and isinstance(shape[0], list | tuple):
        shape = tuple(shape[0])
    return [int(d) for d in shape]


def _wrap(x: Any) -> Any:
    return Tensor(x) if isinstance(x, Sym) else x


def _dim(dim: Any) -> Any:
    if isinstance(dim, list | tuple):
        if len(dim) != 1:
            raise Unsupported("a reduction over several dims")
        return dim[0]
    return dim


class Tensor:
    """A symbolic torch tensor: torch's operators and methods over a `Sym`."""

    def __init__(self, s: Sym) -> None:
        self.sym = s

    dtype = DType("float32")
    device = "cpu"

    @property
    def shape(self) -> tuple[int, ...]:
        return self.sym.shape

    def size(self, d: int | None = None) -> Any:
        return self.shape if d is None else self.shape[d]

    def dim(self) -> int:
        return len(self.shape)

    ndim = property(dim)

    def numel(self) -> int:
        return math.prod(self.shape)

    def __len__(self) -> int:
        if not self.shape:
            raise Unsupported("len() of a 0-d tensor")
        return self.shape[0]

    # casts: the lowering decides the compute dtype, as for numpy's astype; a cast up is
    # remembered (the golden then computes in fp32, not one rounded op at a time)
    def float(self) -> Tensor:
        self.sym.meta["upcast"] = True
        return Tensor(self.sym)

    double = float

    def half(self) -> Tensor:
        return Tensor(self.sym)  # a new tensor: an in-place op on it leaves this one alone

    bfloat16 = contiguous = clone = detach = half

    def to(self, *a: Any, **k: Any) -> Tensor:
        names = [d.name for d in [*a, k.get("dtype")] if isinstance(d, DType)]
        if "bool" in names:
            return Tensor(_truth_of(self.sym))
        if any(n in INTEGERS for n in names):
            return self._truncated()
        if any(n in FP32_UP for n in names):
            self.sym.meta["upcast"] = True
        return Tensor(self.sym)

    def _truncated(self) -> Tensor:
        """A conversion to an integer dtype: toward zero (exact on values already integral); the
        store rounds the integral value into the output's dtype."""
        return Tensor(_u("trunc", self.sym))

    def long(self) -> Tensor:
        return self._truncated()

    int = short = char = byte = long

    def bool(self) -> Tensor:
        return Tensor(_truth_of(self.sym))

    def type_as(self, other: Any) -> Tensor:
        return self

    # views that add or drop axes of one: broadcasts of a row or a column
    def view(self, *shape: Any) -> Tensor:
        return Tensor(sym.reshape(self.sym, _shape_arg(shape)))

    reshape = view

    def flatten(self, start_dim: int = 0, end_dim: int = -1) -> Tensor:
        shape = list(self.shape) or [1]
        lo, hi = start_dim % len(shape), end_dim % len(shape)
        return self.view([*shape[:lo], math.prod(shape[lo : hi + 1]), *shape[hi + 1 :]])

    def unsqueeze(self, dim: int) -> Tensor:
        shape = list(self.shape)
        shape.insert(dim % (len(shape) + 1), 1)
        return self.view(shape)

    def squeeze(self, dim: Any = None) -> Tensor:
        axes = range(self.ndim) if dim is None else [_dim(dim) % max(self.ndim, 1)]
        return self.view([d for i, d in enumerate(self.shape) if not (i in axes and d == 1)])

    def expand(self, *shape: Any) -> Tensor:
        # the binary operation that reads it broadcasts it as numpy does
        want = _shape_arg(shape)
        pad = [1] * (len(want) - self.ndim) + list(self.shape)
        want = [o if n == -1 else n for n, o in zip(want, pad, strict=True)]
        if sym._shape(self.sym, Sym("const", tuple(want))) != tuple(want):
            raise Unsupported(f"expand of {list(self.shape)} to {want}")
        return self

    def repeat(self, *sizes: Any) -> Tensor:
        """x.repeat(...): the tensor tiled along (at most) one axis."""
        want = _shape_arg(sizes)
        if len(want) != self.ndim:
            raise Unsupported("repeat that adds axes")
        axes = [i for i, n in enumerate(want) if n != 1]
        if len(axes) > 1:
            raise Unsupported("repeat along more than one axis")
        if not axes:
            return self
        return Tensor(sym.repeat(self.sym, want[axes[0]], axes[0], interleave=False))

    def expand_as(self, other: Tensor) -> Tensor:
        return self.expand(other.shape)

    def view_as(self, other: Tensor) -> Tensor:
        return self.view(other.shape)

    # the last two axes swapped: a matmul operand (trace.transpose)
    @property
    def T(self) -> Tensor:  # noqa: N802 (torch's name)
        if self.ndim != 2:
            raise Unsupported(f".T of a {self.ndim}-d tensor (axes reversed)")
        return Tensor(sym.transpose(self.sym))

    mT = property(lambda self: Tensor(sym.transpose(self.sym)))  # noqa: N815 (torch's name)

    def __getattr__(self, name: str) -> Any:
        fn = FUNCTIONS.get(name)
        if fn is None and name.endswith("_") and name[:-1] in FUNCTIONS:
            return lambda *a, **k: self._in_place(FUNCTIONS[name[:-1]](self, *a, **k))
        if fn is None:
            raise Unsupported(f"Tensor.{name}")
        return lambda *a, **k: fn(self, *a, **k)

    def _in_place(self, result: Any) -> Tensor:
        """`x.add_(y)`: x now holds the result (a view of x taken before is not followed; the
        candidate is still judged against the real golden)."""
        self.sym = _lift(result)
        return self

    def __bool__(self) -> bool:
        raise Unsupported("a tensor used as a condition")


def _rounded(t: Any) -> Any:
    """Mark a single torch op: torch rounds its result to the tensors' dtype."""
    if isinstance(t, Tensor) and t.sym.op in ("unary", "binary"):
        t.sym.meta["rounded"] = True
    return t


def _binary(op: str) -> Callable[..., Any]:
    def method(self: Tensor, other: Any) -> Any:
        if isinstance(other, Stacked):  # its reflected method maps over the members
            return NotImplemented
        out = _wrap(getattr(self.sym, op)(_sym(other)))
        return out if "pow" in op else _rounded(out)  # x**3 unrolls to two products

    return method


for _op in (
    "__add__ __radd__ __sub__ __rsub__ __mul__ __rmul__ __truediv__ __rtruediv__ __pow__ "
    "__rpow__ __gt__ __ge__ __lt__ __le__"
).split():
    setattr(Tensor, _op, _binary(_op))
# == and != compare element by element, as torch does (a mask for where)
Tensor.__eq__ = lambda self, o: Tensor(sym.compare("eq", self.sym, _lift(o)))  # type: ignore[assignment,method-assign]
Tensor.__ne__ = lambda self, o: Tensor(sym.compare("ne", self.sym, _lift(o)))  # type: ignore[assignment,method-assign]
Tensor.__hash__ = object.__hash__  # type: ignore[assignment,method-assign]
Tensor.__neg__ = lambda self: _rounded(Tensor(-self.sym))  # type: ignore[method-assign]
Tensor.__abs__ = lambda self: _rounded(Tensor(abs(self.sym)))  # type: ignore[method-assign]
Tensor.__invert__ = lambda self: _logical_not(self)  # type: ignore[attr-defined]
# copy.deepcopy of a tensor: a new tensor of the same values (as clone)
Tensor.__deepcopy__ = lambda self, memo: Tensor(self.sym)  # type: ignore[attr-defined]


def _truth_of(x: Sym) -> Sym:
    """A tensor as torch reads it as bool (a mask): a comparison as it is, else `!= 0`."""
    return x if x.op == "compare" else sym.compare("ne", x, sym.lift(0.0))


def _fill_value(value: Any) -> Sym:
    """masked_fill's / where's number: an infinity too (a score masked out, `-inf`), which the
    attention form reads as masking and every other template refuses as a constant."""
    if isinstance(value, float) and math.isinf(value):
        return Sym("const", (), value=value)
    return _lift(value)


def _logical_not(x: Any) -> Tensor:
    """`~mask`, torch.logical_not: a comparison inverted (a bool input: its test `== 0`)."""
    m = _lift(x)
    if m.op != "compare":
        return Tensor(sym.compare("eq", m, sym.lift(0.0)))
    inverse = {"gt": "le", "le": "gt", "lt": "ge", "ge": "lt", "eq": "ne", "ne": "eq"}
    return Tensor(sym.compare(inverse[m.fn], m.args[0], m.args[1]))


def _item(self: Tensor) -> Tensor:
    """`s.item()` of a one-element tensor: its value, used as a number (a `[1]` operand)."""
    if math.prod(self.shape) != 1:
        raise Unsupported(f"item() of a tensor of shape {list(self.shape)}")
    return Tensor(self.sym)


Tensor.item = _item  # type: ignore[attr-defined]


Tensor.__getitem__ = lambda self, item: Tensor(  # type: ignore[attr-defined]
    sym.index(self.sym, tuple(map(_sym, item)) if isinstance(item, tuple) else _sym(item))
)
Tensor.__matmul__ = lambda self, o: _matmul(self, o)  # type: ignore[attr-defined]
Tensor.__rmatmul__ = lambda self, o: _matmul(o, self)  # type: ignore[attr-defined]


def _matmul(a: Any, b: Any, **k: Any) -> Tensor:
    """torch.matmul / mm / bmm / @: accumulated in fp32 on the cube whatever the golden's
    dtype, as torch's CPU kernels accumulate too."""
    return Tensor(sym.matmul(_lift(a), _lift(b)))


def _einsum_terms(equation: str, ndims: list[int]) -> tuple[list[str], str]:
    """An einsum's subscripts per operand and its output's, `...` spelled out in letters of its
    own (the output implied by the letters used once, in alphabetical order, when not given)."""
    spec = equation.replace(" ", "")
    lhs, arrow, out = spec.partition("->")
    terms = lhs.split(",")
    if len(terms) != len(ndims):
        raise Unsupported(f"einsum {equation!r} of {len(ndims)} operands")
    covered = [n - len(t.replace("...", "")) for t, n in zip(terms, ndims, strict=True)]
    dots = max((c for t, c in zip(terms, covered, strict=True) if "..." in t), default=0)
    filler = "".join(chr(ord("A") + i) for i in range(dots))  # einsum's letters are a-z, A-Z

    def spelled(t: str, c: int) -> str:  # `...` broadcasts from the right
        return t.replace("...", filler[dots - c :])

    terms = [spelled(t, c) for t, c in zip(terms, covered, strict=True)]
    if arrow:
        return terms, out.replace("...", filler)
    letters = "".join(terms)
    return terms, filler + "".join(
        sorted(c for c in set(letters) - set(filler) if letters.count(c) == 1)
    )


def _einsum(equation: str, *operands: Any) -> Tensor:
    """torch.einsum of two operands that is a (batched) matrix product: the letters in both and
    the output are batch axes, those in both only summed (K), one in each alone M and N; each
    operand permuted to [batch, M, K] and [batch, K, N], the product permuted to the output."""
    if len(operands) == 1 and isinstance(operands[0], list | tuple):
        operands = tuple(operands[0])
    a, b = (_lift(x) for x in operands) if len(operands) == 2 else (None, None)
    if a is None or b is None:
        raise Unsupported(f"einsum {equation!r} of other than two operands")
    (ta, tb), out = _einsum_terms(equation, [a.ndim, b.ndim])
    if len(set(ta)) != len(ta) or len(set(tb)) != len(tb):
        raise Unsupported(f"einsum {equation!r}: a diagonal (a letter twice in one operand)")
    k = [c for c in ta if c in tb and c not in out]
    m, n = [c for c in ta if c not in tb][-1:], [c for c in tb if c not in ta][-1:]
    batch = [c for c in out if c not in (*m, *n)]
    # an operand's own batch axes lead (broadcast over the other's, as torch.matmul does)
    bat_a, bat_b = [c for c in batch if c in ta], [c for c in batch if c in tb]
    shared = bat_a == batch and bat_b == batch[len(batch) - len(bat_b) :]
    shared |= bat_b == batch and bat_a == batch[len(batch) - len(bat_a) :]
    if len(k) != 1 or not m or not n or not shared or set(ta + tb) != {*out, *k}:
        raise Unsupported(f"einsum {equation!r}: not a product of matrices over batch axes")
    lhs = _permute(a, *[ta.index(c) for c in (*bat_a, *m, *k)])
    rhs = _permute(b, *[tb.index(c) for c in (*bat_b, *k, *n)])
    product, order = _matmul(lhs, rhs), [*batch, *m, *n]
    return _permute(product, *[order.index(c) for c in out])


def _modulo(rounding: str) -> Callable[..., Tensor]:
    """a - round(a / b) * b: `torch.remainder` and `%` round down (the divisor's sign),
    `torch.fmod` toward zero (the dividend's)."""

    def op(a: Any, b: Any, **k: Any) -> Tensor:
        x, y = _lift(a), _lift(b)
        return Tensor(_b("sub", x, _b("mul", _u(rounding, _b("div", x, y)), y)))

    return op


def _floor_divide(a: Any, b: Any, **k: Any) -> Tensor:
    """torch.floor_divide and `//`: the quotient rounded down."""
    return Tensor(_u("floor", _b("div", _lift(a), _lift(b))))


Tensor.__mod__ = lambda self, o: _modulo("floor")(self, o)  # type: ignore[attr-defined]
Tensor.__rmod__ = lambda self, o: _modulo("floor")(o, self)  # type: ignore[attr-defined]
Tensor.__floordiv__ = lambda self, o: _floor_divide(self, o)  # type: ignore[attr-defined]
Tensor.__rfloordiv__ = lambda self, o: _floor_divide(o, self)  # type: ignore[attr-defined]


def _split(x: Any, size: Any, dim: int = 0) -> list[Tensor]:
    """torch.split: pieces of `size` along `dim` (the last one shorter), or of each given size."""
    v = _lift(x)
    n = v.shape[dim % v.ndim]
    sizes = [int(s) for s in size] if isinstance(size, list | tuple) else None
    if sizes is None:
        sizes = [min(int(size), n - s) for s in range(0, n, int(size))]
    starts = [sum(sizes[:i]) for i in range(len(sizes))]
    return [Tensor(sym.narrow(v, dim, s, m)) for s, m in zip(starts, sizes, strict=True)]


def _t(x: Any) -> Tensor:
    v = _lift(x)
    if v.ndim > 2:
        raise Unsupported(f"t() of a {v.ndim}-d tensor")
    return Tensor(sym.transpose(v)) if v.ndim == 2 else Tensor(v)


def _permute(x: Any, *dims: Any) -> Tensor:
    return Tensor(sym.permute(_lift(x), _shape_arg(dims)))


def _movedim(x: Any, source: Any, destination: Any) -> Tensor:
    """torch.movedim / moveaxis: the source axes at the destination places, the others in
    their order."""
    v = _lift(x)
    src = [int(d) % v.ndim for d in (source if isinstance(source, list | tuple) else [source])]
    dst = [
        int(d) % v.ndim
        for d in (destination if isinstance(destination, list | tuple) else [destination])
    ]
    rest = iter(d for d in range(v.ndim) if d not in src)
    place = dict(zip(dst, src, strict=True))
    return Tensor(sym.permute(v, [place[i] if i in place else next(rest) for i in range(v.ndim)]))


def _filled(value: float) -> Callable[..., Tensor]:
    """torch.zeros / ones / empty (its contents undefined: 0 here) of a size."""
    return lambda *size, **k: Tensor(sym.fill(_shape_arg(size), value))


def _like(x: Any, value: Any) -> Any:
    """torch.zeros_like / ones_like / full_like: the number, which broadcasts where the golden
    uses it; of an empty tensor, an empty tensor (a concatenation drops it)."""
    shape = _lift(x).shape
    return value if math.prod(shape) else Tensor(sym.empty(list(shape)))


def _full(size: Any, fill_value: Any, **k: Any) -> Tensor:
    if not isinstance(fill_value, int | float):
        raise Unsupported("torch.full with other than a number")
    return Tensor(sym.fill(_shape_arg((size,)), fill_value))


def _pad(x: Any, pad: Any, mode: str = "constant", value: Any = None) -> Tensor:
    """F.pad in constant mode along one axis: the tensor written into a filled one."""
    v = _lift(x)
    pairs = [(int(pad[i]), int(pad[i + 1])) for i in range(0, len(pad), 2)]
    moved = [(v.ndim - 1 - i, lo, hi) for i, (lo, hi) in enumerate(pairs) if (lo, hi) != (0, 0)]
    if mode != "constant" or len(moved) > 1 or any(min(lo, hi) < 0 for _, lo, hi in moved):
        raise Unsupported("F.pad other than constant, non-negative, along one axis")
    if not moved:
        return Tensor(v)
    ax, lo, hi = moved[0]
    shape = list(v.shape)
    shape[ax] += lo + hi
    item = (slice(None),) * ax + (slice(lo, lo + v.shape[ax]),)
    return Tensor(sym.write(sym.fill(shape, float(value or 0.0)), item, v))


def _eval_only(x: Any, training: bool, name: str) -> Tensor:
    """An op that is the identity in inference (dropout with training=False)."""
    if training:
        raise Unsupported(f"{name} in training (random)")
    return Tensor(_lift(x))


def _prelu(x: Any, weight: Any) -> Tensor:
    """F.prelu: max(x, 0) + weight * min(x, 0), a weight of one value or one per channel
    (dim 1)."""
    v, w = _lift(x), _lift(weight)
    if w.ndim == 1 and w.shape[0] > 1 and v.ndim > 1:
        w = sym.reshape(w, (w.shape[0], *([1] * (v.ndim - 2))))
    return Tensor(_b("add", _b("max", v, 0.0), _b("mul", w, _b("min", v, 0.0))))


def _batch_norm(
    x: Any,
    running_mean: Any,
    running_var: Any,
    weight: Any = None,
    bias: Any = None,
    training: bool = False,
    momentum: Any = 0.1,
    eps: Any = 1e-5,
) -> Tensor:
    """F.batch_norm in inference: (x - mean) / sqrt(var + eps) * weight + bias, each one value
    per channel (dim 1)."""
    if training:
        raise Unsupported("batch_norm with training statistics")
    v = _lift(x)

    def per_channel(t: Any) -> Sym:
        c = _lift(t)
        return sym.reshape(c, (c.shape[0], *([1] * (v.ndim - 2))))

    out = _b(
        "mul",
        _b("sub", v, per_channel(running_mean)),
        _u("reciprocal", _u("sqrt", _b("add", per_channel(running_var), eps))),
    )
    if weight is not None:
        out = _b("mul", out, per_channel(weight))
    if bias is not None:
        out = _b("add", out, per_channel(bias))
    return Tensor(out)


def _copy(self: Any, src: Any, **k: Any) -> Tensor:
    """`x.copy_(src)`: x takes src's values (of its element count)."""
    v, into = _lift(src), _lift(self)
    if v.op != "const" and math.prod(v.shape) != math.prod(into.shape):
        raise Unsupported(f"copy_ of {list(v.shape)} into {list(into.shape)}")
    return Tensor(v if v.op == "const" else sym.reshape(v, into.shape))


def _setitem(self: Tensor, item: Any, value: Any) -> None:
    """`t[item] = value`: the write recorded as the tensor's new value."""
    key = tuple(map(_sym, item)) if isinstance(item, tuple) else _sym(item)
    self.sym = sym.write(self.sym, key, _sym(value))


Tensor.__setitem__ = _setitem  # type: ignore[attr-defined]


def _repeat_interleave(x: Any, repeats: Any, dim: Any = None, **k: Any) -> Tensor:
    """torch.repeat_interleave with a number of repeats (a tensor of them is indexing)."""
    if not isinstance(repeats, int):
        raise Unsupported("repeat_interleave with a tensor of repeats")
    v = _lift(x)
    if dim is None:
        v = sym.reshape(v, (math.prod(v.shape),))
        dim = 0
    return Tensor(sym.repeat(v, repeats, int(dim), interleave=True))


def _linear(x: Any, weight: Any, bias: Any = None) -> Tensor:
    """F.linear: x @ weight^T (+ bias along the columns)."""
    out = sym.matmul(_lift(x), sym.transpose(_lift(weight)))
    return Tensor(out if bias is None else sym.binary("add", out, _lift(bias)))


def _addmm(bias: Any, a: Any, b: Any, *, beta: Any = 1, alpha: Any = 1, **k: Any) -> Tensor:
    """torch.addmm / addbmm-free form: bias + a @ b (beta and alpha 1)."""
    if not (_is_one(beta) and _is_one(alpha)):
        raise Unsupported("addmm with beta or alpha")
    return Tensor(sym.binary("add", _lift(bias), sym.matmul(_lift(a), _lift(b))))


def _is_one(x: Any) -> bool:
    """A literal 1 (an attribute, traced, is never one: it stays in the program)."""
    return isinstance(x, int | float) and float(x) == 1


def _lift(x: Any) -> Sym:
    return sym.lift(_sym(x))


def _unary(fn: str) -> Callable[..., Tensor]:
    return lambda x, *a, **k: _rounded(Tensor(sym.unary(fn, _lift(x))))


def _binop(fn: str) -> Callable[..., Tensor]:
    def op(a: Any, b: Any, *, alpha: Any = 1, **k: Any) -> Tensor:
        if _is_one(alpha):
            return _rounded(Tensor(sym.binary(fn, _lift(a), _lift(b))))
        # a + alpha * b is one torch op: a single rounding, not two
        return Tensor(sym.binary(fn, _lift(a), sym.binary("mul", _lift(b), _lift(alpha))))

    return op


def _single(fn: str) -> Callable[..., Tensor]:
    return lambda a, b, **k: _rounded(Tensor(sym.binary(fn, _lift(a), _lift(b))))


def _sigmoid(x: Any, *a: Any, **k: Any) -> Tensor:
    s = _lift(x)
    return Tensor(
        sym.binary(
            "div",
            sym.lift(1.0),
            sym.binary("add", sym.lift(1.0), sym.unary("exp", sym.unary("neg", s))),
        )
    )


def _clamp(x: Any, min: Any = None, max: Any = None, **k: Any) -> Tensor:
    return Tensor(
        sym.clip(_lift(x), None if min is None else _lift(min), None if max is None else _lift(max))
    )


def _reduce(fn: str) -> Callable[..., Tensor]:
    def op(x: Any, dim: Any = None, keepdim: bool = False, **k: Any) -> Tensor:
        if k.get("dtype") is not None:
            raise Unsupported(f"{fn} with dtype")
        v = _lift(x)
        if isinstance(dim, list | tuple) and sorted(d % v.ndim for d in dim) == [*range(v.ndim)]:
            dim = None  # every axis named: a total
        if isinstance(dim, list | tuple) and len(dim) > 1:  # the trailing axes: a row of them
            return Tensor(sym.reduce(fn, v, tuple(dim), keepdim, {}))
        return Tensor(sym.reduce(fn, v, _dim(dim), keepdim, {}))

    return op


def _truth(fn: str) -> Callable[..., Tensor]:
    """torch.any / torch.all along `dim`: the max / min of the mask as 1 and 0 (a tensor that is
    not a comparison tests `!= 0`); a bool output stores it as its byte."""

    def op(x: Any, dim: Any = None, keepdim: bool = False, **k: Any) -> Tensor:
        m = _lift(x)
        if m.op != "compare":
            m = sym.compare("ne", m, sym.lift(0.0))
        return _reduce(fn)(Tensor(_where0(m, 1.0, 0.0)), dim, keepdim)

    return op


class _Scalar(float):
    """torch.tensor of a number: that number, with the tensor methods a golden calls on one
    (`torch.tensor(1.0 / d, dtype=torch.float16).sqrt()`), each a number again (the dtype's
    rounding is not kept)."""

    MATH = {"sqrt": math.sqrt, "rsqrt": lambda v: 1 / math.sqrt(v), "exp": math.exp}
    MATH |= {"log": math.log, "abs": abs, "reciprocal": lambda v: 1 / v, "neg": lambda v: -v}
    SAME = ("item", "float", "half", "double", "bfloat16", "to", "clone", "detach", "cpu")

    def __getattr__(self, name: str) -> Any:
        if name in self.MATH:
            return lambda *a, **k: _Scalar(self.MATH[name](float(self)))
        if name in self.SAME:
            return lambda *a, **k: self
        raise Unsupported(f"Tensor.{name} of torch.tensor(number)")


class _HostTensor:
    """torch.tensor of a list of numbers (a shape's sizes, say): known while the golden is traced,
    so what the golden computes from it is a number again (`int(torch.prod(torch.tensor(
    shape[:d])).item())`, a row count), computed as torch would (int64, or float32 for floats).
    It is never a kernel operand: used with a traced tensor it is refused."""

    def __init__(self, values: np.ndarray) -> None:
        self.values = values

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(self.values.shape)

    def numel(self) -> int:
        return int(self.values.size)

    def __len__(self) -> int:
        return len(self.values)

    def item(self) -> int | float:
        if self.values.size != 1:
            raise Unsupported(f"item() of a tensor of shape {list(self.shape)}")
        return self.values.reshape(()).item()

    def __int__(self) -> int:
        return int(self.item())

    __index__ = __int__

    def __float__(self) -> float:
        return float(self.item())

    def tolist(self) -> Any:
        return self.values.tolist()

    def __getitem__(self, item: Any) -> _HostTensor:
        return _HostTensor(np.asarray(self.values[item]))

    def _fold(self, fn: Callable[..., Any], dim: Any, keepdim: bool) -> _HostTensor:
        return _HostTensor(np.asarray(fn(self.values, axis=dim, keepdims=keepdim)))

    def prod(self, dim: Any = None, keepdim: bool = False, **k: Any) -> _HostTensor:
        return self._fold(np.prod, dim, keepdim)

    def sum(self, dim: Any = None, keepdim: bool = False, **k: Any) -> _HostTensor:
        return self._fold(np.sum, dim, keepdim)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):  # Python's and numpy's protocol probes
            raise AttributeError(name)
        raise Unsupported(f"Tensor.{name} of torch.tensor(list)")


def _host_values(value: Any) -> np.ndarray | None:
    """A (nested) list or tuple of Python numbers as torch.tensor types it, else None."""
    try:
        values = np.asarray(value)
    except (Unsupported, ValueError, TypeError):
        return None
    if values.dtype.kind in "iub":
        return values.astype(np.bool_ if values.dtype.kind == "b" else np.int64)
    return values.astype(np.float32) if values.dtype.kind == "f" else None


def _tensor(value: Any, *a: Any, **k: Any) -> Any:
    if isinstance(value, sym.AttrValue):
        return value  # an attribute made a tensor: the attribute
    if isinstance(value, int | float) and not isinstance(value, bool):
        return _Scalar(value)  # a number made a tensor: the same number, with tensor methods
    values = _host_values(value) if isinstance(value, list | tuple) else None
    if values is not None:
        return _HostTensor(values)
    raise Unsupported("torch.tensor of data")


def _prod(x: Any, dim: Any = None, keepdim: bool = False, **k: Any) -> Any:
    """torch.prod of a tensor known while tracing (torch.tensor of numbers); a product reduction
    of a traced tensor is not lowered."""
    if isinstance(x, _HostTensor):
        return x.prod(dim, keepdim)
    raise Unsupported("torch.prod of a computed tensor (a product reduction)")


def _gelu_tanh(x: Any) -> Tensor:
    v = _lift(x)
    inner = sym.binary(
        "mul",
        sym.lift(0.7978845608028654),
        sym.binary(
            "add",
            v,
            sym.binary("mul", sym.lift(0.044715), sym.binary("mul", v, sym.binary("mul", v, v))),
        ),
    )
    half = sym.binary("mul", sym.lift(0.5), v)
    return Tensor(
        sym.binary("mul", half, sym.binary("add", sym.lift(1.0), sym.unary("tanh", inner)))
    )


def _relu(x: Any, *a: Any, **k: Any) -> Tensor:
    return Tensor(sym.binary("max", _lift(x), sym.lift(0.0)))


def _silu(x: Any, *a: Any, **k: Any) -> Tensor:
    return Tensor(sym.binary("mul", _lift(x), _sigmoid(x).sym))


def _where(c: Any, a: Any, b: Any) -> Tensor:
    return Tensor(sym.where(_truth_of(_lift(c)), _fill_value(a), _fill_value(b)))


def _rsqrt(x: Any, *a: Any, **k: Any) -> Tensor:
    return Tensor(sym.unary("reciprocal", sym.unary("sqrt", _lift(x))))


# Elementwise compositions, written over Sym so the template sees the arithmetic.
def _b(fn: str, a: Any, b: Any) -> Sym:
    return sym.binary(fn, sym.lift(a), sym.lift(b))


def _u(fn: str, a: Any) -> Sym:
    return sym.unary(fn, sym.lift(a))


def _log1p_exp(v: Sym) -> Sym:
    """log(1 + e^v): numpy's logaddexp(v, 0) as the numpy trace writes it, stable for large v."""
    return sym._logaddexp(v, sym.lift(0.0))


def _softplus(x: Any, beta: Any = 1.0, threshold: Any = 20.0, **k: Any) -> Tensor:
    v = _lift(x)
    bx = v if _is_one(beta) else _b("mul", v, beta)
    soft = _log1p_exp(bx) if _is_one(beta) else _b("div", _log1p_exp(bx), beta)
    return Tensor(sym.where(sym.compare("gt", bx, sym.lift(threshold)), v, soft))


def _erf_abs(z: Sym) -> Sym:
    """erf(z) for z >= 0 by Abramowitz and Stegun 7.1.26 (|error| < 1.5e-7)."""
    t = _b("div", 1.0, _b("add", 1.0, _b("mul", 0.3275911, z)))
    poly = sym.lift(1.061405429)
    for c in (-1.453152027, 1.421413741, -0.284496736, 0.254829592):
        poly = _b("add", _b("mul", poly, t), c)
    poly = _b("mul", poly, t)
    return _b("sub", 1.0, _b("mul", poly, _u("exp", _u("neg", _b("mul", z, z)))))


def _erf(x: Any, *a: Any, **k: Any) -> Tensor:
    v = _lift(x)
    e = _erf_abs(_u("abs", v))
    return Tensor(sym.where(sym.compare("lt", v, sym.lift(0.0)), _u("neg", e), e))


def _norm(x: Any, p: Any = 2, dim: Any = None, keepdim: bool = False, **k: Any) -> Tensor:
    """A vector norm along `dim` (or of every element): p = 2 (sqrt of the sum of squares),
    1 (the sum of magnitudes), inf / -inf (the largest / smallest magnitude)."""
    if k.get("dtype") is not None:
        raise Unsupported("norm with dtype")
    a = Tensor(_u("abs", _lift(x)))
    if p in (2, 2.0, "fro"):
        v = _lift(x)
        return Tensor(_u("sqrt", _reduce("sum")(Tensor(_b("mul", v, v)), dim, keepdim).sym))
    if p in (1, 1.0):
        return _reduce("sum")(a, dim, keepdim)
    if p in (math.inf, -math.inf):
        if dim is None:
            raise Unsupported("an inf-norm over every element")
        return _reduce("max" if p > 0 else "min")(a, dim, keepdim)
    raise Unsupported(f"norm with p={p!r}")


def _linalg_norm(
    x: Any, ord: Any = None, dim: Any = None, keepdim: bool = False, **k: Any
) -> Tensor:
    """torch.linalg.norm along one dim: a vector norm (a matrix norm over two dims is not)."""
    if dim is None or isinstance(dim, list | tuple) and len(dim) != 1:
        raise Unsupported("linalg.norm over other than one dim (a matrix norm)")
    return _norm(x, 2 if ord is None else ord, dim, keepdim, **k)


def _vector_norm(x: Any, ord: Any = 2, dim: Any = None, keepdim: bool = False, **k: Any) -> Tensor:
    """torch.linalg.vector_norm (and linalg.norm of a vector along `dim`)."""
    return _norm(x, ord, dim, keepdim, **k)


def _half_exp(x: Any, sign: float) -> Tensor:
    """(e^x + sign e^-x) / 2: cosh for sign 1, sinh for -1."""
    v = _lift(x)
    return Tensor(_b("mul", _b("add", _u("exp", v), _b("mul", sign, _u("exp", _u("neg", v)))), 0.5))


def _gelu(x: Any, approximate: str = "none", **k: Any) -> Tensor:
    if approximate == "tanh":
        return _gelu_tanh(x)
    # x Phi(x) = (x + |x| erf(|x| / sqrt 2)) / 2: erf is odd, so no select is needed
    v = _lift(x)
    a = _u("abs", v)
    e = _erf_abs(_b("mul", a, 0.7071067811865476))
    return Tensor(_b("mul", 0.5, _b("add", v, _b("mul", a, e))))


def _leaky_relu(x: Any, negative_slope: Any = 0.01, *a: Any, **k: Any) -> Tensor:
    v = _lift(x)
    return Tensor(sym.where(sym.compare("gt", v, sym.lift(0.0)), v, _b("mul", v, negative_slope)))


def _elu(x: Any, alpha: Any = 1.0, *a: Any, scale: Any = 1.0, **k: Any) -> Tensor:
    v = _lift(x)
    neg = _b("mul", alpha, _b("sub", _u("exp", v), 1.0))
    out = sym.where(sym.compare("gt", v, sym.lift(0.0)), v, neg)
    return Tensor(out if _is_one(scale) else _b("mul", out, scale))


def _selu(x: Any, *a: Any, **k: Any) -> Tensor:
    return _elu(x, 1.6732632423543772, scale=1.0507009873554805)


def _hardtanh(x: Any, min_val: Any = -1.0, max_val: Any = 1.0, *a: Any, **k: Any) -> Tensor:
    return Tensor(sym.clip(_lift(x), sym.lift(min_val), sym.lift(max_val)))


def _hardsigmoid(x: Any, *a: Any, **k: Any) -> Tensor:
    return Tensor(sym.clip(_b("add", _b("div", _lift(x), 6.0), 0.5), 0.0, 1.0))


def _hardswish(x: Any, *a: Any, **k: Any) -> Tensor:
    v = _lift(x)
    return Tensor(_b("mul", v, _b("div", sym.clip(_b("add", v, 3.0), 0.0, 6.0), 6.0)))


def _mish(x: Any, *a: Any, **k: Any) -> Tensor:
    v = _lift(x)
    return Tensor(_b("mul", v, _u("tanh", _log1p_exp(v))))


def _logsigmoid(x: Any, *a: Any, **k: Any) -> Tensor:
    return Tensor(_u("neg", _log1p_exp(_u("neg", _lift(x)))))


def _softsign(x: Any, *a: Any, **k: Any) -> Tensor:
    v = _lift(x)
    return Tensor(_b("div", v, _b("add", 1.0, _u("abs", v))))


# Row operations: reductions along `dim` fed back into the row.
def _softmax(x: Any, dim: Any = None, *a: Any, dtype: Any = None, **k: Any) -> Tensor:
    v, d = _lift(x), _dim(-1 if dim is None else dim)
    e = _u("exp", _b("sub", v, sym.reduce("max", v, d, True, {})))
    return Tensor(_b("div", e, sym.reduce("sum", e, d, True, {})))


def _sdpa(
    query: Any,
    key: Any,
    value: Any,
    attn_mask: Any = None,
    dropout_p: float = 0.0,
    is_causal: bool = False,
    scale: Any = None,
    enable_gqa: bool = False,
) -> Tensor:
    """F.scaled_dot_product_attention as PyTorch documents it: the scores scaled (1 / sqrt(E) by
    default), a bool `attn_mask` keeping its True lanes and `is_causal` the lower triangle
    (row i the keys j <= i) by -inf, a float `attn_mask` added, the key / value heads
    repeat_interleave'd with `enable_gqa`, softmax along the keys, then @ value. With a mask, a
    row masked whole is 0, as torch's CPU kernels give it (their `_safe_softmax`), not NaN."""
    if dropout_p:
        raise Unsupported("scaled_dot_product_attention with dropout (random)")
    q, k, v = _lift(query), _lift(key), _lift(value)
    if enable_gqa:
        k = _lift(_repeat_interleave(Tensor(k), q.shape[-3] // k.shape[-3], -3))
        v = _lift(_repeat_interleave(Tensor(v), q.shape[-3] // v.shape[-3], -3))
    factor = 1 / math.sqrt(q.shape[-1]) if scale is None else scale
    scores = _b("mul", sym.matmul(q, sym.transpose(k)), factor)
    off = Sym("const", (), value=-math.inf)
    if is_causal:
        keep = sym.band(sym.fill((q.shape[-2], k.shape[-2]), 1.0), "tril", 0)
        scores = sym.where(sym.compare("eq", keep, sym.lift(0.0)), off, scores)
    if attn_mask is not None and getattr(getattr(attn_mask, "dtype", None), "name", "") == "bool":
        scores = sym.where(sym.compare("eq", _lift(attn_mask), sym.lift(0.0)), off, scores)
    elif attn_mask is not None:
        scores = _b("add", scores, _lift(attn_mask))
    p = _lift(_softmax(Tensor(scores), -1))
    if is_causal or attn_mask is not None:  # torch's _safe_softmax: a row masked whole is 0
        top = sym.reduce("max", scores, -1, True, {})
        p = sym.where(sym.compare("eq", top, off), sym.lift(0.0), p)
    return Tensor(sym.matmul(p, v))


def _log_softmax(x: Any, dim: Any = None, *a: Any, dtype: Any = None, **k: Any) -> Tensor:
    v, d = _lift(x), _dim(-1 if dim is None else dim)
    shifted = _b("sub", v, sym.reduce("max", v, d, True, {}))
    total = sym.reduce("sum", _u("exp", shifted), d, True, {})
    return Tensor(_b("sub", shifted, _u("log", total)))


def _normalized(x: Sym, normalized_shape: Any) -> tuple[int, ...]:
    """The trailing axes a layer or RMS norm takes its statistics over (a row of them)."""
    shape = [normalized_shape] if isinstance(normalized_shape, int) else list(normalized_shape)
    n = len(shape)
    if not 0 < n <= x.ndim or [int(d) for d in shape] != list(x.shape[x.ndim - n :]):
        raise Unsupported(f"a norm over {shape}, not trailing axes of {list(x.shape)}")
    return tuple(range(-n, 0))


def _layer_norm(
    x: Any, normalized_shape: Any, weight: Any = None, bias: Any = None, eps: Any = 1e-5
) -> Tensor:
    v = _lift(x)
    axes = _normalized(v, normalized_shape)
    d = _b("sub", v, sym.reduce("mean", v, axes, True, {}))
    var = sym.reduce("mean", _b("mul", d, d), axes, True, {})
    out = _b("mul", d, _u("reciprocal", _u("sqrt", _b("add", var, eps))))
    if weight is not None:
        out = _b("mul", out, _lift(weight))
    if bias is not None:
        out = _b("add", out, _lift(bias))
    return Tensor(out)


def _affine(out: Sym, weight: Any, bias: Any) -> Sym:
    """A norm's weight and bias of one value per channel (dim 1 of [N, C, *])."""
    for t, op in ((weight, "mul"), (bias, "add")):
        if t is not None:
            c = _lift(t)
            out = _b(op, out, sym.reshape(c, (c.shape[0], *([1] * (out.ndim - 2)))))
    return out


def _group_norm(
    x: Any, num_groups: int, weight: Any = None, bias: Any = None, eps: Any = 1e-5
) -> Tensor:
    """F.group_norm of [N, C, *]: each sample's C / num_groups channels of a group normalised
    by their mean and (biased) variance over those channels and the spatial axes, then the
    per-channel affine. A group per channel (instance_norm) is a norm over the trailing axes
    with a value per row; one group without an affine, a layer norm over [C, *]."""
    v = _lift(x)
    if v.ndim < 3:
        raise Unsupported("group_norm of other than [N, C, *] inputs")
    groups, c = int(num_groups), v.shape[1]
    if groups == 1 and weight is None and bias is None:
        return _layer_norm(x, v.shape[1:], eps=eps)
    if groups != c:  # a row of several channels: the group_norm form, its count by name
        if groups <= 0 or c % groups:
            raise Unsupported(f"group_norm of {c} channels in {groups} groups")
        operands = [_lift(t) for t in (weight, bias) if t is not None]
        if any(t.op != "input" or t.shape != (c,) for t in operands):
            raise Unsupported("group_norm with other than [C] inputs as its weight and bias")
        return Tensor(
            Sym(
                "groupnorm",
                v.shape,
                (v, *operands),
                value=float(groups),
                name=(INT_ATTRS.get() or {}).get(groups, ""),
                meta={"eps": sym.lift(eps), "weight": weight is not None, "bias": bias is not None},
            )
        )
    return Tensor(_affine(_layer_norm(x, v.shape[2:], eps=eps).sym, weight, bias))


def _instance_norm(
    x: Any,
    running_mean: Any = None,
    running_var: Any = None,
    weight: Any = None,
    bias: Any = None,
    use_input_stats: bool = True,
    momentum: Any = 0.1,
    eps: Any = 1e-5,
) -> Tensor:
    """F.instance_norm with the input's statistics: group_norm with a group per channel (the
    running statistics, if given, are only updated, which leaves the output as it is)."""
    if not use_input_stats:
        return _batch_norm(x, running_mean, running_var, weight, bias, False, momentum, eps)
    return _group_norm(x, _lift(x).shape[1], weight, bias, eps)


def _rms_norm(x: Any, normalized_shape: Any, weight: Any = None, eps: Any = None) -> Tensor:
    if eps is None:
        raise Unsupported("rms_norm with eps=None (the dtype's machine epsilon)")
    v = _lift(x)
    ms = sym.reduce("mean", _b("mul", v, v), _normalized(v, normalized_shape), True, {})
    out = _b("mul", v, _u("reciprocal", _u("sqrt", _b("add", ms, eps))))
    return Tensor(out if weight is None else _b("mul", out, _lift(weight)))


# Losses: element-wise terms, then `reduction` over every element.
def _reduced(term: Sym, reduction: str) -> Tensor:
    if reduction == "none":
        return Tensor(term)
    if reduction not in ("mean", "sum"):
        raise Unsupported(f"reduction={reduction!r}")
    return Tensor(sym.reduce(reduction, term, None, False, {}))


def _mse_loss(a: Any, b: Any, *args: Any, reduction: str = "mean", **k: Any) -> Tensor:
    d = _b("sub", _lift(a), _lift(b))
    return _reduced(_b("mul", d, d), reduction)


def _l1_loss(a: Any, b: Any, *args: Any, reduction: str = "mean", **k: Any) -> Tensor:
    return _reduced(_u("abs", _b("sub", _lift(a), _lift(b))), reduction)


def _smooth_l1_loss(
    a: Any, b: Any, *args: Any, reduction: str = "mean", beta: Any = 1.0, **k: Any
) -> Tensor:
    d = _u("abs", _b("sub", _lift(a), _lift(b)))
    quad = _b("div", _b("mul", 0.5, _b("mul", d, d)), beta)
    lin = _b("sub", d, _b("mul", 0.5, beta))
    return _reduced(sym.where(sym.compare("lt", d, sym.lift(beta)), quad, lin), reduction)


def _huber_loss(a: Any, b: Any, reduction: str = "mean", delta: Any = 1.0, **k: Any) -> Tensor:
    d = _u("abs", _b("sub", _lift(a), _lift(b)))
    quad = _b("mul", 0.5, _b("mul", d, d))
    lin = _b("mul", delta, _b("sub", d, _b("mul", 0.5, delta)))
    return _reduced(sym.where(sym.compare("lt", d, sym.lift(delta)), quad, lin), reduction)


class _Extremes(tuple):
    """torch.max(x, dim)'s (values, indices)."""

    @property
    def values(self) -> Tensor:
        return self[0]

    @property
    def indices(self) -> Tensor:
        if self[1] is None:
            raise Unsupported("the indices of a fold over a stack")
        return self[1]


def _extreme(fn: str) -> Callable[..., Any]:
    def op(x: Any, dim: Any = None, keepdim: bool = False, **k: Any) -> Any:
        if isinstance(dim, Tensor):  # torch.max(a, b): the element-wise maximum
            return _single(fn)(x, dim)
        if dim is None:  # over every element: one value, no index
            return _reduce(fn)(x)
        return _Extremes((_reduce(fn)(x, dim, keepdim), _reduce(f"arg{fn}")(x, dim, keepdim)))

    return op


def _arg(fn: str) -> Callable[..., Tensor]:
    """torch.argmax / argmin along a dim: the index of the first extreme, as a value."""

    def op(x: Any, dim: Any = None, keepdim: bool = False, **k: Any) -> Tensor:
        if dim is None:
            raise Unsupported(f"torch.{fn} over every element (an index into the flattened tensor)")
        return _reduce(fn)(x, dim, keepdim)

    return op


def _arange(start: Any, end: Any = None, step: Any = 1, **k: Any) -> Tensor:
    """torch.arange of numbers: start + step * (0, 1, ...), an index along the last axis."""
    if end is None:
        start, end = 0, start
    if not all(isinstance(v, int | float) for v in (start, end, step)) or step == 0:
        raise Unsupported("torch.arange of other than numbers")
    v = sym.lanes(max(math.ceil((end - start) / step), 0))
    if step != 1:
        v = _b("mul", v, float(step))
    return Tensor(v if start == 0 else _b("add", v, float(start)))


def _picked(index: Any, n: int) -> Sym:
    """1 where the lane is the row's index, else 0: relu(1 - |lane - index|), exact for the
    integral lanes and indices (torch.nn.functional.one_hot)."""
    t = _lift(index)
    at = sym.reshape(t, (*t.shape, 1))
    return _b("max", _b("sub", 1.0, _u("abs", _b("sub", sym.lanes(n), at))), 0.0)


def _one_hot(t: Any, num_classes: int = -1) -> Tensor:
    if num_classes < 0:
        raise Unsupported("one_hot without num_classes (the largest index read back)")
    return Tensor(_picked(t, num_classes))


def _target_terms(x: Sym, target: Any, weight: Any, ignore_index: int) -> tuple[Sym, Sym | None]:
    """Each row's element at its target (a one-hot row summed) and the factor its loss takes:
    the target's class weight (`weight[target]`, likewise picked), times 0 where the target is
    `ignore_index` (1 - relu(1 - |t - i|): exact for integral targets); None for neither."""
    hot = _picked(target, x.shape[1])
    picked = sym.reduce("sum", _b("mul", x, hot), -1, False, {})
    factor = None
    if weight is not None:
        w = _lift(weight)
        factor = sym.reduce("sum", _b("mul", sym.reshape(w, (1, *w.shape)), hot), -1, False, {})
    if 0 <= ignore_index < x.shape[1]:  # a target may be that class: its row counts nothing
        t = _lift(target)
        at = sym.reshape(t, (*t.shape, 1))  # a value per row, as the one-hot row reads it
        hit = _b("max", _b("sub", 1.0, _u("abs", _b("sub", at, float(ignore_index)))), 0.0)
        keep = sym.reshape(_b("sub", 1.0, hit), t.shape)
        factor = keep if factor is None else _b("mul", factor, keep)
    return picked, factor


def _class_reduced(term: Sym, factor: Sym | None, reduction: str) -> Tensor:
    """A loss over class indices: torch's mean divides by the rows' total factor (the weights
    of the targets not ignored), a total whose count is another total."""
    if factor is not None and reduction == "mean":
        return Tensor(sym.Sym("total", (), (term, factor), fn="mean"))
    return _reduced(term, reduction)


def _nll_loss(
    x: Any,
    target: Any,
    weight: Any = None,
    *a: Any,
    ignore_index: int = -100,
    reduction: str = "mean",
    **k: Any,
) -> Tensor:
    """F.nll_loss of [N, C] log-probabilities: -x[i, target[i]] (times its class weight, 0 where
    the target is ignore_index), the row's element at its target picked by a one-hot row."""
    v = _lift(x)
    if v.ndim != 2:
        raise Unsupported("nll_loss of other than [N, C] inputs")
    picked, factor = _target_terms(v, target, weight, ignore_index)
    term = _u("neg", picked if factor is None else _b("mul", picked, factor))
    return _class_reduced(term, factor, reduction)


def _cross_entropy(
    x: Any, target: Any, weight: Any = None, *a: Any, reduction: str = "mean", **k: Any
) -> Tensor:
    """F.cross_entropy of [N, C] logits: with class indices, the row's logsumexp less its
    target's element (times the target's class weight, 0 where it is ignore_index); with class
    probabilities p (the target of x's shape), the row's sum of p * (logsumexp - x).
    `label_smoothing` e mixes in e times the row's mean term (logsumexp - mean(x)): torch's
    (1 - e) * loss + e * that."""
    smooth = k.get("label_smoothing", 0.0)
    v = _lift(x)
    if v.ndim != 2:
        raise Unsupported("cross_entropy of other than [N, C] inputs")
    lse = _logsumexp(x, -1, keepdim=True).sym
    factor = None
    if _lift(target).shape == v.shape:
        if weight is not None:
            raise Unsupported("cross_entropy with class probabilities and class weights")
        term = sym.reduce("sum", _b("mul", _lift(target), _b("sub", lse, v)), -1, False, {})
    else:
        picked, factor = _target_terms(v, target, weight, k.get("ignore_index", -100))
        term = _b("add", _logsumexp(x, -1).sym, _u("neg", picked))
        if factor is not None:
            if smooth:
                raise Unsupported("cross_entropy with label_smoothing and class weights")
            term = _b("mul", term, factor)
    if smooth:
        uniform = sym.reduce("mean", _b("sub", lse, v), -1, False, {})
        term = _b("add", term, _b("mul", sym.lift(smooth), _b("sub", uniform, term)))
    return _class_reduced(term, factor, reduction)


def _sizes(v: Any, n: int, name: str) -> tuple[int, ...]:
    """A pooling argument as n sizes (an int is every axis's)."""
    t = tuple(int(x) for x in v) if isinstance(v, list | tuple) else (int(v),) * n
    if len(t) == 1 and n > 1:
        t = t * n
    if len(t) != n:
        raise Unsupported(f"pooling {name} {list(t)} over {n} axes")
    return t


def _pooling(kind: str, n: int) -> Callable[..., Tensor]:
    """F.max_pool1d/2d and avg_pool1d/2d: windows over the last n axes, padding counted in the
    mean (count_include_pad, torch's default), the output rounded down (ceil_mode where it
    changes nothing)."""

    def op(
        x: Any,
        kernel_size: Any,
        stride: Any = None,
        padding: Any = 0,
        *a: Any,
        ceil_mode: bool = False,
        count_include_pad: bool = True,
        divisor_override: Any = None,
        dilation: Any = 1,
        return_indices: bool = False,
    ) -> Tensor:
        # the positional order after padding: max_pool's dilation, ceil_mode, return_indices;
        # avg_pool's ceil_mode, count_include_pad, divisor_override
        names = ("dilation", "ceil_mode", "return_indices")
        names = names if kind == "max" else ("ceil_mode", "count_include_pad", "divisor_override")
        if len(a) > len(names):
            raise Unsupported(f"{kind}_pool{n}d with {len(a) + 3} positional arguments")
        given = dict(zip(names, a))
        dilation = given.get("dilation", dilation)
        ceil_mode = given.get("ceil_mode", ceil_mode)
        return_indices = given.get("return_indices", return_indices)
        count_include_pad = given.get("count_include_pad", count_include_pad)
        divisor_override = given.get("divisor_override", divisor_override)
        if return_indices:
            raise Unsupported(f"{kind}_pool{n}d with indices")
        k = _sizes(kernel_size, n, "kernel")
        window = {
            "kernel": k,
            "stride": k if stride is None or stride == [] else _sizes(stride, n, "stride"),
            "padding": _sizes(padding, n, "padding"),
            "dilation": _sizes(dilation, n, "dilation"),
        }
        if not count_include_pad and any(window["padding"]):
            raise Unsupported("avg_pool with padding not counted (count_include_pad=False)")
        divisor = None if divisor_override is None else int(divisor_override)
        out = sym.pool(_lift(x), kind, window, divisor)
        if ceil_mode and _ceil_sizes(_lift(x), window) != out.shape[-n:]:
            raise Unsupported(f"{kind}_pool{n}d with ceil_mode=True keeping a partial window")
        return Tensor(out)

    return op


def _ceil_sizes(x: Sym, w: dict[str, tuple[int, ...]]) -> tuple[int, ...]:
    """The pooled lengths with ceil_mode (a last window starting inside the padded input)."""
    out = []
    for m, k, s, p, d in zip(
        x.shape[-len(w["kernel"]) :], w["kernel"], w["stride"], w["padding"], w["dilation"]
    ):
        o = -(-(m + 2 * p - d * (k - 1) - 1) // s) + 1
        out.append(o - 1 if (o - 1) * s >= m + p else o)
    return tuple(out)


def _conv(n: int) -> Callable[..., Tensor]:
    """F.conv1d / conv2d (and torch's): stride, padding (numbers, "valid" or "same"), dilation,
    groups, an optional bias; the kernel's size is the weight's."""

    def op(
        x: Any,
        weight: Any,
        bias: Any = None,
        stride: Any = 1,
        padding: Any = 0,
        dilation: Any = 1,
        groups: Any = 1,
    ) -> Tensor:
        w = _lift(weight)
        d = _sizes(dilation, n, "dilation")
        if padding == "valid":
            before = after = (0,) * n
        elif padding == "same":
            if any(v != 1 for v in _sizes(stride, n, "stride")):
                raise Unsupported(f"conv{n}d with padding='same' and a stride")
            total = [di * (k - 1) for di, k in zip(d, w.shape[2:])]
            before = tuple(t // 2 for t in total)
            after = tuple(t - t // 2 for t in total)
        elif isinstance(padding, str):
            raise Unsupported(f"conv{n}d with padding={padding!r}")
        else:
            before = after = _sizes(padding, n, "padding")
        window = {
            "stride": _sizes(stride, n, "stride"),
            "padding": before,
            "after": after,
            "dilation": d,
        }
        b = None if bias is None else _lift(bias)
        return Tensor(sym.conv(_lift(x), w, b, window, int(groups)))

    return op


def _adaptive_pool(fn: str, n: int) -> Callable[..., Tensor]:
    """F.adaptive_avg_pool1d/2d / adaptive_max_pool1d/2d: to 1 (x 1) the plane's mean or max;
    to sizes that divide the input's, windows as wide as their stride."""

    def op(x: Any, output_size: Any, *a: Any, **k: Any) -> Tensor:
        v = _lift(x)
        size = output_size if isinstance(output_size, list | tuple) else (output_size,) * n
        size = [m if s is None else int(s) for s, m in zip(size, v.shape[-n:], strict=True)]
        if a or k.get("return_indices"):
            raise Unsupported("adaptive pooling with indices")
        if all(s == 1 for s in size):
            return _reduce(fn)(x, tuple(range(-n, 0)), True)
        if any(s < 1 or m % s for s, m in zip(size, v.shape[-n:], strict=True)):
            raise Unsupported(f"adaptive pooling of {list(v.shape[-n:])} to {size}")
        kernel = tuple(m // s for s, m in zip(size, v.shape[-n:], strict=True))
        window = {"kernel": kernel, "stride": kernel, "padding": (0,) * n, "dilation": (1,) * n}
        out = sym.pool(v, "max" if fn == "max" else "avg", window, None)
        out.meta["adaptive"] = True  # the window follows the shapes: one program for every case
        return Tensor(out)

    return op


def _cumprod(x: Any, dim: Any, *a: Any, dtype: Any = None, **k: Any) -> Tensor:
    if dtype is not None:
        raise Unsupported("cumprod with dtype")
    return Tensor(sym.scan("prod", _lift(x), _dim(dim)))


def _cumsum(x: Any, dim: Any, *a: Any, dtype: Any = None, **k: Any) -> Tensor:
    if dtype is not None:
        raise Unsupported("cumsum with dtype")
    return Tensor(sym.scan("sum", _lift(x), _dim(dim)))


def _logsumexp(x: Any, dim: Any, keepdim: bool = False, **k: Any) -> Tensor:
    v, d = _lift(x), _dim(dim)
    m = sym.reduce("max", v, d, True, {})
    total = sym.reduce("sum", _u("exp", _b("sub", v, m)), d, True, {})
    out = _b("add", _u("log", total), m)
    return Tensor(
        out
        if keepdim
        else sym.reshape(out, [n for i, n in enumerate(out.shape) if i != d % v.ndim])
    )


def _var(
    x: Any,
    dim: Any = None,
    *a: Any,
    unbiased: Any = None,
    correction: Any = None,
    keepdim: bool = False,
    **k: Any,
) -> Tensor:
    if a:  # the older positional form var(x, dim, unbiased, keepdim)
        unbiased, keepdim = a[0], a[1] if len(a) > 1 else keepdim
    v, d = _lift(x), _dim(dim)
    if d is None:
        raise Unsupported("a variance over every element")
    if correction is None:
        correction = 0 if unbiased is False else 1
    c = float(correction)
    n = v.shape[d % v.ndim]
    dev = _b("sub", v, sym.reduce("mean", v, d, True, {}))
    out = sym.reduce("mean", _b("mul", dev, dev), d, keepdim, {})
    return Tensor(out if c == 0 else _b("mul", out, n / (n - c)))


def _std(x: Any, *a: Any, **k: Any) -> Tensor:
    return Tensor(_u("sqrt", _var(x, *a, **k).sym))


def _normalize(x: Any, p: Any = 2.0, dim: Any = 1, eps: Any = 1e-12, **k: Any) -> Tensor:
    if p != 2:
        raise Unsupported(f"normalize with p={p}")
    v, d = _lift(x), _dim(dim)
    norm = _u("sqrt", sym.reduce("sum", _b("mul", v, v), d, True, {}))
    return Tensor(_b("div", v, _b("max", norm, eps)))


def _glu(x: Any, dim: Any = -1) -> Tensor:
    a, b = sym.split(_lift(x), 2, _dim(dim))
    return Tensor(_b("mul", a, _sigmoid(b).sym))


def _chunk(x: Any, chunks: int, dim: Any = 0) -> list[Tensor]:
    return [Tensor(p) for p in sym.split(_lift(x), chunks, _dim(dim))]


def _where0(cond: Sym, a: Any, b: Any) -> Sym:
    return sym.where(cond, sym.lift(a), sym.lift(b))


def _threshold(x: Any, threshold: Any, value: Any, *a: Any, **k: Any) -> Tensor:
    v = _lift(x)
    return Tensor(_where0(sym.compare("gt", v, sym.lift(threshold)), v, value))


def _hardshrink(x: Any, lambd: Any = 0.5) -> Tensor:
    v = _lift(x)
    return Tensor(_where0(sym.compare("gt", _u("abs", v), sym.lift(lambd)), v, 0.0))


def _softshrink(x: Any, lambd: Any = 0.5) -> Tensor:
    v = _lift(x)
    shrunk = _b("sub", v, _b("mul", _sign(v).sym, lambd))
    return Tensor(_where0(sym.compare("gt", _u("abs", v), sym.lift(lambd)), shrunk, 0.0))


def _celu(x: Any, alpha: Any = 1.0, *a: Any, **k: Any) -> Tensor:
    v = _lift(x)
    neg = _b("mul", alpha, _b("sub", _u("exp", _b("div", v, alpha)), 1.0))
    return Tensor(sym.where(sym.compare("gt", v, sym.lift(0.0)), v, neg))


def _sign(x: Any, *a: Any, **k: Any) -> Tensor:
    v = _lift(x)
    neg = _where0(sym.compare("lt", v, sym.lift(0.0)), -1.0, 0.0)
    return Tensor(_where0(sym.compare("gt", v, sym.lift(0.0)), 1.0, neg))


def _bce(p: Any, t: Any, weight: Any = None, *a: Any, reduction: str = "mean", **k: Any) -> Tensor:
    if weight is not None:
        raise Unsupported("binary_cross_entropy with weight")
    pv, tv = _lift(p), _lift(t)
    # torch clamps each log at -100
    lp = _b("max", _u("log", pv), -100.0)
    lq = _b("max", _u("log", _b("sub", 1.0, pv)), -100.0)
    term = _u("neg", _b("add", _b("mul", tv, lp), _b("mul", _b("sub", 1.0, tv), lq)))
    return _reduced(term, reduction)


def _bce_logits(
    x: Any,
    t: Any,
    weight: Any = None,
    *a: Any,
    reduction: str = "mean",
    pos_weight: Any = None,
    **k: Any,
) -> Tensor:
    if weight is not None or pos_weight is not None:
        raise Unsupported("binary_cross_entropy_with_logits with weights")
    xv, tv = _lift(x), _lift(t)
    # (1 - t) x + log(1 + e^-x), in the stable form log(1 + e^-x) = softplus(-x)
    term = _b("add", _b("mul", _b("sub", 1.0, tv), xv), _log1p_exp(_u("neg", xv)))
    return _reduced(term, reduction)


def _kl_div(
    x: Any, t: Any, *a: Any, reduction: str = "mean", log_target: bool = False, **k: Any
) -> Tensor:
    xv, tv = _lift(x), _lift(t)
    if log_target:
        term = _b("mul", _u("exp", tv), _b("sub", tv, xv))
    else:
        raise Unsupported("kl_div with log_target=False (0 log 0 needs a select on the target)")
    if reduction == "batchmean":  # the sum over the batch size: each term scaled, then summed
        return Tensor(sym.reduce("sum", _b("mul", term, 1.0 / xv.shape[0]), None, False, {}))
    return _reduced(term, reduction)


# reductions that fold a stack's members when taken over its stacked axis
FOLDS = {"sum": "add", "mean": "add", "amax": "max", "amin": "min", "max": "max", "min": "min"}
# functions whose arguments name axes: over a stack only as FOLDS (the axis shifted by one)
AXIS_FUNCTIONS = {"softmax", "log_softmax", "cumsum", "logsumexp", "var", "std", "norm"}
AXIS_FUNCTIONS |= {"cumprod", "argmax", "argmin"}
AXIS_FUNCTIONS |= {"normalize", "glu", "chunk", "reshape", "flatten", "layer_norm", "rms_norm"}
AXIS_FUNCTIONS |= {
    "matmul",
    "mm",
    "bmm",
    "linear",
    "addmm",
    "t",
    "transpose",
    "swapaxes",
    "permute",
}
AXIS_FUNCTIONS |= {"narrow", "split", "gather", "take_along_dim", "index_select"}


class Stacked:
    """`torch.stack(tensors, dim=0)`, kept as its members: element-wise operations apply to
    each member, a reduction over the stacked axis folds them (a list's sum, maximum or mean),
    a reduction over another axis reduces each member. The stack itself is never a tensor of
    the kernel: a golden that stores it or indexes it is Unsupported."""

    def __init__(self, members: list[Tensor]) -> None:
        self.members = members

    @property
    def shape(self) -> tuple[int, ...]:
        return (len(self.members), *self.members[0].shape)

    def size(self, d: int | None = None) -> Any:
        return self.shape if d is None else self.shape[d]

    def dim(self) -> int:
        return len(self.shape)

    ndim = property(dim)

    def _member_arg(self, x: Any, i: int) -> Any:
        """An operand as member i sees it: a stack's member, a tensor without the stacked axis."""
        if isinstance(x, Stacked):
            if len(x.members) != len(self.members):
                raise Unsupported("stacks of different lengths")
            return x.members[i]
        if isinstance(x, Tensor) and x.ndim == self.ndim:
            if x.shape[0] != 1:
                raise Unsupported("a tensor indexed along a stack's axis")
            return x.view(x.shape[1:])
        return x

    def _inner(self, dim: Any) -> Any:
        """An axis of the stack as an axis of its members (the stacked axis has none)."""
        d = _dim(dim) % self.ndim
        if d == 0:
            raise Unsupported("an operation along a stack's axis")
        return d - 1

    def apply(self, name: str, fn: Callable[..., Any], a: tuple, k: dict) -> Any:
        """torch.<name>(...) with this stack among its arguments."""
        dim = a[1] if len(a) > 1 else k.get("dim")
        if name in FOLDS and a[0] is self and not isinstance(dim, Tensor | Stacked):
            if dim is not None and _dim(dim) % self.ndim == 0:
                if k.get("keepdim") or (len(a) > 2 and a[2]):
                    raise Unsupported("a reduction over a stack's axis with keepdim")
                return self._fold(name)
            if dim is not None:  # along a member's own axis
                rest = {**k, "dim": self._inner(dim)}
                return Stacked([fn(m, *a[2:], **rest) for m in self.members])
            raise Unsupported(f"torch.{name} of a whole stack")
        if name in AXIS_FUNCTIONS:
            raise Unsupported(f"torch.{name} of a stack")
        return self._map(fn, a, k)

    def _map(self, fn: Callable[..., Any], a: tuple, k: dict) -> Stacked:
        out = []
        for i in range(len(self.members)):
            ai = [self._member_arg(x, i) for x in a]
            ki = {n: self._member_arg(x, i) for n, x in k.items()}
            out.append(fn(*ai, **ki))
        return Stacked(out)

    def _fold(self, name: str) -> Any:
        op = FOLDS[name]
        acc = _lift(self.members[0])
        for m in self.members[1:]:
            acc = sym.binary(op, acc, _lift(m))
        if name == "mean":
            acc = sym.binary("mul", acc, sym.lift(1.0 / len(self.members)))
        out = Tensor(acc)
        return _Extremes((out, None)) if name in ("max", "min") else out

    def unsqueeze(self, dim: int) -> Stacked:
        d = dim % (self.ndim + 1)
        if d == 0:
            raise Unsupported("an axis before a stack's axis")
        return Stacked([m.unsqueeze(d - 1) for m in self.members])

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        fn = FUNCTIONS.get(name)
        if fn is not None:
            return lambda *a, **k: self.apply(name, fn, (self, *a), k)
        if name in ("float", "double", "half", "bfloat16", "to", "type_as", "contiguous"):
            return lambda *a, **k: self._map(
                lambda m, *x, **y: getattr(m, name)(*x, **y), (self, *a), k
            )
        raise Unsupported(f"Tensor.{name} of a stack")


def _stack_method(op: str) -> Callable[..., Any]:
    return lambda self, other: self._map(lambda m, o: getattr(m, op)(o), (self, other), {})


for _op in (
    "__add__ __radd__ __sub__ __rsub__ __mul__ __rmul__ __truediv__ __rtruediv__ __pow__ "
    "__rpow__ __gt__ __ge__ __lt__ __le__ __neg__ __abs__"
).split():
    if _op in ("__neg__", "__abs__"):
        setattr(
            Stacked, _op, lambda self, _o=_op: Stacked([getattr(m, _o)() for m in self.members])
        )
    else:
        setattr(Stacked, _op, _stack_method(_op))


def _stack(tensors: Any, dim: int = 0, **k: Any) -> Stacked | Tensor:
    """Along dim 0 kept as its members (folded or mapped); along another dim, a concatenation of
    the members with that axis added."""
    members = [x if isinstance(x, Tensor) else Tensor(_lift(x)) for x in tensors]
    if len({m.shape for m in members}) != 1:
        raise Unsupported("torch.stack of tensors of different shapes")
    if dim % (members[0].ndim + 1) != 0:
        return Tensor(sym.stack([m.sym for m in members], dim))
    return Stacked(members)


def _cat(tensors: Any, dim: int = 0, **k: Any) -> Tensor:
    """torch.cat / concat / concatenate; a stack among the tensors is its members with the
    stacked axis (a concatenation along dim 0)."""
    return Tensor(sym.concat([_whole(x) for x in tensors], dim))


def _whole(x: Any) -> Any:
    """A value as a tensor of the kernel: a stack stored whole is its members joined along
    their new leading axis."""
    if isinstance(x, Stacked):
        return sym.stack([m.sym for m in x.members], 0)
    return _sym(x)


def _over_stacks(name: str, fn: Callable[..., Any]) -> Callable[..., Any]:
    """torch.<name> that maps over (or folds) a stack among its arguments."""

    def op(*a: Any, **k: Any) -> Any:
        stack = next((x for x in (*a, *k.values()) if isinstance(x, Stacked)), None)
        return fn(*a, **k) if stack is None else stack.apply(name, fn, a, k)

    return op


FUNCTIONS: dict[str, Callable[..., Any]] = {
    "add": _binop("add"),
    "sub": _binop("sub"),
    "subtract": _binop("sub"),
    "mul": _single("mul"),
    "multiply": _single("mul"),
    "div": _single("div"),
    "true_divide": _single("div"),
    "divide": _single("div"),
    "rsub": lambda a, b, *, alpha=1, **k: _binop("sub")(b, a, alpha=alpha),
    "remainder": _modulo("floor"),
    "fmod": _modulo("trunc"),
    "floor_divide": _floor_divide,
    "maximum": _single("max"),
    "minimum": _single("min"),
    "pow": lambda a, b, **k: Tensor(sym.power(_lift(a), _lift(b))),
    "exp": _unary("exp"),
    "log": _unary("log"),
    "sqrt": _unary("sqrt"),
    "rsqrt": _rsqrt,
    "tanh": _unary("tanh"),
    "abs": _unary("abs"),
    "neg": _unary("neg"),
    "negative": _unary("neg"),
    "reciprocal": _unary("reciprocal"),
    **{f: _unary(f) for f in sym.MATH},
    "arctan": _unary("atan"),
    "fix": _unary("trunc"),
    "square": lambda x, **k: _rounded(Tensor(sym.binary("mul", _lift(x), _lift(x)))),
    "sigmoid": _sigmoid,
    "relu": _relu,
    "relu6": lambda x, *a, **k: _hardtanh(x, 0.0, 6.0),
    "silu": _silu,
    "gelu": _gelu,
    "erf": _erf,
    "erfc": lambda x, **k: Tensor(_b("sub", 1.0, _erf(x).sym)),
    "sinh": lambda x, **k: _half_exp(x, -1.0),
    "cosh": lambda x, **k: _half_exp(x, 1.0),
    "frac": lambda x, **k: Tensor(_b("sub", _lift(x), _u("trunc", _lift(x)))),
    "norm": _norm,
    "cpu": lambda x, **k: x,
    "softplus": _softplus,
    "leaky_relu": _leaky_relu,
    "elu": _elu,
    "selu": _selu,
    "hardtanh": _hardtanh,
    "hardsigmoid": _hardsigmoid,
    "hardswish": _hardswish,
    "mish": _mish,
    "logsigmoid": _logsigmoid,
    "softsign": _softsign,
    "log1p": lambda x, **k: Tensor(_u("log", _b("add", 1.0, _lift(x)))),
    "expm1": lambda x, **k: Tensor(_b("sub", _u("exp", _lift(x)), 1.0)),
    "softmax": _softmax,
    "log_softmax": _log_softmax,
    "layer_norm": _layer_norm,
    "rms_norm": _rms_norm,
    "mse_loss": _mse_loss,
    "l1_loss": _l1_loss,
    "smooth_l1_loss": _smooth_l1_loss,
    "huber_loss": _huber_loss,
    "cumsum": _cumsum,
    "cumprod": _cumprod,
    "argmax": _arg("argmax"),
    "adaptive_avg_pool2d": _adaptive_pool("mean", 2),
    "adaptive_avg_pool1d": _adaptive_pool("mean", 1),
    "adaptive_max_pool1d": _adaptive_pool("max", 1),
    "max_pool1d": _pooling("max", 1),
    "conv1d": _conv(1),
    "conv2d": _conv(2),
    "max_pool2d": _pooling("max", 2),
    "avg_pool1d": _pooling("avg", 1),
    "avg_pool2d": _pooling("avg", 2),
    "arange": _arange,
    "one_hot": _one_hot,
    "nll_loss": _nll_loss,
    "cross_entropy": _cross_entropy,
    "adaptive_max_pool2d": _adaptive_pool("max", 2),
    "argmin": _arg("argmin"),
    "logical_not": _logical_not,
    "reshape": lambda x, shape: x.view(shape),
    "flatten": lambda x, start_dim=0, end_dim=-1: x.flatten(start_dim, end_dim),
    "max": _extreme("max"),
    "min": _extreme("min"),
    "logsumexp": _logsumexp,
    "var": _var,
    "std": _std,
    "normalize": _normalize,
    "glu": _glu,
    "chunk": _chunk,
    "threshold": _threshold,
    "hardshrink": _hardshrink,
    "softshrink": _softshrink,
    "celu": _celu,
    "sign": _sign,
    "binary_cross_entropy": _bce,
    "binary_cross_entropy_with_logits": _bce_logits,
    "kl_div": _kl_div,
    "clamp_min": lambda x, min, **k: _clamp(x, min=min),
    "clamp_max": lambda x, max, **k: _clamp(x, max=max),
    "addcmul": lambda x, t1, t2, *, value=1, **k: Tensor(
        _b("add", _lift(x), _b("mul", _b("mul", _lift(t1), _lift(t2)), value))
    ),
    "addcdiv": lambda x, t1, t2, *, value=1, **k: Tensor(
        _b("add", _lift(x), _b("mul", _b("div", _lift(t1), _lift(t2)), value))
    ),
    "lerp": lambda a, b, w, **k: Tensor(
        _b("add", _lift(a), _b("mul", _lift(w), _b("sub", _lift(b), _lift(a))))
    ),
    "log2": lambda x, **k: Tensor(_b("mul", _u("log", _lift(x)), 1.4426950408889634)),
    "log10": lambda x, **k: Tensor(_b("mul", _u("log", _lift(x)), 0.4342944819032518)),
    "exp2": lambda x, **k: Tensor(_u("exp", _b("mul", _lift(x), 0.6931471805599453))),
    "zeros_like": lambda x, **k: _like(x, 0.0),
    "ones_like": lambda x, **k: _like(x, 1.0),
    "full_like": lambda x, fill_value, **k: _like(x, fill_value),
    # its contents undefined (0 here): a tensor to write into (`copy_`, a slice)
    "empty_like": lambda x, **k: Tensor(sym.fill(_lift(x).shape, 0.0)),
    "clamp": _clamp,
    "clip": _clamp,
    "where": _where,
    "sum": _reduce("sum"),
    "mean": _reduce("mean"),
    "amax": _reduce("max"),
    "amin": _reduce("min"),
    "any": _truth("max"),
    "all": _truth("min"),
    "tensor": _tensor,
    "prod": _prod,
    "as_tensor": _tensor,
    "matmul": _matmul,
    "mm": _matmul,
    "bmm": _matmul,
    "einsum": _einsum,
    "linear": _linear,
    "addmm": _addmm,
    "t": _t,
    "transpose": lambda x, dim0, dim1: Tensor(sym.swap(_lift(x), dim0, dim1)),
    "swapaxes": lambda x, dim0, dim1: Tensor(sym.swap(_lift(x), dim0, dim1)),
    "permute": _permute,
    "movedim": _movedim,
    "repeat_interleave": _repeat_interleave,
    "zeros": _filled(0.0),
    "ones": _filled(1.0),
    "empty": _filled(0.0),
    "full": _full,
    "pad": _pad,
    "copy": _copy,
    "masked_fill": lambda x, mask, value, **k: Tensor(
        sym.where(_truth_of(_lift(mask)), _fill_value(value), _lift(x))
    ),
    "scaled_dot_product_attention": _sdpa,
    "prelu": _prelu,
    "batch_norm": _batch_norm,
    "group_norm": _group_norm,
    "instance_norm": _instance_norm,
    "hypot": lambda a, b, **k: Tensor(
        _u("sqrt", _b("add", _b("mul", _lift(a), _lift(a)), _b("mul", _lift(b), _lift(b))))
    ),
    "tanhshrink": lambda x, **k: Tensor(_b("sub", _lift(x), _u("tanh", _lift(x)))),
    "xlogy": lambda a, b, **k: Tensor(_b("mul", _lift(a), _u("log", _lift(b)))),
    "softmin": lambda x, dim=None, *a, **k: _softmax(Tensor(_u("neg", _lift(x))), dim),
    "dropout": lambda x, p=0.5, training=True, *a, **k: _eval_only(x, training, "dropout"),
    "triu": lambda x, diagonal=0, **k: Tensor(sym.band(_lift(x), "triu", int(diagonal))),
    "tril": lambda x, diagonal=0, **k: Tensor(sym.band(_lift(x), "tril", int(diagonal))),
    "moveaxis": _movedim,
    "narrow": lambda x, dim, start, length: Tensor(sym.narrow(_lift(x), dim, start, length)),
    "gather": lambda x, dim, index, **k: Tensor(sym.gather(_lift(x), dim, _lift(index))),
    "take_along_dim": lambda x, indices, dim, **k: Tensor(
        sym.gather(_lift(x), dim, _lift(indices))
    ),
    "index_select": lambda x, dim, index, **k: Tensor(
        sym.gather(_lift(x), dim, _lift(index), shared=True)
    ),
    "split": _split,
}


def _module(fn: Callable[..., Any]) -> type:
    """A torch.nn module built on a functional form: its arguments are the form's."""

    class Module:
        def __init__(self, *a: Any, inplace: bool = False, **k: Any) -> None:
            self.a, self.k = a, k

        def __call__(self, *x: Any) -> Any:
            return fn(*x, *self.a, **self.k)

        forward = __call__

    return Module


MODULES = {
    name: _module(FUNCTIONS[fn])
    for name, fn in {
        "ReLU": "relu",
        "ReLU6": "relu6",
        "GELU": "gelu",
        "SiLU": "silu",
        "Sigmoid": "sigmoid",
        "Tanh": "tanh",
        "Softmax": "softmax",
        "LogSoftmax": "log_softmax",
        "Softplus": "softplus",
        "LeakyReLU": "leaky_relu",
        "ELU": "elu",
        "SELU": "selu",
        "CELU": "celu",
        "Hardswish": "hardswish",
        "Hardsigmoid": "hardsigmoid",
        "Hardtanh": "hardtanh",
        "Mish": "mish",
        "LogSigmoid": "logsigmoid",
        "Softsign": "softsign",
        "GLU": "glu",
        "MSELoss": "mse_loss",
        "L1Loss": "l1_loss",
        "SmoothL1Loss": "smooth_l1_loss",
        "HuberLoss": "huber_loss",
        "BCELoss": "binary_cross_entropy",
        "BCEWithLogitsLoss": "binary_cross_entropy_with_logits",
        "MaxPool1d": "max_pool1d",
        "MaxPool2d": "max_pool2d",
        "AvgPool1d": "avg_pool1d",
        "AvgPool2d": "avg_pool2d",
        "AdaptiveAvgPool1d": "adaptive_avg_pool1d",
        "AdaptiveAvgPool2d": "adaptive_avg_pool2d",
        "AdaptiveMaxPool1d": "adaptive_max_pool1d",
        "AdaptiveMaxPool2d": "adaptive_max_pool2d",
    }.items()
}


class _Model:
    """torch.nn.Module as a golden subclasses it: calling the model calls its forward."""

    def __init__(self, *a: Any, **k: Any) -> None:
        pass

    def __call__(self, *a: Any, **k: Any) -> Any:
        return self.forward(*a, **k)

    def eval(self) -> _Model:
        return self


class _Dropout(_Model):
    """nn.Dropout: only p = 0 is the identity here (a module trains until eval(), which the
    stand-in does not pass on to the modules it holds)."""

    def __init__(self, p: float = 0.5, inplace: bool = False) -> None:
        self.p = p

    def forward(self, x: Any) -> Tensor:
        return _eval_only(x, self.p != 0, "dropout")


def shim() -> types.ModuleType:
    """The stand-in `torch` (with `torch.nn.functional`) a golden imports during the trace."""
    torch = types.ModuleType("torch")
    torch.__dict__.update({n: _over_stacks(n, f) for n, f in FUNCTIONS.items()})
    torch.stack = _stack
    torch.cat = torch.concat = torch.concatenate = _cat
    for name in ("float16", "bfloat16", "float32", "float64", "half", "float", "bool", *INTEGERS):
        setattr(torch, name, DType(name))
    torch.Tensor = Tensor
    torch.inf, torch.nan, torch.pi, torch.e = math.inf, math.nan, math.pi, math.e
    functional = types.ModuleType("torch.nn.functional")
    functional.__dict__.update({n: _over_stacks(n, f) for n, f in FUNCTIONS.items()})
    torch.nn = types.SimpleNamespace(
        functional=functional, Module=_Model, Dropout=_Dropout, **MODULES
    )
    torch.linalg = types.SimpleNamespace(vector_norm=_vector_norm, norm=_linalg_norm)
    torch.no_grad = lambda: _Nothing()
    return torch


class _Nothing:
    def __enter__(self) -> None:
        return None

    def __exit__(self, *a: Any) -> None:
        return None


def _lists(pkg: OperatorPackage, args: list[Any]) -> dict[str, Any]:
    """The inputs as the golden takes them, by proto name: a TensorList's members
    (`<name>_<k>`) as one list."""
    out: dict[str, Any] = {}
    for a, v in zip(pkg.spec.inputs, args, strict=True):
        if a.dynamic:
            out.setdefault(a.dynamic, []).append(v)
        else:
            out[a.name] = v
    return out


def _typed(x: Any, dtypes: list[str], boolean: DType) -> Any:
    """An input as the golden sees it: a bool input says so (its dtype is the stand-in's
    `torch.bool`: `mask.dtype == torch.bool`, as scaled_dot_product_attention asks); the others
    keep the stand-in's one dtype (the lowering picks the compute dtype)."""
    t = _wrap(x)
    if isinstance(t, Tensor) and dtypes == ["bool"]:
        t.dtype = boolean
    return t


def numpy_view(pkg: OperatorPackage) -> Callable[..., Any]:
    """The golden as the tracer calls a numpy reference: `Sym`s in, `Sym`s out."""
    module_name, func = pkg.spec.reference.split(":")
    source = pkg.files[module_name.replace(".", "/") + ".py"]
    torch = shim()

    def importer(
        name: str, globals: Any = None, locals: Any = None, fromlist: Any = (), level: int = 0
    ) -> Any:
        if name != "torch" and not name.startswith("torch."):
            return builtins.__import__(name, globals, locals, fromlist, level)
        found: Any = torch  # `import torch.x as y` takes the top; `from torch.x import y`, x
        for part in name.split(".")[1:] if fromlist else ():
            found = getattr(found, part)
        return found

    scope: dict[str, Any] = {
        "__name__": f"cann_bench_golden_{pkg.spec.name}",
        "__builtins__": {**builtins.__dict__, "__import__": importer},
    }
    try:
        exec(compile(source, f"{module_name}.py", "exec"), scope)
    except Exception as e:  # the module itself needs what the stand-in lacks (torch.bool...)
        raise Unsupported(f"{type(e).__name__}: {e}") from None
    golden = scope[func]

    params = inspect.signature(golden).parameters
    takes_any = any(p.kind is p.VAR_KEYWORD for p in params.values())

    def traced(*args: Any, **attrs: Any) -> Any:
        attrs = {k: v for k, v in attrs.items() if takes_any or k in params}
        ints = [(v, k) for k, v in attrs.items() if isinstance(v, int) and not isinstance(v, bool)]
        INT_ATTRS.set({v: k for v, k in ints if [u for u, _ in ints].count(v) == 1})
        typed = [_typed(a, arg.dtypes, torch.bool) for a, arg in zip(args, pkg.spec.inputs)]
        inputs = _lists(pkg, typed)
        if all(n in params for n in inputs):  # by name, as the daemon calls it: attributes may
            out = golden(**inputs, **attrs)  # come first in the golden's signature
        else:
            out = golden(*inputs.values(), **attrs)
        return tuple(_whole(o) for o in out) if isinstance(out, tuple | list) else _whole(out)

    return traced
