"""Lowering: a checked DSL `Kernel` plus the operator spec -> a complete operator package.

The kernel is a class in the style of the suite's baselines: TPipe, one TQue per copied tensor
(depth `buffer_num`), CopyIn / Compute / CopyOut stages, DataCopyPad for rows and tails, the
big/small-block split of the work. Only queues order the pipes (EnQue/DeQue on MTE2 -> V -> MTE3)
plus one MTE2 -> S flag before the scalar unit reads copied values, so kernels are race-free by
construction. The host tiling computes the split and the tile from the UB budget, with `@tune`
markers on every schedule knob.
"""

from __future__ import annotations

from dataclasses import dataclass

from ascend_gym.dsl.lang import DslError, Kernel, Loop, Node, Store
from ascend_gym.dsl.spec_toml import spec_toml
from ascend_gym.package import GE_DTYPES, OperatorPackage, OperatorSpec

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
}
CMP = {"gt": "GT", "ge": "GE", "lt": "LT", "le": "LE", "eq": "EQ", "ne": "NE"}
REDUCE = {"sum": "ReduceSum", "mean": "ReduceSum", "max": "ReduceMax", "min": "ReduceMin"}

HELPERS = """\
__aicore__ inline uint32_t AlignUp(uint32_t n, uint32_t unit) { return (n + unit - 1) / unit * unit; }

// fp32 view of a tile of T: the tile itself when T is float, else `buf` after a Cast up.
template <typename T>
__aicore__ inline LocalTensor<float> AsFloat(const LocalTensor<T>& src, const LocalTensor<float>& buf, uint32_t n) {
  if constexpr (sizeof(T) == sizeof(float)) {
    return src.template ReinterpretCast<float>();
  } else {
    Cast(buf, src, RoundMode::CAST_NONE, n);
    return buf;
  }
}

// Where an fp32 result bound for a tile of T is computed: in the tile itself when T is float.
template <typename T>
__aicore__ inline LocalTensor<float> FloatOut(const LocalTensor<T>& dst, const LocalTensor<float>& buf) {
  if constexpr (sizeof(T) == sizeof(float)) {
    return dst.template ReinterpretCast<float>();
  } else {
    return buf;
  }
}

// Finish a result made by FloatOut: Cast down (round to nearest even) when T is half.
template <typename T>
__aicore__ inline void FromFloat(const LocalTensor<T>& dst, const LocalTensor<float>& src, uint32_t n) {
  if constexpr (sizeof(T) != sizeof(float)) {
    Cast(dst, src, RoundMode::CAST_RINT, n);
  }
}

// Write an fp32 value computed elsewhere into a tile of T.
template <typename T>
__aicore__ inline void CopyFloat(const LocalTensor<T>& dst, const LocalTensor<float>& src, uint32_t n) {
  if constexpr (sizeof(T) == sizeof(float)) {
    Adds(dst.template ReinterpretCast<float>(), src, 0.0f, n);
  } else {
    Cast(dst, src, RoundMode::CAST_RINT, n);
  }
}
"""


def camel(name: str) -> str:
    return "".join(p.capitalize() for p in name.split("_"))


def _lit(v: float) -> str:
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


class LoopLowering:
    """Emits the Compute body of one loop: vector instructions over registers (UB temps)."""

    def __init__(self, loop: Loop):
        self.loop = loop
        self.order = self._order()
        self.uses = self._uses()
        self.regs: dict[int, Reg] = {}
        self.free: list[int] = []
        self.n_bufs = 0
        self.n_masks = 0
        self.free_masks: list[int] = []
        self.slots = 0
        self.accs = 0
        self.lines: list[str] = []
        self.row_vals: dict[int, str] = {}

    def _order(self) -> list[Node]:
        seen: set[int] = set()
        out: list[Node] = []

        def visit(n: Node) -> None:
            if id(n) in seen:
                return
            seen.add(id(n))
            for a in n.args:
                visit(a)
            out.append(n)

        for s in self.loop.stores:
            visit(s.value)
        return out

    def _uses(self) -> dict[int, int]:
        """Index in `order` of each node's last use (stores count as the end)."""
        last: dict[int, int] = {}
        for i, n in enumerate(self.order):
            for a in n.args:
                last[id(a)] = i
        for s in self.loop.stores:
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
        return text if ctype == "float" else f"static_cast<T>({text})"

    def ctype(self, n: Node) -> str:
        return "float" if n.dtype == "float" else "T"


def _scalar_expr(n: Node) -> str:
    """A constant-kind node (numbers, attributes and their arithmetic) as a C++ float."""
    if n.op == "const":
        return _lit(n.value)
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


