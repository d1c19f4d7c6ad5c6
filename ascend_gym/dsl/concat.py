"""Lowering of a DSL `concat` or `slice`s: copies of rows through UB.

Seen around the axis, every tensor is [outer, length * inner]. A concat copies input i's rows
into y's at column offset_i * inner; a slice copies x's columns start * inner on into y's rows.
Each such piece is copied in tiles of rows x chunk elements: one multi-row DataCopyPad in (rows
pitched by the source's row), one out (pitched by the destination's), through one bound queue
(VECIN -> VECOUT: MTE2 then MTE3, no vector work). The tiles of all pieces are numbered in order
and core i takes the numbers i, i + blockDim, ...
"""

from __future__ import annotations

from ascend_gym.dsl.compute import float_literal
from ascend_gym.dsl.lang import DslError
from ascend_gym.dsl.lower import Lowering, check_one_to_one, check_same_dtype
from ascend_gym.dsl.transpose import check_transpose

DTYPES = ("float16", "float32", "bfloat16", "int32", "int64", "int8", "uint8")


def _piece(i: int, indent: str, length: str, *pitches: str) -> list[str]:
    """Host lines setting piece i: outer rows of `length` elements; source pitch and start,
    destination pitch and start."""
    names = ("srcPitch", "srcStart", "dstPitch", "dstStart")
    return [
        f"{indent}tiling.set_outer{i}(static_cast<uint32_t>(outer));",
        f"{indent}tiling.set_len{i}(static_cast<uint64_t>({length}));",
        *(
            f"{indent}tiling.set_{n}{i}(static_cast<uint64_t>({v}));"
            for n, v in zip(names, pitches, strict=True)
        ),
    ]


