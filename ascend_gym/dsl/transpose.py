"""Lowering of a DSL `transpose`: y[..., j, i] = x[..., i, j], a copy through UB.

The work is tiles of tileRows x tileCols elements of one matrix (one batch index): a tile's rows
come in by one multi-row DataCopyPad (pitched tileCols in UB), a `Gather` reads them column by
column into a tile pitched tileRows, and one multi-row DataCopyPad writes its columns out as
rows of y. The gather's byte offsets depend only on the tile's shape, so each core builds them
once (CreateVecIndex, then one Muls and an Adds per column). Core i takes the tiles i,
i + blockDim, ...; a short tile at an edge moves only its valid rows and columns.
"""

from __future__ import annotations

from ascend_core.package import OperatorSpec
from ascend_gym.dsl.compute import LoopLowering
from ascend_gym.dsl.lang import DslError, Kernel
from ascend_gym.dsl.lower import HELPERS, Lowering, check_one_to_one, check_same_dtype

# Gather moves 2- and 4-byte lanes (as their bits: any dtype of that width)
WIDTHS = {"float16": 2, "bfloat16": 2, "float32": 4, "int32": 4}


def check_transpose(k: Kernel, spec: OperatorSpec, dtypes: tuple[str, ...]) -> None:
    """A transpose kernel reads the spec's one input into its one output, of one of `dtypes`."""
    job = k.swap
    assert job is not None
    check_one_to_one(spec, job, "transpose")
    if any(a.dynamic for a in spec.inputs):
        raise DslError(job.where, "a TensorList input is not lowered")
    for c in spec.cases:
        check_same_dtype(spec, c, job, "transpose", dtypes)
        if job.groups is not None and len(spec.arg_shape(c, job.x.name)) < job.groups[2]:
            raise DslError(job.where, f"case {c.name}: {job.x.name} has no axis group")


