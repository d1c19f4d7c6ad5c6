"""Host tiling registration and tiling helpers on tilings of ours: IMPL_OP_OPTILING with
TilingParse, value-depend inputs, InferShape, the ops-nn and ops-math template registries, the
atvoss DAG vocabulary and elementwise tiling, the high-level APIs' tmp-size helpers (Sin/Cos,
Power, pattern reduces, Broadcast) as asc-devkit computes them, and tiling headers (toolkit includes,
tiling classes, a TilingData in a header of its own) as the kernel side compiles them."""

import numpy as np
from conftest import HOST, TILING_WORDS, tiling_words

from npu_daemon import source_policy

COPY_BODY = """
  GET_TILING_DATA(t, tiling);
  GlobalTensor<float32_t> xg, yg;
  const int64_t n = t.p[0] / GetBlockNum();
  xg.SetGlobalBuffer((__gm__ float32_t*)x + GetBlockIdx() * n);
  yg.SetGlobalBuffer((__gm__ float32_t*)y + GetBlockIdx() * n);
  TPipe pipe;
  TQueBind<TPosition::VECIN, TPosition::VECOUT, 1> q;
  pipe.InitBuffer(q, 1, n * 4);
  LocalTensor<float32_t> v = q.AllocTensor<float32_t>();
  DataCopy(v, xg, n);
  q.EnQue(v);
  v = q.DeQue<float32_t>();
  if (likely(n > 0)) DataCopy(yg, v, n);
  q.FreeTensor(v);
"""


# The generic host of conftest, with the tiling registered through IMPL_OP_OPTILING and a
# TilingParse that fills a CompileInfo the tiling reads back (block dim from it, not the attr).
IMPL_HOST = (
    HOST.replace(
        "this->AICore().SetTiling(optiling::SimkTiling).AddConfig",
        "this->AICore().AddConfig",
    )
    .replace(
        "namespace optiling {",
        """#include <iostream>
#include "platform/platform_info.h"
namespace optiling {
struct SimkCompileInfo { uint32_t cores = 0; };
static ge::graphStatus SimkParse(gert::TilingParseContext* ctx) {
  auto* info = ctx->GetCompiledInfo<SimkCompileInfo>();
  info->cores = platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo()).GetCoreNumAiv();
  return ge::GRAPH_SUCCESS;
}""",
    )
    .replace(
        "ctx->SetBlockDim(static_cast<uint32_t>(*attrs->GetInt(1)));",
        """const auto* info = ctx->GetCompileInfo<SimkCompileInfo>();
  if (info == nullptr || info->cores == 0) return ge::GRAPH_FAILED;
  // CANN's getters do not check the type: an Int attr read as int32_t is its low half.
  const int32_t blocks = *attrs->GetAttrPointer<int32_t>(1);
  std::ostringstream note;
  note << "cores " << info->cores;
  (void)ge::DT_COMPLEX64;
  ctx->SetBlockDim(static_cast<uint32_t>(blocks) > info->cores ? info->cores : blocks);""",
    )
    .replace(
        "}  // namespace optiling",
        """}  // namespace optiling
IMPL_OP_OPTILING(Simk).Tiling(optiling::SimkTiling).TilingParse<optiling::SimkCompileInfo>(optiling::SimkParse);
IMPL_OP_INFERSHAPE(Simk).InferShape([](gert::InferShapeContext* c) {
  return c->GetInputTensor(0) == nullptr ? ge::GRAPH_SUCCESS : ge::GRAPH_PARAM_INVALID;
});""",
    )
)


