"""Lowering of a DSL `cube()` loop: a matmul whose C goes through element-wise work before GM.

The kernel is mixed (KERNEL_TYPE_MIX_AIC_1_2), in the shape of the suite's matmul_bias_relu:
each AIV drives a Matmul object for its work items (batch, C block) as `matmul` does, the
group's AIC computing them; the block's C lands in the user workspace in A's dtype (Fixpipe
rounds the fp32 sums once, as torch's matmul does), and the AIV then streams the block through
UB in tiles of tileRows x tileCols: C and the loaded tensors in (DataCopyPad, rows N apart in
GM, tileCols apart in UB), the epilogue's vector instructions, the outputs out. Only queues
order the pipes within the AIV; the AIC's writes are finished when IterateAll returns.
"""

from __future__ import annotations

from ascend_gym.dsl.compute import LoopLowering
from ascend_gym.dsl.cube import MatmulLowering
from ascend_gym.dsl.lang import DslError
from ascend_gym.dsl.lower import HELPERS

# epilogue tensors: whole 32 B rows at a pitch of 16 elements (no one-byte tensors)
EPILOGUE_DTYPES = ("float16", "float32", "bfloat16", "int32", "int64")

BLOCK_HELPER = """\
// DataCopyPad parameters of `rows` rows of `cols` elements, `stride` apart in GM and `pitch`
// apart in UB (pitch * sizeof(X) a multiple of 32 B): GM strides in bytes, UB ones in blocks.
template <typename X>
__aicore__ inline DataCopyExtParams Block(uint32_t rows, uint32_t cols, uint32_t stride, uint32_t pitch,
                                          bool intoUb) {
  const uint32_t len = cols * sizeof(X);
  const uint32_t gap = (pitch * sizeof(X) - (len + 31) / 32 * 32) / 32;
  const uint32_t gm = (stride - cols) * sizeof(X);
  return intoUb ? DataCopyExtParams{static_cast<uint16_t>(rows), len, gm, gap, 0}
                : DataCopyExtParams{static_cast<uint16_t>(rows), len, gap, gm, 0};
}
"""


