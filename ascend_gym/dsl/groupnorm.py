"""Lowering of a DSL `group_norm`: torch's F.group_norm by several channels a group.

x [N, C, *] is seen as rows of one sample's group: C / groups channels, their planes one after
another (contiguous in x), so a row is `len` = C / groups x plane elements. Core i takes the
rows i, i + blockDim, ...; each is walked three times in chunks of up to `chunk` elements, each
chunk one DataCopyPad in (widened to fp32): the sum (ReduceSum, the scalar unit adding the
chunks) for the mean, the sum of squared deviations for the biased variance, then, channel by
channel, the plane's chunks scaled by rstd x the channel's weight and shifted by its bias less
the mean's share (the weight and bias two scalar GM reads a channel: the affine expanded along
the row one plane at a time), cast down and copied out. rstd is 1 / Sqrt of variance + eps on
eight lanes. The group count comes from an int attribute (or the program's number), so the
row length is the host's, per case.
"""

from __future__ import annotations

from ascend_gym.dsl.compute import float_literal
from ascend_gym.dsl.lang import DslError
from ascend_gym.dsl.lower import HELPERS, Lowering, check_one_dtype, check_operands

# x, weight, bias and y: one dtype a case, widened to fp32 for the statistics
DATA = ("float16", "float32", "bfloat16")