# Two templates of our own under the ops-math registry: priority 0 declines, priority 5 tiles.
MATH_TEMPLATES = """#include "op_host/math_tiling_templates_registry.h"

namespace optiling {
using namespace Ops::Base;

class SimkBase : public TilingBaseClass {
 public:
  SimkBase(gert::TilingContext* context, int64_t mark, bool capable)
      : TilingBaseClass(context), mark_(mark), capable_(capable) {}

 protected:
  bool IsCapable() override { return capable_; }
  ge::graphStatus GetPlatformInfo() override { return ge::GRAPH_SUCCESS; }
  ge::graphStatus GetShapeAttrsInfo() override { return ge::GRAPH_SUCCESS; }
  ge::graphStatus DoOpTiling() override {
    SimkTilingData t;
    int64_t p[8] = {mark_};
    t.set_p(p);
    t.SaveToBuffer(context_->GetRawTilingData()->GetData(), context_->GetRawTilingData()->GetCapacity());
    context_->GetRawTilingData()->SetDataSize(t.GetDataSize());
    context_->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus DoLibApiTiling() override { return ge::GRAPH_SUCCESS; }
  uint64_t GetTilingKey() const override { return 0; }
  ge::graphStatus GetWorkspaceSize() override {
    context_->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus PostTiling() override { return ge::GRAPH_SUCCESS; }

 private:
  int64_t mark_;
  bool capable_;
};
struct Declines : SimkBase { explicit Declines(gert::TilingContext* c) : SimkBase(c, 100, false) {} };
struct Tiles : SimkBase { explicit Tiles(gert::TilingContext* c) : SimkBase(c, 5, true) {} };

REGISTER_OPS_TILING_TEMPLATE(Simk, Tiles, 5);
REGISTER_OPS_TILING_TEMPLATE(Simk, Declines, 0);

static ge::graphStatus SimkTiling(gert::TilingContext* ctx) {
  return Ops::Math::OpTiling::TilingRegistry::GetInstance().DoTilingImpl(ctx);
}
}  // namespace optiling
"""


# An elementwise DAG of our own in the op base's atvoss vocabulary: y = |x| < 4 as uint8.
ATVOSS_DAG = """#include "atvoss/util/dag.h"
#include "atvoss/util/vec.h"
#include "atvoss/util/placeholder.h"
#include "atvoss/elewise/elewise_tiling.h"
namespace simk_dag {
using namespace Ops::Base;
template <typename U, typename T = float>
struct BelowFour {
  using Four = MAKE_CONST(T, 4.0f);
  using One = MAKE_CONST(uint8_t, 1);
  using Zero = MAKE_CONST(uint8_t, 0);
  using Ones = Bind<Vec::Duplicate<uint8_t>, One>;
  using Abs = Bind<Vec::Abs<T>, Bind<Vec::Cast<T, U, 0>, Bind<Vec::CopyIn<U>, Placeholder::In0<U>>>>;
  using Mask = Bind<Vec::Compare<uint8_t, T, 0>, Abs, Four>;
  using Picked = Bind<Vec::Select<uint8_t, uint8_t, 1>, Mask, Ones, Zero>;
  using OpDag = DAGSch<Elems<Bind<Vec::CopyOut<uint8_t>, Placeholder::Out0<uint8_t>, Picked>>, void,
                       MemOptCfg<MemLevel::LEVEL_2>>;
};
}  // namespace simk_dag
"""


def _tiling_words(kernel, call: str) -> list[int]:
    body = """GET_TILING_DATA(t, tiling); GlobalTensor<int64_t> zg; zg.SetGlobalBuffer((__gm__ int64_t*)z, 4);
  zg.SetValue(0, t.p[0]); zg.SetValue(1, t.p[1]); zg.SetValue(2, t.p[2]);"""
    r = kernel(body, {"x": np.zeros(8, np.float32)}, {"z": ("int64", (4,))}, host=_host(call)).ok()
    return list(r.outputs["z"][:3])


def _host(call: str) -> str:
    tiling = HOST[HOST.index("namespace optiling {") : HOST.index("namespace ops {")]
    return HOST.replace(tiling, TEMPLATES.replace("CALL", call))