class EpilogueLowering(MatmulLowering):
    """A kernel of one cube() loop -> package files (a mixed matmul with its epilogue)."""

    RATIO = 2

    def _c_type(self) -> str:
        """C in A's dtype, or fp32 (`c_float`)."""
        assert self.k.mm is not None
        if self.k.mm.c_float:
            return "matmul_tiling::DataType::DT_FLOAT"
        ia = self._arg_index(self.k.mm.a.name)[1]
        return f"CubeType(context->GetInputDesc({ia})->GetDataType())"

    def _check(self) -> None:
        k, spec, mm = self.k, self.spec, self.k.mm
        assert mm is not None and len(k.loops) == 1
        self.kind = "cube"
        self.loop = k.loops[0]
        names_in = {a.name for a in spec.inputs}
        names_out = {a.name for a in spec.outputs}
        for t in k.tensors.values():
            if t.name not in (names_out if t.is_output else names_in):
                raise DslError(t.where, f"tensor {t.name!r} is not in the spec")
        missing = (names_in | names_out) - set(k.tensors)
        if missing:
            raise DslError(k.where, f"the spec's tensors {sorted(missing)} are not declared")
        stored = {s.tensor.name for s in self.loop.stores}
        if unstored := sorted(names_out - stored):
            raise DslError(k.where, f"outputs {unstored} are never stored")
        if listed := [a.name for a in spec.inputs if a.dynamic]:
            raise DslError(k.where, f"TensorList inputs ({', '.join(listed)}) are not lowered")
        attrs = {a.name: a for a in spec.attrs}
        for name in k.attrs:
            if name not in attrs or attrs[name].type != "float":
                raise DslError(k.where, f"attr {name!r} is not a float attribute of the spec")
        streamed = [n.name for n in self.loop.loads] + sorted(stored)
        for c in spec.cases:
            self._check_operands(c)
            for n in streamed:
                if spec.arg_dtype(c, n) not in EPILOGUE_DTYPES:
                    raise DslError(
                        k.where, f"case {c.name}: {n} of {spec.arg_dtype(c, n)} in an epilogue"
                    )

    def fields(self) -> list[tuple[str, str, str]]:
        return [
            *super().fields(),
            ("uint32_t", "tileRows", "rows of C per epilogue tile"),
            ("uint32_t", "tileCols", "columns of C per epilogue tile (a multiple of 16)"),
            *(("float", a, "attr") for a in self.k.attrs),
        ]

    def kernel_source(self) -> str:
        mm, lp = self.k.mm, self.loop
        assert mm is not None
        low = LoopLowering(lp, self.types)
        self._compute_body(low, row=False)
        self.n_tmp = low.n_bufs
        if low.n_masks:
            raise DslError(lp.where, "comparisons and where() are not lowered in a cube() loop")
        a, b = mm.a.name, mm.b.name
        ins = [n.name for n in lp.loads]
        outs = [s.tensor.name for s in lp.stores]
        tc = "float" if mm.c_float else self.ty(a)  # C as the cube writes it
        ta_flag, tb_flag = (str(x).lower() for x in (mm.trans_a, mm.trans_b))
        a_off = "mi * tl.singleCoreM" + ("" if mm.trans_a else " * tl.Ka")
        b_off = "ni * tl.singleCoreN" + (" * tl.Kb" if mm.trans_b else "")
        tbias = self.ty(mm.bias.name) if mm.bias is not None else "float"
        # the type groups in the order of their DTYPE_<ARG> (lower.Lowering._type_tensors)
        types = dict.fromkeys(self.types.values())
        aliases = [f"  using {t} = {m};" for t, m in zip(types, self.type_args, strict=True)]
        gm_tensors = [
            *(f"  GlobalTensor<{self.ty(n)}> {n}Gm;" for n in [a, b, *ins, *outs]),
            *(f"  {n}Gm.SetGlobalBuffer((__gm__ {self.ty(n)}*){n});" for n in [a, b, *ins, *outs]),
        ]
        if mm.bias is not None:
            gm_tensors += [
                f"  GlobalTensor<{tbias}> biasGm;",
                f"  biasGm.SetGlobalBuffer((__gm__ {tbias}*){mm.bias.name});",
            ]
        scalars = []
        for n in self.k.scalars:
            scalars += [
                f"  GlobalTensor<{self.ty(n)}> {n}Gm;",
                f"  {n}Gm.SetGlobalBuffer((__gm__ {self.ty(n)}*){n}, 1);",
                f"  const float {n}Value = static_cast<float>({n}Gm.GetValue(0));",
            ]
        queues = [
            "  TQue<QuePosition::VECIN, BUFFER_NUM> cQue"
            + "".join(f", inQueue{i}" for i in range(len(ins)))
            + ";",
            "  TQue<QuePosition::VECOUT, BUFFER_NUM> "
            + ", ".join(f"outQueue{i}" for i in range(len(outs)))
            + ";",
            *(
                [
                    f"  TBuf<QuePosition::VECCALC> {', '.join(f'tmpBuf{i}' for i in range(self.n_tmp))};"
                ]
                if self.n_tmp
                else []
            ),
            "  const uint32_t tileLen = t.tileRows * t.tileCols;",
            f"  pipe.InitBuffer(cQue, BUFFER_NUM, tileLen * sizeof({tc}));",
            *(
                f"  pipe.InitBuffer(inQueue{i}, BUFFER_NUM, tileLen * sizeof({self.ty(n)}));"
                for i, n in enumerate(ins)
            ),
            *(
                f"  pipe.InitBuffer(outQueue{i}, BUFFER_NUM, tileLen * sizeof({self.ty(n)}));"
                for i, n in enumerate(outs)
            ),
            *(f"  pipe.InitBuffer(tmpBuf{i}, tileLen * sizeof(float));" for i in range(self.n_tmp)),
        ]
        bias = ["    mm.SetBias(biasGm[ni * tl.singleCoreN]);"] if mm.bias is not None else []
        copy_in = [
            f"        LocalTensor<{tc}> cIn = cQue.AllocTensor<{tc}>();",
            f"        DataCopyPad(cIn, cGm[at], Block<{tc}>(rows, cols, tl.N, t.tileCols, true), "
            f"DataCopyPadExtParams<{tc}>{{false, 0, 0, 0}});",
            "        cQue.EnQue(cIn);",
        ]
        for i, n in enumerate(ins):
            ty = self.ty(n)
            copy_in += [
                f"        LocalTensor<{ty}> {n}In = inQueue{i}.AllocTensor<{ty}>();",
                f"        DataCopyPad({n}In, {n}Gm[at], Block<{ty}>(rows, cols, tl.N, t.tileCols, "
                f"true), DataCopyPadExtParams<{ty}>{{false, 0, 0, 0}});",
                f"        inQueue{i}.EnQue({n}In);",
            ]
        compute = [
            f"        LocalTensor<{tc}> cTile = cQue.DeQue<{tc}>();",
            *(
                f"        LocalTensor<{self.ty(n)}> {n} = inQueue{i}.DeQue<{self.ty(n)}>();"
                for i, n in enumerate(ins)
            ),
            *(
                f"        LocalTensor<{self.ty(n)}> {n} = outQueue{i}.AllocTensor<{self.ty(n)}>();"
                for i, n in enumerate(outs)
            ),
            "        // the tile's padding lanes (past cols in a row) are computed too, never stored",
            "        const uint32_t n = rows * t.tileCols;",
            *(f"        {line}" for line in low.lines),
            *(f"        outQueue{i}.EnQue({n});" for i, n in enumerate(outs)),
            "        cQue.FreeTensor(cTile);",
            *(f"        inQueue{i}.FreeTensor({n});" for i, n in enumerate(ins)),
        ]
        copy_out = []
        for i, n in enumerate(outs):
            ty = self.ty(n)
            copy_out += [
                f"        LocalTensor<{ty}> {n}Out = outQueue{i}.DeQue<{ty}>();",
                f"        DataCopyPad({n}Gm[at], {n}Out, Block<{ty}>(rows, cols, tl.N, t.tileCols, "
                "false));",
                f"        outQueue{i}.FreeTensor({n}Out);",
            ]
        gm = ", ".join(f"GM_ADDR {n}" for n in self._gm_args())
        return "\n".join(
            [
                "// Generated from the tile DSL: a matmul on the cube cores (the Matmul API) and its",
                "// epilogue on the vector cores. Work item j = (batch j / blocksPerBatch, C block",
                "// j % blocksPerBatch); AIV i takes j = i, i + AIVs, ...",
                '#include "kernel_operator.h"',
                '#include "lib/matmul_intf.h"',
                "",
                "using namespace AscendC;",
                "",
                f"constexpr int32_t BUFFER_NUM = {self.sched.buffer_num};",
                "",
                HELPERS,
                BLOCK_HELPER,
                f'extern "C" __global__ __aicore__ void {self.spec.kernel}({gm}, GM_ADDR workspace, '
                "GM_ADDR tiling) {",
                "  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);",
                "  GET_TILING_DATA(t, tiling);",
                "  if (t.batch == 0) return;  // an empty C: nothing to compute",
                *aliases,
                f"  using AType = MatmulType<TPosition::GM, CubeFormat::ND, {self.ty(a)}, {ta_flag}>;",
                f"  using BType = MatmulType<TPosition::GM, CubeFormat::ND, {self.ty(b)}, {tb_flag}>;",
                f"  using CType = MatmulType<TPosition::GM, CubeFormat::ND, {tc}>;",
                f"  using BiasType = MatmulType<TPosition::GM, CubeFormat::ND, {tbias}>;",
                "  const TCubeTiling& tl = t.mm;",
                "  TPipe pipe;",
                "  Matmul<AType, BType, CType, BiasType, CFG_NORM> mm;",
                "  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tl);",
                *gm_tensors,
                f"  GlobalTensor<{tc}> cGm;  // C of every batch, in the user workspace",
                f"  cGm.SetGlobalBuffer((__gm__ {tc}*)GetUserWorkspace(workspace));",
                *(f"  const float {x} = t.{x};" for x in self.k.attrs),
                *scalars,
                *queues,
                "  const uint32_t mBlocks = (tl.M + tl.singleCoreM - 1) / tl.singleCoreM;",
                "  const uint32_t items = t.batch * t.blocksPerBatch;",
                "  const uint32_t aivs = GetBlockNum() * GetTaskRation();",
                "  for (uint32_t j = GetBlockIdx(); j < items; j += aivs) {",
                "    const uint32_t bi = j / t.blocksPerBatch, blk = j % t.blocksPerBatch;",
                "    const uint64_t mi = blk % mBlocks, ni = blk / mBlocks;",
                f"    mm.SetTensorA({a}Gm[bi * t.aBatchStride + {a_off}], {ta_flag});",
                f"    mm.SetTensorB({b}Gm[bi * t.bBatchStride + {b_off}], {tb_flag});",
                *bias,
                "    const int32_t tailM = tl.M - static_cast<int32_t>(mi) * tl.singleCoreM;",
                "    const int32_t tailN = tl.N - static_cast<int32_t>(ni) * tl.singleCoreN;",
                "    const uint32_t sm = tailM < tl.singleCoreM ? tailM : tl.singleCoreM;",
                "    const uint32_t sn = tailN < tl.singleCoreN ? tailN : tl.singleCoreN;",
                "    mm.SetTail(sm, sn);",
                "    const uint64_t cOff = static_cast<uint64_t>(bi) * tl.M * tl.N + "
                "mi * tl.singleCoreM * tl.N + ni * tl.singleCoreN;",
                "    mm.IterateAll(cGm[cOff]);",
                "    for (uint32_t r = 0; r < sm; r += t.tileRows) {",
                "      const uint32_t rows = sm - r < t.tileRows ? sm - r : t.tileRows;",
                "      for (uint32_t c0 = 0; c0 < sn; c0 += t.tileCols) {",
                "        const uint32_t cols = sn - c0 < t.tileCols ? sn - c0 : t.tileCols;",
                "        const uint64_t at = cOff + static_cast<uint64_t>(r) * tl.N + c0;",
                *copy_in,
                *compute,
                *copy_out,
                "      }",
                "    }",
                "  }",
                "  mm.End();",
                "}",
                "",
            ]
        )

    def _host_knobs(self) -> list[str]:
        if not hasattr(self, "n_tmp"):
            self.kernel_source()
        lp = self.loop
        return [
            f"constexpr uint32_t ROWS_PER_TILE = {self.sched.rows_per_tile};  "
            "// @tune rows_per_tile in [1, 512] step 1",
            f"constexpr uint32_t BUFFER_NUM = {self.sched.buffer_num};  // the kernel's queue depth",
            f"constexpr uint32_t UB_IO = {1 + len(lp.loads) + len(lp.stores)};  "
            "// queued tiles: C, the loads, the stores",
            f"constexpr uint32_t UB_TMP = {self.n_tmp};  // fp32 temporaries",
        ]

    def _epilogue_host(self) -> list[str]:
        io = max(8 if "int64" in a.dtypes else 4 for a in [*self.spec.inputs, *self.spec.outputs])
        out = [
            "    // The epilogue's tile: C's block columns (16 at a time, so every dtype's rows are",
            "    // whole 32 B blocks), then as many rows as UB holds.",
            "    uint64_t ubSize = 0;",
            "    platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);",
            f"    const uint64_t laneBytes = UB_IO * BUFFER_NUM * {io} + UB_TMP * 4;",
            "    const uint32_t lanes = static_cast<uint32_t>((ubSize - 1024) / laneBytes);",
            "    const uint32_t cols = (static_cast<uint32_t>(tiling.mm.singleCoreN) + 15) / 16 * 16;",
            "    const uint32_t tileCols = std::min(cols, lanes / 16 * 16);",
            "    if (tileCols == 0) return ge::GRAPH_FAILED;",
            "    tiling.set_tileCols(tileCols);",
            "    tiling.set_tileRows(std::max(1u, std::min({ROWS_PER_TILE, lanes / tileCols, "
            "static_cast<uint32_t>(tiling.mm.singleCoreM)})));",
            *self._attr_host("    "),
        ]
        return out

    def _workspace_host(self) -> list[str]:
        assert self.k.mm is not None
        ia = self._arg_index(self.k.mm.a.name)[1]
        size = (
            ["  const uint32_t cSize = sizeof(float);"]
            if self.k.mm.c_float
            else [
                "  uint32_t cSize = 0;",
                f"  ge::TypeUtils::GetDataTypeLength(context->GetInputDesc({ia})->GetDataType(), "
                "cSize);",
            ]
        )
        return [
            "  // C of every batch (in A's dtype or fp32), after the library's workspace.",
            *size,
            "  context->GetWorkspaceSizes(1)[0] = platform.GetLibApiWorkSpaceSize() + "
            "(static_cast<uint64_t>(tiling.get_batch()) * tiling.mm.M * tiling.mm.N * cSize + 31) "
            "/ 32 * 32;",
        ]
