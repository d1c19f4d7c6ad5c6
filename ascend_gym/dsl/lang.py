"""The tile DSL's front end: a kernel is GM tensors, loops over UB tiles, values and a schedule.

A DSL program is ordinary Python that builds a `Kernel`:

    k = Kernel("gelu")
    x = k.input("x")
    y = k.output("y")
    with k.tiles() as t:              # every tensor flattened, tiles of the block's share
        v = t.load(x).float()
        t.store(y, v * sigmoid(1.5957691216057308 * (v + 0.044715 * v * v * v)))
    k.schedule(tile_length=4096, buffer_num=2, block_dim=40)

Values are nodes of an expression graph (the algorithm); `schedule` holds the knobs (the how),
kept apart as in Halide. Every node remembers the program line that made it, so every check
(`DslError`) names `file:line` of the user's program, not of this module.
"""

from __future__ import annotations

import contextlib
import sys
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

_HERE = str(Path(__file__).resolve().parent)
_CONTEXTLIB = contextlib.__file__

Kind = Literal["vec", "row", "const"]  # a tile of lanes, one value per row, a scalar
DType = Literal["T", "float", "mask"]  # the tensors' dtype, fp32, a Compare bit mask
# every element, one row shared by all rows, one per row, one element for all (a [1] scale),
# one per row taken in turn (row r reads value r % n: a per-channel [C] of [B, C, H, W] rows)
Layout = Literal["full", "cols", "rows", "scalar", "channels"]


class DslError(ValueError):
    """A mistake in a DSL program, located at the program's line."""

    def __init__(self, where: str, message: str):
        super().__init__(f"{where}: {message}")
        self.where = where


def _caller() -> str:
    """file:line of the innermost frame outside this package (and the `with` machinery): the
    DSL program's line."""
    frame = sys._getframe(1)
    while frame is not None and (
        frame.f_code.co_filename.startswith(_HERE) or frame.f_code.co_filename == _CONTEXTLIB
    ):
        frame = frame.f_back
    if frame is None:
        return "<dsl>:0"
    return f"{frame.f_code.co_filename}:{frame.f_lineno}"


@dataclass(eq=False)
class Tensor:
    """A GM tensor: an input or output of the operator."""

    name: str
    layout: Layout
    is_output: bool
    where: str


@dataclass(eq=False)
class Node:
    op: str  # load, const, attr, unary, binary, compare, select, cast, reduce, product, band
    kind: Kind
    dtype: DType
    args: tuple[Node, ...] = ()
    fn: str = ""  # which unary/binary/reduce/compare function
    value: float = 0.0  # const
    name: str = ""  # attr or tensor name
    part: tuple[int, int] = (0, 1)  # load: which of `parts` equal column slices
    loop: Loop | None = None
    where: str = ""


UNARY = ("exp", "log", "sqrt", "rsqrt", "reciprocal", "abs", "relu", "neg", "tanh", "sigmoid")
# the high-level math API's functions of one tile (AscendC::Sin, Floor, ...), fp32 or half
MATH = ("sin", "cos", "tan", "atan", "floor", "ceil", "round", "trunc")
UNARY += MATH
BINARY = ("add", "sub", "mul", "div", "max", "min", "pow")
COMPARE = ("gt", "ge", "lt", "le", "eq", "ne")
REDUCE = ("sum", "max", "min", "mean")


class Value:
    """A DSL value: wraps a node and gives it Python operators."""

    __array_ufunc__ = None  # numpy scalars on the left defer to our reflected operators

    def __init__(self, node: Node):
        self.node = node

    # arithmetic
    def __add__(self, o: object) -> Value:
        return _binary("add", self, o)

    def __radd__(self, o: object) -> Value:
        return _binary("add", o, self)

    def __sub__(self, o: object) -> Value:
        return _binary("sub", self, o)

    def __rsub__(self, o: object) -> Value:
        return _binary("sub", o, self)

    def __mul__(self, o: object) -> Value:
        return _binary("mul", self, o)

    def __rmul__(self, o: object) -> Value:
        return _binary("mul", o, self)

    def __truediv__(self, o: object) -> Value:
        return _binary("div", self, o)

    def __rtruediv__(self, o: object) -> Value:
        return _binary("div", o, self)

    def __neg__(self) -> Value:
        return _unary("neg", self)

    def __abs__(self) -> Value:
        return _unary("abs", self)

    # comparisons give masks for `where`
    def __gt__(self, o: object) -> Value:  # type: ignore[override]
        return _compare("gt", self, o)

    def __ge__(self, o: object) -> Value:  # type: ignore[override]
        return _compare("ge", self, o)

    def __lt__(self, o: object) -> Value:  # type: ignore[override]
        return _compare("lt", self, o)

    def __le__(self, o: object) -> Value:  # type: ignore[override]
        return _compare("le", self, o)

    def __eq__(self, o: object) -> Value:  # type: ignore[override]
        return _compare("eq", self, o)

    def __ne__(self, o: object) -> Value:  # type: ignore[override]
        return _compare("ne", self, o)

    __hash__ = object.__hash__  # values are graph nodes: identity, as before == was overloaded

    def __bool__(self) -> bool:
        raise DslError(_caller(), "a DSL value has no truth value: use where(cond, a, b)")

    # dtype
    def float(self) -> Value:
        """Cast up to fp32 (Cast with CAST_NONE; free on fp32 tensors). Stores cast back down."""
        n = self.node
        if n.kind == "const" or n.dtype == "float":
            return self
        if n.dtype == "mask":
            raise DslError(_caller(), "a mask cannot be cast; use where(mask, a, b)")
        return Value(Node("cast", n.kind, "float", (n,), loop=n.loop, where=_caller()))

    # row reductions (rows loops): one value per row
    def sum(self) -> Value:
        return _reduce("sum", self)

    def max(self) -> Value:
        return _reduce("max", self)

    def min(self) -> Value:
        return _reduce("min", self)

    def mean(self) -> Value:
        return _reduce("mean", self)

    def argmax(self) -> Value:
        """The lane index of the row's first maximum, as a value (torch.argmax)."""
        return _reduce("argmax", self)

    def argmin(self) -> Value:
        return _reduce("argmin", self)


