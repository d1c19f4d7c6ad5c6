"""Compute bodies: a loop's expression graph -> vector instructions over UB registers.

Nodes are visited in program order; each vector value gets a fp32 (or T) temporary from a pool,
freed after its last use, and an instruction whose operand dies there runs in place on that
operand's tensor. Per-row values live in 32 B slots of a `stat` buffer and reach tile
instructions as scalars read back by the scalar unit; accumulations along an axis live in their
own buffers across the steps of a column.
"""

from __future__ import annotations

from dataclasses import dataclass

from ascend_gym.dsl.lang import DslError, Kernel, Loop, Node, Store

ROW_SLOT = 8  # floats per per-row value: one 32 B block, the smallest vector operand
LANE_ALIGN = 128  # tiles loops with a Compare round counts to 256 B of halves / 512 B of floats

VEC_BINARY = {"add": "Add", "sub": "Sub", "mul": "Mul", "div": "Div", "max": "Max", "min": "Min"}
VEC_UNARY = {
    "exp": "Exp",
    "log": "Ln",
    "sqrt": "Sqrt",
    "rsqrt": "Rsqrt",
    "reciprocal": "Reciprocal",
    "abs": "Abs",
    "relu": "Relu",
    "tanh": "Tanh",
    "sigmoid": "Sigmoid",
    "sin": "Sin",
    "cos": "Cos",
    "tan": "Tan",
    "atan": "Atan",
    "floor": "Floor",
    "ceil": "Ceil",
    "round": "Round",
    "trunc": "Trunc",
}
CMP = {"gt": "GT", "ge": "GE", "lt": "LT", "le": "LE", "eq": "EQ", "ne": "NE"}
REDUCE = {"sum": "ReduceSum", "mean": "ReduceSum", "max": "ReduceMax", "min": "ReduceMin"}
# index reductions: the extreme and its first lane's index (calIndex), the index made a value
ARG_REDUCE = {"argmax": "ReduceMax", "argmin": "ReduceMin"}
# a block's running total of its tiles (the scalar unit), and where it starts
FOLD = {"sum": "{0} += {1}", "mean": "{0} += {1}", "max": "{0} = std::max({0}, {1})"}
FOLD["min"] = "{0} = std::min({0}, {1})"
FOLD_START = {"sum": "0.0f", "mean": "0.0f", "max": "-__builtin_huge_valf()"}
FOLD_START["min"] = "__builtin_huge_valf()"


def float_literal(v: float) -> str:
    text = repr(float(v))
    if "inf" in text or "nan" in text:
        raise ValueError(f"constant {v} is not finite")
    if "e" not in text and "." not in text:
        text += ".0"
    return text + "f"


@dataclass
class Reg:
    """Where a node's value lives in Compute: a C++ expression and the buffer it occupies."""

    expr: str  # a LocalTensor expression, or a float expression for scalars
    buf: int | None = None  # tmpBuf index owned (freed after the last use)


@dataclass
class Walk:
    """One walk along a columns() loop's axis: what it stores, the accumulators it folds, and
    those folded by earlier walks (read here as finished values, by accumulator index)."""

    stores: list[Store]
    folds: list[Node]
    earlier: dict[int, int]
    first_acc: int  # index of this walk's first accumulator


