"""Lowering of a DSL `pool`: max or average pooling over the last one or two axes.

x is seen as planes of [H, W] (H = 1 for one axis), y as planes of [Ho, Wo]. Core i takes the
output rows i, i + blockDim, ...; for each, the input rows its window covers come in by one
DataCopyPad each and are widened to fp32, and each tap of the window along W is one `Gather` of
Wo lanes (byte offsets computed once per core by the scalar unit; a tap outside the row reads a
pad lane after it: -inf for max, 0 for avg) folded into the row by `Max` or `Add`. Rows of the
window outside the plane are skipped (their pad values change neither fold). The mean divides
once, by the window's size or `divisor_override`, as torch counts padding by default. The window
is tiling data: the program's numbers, or, for adaptive pooling, x's lengths over y's.
"""

from __future__ import annotations

from ascend_gym.dsl.lang import DslError
from ascend_gym.dsl.lower import HELPERS, Lowering, check_one_to_one, check_same_dtype

DATA = ("float16", "bfloat16", "float32")

# the tiling's window fields a walk of window rows reads (pool and conv kernels)
WINDOW = [
    ("uint32_t", "h", "x's rows a plane (1 for one pooled axis)"),
    ("uint32_t", "w", "x's last axis"),
    ("uint32_t", "ho", "y's rows a plane"),
    ("uint32_t", "wo", "y's last axis"),
    ("uint32_t", "kh", "the window's rows"),
    ("uint32_t", "kw", "the window's taps along W"),
    ("uint32_t", "sh", "its stride along H"),
    ("uint32_t", "sw", "its stride along W"),
    ("uint32_t", "ph", "padding above and below"),
    ("uint32_t", "pw", "padding left and right"),
    ("uint32_t", "dh", "rows between taps"),
    ("uint32_t", "dw", "lanes between taps"),
]