def _wrap(x: object, where: str) -> Node:
    if isinstance(x, Value):
        return x.node
    if isinstance(x, bool) or not isinstance(x, int | float):
        try:
            x = float(x)  # numpy scalars
        except (TypeError, ValueError):
            raise DslError(
                where, f"expected a DSL value or a number, got {type(x).__name__}"
            ) from None
    return Node("const", "const", "float", value=float(x), where=where)


def _join(fn: str, nodes: list[Node], where: str) -> tuple[Kind, DType, Loop | None]:
    loops = {id(n.loop): n.loop for n in nodes if n.loop is not None}
    if len(loops) > 1:
        raise DslError(where, f"{fn}: operands come from different loops")
    # a column's accumulator feeds step values (a further walk along the axis); a total
    # across blocks exists only once block 0 has added the partials
    if any(n.op == "total" for n in nodes):
        raise DslError(where, f"{fn}: a total is only stored (use .mean() for means)")
    kinds = {n.kind for n in nodes}
    kind: Kind = "vec" if "vec" in kinds else "row" if "row" in kinds else "const"
    dtypes = {n.dtype for n in nodes if n.kind != "const"}
    if "mask" in dtypes:
        raise DslError(where, f"{fn}: a mask is only an operand of where(mask, a, b)")
    if len(dtypes) > 1:
        raise DslError(
            where, f"{fn}: operands have dtypes {sorted(dtypes)}; cast one with .float()"
        )
    dtype: DType = dtypes.pop() if dtypes else "float"
    return kind, dtype, next(iter(loops.values()), None)


def _fold(fn: str, a: float, b: float = 0.0) -> float:
    import math

    table = {
        "add": lambda: a + b,
        "sub": lambda: a - b,
        "mul": lambda: a * b,
        "div": lambda: a / b,
        "max": lambda: max(a, b),
        "min": lambda: min(a, b),
        "pow": lambda: a**b,
        "neg": lambda: -a,
        "abs": lambda: abs(a),
        "relu": lambda: max(a, 0.0),
        "exp": lambda: math.exp(a),
        "log": lambda: math.log(a),
        "sqrt": lambda: math.sqrt(a),
        "rsqrt": lambda: 1 / math.sqrt(a),
        "reciprocal": lambda: 1 / a,
        "tanh": lambda: math.tanh(a),
        "sigmoid": lambda: 1 / (1 + math.exp(-a)),
        "sin": lambda: math.sin(a),
        "cos": lambda: math.cos(a),
        "tan": lambda: math.tan(a),
        "atan": lambda: math.atan(a),
        "floor": lambda: float(math.floor(a)),
        "ceil": lambda: float(math.ceil(a)),
        "round": lambda: float(round(a)),  # half to even, as Round
        "trunc": lambda: float(math.trunc(a)),
    }
    return table[fn]()


def _unary(fn: str, a: object) -> Value:
    where = _caller()
    n = _wrap(a, where)
    if n.kind == "const":
        if n.op != "const" and fn not in ("neg", "abs"):
            raise DslError(where, f"{fn} of an attribute: compute it on a tile instead")
        if n.op == "const":
            return Value(Node("const", "const", "float", value=_fold(fn, n.value), where=where))
    kind, dtype, loop = _join(fn, [n], where)
    return Value(Node("unary", kind, dtype, (n,), fn=fn, loop=loop, where=where))


def _binary(fn: str, a: object, b: object) -> Value:
    where = _caller()
    na, nb = _wrap(a, where), _wrap(b, where)
    if na.op == "const" and nb.op == "const":
        return Value(
            Node("const", "const", "float", value=_fold(fn, na.value, nb.value), where=where)
        )
    kind, dtype, loop = _join(fn, [na, nb], where)
    if kind == "const" and fn == "pow":
        raise DslError(where, "pow of attributes: compute it on a tile instead")
    return Value(Node("binary", kind, dtype, (na, nb), fn=fn, loop=loop, where=where))


def _compare(fn: str, a: object, b: object) -> Value:
    where = _caller()
    na, nb = _wrap(a, where), _wrap(b, where)
    kind, dtype, loop = _join(fn, [na, nb], where)
    if kind != "vec" or na.kind != "vec":
        raise DslError(where, "a comparison needs a tile on its left")
    return Value(Node("compare", "vec", "mask", (na, nb), fn=fn, loop=loop, where=where))


def _reduce(fn: str, a: Value) -> Value:
    where = _caller()
    n = a.node
    if n.kind != "vec" or n.loop is None or n.loop.kind != "rows":
        raise DslError(where, f".{fn}() reduces a row: only tiles of a rows() loop have one")
    if n.dtype != "float":
        raise DslError(where, f".{fn}() accumulates in fp32: call .float() first")
    return Value(Node("reduce", "row", "float", (n,), fn=fn, loop=n.loop, where=where))


# the functional vocabulary
def exp(x: object) -> Value:
    return _unary("exp", x)


def log(x: object) -> Value:
    return _unary("log", x)


def sqrt(x: object) -> Value:
    return _unary("sqrt", x)


def rsqrt(x: object) -> Value:
    return _unary("rsqrt", x)


def reciprocal(x: object) -> Value:
    return _unary("reciprocal", x)


def relu(x: object) -> Value:
    return _unary("relu", x)


def tanh(x: object) -> Value:
    return _unary("tanh", x)


def sigmoid(x: object) -> Value:
    return _unary("sigmoid", x)


def sin(x: object) -> Value:
    return _unary("sin", x)


def cos(x: object) -> Value:
    return _unary("cos", x)


def tan(x: object) -> Value:
    return _unary("tan", x)


def atan(x: object) -> Value:
    return _unary("atan", x)


def floor(x: object) -> Value:
    return _unary("floor", x)


def ceil(x: object) -> Value:
    return _unary("ceil", x)


def round(x: object) -> Value:
    return _unary("round", x)


def trunc(x: object) -> Value:
    return _unary("trunc", x)


def maximum(a: object, b: object) -> Value:
    return _binary("max", a, b)