# Three templates of our own: priority 0 declines (IsCapable false), priority 1 tiles; an
# architecture-keyed pair where only the A2's (DAV_2201) may run.
TEMPLATES = """#include "op_host/tiling_templates_registry.h"
#include "op_host/tiling_util.h"

namespace optiling {
using namespace Ops::NN::OpTiling;

class SimkBase : public Ops::NN::Optiling::TilingBaseClass {
 public:
  SimkBase(gert::TilingContext* context, int64_t mark, bool capable)
      : TilingBaseClass(context), mark_(mark), capable_(capable) {}

 protected:
  bool IsCapable() override { return capable_; }
  ge::graphStatus GetPlatformInfo() override { return ge::GRAPH_SUCCESS; }
  ge::graphStatus GetShapeAttrsInfo() override {
    size_ = EnsureNotScalar(gert::Shape()).GetShapeSize() * 10 +
            EnsureNotScalar(context_->GetInputShape(0)->GetStorageShape()).GetShapeSize();
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus DoOpTiling() override {
    SimkTilingData t;
    int64_t p[8] = {mark_, size_, IsRegbaseSocVersion(context_) ? 1 : 0};
    t.set_p(p);
    t.SaveToBuffer(context_->GetRawTilingData()->GetData(), context_->GetRawTilingData()->GetCapacity());
    context_->GetRawTilingData()->SetDataSize(t.GetDataSize());
    context_->SetBlockDim(1);
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus DoLibApiTiling() override { return ge::GRAPH_SUCCESS; }
  uint64_t GetTilingKey() const override { return 0; }
  ge::graphStatus GetWorkspaceSize() override {
    context_->GetWorkspaceSizes(1)[0] = 0;
    return ge::GRAPH_SUCCESS;
  }
  ge::graphStatus PostTiling() override { return ge::GRAPH_SUCCESS; }

 private:
  int64_t mark_;
  int64_t size_ = 0;
  bool capable_;
};
struct Declines : SimkBase { explicit Declines(gert::TilingContext* c) : SimkBase(c, 100, false) {} };
struct Tiles : SimkBase { explicit Tiles(gert::TilingContext* c) : SimkBase(c, 1, true) {} };
struct ForA2 : SimkBase { explicit ForA2(gert::TilingContext* c) : SimkBase(c, 2201, true) {} };
struct ForRegbase : SimkBase { explicit ForRegbase(gert::TilingContext* c) : SimkBase(c, 3510, true) {} };

REGISTER_OPS_TILING_TEMPLATE(Simk, Tiles, 1);
REGISTER_OPS_TILING_TEMPLATE(Simk, Declines, 0);
REGISTER_TILING_TEMPLATE_WITH_ARCH(Simk, ForRegbase, static_cast<int32_t>(NpuArch::DAV_3510), 0);
REGISTER_TILING_TEMPLATE_WITH_ARCH(Simk, ForA2, std::vector<int32_t>({static_cast<int32_t>(NpuArch::DAV_2201)}), 0);

static ge::graphStatus SimkTiling(gert::TilingContext* ctx) {
  return CALL;
}
}  // namespace optiling
"""


def test_impl_op_optiling_with_tiling_parse_and_unchecked_attr_getters(kernel):
    x = np.arange(256, dtype=np.float32)
    r = kernel(
        COPY_BODY, {"x": x}, {"y": ("float32", (256,))}, params=[256], block_dim=4, host=IMPL_HOST
    ).ok()
    np.testing.assert_array_equal(r.outputs["y"], x)
    assert r.result["block_dim"] == 4


def test_tiling_reads_a_value_depend_input_with_get_data(kernel):
    # Only an input the spec marks value_depend reaches the tiling's GetData (the OpDef's
    # ValueDepend alone does not: tests/daemon/test_reward_integrity.py).
    host = HOST.replace(
        "ctx->SetBlockDim(static_cast<uint32_t>(*attrs->GetInt(1)));",
        "ctx->SetBlockDim(static_cast<uint32_t>(ctx->GetInputTensor(0)->GetData<float>()[2]));",
    ).replace(
        "explicit Simk(const char* name) : OpDef(name) {",
        'explicit Simk(const char* name) : OpDef(name) { this->Input("x").ValueDepend(REQUIRED);',
    )
    x = np.array([0, 0, 3, 0, 0, 0, 0, 0], np.float32)
    r = kernel("", {"x": x}, {"y": ("float32", (8,))}, host=host, value_depend=("x",)).ok()
    assert r.result["block_dim"] == 3


def test_tiling_header_includes_of_toolkit_headers_parse_at_global_scope(kernel):
    # The kernel sees the tiling header wrapped in a namespace of its own; the toolkit headers it
    # includes (here two that declare std:: names) must be parsed before that namespace.
    from conftest import TILING_H

    tiling_h = TILING_H.replace(
        '#include "register/tilingdata_base.h"',
        '#include "register/op_def_registry.h"\n#include "tiling/platform/platform_ascendc.h"\n'
        '#include "register/tilingdata_base.h"',
    )
    x = np.arange(8, dtype=np.float32)
    body = """
  GlobalTensor<float> xg, yg;
  xg.SetGlobalBuffer((__gm__ float*)x);
  yg.SetGlobalBuffer((__gm__ float*)y);
  yg.SetValue(0, xg.GetValue(7));
"""
    r = kernel(body, {"x": x}, {"y": ("float32", (1,))}, tiling_h=tiling_h).ok()
    assert r.outputs["y"][0] == 7