class PoolLowering(Lowering):
    """A kernel of one pool -> package files."""

    def _check(self) -> None:
        spec, job = self.spec, self.k.pooling
        assert job is not None
        self.kind = "pool"
        check_one_to_one(spec, job, "pool")
        for c in spec.cases:
            check_same_dtype(spec, c, job, "pool", DATA)
            if len(spec.arg_shape(c, job.x.name)) < job.axes:
                raise DslError(job.where, f"case {c.name}: fewer axes than the window's")

    def fields(self) -> list[tuple[str, str, str]]:
        return [
            ("uint32_t", "planes", "planes of [H, W] (the axes before the pooled ones)"),
            *WINDOW,
            ("float", "scale", "avg: 1 / the divisor"),
        ]

    def _window(self) -> list[str]:
        """Host lines setting the window: the program's numbers as (H, W) pairs (one pooled
        axis: a window one row high), or an adaptive window from the shapes."""
        job = self.k.pooling
        assert job is not None
        if job.kernel is None:
            return [
                "  // adaptive: a window as wide as its stride, where y's lengths divide x's",
                "  if (ho == 0 || wo == 0 || h % ho != 0 || w % wo != 0) return ge::GRAPH_FAILED;",
                "  const uint64_t kh = h / ho, kw = w / wo, sh = kh, sw = kw, ph = 0, pw = 0;",
                "  const uint64_t dh = 1, dw = 1, divisor = kh * kw;",
            ]

        def pair(t: tuple[int, ...], one: int) -> tuple[int, int]:
            return (one, t[0]) if len(t) == 1 else (t[0], t[1])

        (kh, kw), (sh, sw) = pair(job.kernel, 1), pair(job.stride, 1)
        (ph, pw), (dh, dw) = pair(job.padding, 0), pair(job.dilation, 1)
        divisor = job.divisor if job.divisor is not None else kh * kw
        return [
            f"  const uint64_t kh = {kh}, kw = {kw}, sh = {sh}, sw = {sw}, ph = {ph}, pw = {pw};",
            f"  const uint64_t dh = {dh}, dw = {dw}, divisor = {divisor};",
        ]

    def kernel_source(self) -> str:
        job = self.k.pooling
        assert job is not None
        x, y = job.x.name, job.out.name
        gm = ", ".join(f"GM_ADDR {n}" for n in self._gm_args())
        pad = "-__builtin_huge_valf()" if job.kind == "max" else "0.0f"
        return "\n".join(
            [
                *self.prelude(),
                HELPERS,
                f"// Generated from the tile DSL: {job.kind} pooling over the last "
                f"{job.axes} axes, a Gather per tap.",
                f"constexpr bool IS_MAX = {str(job.kind == 'max').lower()};",
                f"constexpr float PAD = {pad};  // what a tap outside the plane reads",
                "",
                "template <typename T>",
                f"class {self.cls} {{",
                " public:",
                "  __aicore__ inline void Init(GM_ADDR x, GM_ADDR y, "
                + ", ".join(f"{t} {n}" for t, n, _ in self.fields())
                + ") {",
                *(f"    this->{n} = {n};" for _, n, _ in self.fields()),
                "    wAl = AlignUp(w, 8u), woPad = AlignUp(wo, 16u);",
                "    xGm.SetGlobalBuffer((__gm__ T*)x, static_cast<uint64_t>(planes) * h * w);",
                "    yGm.SetGlobalBuffer((__gm__ T*)y, static_cast<uint64_t>(planes) * ho * wo);",
                *row_buffers(),
                "  }",
                "  __aicore__ inline void Process() {",
                "    const uint32_t rows = planes * ho;",
                "    for (uint32_t r = GetBlockIdx(); r < rows; r += GetBlockNum()) {",
                "      const uint32_t plane = r / ho, oh = r % ho;",
                "      LocalTensor<float> acc = accBuf.Get<float>();",
                "      Duplicate(acc, IS_MAX ? PAD : 0.0f, wo);",
                "      for (uint32_t i = 0; i < kh; ++i) {",
                "        const int64_t row = static_cast<int64_t>(oh) * sh + i * dh - ph;",
                "        if (row < 0 || row >= h) continue;  // a pad row changes neither fold",
                "        CopyIn((static_cast<uint64_t>(plane) * h + row) * w);",
                "        Taps(acc);",
                "      }",
                "      CopyOut(acc, static_cast<uint64_t>(r) * wo);",
                "    }",
                "  }",
                "",
                " private:",
                *window_methods(),
                "  // One input row's taps folded into the output row.",
                "  __aicore__ inline void Taps(const LocalTensor<float>& acc) {",
                "    LocalTensor<T> xt = xQueue.DeQue<T>();",
                "    LocalTensor<float> row = AsFloat(xt, rowBuf.Get<float>(), w);",
                "    Duplicate(row[wAl], PAD, 8);",
                "    LocalTensor<float> tap = tapBuf.Get<float>();",
                "    LocalTensor<uint32_t> off = offsetBuf.Get<uint32_t>();",
                "    for (uint32_t i = 0; i < kw; ++i) {",
                "      Gather(tap.template ReinterpretCast<uint32_t>(), "
                "row.template ReinterpretCast<uint32_t>(), off[i * woPad], 0, wo);",
                "      if constexpr (IS_MAX) {",
                "        Max(acc, acc, tap, wo);",
                "      } else {",
                "        Add(acc, acc, tap, wo);",
                "      }",
                "    }",
                "    xQueue.FreeTensor(xt);",
                "  }",
                "  __aicore__ inline void CopyOut(const LocalTensor<float>& acc, uint64_t at) {",
                "    if constexpr (!IS_MAX) {",
                "      Muls(acc, acc, scale, wo);",
                "    }",
                *store_row(),
                "  }",
                "",
                "  TPipe pipe;",
                "  TQue<TPosition::VECIN, BUFFER_NUM> xQueue;",
                "  TQue<TPosition::VECOUT, BUFFER_NUM> yQueue;",
                "  TBuf<TPosition::VECCALC> rowBuf, offsetBuf, tapBuf, accBuf;",
                "  GlobalTensor<T> xGm, yGm;",
                "  uint32_t planes, h, w, ho, wo, kh, kw, sh, sw, ph, pw, dh, dw, wAl, woPad;",
                "  float scale;",
                "};",
                "",
                f'extern "C" __global__ __aicore__ void {self.spec.kernel}({gm}, GM_ADDR workspace, '
                "GM_ADDR tiling) {",
                "  GET_TILING_DATA(t, tiling);",
                "  if (t.planes == 0 || t.ho == 0 || t.wo == 0) return;  // an empty output",
                f"  {self.cls}<DTYPE_{x.upper()}> op;",
                f"  op.Init({x}, {y}, {', '.join(f't.{n}' for _, n, _ in self.fields())});",
                "  op.Process();",
                "}",
                "",
            ]
        )

    def host_source(self) -> str:
        job = self.k.pooling
        assert job is not None
        axes = job.axes
        return "\n".join(
            [
                *self.host_prelude(),
                f"// Generated from the tile DSL: {job.kind} pooling over the last {axes} axes.",
                f"constexpr uint32_t BLOCK_DIM = {self.sched.block_dim};  "
                "// @tune block_dim in [1, 48] step 1",
                f"constexpr uint32_t BUFFER_NUM = {self.sched.buffer_num};  // the kernel's queue depth",
                f"constexpr uint64_t AXES = {axes};  // pooled axes",
                "",
                "static ge::graphStatus TilingFunc(gert::TilingContext* context) {",
                f"  {self.tiling} tiling;",
                "  const gert::Shape& x = context->GetInputShape(0)->GetStorageShape();",
                "  const gert::Shape& y = context->GetOutputShape(0)->GetStorageShape();",
                "  const size_t nx = x.GetDimNum(), ny = y.GetDimNum();",
                "  if (nx < AXES || ny < AXES) return ge::GRAPH_FAILED;",
                "  const uint64_t w = x.GetDim(nx - 1), h = AXES == 2 ? x.GetDim(nx - 2) : 1;",
                "  const uint64_t wo = y.GetDim(ny - 1), ho = AXES == 2 ? y.GetDim(ny - 2) : 1;",
                "  const uint64_t planes = h * w == 0 ? 0 : x.GetShapeSize() / (h * w);",
                "  if (planes * ho * wo != static_cast<uint64_t>(y.GetShapeSize())) "
                "return ge::GRAPH_FAILED;",
                *self._window(),
                "  uint32_t size = 0;",
                "  ge::TypeUtils::GetDataTypeLength(context->GetInputDesc(0)->GetDataType(), size);",
                "  if (size == 0) return ge::GRAPH_FAILED;",
                *ub_check(),
                "  tiling.set_planes(static_cast<uint32_t>(planes));",
                "  tiling.set_h(static_cast<uint32_t>(h));",
                "  tiling.set_w(static_cast<uint32_t>(w));",
                "  tiling.set_ho(static_cast<uint32_t>(ho));",
                "  tiling.set_wo(static_cast<uint32_t>(wo));",
                *(
                    f"  tiling.set_{f}(static_cast<uint32_t>({f}));"
                    for f in ("kh", "kw", "sh", "sw", "ph", "pw", "dh", "dw")
                ),
                "  tiling.set_scale(1.0f / static_cast<float>(divisor));",
                "  const uint64_t rows = planes * ho;",
                "  const uint64_t cores = std::min<uint64_t>(BLOCK_DIM, platform.GetCoreNumAiv());",
                "  context->SetBlockDim(static_cast<uint32_t>(std::max<uint64_t>(1, "
                "std::min(cores, rows))));",
                *self.host_end(["  context->GetWorkspaceSizes(1)[0] = 0;"]),
            ]
        )