class CopyLowering(Lowering):
    """A kernel of one concat, or of slices (one per output) -> package files."""

    def _check(self) -> None:
        spec, k = self.spec, self.k
        self.kind = "copy"
        where = k.cat.where if k.cat is not None else k.slices[0].where
        ins = [x.name for x in k.cat.xs] if k.cat is not None else [s.x.name for s in k.slices]
        outs = [k.cat.out.name] if k.cat is not None else [s.out.name for s in k.slices]
        if sorted(set(ins)) != sorted(a.name for a in spec.inputs) or sorted(outs) != sorted(
            a.name for a in spec.outputs
        ):
            raise DslError(where, "the copies read every input of the spec and store every output")
        if any(a.dynamic for a in spec.inputs):
            raise DslError(where, "a TensorList input is not lowered")
        axis = k.cat.axis if k.cat is not None else max(s.axis for s in k.slices)
        for c in spec.cases:
            dts = {spec.arg_dtype(c, a.name) for a in [*spec.inputs, *spec.outputs]}
            if len(dts) != 1 or not dts <= set(DTYPES):
                raise DslError(where, f"case {c.name}: a copy between dtypes {sorted(dts)}")
            if any(axis >= len(spec.arg_shape(c, n)) for n in [*ins, *outs]):
                raise DslError(where, f"case {c.name}: a tensor has no axis {axis}")

    def pieces(self) -> list[tuple[str, str]]:
        """(source, destination) of each piece, in order."""
        k = self.k
        if k.cat is not None:
            return [(x.name, k.cat.out.name) for x in k.cat.xs]
        return [(s.x.name, s.out.name) for s in k.slices]

    def fields(self) -> list[tuple[str, str, str]]:
        out = [("uint32_t", "tileElems", "elements of a UB tile")]
        for i, (src, dst) in enumerate(self.pieces()):
            out += [
                ("uint32_t", f"outer{i}", f"rows of {src} -> {dst}"),
                ("uint64_t", f"len{i}", "elements a row copied"),
                ("uint64_t", f"srcPitch{i}", f"elements between rows of {src}"),
                ("uint64_t", f"srcStart{i}", f"the first element of a row of {src}"),
                ("uint64_t", f"dstPitch{i}", f"elements between rows of {dst}"),
                ("uint64_t", f"dstStart{i}", f"the first element of a row of {dst}"),
            ]
        return out

    def _calls(self) -> list[str]:
        """The entry's copies: one Rows call per piece."""
        return [
            f"  op.Rows({src}, {dst}, t.outer{i}, t.len{i}, t.srcPitch{i}, t.srcStart{i}, "
            f"t.dstPitch{i}, t.dstStart{i});"
            for i, (src, dst) in enumerate(self.pieces())
        ]

    def kernel_source(self) -> str:
        gm = ", ".join(f"GM_ADDR {n}" for n in self._gm_args())
        rows = self._calls()
        first_out = self.spec.outputs[0].name
        return "\n".join(
            [
                *self.prelude(),
                "// Generated from the tile DSL: rows copied between tensors, tile by tile through UB.",
                "template <typename T>",
                f"class {self.cls} {{",
                " public:",
                "  __aicore__ inline void Init(uint32_t tileElems) {",
                "    this->tileElems = tileElems;",
                "    pipe.InitBuffer(queue, BUFFER_NUM, tileElems * sizeof(T));",
                "  }",
                "  // len elements of each of outer rows: x's from srcStart (rows srcPitch apart) to",
                "  // y's from dstStart (rows dstPitch apart)",
                "  __aicore__ inline void Rows(GM_ADDR x, GM_ADDR y, uint32_t outer, uint64_t len, "
                "uint64_t srcPitch,",
                "                              uint64_t srcStart, uint64_t dstPitch, uint64_t dstStart) {",
                "    if (len == 0 || outer == 0) return;",
                "    xGm.SetGlobalBuffer((__gm__ T*)x, (outer - 1) * srcPitch + srcStart + len);",
                "    yGm.SetGlobalBuffer((__gm__ T*)y, (outer - 1) * dstPitch + dstStart + len);",
                "    const uint32_t chunk = len < tileElems ? static_cast<uint32_t>(len) : tileElems;",
                "    const uint32_t chunkPad = AlignUp(chunk, static_cast<uint32_t>(32 / sizeof(T)));",
                "    uint32_t rowsPer = tileElems / chunkPad;",
                "    rowsPer = rowsPer < outer ? rowsPer : outer;",
                "    rowsPer = rowsPer < 4095 ? rowsPer : 4095;  // DataCopyPad's blockCount",
                "    const uint32_t colTiles = static_cast<uint32_t>((len + chunk - 1) / chunk);",
                "    const uint32_t tiles = (outer + rowsPer - 1) / rowsPer * colTiles;",
                "    for (uint32_t it = 0; it < tiles; ++it, ++seq) {",
                "      if (seq % GetBlockNum() != GetBlockIdx()) continue;",
                "      const uint64_t r0 = it / colTiles * rowsPer;",
                "      const uint64_t c0 = static_cast<uint64_t>(it % colTiles) * chunk;",
                "      const uint32_t nr = outer - r0 < rowsPer ? static_cast<uint32_t>(outer - r0) : rowsPer;",
                "      const uint32_t nc = len - c0 < chunk ? static_cast<uint32_t>(len - c0) : chunk;",
                "      const uint32_t bytes = nc * sizeof(T);",
                "      const uint32_t gap = (chunkPad * sizeof(T) - AlignUp(bytes, 32u)) / 32;  "
                "// UB rows pitched chunkPad",
                "      LocalTensor<T> tile = queue.AllocTensor<T>();",
                "      DataCopyPad(tile, xGm[r0 * srcPitch + srcStart + c0],",
                "                  DataCopyExtParams{static_cast<uint16_t>(nr), bytes, "
                "static_cast<uint32_t>((srcPitch - nc) * sizeof(T)), gap, 0},",
                "                  DataCopyPadExtParams<T>{false, 0, 0, 0});",
                "      queue.EnQue(tile);",
                "      tile = queue.DeQue<T>();",
                "      DataCopyPad(yGm[r0 * dstPitch + dstStart + c0], tile,",
                "                  DataCopyExtParams{static_cast<uint16_t>(nr), bytes, gap, "
                "static_cast<uint32_t>((dstPitch - nc) * sizeof(T)), 0});",
                "      queue.FreeTensor(tile);",
                "    }",
                "  }",
                "",
                " private:",
                "  TPipe pipe;",
                "  TQueBind<TPosition::VECIN, TPosition::VECOUT, BUFFER_NUM> queue;",
                "  GlobalTensor<T> xGm, yGm;",
                "  uint32_t tileElems;",
                "  uint32_t seq = 0;  // tiles numbered across the pieces: core i takes i, i + blockDim, ...",
                "};",
                "",
                f'extern "C" __global__ __aicore__ void {self.spec.kernel}({gm}, GM_ADDR workspace, '
                "GM_ADDR tiling) {",
                "  GET_TILING_DATA(t, tiling);",
                f"  {self.cls}<DTYPE_{first_out.upper()}> op;",
                "  op.Init(t.tileElems);",
                *rows,
                "}",
                "",
            ]
        )

    def _shape(self, name: str) -> str:
        kind, idx = self._arg_index(name)
        return f"context->Get{kind}Shape({idx})->GetStorageShape()"

    def _concat_host(self) -> list[str]:
        job = self.k.cat
        assert job is not None
        out = [
            f"  const gert::Shape& y = {self._shape(job.out.name)};",
            f"  const size_t axis = {job.axis};",
            "  const uint64_t outer = Prod(y, 0, axis), inner = Prod(y, axis + 1, y.GetDimNum());",
            "  const uint64_t rowSize = outer * inner, dstPitch = y.GetDim(axis) * inner;",
            "  uint64_t offset = 0;  // along the axis",
        ]
        for i, x in enumerate(job.xs):
            out += [
                f"  const uint64_t len{i} = rowSize == 0 ? 0 : "
                f"{self._shape(x.name)}.GetShapeSize() / rowSize * inner;",
                *_piece(i, "  ", f"len{i}", f"len{i}", "0", "dstPitch", "offset"),
                f"  offset += len{i};",
            ]
        return out

    def _slices_host(self) -> list[str]:
        out = []
        for i, s in enumerate(self.k.slices):
            start = f"{s.start}" if s.start is not None else f"full - n - {s.end}"
            out += [
                "  {",
                f"    const gert::Shape& x = {self._shape(s.x.name)};",
                f"    const size_t axis = {s.axis};",
                "    const uint64_t outer = Prod(x, 0, axis), inner = Prod(x, axis + 1, x.GetDimNum());",
                "    const int64_t full = x.GetDim(axis);",
                f"    const int64_t n = outer * inner == 0 ? 0 : {self._shape(s.out.name)}.GetShapeSize() "
                "/ static_cast<int64_t>(outer * inner);",
                f"    const int64_t start = {start};",
                "    if (start < 0 || start + n > full) return ge::GRAPH_FAILED;",
                *_piece(i, "    ", "n * inner", "full * inner", "start * inner", "n * inner", "0"),
                "  }",
            ]
        return out

    def _host_body(self) -> list[str]:
        return self._concat_host() if self.k.cat is not None else self._slices_host()

    def host_source(self) -> str:
        s = self.sched
        body = self._host_body()
        return "\n".join(
            [
                *self.host_prelude(),
                "// Generated from the tile DSL: rows copied between tensors.",
                f"constexpr uint32_t BLOCK_DIM = {s.block_dim};  // @tune block_dim in [1, 48] step 1",
                f"constexpr uint32_t TILE_LENGTH = {s.tile_length};  "
                "// @tune tile_length in [256, 32768] step 256",
                f"constexpr uint32_t BUFFER_NUM = {s.buffer_num};  // the kernel's queue depth",
                "",
                "static uint64_t Prod(const gert::Shape& s, size_t from, size_t to) {",
                "  uint64_t n = 1;",
                "  for (size_t i = from; i < to; ++i) n *= s.GetDim(i);",
                "  return n;",
                "}",
                "",
                "static ge::graphStatus TilingFunc(gert::TilingContext* context) {",
                f"  {self.tiling} tiling;",
                "  uint32_t typeSize = 0;",
                "  ge::TypeUtils::GetDataTypeLength(context->GetOutputDesc(0)->GetDataType(), typeSize);",
                "  if (typeSize == 0) return ge::GRAPH_FAILED;",
                "  auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());",
                "  uint64_t ubSize = 0;",
                "  platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);",
                "  // a whole number of 32 B blocks a tile, BUFFER_NUM tiles in UB",
                "  const uint64_t fit = ubSize / BUFFER_NUM / typeSize / (32 / typeSize) * (32 / typeSize);",
                "  tiling.set_tileElems(static_cast<uint32_t>(std::min<uint64_t>(TILE_LENGTH, fit)));",
                *body,
                "  const uint32_t cores = std::min<uint32_t>(BLOCK_DIM, platform.GetCoreNumAiv());",
                "  context->SetBlockDim(std::max<uint32_t>(1, cores));",
                *self.host_end(["  context->GetWorkspaceSizes(1)[0] = 0;"]),
            ]
        )


