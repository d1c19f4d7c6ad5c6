"""The tiles() kernel shape: flat loops over the block's share of 32 B units, tile by tile,
and its host tiling (one split per loop, the tile from the UB budget).
"""

from __future__ import annotations

from ascend_gym.dsl.compute import FOLD_START, LANE_ALIGN, REDUCE, ROW_SLOT, LoopLowering
from ascend_gym.dsl.lang import Loop, Store


def partials(totals: list[Store]) -> int:
    """The fp32 partials a block leaves for its totals: one each, two for a mean with a count."""
    return sum(len(s.value.args) for s in totals)


class TilesMixin:
    def _tiles_kernel(self) -> list[str]:
        k = self.k
        lows = [LoopLowering(lp, self.types, self.narrow) for lp in k.loops]
        for low in lows:
            self._compute_body(low, row=False)
        # Compare works on whole 256 B repeats: pad the lane count further when there is one
        has_mask = any(low.n_masks for low in lows)
        align = str(LANE_ALIGN) if has_mask else f"32 / {self._narrowest()}"
        n_in = max(len(lp.loads) for lp in k.loops)
        n_out = max(len(self._tile_stores(lp)) for lp in k.loops)
        n_tmp = max(low.n_bufs for low in lows)
        n_mask = max(low.n_masks for low in lows)
        totals = [s for s in k.loops[0].stores if s.value.op == "total"]
        self.n_totals = partials(totals)
        # a total's ReduceSum needs a work tile (counted as one more fp32 temporary)
        self.ub_tensors = (n_in + n_out, n_tmp + (1 if totals else 0), n_mask)
        fields = [n for _, n, _ in self.fields()]
        gm = self._gm_args()
        out: list[str] = [
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
        ]
        for f in fields:
            out.append(f"    this->{f} = {f};")
        out += self._scalar_init()
        for lp, g in zip(k.loops, range(len(k.loops)), strict=True):
            for n in [*(t.name for t in lp.loads), *(s.tensor.name for s in self._tile_stores(lp))]:
                out.append(f"    {n}Gm.SetGlobalBuffer((__gm__ {self.ty(n)}*){n}, totalLength{g});")
                out += self._l2(n)
        if totals:
            out += self._totals_gm(totals)
        for i in range(n_in):
            size = self._sizeof([lp.loads[i].name for lp in k.loops if i < len(lp.loads)])
            out.append(f"    pipe.InitBuffer(inQueue{i}, BUFFER_NUM, tileLength * {size});")
        for i in range(n_out):
            stored = [self._tile_stores(lp) for lp in k.loops]
            size = self._sizeof([ss[i].tensor.name for ss in stored if i < len(ss)])
            out.append(f"    pipe.InitBuffer(outQueue{i}, BUFFER_NUM, tileLength * {size});")
        for i in range(n_tmp):
            out.append(f"    pipe.InitBuffer(tmpBuf{i}, tileLength * sizeof(float));")
        for i in range(n_mask):
            out.append(f"    pipe.InitBuffer(maskBuf{i}, tileLength / 8);")
        if totals:
            out += [
                "    pipe.InitBuffer(workBuf, tileLength * sizeof(float));",
                f"    pipe.InitBuffer(statBuf, {len(totals) * ROW_SLOT * 4});",
                *self._totals_queues(totals),
            ]
        out += ["  }", "  __aicore__ inline void Process() {"]
        out += [f"    Loop{g}();" for g in range(len(k.loops))]
        if totals:
            out.append("    Totals();")
        out += ["  }", "", " private:"]
        for g, (lp, low) in enumerate(zip(k.loops, lows, strict=True)):
            ins = [n.name for n in lp.loads]
            outs = [s.tensor.name for s in self._tile_stores(lp)]
            guard = (
                [
                    f"    if (offset >= totalLength{g}) return;  // more blocks than units",
                    f"    uint32_t length = block < formerNum{g} ? formerLength{g} : tailLength{g};",
                ]
                if not totals
                else [
                    "    // More blocks than units: this block has nothing, but joins the totals.",
                    f"    uint32_t length = offset >= totalLength{g} ? 0"
                    f" : block < formerNum{g} ? formerLength{g} : tailLength{g};",
                ]
            )
            out += [
                f"  // Loop {g}: {', '.join(ins)} -> {', '.join(outs)}. The block's share of 32 B"
                " units, tile by tile; the last tile is short.",
                f"  __aicore__ inline void Loop{g}() {{",
                "    const uint32_t block = GetBlockIdx();",
                f"    const uint32_t offset = block < formerNum{g} ? block * formerLength{g}",
                f"        : formerNum{g} * formerLength{g} + (block - formerNum{g}) * tailLength{g};",
                *guard,
                f"    if (length > totalLength{g} - offset) length = totalLength{g} - offset;",
                "    for (uint32_t done = 0; done < length; done += tileLength) {",
                "      const uint32_t len = length - done < tileLength ? length - done : tileLength;",
                f"      CopyIn{g}(offset + done, len);",
                f"      Compute{g}(len);",
                *([f"      CopyOut{g}(offset + done, len);"] if outs else []),
                "    }",
                "  }",
                f"  __aicore__ inline void CopyIn{g}(uint32_t offset, uint32_t len) {{",
            ]
            for i, n in enumerate(ins):
                ty = self.ty(n)
                out.append(f"    LocalTensor<{ty}> {n}Local = inQueue{i}.AllocTensor<{ty}>();")
            out += self._tile_copies(ins, into_ub=True)
            out += [
                *(f"    inQueue{i}.EnQue({n}Local);" for i, n in enumerate(ins)),
                "  }",
                f"  __aicore__ inline void Compute{g}(uint32_t len) {{",
                *(
                    f"    LocalTensor<{self.ty(n)}> {n} = inQueue{i}.DeQue<{self.ty(n)}>();"
                    for i, n in enumerate(ins)
                ),
                *(
                    f"    LocalTensor<{self.ty(n)}> {n} = outQueue{i}.AllocTensor<{self.ty(n)}>();"
                    for i, n in enumerate(outs)
                ),
                *(
                    [
                        "    LocalTensor<float> stat = statBuf.Get<float>();",
                        "    LocalTensor<float> work = workBuf.Get<float>();",
                    ]
                    if totals
                    else []
                ),
                "    // Padded lanes of a short tile are computed too; only len elements go back.",
                f"    const uint32_t n = AlignUp(len, {align});",
                *(f"    {line}" for line in low.lines),
                *(f"    outQueue{i}.EnQue<{self.ty(n)}>({n});" for i, n in enumerate(outs)),
                *(f"    inQueue{i}.FreeTensor({n});" for i, n in enumerate(ins)),
                "  }",
            ]
            if not outs:
                continue
            out += [
                f"  __aicore__ inline void CopyOut{g}(uint32_t offset, uint32_t len) {{",
                *(
                    f"    LocalTensor<{self.ty(n)}> {n} = outQueue{i}.DeQue<{self.ty(n)}>();"
                    for i, n in enumerate(outs)
                ),
            ]
            out += self._tile_copies(outs, into_ub=False)
            out += [
                *(f"    outQueue{i}.FreeTensor({n});" for i, n in enumerate(outs)),
                "  }",
            ]
        if totals:
            out += self._totals(totals, "totalLength0")
        out += ["", "  TPipe pipe;"]
        if n_in:
            que = ", ".join(f"inQueue{i}" for i in range(n_in))
            out.append(f"  TQue<QuePosition::VECIN, BUFFER_NUM> {que};")
        if n_out:
            que = ", ".join(f"outQueue{i}" for i in range(n_out))
            out.append(f"  TQue<QuePosition::VECOUT, BUFFER_NUM> {que};")
        if totals:
            out += [
                "  TQue<QuePosition::VECIN, 1> partsQueue;",
                "  TQue<QuePosition::VECOUT, 1> partQueue, totalQueue;",
            ]
        bufs = [f"tmpBuf{i}" for i in range(n_tmp)] + [f"maskBuf{i}" for i in range(n_mask)]
        bufs += ["workBuf", "statBuf"] if totals else []
        if bufs:
            out.append(f"  TBuf<QuePosition::VECCALC> {', '.join(bufs)};")
        for ty, group in self._by_type(self._used_tensors()).items():
            out.append(f"  GlobalTensor<{ty}> {', '.join(f'{n}Gm' for n in group)};")
        if totals:
            out.append("  GlobalTensor<float> partialGm;")
            out.append(f"  float {', '.join(f'total{j}' for j in range(len(totals)))};")
        out += self._members(fields)
        out += ["};", ""]
        out += self._entry(fields, workspace=bool(totals))
        return out

    def _tile_copies(self, names: list[str], into_ub: bool) -> list[str]:
        """DataCopy of a tile of whole 32 B blocks, else DataCopyPad; per group of one type."""
        out: list[str] = []
        for ty, group in self._by_type(names).items():
            if into_ub:
                whole = [f"      DataCopy({n}Local, {n}Gm[offset], len);" for n in group]
                pad = [
                    f"      DataCopyPad({n}Local, {n}Gm[offset], params, "
                    f"DataCopyPadExtParams<{ty}>{{false, 0, 0, 0}});"
                    for n in group
                ]
            else:
                whole = [f"      DataCopy({n}Gm[offset], {n}, len);" for n in group]
                pad = [f"      DataCopyPad({n}Gm[offset], {n}, params);" for n in group]
            out += [
                f"    if (len * sizeof({ty}) % 32 == 0) {{",
                *whole,
                "    } else {",
                f"      DataCopyExtParams params{{1, static_cast<uint32_t>(len * sizeof({ty})), 0, 0, 0}};",
                *pad,
                "    }",
            ]
        return out

    def _tile_stores(self, lp: Loop) -> list[Store]:
        """Stores copied out tile by tile (totals are written once, by block 0)."""
        return [s for s in lp.stores if s.value.op != "total"]

    def _totals_gm(self, totals: list[Store]) -> list[str]:
        """Init: each total's one-element output and the blocks' partials in the workspace."""
        return [
            *(
                f"    {s.tensor.name}Gm.SetGlobalBuffer((__gm__ {self.ty(s.tensor.name)}*)"
                f"{s.tensor.name}, 1);"
                for s in totals
            ),
            "    // One fp32 partial per block and total in the user workspace.",
            "    partialGm.SetGlobalBuffer((__gm__ float*)GetUserWorkspace(workspace), "
            f"{partials(totals)} * GetBlockNum());",
            *(
                f"    total{j} = {FOLD_START[fn]};"
                for j, fn in enumerate(
                    fn for s in totals for fn in [s.value.fn] * len(s.value.args)
                )
            ),
        ]

    def _totals_queues(self, totals: list[Store]) -> list[str]:
        return [
            f"    pipe.InitBuffer(partQueue, 1, {partials(totals) * ROW_SLOT * 4});",
            "    pipe.InitBuffer(partsQueue, 1, AlignUp(GetBlockNum(), 8) * sizeof(float));",
            "    pipe.InitBuffer(totalQueue, 1, 32);",
        ]

    def _totals_init(self, totals: list[Store]) -> list[str]:
        return [*self._totals_gm(totals), *self._totals_queues(totals)]

    def _totals(self, totals: list[Store], count: str) -> list[str]:
        """Totals(): `count`, the number of elements a mean divides by (a mean with a count of
        its own divides by that count's total, the partial after its own)."""
        lines = [
            "  // Totals across blocks: each block leaves its partials in the workspace; after",
            "  // SyncAll, block 0 adds them up and writes the results.",
            "  __aicore__ inline void Totals() {",
            "    const uint32_t blocks = GetBlockNum();",
            "    LocalTensor<float> part = partQueue.AllocTensor<float>();",
            *(f"    part.SetValue({j * ROW_SLOT}, total{j});" for j in range(partials(totals))),
            "    partQueue.EnQue(part);",
            "    part = partQueue.DeQue<float>();",
            *(
                f"    DataCopyPad(partialGm[{j} * blocks + GetBlockIdx()], part[{j * ROW_SLOT}], "
                "DataCopyExtParams{1, sizeof(float), 0, 0, 0});"
                for j in range(partials(totals))
            ),
            "    partQueue.FreeTensor(part);",
            "    // the partial must land before this core reads the workspace back",
            "    SetFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);",
            "    WaitFlag<HardEvent::MTE3_MTE2>(EVENT_ID0);",
            "    SyncAll();",
            "    if (GetBlockIdx() != 0) return;",
            "    LocalTensor<float> stat = statBuf.Get<float>();",
            "    LocalTensor<float> work = workBuf.Get<float>();",
        ]
        j = 0
        for s in totals:
            nm = s.tensor.name
            ty = self.ty(nm)
            n = len(s.value.args)  # the value's partials, then its count's
            for i in range(n):
                lines += [
                    "    LocalTensor<float> parts = partsQueue.AllocTensor<float>();"
                    if j == 0
                    else "    parts = partsQueue.AllocTensor<float>();",
                    f"    DataCopyPad(parts, partialGm[{j} * blocks], DataCopyExtParams{{1, "
                    "static_cast<uint32_t>(blocks * sizeof(float)), 0, 0, 0}, "
                    "DataCopyPadExtParams<float>{false, 0, 0, 0});",
                    "    partsQueue.EnQue(parts);",
                    "    parts = partsQueue.DeQue<float>();",
                    f"    {REDUCE[s.value.fn]}({f'stat[{i * ROW_SLOT}]' if i else 'stat'}, "
                    "parts, work, blocks);",
                ]
                if i == n - 1 and n > 1:
                    lines.append(f"    Div(stat, stat, stat[{ROW_SLOT}], 1);")
                elif i == n - 1 and s.value.fn == "mean":
                    lines.append(f"    Muls(stat, stat, 1.0f / {count}, 1);")
                lines.append("    partsQueue.FreeTensor(parts);")
                j += 1
            lines += [
                f"    LocalTensor<{ty}> {nm} = totalQueue.AllocTensor<{ty}>();",
                # a one-byte total (any / all into bool) narrows through half, in the work tile
                f"    CopyFloat({nm}, stat, {'work.ReinterpretCast<half>(), ' if ty in self.narrow else ''}1);",
                f"    totalQueue.EnQue({nm});",
                f"    {nm} = totalQueue.DeQue<{ty}>();",
                f"    DataCopyPad({nm}Gm, {nm}, DataCopyExtParams{{1, sizeof({ty}), 0, 0, 0}});",
                f"    totalQueue.FreeTensor({nm});",
            ]
        return [*lines, "  }"]

    def _used_tensors(self) -> list[str]:  # every tensor a tiles loop touches
        used = {n.name for lp in self.k.loops for n in lp.loads}
        used |= {s.tensor.name for lp in self.k.loops for s in lp.stores}
        return [a for a in self._gm_args() if a in used]

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
            f"  const uint64_t laneBytes = UB_IO * BUFFER_NUM * {self.io_size()} + UB_TMP * 4 + UB_MASK;",
            f"  const uint32_t fit = static_cast<uint32_t>((ubSize - 1024) / laneBytes) / "
            f"{LANE_ALIGN} * {LANE_ALIGN};",
            f"  const uint32_t tile = std::min(TILE_LENGTH, fit) / {LANE_ALIGN} * {LANE_ALIGN};",
            "  if (tile == 0) return ge::GRAPH_FAILED;",
            "  tiling.set_tileLength(tile);",
        ]
        return out