def test_broadcast_tmp_size_host_helper_has_the_library_spelling(kernel):
    host = HOST.replace(
        "namespace optiling {",
        '#include "tiling/platform/platform_ascendc.h"\n#include "tiling/tiling_api.h"\nnamespace optiling {',
        1,
    ).replace(
        "ctx->SetBlockDim(static_cast<uint32_t>(*attrs->GetInt(1)));",
        """uint32_t mx = 0, mn = 0;
  AscendC::GetBroadCastMaxMinTmpSize(platform_ascendc::PlatformAscendC(ctx->GetPlatformInfo()), ge::Shape({1, 64}),
                                     ge::Shape({4, 64}), 4, false, mx, mn);
  ctx->SetBlockDim(mn > 0 && mn <= mx && mx >= 4 * 64 * 4 ? 2 : 1);""",
    )
    r = kernel("", {"x": np.zeros(8, np.float32)}, {"y": ("float32", (8,))}, host=host).ok()
    assert r.result["block_dim"] == 2


def test_tiling_header_helpers_over_tiling_parse_context_compile_on_the_kernel_side(kernel):
    from conftest import TILING_H

    tiling_h = TILING_H.replace(
        "namespace optiling {",
        """namespace optiling {
template <typename T>
inline T* GetCompileInfoPtr(gert::TilingParseContext* context) { return context->GetCompiledInfo<T>(); }""",
    )
    body = """
  GlobalTensor<float> xg, yg;
  xg.SetGlobalBuffer((__gm__ float*)x); yg.SetGlobalBuffer((__gm__ float*)y);
  yg.SetValue(0, xg.GetValue(3));
"""
    x = np.arange(8, dtype=np.float32)
    r = kernel(body, {"x": x}, {"y": ("float32", (1,))}, tiling_h=tiling_h).ok()
    assert r.outputs["y"][0] == 3


def test_infer_shape_reads_input_descs(kernel):
    # Graph-mode shape inference is compiled, never run at a launch; it may read the input's and
    # the output's descs (cann-ops avg_pool3_d reads the output's origin format).
    host = HOST.replace(
        "namespace optiling {",
        """static ge::graphStatus SimkInferShape(gert::InferShapeContext* ctx) {
  const gert::CompileTimeTensorDesc* desc = ctx->GetInputDesc(0);
  const gert::CompileTimeTensorDesc* out = ctx->GetOutputDesc(0);
  return desc != nullptr && out != nullptr && desc->GetOriginFormat() == out->GetOriginFormat()
             ? ge::GRAPH_SUCCESS : ge::GRAPH_FAILED;
}
namespace optiling {""",
    )
    x = np.arange(8, dtype=np.float32)
    body = """
  GlobalTensor<float> xg, yg;
  xg.SetGlobalBuffer((__gm__ float*)x); yg.SetGlobalBuffer((__gm__ float*)y);
  yg.SetValue(0, xg.GetValue(5));
"""
    r = kernel(body, {"x": x}, {"y": ("float32", (1,))}, host=host).ok()
    assert r.outputs["y"][0] == 5


def test_tiling_class_in_the_header_compiles_on_the_kernel_side_and_block_assert(kernel):
    # A tiling class written in the tiling header (as cann-ops mul_sigmoid has) fills the struct
    # through set_ and sizes a buffer with a high-level API's TmpSize helper; the kernel sees the
    # struct only. The host reads the deterministic option (off); ASSERT may lack its `;`.
    from conftest import TILING_H

    tiling_h = TILING_H.replace(
        "REGISTER_TILING_DATA_CLASS(Simk, SimkTilingData)",
        """REGISTER_TILING_DATA_CLASS(Simk, SimkTilingData)
class SimkFiller {
 public:
  explicit SimkFiller(gert::TilingContext* ctx) : ctx_(ctx) {}
  void Fill(SimkTilingData& t) {
    uint32_t maxTmp = 0, minTmp = 0;
    AscendC::GetSigmoidMaxMinTmpSize(ge::Shape({64}), 4, false, maxTmp, minTmp);
    int64_t p[8] = {minTmp, ctx_->GetDeterministic()};
    t.set_p(p);
  }
 private:
  gert::TilingContext* ctx_;
};""",
    ).replace("#pragma once", '#pragma once\n#include "tiling/tiling_api.h"')
    host = HOST.replace("  t.set_p(p);", "  t.set_p(p);\n  SimkFiller(ctx).Fill(t);")
    body = """
  GET_TILING_DATA(t, tiling);
  ASSERT(t.p[0] > 0)
  GlobalTensor<int64_t> yg; yg.SetGlobalBuffer((__gm__ int64_t*)y);
  yg.SetValue(0, t.p[0]);
  yg.SetValue(1, t.p[1]);
"""
    r = kernel(
        body,
        {"x": np.zeros(8, np.float32)},
        {"y": ("int64", (2,))},
        tiling_h=tiling_h,
        host=host,
    ).ok()
    # The helper's minimum: one 256 B repeat per float intermediate (two for Sigmoid).
    assert list(r.outputs["y"]) == [512, 0]