class PermuteLowering(CopyLowering):
    """A transpose of two axis groups with whole rows after them: x seen as [batch, rows, cols,
    inner] -> y [batch, cols, rows, inner], each (batch, row) of x one piece of `cols` rows of
    `inner` elements (or each (batch, col), whichever makes fewer pieces), copied into place."""

    def _check(self) -> None:
        self.kind = "copy"
        check_transpose(self.k, self.spec, DTYPES)
        if self.k.loops:
            raise DslError(
                self.k.loops[0].where, "element-wise work beside a transpose that moves rows"
            )

    def fields(self) -> list[tuple[str, str, str]]:
        return [
            ("uint32_t", "tileElems", "elements of a UB tile"),
            ("uint64_t", "batch", "elements of the axes before the groups"),
            ("uint64_t", "rows", "elements of the first group"),
            ("uint64_t", "cols", "elements of the second group"),
            ("uint64_t", "inner", "elements of the axes after them (a row moved whole)"),
        ]

    def _calls(self) -> list[str]:
        job = self.k.swap
        assert job is not None
        x, y = job.x.name, job.out.name
        return [
            "  // y[b, c, r, :] = x[b, r, c, :]",
            "  for (uint64_t b = 0; b < t.batch; ++b) {",
            "    if (t.rows <= t.cols) {  // per row of x: its cols rows, rows * inner apart in y",
            "      for (uint64_t r = 0; r < t.rows; ++r) {",
            f"        op.Rows({x}, {y}, t.cols, t.inner, t.inner, (b * t.rows + r) * t.cols * t.inner, "
            "t.rows * t.inner, (b * t.cols * t.rows + r) * t.inner);",
            "      }",
            "    } else {  // per col of x: its rows rows, cols * inner apart in x",
            "      for (uint64_t c = 0; c < t.cols; ++c) {",
            f"        op.Rows({x}, {y}, t.rows, t.inner, t.cols * t.inner, (b * t.rows * t.cols + c) * "
            "t.inner, t.inner, (b * t.cols + c) * t.rows * t.inner);",
            "      }",
            "    }",
            "  }",
        ]

    def _host_body(self) -> list[str]:
        job = self.k.swap
        assert job is not None
        p, q, e = job.groups or (0, 0, 0)
        return [
            f"  const gert::Shape& x = {self._shape(job.x.name)};",
            f"  if (x.GetDimNum() < {e}) return ge::GRAPH_FAILED;",
            f"  tiling.set_batch(Prod(x, 0, {p}));",
            f"  tiling.set_rows(Prod(x, {p}, {q}));",
            f"  tiling.set_cols(Prod(x, {q}, {e}));",
            f"  tiling.set_inner(Prod(x, {e}, x.GetDimNum()));",
        ]


