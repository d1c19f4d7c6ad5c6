"""Lowering of a DSL `matmul`: c = op(a) @ op(b) on the cube cores through the Matmul API.

The kernel is AIC-only in the suite's batched-matmul shape: the host splits each batch's C into
`MultiCoreMatmulTiling` blocks (singleCoreM x singleCoreN), and core i takes the work items
(batch, block) i, i + blockDim, ..., one `IterateAll` each. An operand without batch axes is shared
by every batch (batch stride 0). The cube accumulates in fp32 and `Fixpipe` casts C to its dtype.
"""

from __future__ import annotations

from ascend_core.package import Case
from ascend_gym.dsl.lang import DslError
from ascend_gym.dsl.lower import Lowering

# What the cube takes here: 16-bit inputs in any layout; fp32 with A as stored (the fractal
# transpose of LoadData is 16-bit only)
CUBE_IN = ("float16", "bfloat16", "float32")
CUBE_OUT = ("float16", "bfloat16", "float32")
# a bias the guest engine's Matmul takes (a bfloat16 one is not in its API yet)
BIAS = ("float16", "float32")


# The host's map from a tensor's dtype to the Matmul tiling's
CUBE_TYPE = [
    "static matmul_tiling::DataType CubeType(ge::DataType t) {",
    "  if (t == ge::DT_FLOAT16) return matmul_tiling::DataType::DT_FLOAT16;",
    "  if (t == ge::DT_BF16) return matmul_tiling::DataType::DT_BF16;",
    "  return matmul_tiling::DataType::DT_FLOAT;",
    "}",
]


def with_cube_tilings(header: str, structs: str) -> str:
    """A tiling header with the Matmul API's TCubeTiling fields (`structs`, their lines) last."""
    header = header.replace(
        '#include "register/tilingdata_base.h"\n',
        '#include "register/tilingdata_base.h"\n#include "tiling/tiling_api.h"\n',
    )
    return header.replace("END_TILING_DATA_DEF;", f"{structs}\nEND_TILING_DATA_DEF;")


