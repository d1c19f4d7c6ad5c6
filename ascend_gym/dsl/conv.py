"""Lowering of a DSL `conv`: torch's conv1d / conv2d over the last one or two axes.

x is seen as [batch, C_in, H, W] (H = 1 for one axis), the weight as [C_out, C_in / groups, KH,
KW], y as [batch, C_out, Ho, Wo]. Core i takes the output rows i, i + blockDim, ...; each starts
from its channel's bias (a scalar GM read) and, for every input channel of its group and every
window row inside the plane, copies that input row in by one DataCopyPad, widens it to fp32 and
adds each tap along W: one `Gather` of Wo lanes (the pool kernel's byte offsets, computed once
per core by the scalar unit; a tap outside the row reads a zero lane after it) times the tap's
weight (a scalar GM read) by `Axpy`. Window rows outside the plane are skipped (zeros add
nothing). Sizes and groups (C_in over the weight's second axis) come from the shapes; stride,
padding (before each axis) and dilation are the program's numbers.
"""

from __future__ import annotations

from ascend_gym.dsl.lang import DslError
from ascend_gym.dsl.lower import HELPERS, Lowering, check_one_dtype, check_operands
from ascend_gym.dsl.pool import DATA, WINDOW, row_buffers, store_row, ub_check, window_methods