def row_buffers() -> list[str]:
    """Init's buffers for a walk of window rows: the queued x row with its pad lanes, the
    queued y row, the fp32 row, the taps' offsets, a tap and the accumulated row; then Offsets()."""
    return [
        "    // a row of x and its pad lanes (fp32 rows are gathered from in place)",
        "    pipe.InitBuffer(xQueue, BUFFER_NUM, AlignUp((wAl + 8) * sizeof(T), 32u));",
        "    pipe.InitBuffer(yQueue, BUFFER_NUM, woPad * sizeof(T));",
        "    pipe.InitBuffer(rowBuf, (wAl + 8) * sizeof(float));",
        "    pipe.InitBuffer(offsetBuf, kw * woPad * sizeof(uint32_t));",
        "    pipe.InitBuffer(tapBuf, woPad * sizeof(float));",
        "    pipe.InitBuffer(accBuf, woPad * sizeof(float));",
        "    Offsets();",
    ]


def window_methods() -> list[str]:
    """Offsets(), the taps' byte offsets written once by the scalar unit, and CopyIn(at), one
    input row into the queue."""
    return [
        "  // Each tap's byte offsets into an fp32 row: lane j * sw + i * dw - pw, or the",
        "  // pad lane after the row where that falls outside it. The scalar unit writes",
        "  // them once; the vector unit waits for it before its first Gather.",
        "  __aicore__ inline void Offsets() {",
        "    LocalTensor<uint32_t> off = offsetBuf.Get<uint32_t>();",
        "    for (uint32_t i = 0; i < kw; ++i) {",
        "      for (uint32_t j = 0; j < wo; ++j) {",
        "        const int64_t col = static_cast<int64_t>(j) * sw + i * dw - pw;",
        "        const uint32_t lane = col < 0 || col >= w ? wAl : static_cast<uint32_t>(col);",
        "        off.SetValue(i * woPad + j, lane * static_cast<uint32_t>(sizeof(float)));",
        "      }",
        "    }",
        "    event_t ev = static_cast<event_t>(pipe.FetchEventID(HardEvent::S_V));",
        "    SetFlag<HardEvent::S_V>(ev);",
        "    WaitFlag<HardEvent::S_V>(ev);",
        "  }",
        "  __aicore__ inline void CopyIn(uint64_t at) {",
        "    LocalTensor<T> xt = xQueue.AllocTensor<T>();",
        "    DataCopyPad(xt, xGm[at], DataCopyExtParams{1, "
        "static_cast<uint32_t>(w * sizeof(T)), 0, 0, 0},",
        "                DataCopyPadExtParams<T>{false, 0, 0, 0});",
        "    xQueue.EnQue(xt);",
        "  }",
    ]