class TransposeLowering(Lowering):
    """A kernel of one transpose -> package files."""

    def _check(self) -> None:
        self.kind = "transpose"
        check_transpose(self.k, self.spec, tuple(WIDTHS))
        self.low: LoopLowering | None = None
        if self.k.loops:  # a transposed() loop: its work on each tile of x before the Gather
            (lp,) = self.k.loops
            self.low = LoopLowering(lp, {n: "T" for n in self.k.tensors})
            self._compute_body(self.low, row=False)
            if self.low.n_masks:
                raise DslError(lp.where, "comparisons are not lowered in a transposed() loop")

    def _work(self) -> list[str]:
        """Compute's element-wise work on the tile of x, into the tile the Gather reads."""
        if self.low is None:
            return []
        job = self.k.swap
        assert job is not None
        return [
            f"    LocalTensor<T> {job.x.name} = in;",
            f"    LocalTensor<T> {job.out.name} = workBuf.Get<T>();",
            "    const uint32_t n = tileRows * tileCols;  // padding lanes too, never stored",
            *(f"    {line}" for line in self.low.lines),
            f"    in = {job.out.name};",
        ]

    def _work_buffers(self) -> tuple[list[str], list[str], int]:
        """InitBuffer lines, TBuf names and fp32 temporaries of the work (none without it)."""
        if self.low is None:
            return [], [], 0
        n = self.low.n_bufs
        init = ["    pipe.InitBuffer(workBuf, lanes * sizeof(T));"]
        init += [f"    pipe.InitBuffer(tmpBuf{i}, lanes * sizeof(float));" for i in range(n)]
        return init, ["workBuf", *(f"tmpBuf{i}" for i in range(n))], n

    def fields(self) -> list[tuple[str, str, str]]:
        return [
            ("uint32_t", "batch", "matrices"),
            ("uint32_t", "rows", "rows of x (columns of y)"),
            ("uint32_t", "cols", "columns of x (rows of y)"),
            ("uint32_t", "tileRows", "rows of x a tile (a multiple of 16)"),
            ("uint32_t", "tileCols", "columns of x a tile (a multiple of 16)"),
            *(("float", a, "attr") for a in self.k.attrs),
        ]

    def kernel_source(self) -> str:
        job = self.k.swap
        assert job is not None
        x, y = job.x.name, job.out.name
        work = self._work()
        work_init, work_bufs, _ = self._work_buffers()
        return "\n".join(
            [
                *self.prelude(),
                *([HELPERS] if self.low is not None else []),
                "// Generated from the tile DSL: y[..., j, i] = x[..., i, j], tile by tile through UB.",
                "template <typename T>",
                f"class {self.cls} {{",
                "  // Gather moves lanes as their bits: the unsigned type of T's width",
                "  using B = typename std::conditional<sizeof(T) == 2, uint16_t, uint32_t>::type;",
                "",
                " public:",
                "  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, uint32_t batch, uint32_t rows, "
                "uint32_t cols, uint32_t tileRows, uint32_t tileCols"
                + "".join(f", float {a}" for a in self.k.attrs)
                + ") {",
                *(f"    this->{a} = {a};" for a in self.k.attrs),
                "    this->batch = batch, this->rows = rows, this->cols = cols;",
                "    this->tileRows = tileRows, this->tileCols = tileCols;",
                "    const uint64_t n = static_cast<uint64_t>(batch) * rows * cols;",
                f"    xGm.SetGlobalBuffer((__gm__ T*){x}, n);",
                f"    yGm.SetGlobalBuffer((__gm__ T*){y}, n);",
                "    const uint32_t lanes = tileRows * tileCols;",
                "    pipe.InitBuffer(inQueue, BUFFER_NUM, lanes * sizeof(T));",
                "    pipe.InitBuffer(outQueue, BUFFER_NUM, lanes * sizeof(T));",
                "    pipe.InitBuffer(offsetBuf, lanes * sizeof(int32_t));",
                *work_init,
                "    // lane (j, i) of the transposed tile reads row i, column j: byte (i * tileCols + j) * size",
                "    LocalTensor<int32_t> off = offsetBuf.Get<int32_t>();",
                "    CreateVecIndex(off, static_cast<int32_t>(0), tileRows);",
                "    Muls(off, off, static_cast<int32_t>(tileCols * sizeof(T)), tileRows);",
                "    for (uint32_t j = 1; j < tileCols; ++j) {",
                "      Adds(off[j * tileRows], off, static_cast<int32_t>(j * sizeof(T)), tileRows);",
                "    }",
                "  }",
                "  __aicore__ inline void Process() {",
                "    const uint32_t rowTiles = (rows + tileRows - 1) / tileRows;",
                "    const uint32_t colTiles = (cols + tileCols - 1) / tileCols;",
                "    const uint32_t perMatrix = rowTiles * colTiles;",
                "    const uint32_t tiles = batch * perMatrix;",
                "    for (uint32_t it = GetBlockIdx(); it < tiles; it += GetBlockNum()) {",
                "      const uint32_t b = it / perMatrix, rt = it % perMatrix / colTiles;",
                "      const uint32_t r0 = rt * tileRows, c0 = it % colTiles * tileCols;",
                "      const uint32_t nr = rows - r0 < tileRows ? rows - r0 : tileRows;",
                "      const uint32_t nc = cols - c0 < tileCols ? cols - c0 : tileCols;",
                "      const uint64_t base = static_cast<uint64_t>(b) * rows * cols;",
                "      CopyIn(base + static_cast<uint64_t>(r0) * cols + c0, nr, nc);",
                "      Compute();",
                "      CopyOut(base + static_cast<uint64_t>(c0) * rows + r0, nr, nc);",
                "    }",
                "  }",
                "",
                " private:",
                "  __aicore__ inline void CopyIn(uint64_t at, uint32_t nr, uint32_t nc) {",
                "    LocalTensor<T> in = inQueue.AllocTensor<T>();",
                "    const uint32_t rowBytes = nc * sizeof(T);",
                "    // nr rows of nc elements, pitched tileCols in UB (a 32 B multiple)",
                "    DataCopyPad(in, xGm[at],",
                "                DataCopyExtParams{static_cast<uint16_t>(nr), rowBytes, "
                "static_cast<uint32_t>((cols - nc) * sizeof(T)),",
                "                                  static_cast<uint32_t>((tileCols * sizeof(T) - "
                "AlignUp(rowBytes, 32)) / 32), 0},",
                "                DataCopyPadExtParams<T>{false, 0, 0, 0});",
                "    inQueue.EnQue(in);",
                "  }",
                "  __aicore__ inline void Compute() {",
                "    LocalTensor<T> in = inQueue.DeQue<T>();",
                *(["    LocalTensor<T> tile = in;"] if work else []),
                *work,
                "    LocalTensor<T> out = outQueue.AllocTensor<T>();",
                "    LocalTensor<uint32_t> off = offsetBuf.Get<uint32_t>();",
                "    Gather(out.template ReinterpretCast<B>(), in.template ReinterpretCast<B>(), off, 0, "
                "tileRows * tileCols);",
                "    outQueue.EnQue(out);",
                f"    inQueue.FreeTensor({'tile' if work else 'in'});",
                "  }",
                "  __aicore__ inline void CopyOut(uint64_t at, uint32_t nr, uint32_t nc) {",
                "    LocalTensor<T> out = outQueue.DeQue<T>();",
                "    const uint32_t rowBytes = nr * sizeof(T);",
                "    // nc columns of x as rows of y: nr elements each, pitched tileRows in UB",
                "    DataCopyPad(yGm[at], out,",
                "                DataCopyExtParams{static_cast<uint16_t>(nc), rowBytes, "
                "static_cast<uint32_t>((tileRows * sizeof(T) - AlignUp(rowBytes, 32)) / 32),",
                "                                  static_cast<uint32_t>((rows - nr) * sizeof(T)), 0});",
                "    outQueue.FreeTensor(out);",
                "  }",
                "",
                "  TPipe pipe;",
                "  TQue<TPosition::VECIN, BUFFER_NUM> inQueue;",
                "  TQue<TPosition::VECOUT, BUFFER_NUM> outQueue;",
                f"  TBuf<TPosition::VECCALC> {', '.join(['offsetBuf', *work_bufs])};",
                "  GlobalTensor<T> xGm, yGm;",
                "  uint32_t batch, rows, cols, tileRows, tileCols;",
                *([f"  float {', '.join(self.k.attrs)};"] if self.k.attrs else []),
                "};",
                "",
                f'extern "C" __global__ __aicore__ void {self.spec.kernel}(GM_ADDR {x}, GM_ADDR {y}, '
                "GM_ADDR workspace, GM_ADDR tiling) {",
                "  GET_TILING_DATA(t, tiling);",
                "  if (t.batch == 0) return;  // an empty tensor: nothing to move",
                f"  {self.cls}<DTYPE_{x.upper()}> op;",
                f"  op.Init({x}, {y}, t.batch, t.rows, t.cols, t.tileRows, t.tileCols"
                + "".join(f", t.{a}" for a in self.k.attrs)
                + ");",
                "  op.Process();",
                "}",
                "",
            ]
        )

    def _dims(self) -> list[str]:
        """Host lines of x as [batch, rows, cols]: the last two axes swapped, or the groups
        [p, q) and [q, rank) (the axes before p the batch)."""
        job = self.k.swap
        assert job is not None
        if job.groups is None:
            return [
                "  uint64_t batch = 1;",
                "  for (size_t i = 0; i + 2 < rank; ++i) batch *= x.GetDim(i);",
                "  const uint32_t rows = static_cast<uint32_t>(x.GetDim(rank - 2));",
                "  const uint32_t cols = static_cast<uint32_t>(x.GetDim(rank - 1));",
            ]
        p, q, _ = job.groups
        return [
            f"  if (rank < {q + 1}) return ge::GRAPH_FAILED;",
            "  uint64_t batch = 1, rows64 = 1, cols64 = 1;  // the groups [p, q) and [q, rank)",
            f"  for (size_t i = 0; i < {p}; ++i) batch *= x.GetDim(i);",
            f"  for (size_t i = {p}; i < {q}; ++i) rows64 *= x.GetDim(i);",
            f"  for (size_t i = {q}; i < rank; ++i) cols64 *= x.GetDim(i);",
            "  const uint32_t rows = static_cast<uint32_t>(rows64), cols = static_cast<uint32_t>(cols64);",
        ]

    def host_source(self) -> str:
        s = self.sched
        work_bytes = []
        if self.low is not None:  # the work's tile of T and its fp32 temporaries, a lane
            n_tmp = self._work_buffers()[2]
            work_bytes = [
                f"constexpr uint32_t WORK_TMP = {n_tmp};  // fp32 temporaries of the work"
            ]
        return "\n".join(
            [
                *self.host_prelude(),
                "// Generated from the tile DSL: a transpose of the last two axes.",
                f"constexpr uint32_t BLOCK_DIM = {s.block_dim};  // @tune block_dim in [1, 48] step 1",
                f"constexpr uint32_t TILE = {s.rows_per_tile};  "
                "// @tune rows_per_tile in [16, 256] step 16",
                f"constexpr uint32_t BUFFER_NUM = {s.buffer_num};  // the kernel's queue depth",
                *work_bytes,
                "",
                "static uint32_t Align16(uint32_t n) { return (n + 15) / 16 * 16; }",
                "",
                "static ge::graphStatus TilingFunc(gert::TilingContext* context) {",
                f"  {self.tiling} tiling;",
                "  const gert::Shape& x = context->GetInputShape(0)->GetStorageShape();",
                "  const size_t rank = x.GetDimNum();",
                "  if (rank < 2) return ge::GRAPH_FAILED;",
                *self._dims(),
                "  uint32_t typeSize = 0;",
                "  ge::TypeUtils::GetDataTypeLength(context->GetInputDesc(0)->GetDataType(), typeSize);",
                "  if (typeSize == 0) return ge::GRAPH_FAILED;",
                "  auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());",
                "  uint64_t ubSize = 0;",
                "  platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);",
                "  uint32_t tileRows = std::min(Align16(std::max(TILE, 16u)), Align16(rows));",
                "  uint32_t tileCols = std::min(Align16(std::max(TILE, 16u)), Align16(cols));",
                "  // in and out queues of the tile's elements and its uint32 gather offsets fit UB;",
                "  // one Gather of at most 8192 lanes (its repeats stay within 255 for 4-byte lanes)",
                "  auto bytes = [&]() { return (2ull * BUFFER_NUM * typeSize + 4"
                + (" + typeSize + 4ull * WORK_TMP" if self.low is not None else "")
                + ") * tileRows * tileCols; };",
                "  while ((bytes() > ubSize || tileRows * tileCols > 8192) && (tileRows > 16 || tileCols > 16)) {",
                "    if (tileRows >= tileCols) tileRows = Align16(tileRows / 2);",
                "    else tileCols = Align16(tileCols / 2);",
                "  }",
                "  const uint64_t tiles = batch * ((rows + tileRows - 1) / tileRows) * "
                "((cols + tileCols - 1) / tileCols);",
                "  const bool empty = batch * rows * cols == 0;",
                "  tiling.set_batch(empty ? 0 : static_cast<uint32_t>(batch));",
                "  tiling.set_rows(rows);",
                "  tiling.set_cols(cols);",
                "  tiling.set_tileRows(tileRows);",
                "  tiling.set_tileCols(tileCols);",
                *self._attr_host(),
                "  const uint64_t cores = std::min<uint64_t>(BLOCK_DIM, platform.GetCoreNumAiv());",
                "  const uint32_t blockDim = empty ? 1 : static_cast<uint32_t>(std::max<uint64_t>("
                "1, std::min(cores, tiles)));",
                "  context->SetBlockDim(blockDim);",
                *self.host_end(["  context->GetWorkspaceSizes(1)[0] = 0;"]),
            ]
        )
