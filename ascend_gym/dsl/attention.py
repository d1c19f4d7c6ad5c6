"""Lowering of a DSL `attention`: softmax(q @ k^T * scale (+ bias)) @ v, two matmuls in one kernel.

The kernel is mixed (KERNEL_TYPE_MIX_AIC_1_2), in the shape of the suite's level3/attention:
each AIV takes work items of `rows` query rows of one of q's matrices round robin and, per item,
has its group's AIC compute the scores q @ k^T (fp32) into its own slice of the user workspace;
the softmax runs in UB, chunkRows rows a tile (DataCopyPad in at a pitch of whole 32 B blocks;
per row a scale, the bias's row added where there is one (its rows DataCopyPad'ed in beside,
widened by a Cast), ReduceMax, the max subtracted, Exp, ReduceSum, the reciprocal of the sum),
the probabilities cast to the tensors' dtype into the workspace; then the AIC computes p @ v
straight into out. q's matrix h reads k's and v's matrix h / group (shared key/value heads).
The cube's writes are finished when IterateAll returns; a PIPE_ALL barrier puts p in GM before
the cube reads it.
"""

from __future__ import annotations

from ascend_gym.dsl.compute import float_literal
from ascend_gym.dsl.cube import CUBE_TYPE, with_cube_tilings
from ascend_gym.dsl.epilogue import BLOCK_HELPER
from ascend_gym.dsl.lang import DslError
from ascend_gym.dsl.lower import HELPERS, VIA_HELPER, Lowering, check_one_dtype

# q, k, v and out: one 16-bit dtype a case (the probabilities are rounded to it for p @ v)
ATTENTION_DTYPES = ("float16", "bfloat16")
# a mask is read as fp32 (AsFloat: one-byte tiles through half) and compared with 0
MASK_DTYPES = ("bool", "uint8", "int8", "float16", "bfloat16", "float32", "int32")
NEG_INF = "-__builtin_huge_valf()"  # a masked-out score, as masked_fill(..., -inf) writes it


# The host's reading of a bias or a mask [..., S, L] (input `index`): its batch axes,
# right-aligned on q's, hold one run of q's axes (ones elsewhere), so q's matrix h takes its
# h / <name>Div % <name>Mod (<name>Mod 0: an optional input the case leaves out, read nowhere)
def broadcast_host(index: int, name: str) -> list[str]:
    return [
        f"  uint64_t {name}Div = 1, {name}Mod = 0;  // 0: no {name} (an optional one left out)",
        f"  if (context->GetInputShape({index}) != nullptr) {{",
        f"    const gert::Shape& bs = context->GetInputShape({index})->GetStorageShape();",
        "    const size_t nb = bs.GetDimNum();",
        "    if (nb < 2 || nb > nq || bs.GetDim(nb - 2) != S || bs.GetDim(nb - 1) != L) "
        "return ge::GRAPH_FAILED;",
        f"    {name}Mod = 1;",
        "    bool held = false, done = false;",
        "    for (size_t i = nq - 2; i-- > 0;) {  // q's batch axes, innermost first",
        "      const uint64_t qd = q.GetDim(i), bd = i + nb >= nq ? bs.GetDim(i + nb - nq) : 1;",
        "      if (bd != 1 && (bd != qd || done)) return ge::GRAPH_FAILED;",
        "      if (qd == 1) continue;",
        "      if (bd == qd) {",
        "        held = true;",
        f"        {name}Mod *= qd;",
        "      } else if (held) {",
        "        done = true;",
        "      } else {",
        f"        {name}Div *= qd;",
        "      }",
        "    }",
        "  }",
        f"  tiling.set_{name}Div(static_cast<uint32_t>({name}Div));",
        f"  tiling.set_{name}Mod(static_cast<uint32_t>({name}Mod));",
    ]


