"""Lowering of a DSL `concat`: y = the inputs joined along an axis, a copy through UB.

Seen around the axis, y is [outer, total * inner] and input i is [outer, axis_i * inner]: its
rows land in y's rows at column offset_i * inner. Each input is copied in tiles of rows x chunk
elements: one multi-row DataCopyPad in (rows pitched by the input's row), one out (pitched by
y's row), through one bound queue (VECIN -> VECOUT: MTE2 then MTE3, no vector work). The tiles
of all inputs are numbered in order and core i takes the numbers i, i + blockDim, ...
"""

from __future__ import annotations

from ascend_gym.dsl.lang import DslError
from ascend_gym.dsl.lower import Lowering

DTYPES = ("float16", "float32", "bfloat16", "int32", "int64", "int8", "uint8")


class ConcatLowering(Lowering):
    """A kernel of one concat -> package files."""

    def _check(self) -> None:
        spec, job = self.spec, self.k.cat
        assert job is not None
        self.kind = "concat"
        names = sorted(x.name for x in job.xs)
        if names != sorted(a.name for a in spec.inputs) or [o.name for o in spec.outputs] != [
            job.out.name
        ]:
            raise DslError(
                job.where, "a concat kernel joins every input of the spec into its output"
            )
        if any(a.dynamic for a in spec.inputs):
            raise DslError(job.where, "a TensorList input is not lowered")
        for c in spec.cases:
            dts = {spec.arg_dtype(c, a.name) for a in [*spec.inputs, *spec.outputs]}
            if len(dts) != 1 or not dts <= set(DTYPES):
                raise DslError(job.where, f"case {c.name}: a concat of dtypes {sorted(dts)}")
            if job.axis >= len(spec.arg_shape(c, job.out.name)):
                raise DslError(job.where, f"case {c.name}: {job.out.name} has no axis {job.axis}")

    def fields(self) -> list[tuple[str, str, str]]:
        out = [
            ("uint32_t", "outer", "rows: the product of the axes before the axis"),
            ("uint32_t", "inner", "the product of the axes after it"),
            ("uint32_t", "total", "the output's length along the axis"),
            ("uint32_t", "tileElems", "elements of a UB tile"),
        ]
        for i, x in enumerate(self.k.cat.xs):  # type: ignore[union-attr]
            out += [
                ("uint32_t", f"axis{i}", f"{x.name}'s length along the axis"),
                ("uint32_t", f"offset{i}", f"{x.name}'s offset along the output's axis"),
            ]
        return out

    def kernel_source(self) -> str:
        job = self.k.cat
        assert job is not None
        y = job.out.name
        gm = ", ".join(f"GM_ADDR {n}" for n in self._gm_args())
        pieces = [f"  op.Piece({x.name}, t.axis{i}, t.offset{i});" for i, x in enumerate(job.xs)]
        return "\n".join(
            [
                *self.prelude(),
                "// Generated from the tile DSL: inputs joined along an axis, tile by tile through UB.",
                "template <typename T>",
                f"class {self.cls} {{",
                " public:",
                "  __aicore__ inline void Init(GM_ADDR y, uint32_t outer, uint32_t inner, "
                "uint32_t total, uint32_t tileElems) {",
                "    this->outer = outer, this->inner = inner, this->tileElems = tileElems;",
                "    pitch = static_cast<uint64_t>(total) * inner;",
                "    yGm.SetGlobalBuffer((__gm__ T*)y, outer * pitch);",
                "    pipe.InitBuffer(queue, BUFFER_NUM, tileElems * sizeof(T));",
                "  }",
                "  // x as [outer, axisLen * inner] into y's rows at column offset * inner",
                "  __aicore__ inline void Piece(GM_ADDR x, uint32_t axisLen, uint32_t offset) {",
                "    const uint64_t len = static_cast<uint64_t>(axisLen) * inner;",
                "    if (len == 0 || outer == 0) return;",
                "    xGm.SetGlobalBuffer((__gm__ T*)x, outer * len);",
                "    const uint32_t chunk = len < tileElems ? static_cast<uint32_t>(len) : tileElems;",
                "    const uint32_t chunkPad = AlignUp(chunk, static_cast<uint32_t>(32 / sizeof(T)));",
                "    uint32_t rowsPer = tileElems / chunkPad;",
                "    rowsPer = rowsPer < outer ? rowsPer : outer;",
                "    rowsPer = rowsPer < 4095 ? rowsPer : 4095;  // DataCopyPad's blockCount",
                "    const uint32_t colTiles = static_cast<uint32_t>((len + chunk - 1) / chunk);",
                "    const uint32_t tiles = (outer + rowsPer - 1) / rowsPer * colTiles;",
                "    for (uint32_t it = 0; it < tiles; ++it, ++seq) {",
                "      if (seq % GetBlockNum() != GetBlockIdx()) continue;",
                "      const uint32_t r0 = it / colTiles * rowsPer;",
                "      const uint64_t c0 = static_cast<uint64_t>(it % colTiles) * chunk;",
                "      const uint32_t nr = outer - r0 < rowsPer ? outer - r0 : rowsPer;",
                "      const uint32_t nc = len - c0 < chunk ? static_cast<uint32_t>(len - c0) : chunk;",
                "      const uint32_t bytes = nc * sizeof(T);",
                "      const uint32_t gap = (chunkPad * sizeof(T) - AlignUp(bytes, 32u)) / 32;  "
                "// UB rows pitched chunkPad",
                "      LocalTensor<T> tile = queue.AllocTensor<T>();",
                "      DataCopyPad(tile, xGm[r0 * len + c0],",
                "                  DataCopyExtParams{static_cast<uint16_t>(nr), bytes, "
                "static_cast<uint32_t>((len - nc) * sizeof(T)), gap, 0},",
                "                  DataCopyPadExtParams<T>{false, 0, 0, 0});",
                "      queue.EnQue(tile);",
                "      tile = queue.DeQue<T>();",
                "      const uint64_t at = r0 * pitch + static_cast<uint64_t>(offset) * inner + c0;",
                "      DataCopyPad(yGm[at], tile,",
                "                  DataCopyExtParams{static_cast<uint16_t>(nr), bytes, gap, "
                "static_cast<uint32_t>((pitch - nc) * sizeof(T)), 0});",
                "      queue.FreeTensor(tile);",
                "    }",
                "  }",
                "",
                " private:",
                "  TPipe pipe;",
                "  TQueBind<TPosition::VECIN, TPosition::VECOUT, BUFFER_NUM> queue;",
                "  GlobalTensor<T> xGm, yGm;",
                "  uint32_t outer, inner, tileElems;",
                "  uint64_t pitch;",
                "  uint32_t seq = 0;  // tiles numbered across the inputs: core i takes i, i + blockDim, ...",
                "};",
                "",
                f'extern "C" __global__ __aicore__ void {self.spec.kernel}({gm}, GM_ADDR workspace, '
                "GM_ADDR tiling) {",
                "  GET_TILING_DATA(t, tiling);",
                f"  {self.cls}<DTYPE_{y.upper()}> op;",
                f"  op.Init({y}, t.outer, t.inner, t.total, t.tileElems);",
                *pieces,
                "}",
                "",
            ]
        )

    def host_source(self) -> str:
        job = self.k.cat
        assert job is not None
        s = self.sched
        sizes = []
        for i, x in enumerate(job.xs):
            kind, idx = self._arg_index(x.name)
            sizes += [
                f"  const int64_t n{i} = context->Get{kind}Shape({idx})->GetStorageShape()"
                ".GetShapeSize();",
                f"  tiling.set_axis{i}(rowSize == 0 ? 0 : static_cast<uint32_t>(n{i} / rowSize));",
                f"  tiling.set_offset{i}(offset);",
                f"  offset += tiling.get_axis{i}();",
            ]
        return "\n".join(
            [
                *self.host_prelude(),
                "// Generated from the tile DSL: inputs joined along an axis.",
                f"constexpr uint32_t BLOCK_DIM = {s.block_dim};  // @tune block_dim in [1, 48] step 1",
                f"constexpr uint32_t TILE_LENGTH = {s.tile_length};  "
                "// @tune tile_length in [256, 32768] step 256",
                f"constexpr uint32_t BUFFER_NUM = {s.buffer_num};  // the kernel's queue depth",
                f"constexpr size_t AXIS = {job.axis};  // the axis joined, of the output's shape",
                "",
                "static ge::graphStatus TilingFunc(gert::TilingContext* context) {",
                f"  {self.tiling} tiling;",
                "  const gert::Shape& y = context->GetOutputShape(0)->GetStorageShape();",
                "  if (y.GetDimNum() <= AXIS) return ge::GRAPH_FAILED;",
                "  uint64_t outer = 1, inner = 1;",
                "  for (size_t i = 0; i < AXIS; ++i) outer *= y.GetDim(i);",
                "  for (size_t i = AXIS + 1; i < y.GetDimNum(); ++i) inner *= y.GetDim(i);",
                "  tiling.set_outer(static_cast<uint32_t>(outer));",
                "  tiling.set_inner(static_cast<uint32_t>(inner));",
                "  tiling.set_total(static_cast<uint32_t>(y.GetDim(AXIS)));",
                "  uint32_t typeSize = 0;",
                "  ge::TypeUtils::GetDataTypeLength(context->GetOutputDesc(0)->GetDataType(), typeSize);",
                "  if (typeSize == 0) return ge::GRAPH_FAILED;",
                "  auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());",
                "  uint64_t ubSize = 0;",
                "  platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);",
                "  // a whole number of 32 B blocks a tile, BUFFER_NUM tiles in UB",
                "  const uint64_t fit = ubSize / BUFFER_NUM / typeSize / (32 / typeSize) * (32 / typeSize);",
                "  tiling.set_tileElems(static_cast<uint32_t>(std::min<uint64_t>(TILE_LENGTH, fit)));",
                "  // each input's length along the axis: its elements over one slice of the others",
                "  const uint64_t rowSize = outer * inner;",
                "  uint32_t offset = 0;",
                *sizes,
                "  const uint32_t cores = std::min<uint32_t>(BLOCK_DIM, platform.GetCoreNumAiv());",
                "  context->SetBlockDim(rowSize == 0 ? 1 : std::max<uint32_t>(1, cores));",
                *self.host_end(["  context->GetWorkspaceSizes(1)[0] = 0;"]),
            ]
        )
