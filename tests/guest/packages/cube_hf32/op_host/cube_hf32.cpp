// Host tiling: the Matmul's multi-core tiling of fp32 A [M, K] and B [K, N] over two cube cores.
#include "cube_hf32_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
  const gert::Shape& a = context->GetInputShape(0)->GetStorageShape();
  const gert::Shape& b = context->GetInputShape(1)->GetStorageShape();
  const int32_t M = static_cast<int32_t>(a.GetDim(0)), K = static_cast<int32_t>(a.GetDim(1));
  const int32_t N = static_cast<int32_t>(b.GetDim(1));
  platform_ascendc::PlatformAscendC plat(context->GetPlatformInfo());
  matmul_tiling::MultiCoreMatmulTiling mt(plat);
  using namespace matmul_tiling;
  mt.SetDim(2);
  mt.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  mt.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  mt.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  mt.SetShape(M, N, K);
  mt.SetOrgShape(M, N, K);
  mt.SetBufferSpace(-1, -1, -1);
  mt.SetFixSplit(std::min(64, (M + 15) / 16 * 16), std::min(64, (N + 15) / 16 * 16), 32);
  CubeHf32TilingData t;
  if (mt.GetTiling(t.mm) == -1) return ge::GRAPH_FAILED;
  t.set_hf32(static_cast<int32_t>(*context->GetAttrs()->GetInt(0)));
  t.set_transMode(static_cast<int32_t>(*context->GetAttrs()->GetInt(1)));
  context->SetBlockDim(static_cast<uint32_t>(t.mm.usedCoreNum));
  t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(t.GetDataSize());
  context->GetWorkspaceSizes(1)[0] = plat.GetLibApiWorkSpaceSize();
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class CubeHf32 : public OpDef {
 public:
  explicit CubeHf32(const char* name) : OpDef(name) {
    this->Input("a").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Input("b").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Output("c").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Attr("hf32").Int(1);
    this->Attr("trans_mode").Int(0);
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(CubeHf32);
}  // namespace ops