class RepeatLowering(CopyLowering):
    """x repeated along an axis: x seen as [outer, len] (outer the axes up to the axis with
    `interleave`, before it without), each of the `times` copies one piece of outer rows of
    len elements, times * len apart in y."""

    def _check(self) -> None:
        spec, job = self.spec, self.k.rep
        assert job is not None
        self.kind = "copy"
        check_one_to_one(spec, job, "repeat")
        for c in spec.cases:
            check_same_dtype(spec, c, job, "repeat", DTYPES)
            if len(spec.arg_shape(c, job.x.name)) <= job.axis:
                raise DslError(job.where, f"case {c.name}: {job.x.name} has no axis {job.axis}")

    def fields(self) -> list[tuple[str, str, str]]:
        return [
            ("uint32_t", "tileElems", "elements of a UB tile"),
            ("uint32_t", "outer", "rows of x"),
            ("uint64_t", "len", "elements of a row (copied times times a row of y)"),
        ]

    def _calls(self) -> list[str]:
        job = self.k.rep
        assert job is not None
        x, y = job.x.name, job.out.name
        return [
            f"  for (uint32_t i = 0; i < {job.times}; ++i) {{  // copy i of each row",
            f"    op.Rows({x}, {y}, t.outer, t.len, t.len, 0, {job.times} * t.len, i * t.len);",
            "  }",
        ]

    def _host_body(self) -> list[str]:
        job = self.k.rep
        assert job is not None
        split = job.axis + 1 if job.interleave else job.axis
        return [
            f"  const gert::Shape& x = {self._shape(job.x.name)};",
            f"  tiling.set_outer(static_cast<uint32_t>(Prod(x, 0, {split})));",
            f"  tiling.set_len(Prod(x, {split}, x.GetDimNum()));",
        ]