def test_host_forms_of_the_toolkit_headers_and_a_tiling_struct_in_an_included_header(tmp_path):
    # cann-ops gelu_quant / ge_glu_grad_v2: the TilingData in a `_def.h` the tiling header
    # includes (found for the kernel too), END_TILING_DATA_DEF without its `;`, `map` unqualified
    # after platform/platform_info.h, gert::Shape `!=`, ge::char_t.
    from conftest import TILING_H, run_kernel

    root = tmp_path / "simk" / "op_host"
    root.mkdir(parents=True)
    (root / "simk_tiling_def.h").write_text(
        TILING_H.replace("END_TILING_DATA_DEF;", "END_TILING_DATA_DEF")
    )
    tiling_h = '#pragma once\n#include "simk_tiling_def.h"\n'
    host = HOST.replace(
        '#include "tiling/platform/platform_ascendc.h"',
        '#include "tiling/platform/platform_ascendc.h"\n#include "platform/platform_info.h"',
    ).replace(
        "  t.set_p(p);",
        """  static const map<ge::DataType, int32_t> width = {{ge::DT_FLOAT, 4}};
  const ge::char_t* name = "simk";
  const gert::Shape a({2, 3}), b({2, 4});
  p[0] = width.at(ge::DT_FLOAT) + (a != b) + (a != a) + (name[0] == 's');
  t.set_p(p);""",
    )
    body = """
  GET_TILING_DATA(t, tiling);
  GlobalTensor<int64_t> yg; yg.SetGlobalBuffer((__gm__ int64_t*)y);
  yg.SetValue(0, t.p[0]);
"""
    r = run_kernel(
        tmp_path,
        body,
        {"x": np.zeros(8, np.float32)},
        {"y": ("int64", (1,))},
        host=host,
        tiling_h=tiling_h,
    ).ok()
    assert r.outputs["y"][0] == 6


def test_sin_cos_and_power_tmp_sizes_follow_asc_devkit(kernel):
    includes = '#include "lib/math/sin_tiling.h"\n#include "lib/math/cos_tiling.h"\n'
    code = """uint32_t mx = 0, mn = 0, nodes = 0, extra = 0;
  AscendC::GetSinMaxMinTmpSize(ge::Shape({1024}), 4, false, mx, mn); p[0] = mx; p[1] = mn;
  AscendC::GetCosMaxMinTmpSize(ge::Shape({1024}), 2, false, mx, mn); p[2] = mx; p[3] = mn;
  AscendC::GetSinMaxMinTmpSize(ge::Shape({10}), 4, true, mx, mn); p[4] = mx * 100000 + mn;
  AscendC::GetCosMaxMinTmpSize(ge::Shape({10}), 2, true, mx, mn); p[5] = mx + mn;  // half cannot reuse
  AscendC::GetPowerMaxMinTmpSize(ge::Shape({1024}), ge::Shape({1}), false, 4, false, mx, mn);
  p[6] = mx * 100000 + mn;
  AscendC::GetPowerTmpBufferFactorSize(true, true, false, 2, nodes, extra); p[7] = nodes * 1000 + extra;"""
    words = tiling_words(kernel, includes, code)
    # Sin fp32: 3 float buffers of the input (max) or of one 256 B repeat (min); Cos fp16: 8;
    # reusing the fp32 source saves one. Power fp32 tensor^scalar: 5 nodes + a repeat, min 5 + 1
    # repeats; fp16 tensor^tensor: 14 nodes and a 256 B extra.
    assert words == [12288, 768, 16384, 2048, 512 * 100000 + 512, 0, 20736 * 100000 + 1536, 14256]