def minimum(a: object, b: object) -> Value:
    return _binary("min", a, b)


def power(a: object, b: object) -> Value:
    """a ** b for a > 0 (Power); either side may be a number or an attribute."""
    return _binary("pow", a, b)


def where(cond: Value, a: object, b: object) -> Value:
    """Select lanes: a where the mask is set, b elsewhere (Compare + Select)."""
    loc = _caller()
    if not isinstance(cond, Value) or cond.node.dtype != "mask":
        raise DslError(loc, "where() needs a comparison as its first argument")
    na, nb = _wrap(a, loc), _wrap(b, loc)
    kind, dtype, loop = _join("where", [na, nb], loc)
    return Value(
        Node("select", "vec", dtype, (cond.node, na, nb), loop=loop or cond.node.loop, where=loc)
    )


@dataclass(eq=False)
class Store:
    tensor: Tensor
    value: Node
    where: str


@dataclass(eq=False)
class Loop:
    """One loop nest over the block's share: `tiles` (flat), `rows` (row by row), `columns`
    (along an axis), `cube` (over the blocks of a matmul's C: its epilogue) or `swap` (over
    the tiles of a transpose: element-wise work on its input, which commutes with it)."""

    kind: Literal["tiles", "rows", "columns", "cube", "swap"]
    kernel: Kernel
    where: str
    axis: int = 1  # columns loops: the axis walked (reduced or scanned)
    row_axes: int = 1  # rows loops without a shared row: the trailing axes a row holds
    loads: list[Node] = field(default_factory=list)
    stores: list[Store] = field(default_factory=list)

    def load(self, tensor: Tensor, part: int = 0, parts: int = 1) -> Value:
        """Copy a tensor in (tile by tile; `cols` tensors once per block). `part`/`parts` take
        one of `parts` equal slices of the last axis (rows loops)."""
        loc = _caller()
        if not isinstance(tensor, Tensor) or tensor.is_output:
            raise DslError(loc, "load() takes an input tensor of this kernel")
        if not 0 <= part < parts:
            raise DslError(loc, f"part {part} of {parts} does not exist")
        if parts > 1 and (self.kind != "rows" or tensor.layout != "full"):
            raise DslError(loc, "column slices (parts) are for full tensors in rows() loops")
        if tensor.layout == "scalar":  # read once by the scalar unit: an operand like an attr
            if tensor.name not in self.kernel.scalars:
                self.kernel.scalars.append(tensor.name)
            return Value(Node("attr", "const", "float", name=f"{tensor.name}Value", where=loc))
        if tensor.layout == "channels" and self.kind != "rows":
            raise DslError(loc, f"{tensor.name} is laid out by channels: use a rows() loop")
        if self.kind != "rows" and tensor.layout != "full":
            raise DslError(loc, f"{tensor.name} is laid out by {tensor.layout}: use a rows() loop")
        for n in self.loads:
            if n.name == tensor.name and n.part == (part, parts):
                return Value(n)
        if self.kernel.mm is not None and tensor in self.kernel.mm.operands():
            raise DslError(loc, f"{tensor.name} is a matmul operand: use product()")
        swap = self.kernel.swap
        if self.kind == "swap" and swap is not None and tensor is not swap.x:
            raise DslError(loc, f"a transposed() loop loads its input {swap.x.name} only")
        kind: Kind = "row" if tensor.layout in ("rows", "channels") else "vec"
        n = Node("load", kind, "T", name=tensor.name, part=(part, parts), loop=self, where=loc)
        self.loads.append(n)
        return Value(n)

    def triu(self, v: Value, diagonal: int = 0) -> Value:
        """The upper triangle of each matrix (rows loops over [..., M, N]): row i keeps the
        lanes j >= i + diagonal, the others 0 (torch.triu)."""
        return self._band("triu", v, diagonal)

    def tril(self, v: Value, diagonal: int = 0) -> Value:
        """The lower triangle: row i keeps the lanes j <= i + diagonal (torch.tril)."""
        return self._band("tril", v, diagonal)

    def _band(self, fn: str, v: Value, diagonal: int) -> Value:
        loc = _caller()
        n = _wrap(v, loc)
        if self.kind != "rows" or self.row_axes != 1 or n.kind != "vec" or n.loop is not self:
            raise DslError(loc, f"{fn}() takes a row of this rows() loop (a row: the last axis)")
        if not isinstance(diagonal, int) or isinstance(diagonal, bool):
            raise DslError(loc, f"{fn}(): the diagonal is an integer")
        self.kernel.banded = True
        return Value(
            Node("band", "vec", n.dtype, (n,), fn=fn, value=float(diagonal), loop=self, where=loc)
        )

    def lanes(self) -> Value:
        """Each lane's index along the row, 0 to cols - 1, in fp32 (torch.arange over the last
        axis; compared with a per-row index it picks one element of the row)."""
        loc = _caller()
        if self.kind != "rows" or self.row_axes != 1:
            raise DslError(loc, "lanes() is the index along the row of a rows() loop")
        return Value(Node("lanes", "vec", "float", loop=self, where=loc))

    def product(self) -> Value:
        """The matmul's C block of a cube() loop: fp32 sums rounded once to A's dtype, as
        torch's matmul rounds (fp32 with `c_float`); `.float()` for the epilogue."""
        loc = _caller()
        mm = self.kernel.mm
        if self.kind != "cube" or mm is None:
            raise DslError(loc, "product() is the matmul's C in a cube() loop")
        dtype: DType = "float" if mm.c_float else "T"
        return Value(Node("product", "vec", dtype, name=mm.a.name, loop=self, where=loc))

    # along the axis of a columns() loop: one value per column (stored once), or running values;
    # t.sum / t.mean in a tiles() loop: one value for the whole loop (partials, SyncAll)
    def sum(self, v: Value) -> Value:
        return self._along("accum", "sum", v)

    def mean(self, v: Value, count: Value | None = None) -> Value:
        """`count` (rows loops): divide by the total of this row value instead of the number of
        rows (torch's mean of weighted losses, sum(w * l) / sum(w))."""
        if count is None:
            return self._along("accum", "mean", v)
        loc = _caller()
        total = self._along("accum", "mean", v).node
        c = _wrap(count, loc)
        if total.op != "total" or self.kind != "rows" or c.kind != "row":
            raise DslError(loc, "mean(v, count=) divides by a total of row values of a rows() loop")
        if c.loop is not self or c.dtype != "float":
            raise DslError(loc, "a total over the rows takes an fp32 row value of this loop")
        return Value(
            Node("total", "row", "float", (*total.args, c), fn="mean", loop=self, where=loc)
        )

    def max(self, v: Value) -> Value:
        return self._along("accum", "max", v)

    def min(self, v: Value) -> Value:
        return self._along("accum", "min", v)

    def argmax(self, v: Value) -> Value:
        """The step of the column's first maximum along the axis, as a value."""
        return self._along("accum", "argmax", v)

    def argmin(self, v: Value) -> Value:
        return self._along("accum", "argmin", v)

    def cumsum(self, v: Value) -> Value:
        return self._along("scan", "sum", v)

    def cummax(self, v: Value) -> Value:
        return self._along("scan", "max", v)

    def cummin(self, v: Value) -> Value:
        return self._along("scan", "min", v)

    def cumprod(self, v: Value) -> Value:
        return self._along("scan", "prod", v)

    def _along(self, op: str, fn: str, v: Value) -> Value:
        loc = _caller()
        n = _wrap(v, loc)
        if self.kind == "rows" and op == "accum" and fn in ("sum", "mean") and n.kind == "row":
            if n.loop is not self or n.dtype != "float":
                raise DslError(loc, "a total over the rows takes an fp32 row value of this loop")
            # over every row's value, across blocks (a loss's mean of per-row terms)
            return Value(Node("total", "row", "float", (n,), fn=fn, loop=self, where=loc))
        if self.kind == "tiles" and op == "accum" and fn in ("sum", "mean", "max", "min"):
            op = "total"  # over every element of the loop, across blocks
        elif self.kind != "columns":
            raise DslError(loc, f"{fn} along an axis needs a columns() loop")
        if n.kind != "vec" or n.loop is not self:
            raise DslError(loc, "accumulate a tile of this loop")
        if n.dtype != "float":
            raise DslError(loc, "accumulation is in fp32: call .float() first")
        return Value(Node(op, "vec", "float", (n,), fn=fn, loop=self, where=loc))

    def store(self, tensor: Tensor, value: object) -> None:
        loc = _caller()
        if not isinstance(tensor, Tensor) or not tensor.is_output:
            raise DslError(loc, "store() takes an output tensor of this kernel")
        n = _wrap(value, loc)
        if n.loop is not None and n.loop is not self:
            raise DslError(loc, "the value comes from another loop")
        want = "row" if tensor.layout == "rows" else "vec"
        if n.op == "total" and self.kind == "rows":
            want = "row"  # one value over every row, stored once
        if self.kind in ("columns", "cube") and tensor.layout != "full":
            raise DslError(loc, f"{self.kind}() loops store full tensors")
        if n.kind != want:
            raise DslError(
                loc,
                f"{tensor.name} ({tensor.layout}) stores a {'row value' if want == 'row' else 'tile'}"
                f", got a {'constant' if n.kind == 'const' else n.kind}",
            )
        if n.dtype == "mask":
            raise DslError(loc, "a mask cannot be stored; use where(mask, a, b)")
        if any(s.tensor is tensor for s in self.stores):
            raise DslError(loc, f"{tensor.name} is stored twice")
        swap = self.kernel.swap
        if self.kind == "swap" and swap is not None and tensor is not swap.out:
            raise DslError(loc, f"a transposed() loop stores its output {swap.out.name} only")
        self.stores.append(Store(tensor, n, loc))


