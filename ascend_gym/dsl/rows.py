"""The rows() kernel shape: blocks take whole rows, a tile holds several rows (one multi-row
DataCopyPad), row by row compute with per-row values; and its host tiling.
"""

from __future__ import annotations

from ascend_gym.dsl.compute import LANE_ALIGN, ROW_SLOT, LoopLowering
from ascend_gym.dsl.lang import DslError, Loop
from ascend_gym.dsl.tiles import partials

# Node ops that tie a lane to others of its row (row values, totals, lane indices, triangles).
ROW_WIDE_OPS = ("reduce", "total", "accum", "scan", "lanes", "band")


class RowsMixin:
    def row_split(self) -> bool:
        """Whether a row wider than UB may be split into segments of `seg` lanes: every lane of
        the outputs comes from the same lane of the inputs, so a segment is computed alone."""
        (lp,) = self.k.loops
        nodes = LoopLowering(lp, self.types, self.narrow).order
        return not (
            self.k.banded
            or self.channels()
            or any(n.op in ROW_WIDE_OPS for n in nodes)
            or any(n.part[1] > 1 or self.k.tensors[n.name].layout == "rows" for n in lp.loads)
            or any(s.tensor.layout == "rows" for s in lp.stores)
        )

    def _rows_kernel(self) -> list[str]:
        (lp,) = self.k.loops
        low = LoopLowering(lp, self.types, self.narrow)
        self._compute_body(low, row=True)
        # Compare works on whole 256 B repeats: rows padded to LANE_ALIGN lanes where there is one
        self.rows_align = LANE_ALIGN if low.n_masks else 0
        align = str(LANE_ALIGN) if low.n_masks else f"32 / {self._narrowest()}"
        if self.words and not low.n_masks:  # 32 B of int4b_t are 64 lanes
            word = self.ty(next(iter(self.words)))
            align = f"(std::is_same<{word}, int4b_t>::value ? 64 : {align})"
        split = self.row_split()
        # Split: `cols` stays the GM row's length, each pass takes lanes [c0, c0 + segLen).
        span, at = ("segLen", " + c0") if split else ("cols", "")
        fields = [n for _, n, _ in self.fields()]
        tensors = self.k.tensors
        full_loads = [n for n in lp.loads if tensors[n.name].layout == "full"]
        cols_loads = [n for n in lp.loads if tensors[n.name].layout == "cols"]
        rows_loads = [n for n in lp.loads if tensors[n.name].layout == "rows"]
        totals = [s for s in lp.stores if s.value.op == "total"]
        self.n_totals = partials(totals)
        full_stores = [s for s in lp.stores if s.tensor.layout == "full" and s not in totals]
        rows_stores = [s for s in lp.stores if s.tensor.layout == "rows"]
        has_row_vals = low.slots > 0 or any(n.op in ("reduce", "total") for n in low.order)
        slots = max(low.slots, 2 if partials(totals) > len(totals) else 1)  # a count's divide
        shared = self._by_type([n.name for n in cols_loads])
        if len(shared) > 1:
            raise DslError(cols_loads[-1].where, "tensors shared by every row share one dtype")
        tc = next(iter(shared), "T")  # their type: one UB buffer holds them all
        self.ub_tensors = (len(full_loads) + len(full_stores), low.n_bufs, 0)
        gm = self._gm_args()
        out = [
            self._template(),
            f"class {self.cls} {{",
            " public:",
            f"  __aicore__ inline {self.cls}() {{}}",
            "  __aicore__ inline void Init("
            + ", ".join(
                [
                    *(f"GM_ADDR {g}" for g in gm),
                    *(["GM_ADDR workspace"] if totals else []),
                    *(self._param(f) for f in fields),
                ]
            )
            + ") {",
            *(f"    this->{f} = {f};" for f in fields),
            *self._scalar_init(),
            "    const uint32_t block = GetBlockIdx();",
            "    rowStart = block < formerNum ? block * formerRows"
            " : formerNum * formerRows + (block - formerNum) * tailRows;",
            "    blockRows = block < formerNum ? formerRows : tailRows;",
            f"    colsPad = AlignUp({'seg' if split else 'cols'}, {align});",
        ]
        for name in self._used_rows_tensors(lp, totals):
            t = tensors[name]
            ty = self.ty(name)
            parts = max([n.part[1] for n in lp.loads if n.name == name] or [1])
            width = "cols" if parts == 1 else f"cols * {parts}"
            if t.layout == "full" and name in self.words:  # int4 lanes: offsets in bytes
                out.append(
                    f"    {name}Gm.SetGlobalBuffer((__gm__ {ty}*)({name} + "
                    f"{self.bytes_of(ty, f'static_cast<uint64_t>(rowStart) * {width}')}), "
                    f"static_cast<uint64_t>(blockRows) * {width});"
                )
            elif t.layout == "full":
                out.append(
                    f"    {name}Gm.SetGlobalBuffer((__gm__ {ty}*){name} + "
                    f"static_cast<uint64_t>(rowStart) * {width}, "
                    f"static_cast<uint64_t>(blockRows) * {width});"
                )
            elif t.layout == "rows":
                out.append(
                    f"    {name}Gm.SetGlobalBuffer((__gm__ {ty}*){name} + rowStart, blockRows);"
                )
            elif t.layout == "channels":
                out.append(f"    {name}Gm.SetGlobalBuffer((__gm__ {ty}*){name}, {name}Len);")
            else:
                out.append(f"    {name}Gm.SetGlobalBuffer((__gm__ {ty}*){name}, cols);")
            out += self._l2(name)
        for i, n in enumerate(full_loads):
            out.append(
                f"    pipe.InitBuffer(inQueue{i}, BUFFER_NUM, "
                f"{self.bytes_of(self.ty(n.name), 'rowsPerTile * colsPad')});"
            )
        for i, n in enumerate(rows_loads):
            out.append(
                f"    pipe.InitBuffer(rowQueue{i}, BUFFER_NUM, rowsPerTile * sizeof({self.ty(n.name)}));"
            )
        if cols_loads:
            out.append(
                f"    pipe.InitBuffer(colsQueue, 1, {len(cols_loads)} * colsPad * sizeof({tc}));"
            )
        for i, st in enumerate(full_stores):
            out.append(
                f"    pipe.InitBuffer(outQueue{i}, BUFFER_NUM, rowsPerTile * colsPad * "
                f"sizeof({self.ty(st.tensor.name)}));"
            )
        for i, st in enumerate(rows_stores):
            out.append(
                f"    pipe.InitBuffer(rowOutQueue{i}, BUFFER_NUM, rowsPerTile * "
                f"sizeof({self.ty(st.tensor.name)}));"
            )
        for i in range(low.n_bufs):
            out.append(f"    pipe.InitBuffer(tmpBuf{i}, colsPad * sizeof(float));")
        if has_row_vals and totals:  # the work row also sums the blocks' partials
            out.append(
                "    pipe.InitBuffer(workBuf, std::max(colsPad, AlignUp(GetBlockNum(), 8)) * "
                "sizeof(float));"
            )
        elif has_row_vals:
            out.append("    pipe.InitBuffer(workBuf, colsPad * sizeof(float));")
        if has_row_vals:
            out.append(f"    pipe.InitBuffer(statBuf, {slots * ROW_SLOT * 4});")
        for m in range(low.n_masks):
            out.append(f"    pipe.InitBuffer(maskBuf{m}, AlignUp(colsPad / 8, 32));")
        if totals:
            out += self._totals_init(totals)
        out += ["  }", "  __aicore__ inline void Process() {"]
        pos = ", c0" if split else ""
        rows_loop = [
            "    for (uint32_t row = 0; row < blockRows; row += rowsPerTile) {",
            "      const uint32_t n = blockRows - row < rowsPerTile ? blockRows - row : rowsPerTile;",
            f"      CopyIn(row, n{pos});",
            *(
                ["      curRow = rowStart + row;  // the tile's first row (channels, triangles)"]
                if self.channels() or self.k.banded
                else []
            ),
            "      Compute(n);",
            *([f"      CopyOut(row, n{pos});"] if full_stores or rows_stores else []),
            "    }",
        ]
        load_cols = [f"    LoadCols({'c0' if split else ''});"] if cols_loads else []
        free_cols = ["    colsQueue.FreeTensor(colsLocal);"] if cols_loads else []
        if split:  # each segment of the rows in turn, its shared operands' segment with it
            out += [
                "    for (uint32_t c0 = 0; c0 < cols; c0 += seg) {",
                "      segLen = cols - c0 < seg ? cols - c0 : seg;",
                *(f"  {line}" for line in [*load_cols, *rows_loop, *free_cols]),
                "    }",
            ]
        else:
            out += [*load_cols, *rows_loop, *(["    Totals();"] if totals else []), *free_cols]
        out += ["  }", "", " private:"]
        if cols_loads:
            out += [
                "  // Tensors shared by every row are read once per block and stay in the UB."
                if not split
                else "  // Tensors shared by every row: their segment, read once per block and segment.",
                f"  __aicore__ inline void LoadCols({'uint32_t c0' if split else ''}) {{",
                f"    LocalTensor<{tc}> all = colsQueue.AllocTensor<{tc}>();",
                f"    const DataCopyExtParams params{{1, static_cast<uint32_t>({span} * sizeof({tc})),"
                " 0, 0, 0};",
                *(
                    f"    DataCopyPad(all[{j} * colsPad], {n.name}Gm{'[c0]' if split else ''}, params, "
                    f"DataCopyPadExtParams<{tc}>{{false, 0, 0, 0}});"
                    for j, n in enumerate(cols_loads)
                ),
                "    colsQueue.EnQue(all);",
                f"    colsLocal = colsQueue.DeQue<{tc}>();",
                "  }",
            ]
        out.append(
            f"  __aicore__ inline void CopyIn(uint32_t row, uint32_t n{pos and ', uint32_t c0'}) {{"
        )
        for i, n in enumerate(full_loads):
            part, parts = n.part
            nm = self._load_name(n)
            ty = self.ty(n.name)
            gap = "0" if parts == 1 else f"{parts - 1} * cols * sizeof({ty})"
            if split:  # the rest of the GM row lies between two rows' segments
                gap = self.bytes_of(ty, "(cols - segLen)")
            src = (
                f"{n.name}Gm[static_cast<uint64_t>(row) * cols{at}]"
                if parts == 1
                else f"{n.name}Gm[static_cast<uint64_t>(row) * cols * {parts} + {part} * cols]"
            )
            out += [
                f"    LocalTensor<{ty}> {nm} = inQueue{i}.AllocTensor<{ty}>();",
                f"    DataCopyPad({nm}, {src},",
                "                DataCopyExtParams{static_cast<uint16_t>(n), "
                f"static_cast<uint32_t>({self.bytes_of(ty, span)}), static_cast<uint32_t>({gap}), "
                f"{self._ub_gap(ty, span)}, 0}},",
                f"                DataCopyPadExtParams<{ty}>{{false, 0, 0, 0}});",
                f"    inQueue{i}.EnQue({nm});",
            ]
        for i, n in enumerate(rows_loads):
            ty = self.ty(n.name)
            out += [
                f"    LocalTensor<{ty}> {n.name} = rowQueue{i}.AllocTensor<{ty}>();",
                f"    DataCopyPad({n.name}, {n.name}Gm[row], DataCopyExtParams{{1, "
                f"static_cast<uint32_t>(n * sizeof({ty})), 0, 0, 0}}, "
                f"DataCopyPadExtParams<{ty}>{{false, 0, 0, 0}});",
                f"    rowQueue{i}.EnQue({n.name});",
            ]
        out += ["  }", "  __aicore__ inline void Compute(uint32_t n) {"]
        for i, n in enumerate(full_loads):
            ty = self.ty(n.name)
            out.append(f"    LocalTensor<{ty}> {self._load_name(n)} = inQueue{i}.DeQue<{ty}>();")
        for i, n in enumerate(rows_loads):
            ty = self.ty(n.name)
            out.append(f"    LocalTensor<{ty}> {n.name} = rowQueue{i}.DeQue<{ty}>();")
        for j, n in enumerate(cols_loads):
            out.append(f"    LocalTensor<{tc}> {n.name} = colsLocal[{j} * colsPad];")
        for i, s in enumerate(full_stores):
            ty = self.ty(s.tensor.name)
            out.append(f"    LocalTensor<{ty}> {s.tensor.name} = outQueue{i}.AllocTensor<{ty}>();")
        for i, s in enumerate(rows_stores):
            ty = self.ty(s.tensor.name)
            out.append(
                f"    LocalTensor<{ty}> {s.tensor.name} = rowOutQueue{i}.AllocTensor<{ty}>();"
            )
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
        out += [
            f"    outQueue{i}.EnQue<{self.ty(s.tensor.name)}>({s.tensor.name});"
            for i, s in enumerate(full_stores)
        ]
        out += [
            f"    rowOutQueue{i}.EnQue<{self.ty(s.tensor.name)}>({s.tensor.name});"
            for i, s in enumerate(rows_stores)
        ]
        out += [
            f"    inQueue{i}.FreeTensor({self._load_name(n)});" for i, n in enumerate(full_loads)
        ]
        out += [f"    rowQueue{i}.FreeTensor({n.name});" for i, n in enumerate(rows_loads)]
        if full_stores or rows_stores:
            out += [
                "  }",
                f"  __aicore__ inline void CopyOut(uint32_t row, uint32_t n{pos and ', uint32_t c0'}) {{",
            ]
        for i, s in enumerate(full_stores):
            nm = s.tensor.name
            ty = self.ty(nm)
            out += [
                f"    LocalTensor<{ty}> {nm} = outQueue{i}.DeQue<{ty}>();",
                f"    DataCopyPad({nm}Gm[static_cast<uint64_t>(row) * cols{at}], {nm},",
                "                DataCopyExtParams{static_cast<uint16_t>(n), "
                f"static_cast<uint32_t>({span} * sizeof({ty})), {self._ub_gap(ty, span)}, "
                f"{f'static_cast<uint32_t>((cols - segLen) * sizeof({ty}))' if split else '0'}, 0}});",
                f"    outQueue{i}.FreeTensor({nm});",
            ]
        for i, s in enumerate(rows_stores):
            nm = s.tensor.name
            ty = self.ty(nm)
            out += [
                f"    LocalTensor<{ty}> {nm} = rowOutQueue{i}.DeQue<{ty}>();",
                f"    DataCopyPad({nm}Gm[row], {nm}, DataCopyExtParams{{1, "
                f"static_cast<uint32_t>(n * sizeof({ty})), 0, 0, 0}});",
                f"    rowOutQueue{i}.FreeTensor({nm});",
            ]
        out.append("  }")
        if totals:  # the mean's count: every row of the launch
            count = "(formerNum * formerRows + (GetBlockNum() - formerNum) * tailRows)"
            out += self._totals(totals, count)
        out += ["", "  TPipe pipe;"]
        ques = [f"inQueue{i}" for i in range(len(full_loads))]
        ques += [f"rowQueue{i}" for i in range(len(rows_loads))]
        if ques:
            out.append(f"  TQue<QuePosition::VECIN, BUFFER_NUM> {', '.join(ques)};")
        if cols_loads:
            out.append("  TQue<QuePosition::VECIN, 1> colsQueue;")
        outs = [f"outQueue{i}" for i in range(len(full_stores))]
        outs += [f"rowOutQueue{i}" for i in range(len(rows_stores))]
        if outs:
            out.append(f"  TQue<QuePosition::VECOUT, BUFFER_NUM> {', '.join(outs)};")
        if totals:
            out += [
                "  TQue<QuePosition::VECIN, 1> partsQueue;",
                "  TQue<QuePosition::VECOUT, 1> partQueue, totalQueue;",
                "  GlobalTensor<float> partialGm;",
                f"  float {', '.join(f'total{j}' for j in range(partials(totals)))};",
            ]
        bufs = [f"tmpBuf{i}" for i in range(low.n_bufs)]
        if has_row_vals:
            bufs += ["workBuf", "statBuf"]
        bufs += [f"maskBuf{m}" for m in range(low.n_masks)]
        if bufs:
            out.append(f"  TBuf<QuePosition::VECCALC> {', '.join(bufs)};")
        for ty, group in self._by_type(self._used_rows_tensors(lp)).items():
            out.append(f"  GlobalTensor<{ty}> {', '.join(f'{n}Gm' for n in group)};")
        if cols_loads:
            out.append(f"  LocalTensor<{tc}> colsLocal;")
        out += self._members(fields)
        out += [f"  uint32_t rowStart, blockRows, colsPad{', segLen' if split else ''};", "};", ""]
        if self.channels() or self.k.banded:
            out[-2:-2] = ["  uint32_t curRow;"]
        out += self._entry(fields, workspace=bool(totals))
        self.rows_shape = (
            len(full_loads) + len(full_stores),
            len(rows_loads) + len(rows_stores),
            len(cols_loads),
            low.n_bufs + (1 if has_row_vals else 0),
            slots if has_row_vals else 0,
        )
        return out

    def _used_rows_tensors(self, lp: Loop, but: list | None = None) -> list[str]:
        """The tensors the loop touches, but the stores in `but` (totals: set up apart)."""
        skip = {s.tensor.name for s in but or []}
        used = {n.name for n in lp.loads} | {s.tensor.name for s in lp.stores}
        return [a for a in self._gm_args() if a in used - skip]

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
        shared = next((n for n in lp.loads if self.k.tensors[n.name].layout == "cols"), None)
        if shared is not None:  # a row is the shared operand: [cols], or [S, C] over [B, S, C]
            ckind, cidx = self._arg_index(shared.name)
            width = [
                f"  const uint32_t cols = static_cast<uint32_t>("
                f"context->Get{ckind}Shape({cidx})->GetStorageShape().GetShapeSize());",
                f"  const uint32_t width = cols * {parts};",
            ]
        elif lp.row_axes > 1:  # a row of the last row_axes axes
            width = [
                "  uint32_t width = 1;",
                f"  for (size_t i = shape.GetDimNum() < {lp.row_axes} ? 0 : shape.GetDimNum() - "
                f"{lp.row_axes}; i < shape.GetDimNum(); ++i) width *= shape.GetDim(i);",
                f"  const uint32_t cols = width / {parts};",
            ]
        else:
            lanes = " * lanes" if self.words else ""  # an int4 row's words: 8 lanes each
            width = [
                "  const uint32_t width = static_cast<uint32_t>("
                f"shape.GetDim(shape.GetDimNum() - 1){lanes});",
                f"  const uint32_t cols = width / {parts};",
            ]
        if self.k.banded:  # a row's place in its matrix: the reference's rows per matrix
            width.append(
                "  tiling.set_bandRows(shape.GetDimNum() < 2 ? 1 : "
                "static_cast<uint32_t>(shape.GetDim(shape.GetDimNum() - 2)));"
            )
        for n in self.channels():
            i = self._arg_index(n)[1]
            width.append(
                f"  tiling.set_{n}Len(static_cast<uint32_t>(context->GetInputShape({i})"
                "->GetStorageShape().GetShapeSize()));"
            )
        pad = "segPad" if self.row_split() else "colsPad"
        align = self.rows_align or "32 / typeSize"
        size = "shape.GetShapeSize()"
        if self.words:  # the row tensor's int32 words hold eight int4 lanes, 64 to 32 B
            width.insert(
                0,
                f"  const uint32_t lanes = context->GetInputDesc({idx})->GetDataType() == "
                "ge::DT_INT32 ? 8 : 1;  // int4 words",
            )
            size = "shape.GetShapeSize() * lanes"
            align = align if self.rows_align else "lanes == 8 ? 64 : 32 / typeSize"
        out = [
            f"  const gert::Shape& shape = context->Get{kind}Shape({idx})->GetStorageShape();",
            *width,
            f"  const uint32_t rows = width == 0 ? 0 : static_cast<uint32_t>({size} / width);",
            f"  const uint32_t alignElems = {align};",
            "  const uint32_t colsPad = (cols + alignElems - 1) / alignElems * alignElems;",
            "  uint32_t blockDim = std::min({BLOCK_DIM, platform.GetCoreNumAiv(), rows});",
            "  if (blockDim == 0) blockDim = 1;",
            "  tiling.set_cols(cols);",
            "  tiling.set_formerNum(rows % blockDim);",
            "  tiling.set_formerRows(rows / blockDim + 1);",
            "  tiling.set_tailRows(rows / blockDim);",
            *(self._row_segments() if self.row_split() else []),
            "  // UB: per row, the queued rows and values; once, shared rows, fp32 row temporaries,",
            "  // the reduction's work row and the per-row value slots.",
            f"  const uint64_t rowBytes = (UB_ROW_IO * {pad} + UB_ONE_IO) * BUFFER_NUM * "
            f"{self.io_size()};",
            f"  const uint64_t fixed = UB_COLS * {pad} * {self.io_size()} + UB_TMP * {pad} * 4 + "
            "UB_SLOTS * 32 + UB_ONE_IO * BUFFER_NUM * 32 + 1024;",
            "  if (fixed + rowBytes > ubSize) return ge::GRAPH_FAILED;",
            "  const uint32_t fit = static_cast<uint32_t>((ubSize - fixed) / rowBytes);",
            "  tiling.set_rowsPerTile(std::max(1u, std::min({ROWS_PER_TILE, fit, 4095u})));",
        ]
        return out

    def _row_segments(self) -> list[str]:
        """Host lines: a row's segment, the whole row where one row of every tensor fits UB."""
        return [
            "  // A row wider than UB is taken in segments of `seg` lanes, each computed alone.",
            f"  const uint64_t laneBytes = (UB_ROW_IO * BUFFER_NUM + UB_COLS) * {self.io_size()} + "
            "UB_TMP * 4;",
            "  uint32_t seg = cols;",
            "  if (colsPad * laneBytes + 1024 > ubSize) {",
            "    seg = static_cast<uint32_t>((ubSize - 1024) / laneBytes) / alignElems * alignElems;",
            "  }",
            "  if (seg == 0 && cols != 0) return ge::GRAPH_FAILED;  // an empty row takes no pass",
            "  tiling.set_seg(seg);",
            "  const uint32_t segPad = (seg + alignElems - 1) / alignElems * alignElems;",
        ]

    def _ub_gap(self, ty: str, span: str = "cols") -> str:
        """32 B blocks between a row's data and the next row's in UB: 0 unless rows are padded
        to whole Compare repeats (`rows_align`) or the tensors' types differ (colsPad counts
        the narrowest's 32 B units: a wider type's rows then lie further apart than its data's
        blocks, as fp16 rows of 40 beside int8 ones: 128 B apart in UB, 96 B of blocks each),
        or a split row's last segment (`segLen`) is shorter than the others."""
        if not self.rows_align and len(self.type_args) == 1 and span == "cols":
            return "0"
        return (
            f"static_cast<uint32_t>(({self.bytes_of(ty, 'colsPad')} - "
            f"AlignUp({self.bytes_of(ty, span)}, 32)) / 32)"
        )