class LoopLowering:
    """Emits the Compute body of one loop: vector instructions over registers (UB temps)."""

    def __init__(
        self,
        loop: Loop,
        types: dict[str, str],
        narrow: frozenset[str] = frozenset(),
        walk: Walk | None = None,
    ):
        """`types`: each tensor's C type (the kernel class's `T`, `T1`, ...); `narrow`: those
        that may be one byte wide (widened to fp32 through half); `walk`: the part of a columns()
        loop lowered here, when it walks the axis more than once."""
        self.loop = loop
        self.types = types
        self.narrow = narrow
        self.stores = walk.stores if walk else loop.stores
        self.folds = walk.folds if walk else []
        self.earlier = walk.earlier if walk else {}
        self.order = self._order()
        self.uses = self._uses()
        self.classes = self._classes()
        self.regs: dict[int, Reg] = {}
        self.free: list[int] = []
        self.n_bufs = 0
        self.n_masks = 0
        self.free_masks: list[int] = []
        self.slots = 0
        self.accs = walk.first_acc if walk else 0
        self.acc_of: dict[int, int] = {}  # accumulator (and scan) nodes -> their acc index
        self.totals = 0
        self.lines: list[str] = []
        self.row_vals: dict[int, str] = {}

    def _order(self) -> list[Node]:
        seen: set[int] = set()
        out: list[Node] = []

        def visit(n: Node) -> None:
            if id(n) in seen:
                return
            seen.add(id(n))
            if id(n) not in self.earlier:  # an earlier walk's accumulator: a finished value
                for a in n.args:
                    visit(a)
            out.append(n)

        for s in self.stores:
            visit(s.value)
        for n in self.folds:
            visit(n)
        return out

    def _classes(self) -> dict[int, str]:
        """The C type of each value kept in a tensor's dtype (not cast up): its tensor's. One
        instruction takes one type, so operands from tensors of different types are refused."""
        out: dict[int, str] = {}
        tensor: dict[int, str] = {}  # a tensor the value's type comes from, for the message
        for n in self.order:
            if n.op in ("load", "product"):  # a product has A's type (named by it)
                out[id(n)], tensor[id(n)] = self.types[n.name], n.name
                continue
            typed = [a for a in n.args if a.dtype == "T"]
            if len({out[id(a)] for a in typed}) > 1:
                names = ", ".join(sorted({tensor[id(a)] for a in typed}))
                raise DslError(
                    n.where,
                    f"{n.fn or n.op}: operands of different dtypes (those of {names});"
                    " cast them with .float()",
                )
            if n.dtype == "T" and typed:
                out[id(n)], tensor[id(n)] = out[id(typed[0])], tensor[id(typed[0])]
        return out

    def _uses(self) -> dict[int, int]:
        """Index in `order` of each node's last use (stores count as the end)."""
        last: dict[int, int] = {}
        for i, n in enumerate(self.order):
            for a in n.args:
                last[id(a)] = i
        for s in self.stores:
            last[id(s.value)] = len(self.order)
        # a cast may alias its operand's storage: keep the operand alive as long
        for n in reversed(self.order):
            if n.op == "cast":
                last[id(n.args[0])] = max(last.get(id(n.args[0]), 0), last.get(id(n), 0))
        return last

    # registers
    def _alloc(self) -> int:
        if self.free:
            return self.free.pop()
        self.n_bufs += 1
        return self.n_bufs - 1

    def _release(self, i: int) -> None:
        for a in self.order[i].args:
            if self.uses.get(id(a)) == i:
                self._drop(a)

    def _drop(self, n: Node) -> None:
        reg = self.regs.get(id(n))
        if reg is None:
            return
        if n.dtype == "mask" and reg.buf is not None:
            self.free_masks.append(reg.buf)
        elif reg.buf is not None:
            self.free.append(reg.buf)

    def scalar(self, n: Node, ctype: str) -> str:
        """A scalar operand as C++: a literal, an attribute member or a per-row value."""
        text = _scalar_expr(n) if n.kind == "const" else self.row_vals[id(n)]
        return text if ctype == "float" else f"static_cast<{ctype}>({text})"

    def ctype(self, n: Node) -> str:
        return "float" if n.dtype == "float" else self.classes.get(id(n), "T")


def _scalar_expr(n: Node) -> str:
    """A constant-kind node (numbers, attributes and their arithmetic) as a C++ float."""
    if n.op == "const":
        return float_literal(n.value)
    if n.op == "attr":
        return n.name
    a = [_scalar_expr(x) for x in n.args]
    if n.op == "unary":
        return f"(-{a[0]})" if n.fn == "neg" else f"({a[0]} < 0.0f ? -{a[0]} : {a[0]})"
    infix = {"add": "+", "sub": "-", "mul": "*", "div": "/"}
    if n.fn in infix:
        return f"({a[0]} {infix[n.fn]} {a[1]})"
    cmp = ">" if n.fn == "max" else "<"
    return f"({a[0]} {cmp} {a[1]} ? {a[0]} : {a[1]})"


