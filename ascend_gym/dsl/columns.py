"""The columns() kernel shape: blocks take column tiles (an outer index, a chunk of inner
lanes), each walked along the axis several steps per strided copy, accumulators kept across the
steps; and its host tiling.
"""

from __future__ import annotations

from ascend_gym.dsl.compute import LoopLowering, Walk, _scalar_expr, _vec_op
from ascend_gym.dsl.lang import Loop, Node


def finished(n: Node) -> bool:
    """A column's total, or element-wise work on totals alone (a variance's correction,
    logsumexp's log(sum) + max): stored once per column, after its walks."""
    if n.op == "accum":
        return True
    return n.op in ("unary", "binary") and all(a.kind == "const" or finished(a) for a in n.args)


def _accums(n: Node) -> list[Node]:
    """The totals a finished value reads."""
    return [n] if n.op == "accum" else [a for x in n.args for a in _accums(x)]


def walks(lp: Loop) -> list[Walk] | None:
    """The walks along the axis, when values computed from an accumulator (`exp(v - c.max(v))`)
    need it finished: a value's walk is one more than the latest accumulator it reads. None
    when one walk does everything and every total is stored as it is."""
    phase: dict[int, int] = {}
    nodes: list[Node] = []

    def walk_of(n: Node) -> int:
        if id(n) not in phase:
            phase[id(n)] = max([walk_of(a) + (a.op == "accum") for a in n.args], default=0)
            nodes.append(n)
        return phase[id(n)]

    steps = [s for s in lp.stores if not finished(s.value)]
    ends = [a for s in lp.stores if finished(s.value) for a in _accums(s.value)]
    last = max([walk_of(s.value) for s in steps] + [walk_of(a) for a in ends])
    worked = any(s.value.op != "accum" for s in lp.stores if finished(s.value))
    if not worked and not any(
        phase[id(a)] < phase[id(n)] for n in nodes for a in n.args if a.op == "accum"
    ):
        return None
    out: list[Walk] = []
    for w in range(last + 1):
        stores = [s for s in steps if phase[id(s.value)] == w]
        folds = [n for n in nodes if n.op == "accum" and phase[id(n)] == w]
        out.append(Walk(stores, folds, {}, 0))
    return out


def _finish(
    n: Node, acc_of: dict[int, int], lines: list[str], names: dict[int, str], tag: str
) -> str:
    """A finished value's vector instructions over the column's lanes, each node once, into a
    temporary of its own (`tmpBuf<i>`, named `<tag>_<i>`; `names` holds what Finish has, the
    accumulators declared by the totals before this one too); returns the tensor holding it."""
    if id(n) in names:
        return names[id(n)]
    if n.op == "accum":
        j = acc_of[id(n)]
        lines.append(f"    LocalTensor<float> acc{j} = acc{j}Buf.Get<float>();")
        names[id(n)] = f"acc{j}"
        return names[id(n)]
    ops = [_finish(a, acc_of, lines, names, tag) if a.kind != "const" else "" for a in n.args]
    sc = [_scalar_expr(a) if a.kind == "const" and n.op == "binary" else None for a in n.args]
    t = sum(v.startswith(f"{tag}_") for v in names.values())
    d = names[id(n)] = f"{tag}_{t}"
    lines.append(f"    LocalTensor<float> {d} = tmpBuf{t}.Get<float>();")
    body: list[str] = []
    _vec_op(body, n, d, ops, [*sc, None][:2], "colsPad")
    lines += [f"    {line}" for line in body]
    return d