class AttentionLowering(Lowering):
    """A kernel of one attention -> package files."""

    def _check(self) -> None:
        spec, job = self.spec, self.k.attn
        assert job is not None
        self.kind = "attention"
        ins = [t.name for t in (job.q, job.k, job.v, job.bias) if t is not None]
        extra = {t.name for t in (job.bias, job.mask) if t is not None}
        names = [a.name for a in spec.inputs]
        # q, k, v first; the bias and the mask after them, in either order
        if names[:3] != ins[:3] or set(names[3:]) != extra or len(names) != 3 + len(extra):
            raise DslError(
                job.where,
                "an attention kernel has the spec's inputs q, k, v(, bias, mask) in order",
            )
        if [o.name for o in spec.outputs] != [job.out.name]:
            raise DslError(job.where, "an attention kernel has the spec's one output")
        for c in spec.cases:
            check_one_dtype(
                spec, c, [*ins, job.out.name], job.where, "an attention", ATTENTION_DTYPES
            )
            if job.mask is not None and spec.arg_dtype(c, job.mask.name) not in MASK_DTYPES:
                raise DslError(
                    job.where, f"case {c.name}: a mask of {spec.arg_dtype(c, job.mask.name)}"
                )
            if min(len(spec.arg_shape(c, n)) for n in [*names, job.out.name]) < 2:
                raise DslError(job.where, f"case {c.name}: an attention operand of one axis")

    def fields(self) -> list[tuple[str, str, str]]:
        return [
            ("uint32_t", "heads", "q's matrices [S, D] (its batch axes' product)"),
            ("uint32_t", "group", "q's matrices per k / v matrix"),
            ("uint32_t", "seq", "S: query rows a matrix"),
            ("uint32_t", "kvSeq", "L: key / value rows a matrix"),
            ("uint32_t", "dim", "D: q's and k's last axis"),
            ("uint32_t", "vDim", "v's last axis"),
            ("uint32_t", "rows", "query rows a work item"),
            ("uint32_t", "chunkRows", "score rows a UB tile of the softmax"),
            ("uint32_t", "pitch", "L rounded up to 16: a score row's UB pitch"),
            ("uint64_t", "perAiv", "workspace bytes an AIV: scores (fp32), then p"),
            ("float", "scale", "the scores' factor"),
            *(
                [
                    ("uint32_t", "biasDiv", "q's matrix h reads the bias's h / biasDiv % biasMod"),
                    ("uint32_t", "biasMod", "the bias's matrices"),
                ]
                if self.k.attn is not None and self.k.attn.bias is not None
                else []
            ),
            *(
                [
                    ("uint32_t", "maskDiv", "q's matrix h reads the mask's h / maskDiv % maskMod"),
                    ("uint32_t", "maskMod", "the mask's matrices"),
                ]
                if self.k.attn is not None and self.k.attn.mask is not None
                else []
            ),
        ]

    def tiling_header(self) -> str:
        return with_cube_tilings(
            super().tiling_header(),
            "TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, qk);  // scores: rows x L x D, fp32\n"
            "TILING_DATA_FIELD_DEF_STRUCT(TCubeTiling, pv);  // out: rows x vDim x L",
        )

    def kernel_source(self) -> str:
        job = self.k.attn
        assert job is not None
        q, k, v, out = (t.name for t in (job.q, job.k, job.v, job.out))
        gm = ", ".join(f"GM_ADDR {n}" for n in self._gm_args())
        bias = job.bias.name if job.bias is not None else None
        # the bias: its rows of the chunk in (a queue of T), one row widened at a time
        bias_init = [
            "  GlobalTensor<T> gb;",
            f"  gb.SetGlobalBuffer((__gm__ T*){bias});",
            "  TQue<TPosition::VECIN, 1> qb;",
            "  TBuf<TPosition::VECCALC> widenBuf;",
            "  pipe.InitBuffer(qb, 1, C * P * sizeof(T));",
            "  pipe.InitBuffer(widenBuf, P * sizeof(float));",
            "  LocalTensor<float> widened = widenBuf.Get<float>();",
        ]
        bias_in = [
            "      LocalTensor<T> b;",
            "      if (t.biasMod != 0) {",
            "        b = qb.AllocTensor<T>();",
            "        DataCopyPad(b, gb[(hb * S + r0 + c) * L], Block<T>(n, L, L, P, true), "
            "DataCopyPadExtParams<T>{false, 0, 0, 0});",
            "        qb.EnQue(b);",
            "        b = qb.DeQue<T>();",
            "      }",
        ]
        bias_row = [
            "        if (t.biasMod != 0) {",
            "          Cast(widened, b[r * P], RoundMode::CAST_NONE, L);",
            "          Add(row, row, widened, L);",
            "        }",
        ]
        bias_item = [
            "    // the bias's matrix (none where the optional bias is left out)",
            "    const uint64_t hb = t.biasMod != 0 ? h / t.biasDiv % t.biasMod : 0;",
        ]
        if bias is None:
            bias_init = bias_in = bias_row = bias_item = []
        mask_init, mask_in, mask_row, mask_item, mask_free = self._mask_lines()
        return "\n".join(
            [
                "// Generated from the tile DSL: softmax(q @ k^T * scale) @ v, the two matmuls on",
                "// the cube, the softmax of each block of scores on the vector cores between them.",
                '#include "kernel_operator.h"',
                '#include "lib/matmul_intf.h"',
                "",
                "using namespace AscendC;",
                "",
                f"using T = DTYPE_{q.upper()};",
                "using TypeND = MatmulType<TPosition::GM, CubeFormat::ND, T>;",
                "using TypeTrans = MatmulType<TPosition::GM, CubeFormat::ND, T, true>;",
                "using FloatND = MatmulType<TPosition::GM, CubeFormat::ND, float>;",
                "constexpr uint32_t SLOT = 8;  // floats per row result: a 32 B-aligned ReduceMax / ReduceSum dst",
                "",
                *([HELPERS, VIA_HELPER] if job.mask is not None else []),
                BLOCK_HELPER,
                f'extern "C" __global__ __aicore__ void {self.spec.kernel}({gm}, GM_ADDR workspace, '
                "GM_ADDR tiling) {",
                "  KERNEL_TASK_TYPE_DEFAULT(KERNEL_TYPE_MIX_AIC_1_2);",
                "  GET_TILING_DATA(t, tiling);",
                "  TPipe pipe;",
                "  Matmul<TypeND, TypeTrans, FloatND, FloatND, CFG_NORM> qk;",
                "  Matmul<TypeND, TypeND, TypeND, FloatND, CFG_NORM> pv;",
                "  REGIST_MATMUL_OBJ(&pipe, GetSysWorkSpacePtr(), qk, &t.qk, pv, &t.pv);",
                "  const uint32_t S = t.seq, L = t.kvSeq, D = t.dim, E = t.vDim, R = t.rows;",
                "  const uint32_t C = t.chunkRows, P = t.pitch;",
                "  const uint32_t aiv = GetBlockIdx(), aivs = GetBlockNum() * GetTaskRation();",
                "  GlobalTensor<T> gq, gk, gv, gout, gp;",
                "  GlobalTensor<float> gs;",
                f"  gq.SetGlobalBuffer((__gm__ T*){q});",
                f"  gk.SetGlobalBuffer((__gm__ T*){k});",
                f"  gv.SetGlobalBuffer((__gm__ T*){v});",
                f"  gout.SetGlobalBuffer((__gm__ T*){out});",
                "  GM_ADDR ws = GetUserWorkspace(workspace) + static_cast<uint64_t>(aiv) * t.perAiv;",
                "  gs.SetGlobalBuffer((__gm__ float*)ws);",
                "  gp.SetGlobalBuffer((__gm__ T*)(ws + (static_cast<uint64_t>(R) * L * 4 + 511) / 512 * 512));",
                "  TQue<TPosition::VECIN, 1> qs;",
                "  TQue<TPosition::VECOUT, 1> qp;",
                "  TBuf<TPosition::VECCALC> workBuf, redBuf;",
                "  pipe.InitBuffer(qs, 1, C * P * sizeof(float));",
                "  pipe.InitBuffer(qp, 1, C * P * sizeof(T));",
                "  pipe.InitBuffer(workBuf, P * sizeof(float));",
                "  pipe.InitBuffer(redBuf, C * SLOT * sizeof(float));",
                "  LocalTensor<float> work = workBuf.Get<float>(), red = redBuf.Get<float>();",
                *bias_init,
                *mask_init,
                "  const uint32_t blocks = (S + R - 1) / R;",
                "  for (uint32_t item = aiv; item < t.heads * blocks; item += aivs) {",
                "    const uint32_t h = item / blocks, r0 = item % blocks * R, rows = S - r0 < R ? S - r0 : R;",
                "    const uint64_t kv = h / t.group;  // the shared key / value matrix",
                *bias_item,
                *mask_item,
                "    qk.SetTensorA(gq[(static_cast<uint64_t>(h) * S + r0) * D]);",
                "    qk.SetTensorB(gk[kv * L * D], true);",
                "    qk.SetTail(rows, L, D);",
                "    qk.IterateAll(gs);",
                "    for (uint32_t c = 0; c < rows; c += C) {",
                "      const uint32_t n = rows - c < C ? rows - c : C;",
                "      LocalTensor<float> s = qs.AllocTensor<float>();",
                "      DataCopyPad(s, gs[c * L], Block<float>(n, L, L, P, true), "
                "DataCopyPadExtParams<float>{false, 0, 0, 0});",
                "      qs.EnQue(s);",
                "      s = qs.DeQue<float>();",
                *bias_in,
                *mask_in,
                "      for (uint32_t r = 0; r < n; ++r) {",
                "        LocalTensor<float> row = s[r * P];",
                "        Muls(row, row, t.scale, L);",
                *bias_row,
                *mask_row,
                "        ReduceMax(red[r * SLOT], row, work, L);",
                *(
                    [
                        "        if (red.GetValue(r * SLOT) == "
                        + NEG_INF
                        + ") {  // masked whole: 0",
                        "          Duplicate(row, 0.0f, L);",
                        "          continue;",
                        "        }",
                    ]
                    if job.zero_rows
                    else []
                ),
                "        Adds(row, row, -red.GetValue(r * SLOT), L);",
                "        Exp(row, row, L);",
                "        ReduceSum(red[r * SLOT], row, work, L);",
                "        Muls(row, row, 1.0f / red.GetValue(r * SLOT), L);",
                "      }",
                "      LocalTensor<T> p = qp.AllocTensor<T>();",
                "      for (uint32_t r = 0; r < n; ++r) Cast(p[r * P], s[r * P], RoundMode::CAST_RINT, L);",
                "      qp.EnQue(p);",
                "      qs.FreeTensor(s);",
                *(["      if (t.biasMod != 0) qb.FreeTensor(b);"] if bias is not None else []),
                *mask_free,
                "      p = qp.DeQue<T>();",
                "      DataCopyPad(gp[c * L], p, Block<T>(n, L, L, P, false));",
                "      qp.FreeTensor(p);",
                "    }",
                "    PipeBarrier<PIPE_ALL>();  // p is in GM before the cube reads it",
                "    pv.SetTensorA(gp);",
                "    pv.SetTensorB(gv[kv * L * E]);",
                "    pv.SetTail(rows, E, L);",
                "    pv.IterateAll(gout[(static_cast<uint64_t>(h) * S + r0) * E]);",
                "  }",
                "  qk.End();",
                "  pv.End();",
                "}",
                "",
            ]
        )

    def _mask_lines(self) -> tuple[list[str], ...]:
        """The kernel's masking: Init's buffers, a chunk's mask rows in, a row's masking, the
        item's mask matrix, the chunk's free. A masked-out lane of a row becomes -inf by a
        CompareScalar into bits (a lane set: it takes part) and a Select; the mask's row is read
        as fp32 (one-byte masks through half), the causal rule compares lane indices made once
        (CreateVecIndex) with the row's last key. Compares run over L rounded up to 32 B."""
        job = self.k.attn
        assert job is not None
        mask, causal = job.mask, job.causal
        if mask is None and causal is None:
            return [], [], [], [], []
        init = [
            "  // masking: a row's bits (a set lane takes part), then -inf where clear",
            "  const uint32_t LA = (L + 7) / 8 * 8;",
            "  TBuf<TPosition::VECCALC> keepBuf;",
            "  pipe.InitBuffer(keepBuf, (P / 8 + 31) / 32 * 32);",
            "  LocalTensor<uint8_t> keep = keepBuf.Get<uint8_t>();",
        ]
        row: list[str] = []
        into: list[str] = []
        item: list[str] = []
        free: list[str] = []
        if mask is not None:
            init += [
                f"  using TM = DTYPE_{mask.name.upper()};",
                "  GlobalTensor<TM> gmask;",
                f"  gmask.SetGlobalBuffer((__gm__ TM*){mask.name});",
                "  TQue<TPosition::VECIN, 1> qm;",
                "  TBuf<TPosition::VECCALC> viaBuf, wideBuf;",
                "  pipe.InitBuffer(qm, 1, C * P * sizeof(TM));",
                "  pipe.InitBuffer(viaBuf, P * sizeof(half));",
                "  pipe.InitBuffer(wideBuf, P * sizeof(float));",
                "  LocalTensor<half> via = viaBuf.Get<half>();",
                "  LocalTensor<float> wide = wideBuf.Get<float>();",
            ]
            item = [
                "    // the mask's matrix",
                "    const uint64_t hm = h / t.maskDiv % t.maskMod;",
            ]
            into = [
                "      LocalTensor<TM> mk = qm.AllocTensor<TM>();",
                "      DataCopyPad(mk, gmask[(hm * S + r0 + c) * L], Block<TM>(n, L, L, P, true), "
                "DataCopyPadExtParams<TM>{false, 0, 0, 0});",
                "      qm.EnQue(mk);",
                "      mk = qm.DeQue<TM>();",
            ]
            cmp = "NE" if job.keeps else "EQ"  # the lanes that take part
            row += [
                f"        CompareScalar(keep, AsFloat(mk[r * P], via, wide, LA), 0.0f, CMPMODE::{cmp}, LA);",
                f"        Select(row, keep, row, {NEG_INF}, SELMODE::VSEL_TENSOR_SCALAR_MODE, L);",
            ]
            free = ["      qm.FreeTensor(mk);"]
        if causal is not None:
            init += [
                "  TBuf<TPosition::VECCALC> lanesBuf;",
                "  pipe.InitBuffer(lanesBuf, P * sizeof(float));",
                "  LocalTensor<float> lanes = lanesBuf.Get<float>();",
                "  CreateVecIndex(lanes, 0.0f, P);  // each lane's key index",
                f"  constexpr int32_t DIAG = {int(causal)};  // row i takes the keys j <= i + DIAG",
            ]
            row += [
                "        CompareScalar(keep, lanes, static_cast<float>(static_cast<int32_t>(r0 + c + r) + DIAG), "
                "CMPMODE::LE, LA);",
                f"        Select(row, keep, row, {NEG_INF}, SELMODE::VSEL_TENSOR_SCALAR_MODE, L);",
            ]
        return init, into, row, item, free

    def host_source(self) -> str:
        job = self.k.attn
        assert job is not None
        biased = job.bias is not None
        masked = job.mask is not None or job.causal is not None
        index = {a.name: i for i, a in enumerate(self.spec.inputs)}
        # UB beyond the softmax's own: the mask's rows (at most 4 B a lane), its half and fp32
        # widenings, the lane indices, the bits
        extra_fixed = (6 if job.mask is not None else 0) + (4 if job.causal is not None else 0)
        scale = (
            "1.0f / std::sqrt(static_cast<float>(D))"
            if job.scale is None
            else float_literal(job.scale)
        )
        return "\n".join(
            [
                "#include <cmath>",
                *self.host_prelude(),
                "// Generated from the tile DSL: attention, two matmuls and a softmax between.",
                f"constexpr uint32_t CUBE_CORES = {self.sched.block_dim};  "
                "// @tune block_dim in [1, 48] step 1",
                "constexpr uint32_t ROWS = 64;  // @tune rows in [16, 256] step 16",
                "constexpr uint32_t CHUNK_ROWS = 4;  // @tune chunk_rows in [1, 64] pow2",
                "",
                *CUBE_TYPE,
                "",
                "// A Matmul tiling of one work item: m x n x k on one core, C in `c`.",
                "static bool CubeTiling(platform_ascendc::PlatformAscendC& platform, TCubeTiling& out, "
                "int32_t m, int32_t n, int32_t k,",
                "                       bool transB, matmul_tiling::DataType ab, "
                "matmul_tiling::DataType c) {",
                "  using namespace matmul_tiling;",
                "  MultiCoreMatmulTiling mt(platform);",
                "  mt.SetDim(1);",
                "  mt.SetAType(TPosition::GM, CubeFormat::ND, ab);",
                "  mt.SetBType(TPosition::GM, CubeFormat::ND, ab, transB);",
                "  mt.SetCType(TPosition::GM, CubeFormat::ND, c);",
                "  mt.SetShape(m, n, k);",
                "  mt.SetOrgShape(m, n, k);",
                "  mt.SetBufferSpace(-1, -1, -1);",
                "  return mt.GetTiling(out) != -1;",
                "}",
                "",
                "// Matrices of a tensor [..., rows, cols]: the product of its batch axes.",
                "static uint64_t Batch(const gert::Shape& s) {",
                "  uint64_t n = 1;",
                "  for (size_t i = 0; i + 2 < s.GetDimNum(); ++i) n *= s.GetDim(i);",
                "  return n;",
                "}",
                "",
                "static ge::graphStatus TilingFunc(gert::TilingContext* context) {",
                f"  {self.tiling} tiling;",
                "  const gert::Shape& q = context->GetInputShape(0)->GetStorageShape();",
                "  const gert::Shape& k = context->GetInputShape(1)->GetStorageShape();",
                "  const gert::Shape& v = context->GetInputShape(2)->GetStorageShape();",
                "  const gert::Shape& o = context->GetOutputShape(0)->GetStorageShape();",
                "  const size_t nq = q.GetDimNum(), nk = k.GetDimNum(), nv = v.GetDimNum();",
                "  const uint64_t S = q.GetDim(nq - 2), D = q.GetDim(nq - 1), L = k.GetDim(nk - 2);",
                "  const uint64_t E = v.GetDim(nv - 1), heads = Batch(q), kvHeads = Batch(k);",
                "  // the keys and values: matrices of L rows, q's consecutive matrices sharing one",
                "  if (k.GetDim(nk - 1) != D || v.GetDim(nv - 2) != L || Batch(v) != kvHeads || "
                "kvHeads == 0 ||",
                "      heads % kvHeads != 0 || static_cast<uint64_t>(o.GetShapeSize()) != heads * S * E)",
                "    return ge::GRAPH_FAILED;",
                "  if (L == 0 || D == 0 || E == 0) return ge::GRAPH_FAILED;  // a softmax or a product over nothing",
                "  const uint64_t rows = std::min<uint64_t>(ROWS, std::max<uint64_t>(16, (S + 15) / 16 * 16));",
                *(
                    ["  const uint64_t pitch = (L + 31) / 32 * 32;  // a one-byte mask row: 32 B"]
                    if masked
                    else ["  const uint64_t pitch = (L + 15) / 16 * 16;"]
                ),
                "  const uint64_t size = 2;  // bytes of q's fp16 / bf16",
                "  uint64_t ubSize = 0;",
                "  auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());",
                "  platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);",
                "  // UB: a tile of scores (fp32) and of p, one reduction row, a slot a row.",
                f"  const uint64_t fixed = pitch * {(8 if biased else 4) + extra_fixed} + 1024"
                + (" + pitch / 8 + 32;" if masked else ";"),
                f"  const uint64_t perRow = pitch * (4 + size{' * 2' if biased else ''}"
                + (" + 4" if job.mask is not None else "")
                + ") + 32;",
                "  uint64_t chunk = CHUNK_ROWS;",
                "  while (chunk > 1 && fixed + chunk * perRow > ubSize) chunk /= 2;",
                "  if (fixed + chunk * perRow > ubSize) return ge::GRAPH_FAILED;",
                "  const matmul_tiling::DataType ab = CubeType(context->GetInputDesc(0)->GetDataType());",
                "  if (!CubeTiling(platform, tiling.qk, rows, L, D, true, ab, "
                "matmul_tiling::DataType::DT_FLOAT) ||",
                "      !CubeTiling(platform, tiling.pv, rows, E, L, false, ab, ab))",
                "    return ge::GRAPH_FAILED;",
                "  const uint64_t perAiv = (rows * L * 4 + 511) / 512 * 512 + (rows * L * size + 511) / 512 * 512;",
                "  const uint64_t items = heads * ((S + rows - 1) / rows);",
                "  // cube cores, each serving two AIVs' items",
                "  const uint64_t cores = std::min<uint64_t>(CUBE_CORES, platform.GetCoreNumAic());",
                "  const uint64_t groups = std::max<uint64_t>(1, std::min<uint64_t>(cores, (items + 1) / 2));",
                "  tiling.set_heads(static_cast<uint32_t>(heads));",
                "  tiling.set_group(static_cast<uint32_t>(heads / kvHeads));",
                "  tiling.set_seq(static_cast<uint32_t>(S));",
                "  tiling.set_kvSeq(static_cast<uint32_t>(L));",
                "  tiling.set_dim(static_cast<uint32_t>(D));",
                "  tiling.set_vDim(static_cast<uint32_t>(E));",
                "  tiling.set_rows(static_cast<uint32_t>(rows));",
                "  tiling.set_chunkRows(static_cast<uint32_t>(chunk));",
                "  tiling.set_pitch(static_cast<uint32_t>(pitch));",
                "  tiling.set_perAiv(perAiv);",
                f"  tiling.set_scale({scale});",
                *(broadcast_host(index[job.bias.name], "bias") if job.bias is not None else []),
                *(broadcast_host(index[job.mask.name], "mask") if job.mask is not None else []),
                "  context->SetBlockDim(static_cast<uint32_t>(groups));",
                *self.host_end(
                    [
                        "  // per AIV (two a group): its scores and p, after the library's workspace",
                        "  context->GetWorkspaceSizes(1)[0] = platform.GetLibApiWorkSpaceSize() + "
                        "2 * groups * perAiv;",
                    ]
                ),
            ]
        )