def _vec_op(
    emit: list[str], n: Node, d: str, ops: list[str], sc: list[str | None], count: str
) -> None:
    """One node's vector instruction(s) into `d` from operand tensors `ops` / scalars `sc`."""
    if n.op == "unary":
        if n.fn == "neg":
            emit.append(f"Muls({d}, {ops[0]}, -1.0f, {count});")
        else:
            emit.append(f"{VEC_UNARY[n.fn]}({d}, {ops[0]}, {count});")
        return
    a, b = ops
    sa, sb = sc
    fn = n.fn
    if fn == "pow":  # Power takes a scalar on either side
        emit.append(f"Power({d}, {sa or a}, {sb or b}, {count});")
    elif sa is None and sb is None:
        emit.append(f"{VEC_BINARY[fn]}({d}, {a}, {b}, {count});")
    elif sb is not None:  # tensor op scalar
        if fn == "add":
            emit.append(f"Adds({d}, {a}, {sb}, {count});")
        elif fn == "sub":
            emit.append(f"Adds({d}, {a}, -{sb}, {count});")
        elif fn == "mul":
            emit.append(f"Muls({d}, {a}, {sb}, {count});")
        elif fn == "div":
            emit.append(f"Muls({d}, {a}, 1.0f / {sb}, {count});")
        elif fn == "max":
            emit.append(f"Maxs({d}, {a}, {sb}, {count});")
        else:
            emit.append(f"Mins({d}, {a}, {sb}, {count});")
    else:  # scalar op tensor
        if fn in ("add", "mul", "max", "min"):
            name = {"add": "Adds", "mul": "Muls", "max": "Maxs", "min": "Mins"}[fn]
            emit.append(f"{name}({d}, {b}, {sa}, {count});")
        elif fn == "sub":
            emit.append(f"Muls({d}, {b}, -1.0f, {count});")
            emit.append(f"Adds({d}, {d}, {sa}, {count});")
        else:  # s / b
            emit.append(f"Reciprocal({d}, {b}, {count});")
            emit.append(f"Muls({d}, {d}, {sa}, {count});")