def test_pattern_reduce_tmp_sizes_follow_asc_devkit(kernel):
    code = """uint32_t mx = 0, mn = 0;
  using AscendC::ReducePattern;
  AscendC::GetReduceSumMaxMinTmpSize(ge::Shape({8, 1000}), ge::DT_FLOAT, ReducePattern::AR, true, false, mx, mn);
  p[0] = mx;  // 8 rows x a 512 split of the axis, in float
  AscendC::GetReduceSumMaxMinTmpSize(ge::Shape({4, 64}), ge::DT_FLOAT, ReducePattern::AR, true, false, mx, mn);
  p[1] = mx;  // a row of one repeat needs none
  AscendC::GetReduceMeanMaxMinTmpSize(ge::Shape({16, 10}), ge::DT_FLOAT, ReducePattern::RA, true, false, mx, mn);
  p[2] = mx;  // 16 rows split in halves of 8, each padded to 16 floats
  AscendC::GetReduceMaxMaxMinTmpSize(ge::Shape({8, 100}), ge::DT_FLOAT16, ReducePattern::AR, true, false, mx, mn);
  p[3] = mx;  // less than a repeat per row: a block per row
  AscendC::GetReduceMinMaxMinTmpSize(ge::Shape({5, 10}), ge::DT_FLOAT, ReducePattern::RA, true, true, mx, mn);
  p[4] = mx;  // reusing the source needs none
  AscendC::GetReduceProdMaxMinTmpSize(ge::Shape({3, 16}), ge::DT_FLOAT, ReducePattern::AR, true, false, mx, mn);
  p[5] = mx;
  AscendC::GetReduceAnyMaxMinTmpSize(ge::Shape({2, 40}), ge::DT_UINT8, ReducePattern::AR, true, false, mx, mn);
  p[6] = mx;  // a uint16 copy of the padded row and a block per row
  mx = 7;
  AscendC::GetReduceSumMaxMinTmpSize(ge::Shape({1000}), ge::DT_FLOAT16, ReducePattern::AR, true, false, mx, mn);
  p[7] = mx;  // a type the A2's ReduceSum does not take leaves the sizes as they were"""
    words = tiling_words(kernel, '#include "tiling/tiling_api.h"\n', code)
    assert words == [16384, 0, 512, 256, 0, 384, 192, 7]


def test_the_ops_math_registry_runs_templates_by_priority(kernel):
    tiling = HOST[HOST.index("namespace optiling {") : HOST.index("namespace ops {")]
    host = HOST.replace(tiling, MATH_TEMPLATES)
    r = kernel(TILING_WORDS, {"x": np.zeros(8, np.float32)}, {"z": ("int64", (8,))}, host=host).ok()
    assert r.outputs["z"][0] == 5  # Declines (priority 0) passed the tiling on


def test_atvoss_dag_vocabulary_describes_an_elementwise_op_as_types(kernel):
    code = """using Dag = simk_dag::BelowFour<Ops::Base::half>;
  using Out = Dag::OpDag::OutList;
  p[0] = Out::Size;
  p[1] = static_cast<int64_t>(Dag::OpDag::MemOpt::memoryLevel);
  p[2] = static_cast<int64_t>(Dag::Four::Value);
  p[3] = Dag::Picked::ArgList::Size;
  p[4] = sizeof(Dag::Abs::DType) * 10 + sizeof(Dag::Mask::DType);  // float, then a uint8_t mask
  p[5] = Ops::Base::IsRegbaseSocVersion(ctx);  // no A2 preset is one: A2 tilings skip DoTiling
  p[6] = sizeof(Ops::Base::EleBaseTilingDataV2);  // the layout the arch35 kernels read
  p[7] = Placeholder::Out0<uint8_t>::Position + 10 * Placeholder::In<3, float>::Position;"""
    includes = ATVOSS_DAG + '#include "op_host/tiling_base_util.h"\nusing namespace Ops::Base;\n'
    words = tiling_words(kernel, includes, code)
    assert words == [1, 2, 4, 3, 41, 0, 80, 30]


def test_elewise_base_tiling_refuses_the_regbase_tiling(kernel):
    # Called, DoTiling names what is missing instead of returning made-up numbers.
    code = """Ops::Base::EleBaseTilingDataV2 data{};
  if (Ops::Base::ElewiseBaseTiling(ctx).DoTiling<simk_dag::BelowFour<float>::OpDag>(data) ==
      ge::GRAPH_SUCCESS)
    p[1] = data.blockNum;"""
    host = ATVOSS_DAG + HOST.replace("  t.set_p(p);", code + "\n  t.set_p(p);")
    r = kernel(TILING_WORDS, {"x": np.zeros(8, np.float32)}, {"z": ("int64", (8,))}, host=host)
    assert r.status == "TILING_ERROR"
    assert "ElewiseBaseTiling::DoTiling" in r.message and "is not emulated" in r.message