class ConvLowering(Lowering):
    """A kernel of one conv -> package files."""

    def _check(self) -> None:
        spec, job = self.spec, self.k.convolution
        assert job is not None
        self.kind = "conv"
        ins = [job.x, job.weight] + ([job.bias] if job.bias is not None else [])
        message = "a conv kernel has the spec's inputs x, weight(, bias) in order"
        check_operands(spec, [t.name for t in ins], job.out.name, job.where, message)
        for c in spec.cases:
            check_one_dtype(spec, c, [t.name for t in (*ins, job.out)], job.where, "a conv", DATA)
            if len(spec.arg_shape(c, job.weight.name)) != job.axes + 2:
                raise DslError(
                    job.where, f"case {c.name}: a weight of other than {job.axes + 2} axes"
                )
            if len(spec.arg_shape(c, job.x.name)) < job.axes + 1:
                raise DslError(job.where, f"case {c.name}: no channel axis before the window's")

    def fields(self) -> list[tuple[str, str, str]]:
        return [
            ("uint32_t", "planes", "y's planes of [Ho, Wo]: batch x C_out"),
            ("uint32_t", "cin", "x's channels"),
            ("uint32_t", "cout", "y's channels"),
            ("uint32_t", "groups", "channel groups"),
            *WINDOW,
        ]

    def kernel_source(self) -> str:
        job = self.k.convolution
        assert job is not None
        x, wt, y = job.x.name, job.weight.name, job.out.name
        b = job.bias.name if job.bias is not None else None
        gm = ", ".join(f"GM_ADDR {n}" for n in self._gm_args())
        bias_init = ["    bGm.SetGlobalBuffer((__gm__ T*)b, cout);"] if b is not None else []
        start = "static_cast<float>(bGm.GetValue(o))" if b is not None else "0.0f"
        return "\n".join(
            [
                *self.prelude(),
                HELPERS,
                f"// Generated from the tile DSL: a convolution over the last {job.axes} axes, "
                "a Gather and an Axpy per tap.",
                "",
                "template <typename T>",
                f"class {self.cls} {{",
                " public:",
                "  __aicore__ inline void Init(GM_ADDR x, GM_ADDR wt, "
                + ("GM_ADDR b, " if b is not None else "")
                + "GM_ADDR y, "
                + ", ".join(f"{t} {n}" for t, n, _ in self.fields())
                + ") {",
                *(f"    this->{n} = {n};" for _, n, _ in self.fields()),
                "    wAl = AlignUp(w, 8u), woPad = AlignUp(wo, 16u);",
                "    cinG = cin / groups, coutG = cout / groups;",
                "    const uint64_t batch = planes / cout;",
                "    xGm.SetGlobalBuffer((__gm__ T*)x, batch * cin * h * w);",
                "    wtGm.SetGlobalBuffer((__gm__ T*)wt, static_cast<uint64_t>(cout) * cinG * kh * kw);",
                *bias_init,
                "    yGm.SetGlobalBuffer((__gm__ T*)y, static_cast<uint64_t>(planes) * ho * wo);",
                *row_buffers(),
                "  }",
                "  __aicore__ inline void Process() {",
                "    const uint32_t rows = planes * ho;",
                "    for (uint32_t r = GetBlockIdx(); r < rows; r += GetBlockNum()) {",
                "      const uint32_t plane = r / ho, oh = r % ho;",
                "      const uint32_t n = plane / cout, o = plane % cout;",
                "      const uint32_t c0 = o / coutG * cinG;  // the group's first input channel",
                "      LocalTensor<float> acc = accBuf.Get<float>();",
                f"      Duplicate(acc, {start}, wo);",
                "      for (uint32_t c = 0; c < cinG; ++c) {",
                "        for (uint32_t i = 0; i < kh; ++i) {",
                "          const int64_t row = static_cast<int64_t>(oh) * sh + i * dh - ph;",
                "          if (row < 0 || row >= h) continue;  // a zero row adds nothing",
                "          CopyIn(((static_cast<uint64_t>(n) * cin + c0 + c) * h + row) * w);",
                "          Taps(acc, ((static_cast<uint64_t>(o) * cinG + c) * kh + i) * kw);",
                "        }",
                "      }",
                "      CopyOut(acc, static_cast<uint64_t>(r) * wo);",
                "    }",
                "  }",
                "",
                " private:",
                *window_methods(),
                "  // One input row's taps, each times its weight, added into the output row.",
                "  __aicore__ inline void Taps(const LocalTensor<float>& acc, uint64_t at) {",
                "    LocalTensor<T> xt = xQueue.DeQue<T>();",
                "    LocalTensor<float> row = AsFloat(xt, rowBuf.Get<float>(), w);",
                "    Duplicate(row[wAl], 0.0f, 8);",
                "    LocalTensor<float> tap = tapBuf.Get<float>();",
                "    LocalTensor<uint32_t> off = offsetBuf.Get<uint32_t>();",
                "    for (uint32_t i = 0; i < kw; ++i) {",
                "      Gather(tap.template ReinterpretCast<uint32_t>(), "
                "row.template ReinterpretCast<uint32_t>(), off[i * woPad], 0, wo);",
                "      Axpy(acc, tap, static_cast<float>(wtGm.GetValue(at + i)), wo);",
                "    }",
                "    xQueue.FreeTensor(xt);",
                "  }",
                "  __aicore__ inline void CopyOut(const LocalTensor<float>& acc, uint64_t at) {",
                *store_row(),
                "  }",
                "",
                "  TPipe pipe;",
                "  TQue<TPosition::VECIN, BUFFER_NUM> xQueue;",
                "  TQue<TPosition::VECOUT, BUFFER_NUM> yQueue;",
                "  TBuf<TPosition::VECCALC> rowBuf, offsetBuf, tapBuf, accBuf;",
                "  GlobalTensor<T> xGm, wtGm, " + ("bGm, " if b is not None else "") + "yGm;",
                "  uint32_t " + ", ".join(n for _, n, _ in self.fields()) + ";",
                "  uint32_t wAl, woPad, cinG, coutG;",
                "};",
                "",
                f'extern "C" __global__ __aicore__ void {self.spec.kernel}({gm}, GM_ADDR workspace, '
                "GM_ADDR tiling) {",
                "  GET_TILING_DATA(t, tiling);",
                "  if (t.planes == 0 || t.ho == 0 || t.wo == 0) return;  // an empty output",
                f"  {self.cls}<DTYPE_{x.upper()}> op;",
                f"  op.Init({x}, {wt}, {f'{b}, ' if b is not None else ''}{y}, "
                + ", ".join(f"t.{n}" for _, n, _ in self.fields())
                + ");",
                "  op.Process();",
                "}",
                "",
            ]
        )

    def host_source(self) -> str:
        job = self.k.convolution
        assert job is not None

        def pair(t: tuple[int, ...], one: int) -> tuple[int, int]:
            return (one, t[0]) if len(t) == 1 else (t[0], t[1])

        (sh, sw), (ph, pw), (dh, dw) = (
            pair(job.stride, 1),
            pair(job.padding, 0),
            pair(job.dilation, 1),
        )
        return "\n".join(
            [
                *self.host_prelude(),
                f"// Generated from the tile DSL: a convolution over the last {job.axes} axes.",
                f"constexpr uint32_t BLOCK_DIM = {self.sched.block_dim};  "
                "// @tune block_dim in [1, 48] step 1",
                f"constexpr uint32_t BUFFER_NUM = {self.sched.buffer_num};  // the kernel's queue depth",
                f"constexpr uint64_t AXES = {job.axes};  // convolved axes",
                "",
                "static ge::graphStatus TilingFunc(gert::TilingContext* context) {",
                f"  {self.tiling} tiling;",
                "  const gert::Shape& x = context->GetInputShape(0)->GetStorageShape();",
                "  const gert::Shape& wt = context->GetInputShape(1)->GetStorageShape();",
                "  const gert::Shape& y = context->GetOutputShape(0)->GetStorageShape();",
                "  const size_t nx = x.GetDimNum(), ny = y.GetDimNum();",
                "  if (nx < AXES + 1 || ny < AXES + 1 || wt.GetDimNum() != AXES + 2) "
                "return ge::GRAPH_FAILED;",
                "  const uint64_t w = x.GetDim(nx - 1), h = AXES == 2 ? x.GetDim(nx - 2) : 1;",
                "  const uint64_t wo = y.GetDim(ny - 1), ho = AXES == 2 ? y.GetDim(ny - 2) : 1;",
                "  const uint64_t cin = x.GetDim(nx - 1 - AXES), cout = wt.GetDim(0);",
                "  const uint64_t kh = AXES == 2 ? wt.GetDim(2) : 1, kw = wt.GetDim(AXES + 1);",
                "  const uint64_t groups = wt.GetDim(1) == 0 ? 0 : cin / wt.GetDim(1);  // as torch infers",
                "  if (groups == 0 || cin != wt.GetDim(1) * groups || cout % groups != 0 || kh * kw == 0)",
                "    return ge::GRAPH_FAILED;",
                "  const uint64_t batch = cin * h * w == 0 ? 0 : x.GetShapeSize() / (cin * h * w);",
                "  const uint64_t planes = batch * cout;",
                "  if (planes * ho * wo != static_cast<uint64_t>(y.GetShapeSize())) "
                "return ge::GRAPH_FAILED;",
                f"  const uint64_t sh = {sh}, sw = {sw}, ph = {ph}, pw = {pw}, dh = {dh}, dw = {dw};",
                "  uint32_t size = 0;",
                "  ge::TypeUtils::GetDataTypeLength(context->GetInputDesc(0)->GetDataType(), size);",
                "  if (size == 0) return ge::GRAPH_FAILED;",
                *ub_check(),
                *(
                    f"  tiling.set_{f}(static_cast<uint32_t>({f}));"
                    for f in (
                        "planes",
                        "cin",
                        "cout",
                        "h",
                        "w",
                        "ho",
                        "wo",
                        "kh",
                        "kw",
                        "sh",
                        "sw",
                        "ph",
                        "pw",
                        "dh",
                        "dw",
                        "groups",
                    )
                ),
                "  const uint64_t rows = planes * ho;",
                "  const uint64_t cores = std::min<uint64_t>(BLOCK_DIM, platform.GetCoreNumAiv());",
                "  context->SetBlockDim(static_cast<uint32_t>(std::max<uint64_t>(1, "
                "std::min(cores, rows))));",
                *self.host_end(["  context->GetWorkspaceSizes(1)[0] = 0;"]),
            ]
        )