class MatmulLowering(Lowering):
    """A kernel of one matmul -> package files (the tiling, kernel and host of the cube form)."""

    def _check(self) -> None:
        k, spec, mm = self.k, self.spec, self.k.mm
        assert mm is not None
        self.kind = "matmul"
        names = {a.name for a in [*spec.inputs, *spec.outputs]}
        for t in (mm.out, mm.a, mm.b):
            if t.name not in names:
                raise DslError(t.where, f"tensor {t.name!r} is not in the spec")
        if mm.bias is not None and mm.bias.name not in names:
            raise DslError(mm.bias.where, f"tensor {mm.bias.name!r} is not in the spec")
        operands = 2 + (mm.bias is not None)
        if len(spec.outputs) != 1 or len(spec.inputs) != operands or mm.a is mm.b:
            raise DslError(
                mm.where, "a matmul kernel has the spec's inputs as operands and one output"
            )
        if listed := [a.name for a in spec.inputs if a.dynamic]:
            raise DslError(k.where, f"TensorList inputs ({', '.join(listed)}) are not lowered")
        for c in spec.cases:
            dc = spec.arg_dtype(c, mm.out.name)
            if dc not in CUBE_OUT:
                raise DslError(mm.where, f"case {c.name}: a matmul into {dc}")
            self._check_operands(c)

    def _check_operands(self, c: Case) -> None:
        """A case's operands are ones the cube takes (and the bias one the Matmul API takes)."""
        spec, mm = self.spec, self.k.mm
        assert mm is not None
        da, db = spec.arg_dtype(c, mm.a.name), spec.arg_dtype(c, mm.b.name)
        if da != db or da not in CUBE_IN:
            raise DslError(mm.where, f"case {c.name}: matmul of {da} x {db}")
        if da == "float32" and mm.trans_a:
            raise DslError(mm.where, "an fp32 A is taken as stored (not transposed)")
        if mm.bias is not None and spec.arg_dtype(c, mm.bias.name) not in BIAS:
            raise DslError(mm.where, f"case {c.name}: a bias of {spec.arg_dtype(c, mm.bias.name)}")

    def fields(self) -> list[tuple[str, str, str]]:
        return [
            ("uint32_t", "batch", "matrices of C"),
            ("uint32_t", "blocksPerBatch", "Matmul blocks (singleCoreM x singleCoreN) a batch"),
            ("uint64_t", "aBatchStride", "elements between A's matrices (0: one shared)"),
            ("uint64_t", "bBatchStride", "elements between B's matrices (0: one shared)"),
        ]

    def tiling_header(self) -> str:
        return with_cube_tilings(
            super().tiling_header(), "TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, mm);"
        )

    def kernel_source(self) -> str:
        mm = self.k.mm
        assert mm is not None
        a, b, c = mm.a.name, mm.b.name, mm.out.name
        ta, tb, tc = (f"DTYPE_{n.upper()}" for n in (a, b, c))
        gm = ", ".join(f"GM_ADDR {n}" for n in self._gm_args())
        # A block's first element: rows mi of A [M, K] (columns of a stored [K, M]), columns ni
        # of B [K, N] (rows of a stored [N, K])
        a_off = "mi * tl.singleCoreM" + ("" if mm.trans_a else " * tl.Ka")
        b_off = "ni * tl.singleCoreN" + (" * tl.Kb" if mm.trans_b else "")
        ta_flag, tb_flag = (str(x).lower() for x in (mm.trans_a, mm.trans_b))
        # the bias (N values, widened to fp32 into the bias table) or, without one, fp32
        tbias = f"DTYPE_{mm.bias.name.upper()}" if mm.bias is not None else "float"
        bias = []
        if mm.bias is not None:
            bias = [
                "    mm.SetBias(biasGm[ni * tl.singleCoreN]);  // the block's N values",
            ]
            gm_bias = [
                f"  GlobalTensor<{tbias}> biasGm;",
                f"  biasGm.SetGlobalBuffer((__gm__ {tbias}*){mm.bias.name});",
            ]
        else:
            gm_bias = []
        return "\n".join(
            [
                "// Generated from the tile DSL: a matmul on the cube cores (the Matmul API). Work item",
                "// j = (batch j / blocksPerBatch, C block j % blocksPerBatch); core i takes j = i,",
                "// i + blockDim, ...",
                "#define ASCENDC_CUBE_ONLY",
                '#include "kernel_operator.h"',
                '#include "lib/matmul_intf.h"',
                "",
                "using namespace AscendC;",
                "",
                f"using AType = MatmulType<TPosition::GM, CubeFormat::ND, {ta}, {ta_flag}>;",
                f"using BType = MatmulType<TPosition::GM, CubeFormat::ND, {tb}, {tb_flag}>;",
                f"using CType = MatmulType<TPosition::GM, CubeFormat::ND, {tc}>;",
                f"using BiasType = MatmulType<TPosition::GM, CubeFormat::ND, {tbias}>;",
                "",
                f'extern "C" __global__ __aicore__ void {self.spec.kernel}({gm}, GM_ADDR workspace, '
                "GM_ADDR tiling) {",
                "  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_AIC_ONLY);",
                "  GET_TILING_DATA(t, tiling);",
                "  if (t.batch == 0) return;  // an empty C: nothing to compute",
                "  const TCubeTiling& tl = t.mm;",
                "  TPipe pipe;",
                "  Matmul<AType, BType, CType, BiasType, CFG_NORM> mm;",
                "  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), mm, &tl);",
                f"  GlobalTensor<{ta}> aGm;",
                f"  GlobalTensor<{tb}> bGm;",
                f"  GlobalTensor<{tc}> cGm;",
                f"  aGm.SetGlobalBuffer((__gm__ {ta}*){a});",
                f"  bGm.SetGlobalBuffer((__gm__ {tb}*){b});",
                f"  cGm.SetGlobalBuffer((__gm__ {tc}*){c});",
                *gm_bias,
                "  const uint32_t mBlocks = (tl.M + tl.singleCoreM - 1) / tl.singleCoreM;",
                "  const uint32_t items = t.batch * t.blocksPerBatch;",
                "  for (uint32_t j = GetBlockIdx(); j < items; j += GetBlockNum()) {",
                "    const uint32_t bi = j / t.blocksPerBatch, blk = j % t.blocksPerBatch;",
                "    const uint64_t mi = blk % mBlocks, ni = blk / mBlocks;",
                f"    mm.SetTensorA(aGm[bi * t.aBatchStride + {a_off}], {ta_flag});",
                f"    mm.SetTensorB(bGm[bi * t.bBatchStride + {b_off}], {tb_flag});",
                *bias,
                "    const int32_t tailM = tl.M - static_cast<int32_t>(mi) * tl.singleCoreM;",
                "    const int32_t tailN = tl.N - static_cast<int32_t>(ni) * tl.singleCoreN;",
                "    mm.SetTail(tailM < tl.singleCoreM ? tailM : tl.singleCoreM, "
                "tailN < tl.singleCoreN ? tailN : tl.singleCoreN);",
                "    const uint64_t cOff = static_cast<uint64_t>(bi) * tl.M * tl.N;",
                "    mm.IterateAll(cGm[cOff + mi * tl.singleCoreM * tl.N + ni * tl.singleCoreN]);",
                "  }",
                "  mm.End();",
                "}",
                "",
            ]
        )

    def _bias_host(self) -> list[str]:
        mm = self.k.mm
        if mm is None or mm.bias is None:
            return []
        i = self._arg_index(mm.bias.name)[1]
        return [
            "    mt.SetBias(true);",
            f"    mt.SetBiasType(TPosition::GM, CubeFormat::ND, CubeType(context->GetInputDesc({i})"
            "->GetDataType()));",
        ]

    # The cube form's hooks: an epilogue (dsl/epilogue.py) launches mixed, writes C in A's
    # dtype to its workspace and adds its UB tile and workspace to the tiling.
    RATIO = 1  # Matmul objects a cube core serves: 1 AIC-only, 2 in a mixed launch

    def _c_type(self) -> str:
        """C's matmul_tiling dtype: the output's."""
        return "CubeType(context->GetOutputDesc(0)->GetDataType())"

    def _epilogue_host(self) -> list[str]:
        return []

    def _workspace_host(self) -> list[str]:
        return ["  context->GetWorkspaceSizes(1)[0] = platform.GetLibApiWorkSpaceSize();"]

    def host_source(self) -> str:
        mm = self.k.mm
        assert mm is not None
        ia = self._arg_index(mm.a.name)[1]
        ib = self._arg_index(mm.b.name)[1]
        ta, tb = (str(x).lower() for x in (mm.trans_a, mm.trans_b))
        # a mixed launch's cores each serve RATIO AIVs, one Matmul object each
        objects = "cores" if self.RATIO == 1 else f"cores * {self.RATIO}"
        items = "batch * tiling.mm.usedCoreNum"
        if self.RATIO > 1:
            items = f"({items} + {self.RATIO - 1}) / {self.RATIO}"
        return "\n".join(
            [
                *self.host_prelude(),
                "// Generated from the tile DSL: a matmul on the cube cores.",
                f"constexpr int32_t CUBE_CORES = {self.sched.block_dim};  "
                "// @tune block_dim in [1, 48] step 1",
                f"constexpr bool TRANS_A = {ta};  // A stored [..., K, M]",
                f"constexpr bool TRANS_B = {tb};  // B stored [..., N, K]",
                *self._host_knobs(),
                "",
                *CUBE_TYPE,
                "",
                "// Matrices of a tensor [..., rows, cols]: the product of its batch axes.",
                "static int64_t Batch(const gert::Shape& s) {",
                "  int64_t n = 1;",
                "  for (size_t i = 0; i + 2 < s.GetDimNum(); ++i) n *= s.GetDim(i);",
                "  return n;",
                "}",
                "",
                "static ge::graphStatus TilingFunc(gert::TilingContext* context) {",
                f"  {self.tiling} tiling;",
                f"  const gert::Shape& a = context->GetInputShape({ia})->GetStorageShape();",
                f"  const gert::Shape& b = context->GetInputShape({ib})->GetStorageShape();",
                "  const size_t ra = a.GetDimNum(), rb = b.GetDimNum();",
                "  const int32_t M = static_cast<int32_t>(a.GetDim(TRANS_A ? ra - 1 : ra - 2));",
                "  const int32_t K = static_cast<int32_t>(a.GetDim(TRANS_A ? ra - 2 : ra - 1));",
                "  const int32_t N = static_cast<int32_t>(b.GetDim(TRANS_B ? rb - 2 : rb - 1));",
                "  const int64_t batchA = Batch(a), batchB = Batch(b);",
                "  if (batchA > 1 && batchB > 1 && batchA != batchB) return ge::GRAPH_FAILED;",
                "  const int64_t batch = std::max(batchA, batchB);",
                "  auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());",
                "  const int32_t cores = std::max<int32_t>(1, std::min<int32_t>(CUBE_CORES, "
                "static_cast<int32_t>(platform.GetCoreNumAic())));",
                "  uint32_t blockDim = 1;",
                "  if (batch * M * N > 0) {",
                "    if (K == 0) return ge::GRAPH_FAILED;  // a product over nothing: not a cube job",
                "    matmul_tiling::MultiCoreMatmulTiling mt(platform);",
                "    // batches share the cores: each batch's C is split over the cores left per batch",
                f"    mt.SetDim(static_cast<int32_t>(std::max<int64_t>(1, {objects} / batch)));",
                "    using matmul_tiling::CubeFormat;",
                "    using matmul_tiling::TPosition;",
                f"    mt.SetAType(TPosition::GM, CubeFormat::ND, CubeType(context->GetInputDesc({ia})"
                "->GetDataType()), TRANS_A);",
                f"    mt.SetBType(TPosition::GM, CubeFormat::ND, CubeType(context->GetInputDesc({ib})"
                "->GetDataType()), TRANS_B);",
                f"    mt.SetCType(TPosition::GM, CubeFormat::ND, {self._c_type()});",
                *self._bias_host(),
                "    mt.SetShape(M, N, K);",
                "    mt.SetOrgShape(M, N, K);",
                "    mt.SetBufferSpace(-1, -1, -1);",
                "    if (mt.GetTiling(tiling.mm) == -1) return ge::GRAPH_FAILED;",
                "    tiling.set_batch(static_cast<uint32_t>(batch));",
                "    tiling.set_blocksPerBatch(static_cast<uint32_t>(tiling.mm.usedCoreNum));",
                "    tiling.set_aBatchStride(batchA > 1 ? static_cast<uint64_t>(M) * K : 0);",
                "    tiling.set_bBatchStride(batchB > 1 ? static_cast<uint64_t>(K) * N : 0);",
                f"    blockDim = static_cast<uint32_t>(std::min<int64_t>(cores, {items}));",
                *self._epilogue_host(),
                "  }",
                "  context->SetBlockDim(blockDim);",
                *self.host_end(self._workspace_host()),
            ]
        )

    def _host_knobs(self) -> list[str]:
        return []
