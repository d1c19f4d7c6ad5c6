// Host tiling of the MIX-mode cube anchors: MultiCoreMatmulTiling split over `cores` blocks (SetDim)
// with the case's base block (SetFixSplit) and L1 depth, launched on `groups` AIC + 2 AIV groups.
// The vendor's MIX recipe splits over the AIVs (cores = 2 x groups); a split over the AIC count
// leaves the AIVs past usedCoreNum idle, so half the groups serve two blocks each.
#include "c3_matmul_mix_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {

static ge::graphStatus TilingFunc(gert::TilingContext* context) {
  const gert::RuntimeAttrs* attrs = context->GetAttrs();
  const gert::Shape& a = context->GetInputShape(0)->GetStorageShape();
  const gert::Shape& b = context->GetInputShape(1)->GetStorageShape();
  const int32_t M = static_cast<int32_t>(a.GetDim(0)), K = static_cast<int32_t>(a.GetDim(1));
  const int32_t N = static_cast<int32_t>(b.GetDim(1));
  platform_ascendc::PlatformAscendC plat(context->GetPlatformInfo());
  matmul_tiling::MultiCoreMatmulTiling mt(plat);
  using namespace matmul_tiling;
  mt.SetDim(static_cast<int32_t>(*attrs->GetInt(0)));
  mt.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  mt.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  mt.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  mt.SetShape(M, N, K);
  mt.SetOrgShape(M, N, K);
  mt.SetFixSplit(static_cast<int32_t>(*attrs->GetInt(2)), static_cast<int32_t>(*attrs->GetInt(3)),
                 static_cast<int32_t>(*attrs->GetInt(4)));
  C3MatmulMixTilingData t;
  if (mt.GetTiling(t.mm) == -1) return ge::GRAPH_FAILED;
  const int32_t stepK = static_cast<int32_t>(*attrs->GetInt(5));
  t.mm.stepKa = t.mm.stepKb = stepK;
  t.mm.depthA1 = t.mm.depthB1 = 2 * stepK;
  context->SetBlockDim(static_cast<uint32_t>(*attrs->GetInt(1)));
  t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(t.GetDataSize());
  context->GetWorkspaceSizes(1)[0] = plat.GetLibApiWorkSpaceSize();
  return ge::GRAPH_SUCCESS;
}

}  // namespace optiling

namespace ops {
class C3MatmulMix : public OpDef {
 public:
  explicit C3MatmulMix(const char* name) : OpDef(name) {
    this->Input("a").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
    this->Input("b").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
    this->Output("c").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Attr("cores").Int(48);
    this->Attr("groups").Int(24);
    this->Attr("base_m").Int(128);
    this->Attr("base_n").Int(256);
    this->Attr("base_k").Int(64);
    this->Attr("step_k").Int(1);
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(C3MatmulMix);
}  // namespace ops