class ComputeMixin:
    """The compute-body half of `Lowering` (needs `self.k`, the kernel)."""

    k: Kernel

    def _compute_body(self, low: LoopLowering, row: bool) -> None:
        """Fill `low.lines` with the instructions of one tile (tiles) or one row (rows)."""
        emit = low.lines
        count = "colsPad" if row else "n"
        stores = low.stores
        consumed = {id(a) for m in low.order for a in m.args}

        def tile_of(s: Store) -> str:
            return f"{s.tensor.name}[k * colsPad]" if row else s.tensor.name

        done: set[int] = set()  # stores written in place
        for i, n in enumerate(low.order):
            if n.kind == "const":
                continue
            if id(n) in low.earlier:  # folded by an earlier walk along the axis
                acc = f"acc{low.earlier[id(n)]}"
                emit.append(f"LocalTensor<float> {acc} = {acc}Buf.Get<float>();")
                low.regs[id(n)] = Reg(acc)
                continue
            if n.op == "product":  # the C tile of a cube() loop
                low.regs[id(n)] = Reg("cTile")
                continue
            if n.op == "load":
                name = self._load_name(n)
                if n.kind == "row" and self.k.tensors[n.name].layout == "channels":
                    # row r's value is r % n of the tensor's: one scalar GM read a row
                    emit.append(
                        f"const float rv{i} = static_cast<float>("
                        f"{name}Gm.GetValue((curRow + k) % {name}Len));"
                    )
                    low.row_vals[id(n)] = f"rv{i}"
                elif n.kind == "row":  # one value per row, read by the scalar unit
                    emit.append(f"const float rv{i} = static_cast<float>({name}.GetValue(k));")
                    low.row_vals[id(n)] = f"rv{i}"
                elif row and self.k.tensors[n.name].layout == "full":
                    low.regs[id(n)] = Reg(f"{name}[k * colsPad]")
                else:
                    low.regs[id(n)] = Reg(name)
                continue
            if n.kind == "row":
                self._row_node(low, n)
                low._release(i)
                continue
            if n.op == "total":  # this tile's sum (valid lanes only) into the block's partial
                j = low.totals
                low.totals += 1
                v = low.regs[id(n.args[0])].expr
                emit += [
                    f"{REDUCE[n.fn]}(stat[{j * ROW_SLOT}], {v}, work, len);",
                    FOLD[n.fn].format(f"total{j}", f"stat[{j * ROW_SLOT}].GetValue(0)") + ";",
                ]
                low.regs[id(n)] = Reg(f"total{j}")
                low._release(i)
                continue
            if n.op == "accum" and n.fn in ARG_REDUCE:
                emit += self._arg_step(low, n, count)
                low._release(i)
                continue
            if n.op in ("accum", "scan"):  # fold this step into the column's accumulator
                acc = f"acc{low.accs}"
                low.acc_of[id(n)] = low.accs
                low.accs += 1
                v = low.regs[id(n.args[0])].expr
                fold = {"sum": "Add", "mean": "Add", "max": "Max", "min": "Min", "prod": "Mul"}[
                    n.fn
                ]
                emit += [
                    f"LocalTensor<float> {acc} = {acc}Buf.Get<float>();",
                    "if (row + k == 0) {",
                    f"  Adds({acc}, {v}, 0.0f, {count});",
                    "} else {",
                    f"  {fold}({acc}, {acc}, {v}, {count});",
                    "}",
                ]
                low.regs[id(n)] = Reg(acc)
                low._release(i)
                continue
            if n.op == "lanes":  # 0, 1, ... along the row
                buf = low._alloc()
                emit += [
                    f"LocalTensor<float> v{i} = tmpBuf{buf}.Get<float>();",
                    f"CreateVecIndex(v{i}, 0.0f, {count});",
                ]
                low.regs[id(n)] = Reg(f"v{i}", buf)
                continue
            if n.op == "cast":
                buf = low._alloc()
                src = low.regs[id(n.args[0])].expr
                via = self._via(low, low.ctype(n.args[0]))  # one-byte tiles widen through half
                emit.append(
                    f"LocalTensor<float> v{i} = AsFloat({src}, {via}tmpBuf{buf}.Get<float>(), "
                    f"{count});"
                )
                low.regs[id(n)] = Reg(f"v{i}", buf)
                low._release(i)
                continue
            if n.op == "compare":
                m = low.free_masks.pop() if low.free_masks else low.n_masks
                low.n_masks = max(low.n_masks, m + 1)
                a, b = n.args
                emit.append(f"LocalTensor<uint8_t> v{i} = maskBuf{m}.Get<uint8_t>();")
                rhs = (
                    low.regs[id(b)].expr
                    if b.kind == "vec"
                    else self._scalar_operand(low, b, low.ctype(a))
                )
                fn = "Compare" if b.kind == "vec" else "CompareScalar"
                emit.append(
                    f"{fn}(v{i}, {low.regs[id(a)].expr}, {rhs}, CMPMODE::{CMP[n.fn]}, {count});"
                )
                low.regs[id(n)] = Reg(f"v{i}", m)
                low._release(i)
                continue
            # the destination: the output tile, a dying operand's temp, or a fresh temp
            ct = low.ctype(n)
            mine = [s for s in stores if s.value is n and s.tensor.layout == "full"]
            direct = mine[0] if len(mine) == 1 and id(n) not in consumed else None
            if low.loop.kind == "columns":
                direct = None  # stores of a column loop read the accumulators or copies
            if direct is not None and ct not in ("float", low.types[direct.tensor.name]):
                direct = None  # another dtype: the store below refuses it
            if direct is not None and ct == "float":
                buf = low._alloc()
                d = f"v{i}"
                emit.append(
                    f"LocalTensor<float> {d} = FloatOut({tile_of(direct)}, "
                    f"tmpBuf{buf}.Get<float>());"
                )
                low.regs[id(n)] = Reg(d, buf)
            elif direct is not None:
                d = tile_of(direct)
                low.regs[id(n)] = Reg(d)
            else:
                reused = self._reusable(low, n, i)
                if reused is not None:  # in place: the operand's tensor carries the result
                    buf, d = reused
                else:
                    buf, d = low._alloc(), f"v{i}"
                    emit.append(f"LocalTensor<{ct}> {d} = tmpBuf{buf}.Get<{ct}>();")
                low.regs[id(n)] = Reg(d, buf)
            self._vec_node(low, n, d, count)
            if direct is not None:
                done.add(id(direct))
                if ct == "float" and low.types[direct.tensor.name] in low.narrow:
                    via = self._via(low, low.types[direct.tensor.name])
                    emit.append(f"CopyFloat({tile_of(direct)}, {d}, {via}{count});")
                elif ct == "float":
                    emit.append(f"FromFloat({tile_of(direct)}, {d}, {count});")
            low._release(i)
        for s in stores:
            if id(s) in done or s.value.op in ("accum", "total"):  # stored once, at the end
                continue
            n = s.value
            ty = low.types[s.tensor.name]
            if n.dtype != "float" and low.ctype(n) != ty:
                raise DslError(s.where, f"{s.tensor.name} has another dtype: store v.float()")
            if s.tensor.layout == "rows":
                value = self._row_value(low, n)
                emit.append(f"{s.tensor.name}.SetValue(k, static_cast<{ty}>({value}));")
            elif n.dtype == "float":
                via = self._via(low, ty)  # one-byte outputs narrow through half
                emit.append(f"CopyFloat({tile_of(s)}, {low.regs[id(n)].expr}, {via}{count});")
            else:
                emit.append(
                    f"Adds({tile_of(s)}, {low.regs[id(n)].expr}, static_cast<{ty}>(0), {count});"
                )

    @staticmethod
    def _via(low: LoopLowering, ctype: str) -> str:
        """A half temp (with its comma) through which a tile of `ctype` converts to or from fp32
        when it may be one byte wide (Atlas A2 casts int8/uint8 from and to half only); else ""."""
        if ctype not in low.narrow:
            return ""
        tmp = low._alloc()
        low.free.append(tmp)
        return f"tmpBuf{tmp}.Get<half>(), "

    def _reusable(self, low: LoopLowering, n: Node, i: int) -> tuple[int, str] | None:
        """A temp of an operand that dies here: the instruction runs in place. Not a cast of a
        row every row shares (`cols`): for fp32 the cast is that row itself, read by the next."""
        for a in n.args:
            reg = low.regs.get(id(a))
            if (
                a.kind == "vec"
                and a.dtype == n.dtype
                and reg is not None
                and reg.buf is not None
                and low.uses.get(id(a)) == i
                and (a.op != "cast" or low.uses.get(id(a.args[0]), 0) <= i)
                and not (a.op == "cast" and self._shared_row(a.args[0]))
            ):
                buf, reg.buf = reg.buf, None  # handed over
                return buf, reg.expr
        return None

    def _shared_row(self, n: Node) -> bool:
        return n.op == "load" and self.k.tensors[n.name].layout == "cols"

    def _load_name(self, n: Node) -> str:
        part, parts = n.part
        return n.name if parts == 1 else f"{n.name}P{part}"

    def _vec_node(self, low: LoopLowering, n: Node, d: str, count: str) -> None:
        ct = low.ctype(n)
        if n.op == "band":
            self._band(low, n, d, count, ct)
            return
        if n.op == "select":
            m, a, b = n.args
            ra = low.regs[id(a)].expr if a.kind == "vec" else None
            rb = low.regs[id(b)].expr if b.kind == "vec" else None
            if ra is None:  # a scalar where the mask is set: spread it over the lanes first
                buf = low._alloc()
                ra = f"dup{len(low.lines)}"
                low.lines.append(f"LocalTensor<{ct}> {ra} = tmpBuf{buf}.Get<{ct}>();")
                low.lines.append(f"Duplicate({ra}, {low.scalar(a, ct)}, {count});")
                low.free.append(buf)
            if rb is None:
                low.lines.append(
                    f"Select({d}, {low.regs[id(m)].expr}, {ra}, {low.scalar(b, ct)}, "
                    f"SELMODE::VSEL_TENSOR_SCALAR_MODE, {count});"
                )
            else:
                low.lines.append(
                    f"Select({d}, {low.regs[id(m)].expr}, {ra}, {rb}, "
                    f"SELMODE::VSEL_TENSOR_TENSOR_MODE, {count});"
                )
            return
        ops: list[str] = []
        sc: list[str | None] = []
        for a in n.args:
            if a.kind == "vec":
                ops.append(low.regs[id(a)].expr)
                sc.append(None)
            else:
                ops.append("")
                sc.append(self._scalar_operand(low, a, ct))
        if n.op == "unary":
            sc = [None, None]
        _vec_op(low.lines, n, d, ops, sc, count)

    def _band(self, low: LoopLowering, n: Node, d: str, count: str, ct: str) -> None:
        """A triangle of a row: row i of its matrix (curRow + k, modulo bandRows) keeps the
        lanes from i + diagonal on (triu: its first lanes set to 0) or up to i + diagonal
        (tril: the row less its triu from i + diagonal + 1, exact as x - x and x - 0 are)."""
        src = low.regs[id(n.args[0])].expr
        shift = int(n.value) + (1 if n.fn == "tril" else 0)
        cut = f"cut{len(low.lines)}"
        low.lines.append(
            f"const int64_t {cut} = static_cast<int64_t>((curRow + k) % bandRows) + ({shift});"
        )
        clamp = f"static_cast<uint32_t>({cut} < 0 ? 0 : {cut} > cols ? cols : {cut})"
        zero = f"static_cast<{ct}>(0)"
        if n.fn == "triu":
            if d != src:
                low.lines.append(f"Adds({d}, {src}, {zero}, {count});")
            low.lines.append(f"if ({cut} > 0) Duplicate({d}, {zero}, {clamp});")
            return
        buf = low._alloc()
        low.free.append(buf)
        tmp = f"band{len(low.lines)}"
        low.lines += [
            f"LocalTensor<{ct}> {tmp} = tmpBuf{buf}.Get<{ct}>();",
            f"Adds({tmp}, {src}, {zero}, {count});",
            f"if ({cut} > 0) Duplicate({tmp}, {zero}, {clamp});",
            f"Sub({d}, {src}, {tmp}, {count});",
        ]

    def _scalar_operand(self, low: LoopLowering, a: Node, ct: str) -> str:
        if a.kind == "row":
            text = self._row_value(low, a)
            return text if ct == "float" else f"static_cast<{ct}>({text})"
        return low.scalar(a, ct)

    # per-row values live in float slots of `stat` (one 32 B block each)
    def _slot(self, low: LoopLowering, n: Node) -> str:
        reg = low.regs.get(id(n))
        if reg is not None and reg.expr:
            return reg.expr
        slot = low.slots
        low.slots += 1
        expr = f"stat[{slot * ROW_SLOT}]"
        if n.op in ("load", "cast"):  # a value the scalar unit read: spread it over the slot
            low.lines.append(f"Duplicate({expr}, {self._row_value(low, n)}, {ROW_SLOT});")
        low.regs[id(n)] = Reg(expr)
        return expr

    def _row_value(self, low: LoopLowering, n: Node) -> str:
        if n.op == "cast":
            return self._row_value(low, n.args[0])
        if n.kind == "const":
            return low.scalar(n, "float")
        if id(n) not in low.row_vals:
            slot = self._slot(low, n)
            name = f"s{len(low.row_vals)}"
            low.lines.append(f"const float {name} = {slot}.GetValue(0);")
            low.row_vals[id(n)] = name
        return low.row_vals[id(n)]

    def _arg_step(self, low: LoopLowering, n: Node, count: str) -> list[str]:
        """One step of an index accumulation along the axis: where this step's value beats the
        running extreme (strictly: the first extreme wins, as torch's argmax), the step's index
        replaces the running index (Compare, then a Select keeping the others)."""
        idx, ext = low.accs, low.accs + 1
        low.acc_of[id(n)] = idx
        low.acc_of[-id(n)] = ext  # the running extreme: a buffer of its own, never stored
        low.accs += 2
        m = low.free_masks.pop() if low.free_masks else low.n_masks
        low.n_masks = max(low.n_masks, m + 1)
        low.free_masks.append(m)
        v = low.regs[id(n.args[0])].expr
        keep, fold = ("LE", "Max") if n.fn == "argmax" else ("GE", "Min")
        low.regs[id(n)] = Reg(f"acc{idx}")
        return [
            f"LocalTensor<float> acc{idx} = acc{idx}Buf.Get<float>();",
            f"LocalTensor<float> acc{ext} = acc{ext}Buf.Get<float>();",
            "if (row + k == 0) {",
            f"  Adds(acc{ext}, {v}, 0.0f, {count});",
            f"  Duplicate(acc{idx}, 0.0f, {count});",
            "} else {",
            f"  LocalTensor<uint8_t> keep = maskBuf{m}.Get<uint8_t>();",
            f"  Compare(keep, {v}, acc{ext}, CMPMODE::{keep}, {count});",
            f"  Select(acc{idx}, keep, acc{idx}, static_cast<float>(row + k), "
            f"SELMODE::VSEL_TENSOR_SCALAR_MODE, {count});",
            f"  {fold}(acc{ext}, acc{ext}, {v}, {count});",
            "}",
        ]

    def _row_node(self, low: LoopLowering, n: Node) -> None:
        if n.op == "total":  # this row's value (and its count) into the block's partials
            j = low.totals
            low.totals += len(n.args)
            for i, a in enumerate(n.args):
                low.lines.append(f"total{j + i} += {self._row_value(low, a)};")
            low.regs[id(n)] = Reg(f"total{j}")
            return
        if n.op == "cast":
            low.regs[id(n)] = low.regs.get(id(n.args[0]), Reg(""))
            if id(n.args[0]) in low.row_vals:
                low.row_vals[id(n)] = low.row_vals[id(n.args[0])]
            return
        slot = low.slots
        low.slots += 1
        d = f"stat[{slot * ROW_SLOT}]"
        if n.op == "reduce" and n.fn in ARG_REDUCE:
            # dst[1] holds the index's bits (a uint32 in a float lane): the scalar unit reads
            # it as the row's value, spread over the slot as a loaded row value is
            src = low.regs[id(n.args[0])].expr
            name = f"s{len(low.row_vals)}"
            low.lines += [
                f"{ARG_REDUCE[n.fn]}({d}, {src}, work, cols, true);",
                f"const float {name} = static_cast<float>("
                f"{d}.ReinterpretCast<uint32_t>().GetValue(1));",
                f"Duplicate({d}, {name}, {ROW_SLOT});",
            ]
            low.row_vals[id(n)] = name
        elif n.op == "reduce":
            src = low.regs[id(n.args[0])].expr
            low.lines.append(f"{REDUCE[n.fn]}({d}, {src}, work, cols);")
            if n.fn == "mean":
                low.lines.append(f"Muls({d}, {d}, 1.0f / cols, {ROW_SLOT});")
        else:
            ops: list[str] = []
            sc: list[str | None] = []
            for a in n.args:
                if a.kind == "row":
                    ops.append(self._slot(low, a))
                    sc.append(None)
                else:
                    ops.append("")
                    sc.append(low.scalar(a, "float"))
            if n.op == "unary":
                sc = [None, None]
            _vec_op(low.lines, n, d, ops, sc, str(ROW_SLOT))
        low.regs[id(n)] = Reg(d)