@dataclass(eq=False)
class Matmul:
    """c = op(a) @ op(b) on the cube (the Matmul API), op a transpose of the last two axes where
    asked; batch axes are walked, an operand without them shared by every batch. `out` is None
    in a cube() loop, whose stores are the epilogue's."""

    out: Tensor | None
    a: Tensor
    b: Tensor
    trans_a: bool
    trans_b: bool
    bias: Tensor | None
    where: str
    c_float: bool = False  # a cube() loop's C kept in fp32 (else rounded to A's dtype)

    def operands(self) -> list[Tensor]:
        return [self.a, self.b, *([self.bias] if self.bias is not None else [])]


@dataclass(eq=False)
class Transpose:
    """out = x with its last two axes swapped, batch axes kept, or two groups of its axes
    swapped (a copy through UB)."""

    out: Tensor
    x: Tensor
    where: str
    groups: tuple[int, int, int] | None = None  # (p, q, s): axes [p, q) and [q, s) swapped


@dataclass(eq=False)
class Concat:
    """out = the inputs joined along `axis` of out, in order (a copy through UB)."""

    out: Tensor
    xs: list[Tensor]
    axis: int
    where: str


@dataclass(eq=False)
class Slice:
    """out = x narrowed along `axis`: out's length of it, from `start` (or ending `end` elements
    before x's end), a copy through UB."""

    out: Tensor
    x: Tensor
    axis: int
    start: int | None
    end: int | None
    where: str


@dataclass(eq=False)
class Repeat:
    """out = x repeated `times` times along `axis`: element by element (`interleave`) or the
    whole axis, a copy of rows through UB."""

    out: Tensor
    x: Tensor
    axis: int
    times: int
    interleave: bool
    where: str


@dataclass(eq=False)
class Place:
    """out[..., s:s + n, ...] = x along `axis`, s = start or the axis's length - end - n; what
    no place writes is `fill`."""

    out: Tensor
    x: Tensor
    axis: int
    start: int | None
    end: int | None
    fill: float
    where: str


@dataclass(eq=False)
class Gather:
    """out[..., j] = x[..., index[..., j]] along the last axis (`shared`: one index row for
    every row, as index_select), a gather through UB."""

    out: Tensor
    x: Tensor
    index: Tensor
    shared: bool
    where: str