def store_row() -> list[str]:
    """The accumulated fp32 row cast to y's dtype and copied out at `at`."""
    return [
        "    LocalTensor<T> yt = yQueue.AllocTensor<T>();",
        "    CopyFloat(yt, acc, wo);",
        "    yQueue.EnQue(yt);",
        "    yt = yQueue.DeQue<T>();",
        "    DataCopyPad(yGm[at], yt, DataCopyExtParams{1, "
        "static_cast<uint32_t>(wo * sizeof(T)), 0, 0, 0});",
        "    yQueue.FreeTensor(yt);",
    ]


def ub_check() -> list[str]:
    """Host lines: the UB a walk of window rows needs (`kw` taps, `size`-byte elements); a
    row longer than UB fails the tiling."""
    return [
        "  auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());",
        "  uint64_t ubSize = 0;",
        "  platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);",
        "  const uint64_t wAl = (w + 7) / 8 * 8, woPad = (wo + 15) / 16 * 16;",
        "  // queued x and y rows; the fp32 row, the taps' offsets, a tap and the result",
        "  const uint64_t bytes = BUFFER_NUM * (((wAl + 8) * size + 31) / 32 * 32 + woPad * size) +",
        "                         (wAl + 8) * 4 + kw * woPad * 4 + 2 * woPad * 4;",
        "  if (bytes > ubSize) return ge::GRAPH_FAILED;  // a row longer than UB",
    ]