def test_toolkit_headers_of_a_tiling_headers_own_package_header_stay_global(kernel):
    # The TilingData sits in simk_tiling_def.h, which includes toolkit headers; the kernel's view
    # of simk_tiling.h must parse those at global scope, not inside its wrapping namespace.
    definition = """#pragma once
#include <cstdint>
#include "register/tilingdata_base.h"
#include "register/op_impl_registry.h"
namespace optiling {
BEGIN_TILING_DATA_DEF(SimkTilingData)
TILING_DATA_FIELD_DEF_ARR(int64_t, 8, p);
END_TILING_DATA_DEF;
REGISTER_TILING_DATA_CLASS(Simk, SimkTilingData)
}  // namespace optiling
"""
    tiling_h = """#pragma once
#include "simk_tiling_def.h"
namespace optiling {
// A host tiling class beside the data, as ops-nn's gelu_quant keeps it.
class SimkTiling {
 public:
  explicit SimkTiling(gert::TilingContext* context) : context_(context) {}
 private:
  gert::TilingContext* context_;
};
}  // namespace optiling
"""
    body = """GET_TILING_DATA(t, tiling); GlobalTensor<int64_t> zg; zg.SetGlobalBuffer((__gm__ int64_t*)z, 8);
  zg.SetValue(0, t.p[0] + 1);"""
    r = kernel(
        body,
        {"x": np.zeros(8, np.float32)},
        {"z": ("int64", (8,))},
        params=[41],
        tiling_h=tiling_h,
        files={"op_host/simk_tiling_def.h": definition},
    ).ok()
    assert r.outputs["z"][0] == 42


def test_the_registry_runs_templates_by_priority_past_those_that_decline(kernel):
    # Declines (priority 0) answers GRAPH_PARAM_INVALID, so Tiles (priority 1) tiles: a scalar
    # shape counts as [1] (10) and x has 8 elements; the A2 is not a regbase architecture.
    call = "Ops::NN::Optiling::TilingRegistry::GetInstance().DoTilingImpl(ctx)"
    assert _tiling_words(kernel, call) == [1, 18, 0]


def test_listed_priorities_and_the_architecture_the_platform_reports(kernel):
    listed = "Ops::NN::Optiling::TilingRegistry::GetInstance().DoTilingImpl(ctx, {1})"
    assert _tiling_words(kernel, listed)[0] == 1
    by_arch = "Ops::NN::Optiling::TilingRegistryArch::GetInstance().DoTilingImpl(ctx)"
    assert _tiling_words(kernel, by_arch)[0] == 2201


def test_no_capable_template_fails_the_tiling(kernel):
    body = "GET_TILING_DATA(t, tiling);"
    call = "Ops::NN::Optiling::TilingRegistry::GetInstance().DoTilingImpl(ctx, {0})"
    r = kernel(body, {"x": np.zeros(8, np.float32)}, {"z": ("int64", (4,))}, host=_host(call))
    assert r.status == "TILING_ERROR"


def test_the_kernel_gets_the_tiling_data_and_nothing_else_the_tiling_left_in_memory(kernel):
    # The tiling stores a value in a global of its library that the kernel reaches by its symbol
    # (a weak reference, resolved when both libraries share one process): work done on the host
    # and handed over so would escape the cost model. Only the tiling data may reach the kernel.
    host = HOST.replace(
        "namespace optiling {",
        'extern "C" __attribute__((visibility("default"))) int64_t simk_tiling_left = 0;\nnamespace optiling {',
        1,
    ).replace("  t.set_p(p);", "  simk_tiling_left = 7777;\n  p[0] = 42;\n  t.set_p(p);")
    body = """GET_TILING_DATA(t, tiling);
  GlobalTensor<int64_t> zg;
  zg.SetGlobalBuffer((__gm__ int64_t*)z, 2);
  zg.SetValue(0, t.p[0]);
  zg.SetValue(1, &simk_tiling_left != nullptr ? simk_tiling_left : -1);"""
    prelude = 'extern "C" __attribute__((weak)) int64_t simk_tiling_left;'
    r = kernel(
        body, {"x": np.zeros(8, np.float32)}, {"z": ("int64", (2,))}, host=host, prelude=prelude
    ).ok()
    assert [int(v) for v in r.outputs["z"]] == [42, -1]