@dataclass(eq=False)
class Pool:
    """out = windows of x's last `axes` axes (1 or 2) reduced by max or mean, torch's
    max_pool / avg_pool: a window `kernel` wide every `stride`, `padding` on each side (max:
    -inf, avg: zeros, counted in the mean), taps `dilation` apart; the other axes are planes.
    `kernel` None: adaptive pooling to out's sizes where they divide x's (a window as wide as
    its stride, x's length over out's, found by the host from the case's shapes)."""

    out: Tensor
    x: Tensor
    kind: Literal["max", "avg"]
    axes: int
    kernel: tuple[int, ...] | None
    stride: tuple[int, ...]
    padding: tuple[int, ...]
    dilation: tuple[int, ...]
    divisor: int | None  # avg: a window's total over this (None: the window's size)
    where: str


@dataclass(eq=False)
class Conv:
    """out = x convolved with `weight` over its last `axes` axes (1 or 2), torch's conv1d /
    conv2d: x [..., C_in, *spatial], weight [C_out, C_in / groups, *kernel], an optional `bias`
    of C_out values; `padding` zeros before each axis (after it, as many as the output's size
    needs), taps `dilation` apart every `stride`. The kernel's size and the groups (C_in over the
    weight's second axis) are the shapes'."""

    out: Tensor
    x: Tensor
    weight: Tensor
    bias: Tensor | None
    axes: int
    stride: tuple[int, ...]
    padding: tuple[int, ...]
    dilation: tuple[int, ...]
    where: str


@dataclass(eq=False)
class Attention:
    """out = softmax(q @ k^T * scale (+ bias)) @ v over the last axis of the scores, per matrix of q
    [..., S, D] (k [..., L, D], v [..., L, Dv]): q's matrix i reads k's and v's matrix
    i // (q's matrices / k's), as torch's expand or repeat_interleave of shared key/value heads
    gives. `scale` None: 1 / sqrt(D), torch's scaled_dot_product_attention default."""

    out: Tensor
    q: Tensor
    k: Tensor
    v: Tensor
    scale: float | None
    bias: Tensor | None  # added to the scaled scores: [..., S, L], broadcast over q's matrices
    where: str
    # a mask [..., S, L] broadcast as the bias is: lanes where it is nonzero take part (`keeps`),
    # or are masked out (not `keeps`); a masked-out score is -inf, as masked_fill gives
    mask: Tensor | None = None
    keeps: bool = True
    causal: int | None = None  # query row i takes part with keys j <= i + causal (torch.tril)
    zero_rows: bool = False  # a row masked whole gives 0, not NaN (scaled_dot_product_attention)


@dataclass(eq=False)
class GroupNorm:
    """out = group_norm(x, groups, weight, bias, eps) of x [N, C, *]: each sample's C / groups
    channels of a group normalised by their mean and biased variance over those channels and
    the spatial axes, then each channel's weight and bias (torch's F.group_norm)."""

    out: Tensor
    x: Tensor
    groups: int | str  # a number, or the spec's int attribute that holds it
    eps: float | str  # a number, or the spec's float attribute that holds it
    weight: Tensor | None
    bias: Tensor | None
    where: str


class Schedule(BaseModel):
    """The how, apart from the what: each knob becomes an `@tune` number of the host tiling."""

    model_config = ConfigDict(extra="forbid")

    tile_length: int = Field(4096, ge=256, le=65536)  # elements per UB tile (tiles loops)
    rows_per_tile: int = Field(16, ge=1, le=1024)  # rows per UB tile (rows loops)
    buffer_num: int = Field(2, ge=1, le=4)  # queue depth: 2 overlaps copy-in with compute
    block_dim: int = Field(40, ge=1, le=48)  # cores to launch (capped by the SoC and the work)
    l2_disable: list[str] = []  # inputs read once: SetL2CacheHint(CACHE_MODE_DISABLE)