class ColumnsMixin:
    def _columns_kernel(self) -> list[str]:
        (lp,) = self.k.loops
        several = walks(lp)
        lows: list[LoopLowering] = []
        acc_of: dict[int, int] = {}
        for w in several or [None]:
            if w is not None:  # this walk reads the accumulators the earlier ones finished
                w.earlier, w.first_acc = dict(acc_of), len(acc_of)
            low = LoopLowering(lp, self.types, self.narrow, w)
            self._compute_body(low, row=True)
            acc_of.update(low.acc_of)
            lows.append(low)
        fields = [n for _, n, _ in self.fields()]
        totals = [s for s in lp.stores if finished(s.value)]
        if several is None:
            walk_loads = [lp.loads]
            walk_scans = [[s for s in lp.stores if s.value.op != "accum"]]
        else:
            walk_loads = [[n for n in low.order if n.op == "load"] for low in lows]
            walk_scans = [w.stores for w in several]
        n_loads = max(len(ls) for ls in walk_loads)
        n_scans = max(len(ss) for ss in walk_scans)
        n_bufs = max(low.n_bufs for low in lows)
        # Finish's temporaries: a worked total's instructions, then the half a one-byte total
        # narrows through
        finish: dict[int, tuple[list[str], str, int | None]] = {}
        names: dict[int, str] = {}
        for i, s in enumerate(totals):
            lines: list[str] = []
            src = _finish(s.value, acc_of, lines, names, f"fin{i}")
            temps = sum(v.startswith(f"fin{i}_") for v in names.values())
            via = temps if self.ty(s.tensor.name) in self.narrow else None
            finish[id(s)] = (lines, src, via)
            n_bufs = max(n_bufs, temps + (via is not None))
        n_masks = max(low.n_masks for low in lows)
        # Compare works on whole 256 B repeats: column tiles of 64 fp32 lanes where there is one
        align = "64" if n_masks else f"32 / {self._narrowest()}"
        self.columns_align = 64 if n_masks else 0
        self.columns_shape = (
            max(len(ls) + len(ss) for ls, ss in zip(walk_loads, walk_scans, strict=True)),
            len(totals),
            n_bufs + len(acc_of),
        )
        # a mean another walk reads is scaled once its walk ends; the others when stored
        used_later = {i for low in lows for i in low.earlier.values()}
        scaled = {
            acc_of[id(n)]
            for low in lows
            for n in low.order
            if n.op == "accum" and n.fn == "mean" and acc_of[id(n)] in used_later
        }
        # and a mean a worked total reads (as finished values read it)
        scaled |= {
            acc_of[id(a)]
            for s in totals
            if s.value.op != "accum"
            for a in _accums(s.value)
            if a.fn == "mean"
        }
        gm = self._gm_args()
        used = self._used_rows_tensors(lp)
        out = [
            self._template(),
            f"class {self.cls} {{",
            " public:",
            f"  __aicore__ inline {self.cls}() {{}}",
            "  __aicore__ inline void Init("
            + ", ".join([*(f"GM_ADDR {g}" for g in gm), *(self._param(f) for f in fields)])
            + ") {",
            *(f"    this->{f} = {f};" for f in fields),
            *self._scalar_init(),
            "    const uint32_t block = GetBlockIdx();",
            "    unitStart = block < formerNum ? block * formerUnits"
            " : formerNum * formerUnits + (block - formerNum) * tailUnits;",
            "    blockUnits = block < formerNum ? formerUnits : tailUnits;",
            f"    chunkPad = AlignUp(chunk, {align});",
            "    const uint64_t whole = static_cast<uint64_t>(outer) * axisLen * inner;",
        ]
        for name in used:
            size = (
                "static_cast<uint64_t>(outer) * inner"
                if name in {s.tensor.name for s in totals}
                else "whole"
            )
            out.append(f"    {name}Gm.SetGlobalBuffer((__gm__ {self.ty(name)}*){name}, {size});")
            out += self._l2(name)
        for i in range(n_loads):
            size = self._sizeof([ls[i].name for ls in walk_loads if i < len(ls)])
            out.append(
                f"    pipe.InitBuffer(inQueue{i}, BUFFER_NUM, rowsPerTile * chunkPad * {size});"
            )
        for i in range(n_scans):
            size = self._sizeof([ss[i].tensor.name for ss in walk_scans if i < len(ss)])
            out.append(
                f"    pipe.InitBuffer(outQueue{i}, BUFFER_NUM, rowsPerTile * chunkPad * {size});"
            )
        out += [
            f"    pipe.InitBuffer(totalQueue{i}, BUFFER_NUM, chunkPad * sizeof({self.ty(s.tensor.name)}));"
            for i, s in enumerate(totals)
        ]
        out += [f"    pipe.InitBuffer(tmpBuf{i}, chunkPad * sizeof(float));" for i in range(n_bufs)]
        out += [
            f"    pipe.InitBuffer(acc{j}Buf, chunkPad * sizeof(float));" for j in range(len(acc_of))
        ]
        out += [
            f"    pipe.InitBuffer(maskBuf{m}, AlignUp(chunkPad / 8, 32));" for m in range(n_masks)
        ]
        out += [
            "  }",
            "  // Each column tile (an outer index, a chunk of inner lanes) is walked along the axis,",
            "  // several steps per copy (one strided DataCopyPad)"
            + (
                "."
                if several is None
                else f", {len(lows)} times: a walk reads the accumulators the walks before it finished."
            ),
            "  __aicore__ inline void Process() {",
            "    for (uint32_t u = unitStart; u < unitStart + blockUnits; ++u) {",
            "      const uint32_t first = (u % chunks) * chunk;",
            "      lanes = inner - first < chunk ? inner - first : chunk;",
            f"      colsPad = AlignUp(lanes, {align});",
            "      base = static_cast<uint64_t>(u / chunks) * axisLen * inner + first;",
        ]
        for w, scans in enumerate(walk_scans):
            sfx = "" if several is None else str(w)
            out += [
                "      for (uint32_t row = 0; row < axisLen; row += rowsPerTile) {",
                "        const uint32_t n = axisLen - row < rowsPerTile ? axisLen - row : rowsPerTile;",
                f"        CopyIn{sfx}(row, n);",
                f"        Compute{sfx}(row, n);",
                *([f"        CopyOut{sfx}(row, n);"] if scans else []),
                "      }",
            ]
            for j in sorted(scaled & set(lows[w].acc_of.values())):
                out += [
                    f"      LocalTensor<float> acc{j} = acc{j}Buf.Get<float>();",
                    f"      Muls(acc{j}, acc{j}, 1.0f / axisLen, colsPad);  // a mean read later",
                ]
        if totals:
            out.append("      Finish(static_cast<uint64_t>(u / chunks) * inner + first);")
        out += ["    }", "  }", "", " private:"]
        for w, (low, loads, scans) in enumerate(zip(lows, walk_loads, walk_scans, strict=True)):
            sfx = "" if several is None else str(w)
            out += self._walk_stages(sfx, low, loads, scans)
        if totals:
            out += [
                "  // A column's totals, once it has walked the whole axis.",
                "  __aicore__ inline void Finish(uint64_t at) {",
            ]
            for i, s in enumerate(totals):
                nm, ty = s.tensor.name, self.ty(s.tensor.name)
                lines, src, via_buf = finish[id(s)]
                via = f"tmpBuf{via_buf}.Get<half>(), " if via_buf is not None else ""
                out.append(f"    LocalTensor<{ty}> {nm} = totalQueue{i}.AllocTensor<{ty}>();")
                out += lines
                if s.value.op == "accum" and s.value.fn == "mean":
                    j = acc_of[id(s.value)]
                    if j not in scaled:
                        out.append(f"    Muls(acc{j}, acc{j}, 1.0f / axisLen, colsPad);")
                out += [
                    f"    CopyFloat({nm}, {src}, {via}colsPad);",
                    f"    totalQueue{i}.EnQue<{ty}>({nm});",
                    f"    {nm} = totalQueue{i}.DeQue<{ty}>();",
                    f"    DataCopyPad({nm}Gm[at], {nm}, DataCopyExtParams{{1, "
                    f"static_cast<uint32_t>(lanes * sizeof({ty})), 0, 0, 0}});",
                    f"    totalQueue{i}.FreeTensor({nm});",
                ]
            out.append("  }")
        out += ["", "  TPipe pipe;"]
        if n_loads:
            que = ", ".join(f"inQueue{i}" for i in range(n_loads))
            out.append(f"  TQue<QuePosition::VECIN, BUFFER_NUM> {que};")
        outs = [f"outQueue{i}" for i in range(n_scans)]
        outs += [f"totalQueue{i}" for i in range(len(totals))]
        out.append(f"  TQue<QuePosition::VECOUT, BUFFER_NUM> {', '.join(outs)};")
        bufs = [f"tmpBuf{i}" for i in range(n_bufs)] + [f"acc{j}Buf" for j in range(len(acc_of))]
        bufs += [f"maskBuf{m}" for m in range(n_masks)]
        out.append(f"  TBuf<QuePosition::VECCALC> {', '.join(bufs)};")
        for ty, group in self._by_type(used).items():
            out.append(f"  GlobalTensor<{ty}> {', '.join(f'{n}Gm' for n in group)};")
        out += self._members(fields)
        out += [
            "  uint32_t unitStart, blockUnits, chunkPad, lanes, colsPad;",
            "  uint64_t base;",
            "};",
            "",
        ]
        out += self._entry(fields)
        return out

    def _walk_stages(
        self, sfx: str, low: LoopLowering, loads: list[Node], scans: list
    ) -> list[str]:
        """CopyIn, Compute and CopyOut of one walk along the axis."""

        def gap(ty: str) -> str:  # bytes from one step's lanes to the next step's
            return f"static_cast<uint32_t>((inner - lanes) * sizeof({ty}))"

        def ub_gap(ty: str) -> str:  # 32 B blocks past a step's padded lanes (256 B tiles)
            if not self.columns_align:
                return "0"
            return (
                f"static_cast<uint32_t>((colsPad * sizeof({ty}) - "
                f"AlignUp(lanes * sizeof({ty}), 32)) / 32)"
            )

        out = [f"  __aicore__ inline void CopyIn{sfx}(uint32_t row, uint32_t n) {{"]
        for i, n in enumerate(loads):
            ty = self.ty(n.name)
            out += [
                f"    LocalTensor<{ty}> {n.name} = inQueue{i}.AllocTensor<{ty}>();",
                f"    DataCopyPad({n.name}, {n.name}Gm[base + static_cast<uint64_t>(row) * inner],",
                "                DataCopyExtParams{static_cast<uint16_t>(n), "
                f"static_cast<uint32_t>(lanes * sizeof({ty})), {gap(ty)}, {ub_gap(ty)}, 0}},",
                f"                DataCopyPadExtParams<{ty}>{{false, 0, 0, 0}});",
                f"    inQueue{i}.EnQue({n.name});",
            ]
        out += ["  }", f"  __aicore__ inline void Compute{sfx}(uint32_t row, uint32_t n) {{"]
        out += [
            f"    LocalTensor<{self.ty(n.name)}> {n.name} = inQueue{i}.DeQue<{self.ty(n.name)}>();"
            for i, n in enumerate(loads)
        ]
        out += [
            f"    LocalTensor<{self.ty(s.tensor.name)}> {s.tensor.name} = "
            f"outQueue{i}.AllocTensor<{self.ty(s.tensor.name)}>();"
            for i, s in enumerate(scans)
        ]
        out += [
            "    // Step by step along the axis; padded lanes are computed and never written back.",
            "    for (uint32_t k = 0; k < n; ++k) {",
            *(f"      {line}" for line in low.lines),
            "    }",
        ]
        out += [
            f"    outQueue{i}.EnQue<{self.ty(s.tensor.name)}>({s.tensor.name});"
            for i, s in enumerate(scans)
        ]
        out += [f"    inQueue{i}.FreeTensor({n.name});" for i, n in enumerate(loads)]
        out.append("  }")
        if scans:
            out.append(f"  __aicore__ inline void CopyOut{sfx}(uint32_t row, uint32_t n) {{")
            for i, s in enumerate(scans):
                nm = s.tensor.name
                ty = self.ty(nm)
                out += [
                    f"    LocalTensor<{ty}> {nm} = outQueue{i}.DeQue<{ty}>();",
                    f"    DataCopyPad({nm}Gm[base + static_cast<uint64_t>(row) * inner], {nm},",
                    "                DataCopyExtParams{static_cast<uint16_t>(n), "
                    f"static_cast<uint32_t>(lanes * sizeof({ty})), {ub_gap(ty)}, {gap(ty)}, 0}});",
                    f"    outQueue{i}.FreeTensor({nm});",
                ]
            out.append("  }")
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
            # a column tile of whole 256 B Compare repeats where an index is accumulated
            f"  const uint32_t alignElems = {self.columns_align or '32 / typeSize'};",
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
            f" * {self.io_size()};",
            "  const uint64_t fixed = static_cast<uint64_t>(UB_COLUMN_IO) * BUFFER_NUM * chunk"
            f" * {self.io_size()} + static_cast<uint64_t>(UB_TMP) * chunk * 4 + 1024;",
            "  if (fixed + stepBytes > ubSize) return ge::GRAPH_FAILED;",
            "  const uint32_t fit = static_cast<uint32_t>((ubSize - fixed) / stepBytes);",
            "  tiling.set_rowsPerTile(std::max(1u, std::min({ROWS_PER_TILE, fit, axisLen, 4095u})));",
        ]
