"""Lowering of a DSL `gather`: y[..., j] = x[..., index[..., j]] along the last axis.

Rows of x (cx elements) and of the index (cy) come in by multi-row DataCopyPads, pitched P
elements (cy rounded up to 16, a 32 B multiple for every dtype); the index becomes byte offsets
(an int64 index through fp32: Cast, Cast to int32, then Muls by the element size) and each row
is one `Gather` of cy lanes from its row of x, whose bounds the simulator checks. A shared index
(index_select: one row [cy] for every row) is turned into offsets once per core. Core i takes the
tiles of rows i, i + blockDim, ...
"""

from __future__ import annotations

from ascend_gym.dsl.lang import DslError
from ascend_gym.dsl.lower import Lowering

DATA = ("float16", "bfloat16", "float32", "int32")  # Gather's 2- and 4-byte lanes
INDEX = ("int32", "int64")


class GatherLowering(Lowering):
    """A kernel of one gather -> package files."""

    def _check(self) -> None:
        spec, job = self.spec, self.k.take
        assert job is not None
        self.kind = "gather"
        if sorted(a.name for a in spec.inputs) != sorted([job.x.name, job.index.name]) or [
            o.name for o in spec.outputs
        ] != [job.out.name]:
            raise DslError(job.where, "a gather kernel has the spec's data, index and output")
        if any(a.dynamic for a in spec.inputs):
            raise DslError(job.where, "a TensorList input is not lowered")
        for c in spec.cases:
            dx, dy = spec.arg_dtype(c, job.x.name), spec.arg_dtype(c, job.out.name)
            di = spec.arg_dtype(c, job.index.name)
            if dx != dy or dx not in DATA or di not in INDEX:
                raise DslError(job.where, f"case {c.name}: a gather of {dx} by {di} into {dy}")

    def fields(self) -> list[tuple[str, str, str]]:
        return [
            ("uint32_t", "rows", "rows of x and y"),
            ("uint32_t", "cx", "x's last axis"),
            ("uint32_t", "cy", "y's last axis (the index's)"),
            ("uint32_t", "rowsPerTile", "rows a UB tile"),
        ]

    def kernel_source(self) -> str:
        job = self.k.take
        assert job is not None
        x, i, y = job.x.name, job.index.name, job.out.name
        gm = ", ".join(f"GM_ADDR {n}" for n in self._gm_args())
        shared = str(job.shared).lower()
        return "\n".join(
            [
                *self.prelude(),
                "// Generated from the tile DSL: a gather along the last axis, a Gather per row.",
                f"constexpr bool SHARED_INDEX = {shared};  // one index row for every row",
                "",
                "template <typename T, typename I>",
                f"class {self.cls} {{",
                "  using B = typename std::conditional<sizeof(T) == 2, uint16_t, uint32_t>::type;",
                "",
                " public:",
                "  __aicore__ inline void Init(GM_ADDR x, GM_ADDR index, GM_ADDR y, uint32_t rows, "
                "uint32_t cx, uint32_t cy, uint32_t rowsPerTile) {",
                "    this->rows = rows, this->cx = cx, this->cy = cy, this->rowsPerTile = rowsPerTile;",
                "    cxPad = AlignUp(cx, 16u), pitch = AlignUp(cy, 16u);",
                "    xGm.SetGlobalBuffer((__gm__ T*)x, static_cast<uint64_t>(rows) * cx);",
                "    iGm.SetGlobalBuffer((__gm__ I*)index, SHARED_INDEX ? cy : "
                "static_cast<uint64_t>(rows) * cy);",
                "    yGm.SetGlobalBuffer((__gm__ T*)y, static_cast<uint64_t>(rows) * cy);",
                "    const uint32_t idxRows = SHARED_INDEX ? 1 : rowsPerTile;",
                "    pipe.InitBuffer(xQueue, BUFFER_NUM, rowsPerTile * cxPad * sizeof(T));",
                "    pipe.InitBuffer(iQueue, BUFFER_NUM, idxRows * pitch * sizeof(I));",
                "    pipe.InitBuffer(yQueue, BUFFER_NUM, rowsPerTile * pitch * sizeof(T));",
                "    pipe.InitBuffer(offsetBuf, idxRows * pitch * sizeof(int32_t));",
                "    pipe.InitBuffer(floatBuf, idxRows * pitch * sizeof(float));",
                "    if (SHARED_INDEX) {",
                "      CopyIndex(0, 1);",
                "      Offsets(1);",
                "    }",
                "  }",
                "  __aicore__ inline void Process() {",
                "    const uint32_t tiles = (rows + rowsPerTile - 1) / rowsPerTile;",
                "    for (uint32_t t = GetBlockIdx(); t < tiles; t += GetBlockNum()) {",
                "      const uint32_t r0 = t * rowsPerTile;",
                "      const uint32_t nr = rows - r0 < rowsPerTile ? rows - r0 : rowsPerTile;",
                "      CopyIn(r0, nr);",
                "      if (!SHARED_INDEX) {",
                "        CopyIndex(r0, nr);",
                "        Offsets(nr);",
                "      }",
                "      Compute(nr);",
                "      CopyOut(r0, nr);",
                "    }",
                "  }",
                "",
                " private:",
                "  // nr rows of n elements from row r0 of g (rows n apart) into a tile pitched `pad`",
                "  template <typename U>",
                "  __aicore__ inline void Rows(const LocalTensor<U>& dst, const GlobalTensor<U>& g, "
                "uint32_t r0, uint32_t nr, uint32_t n, uint32_t pad) {",
                "    const uint32_t bytes = n * sizeof(U);",
                "    DataCopyPad(dst, g[static_cast<uint64_t>(r0) * n],",
                "                DataCopyExtParams{static_cast<uint16_t>(nr), bytes, 0, "
                "static_cast<uint32_t>((pad * sizeof(U) - AlignUp(bytes, 32u)) / 32), 0},",
                "                DataCopyPadExtParams<U>{false, 0, 0, 0});",
                "  }",
                "  __aicore__ inline void CopyIn(uint32_t r0, uint32_t nr) {",
                "    LocalTensor<T> xt = xQueue.AllocTensor<T>();",
                "    Rows(xt, xGm, r0, nr, cx, cxPad);",
                "    xQueue.EnQue(xt);",
                "  }",
                "  __aicore__ inline void CopyIndex(uint32_t r0, uint32_t nr) {",
                "    LocalTensor<I> it = iQueue.AllocTensor<I>();",
                "    Rows(it, iGm, r0, nr, cy, pitch);",
                "    iQueue.EnQue(it);",
                "  }",
                "  // the index as byte offsets into a row of x (int64 through fp32: exact below 2^24)",
                "  __aicore__ inline void Offsets(uint32_t nr) {",
                "    LocalTensor<I> it = iQueue.DeQue<I>();",
                "    LocalTensor<int32_t> off = offsetBuf.Get<int32_t>();",
                "    const uint32_t n = nr * pitch;",
                "    if constexpr (std::is_same<I, int32_t>::value) {",
                "      Muls(off, it, static_cast<int32_t>(sizeof(T)), n);",
                "    } else {",
                "      LocalTensor<float> f = floatBuf.Get<float>();",
                "      Cast(f, it, RoundMode::CAST_NONE, n);",
                "      Cast(off, f, RoundMode::CAST_RINT, n);",
                "      Muls(off, off, static_cast<int32_t>(sizeof(T)), n);",
                "    }",
                "    iQueue.FreeTensor(it);",
                "  }",
                "  __aicore__ inline void Compute(uint32_t nr) {",
                "    LocalTensor<T> xt = xQueue.DeQue<T>();",
                "    LocalTensor<T> yt = yQueue.AllocTensor<T>();",
                "    LocalTensor<uint32_t> off = offsetBuf.Get<uint32_t>();",
                "    for (uint32_t r = 0; r < nr; ++r) {",
                "      const LocalTensor<B> src = xt[r * cxPad].template ReinterpretCast<B>();",
                "      Gather(yt[r * pitch].template ReinterpretCast<B>(), src, "
                "off[SHARED_INDEX ? 0 : r * pitch], 0, cy);",
                "    }",
                "    yQueue.EnQue(yt);",
                "    xQueue.FreeTensor(xt);",
                "  }",
                "  __aicore__ inline void CopyOut(uint32_t r0, uint32_t nr) {",
                "    LocalTensor<T> yt = yQueue.DeQue<T>();",
                "    const uint32_t bytes = cy * sizeof(T);",
                "    DataCopyPad(yGm[static_cast<uint64_t>(r0) * cy], yt,",
                "                DataCopyExtParams{static_cast<uint16_t>(nr), bytes, "
                "static_cast<uint32_t>((pitch * sizeof(T) - AlignUp(bytes, 32u)) / 32), 0, 0});",
                "    yQueue.FreeTensor(yt);",
                "  }",
                "",
                "  TPipe pipe;",
                "  TQue<TPosition::VECIN, BUFFER_NUM> xQueue, iQueue;",
                "  TQue<TPosition::VECOUT, BUFFER_NUM> yQueue;",
                "  TBuf<TPosition::VECCALC> offsetBuf, floatBuf;",
                "  GlobalTensor<T> xGm, yGm;",
                "  GlobalTensor<I> iGm;",
                "  uint32_t rows, cx, cy, rowsPerTile, cxPad, pitch;",
                "};",
                "",
                f'extern "C" __global__ __aicore__ void {self.spec.kernel}({gm}, GM_ADDR workspace, '
                "GM_ADDR tiling) {",
                "  GET_TILING_DATA(t, tiling);",
                "  if (t.rows == 0 || t.cy == 0) return;  // an empty output: nothing to gather",
                f"  {self.cls}<DTYPE_{x.upper()}, DTYPE_{i.upper()}> op;",
                f"  op.Init({x}, {i}, {y}, t.rows, t.cx, t.cy, t.rowsPerTile);",
                "  op.Process();",
                "}",
                "",
            ]
        )

    def host_source(self) -> str:
        job = self.k.take
        assert job is not None
        s = self.sched
        kx, ix = self._arg_index(job.x.name)
        ki, ii = self._arg_index(job.index.name)
        return "\n".join(
            [
                *self.host_prelude(),
                "// Generated from the tile DSL: a gather along the last axis.",
                f"constexpr uint32_t BLOCK_DIM = {s.block_dim};  // @tune block_dim in [1, 48] step 1",
                f"constexpr uint32_t ROWS_PER_TILE = {s.rows_per_tile};  "
                "// @tune rows_per_tile in [1, 512] step 1",
                f"constexpr uint32_t BUFFER_NUM = {s.buffer_num};  // the kernel's queue depth",
                "",
                "static ge::graphStatus TilingFunc(gert::TilingContext* context) {",
                f"  {self.tiling} tiling;",
                f"  const gert::Shape& x = context->Get{kx}Shape({ix})->GetStorageShape();",
                "  const gert::Shape& y = context->GetOutputShape(0)->GetStorageShape();",
                "  if (x.GetDimNum() == 0 || y.GetDimNum() == 0) return ge::GRAPH_FAILED;",
                "  const uint64_t cx = x.GetDim(x.GetDimNum() - 1), cy = y.GetDim(y.GetDimNum() - 1);",
                "  const uint64_t rows = cx == 0 ? 0 : x.GetShapeSize() / cx;",
                "  uint32_t size = 0, indexSize = 0;",
                f"  ge::TypeUtils::GetDataTypeLength(context->Get{kx}Desc({ix})->GetDataType(), size);",
                f"  ge::TypeUtils::GetDataTypeLength(context->Get{ki}Desc({ii})->GetDataType(), "
                "indexSize);",
                "  if (size == 0 || indexSize == 0) return ge::GRAPH_FAILED;",
                "  auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());",
                "  uint64_t ubSize = 0;",
                "  platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);",
                "  const uint64_t cxPad = (cx + 15) / 16 * 16, pitch = (cy + 15) / 16 * 16;",
                "  // queued x, index and y rows, and the offsets and fp32 index rows, fit UB",
                "  auto bytes = [&](uint64_t r) {",
                "    return BUFFER_NUM * r * (cxPad * size + pitch * (indexSize + size)) + r * pitch * 8;",
                "  };",
                "  uint64_t perTile = std::max<uint64_t>(1, std::min<uint64_t>(ROWS_PER_TILE, rows));",
                "  while (perTile > 1 && bytes(perTile) > ubSize) perTile /= 2;",
                "  if (bytes(perTile) > ubSize) return ge::GRAPH_FAILED;  // a row longer than UB",
                "  tiling.set_rows(static_cast<uint32_t>(rows));",
                "  tiling.set_cx(static_cast<uint32_t>(cx));",
                "  tiling.set_cy(static_cast<uint32_t>(cy));",
                "  tiling.set_rowsPerTile(static_cast<uint32_t>(perTile));",
                "  const uint64_t tiles = (rows + perTile - 1) / perTile;",
                "  const uint64_t cores = std::min<uint64_t>(BLOCK_DIM, platform.GetCoreNumAiv());",
                "  context->SetBlockDim(static_cast<uint32_t>(std::max<uint64_t>(1, "
                "std::min(cores, tiles))));",
                *self.host_end(["  context->GetWorkspaceSizes(1)[0] = 0;"]),
            ]
        )