class GroupNormLowering(Lowering):
    """A kernel of one group_norm -> package files."""

    def _check(self) -> None:
        spec, job = self.spec, self.k.gnorm
        assert job is not None
        self.kind = "group_norm"
        ins = [job.x] + [t for t in (job.weight, job.bias) if t is not None]
        message = "a group_norm kernel has the spec's inputs x(, weight, bias) in order"
        check_operands(spec, [t.name for t in ins], job.out.name, job.where, message)
        attrs = {a.name: a.type for a in spec.attrs}
        if isinstance(job.groups, str) and attrs.get(job.groups) not in ("int", "int64"):
            raise DslError(job.where, f"groups: {job.groups!r} is not an int attribute")
        if isinstance(job.groups, str):
            self.int_attrs = frozenset([job.groups])
        if isinstance(job.eps, str) and attrs.get(job.eps) != "float":
            raise DslError(job.where, f"eps: {job.eps!r} is not a float attribute")
        names = [t.name for t in (*ins, job.out)]
        for c in spec.cases:
            check_one_dtype(spec, c, names, job.where, "a group_norm", DATA)
            if len(spec.arg_shape(c, job.x.name)) < 2:
                raise DslError(job.where, f"case {c.name}: an input of other than [N, C, *]")

    def fields(self) -> list[tuple[str, str, str]]:
        return [
            ("uint32_t", "rows", "samples x groups"),
            ("uint32_t", "groups", "groups a sample"),
            ("uint32_t", "cpg", "channels a group"),
            ("uint32_t", "plane", "a channel's elements"),
            ("uint32_t", "chunk", "elements a UB chunk"),
            ("float", "eps", "added to the variance"),
        ]

    def kernel_source(self) -> str:
        job = self.k.gnorm
        assert job is not None
        x, y = job.x.name, job.out.name
        w = job.weight.name if job.weight is not None else None
        b = job.bias.name if job.bias is not None else None
        gm = ", ".join(f"GM_ADDR {n}" for n in self._gm_args())
        names = ", ".join(["x", *(["w"] if w else []), *(["b"] if b else []), "y"])
        scale = "rstd * static_cast<float>(wGm.GetValue(ch))" if w else "rstd"
        shift = f"{'static_cast<float>(bGm.GetValue(ch))' if b else '0.0f'} - mean * scale"
        return "\n".join(
            [
                *self.prelude(),
                HELPERS,
                "// Generated from the tile DSL: group_norm, a row per sample and group of "
                "channels.",
                "",
                "template <typename T>",
                f"class {self.cls} {{",
                " public:",
                "  __aicore__ inline void Init("
                + ", ".join(f"GM_ADDR {n}" for n in names.split(", "))
                + ", "
                + ", ".join(f"{t} {n}" for t, n, _ in self.fields())
                + ") {",
                *(f"    this->{n} = {n};" for _, n, _ in self.fields()),
                "    len = static_cast<uint64_t>(cpg) * plane;",
                "    xGm.SetGlobalBuffer((__gm__ T*)x, rows * len);",
                *(["    wGm.SetGlobalBuffer((__gm__ T*)w, groups * cpg);"] if w else []),
                *(["    bGm.SetGlobalBuffer((__gm__ T*)b, groups * cpg);"] if b else []),
                "    yGm.SetGlobalBuffer((__gm__ T*)y, rows * len);",
                "    const uint32_t pad = AlignUp(chunk, 16u);",
                "    pipe.InitBuffer(xQueue, BUFFER_NUM, pad * sizeof(T));",
                "    pipe.InitBuffer(yQueue, BUFFER_NUM, pad * sizeof(T));",
                "    pipe.InitBuffer(valBuf, pad * sizeof(float));",
                "    pipe.InitBuffer(workBuf, pad * sizeof(float));",
                "    pipe.InitBuffer(redBuf, 32);",
                "  }",
                "  __aicore__ inline void Process() {",
                "    for (uint32_t r = GetBlockIdx(); r < rows; r += GetBlockNum()) {",
                "      const uint64_t at = r * len;",
                "      const uint32_t c0 = r % groups * cpg;  // the group's first channel",
                "      const float mean = Walk(at, 0.0f, false) / len;",
                "      const float var = Walk(at, mean, true) / len;  // biased, as torch's",
                "      LocalTensor<float> red = redBuf.Get<float>();",
                "      Duplicate(red, var + eps, 8);",
                "      Sqrt(red, red, 8);",
                "      const float rstd = 1.0f / red.GetValue(0);",
                "      for (uint32_t c = 0; c < cpg; ++c) {",
                "        const uint32_t ch = c0 + c;",
                f"        const float scale = {scale};",
                f"        const float shift = {shift};",
                "        for (uint32_t off = 0; off < plane; off += chunk) {",
                "          const uint32_t n = plane - off < chunk ? plane - off : chunk;",
                "          const uint64_t here = at + static_cast<uint64_t>(c) * plane + off;",
                "          CopyIn(here, n);",
                "          Normalise(n, scale, shift);",
                "          CopyOut(here, n);",
                "        }",
                "      }",
                "    }",
                "  }",
                "",
                " private:",
                "  // The row's sum, or its sum of squared deviations from `mean`, chunk by chunk.",
                "  __aicore__ inline float Walk(uint64_t at, float mean, bool squares) {",
                "    float total = 0.0f;",
                "    LocalTensor<float> red = redBuf.Get<float>();",
                "    for (uint64_t off = 0; off < len; off += chunk) {",
                "      const uint32_t n = len - off < chunk ? static_cast<uint32_t>(len - off) : chunk;",
                "      CopyIn(at + off, n);",
                "      LocalTensor<T> xt = xQueue.DeQue<T>();",
                "      LocalTensor<float> v = AsFloat(xt, valBuf.Get<float>(), n);",
                "      if (squares) {",
                "        LocalTensor<float> d = valBuf.Get<float>();",
                "        Adds(d, v, -mean, n);",
                "        Mul(d, d, d, n);",
                "        v = d;",
                "      }",
                "      ReduceSum(red, v, workBuf.Get<float>(), n);",
                "      total += red.GetValue(0);",
                "      xQueue.FreeTensor(xt);",
                "    }",
                "    return total;",
                "  }",
                "  __aicore__ inline void CopyIn(uint64_t at, uint32_t n) {",
                "    LocalTensor<T> xt = xQueue.AllocTensor<T>();",
                "    DataCopyPad(xt, xGm[at], DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(T)), "
                "0, 0, 0}, DataCopyPadExtParams<T>{false, 0, 0, 0});",
                "    xQueue.EnQue(xt);",
                "  }",
                "  // y = x * scale + shift on a chunk, in fp32, cast to y's dtype.",
                "  __aicore__ inline void Normalise(uint32_t n, float scale, float shift) {",
                "    LocalTensor<T> xt = xQueue.DeQue<T>();",
                "    LocalTensor<T> yt = yQueue.AllocTensor<T>();",
                "    LocalTensor<float> v = AsFloat(xt, valBuf.Get<float>(), n);",
                "    LocalTensor<float> o = FloatOut(yt, valBuf.Get<float>());",
                "    Muls(o, v, scale, n);",
                "    Adds(o, o, shift, n);",
                "    FromFloat(yt, o, n);",
                "    yQueue.EnQue(yt);",
                "    xQueue.FreeTensor(xt);",
                "  }",
                "  __aicore__ inline void CopyOut(uint64_t at, uint32_t n) {",
                "    LocalTensor<T> yt = yQueue.DeQue<T>();",
                "    DataCopyPad(yGm[at], yt, DataCopyExtParams{1, static_cast<uint32_t>(n * sizeof(T)), "
                "0, 0, 0});",
                "    yQueue.FreeTensor(yt);",
                "  }",
                "",
                "  TPipe pipe;",
                "  TQue<TPosition::VECIN, BUFFER_NUM> xQueue;",
                "  TQue<TPosition::VECOUT, BUFFER_NUM> yQueue;",
                "  TBuf<TPosition::VECCALC> valBuf, workBuf, redBuf;",
                "  GlobalTensor<T> xGm, "
                + ("wGm, " if w else "")
                + ("bGm, " if b else "")
                + "yGm;",
                "  uint32_t rows, groups, cpg, plane, chunk;",
                "  float eps;",
                "  uint64_t len;",
                "};",
                "",
                f'extern "C" __global__ __aicore__ void {self.spec.kernel}({gm}, GM_ADDR workspace, '
                "GM_ADDR tiling) {",
                "  GET_TILING_DATA(t, tiling);",
                "  if (t.rows == 0 || t.plane == 0) return;  // an empty tensor",
                f"  {self.cls}<DTYPE_{x.upper()}> op;",
                f"  op.Init({', '.join([x, *([w] if w else []), *([b] if b else []), y])}, "
                + ", ".join(f"t.{n}" for _, n, _ in self.fields())
                + ");",
                "  op.Process();",
                "}",
                "",
            ]
        )

    def host_source(self) -> str:
        job = self.k.gnorm
        assert job is not None
        index = {a.name: i for i, a in enumerate(self.spec.attrs)}
        defaults = {a.name: a.default for a in self.spec.attrs}
        if isinstance(job.groups, str):
            i = index[job.groups]
            groups = [
                f"  const int64_t* groupsAttr = context->GetAttrs()->GetInt({i});  // {job.groups}",
                f"  const int64_t groups = groupsAttr == nullptr ? {int(defaults[job.groups])} "
                ": *groupsAttr;",
            ]
        else:
            groups = [f"  const int64_t groups = {job.groups};"]
        if isinstance(job.eps, str):
            eps = [
                f"  const float* epsAttr = context->GetAttrs()->GetFloat({index[job.eps]});  "
                f"// {job.eps}",
                f"  tiling.set_eps(epsAttr == nullptr ? {float_literal(defaults[job.eps])} "
                ": *epsAttr);",
            ]
        else:
            eps = [f"  tiling.set_eps({float_literal(job.eps)});"]
        affine = [t for t in (job.weight, job.bias) if t is not None]
        return "\n".join(
            [
                *self.host_prelude(),
                "// Generated from the tile DSL: group_norm, a row per sample and group.",
                f"constexpr uint32_t BLOCK_DIM = {self.sched.block_dim};  "
                "// @tune block_dim in [1, 48] step 1",
                f"constexpr uint32_t BUFFER_NUM = {self.sched.buffer_num};  // the kernel's queue depth",
                "constexpr uint64_t CHUNK = 8192;  // @tune chunk in [256, 16384] pow2",
                "",
                "static ge::graphStatus TilingFunc(gert::TilingContext* context) {",
                f"  {self.tiling} tiling;",
                "  const gert::Shape& x = context->GetInputShape(0)->GetStorageShape();",
                "  if (x.GetDimNum() < 2) return ge::GRAPH_FAILED;",
                "  const uint64_t n = x.GetDim(0), c = x.GetDim(1);",
                "  const uint64_t plane = n * c == 0 ? 0 : x.GetShapeSize() / (n * c);",
                *groups,
                "  if (groups <= 0 || c % groups != 0) return ge::GRAPH_FAILED;",
                *(
                    f"  if (static_cast<uint64_t>(context->GetInputShape({i})->GetStorageShape()"
                    ".GetShapeSize()) != c) return ge::GRAPH_FAILED;  // a value a channel"
                    for i in range(1, 1 + len(affine))
                ),
                "  auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());",
                "  uint64_t ubSize = 0;",
                "  platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);",
                "  uint32_t size = 0;",
                "  ge::TypeUtils::GetDataTypeLength(context->GetInputDesc(0)->GetDataType(), size);",
                "  if (size == 0) return ge::GRAPH_FAILED;",
                "  // UB: x and y chunks queued, the fp32 values and ReduceSum's work a chunk",
                "  const uint64_t perElem = 2 * BUFFER_NUM * size + 8;",
                "  const uint64_t fit = (ubSize - 1024) / perElem / 64 * 64;",
                "  const uint64_t chunk = std::max<uint64_t>(64, std::min(CHUNK, fit));",
                "  const uint64_t rows = n * groups;",
                "  tiling.set_rows(static_cast<uint32_t>(rows));",
                "  tiling.set_groups(static_cast<uint32_t>(groups));",
                "  tiling.set_cpg(static_cast<uint32_t>(c / groups));",
                "  tiling.set_plane(static_cast<uint32_t>(plane));",
                "  tiling.set_chunk(static_cast<uint32_t>(chunk));",
                *eps,
                "  const uint64_t cores = std::min<uint64_t>(BLOCK_DIM, platform.GetCoreNumAiv());",
                "  context->SetBlockDim(static_cast<uint32_t>(std::max<uint64_t>(1, "
                "std::min(cores, rows))));",
                *self.host_end(["  context->GetWorkspaceSizes(1)[0] = 0;"]),
            ]
        )