# a fill's Duplicate takes these (the copies take any dtype)
FILL_DTYPES = ("float16", "float32", "int32")

FILL_METHOD = """\
  // len elements of each of outer rows of y from dstStart (rows dstPitch apart) set to value
  __aicore__ inline void Fill(GM_ADDR y, uint32_t outer, uint64_t len, uint64_t dstPitch, uint64_t dstStart,
                              T value) {
    if (len == 0 || outer == 0) return;
    yGm.SetGlobalBuffer((__gm__ T*)y, (outer - 1) * dstPitch + dstStart + len);
    const uint32_t chunk = len < tileElems ? static_cast<uint32_t>(len) : tileElems;
    const uint32_t chunkPad = AlignUp(chunk, static_cast<uint32_t>(32 / sizeof(T)));
    uint32_t rowsPer = tileElems / chunkPad;
    rowsPer = rowsPer < outer ? rowsPer : outer;
    rowsPer = rowsPer < 4095 ? rowsPer : 4095;  // DataCopyPad's blockCount
    const uint32_t colTiles = static_cast<uint32_t>((len + chunk - 1) / chunk);
    const uint32_t tiles = (outer + rowsPer - 1) / rowsPer * colTiles;
    for (uint32_t it = 0; it < tiles; ++it, ++seq) {
      if (seq % GetBlockNum() != GetBlockIdx()) continue;
      const uint64_t r0 = it / colTiles * rowsPer;
      const uint64_t c0 = static_cast<uint64_t>(it % colTiles) * chunk;
      const uint32_t nr = outer - r0 < rowsPer ? static_cast<uint32_t>(outer - r0) : rowsPer;
      const uint32_t nc = len - c0 < chunk ? static_cast<uint32_t>(len - c0) : chunk;
      const uint32_t bytes = nc * sizeof(T);
      LocalTensor<T> tile = fillQueue.AllocTensor<T>();
      Duplicate(tile, value, nr * chunkPad);
      fillQueue.EnQue(tile);
      tile = fillQueue.DeQue<T>();
      DataCopyPad(yGm[r0 * dstPitch + dstStart + c0], tile,
                  DataCopyExtParams{static_cast<uint16_t>(nr), bytes, (chunkPad * sizeof(T) - AlignUp(bytes, 32u)) / 32,
                                    static_cast<uint32_t>((dstPitch - nc) * sizeof(T)), 0});
      fillQueue.FreeTensor(tile);
    }
  }
"""