class Lowering:
    """Kernel + spec -> package files."""

    def __init__(self, kernel: Kernel, spec: OperatorSpec):
        self.k = kernel
        self.spec = spec
        self.cls = f"Kernel{camel(spec.name)}"
        self.tiling = f"{camel(spec.name)}TilingData"
        self.sched = kernel.sched
        self._check()

    # -- checks -----------------------------------------------------------------------------
    def _check(self) -> None:
        k, spec = self.k, self.spec
        if not k.loops:
            raise DslError(k.where, "the kernel has no loop")
        kinds = {lp.kind for lp in k.loops}
        if len(kinds) > 1:
            raise DslError(
                k.loops[-1].where,
                "a kernel is either tiles() loops, one rows() loop or one columns() loop",
            )
        self.kind = kinds.pop()
        names_in = [a.name for a in spec.inputs]
        names_out = [a.name for a in spec.outputs]
        for t in k.tensors.values():
            pool = names_out if t.is_output else names_in
            if t.name not in pool:
                raise DslError(
                    t.where,
                    f"{'output' if t.is_output else 'input'} {t.name!r} is not in the spec "
                    f"({', '.join(pool)})",
                )
        missing = [n for n in names_in + names_out if n not in k.tensors]
        if missing:
            raise DslError(k.where, f"the spec's tensors {missing} are not declared")
        stored = {s.tensor.name for lp in k.loops for s in lp.stores}
        for name in names_out:
            if name not in stored:
                raise DslError(k.tensors[name].where, f"output {name!r} is never stored")
        attrs = {a.name: a for a in spec.attrs}
        for name in k.attrs:
            if name not in attrs or attrs[name].type != "float":
                raise DslError(k.where, f"attr {name!r} is not a float attribute of the spec")
        dts = {tuple(a.dtypes) for a in [*spec.inputs, *spec.outputs]}
        if len(dts) != 1 or any(d not in ("float16", "float32") for d in next(iter(dts))):
            raise DslError(k.where, "every tensor must share one dtype list of float16/float32")
        if self.kind == "rows":
            full = [t for t in k.tensors.values() if t.layout == "full" and not t.is_output]
            if not full and not any(t.layout == "full" for t in k.tensors.values() if t.is_output):
                raise DslError(k.where, "a rows() loop needs a full tensor to give the row length")

    # -- package ----------------------------------------------------------------------------
    def package(
        self, dsl_source: str = "", reference: dict[str, str] | None = None
    ) -> OperatorPackage:
        """The package files; `reference` holds the spec's reference module(s), path -> text."""
        name = self.spec.name
        kernel = self.kernel_source()
        files = {
            f"op_host/{name}_tiling.h": self.tiling_header(),
            f"op_host/{name}.cpp": self.host_source(),
            f"op_kernel/{name}.cpp": kernel,
            "op.toml": spec_toml(self.spec),
        }
        if dsl_source:
            files[f"dsl/{name}.py"] = dsl_source
        files.update(reference or {})
        return OperatorPackage(spec=self.spec, files=files, uri=f"generated:{name}")

    # -- tiling data --------------------------------------------------------------------------
    def fields(self) -> list[tuple[str, str, str]]:
        out: list[tuple[str, str, str]] = []
        if self.kind == "tiles":
            out.append(("uint32_t", "tileLength", "elements per UB tile"))
            for g in range(len(self.k.loops)):
                out += [
                    ("uint32_t", f"totalLength{g}", f"elements of loop {g}'s tensors"),
                    ("uint32_t", f"formerNum{g}", "blocks that take one 32 B unit more"),
                    ("uint32_t", f"formerLength{g}", "elements per former block"),
                    ("uint32_t", f"tailLength{g}", "elements per remaining block"),
                ]
        elif self.kind == "columns":
            out += [
                ("uint32_t", "outer", "columns before the axis"),
                ("uint32_t", "axisLen", "steps along the axis"),
                ("uint32_t", "inner", "elements after the axis"),
                ("uint32_t", "chunk", "lanes of a column tile"),
                ("uint32_t", "chunks", "column tiles across inner"),
                ("uint32_t", "formerNum", "blocks that take one column tile more"),
                ("uint32_t", "formerUnits", "column tiles per former block"),
                ("uint32_t", "tailUnits", "column tiles per remaining block"),
                ("uint32_t", "rowsPerTile", "axis steps per UB tile"),
            ]
        else:
            out += [
                ("uint32_t", "cols", "elements per row"),
                ("uint32_t", "formerNum", "blocks that take one row more"),
                ("uint32_t", "formerRows", "rows per former block"),
                ("uint32_t", "tailRows", "rows per remaining block"),
                ("uint32_t", "rowsPerTile", "rows per UB tile"),
            ]
        out += [("float", a, "attr") for a in self.k.attrs]
        return out

    def tiling_header(self) -> str:
        guard = f"{self.spec.name.upper()}_TILING_H"
        width = max(len(f"TILING_DATA_FIELD_DEF({t}, {n});") for t, n, _ in self.fields())
        rows = [
            f"{f'TILING_DATA_FIELD_DEF({t}, {n});':<{width}}  // {c}" for t, n, c in self.fields()
        ]
        return "\n".join(
            [
                f"#ifndef {guard}",
                f"#define {guard}",
                "",
                '#include "register/tilingdata_base.h"',
                "",
                "namespace optiling {",
                f"BEGIN_TILING_DATA_DEF({self.tiling})",
                *rows,
                "END_TILING_DATA_DEF;",
                "",
                f"REGISTER_TILING_DATA_CLASS({self.spec.op_type}, {self.tiling})",
                "}  // namespace optiling",
                "",
                f"#endif  // {guard}",
                "",
            ]
        )

    # -- kernel -------------------------------------------------------------------------------
    def kernel_source(self) -> str:
        if self.kind == "tiles":
            body = self._tiles_kernel()
        else:
            body = self._rows_kernel() if self.kind == "rows" else self._columns_kernel()
        return "\n".join(
            [
                '#include "kernel_operator.h"',
                "",
                "using namespace AscendC;",
                "",
                f"constexpr int32_t BUFFER_NUM = {self.sched.buffer_num};",
                "",
                HELPERS,
                *body,
                "",
            ]
        )

    def _gm_args(self) -> list[str]:
        return [a.name for a in [*self.spec.inputs, *self.spec.outputs]]

    def _entry(self, init_args: list[str]) -> list[str]:
        gm = ", ".join(f"GM_ADDR {n}" for n in self._gm_args())
        first = self.spec.inputs[0].name.upper()
        call = ", ".join([*self._gm_args(), *[f"tilingData.{a}" for a in init_args]])
        return [
            f'extern "C" __global__ __aicore__ void {self.spec.kernel}({gm}, GM_ADDR workspace, '
            "GM_ADDR tiling) {",
            "  GET_TILING_DATA(tilingData, tiling);",
            f"  {self.cls}<DTYPE_{first}> op;",
            f"  op.Init({call});",
            "  op.Process();",
            "}",
        ]

    def _l2(self, name: str) -> list[str]:
        if name in self.sched.l2_disable:
            return [f"    {name}Gm.SetL2CacheHint(CacheMode::CACHE_MODE_DISABLE);  // read once"]
        return []

    def _tiles_kernel(self) -> list[str]:
        k = self.k
        lows = [LoopLowering(lp) for lp in k.loops]
        for low in lows:
            self._compute_body(low, row=False)
        # Compare works on whole 256 B repeats: pad the lane count further when there is one
        has_mask = any(low.n_masks for low in lows)
        align = str(LANE_ALIGN) if has_mask else "32 / sizeof(T)"
        n_in = max(len(lp.loads) for lp in k.loops)
        n_out = max(len(lp.stores) for lp in k.loops)
        n_tmp = max(low.n_bufs for low in lows)
        n_mask = max(low.n_masks for low in lows)
        self.ub_tensors = (n_in + n_out, n_tmp, n_mask)
        fields = [n for _, n, _ in self.fields()]
        gm = self._gm_args()
        out: list[str] = [
            "template <typename T>",
            f"class {self.cls} {{",
            " public:",
            f"  __aicore__ inline {self.cls}() {{}}",
            "  __aicore__ inline void Init("
            + ", ".join([*(f"GM_ADDR {g}" for g in gm), *(self._param(f) for f in fields)])
            + ") {",
        ]
        for f in fields:
            out.append(f"    this->{f} = {f};")
        for lp, g in zip(k.loops, range(len(k.loops)), strict=True):
            for n in [*(t.name for t in lp.loads), *(s.tensor.name for s in lp.stores)]:
                out.append(f"    {n}Gm.SetGlobalBuffer((__gm__ T*){n}, totalLength{g});")
                out += self._l2(n)
        for i in range(n_in):
            out.append(f"    pipe.InitBuffer(inQueue{i}, BUFFER_NUM, tileLength * sizeof(T));")
        for i in range(n_out):
            out.append(f"    pipe.InitBuffer(outQueue{i}, BUFFER_NUM, tileLength * sizeof(T));")
        for i in range(n_tmp):
            out.append(f"    pipe.InitBuffer(tmpBuf{i}, tileLength * sizeof(float));")
        for i in range(n_mask):
            out.append(f"    pipe.InitBuffer(maskBuf{i}, tileLength / 8);")
        out += ["  }", "  __aicore__ inline void Process() {"]
        out += [f"    Loop{g}();" for g in range(len(k.loops))]
        out += ["  }", "", " private:"]
        for g, (lp, low) in enumerate(zip(k.loops, lows, strict=True)):
            ins = [n.name for n in lp.loads]
            outs = [s.tensor.name for s in lp.stores]
            out += [
                f"  // Loop {g}: {', '.join(ins)} -> {', '.join(outs)}. The block's share of 32 B"
                " units, tile by tile; the last tile is short.",
                f"  __aicore__ inline void Loop{g}() {{",
                "    const uint32_t block = GetBlockIdx();",
                f"    const uint32_t offset = block < formerNum{g} ? block * formerLength{g}",
                f"        : formerNum{g} * formerLength{g} + (block - formerNum{g}) * tailLength{g};",
                f"    if (offset >= totalLength{g}) return;  // more blocks than units",
                f"    uint32_t length = block < formerNum{g} ? formerLength{g} : tailLength{g};",
                f"    if (length > totalLength{g} - offset) length = totalLength{g} - offset;",
                "    for (uint32_t done = 0; done < length; done += tileLength) {",
                "      const uint32_t len = length - done < tileLength ? length - done : tileLength;",
                f"      CopyIn{g}(offset + done, len);",
                f"      Compute{g}(len);",
                f"      CopyOut{g}(offset + done, len);",
                "    }",
                "  }",
                f"  __aicore__ inline void CopyIn{g}(uint32_t offset, uint32_t len) {{",
            ]
            for i, n in enumerate(ins):
                out.append(f"    LocalTensor<T> {n}Local = inQueue{i}.AllocTensor<T>();")
            out += [
                "    if (len * sizeof(T) % 32 == 0) {",
                *(f"      DataCopy({n}Local, {n}Gm[offset], len);" for n in ins),
                "    } else {",
                "      DataCopyExtParams params{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};",
                *(
                    f"      DataCopyPad({n}Local, {n}Gm[offset], params, "
                    "DataCopyPadExtParams<T>{false, 0, 0, 0});"
                    for n in ins
                ),
                "    }",
                *(f"    inQueue{i}.EnQue({n}Local);" for i, n in enumerate(ins)),
                "  }",
                f"  __aicore__ inline void Compute{g}(uint32_t len) {{",
                *(f"    LocalTensor<T> {n} = inQueue{i}.DeQue<T>();" for i, n in enumerate(ins)),
                *(
                    f"    LocalTensor<T> {n} = outQueue{i}.AllocTensor<T>();"
                    for i, n in enumerate(outs)
                ),
                "    // Padded lanes of a short tile are computed too; only len elements go back.",
                f"    const uint32_t n = AlignUp(len, {align});",
                *(f"    {line}" for line in low.lines),
                *(f"    outQueue{i}.EnQue<T>({n});" for i, n in enumerate(outs)),
                *(f"    inQueue{i}.FreeTensor({n});" for i, n in enumerate(ins)),
                "  }",
                f"  __aicore__ inline void CopyOut{g}(uint32_t offset, uint32_t len) {{",
                *(f"    LocalTensor<T> {n} = outQueue{i}.DeQue<T>();" for i, n in enumerate(outs)),
                "    if (len * sizeof(T) % 32 == 0) {",
                *(f"      DataCopy({n}Gm[offset], {n}, len);" for n in outs),
                "    } else {",
                "      DataCopyExtParams params{1, static_cast<uint32_t>(len * sizeof(T)), 0, 0, 0};",
                *(f"      DataCopyPad({n}Gm[offset], {n}, params);" for n in outs),
                "    }",
                *(f"    outQueue{i}.FreeTensor({n});" for i, n in enumerate(outs)),
                "  }",
            ]
        out += ["", "  TPipe pipe;"]
        if n_in:
            que = ", ".join(f"inQueue{i}" for i in range(n_in))
            out.append(f"  TQue<QuePosition::VECIN, BUFFER_NUM> {que};")
        que = ", ".join(f"outQueue{i}" for i in range(n_out))
        out.append(f"  TQue<QuePosition::VECOUT, BUFFER_NUM> {que};")
        bufs = [f"tmpBuf{i}" for i in range(n_tmp)] + [f"maskBuf{i}" for i in range(n_mask)]
        if bufs:
            out.append(f"  TBuf<QuePosition::VECCALC> {', '.join(bufs)};")
        out.append(f"  GlobalTensor<T> {', '.join(f'{n}Gm' for n in self._used_tensors())};")
        out += self._members(fields)
        out += ["};", ""]
        out += self._entry(fields)
        return out

    def _used_tensors(self) -> list[str]:
        used = {n.name for lp in self.k.loops for n in lp.loads}
        used |= {s.tensor.name for lp in self.k.loops for s in lp.stores}
        return [a for a in self._gm_args() if a in used]

    def _param(self, f: str) -> str:
        return f"float {f}" if f in self.k.attrs else f"uint32_t {f}"

    def _members(self, fields: list[str]) -> list[str]:
        ints = [f for f in fields if f not in self.k.attrs]
        out = [f"  uint32_t {', '.join(ints)};"]
        if self.k.attrs:
            out.append(f"  float {', '.join(self.k.attrs)};")
        return out

    # -- compute bodies -------------------------------------------------------------------------
    def _compute_body(self, low: LoopLowering, row: bool) -> None:
        """Fill `low.lines` with the instructions of one tile (tiles) or one row (rows)."""
        emit = low.lines
        count = "colsPad" if row else "n"
        stores = low.loop.stores
        consumed = {id(a) for m in low.order for a in m.args}

        def tile_of(s: Store) -> str:
            return f"{s.tensor.name}[k * colsPad]" if row else s.tensor.name

        done: set[int] = set()  # stores written in place
        for i, n in enumerate(low.order):
            if n.kind == "const":
                continue
            if n.op == "load":
                name = self._load_name(n)
                if n.kind == "row":  # one value per row, read by the scalar unit
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
            if n.op in ("accum", "scan"):  # fold this step into the column's accumulator
                acc = f"acc{low.accs}"
                low.accs += 1
                v = low.regs[id(n.args[0])].expr
                fold = {"sum": "Add", "mean": "Add", "max": "Max", "min": "Min"}[n.fn]
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
            if n.op == "cast":
                buf = low._alloc()
                src = low.regs[id(n.args[0])].expr
                emit.append(
                    f"LocalTensor<float> v{i} = AsFloat({src}, tmpBuf{buf}.Get<float>(), {count});"
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
                if ct == "float":
                    emit.append(f"FromFloat({tile_of(direct)}, {d}, {count});")
            low._release(i)
        for s in stores:
            if id(s) in done or s.value.op == "accum":  # totals are stored per column
                continue
            n = s.value
            if s.tensor.layout == "rows":
                value = self._row_value(low, n)
                emit.append(f"{s.tensor.name}.SetValue(k, static_cast<T>({value}));")
            elif n.dtype == "float":
                emit.append(f"CopyFloat({tile_of(s)}, {low.regs[id(n)].expr}, {count});")
            else:
                emit.append(
                    f"Adds({tile_of(s)}, {low.regs[id(n)].expr}, static_cast<T>(0), {count});"
                )

    def _reusable(self, low: LoopLowering, n: Node, i: int) -> tuple[int, str] | None:
        """A temp of an operand that dies here: the instruction runs in place."""
        for a in n.args:
            reg = low.regs.get(id(a))
            if (
                a.kind == "vec"
                and a.dtype == n.dtype
                and reg is not None
                and reg.buf is not None
                and low.uses.get(id(a)) == i
                and (a.op != "cast" or low.uses.get(id(a.args[0]), 0) <= i)
            ):
                buf, reg.buf = reg.buf, None  # handed over
                return buf, reg.expr
        return None

    def _load_name(self, n: Node) -> str:
        part, parts = n.part
        return n.name if parts == 1 else f"{n.name}P{part}"

    def _vec_node(self, low: LoopLowering, n: Node, d: str, count: str) -> None:
        ct = low.ctype(n)
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

    def _scalar_operand(self, low: LoopLowering, a: Node, ct: str) -> str:
        if a.kind == "row":
            text = self._row_value(low, a)
            return text if ct == "float" else f"static_cast<T>({text})"
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

    def _row_node(self, low: LoopLowering, n: Node) -> None:
        if n.op == "cast":
            low.regs[id(n)] = low.regs.get(id(n.args[0]), Reg(""))
            if id(n.args[0]) in low.row_vals:
                low.row_vals[id(n)] = low.row_vals[id(n.args[0])]
            return
        slot = low.slots
        low.slots += 1
        d = f"stat[{slot * ROW_SLOT}]"
        if n.op == "reduce":
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

    def _rows_kernel(self) -> list[str]:
        (lp,) = self.k.loops
        low = LoopLowering(lp)
        self._compute_body(low, row=True)
        fields = [n for _, n, _ in self.fields()]
        tensors = self.k.tensors
        full_loads = [n for n in lp.loads if tensors[n.name].layout == "full"]
        cols_loads = [n for n in lp.loads if tensors[n.name].layout == "cols"]
        rows_loads = [n for n in lp.loads if tensors[n.name].layout == "rows"]
        full_stores = [s for s in lp.stores if s.tensor.layout == "full"]
        rows_stores = [s for s in lp.stores if s.tensor.layout == "rows"]
        has_row_vals = low.slots > 0 or any(n.op == "reduce" for n in low.order)
        self.ub_tensors = (len(full_loads) + len(full_stores), low.n_bufs, 0)
        gm = self._gm_args()
        out = [
            "template <typename T>",
            f"class {self.cls} {{",
            " public:",
            f"  __aicore__ inline {self.cls}() {{}}",
            "  __aicore__ inline void Init("
            + ", ".join([*(f"GM_ADDR {g}" for g in gm), *(self._param(f) for f in fields)])
            + ") {",
            *(f"    this->{f} = {f};" for f in fields),
            "    const uint32_t block = GetBlockIdx();",
            "    rowStart = block < formerNum ? block * formerRows"
            " : formerNum * formerRows + (block - formerNum) * tailRows;",
            "    blockRows = block < formerNum ? formerRows : tailRows;",
            "    colsPad = AlignUp(cols, 32 / sizeof(T));",
        ]
        for name in self._used_rows_tensors(lp):
            t = tensors[name]
            parts = max([n.part[1] for n in lp.loads if n.name == name] or [1])
            width = "cols" if parts == 1 else f"cols * {parts}"
            if t.layout == "full":
                out.append(
                    f"    {name}Gm.SetGlobalBuffer((__gm__ T*){name} + "
                    f"static_cast<uint64_t>(rowStart) * {width}, "
                    f"static_cast<uint64_t>(blockRows) * {width});"
                )
            elif t.layout == "rows":
                out.append(
                    f"    {name}Gm.SetGlobalBuffer((__gm__ T*){name} + rowStart, blockRows);"
                )
            else:
                out.append(f"    {name}Gm.SetGlobalBuffer((__gm__ T*){name}, cols);")
            out += self._l2(name)
        for i, _ in enumerate(full_loads):
            out.append(
                f"    pipe.InitBuffer(inQueue{i}, BUFFER_NUM, rowsPerTile * colsPad * sizeof(T));"
            )
        for i, _ in enumerate(rows_loads):
            out.append(f"    pipe.InitBuffer(rowQueue{i}, BUFFER_NUM, rowsPerTile * sizeof(T));")
        if cols_loads:
            out.append(
                f"    pipe.InitBuffer(colsQueue, 1, {len(cols_loads)} * colsPad * sizeof(T));"
            )
        for i, _ in enumerate(full_stores):
            out.append(
                f"    pipe.InitBuffer(outQueue{i}, BUFFER_NUM, rowsPerTile * colsPad * sizeof(T));"
            )
        for i, _ in enumerate(rows_stores):
            out.append(f"    pipe.InitBuffer(rowOutQueue{i}, BUFFER_NUM, rowsPerTile * sizeof(T));")
        for i in range(low.n_bufs):
            out.append(f"    pipe.InitBuffer(tmpBuf{i}, colsPad * sizeof(float));")
        if has_row_vals:
            out.append("    pipe.InitBuffer(workBuf, colsPad * sizeof(float));")
            out.append(f"    pipe.InitBuffer(statBuf, {max(low.slots, 1) * ROW_SLOT * 4});")
        out += ["  }", "  __aicore__ inline void Process() {"]
        if cols_loads:
            out.append("    LoadCols();")
        out += [
            "    for (uint32_t row = 0; row < blockRows; row += rowsPerTile) {",
            "      const uint32_t n = blockRows - row < rowsPerTile ? blockRows - row : rowsPerTile;",
            "      CopyIn(row, n);",
            "      Compute(n);",
            "      CopyOut(row, n);",
            "    }",
        ]
        if cols_loads:
            out.append("    colsQueue.FreeTensor(colsLocal);")
        out += ["  }", "", " private:"]
        if cols_loads:
            out += [
                "  // Tensors shared by every row are read once per block and stay in the UB.",
                "  __aicore__ inline void LoadCols() {",
                "    LocalTensor<T> all = colsQueue.AllocTensor<T>();",
                "    const DataCopyExtParams params{1, static_cast<uint32_t>(cols * sizeof(T)),"
                " 0, 0, 0};",
                *(
                    f"    DataCopyPad(all[{j} * colsPad], {n.name}Gm, params, "
                    "DataCopyPadExtParams<T>{false, 0, 0, 0});"
                    for j, n in enumerate(cols_loads)
                ),
                "    colsQueue.EnQue(all);",
                "    colsLocal = colsQueue.DeQue<T>();",
                "  }",
            ]
        out.append("  __aicore__ inline void CopyIn(uint32_t row, uint32_t n) {")
        for i, n in enumerate(full_loads):
            part, parts = n.part
            nm = self._load_name(n)
            gap = "0" if parts == 1 else f"{parts - 1} * cols * sizeof(T)"
            src = (
                f"{n.name}Gm[static_cast<uint64_t>(row) * cols]"
                if parts == 1
                else f"{n.name}Gm[static_cast<uint64_t>(row) * cols * {parts} + {part} * cols]"
            )
            out += [
                f"    LocalTensor<T> {nm} = inQueue{i}.AllocTensor<T>();",
                f"    DataCopyPad({nm}, {src},",
                "                DataCopyExtParams{static_cast<uint16_t>(n), "
                f"static_cast<uint32_t>(cols * sizeof(T)), static_cast<uint32_t>({gap}), 0, 0}},",
                "                DataCopyPadExtParams<T>{false, 0, 0, 0});",
                f"    inQueue{i}.EnQue({nm});",
            ]
        for i, n in enumerate(rows_loads):
            out += [
                f"    LocalTensor<T> {n.name} = rowQueue{i}.AllocTensor<T>();",
                f"    DataCopyPad({n.name}, {n.name}Gm[row], DataCopyExtParams{{1, "
                "static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0}, "
                "DataCopyPadExtParams<T>{false, 0, 0, 0});",
                f"    rowQueue{i}.EnQue({n.name});",
            ]
        out += ["  }", "  __aicore__ inline void Compute(uint32_t n) {"]
        for i, n in enumerate(full_loads):
            out.append(f"    LocalTensor<T> {self._load_name(n)} = inQueue{i}.DeQue<T>();")
        for i, n in enumerate(rows_loads):
            out.append(f"    LocalTensor<T> {n.name} = rowQueue{i}.DeQue<T>();")
        for j, n in enumerate(cols_loads):
            out.append(f"    LocalTensor<T> {n.name} = colsLocal[{j} * colsPad];")
        for i, s in enumerate(full_stores):
            out.append(f"    LocalTensor<T> {s.tensor.name} = outQueue{i}.AllocTensor<T>();")
        for i, s in enumerate(rows_stores):
            out.append(f"    LocalTensor<T> {s.tensor.name} = rowOutQueue{i}.AllocTensor<T>();")
        if rows_loads:
            out += [
                "    // Per-row values are read by the scalar unit: wait for MTE2 first.",
                "    event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::MTE2_S));",
                "    SetFlag<HardEvent::MTE2_S>(ev);",
                "    WaitFlag<HardEvent::MTE2_S>(ev);",
            ]
        if has_row_vals:
            out += [
                "    LocalTensor<float> work = workBuf.Get<float>();",
                "    LocalTensor<float> stat = statBuf.Get<float>();",
            ]
        out += [
            "    // Row by row; padded lanes are computed too and never written back.",
            "    for (uint32_t k = 0; k < n; ++k) {",
            *(f"      {line}" for line in low.lines),
            "    }",
        ]
        out += [f"    outQueue{i}.EnQue<T>({s.tensor.name});" for i, s in enumerate(full_stores)]
        out += [f"    rowOutQueue{i}.EnQue<T>({s.tensor.name});" for i, s in enumerate(rows_stores)]
        out += [
            f"    inQueue{i}.FreeTensor({self._load_name(n)});" for i, n in enumerate(full_loads)
        ]
        out += [f"    rowQueue{i}.FreeTensor({n.name});" for i, n in enumerate(rows_loads)]
        out += ["  }", "  __aicore__ inline void CopyOut(uint32_t row, uint32_t n) {"]
        for i, s in enumerate(full_stores):
            nm = s.tensor.name
            out += [
                f"    LocalTensor<T> {nm} = outQueue{i}.DeQue<T>();",
                f"    DataCopyPad({nm}Gm[static_cast<uint64_t>(row) * cols], {nm},",
                "                DataCopyExtParams{static_cast<uint16_t>(n), "
                "static_cast<uint32_t>(cols * sizeof(T)), 0, 0, 0});",
                f"    outQueue{i}.FreeTensor({nm});",
            ]
        for i, s in enumerate(rows_stores):
            nm = s.tensor.name
            out += [
                f"    LocalTensor<T> {nm} = rowOutQueue{i}.DeQue<T>();",
                f"    DataCopyPad({nm}Gm[row], {nm}, DataCopyExtParams{{1, "
                "static_cast<uint32_t>(n * sizeof(T)), 0, 0, 0});",
                f"    rowOutQueue{i}.FreeTensor({nm});",
            ]
        out += ["  }", "", "  TPipe pipe;"]
        ques = [f"inQueue{i}" for i in range(len(full_loads))]
        ques += [f"rowQueue{i}" for i in range(len(rows_loads))]
        if ques:
            out.append(f"  TQue<QuePosition::VECIN, BUFFER_NUM> {', '.join(ques)};")
        if cols_loads:
            out.append("  TQue<QuePosition::VECIN, 1> colsQueue;")
        outs = [f"outQueue{i}" for i in range(len(full_stores))]
        outs += [f"rowOutQueue{i}" for i in range(len(rows_stores))]
        out.append(f"  TQue<QuePosition::VECOUT, BUFFER_NUM> {', '.join(outs)};")
        bufs = [f"tmpBuf{i}" for i in range(low.n_bufs)]
        if has_row_vals:
            bufs += ["workBuf", "statBuf"]
        if bufs:
            out.append(f"  TBuf<QuePosition::VECCALC> {', '.join(bufs)};")
        out.append(f"  GlobalTensor<T> {', '.join(f'{n}Gm' for n in self._used_rows_tensors(lp))};")
        if cols_loads:
            out.append("  LocalTensor<T> colsLocal;")
        out += self._members(fields)
        out += ["  uint32_t rowStart, blockRows, colsPad;", "};", ""]
        out += self._entry(fields)
        self.rows_shape = (
            len(full_loads) + len(full_stores),
            len(rows_loads) + len(rows_stores),
            len(cols_loads),
            low.n_bufs + (1 if has_row_vals else 0),
            max(low.slots, 1) if has_row_vals else 0,
        )
        return out

    def _columns_kernel(self) -> list[str]:
        (lp,) = self.k.loops
        low = LoopLowering(lp)
        self._compute_body(low, row=True)
        fields = [n for _, n, _ in self.fields()]
        loads = lp.loads
        scans = [s for s in lp.stores if s.value.op != "accum"]
        totals = [s for s in lp.stores if s.value.op == "accum"]
        accs = [n for n in low.order if n.op in ("accum", "scan")]
        self.columns_shape = (len(loads) + len(scans), len(totals), low.n_bufs + len(accs))
        gm = self._gm_args()
        used = self._used_rows_tensors(lp)
        out = [
            "template <typename T>",
            f"class {self.cls} {{",
            " public:",
            f"  __aicore__ inline {self.cls}() {{}}",
            "  __aicore__ inline void Init("
            + ", ".join([*(f"GM_ADDR {g}" for g in gm), *(self._param(f) for f in fields)])
            + ") {",
            *(f"    this->{f} = {f};" for f in fields),
            "    const uint32_t block = GetBlockIdx();",
            "    unitStart = block < formerNum ? block * formerUnits"
            " : formerNum * formerUnits + (block - formerNum) * tailUnits;",
            "    blockUnits = block < formerNum ? formerUnits : tailUnits;",
            "    chunkPad = AlignUp(chunk, 32 / sizeof(T));",
            "    const uint64_t whole = static_cast<uint64_t>(outer) * axisLen * inner;",
        ]
        for name in used:
            size = (
                "static_cast<uint64_t>(outer) * inner"
                if name in {s.tensor.name for s in totals}
                else "whole"
            )
            out.append(f"    {name}Gm.SetGlobalBuffer((__gm__ T*){name}, {size});")
            out += self._l2(name)
        tile = "rowsPerTile * chunkPad * sizeof(T)"
        out += [f"    pipe.InitBuffer(inQueue{i}, BUFFER_NUM, {tile});" for i in range(len(loads))]
        out += [f"    pipe.InitBuffer(outQueue{i}, BUFFER_NUM, {tile});" for i in range(len(scans))]
        out += [
            f"    pipe.InitBuffer(totalQueue{i}, BUFFER_NUM, chunkPad * sizeof(T));"
            for i in range(len(totals))
        ]
        out += [
            f"    pipe.InitBuffer(tmpBuf{i}, chunkPad * sizeof(float));" for i in range(low.n_bufs)
        ]
        out += [
            f"    pipe.InitBuffer(acc{j}Buf, chunkPad * sizeof(float));" for j in range(len(accs))
        ]
        out += [
            "  }",
            "  // Each column tile (an outer index, a chunk of inner lanes) is walked along the axis,",
            "  // several steps per copy (one strided DataCopyPad).",
            "  __aicore__ inline void Process() {",
            "    for (uint32_t u = unitStart; u < unitStart + blockUnits; ++u) {",
            "      const uint32_t first = (u % chunks) * chunk;",
            "      lanes = inner - first < chunk ? inner - first : chunk;",
            "      colsPad = AlignUp(lanes, 32 / sizeof(T));",
            "      base = static_cast<uint64_t>(u / chunks) * axisLen * inner + first;",
            "      for (uint32_t row = 0; row < axisLen; row += rowsPerTile) {",
            "        const uint32_t n = axisLen - row < rowsPerTile ? axisLen - row : rowsPerTile;",
            "        CopyIn(row, n);",
            "        Compute(row, n);",
        ]
        if scans:
            out.append("        CopyOut(row, n);")
        out.append("      }")
        if totals:
            out.append("      Finish(static_cast<uint64_t>(u / chunks) * inner + first);")
        out += ["    }", "  }", "", " private:"]
        gap = "static_cast<uint32_t>((inner - lanes) * sizeof(T))"
        out.append("  __aicore__ inline void CopyIn(uint32_t row, uint32_t n) {")
        for i, n in enumerate(loads):
            out += [
                f"    LocalTensor<T> {n.name} = inQueue{i}.AllocTensor<T>();",
                f"    DataCopyPad({n.name}, {n.name}Gm[base + static_cast<uint64_t>(row) * inner],",
                "                DataCopyExtParams{static_cast<uint16_t>(n), "
                f"static_cast<uint32_t>(lanes * sizeof(T)), {gap}, 0, 0}},",
                "                DataCopyPadExtParams<T>{false, 0, 0, 0});",
                f"    inQueue{i}.EnQue({n.name});",
            ]
        out += ["  }", "  __aicore__ inline void Compute(uint32_t row, uint32_t n) {"]
        out += [
            f"    LocalTensor<T> {n.name} = inQueue{i}.DeQue<T>();" for i, n in enumerate(loads)
        ]
        out += [
            f"    LocalTensor<T> {s.tensor.name} = outQueue{i}.AllocTensor<T>();"
            for i, s in enumerate(scans)
        ]
        out += [
            "    // Step by step along the axis; padded lanes are computed and never written back.",
            "    for (uint32_t k = 0; k < n; ++k) {",
            *(f"      {line}" for line in low.lines),
            "    }",
        ]
        out += [f"    outQueue{i}.EnQue<T>({s.tensor.name});" for i, s in enumerate(scans)]
        out += [f"    inQueue{i}.FreeTensor({n.name});" for i, n in enumerate(loads)]
        out.append("  }")
        if scans:
            out.append("  __aicore__ inline void CopyOut(uint32_t row, uint32_t n) {")
            for i, s in enumerate(scans):
                nm = s.tensor.name
                out += [
                    f"    LocalTensor<T> {nm} = outQueue{i}.DeQue<T>();",
                    f"    DataCopyPad({nm}Gm[base + static_cast<uint64_t>(row) * inner], {nm},",
                    "                DataCopyExtParams{static_cast<uint16_t>(n), "
                    f"static_cast<uint32_t>(lanes * sizeof(T)), 0, {gap}, 0}});",
                    f"    outQueue{i}.FreeTensor({nm});",
                ]
            out.append("  }")
        if totals:
            out += [
                "  // A column's totals, once it has walked the whole axis.",
                "  __aicore__ inline void Finish(uint64_t at) {",
            ]
            for i, s in enumerate(totals):
                nm, acc = s.tensor.name, low.regs[id(s.value)].expr
                out += [
                    f"    LocalTensor<T> {nm} = totalQueue{i}.AllocTensor<T>();",
                    f"    LocalTensor<float> {acc} = {acc}Buf.Get<float>();",
                ]
                if s.value.fn == "mean":
                    out.append(f"    Muls({acc}, {acc}, 1.0f / axisLen, colsPad);")
                out += [
                    f"    CopyFloat({nm}, {acc}, colsPad);",
                    f"    totalQueue{i}.EnQue<T>({nm});",
                    f"    {nm} = totalQueue{i}.DeQue<T>();",
                    f"    DataCopyPad({nm}Gm[at], {nm}, DataCopyExtParams{{1, "
                    "static_cast<uint32_t>(lanes * sizeof(T)), 0, 0, 0});",
                    f"    totalQueue{i}.FreeTensor({nm});",
                ]
            out.append("  }")
        out += ["", "  TPipe pipe;"]
        if loads:
            que = ", ".join(f"inQueue{i}" for i in range(len(loads)))
            out.append(f"  TQue<QuePosition::VECIN, BUFFER_NUM> {que};")
        outs = [f"outQueue{i}" for i in range(len(scans))]
        outs += [f"totalQueue{i}" for i in range(len(totals))]
        out.append(f"  TQue<QuePosition::VECOUT, BUFFER_NUM> {', '.join(outs)};")
        bufs = [f"tmpBuf{i}" for i in range(low.n_bufs)] + [f"acc{j}Buf" for j in range(len(accs))]
        out.append(f"  TBuf<QuePosition::VECCALC> {', '.join(bufs)};")
        out.append(f"  GlobalTensor<T> {', '.join(f'{n}Gm' for n in used)};")
        out += self._members(fields)
        out += [
            "  uint32_t unitStart, blockUnits, chunkPad, lanes, colsPad;",
            "  uint64_t base;",
            "};",
            "",
        ]
        out += self._entry(fields)
        return out

    def _columns_host(self) -> list[str]:
        axis = self.k.loops[0].axis
        lp = self.k.loops[0]
        kind, idx = self._arg_index(lp.loads[0].name)
        return [
            f"  const gert::Shape& shape = context->Get{kind}Shape({idx})->GetStorageShape();",
            f"  if (shape.GetDimNum() <= {axis}) return ge::GRAPH_FAILED;",
            "  uint32_t outer = 1, inner = 1;",
            f"  for (uint32_t d = 0; d < {axis}; ++d) outer *= shape.GetDim(d);",
            f"  for (uint32_t d = {axis + 1}; d < shape.GetDimNum(); ++d) inner *= shape.GetDim(d);",
            f"  const uint32_t axisLen = static_cast<uint32_t>(shape.GetDim({axis}));",
            "  const uint32_t alignElems = 32 / typeSize;",
            "  const uint32_t innerPad = (inner + alignElems - 1) / alignElems * alignElems;",
            "  const uint32_t chunk = std::max(alignElems, std::min(CHUNK, innerPad) / alignElems"
            " * alignElems);",
            "  const uint32_t chunks = (inner + chunk - 1) / chunk;",
            "  const uint32_t units = outer * chunks;",
            "  uint32_t blockDim = std::min({BLOCK_DIM, platform.GetCoreNumAiv(), units});",
            "  if (blockDim == 0) blockDim = 1;",
            "  tiling.set_outer(outer);",
            "  tiling.set_axisLen(axisLen);",
            "  tiling.set_inner(inner);",
            "  tiling.set_chunk(chunk);",
            "  tiling.set_chunks(chunks);",
            "  tiling.set_formerNum(units % blockDim);",
            "  tiling.set_formerUnits(units / blockDim + 1);",
            "  tiling.set_tailUnits(units / blockDim);",
            "  // UB: per axis step, the queued tiles; once, the column results and fp32 buffers.",
            "  const uint64_t stepBytes = static_cast<uint64_t>(UB_STEP_IO) * BUFFER_NUM * chunk"
            " * typeSize;",
            "  const uint64_t fixed = static_cast<uint64_t>(UB_COLUMN_IO) * BUFFER_NUM * chunk"
            " * typeSize + static_cast<uint64_t>(UB_TMP) * chunk * 4 + 1024;",
            "  if (fixed + stepBytes > ubSize) return ge::GRAPH_FAILED;",
            "  const uint32_t fit = static_cast<uint32_t>((ubSize - fixed) / stepBytes);",
            "  tiling.set_rowsPerTile(std::max(1u, std::min({ROWS_PER_TILE, fit, axisLen, 4095u})));",
        ]

    def _used_rows_tensors(self, lp: Loop) -> list[str]:
        used = {n.name for n in lp.loads} | {s.tensor.name for s in lp.stores}
        return [a for a in self._gm_args() if a in used]

    # -- host ----------------------------------------------------------------------------------
    def host_source(self) -> str:
        s = self.sched
        spec = self.spec
        if not hasattr(self, "ub_tensors"):
            self.kernel_source()
        knobs = [
            f"constexpr uint32_t BLOCK_DIM = {s.block_dim};  // @tune block_dim in [1, 48] step 1",
        ]
        if self.kind == "tiles":
            n_io, n_tmp, n_mask = self.ub_tensors
            knobs += [
                f"constexpr uint32_t TILE_LENGTH = {s.tile_length};  "
                "// @tune tile_length in [256, 32768] step 256",
                f"constexpr uint32_t BUFFER_NUM = {s.buffer_num};  // the kernel's queue depth",
                f"constexpr uint32_t UB_IO = {n_io};  // queued tensors of the widest loop",
                f"constexpr uint32_t UB_TMP = {n_tmp};  // fp32 temporaries",
                f"constexpr uint32_t UB_MASK = {n_mask};  // Compare masks (one bit a lane)",
            ]
            body = self._tiles_host()
        elif self.kind == "columns":
            n_steps, n_once, n_tmp = self.columns_shape
            knobs += [
                f"constexpr uint32_t CHUNK = {s.tile_length};  "
                "// @tune chunk in [256, 16384] step 256",
                f"constexpr uint32_t ROWS_PER_TILE = {s.rows_per_tile};  "
                "// @tune rows_per_tile in [1, 512] step 1",
                f"constexpr uint32_t BUFFER_NUM = {s.buffer_num};  // the kernel's queue depth",
                f"constexpr uint32_t UB_STEP_IO = {n_steps};  // queued tensors of every step",
                f"constexpr uint32_t UB_COLUMN_IO = {n_once};  // queued results of a column",
                f"constexpr uint32_t UB_TMP = {n_tmp};  // fp32 temporaries and accumulators",
            ]
            body = self._columns_host()
        else:
            n_full, n_rowv, n_cols, n_tmp, n_slots = self.rows_shape
            knobs += [
                f"constexpr uint32_t ROWS_PER_TILE = {s.rows_per_tile};  "
                "// @tune rows_per_tile in [1, 512] step 1",
                f"constexpr uint32_t BUFFER_NUM = {s.buffer_num};  // the kernel's queue depth",
                f"constexpr uint32_t UB_ROW_IO = {n_full};  // queued tensors of a whole row",
                f"constexpr uint32_t UB_ONE_IO = {n_rowv};  // queued tensors of one value a row",
                f"constexpr uint32_t UB_COLS = {n_cols};  // tensors shared by every row",
                f"constexpr uint32_t UB_TMP = {n_tmp};  // fp32 row temporaries",
                f"constexpr uint32_t UB_SLOTS = {n_slots};  // 32 B per-row values",
            ]
            body = self._rows_host()
        attrs = []
        for i, a in enumerate(spec.attrs):
            if a.name in self.k.attrs:
                attrs += [
                    f"  const float* {a.name} = context->GetAttrs()->GetFloat({i});",
                    f"  tiling.set_{a.name}({a.name} == nullptr ? {_lit(a.default)} : *{a.name});",
                ]
        opdef = []
        for kind, args in (("Input", spec.inputs), ("Output", spec.outputs)):
            for a in args:
                dts = ", ".join(f"ge::{GE_DTYPES[d]}" for d in a.dtypes)
                fmts = ", ".join("ge::FORMAT_ND" for _ in a.dtypes)
                opdef.append(
                    f'    this->{kind}("{a.name}").ParamType(REQUIRED).DataType({{{dts}}})'
                    f".Format({{{fmts}}});"
                )
        for a in spec.attrs:
            if a.type == "float":
                opdef.append(
                    f'    this->Attr("{a.name}").AttrType(OPTIONAL).Float({_lit(a.default)});'
                )
        return "\n".join(
            [
                f'#include "{spec.name}_tiling.h"',
                '#include "graph/utils/type_utils.h"',
                '#include "register/op_def_registry.h"',
                '#include "tiling/platform/platform_ascendc.h"',
                "",
                "namespace optiling {",
                "",
                "// Generated from the tile DSL: the schedule's knobs, and what the kernel keeps in UB.",
                *knobs,
                "",
                "static ge::graphStatus TilingFunc(gert::TilingContext* context) {",
                f"  {self.tiling} tiling;",
                "  auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());",
                "  uint64_t ubSize = 0;",
                "  platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);",
                "  uint32_t typeSize = 0;",
                "  ge::TypeUtils::GetDataTypeLength(context->GetInputDesc(0)->GetDataType(), typeSize);",
                "  if (typeSize == 0) return ge::GRAPH_FAILED;",
                *body,
                *attrs,
                "",
                "  context->SetBlockDim(blockDim);",
                "  tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), "
                "context->GetRawTilingData()->GetCapacity());",
                "  context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());",
                "  context->GetWorkspaceSizes(1)[0] = 0;",
                "  return ge::GRAPH_SUCCESS;",
                "}",
                "",
                "}  // namespace optiling",
                "",
                "namespace ops {",
                f"class {spec.op_type} : public OpDef {{",
                " public:",
                f"  explicit {spec.op_type}(const char* name) : OpDef(name) {{",
                *opdef,
                "    this->AICore().SetTiling(optiling::TilingFunc);",
                '    this->AICore().AddConfig("ascend910b");',
                "  }",
                "};",
                f"OP_ADD({spec.op_type});",
                "}  // namespace ops",
                "",
            ]
        )

    def _arg_index(self, name: str) -> tuple[str, int]:
        names_in = [a.name for a in self.spec.inputs]
        if name in names_in:
            return "Input", names_in.index(name)
        return "Output", [a.name for a in self.spec.outputs].index(name)

    def _tiles_host(self) -> list[str]:
        out = [
            "  const uint32_t alignElems = 32 / typeSize;",
            "  // Every loop's tensors share a length; the launch covers the longest loop.",
        ]
        for g, lp in enumerate(self.k.loops):
            first = lp.loads[0].name if lp.loads else lp.stores[0].tensor.name
            kind, idx = self._arg_index(first)
            out.append(
                f"  const uint32_t total{g} = static_cast<uint32_t>(context->Get{kind}Shape({idx})"
                "->GetStorageShape().GetShapeSize());"
            )
            out.append(f"  const uint32_t units{g} = (total{g} + alignElems - 1) / alignElems;")
        units = ", ".join(f"units{g}" for g in range(len(self.k.loops)))
        out += [
            f"  uint32_t blockDim = std::min({{BLOCK_DIM, platform.GetCoreNumAiv(), "
            f"std::max({{{units}, 1u}})}});",
            "  if (blockDim == 0) blockDim = 1;",
        ]
        for g in range(len(self.k.loops)):
            out += [
                f"  tiling.set_totalLength{g}(total{g});",
                f"  tiling.set_formerNum{g}(units{g} % blockDim);",
                f"  tiling.set_formerLength{g}((units{g} / blockDim + 1) * alignElems);",
                f"  tiling.set_tailLength{g}(units{g} / blockDim * alignElems);",
            ]
        out += [
            "  // UB bytes per lane: queued tiles of T, fp32 temporaries, one mask bit.",
            "  const uint64_t laneBytes = UB_IO * BUFFER_NUM * typeSize + UB_TMP * 4 + UB_MASK;",
            f"  const uint32_t fit = static_cast<uint32_t>((ubSize - 1024) / laneBytes) / "
            f"{LANE_ALIGN} * {LANE_ALIGN};",
            f"  const uint32_t tile = std::min(TILE_LENGTH, fit) / {LANE_ALIGN} * {LANE_ALIGN};",
            "  if (tile == 0) return ge::GRAPH_FAILED;",
            "  tiling.set_tileLength(tile);",
        ]
        return out

    def _rows_host(self) -> list[str]:
        lp = self.k.loops[0]
        ref = next(
            (n for n in lp.loads if self.k.tensors[n.name].layout == "full"),
            None,
        )
        if ref is not None:
            kind, idx = self._arg_index(ref.name)
            parts = ref.part[1]
        else:
            s = next(s for s in lp.stores if s.tensor.layout == "full")
            kind, idx = self._arg_index(s.tensor.name)
            parts = 1
        out = [
            f"  const gert::Shape& shape = context->Get{kind}Shape({idx})->GetStorageShape();",
            "  const uint32_t width = static_cast<uint32_t>(shape.GetDim(shape.GetDimNum() - 1));",
            "  const uint32_t rows = static_cast<uint32_t>(shape.GetShapeSize() / width);",
            f"  const uint32_t cols = width / {parts};",
            "  const uint32_t alignElems = 32 / typeSize;",
            "  const uint32_t colsPad = (cols + alignElems - 1) / alignElems * alignElems;",
            "  uint32_t blockDim = std::min({BLOCK_DIM, platform.GetCoreNumAiv(), rows});",
            "  if (blockDim == 0) blockDim = 1;",
            "  tiling.set_cols(cols);",
            "  tiling.set_formerNum(rows % blockDim);",
            "  tiling.set_formerRows(rows / blockDim + 1);",
            "  tiling.set_tailRows(rows / blockDim);",
            "  // UB: per row, the queued rows and values; once, shared rows, fp32 row temporaries,",
            "  // the reduction's work row and the per-row value slots.",
            "  const uint64_t rowBytes = (UB_ROW_IO * colsPad + UB_ONE_IO) * BUFFER_NUM * typeSize;",
            "  const uint64_t fixed = UB_COLS * colsPad * typeSize + UB_TMP * colsPad * 4 + "
            "UB_SLOTS * 32 + UB_ONE_IO * BUFFER_NUM * 32 + 1024;",
            "  if (fixed + rowBytes > ubSize) return ge::GRAPH_FAILED;",
            "  const uint32_t fit = static_cast<uint32_t>((ubSize - fixed) / rowBytes);",
            "  tiling.set_rowsPerTile(std::max(1u, std::min({ROWS_PER_TILE, fit, 4095u})));",
        ]
        return out


def lower(
    kernel: Kernel,
    spec: OperatorSpec,
    dsl_source: str = "",
    reference: dict[str, str] | None = None,
) -> OperatorPackage:
    """Check a DSL kernel against its spec and lower it to an operator package."""
    return Lowering(kernel, spec).package(dsl_source, reference)


__all__ = ["Lowering", "lower", "Store"]
