"""hicann/ops-nn's op-base host headers: tiling templates (op_host/tiling_base.h and
op_host/tiling_templates_registry.h) and the Ops::NN::OpTiling helpers (op_host/tiling_util.h)."""

import numpy as np
from conftest import HOST

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


def _host(call: str) -> str:
    tiling = HOST[HOST.index("namespace optiling {") : HOST.index("namespace ops {")]
    return HOST.replace(tiling, TEMPLATES.replace("CALL", call))


def _tiling_words(kernel, call: str) -> list[int]:
    body = """GET_TILING_DATA(t, tiling); GlobalTensor<int64_t> zg; zg.SetGlobalBuffer((__gm__ int64_t*)z, 4);
  zg.SetValue(0, t.p[0]); zg.SetValue(1, t.p[1]); zg.SetValue(2, t.p[2]);"""
    r = kernel(body, {"x": np.zeros(8, np.float32)}, {"z": ("int64", (4,))}, host=_host(call)).ok()
    return list(r.outputs["z"][:3])


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


def test_error_util_and_the_per_type_runtime_headers(kernel):
    # ops-nn tilings include the graph runtime's types one header at a time and check with
    # OP_TILING_CHECK; a failed check reports through VECTOR_INNER_ERR_REPORT_TILIING.
    includes = """#include "error_util.h"
#include "exe_graph/runtime/runtime_attrs.h"
#include "exe_graph/runtime/shape.h"
#include "exe_graph/runtime/tiling_context.h"
#include "platform/platform_infos_def.h"
#include "op_host/util/platform_util.h"
"""
    host = includes + HOST.replace(
        "  t.set_p(p);",
        """  const gert::Shape& x = ctx->GetInputShape(0)->GetStorageShape();
  OP_TILING_CHECK(Shape2String(x) != "[2, 4]",
                  VECTOR_INNER_ERR_REPORT_TILIING(ctx, "x is %s", Shape2String(x).c_str()),
                  return ge::GRAPH_NULL_PTR);
  p[0] = Ops::Base::GetUbBlockSize(ctx);
  t.set_p(p);""",
    )
    body = """GET_TILING_DATA(t, tiling); GlobalTensor<int64_t> zg; zg.SetGlobalBuffer((__gm__ int64_t*)z, 4);
  zg.SetValue(0, t.p[0]);"""
    ok = kernel(body, {"x": np.zeros((2, 4), np.float32)}, {"z": ("int64", (4,))}, host=host).ok()
    assert ok.outputs["z"][0] == 32
    failed = kernel(body, {"x": np.zeros(8, np.float32)}, {"z": ("int64", (4,))}, host=host)
    assert failed.status == "TILING_ERROR"  # the check returned GRAPH_NULL_PTR