class PlaceLowering(CopyLowering):
    """Inputs placed along an axis of an output filled with one value (torch.zeros / full,
    then writes by slice): each place one piece of rows copied, each gap between them (and
    before and after) one piece of rows filled (Duplicate into a VECOUT tile, copied out)."""

    def _check(self) -> None:
        spec, places = self.spec, self.k.places
        self.kind = "copy"
        where = places[0].where
        out = places[0].out.name
        if sorted(p.x.name for p in places) != sorted(a.name for a in spec.inputs) or [
            a.name for a in spec.outputs
        ] != [out]:
            raise DslError(where, "the places read every input of the spec once into its output")
        for c in spec.cases:
            dts = {spec.arg_dtype(c, a.name) for a in [*spec.inputs, *spec.outputs]}
            if len(dts) != 1 or not dts <= set(FILL_DTYPES):
                raise DslError(where, f"case {c.name}: places between dtypes {sorted(dts)}")

    def fields(self) -> list[tuple[str, str, str]]:
        out = [
            ("uint32_t", "tileElems", "elements of a UB tile"),
            ("uint32_t", "outer", "rows of y before the axis"),
            ("uint64_t", "inner", "elements of y after the axis"),
            ("uint64_t", "axisLen", "y's length along the axis"),
        ]
        for i, p in enumerate(self.k.places):
            out.append(("uint64_t", f"len{i}", f"{p.x.name}'s length along the axis"))
            out.append(("uint64_t", f"start{i}", f"where {p.x.name} starts along the axis"))
        for g in range(len(self.k.places) + 1):
            out += [
                ("uint64_t", f"gapStart{g}", "where a filled gap starts along the axis"),
                ("uint64_t", f"gapLen{g}", "its length"),
            ]
        return out

    def kernel_source(self) -> str:
        text = super().kernel_source()
        text = text.replace(
            "    pipe.InitBuffer(queue, BUFFER_NUM, tileElems * sizeof(T));\n",
            "    pipe.InitBuffer(queue, BUFFER_NUM, tileElems * sizeof(T));\n"
            "    pipe.InitBuffer(fillQueue, BUFFER_NUM, tileElems * sizeof(T));\n",
        )
        text = text.replace("\n private:\n", "\n" + FILL_METHOD + "\n private:\n")
        return text.replace(
            "  GlobalTensor<T> xGm, yGm;\n",
            "  TQue<TPosition::VECOUT, BUFFER_NUM> fillQueue;\n  GlobalTensor<T> xGm, yGm;\n",
        )

    def _calls(self) -> list[str]:
        places = self.k.places
        y = places[0].out.name
        value = f"static_cast<DTYPE_{y.upper()}>({float_literal(places[0].fill)})"
        pitch = "t.axisLen * t.inner"
        out = [
            f"  op.Rows({p.x.name}, {y}, t.outer, t.len{i} * t.inner, t.len{i} * t.inner, 0, "
            f"{pitch}, t.start{i} * t.inner);"
            for i, p in enumerate(places)
        ]
        out += [
            f"  op.Fill({y}, t.outer, t.gapLen{g} * t.inner, {pitch}, t.gapStart{g} * t.inner, "
            f"{value});"
            for g in range(len(places) + 1)
        ]
        return out

    def _host_body(self) -> list[str]:
        places = self.k.places
        axis = places[0].axis
        out = [
            f"  const gert::Shape& y = {self._shape(places[0].out.name)};",
            f"  if (y.GetDimNum() <= {axis}) return ge::GRAPH_FAILED;",
            f"  const uint64_t outer = Prod(y, 0, {axis}), inner = Prod(y, {axis + 1}, y.GetDimNum());",
            f"  const uint64_t axisLen = y.GetDim({axis});",
            "  tiling.set_outer(static_cast<uint32_t>(outer));",
            "  tiling.set_inner(inner);",
            "  tiling.set_axisLen(axisLen);",
            "  // two queues (the copies' and the fills') share UB",
            "  tiling.set_tileElems(tiling.get_tileElems() / 2 / (32 / typeSize) * (32 / typeSize));",
            "  // the places in order along the axis: each gap before, between and after is filled",
            "  uint64_t end = 0;  // where the last place ends",
        ]
        # those placed by start in order, then those placed by end, nearest the end last
        order = sorted(
            range(len(places)),
            key=lambda i: (0, places[i].start) if places[i].end is None else (1, -places[i].end),
        )
        for g, i in enumerate(order):
            p = places[i]
            begin = f"{p.start}" if p.end is None else f"axisLen - {p.end} - len{i}"
            out += [
                f"  const uint64_t len{i} = outer * inner == 0 ? 0 : "
                f"{self._shape(p.x.name)}.GetShapeSize() / (outer * inner);",
                f"  const int64_t start{i} = static_cast<int64_t>({begin});",
                f"  if (start{i} < static_cast<int64_t>(end) || start{i} + len{i} > axisLen) "
                "return ge::GRAPH_FAILED;",
                f"  tiling.set_len{i}(len{i});",
                f"  tiling.set_start{i}(static_cast<uint64_t>(start{i}));",
                f"  tiling.set_gapStart{g}(end);",
                f"  tiling.set_gapLen{g}(start{i} - end);",
                f"  end = start{i} + len{i};",
            ]
        last = len(places)
        out += [f"  tiling.set_gapStart{last}(end);", f"  tiling.set_gapLen{last}(axisLen - end);"]
        return out