def test_a_tiling_record_forged_by_the_tiling_is_refused(kernel, monkeypatch):
    # The tiling writes its own tiling record (Kind::kTiling: 8 bytes of tiling data in a capacity
    # of 4) to every descriptor it may hold, then exits: the launcher checks the record's sizes.
    # (The source policy, which refuses write and _exit, is off: the launcher must stand alone.)
    monkeypatch.setattr(source_policy, "_enforced", False)
    forged = "uint64_t rec[8] = {8, 48, 1, 0, 0, 8, 4, 0x1122334455667788ull};"
    host = "#include <unistd.h>\n" + HOST.replace(
        "  t.set_p(p);",
        f"  {forged}\n  for (int fd = 3; fd < 64; ++fd) write(fd, rec, sizeof rec);\n  _exit(0);",
    )
    r = kernel("", {"x": np.zeros(8, np.float32)}, {"z": ("int64", (2,))}, host=host)
    assert r.status == "RUNTIME_ERROR"
    assert "the tiling process sent a malformed tiling record (tiling data size)" in r.message


TUNING_DECLS = """#include "register/tuning_tiling_registry.h"
#include "register/tuning_bank_key_registry.h"
namespace tuningtiling {
#pragma pack(push, 1)
struct MmArgs { int64_t m; int64_t k; bool trans; };
#pragma pack(pop)
DECLARE_STRUCT_RELATE_WITH_OP_V2(MatMulT, MmArgs, m, k, trans);
BEGIN_TUNING_TILING_DEF(MmTuner)
  TUNING_TILING_DATA_FIELD_DEF(uint32_t, m_dim);
  TUNING_TILING_DATA_FIELD_DEF(uint32_t, n_dim);
END_TUNING_TILING_DEF
DECLARE_SCHEMA(MmTuner, FIELD(MmTuner, m_dim), FIELD(MmTuner, n_dim));
REGISTER_TUNING_TILING_CLASS(MatMulT, MmTuner);
}  // namespace tuningtiling
static bool MmKey(const gert::TilingContext*, std::shared_ptr<void>& args, size_t& len) {
  args = std::make_shared<tuningtiling::MmArgs>();
  len = sizeof(tuningtiling::MmArgs);
  return true;
}
REGISTER_OP_BANK_KEY_CONVERT_FUN_V2(MatMulT, MmKey);
"""


def test_the_aoe_tuning_registry_registers_describes_and_round_trips_json(kernel):
    """metadef's tuning registry: the factory makes the class registered for an operator type
    (null for another), a description reads and writes its schema's fields as JSON and lists its
    fields; the bank key registry keeps an operator's convert, parse and load functions, and a
    key struct goes to JSON text and back (a field of the wrong JSON type fails the load)."""
    code = """using namespace tuningtiling;
  auto tuner = TuningTilingClassFactory::CreateTilingDataInstance("MatMulT");
  tuner->FromJson(nlohmann::json::parse(R"({"m_dim": 4, "n_dim": 6})"));
  nlohmann::json back; tuner->ToJson(back);
  auto mm = std::static_pointer_cast<MmTuner>(tuner);
  p[0] = mm->m_dim * 10 + mm->n_dim;
  p[1] = back.at("n_dim").get<int64_t>() * 100 + tuner->GetItemInfo().size() * 10 +
         (TuningTilingClassFactory::CreateTilingDataInstance("Other") == nullptr);
  p[2] = std::string(tuner->GetClassName().GetString()) == "MmTuner";
  const auto& info = OpBankKeyFuncRegistryV2::RegisteredOpFuncInfoV2().at("MatMulT");
  ge::AscendString text;
  const bool parsed = info.GetBankKeyParseFuncV2()(std::make_shared<MmArgs>(MmArgs{64, 32, true}), sizeof(MmArgs), text);
  std::shared_ptr<void> loaded; size_t len = 0;
  const bool loadedOk = info.GetBankKeyLoadFuncV2()(loaded, len, text);
  p[3] = parsed * 100 + loadedOk * 10 + (std::string(text.GetString()) == R"({"k":32,"m":64,"trans":true})");
  p[4] = std::static_pointer_cast<MmArgs>(loaded)->m * 1000 + len;
  p[5] = info.GetBankKeyLoadFuncV2()(loaded, len, R"({"m": "x", "k": 1, "trans": false})") * 10 +
         info.GetBankKeyLoadFuncV2()(loaded, len, "not json");
  std::shared_ptr<void> key; size_t keyLen = 0;
  p[6] = info.GetBankKeyConvertFuncV2()(ctx, key, keyLen) * 100 + keyLen;"""
    words = tiling_words(kernel, TUNING_DECLS, code)
    assert words[:7] == [46, 621, 1, 111, 64017, 0, 117]