class Kernel:
    """The DSL program's root: tensors, loops and the schedule of one operator."""

    def __init__(self, name: str):
        self.name = name
        self.where = _caller()
        self.tensors: dict[str, Tensor] = {}
        self.attrs: list[str] = []
        self.scalars: list[str] = []  # inputs of the scalar layout that a loop reads
        self.loops: list[Loop] = []
        self.mm: Matmul | None = None
        self.swap: Transpose | None = None
        self.cat: Concat | None = None
        self.slices: list[Slice] = []
        self.take: Gather | None = None
        self.rep: Repeat | None = None
        self.pooling: Pool | None = None
        self.convolution: Conv | None = None
        self.attn: Attention | None = None
        self.gnorm: GroupNorm | None = None
        self.places: list[Place] = []  # writes into an output filled with one value
        self.banded = False  # a rows loop takes triangles of matrices (triu, tril)
        self.sched = Schedule()
        self._open: Loop | None = None

    def input(self, name: str, layout: Layout = "full") -> Tensor:
        """A GM input. layout: `full` (every element), `cols` (shape [cols], shared by every row),
        `rows` (shape [rows] or [rows, 1], one value per row), `scalar` (one element, read
        once into an fp32 scalar: any loop) or `channels` (n values, row r taking value r % n:
        [C] scaling the rows of [B, C, H, W] seen as B * C rows of H * W; rows loops)."""
        return self._tensor(name, layout, False)

    def output(self, name: str, layout: Literal["full", "rows"] = "full") -> Tensor:
        return self._tensor(name, layout, True)

    def _tensor(self, name: str, layout: str, is_output: bool) -> Tensor:
        loc = _caller()
        if name in self.tensors:
            raise DslError(loc, f"tensor {name!r} is declared twice")
        if layout not in ("full", "cols", "rows", "scalar", "channels"):
            raise DslError(loc, f"unknown layout {layout!r}: full, cols, rows, scalar or channels")
        if layout in ("scalar", "channels") and is_output:
            raise DslError(loc, "an output is full or rows")
        t = Tensor(name, layout, is_output, loc)  # type: ignore[arg-type]
        self.tensors[name] = t
        return t

    def attr(self, name: str) -> Value:
        """A float attribute of the operator, passed through the tiling data."""
        loc = _caller()
        if name not in self.attrs:
            self.attrs.append(name)
        return Value(Node("attr", "const", "float", name=name, where=loc))

    @contextlib.contextmanager
    def tiles(self) -> Iterator[Loop]:
        """A flat loop: every tensor it touches has the same element count; the block's share
        of 32 B units is walked tile by tile, the last tile short (DataCopyPad)."""
        yield from self._loop("tiles")

    @contextlib.contextmanager
    def rows(self, row_axes: int = 1) -> Iterator[Loop]:
        """A loop over the rows of [rows, cols] tensors (the last axis is the row, or the last
        `row_axes` axes seen as one); blocks take whole rows, a tile holds several rows, and
        each row may be reduced to one value."""
        if not isinstance(row_axes, int) or row_axes < 1:
            raise DslError(_caller(), "rows(row_axes): a number of trailing axes, at least 1")
        yield from self._loop("rows", row_axes=row_axes)

    @contextlib.contextmanager
    def columns(self, axis: int = 1) -> Iterator[Loop]:
        """A loop along `axis` of full tensors seen as [outer, axis, inner]: blocks take columns
        (an outer index and a chunk of inner lanes), each walked one axis step at a time, so
        values can be accumulated (c.sum, c.max...) or scanned (c.cumsum...) along the axis."""
        yield from self._loop("columns", axis)

    @contextlib.contextmanager
    def cube(
        self,
        a: Tensor,
        b: Tensor,
        trans_a: bool = False,
        trans_b: bool = False,
        bias: Tensor | None = None,
        c_float: bool = False,
    ) -> Iterator[Loop]:
        """A matmul with an element-wise epilogue: C = a @ b (+ bias) as `matmul`, then a loop
        over C's blocks in which `product()` is C and full tensors of C's shape load alike, each
        stored output one of C's shape (a mixed kernel: the AIV drives the cube, then streams
        its block of C through UB). `c_float`: C stays fp32 (a reference computing in fp32)."""
        loc = _caller()
        tensors = ((a, False), (b, False), *(((bias, False),) if bias is not None else ()))
        self._one_job(loc, tensors, "cube(a, b)")
        self.mm = Matmul(None, a, b, bool(trans_a), bool(trans_b), bias, loc, bool(c_float))
        yield from self._loop("cube")

    @contextlib.contextmanager
    def transposed(
        self, out: Tensor, x: Tensor, groups: tuple[int, int, int] | None = None
    ) -> Iterator[Loop]:
        """A transpose (as `transpose`) with element-wise work on x: the loop loads x only and
        stores out only, the work done on each tile of x before its lanes are gathered
        (element-wise work commutes with moving elements)."""
        self.transpose(out, x, groups)
        yield from self._loop("swap")

    def _loop(
        self,
        kind: Literal["tiles", "rows", "columns", "cube", "swap"],
        axis: int = 1,
        row_axes: int = 1,
    ) -> Iterator[Loop]:
        loc = _caller()
        if self._open is not None:
            raise DslError(loc, "loops do not nest: close the previous loop first")
        jobs = (
            self.mm if kind != "cube" else None,
            self.swap if kind != "swap" else None,
            *(self.cat, self.take, self.rep, self.pooling, self.convolution, self.attn),
            self.gnorm,
        )
        if any(j is not None for j in jobs) or self.slices or self.places:
            raise DslError(
                loc, "a kernel is loops, one matmul, one transpose, one concat, a repeat or slices"
            )
        if kind != "tiles" and any(lp.kind == kind for lp in self.loops):
            raise DslError(loc, f"a kernel has one {kind}() loop")
        if axis < 1:
            raise DslError(loc, "the axis must have at least one axis before it (use rows())")
        loop = Loop(kind, self, loc, axis=axis, row_axes=row_axes)
        self._open = loop
        try:
            yield loop
        finally:
            self._open = None
        if not loop.stores:
            raise DslError(loc, "the loop stores nothing")
        self.loops.append(loop)

    def matmul(
        self,
        out: Tensor,
        a: Tensor,
        b: Tensor,
        trans_a: bool = False,
        trans_b: bool = False,
        bias: Tensor | None = None,
    ) -> None:
        """out = a @ b (+ bias) on the cube cores, fp32 accumulation, the result cast to out's
        dtype. `trans_a`: a is stored [..., K, M]; `trans_b`: b is stored [..., N, K]; `bias`:
        N values added to every row (the cube's initial C)."""
        loc = _caller()
        tensors = (
            (out, True),
            (a, False),
            (b, False),
            *(((bias, False),) if bias is not None else ()),
        )
        self._one_job(loc, tensors, "matmul(out, a, b)")
        self.mm = Matmul(out, a, b, bool(trans_a), bool(trans_b), bias, loc)

    def transpose(self, out: Tensor, x: Tensor, groups: tuple[int, int, int] | None = None) -> None:
        """out[..., j, i] = x[..., i, j]: tiles of rows in, gathered into columns, written out.
        `groups` (p, q, s): out is x with its axis groups [p, q) and [q, s) swapped, the axes
        from s on moved whole (rows of them copied into place)."""
        loc = _caller()
        self._one_job(loc, ((out, True), (x, False)), "transpose(out, x)")
        if groups is not None:
            p, q, e = (int(g) for g in groups)
            if not 0 <= p < q < e:
                raise DslError(loc, f"transpose groups {groups}: 0 <= p < q < s")
            groups = (p, q, e)
        self.swap = Transpose(out, x, loc, groups)

    def concat(self, out: Tensor, xs: list[Tensor], axis: int) -> None:
        """out = xs joined along `axis` (of out's shape): each input's rows [before the axis]
        copied into out's at its offset along the axis, tile by tile through UB."""
        loc = _caller()
        if not isinstance(xs, list | tuple) or not xs:
            raise DslError(loc, "concat(out, [x, ...], axis): a list of inputs")
        if len({id(x) for x in xs}) != len(xs) or not isinstance(axis, int) or axis < 0:
            raise DslError(loc, "concat: each input once, and an axis >= 0")
        self._one_job(loc, ((out, True), *((x, False) for x in xs)), "concat(out, xs, axis)")
        self.cat = Concat(out, list(xs), axis, loc)

    def gather(self, out: Tensor, x: Tensor, index: Tensor, shared: bool = False) -> None:
        """out[..., j] = x[..., index[..., j]] along the last axis: rows of x and of the index in,
        the index scaled to byte offsets, a Gather per row. `shared`: the index is one row
        `[J]` for every row of x (index_select), else it has out's shape (torch.gather)."""
        loc = _caller()
        self._one_job(loc, ((out, True), (x, False), (index, False)), "gather(out, x, index)")
        self.take = Gather(out, x, index, bool(shared), loc)

    def pool(
        self,
        out: Tensor,
        x: Tensor,
        kind: Literal["max", "avg"],
        kernel: Sequence[int] | None = None,
        stride: Sequence[int] | None = None,
        padding: Sequence[int] | None = None,
        dilation: Sequence[int] | None = None,
        divisor: int | None = None,
        adaptive: int = 0,
    ) -> None:
        """out = x pooled over its last len(kernel) axes (1 or 2; torch's max_pool1d/2d and
        avg_pool1d/2d), or over its last `adaptive` axes to out's sizes where they divide x's
        (adaptive_avg_pool / adaptive_max_pool): each output row's window rows copied in, each
        tap's lanes taken by a `Gather` (a pad lane where the tap falls outside the row), `Max`
        or `Add` into the row; the mean divides by `divisor` (default the window's size,
        padding counted)."""
        loc = _caller()
        n = adaptive or len(kernel or ())
        if kind not in ("max", "avg") or n not in (1, 2) or (kernel is None) == (not adaptive):
            raise DslError(loc, "pool: kind max or avg, and a kernel of 1 or 2 axes or adaptive")
        if adaptive and (stride or padding or dilation or divisor):
            raise DslError(loc, "pool: an adaptive window is as wide as its stride, unpadded")
        size = tuple(int(v) for v in kernel) if kernel is not None else (1,) * n
        shape = [
            tuple(int(v) for v in t)
            for t in (size, stride or size, padding or (0,) * n, dilation or (1,) * n)
        ]
        if any(len(t) != n for t in shape):
            raise DslError(loc, f"pool: {n} values each of kernel, stride, padding, dilation")
        k_, s_, p_, d_ = shape
        if min(*k_, *s_, *d_) < 1 or min(p_) < 0 or any(2 * p > k for p, k in zip(p_, k_)):
            raise DslError(loc, "pool: sizes >= 1, and padding at most half the kernel")
        if divisor is not None and (kind == "max" or int(divisor) < 1):
            raise DslError(loc, "pool: a divisor >= 1, for avg")
        self._one_job(loc, ((out, True), (x, False)), "pool(out, x, kind, kernel)")
        window = None if adaptive else k_
        div = None if divisor is None else int(divisor)
        self.pooling = Pool(out, x, kind, n, window, s_, p_, d_, div, loc)

    def conv(
        self,
        out: Tensor,
        x: Tensor,
        weight: Tensor,
        bias: Tensor | None = None,
        stride: Sequence[int] = (1,),
        padding: Sequence[int] | None = None,
        dilation: Sequence[int] | None = None,
    ) -> None:
        """out = conv(x, weight) (+ bias) over x's last len(stride) axes (1 or 2; torch's
        conv1d / conv2d, groups from the shapes: C_in over the weight's second axis): per output row, each input channel's window rows
        copied in, each tap's lanes taken by a `Gather` (a zero lane where the tap falls
        outside the row) and added times its weight (`Axpy`). `padding`: zeros before each
        axis; the output's shape says how far the windows go."""
        loc = _caller()
        n = len(stride) if isinstance(stride, list | tuple) else 0
        shape = [
            tuple(int(v) for v in t) for t in (stride, padding or (0,) * n, dilation or (1,) * n)
        ]
        if n not in (1, 2) or any(len(t) != n for t in shape):
            raise DslError(loc, "conv: stride, padding and dilation of 1 or 2 axes each")
        s_, p_, d_ = shape
        if min(*s_, *d_) < 1 or min(p_) < 0:
            raise DslError(loc, "conv: stride and dilation >= 1, padding >= 0")
        operands = ((out, True), (x, False), (weight, False))
        if bias is not None:
            operands += ((bias, False),)
        self._one_job(loc, operands, "conv(out, x, weight)")
        self.convolution = Conv(out, x, weight, bias, n, s_, p_, d_, loc)

    def attention(
        self,
        out: Tensor,
        q: Tensor,
        k: Tensor,
        v: Tensor,
        scale: float | None = None,
        bias: Tensor | None = None,
        keep: Tensor | None = None,
        drop: Tensor | None = None,
        causal: int | None = None,
        zero_rows: bool = False,
    ) -> None:
        """out = softmax(q @ k^T * scale (+ bias)) @ v, the softmax along the keys: two matmuls on the
        cube cores with the softmax of each block of scores on the vector cores between them
        (the scores and the probabilities through a GM workspace). `scale` None: 1 / sqrt(D),
        D q's last axis. k and v may hold fewer matrices than q, shared by q's consecutive
        ones (expanded or repeat_interleave'd key/value heads). `bias`: [..., S, L] added to
        the scaled scores (a position bias), its batch axes broadcast over q's. Masks, as
        torch's masked_fill(..., -inf) gives them (a row masked whole is NaN, as torch's
        softmax makes it): `keep` [..., S, L] (broadcast as the bias), the lanes where it is
        nonzero take part; `drop`, those lanes are masked out; `causal` d: query row i takes
        part with the keys j <= i + d only (torch.tril of ones, is_causal with d = 0).
        `zero_rows`: a row masked whole gives probabilities 0 (so out 0), as torch's
        scaled_dot_product_attention gives it, not the NaN of a softmax of -inf alone."""
        loc = _caller()
        if scale is not None and not isinstance(scale, int | float):
            raise DslError(loc, "attention: scale is a number or None (1 / sqrt(D))")
        if keep is not None and drop is not None:
            raise DslError(loc, "attention: one mask input, `keep` or `drop`")
        if causal is not None and (isinstance(causal, bool) or not isinstance(causal, int)):
            raise DslError(loc, "attention: causal is the diagonal, an int")
        mask = keep if keep is not None else drop
        operands = ((out, True), (q, False), (k, False), (v, False))
        operands += tuple((x, False) for x in (bias, mask) if x is not None)
        self._one_job(loc, operands, "attention(out, q, k, v)")
        scale = None if scale is None else float(scale)
        self.attn = Attention(
            out, q, k, v, scale, bias, loc, mask, drop is None, causal, bool(zero_rows)
        )

    def group_norm(
        self,
        out: Tensor,
        x: Tensor,
        groups: int | str,
        eps: float | Value,
        weight: Tensor | None = None,
        bias: Tensor | None = None,
    ) -> None:
        """out = F.group_norm(x, groups, weight, bias, eps), x [N, C, *]: a row is one sample's
        group of C / groups channels (their planes one after another), normalised by its mean
        and biased variance, then each channel's weight and bias over its plane. `groups` a
        number or the name of the spec's int attribute holding it (read by the host, so cases
        with other group counts are one program); `eps` a number or `k.attr(name)`."""
        loc = _caller()
        if isinstance(eps, Value):
            if eps.node.op != "attr":
                raise DslError(loc, "group_norm: eps is a number or k.attr(name)")
            eps = eps.node.name
        elif not isinstance(eps, int | float) or isinstance(eps, bool):
            raise DslError(loc, "group_norm: eps is a number or k.attr(name)")
        if isinstance(groups, bool) or not isinstance(groups, int | str) or groups == 0:
            raise DslError(loc, "group_norm: groups is a positive number or an int attribute")
        if isinstance(groups, int) and groups < 0:
            raise DslError(loc, "group_norm: groups is a positive number or an int attribute")
        operands = ((out, True), (x, False))
        operands += tuple((t, False) for t in (weight, bias) if t is not None)
        self._one_job(loc, operands, "group_norm(out, x)")
        eps = eps if isinstance(eps, str) else float(eps)
        self.gnorm = GroupNorm(out, x, groups, eps, weight, bias, loc)

    def repeat(self, out: Tensor, x: Tensor, axis: int, times: int, interleave: bool) -> None:
        """out = x repeated `times` times along `axis`: each element in a row (`interleave`,
        torch.repeat_interleave) or the whole axis (torch's Tensor.repeat); copies of rows."""
        loc = _caller()
        if not isinstance(axis, int) or axis < 0 or not isinstance(times, int) or times < 1:
            raise DslError(loc, "repeat: an axis >= 0 and a number of times >= 1")
        self._one_job(loc, ((out, True), (x, False)), "repeat(out, x, axis, times)")
        self.rep = Repeat(out, x, axis, times, bool(interleave), loc)

    def place(
        self,
        out: Tensor,
        x: Tensor,
        axis: int,
        start: int | None = None,
        end: int | None = None,
        fill: float = 0.0,
    ) -> None:
        """out[..., s:s + n, ...] = x along `axis` (n: x's length there), s = `start`, or, with
        `end`, the place ends `end` elements before out's end; the rest of out is `fill`
        (torch.zeros / full, then writes by slice). Several places make one kernel: the same
        output and axis, one fill, in order along the axis (those by start first)."""
        loc = _caller()
        if (start is None) == (end is None) or min(start or 0, end or 0) < 0 or axis < 0:
            raise DslError(loc, "place: an axis >= 0 and one of start >= 0 or end >= 0")
        if self.places and (self.places[0].out is not out or self.places[0].axis != axis):
            raise DslError(loc, "place: every place writes one output along one axis")
        if self.places and self.places[0].fill != float(fill):
            raise DslError(loc, "place: one fill value for the output")
        self._one_job(loc, ((out, True), (x, False)), "place(out, x, axis, start)", self.places)
        self.places.append(Place(out, x, axis, start, end, float(fill), loc))

    def slice(
        self, out: Tensor, x: Tensor, axis: int, start: int | None = None, end: int | None = None
    ) -> None:
        """out = x[..., s:s + n, ...] along `axis`, n out's length there: s = `start`, or, with
        `end`, the slice ends `end` elements before x's end. Several slices (a split into
        outputs) make one kernel."""
        loc = _caller()
        if (start is None) == (end is None) or min(start or 0, end or 0) < 0 or axis < 0:
            raise DslError(loc, "slice: an axis >= 0 and one of start >= 0 or end >= 0")
        if any(sl.out is out for sl in self.slices):
            raise DslError(loc, f"{out.name} is stored twice")
        self._one_job(loc, ((out, True), (x, False)), "slice(out, x, axis)", self.slices)
        self.slices.append(Slice(out, x, axis, start, end, loc))

    def _one_job(
        self,
        loc: str,
        tensors: tuple[tuple[object, bool], ...],
        form: str,
        allowed: object = None,
    ) -> None:
        """A matmul, a transpose, a concat, a repeat, slices or places are the whole kernel: no
        loops beside it."""
        forms = (
            *(self.mm, self.swap, self.cat, self.take, self.rep),
            *(self.pooling, self.convolution, self.attn, self.gnorm),
        )
        jobs = [j for j in (*forms, self.slices or None, self.places or None) if j is not None]
        if [j for j in jobs if j is not allowed] or self.loops or self._open is not None:
            raise DslError(
                loc, "a kernel is loops, one matmul, one transpose, one concat, a repeat or slices"
            )
        for t, output in tensors:
            if not isinstance(t, Tensor) or t.is_output != output or t.layout != "full":
                raise DslError(loc, f"{form}: full tensors, the output first")

    def schedule(self, **knobs: object) -> None:
        loc = _caller()
        try:
            self.sched = Schedule(**knobs)  # type: ignore[arg-type]
        except ValidationError as e:
            what = "; ".join(f"{'.'.join(map(str, x['loc']))}: {x['msg']}" for x in e.errors())
            raise DslError(loc, f"schedule: {what}") from None
        for name in self.sched.l2_disable:
            t = self.tensors.get(name)
            if t is None or t.is_output:
                raise DslError(loc, f"l2_disable names {name!r}, which is not an input")
