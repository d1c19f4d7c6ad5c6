// A matmul of our own written as the Matmul samples write theirs: a MultiCoreMatmulTiling split
// over a literal core count (SetDim(2)) and a literal block dim beside it (SetBlockDim(1): on a
// part with one AIC per two AIVs, one AIC serves the two AIV blocks).
#include "matmul_custom_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

using namespace matmul_tiling;

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
  auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
  const gert::Shape& a = context->GetInputShape(0)->GetStorageShape();
  const gert::Shape& b = context->GetInputShape(1)->GetStorageShape();
  const int32_t M = static_cast<int32_t>(a.GetDim(0));
  const int32_t K = static_cast<int32_t>(a.GetDim(1));
  const int32_t N = static_cast<int32_t>(b.GetDim(1));
  MultiCoreMatmulTiling cubeTiling(ascendcPlatform);
  cubeTiling.SetDim(2);
  cubeTiling.SetAType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  cubeTiling.SetBType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT16);
  cubeTiling.SetCType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  cubeTiling.SetBiasType(TPosition::GM, CubeFormat::ND, DataType::DT_FLOAT);
  cubeTiling.SetShape(M, N, K);
  cubeTiling.SetOrgShape(M, N, K);
  cubeTiling.SetBias(true);
  cubeTiling.SetBufferSpace(-1, -1, -1);
  MatmulCustomTilingData tiling;
  if (cubeTiling.GetTiling(tiling.cubeTilingData) == -1) {
    return ge::GRAPH_FAILED;
  }
  context->SetBlockDim(1);
  tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
  context->GetWorkspaceSizes(1)[0] = static_cast<size_t>(ascendcPlatform.GetLibApiWorkSpaceSize());
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class MatmulCustom : public OpDef {
 public:
  explicit MatmulCustom(const char* name) : OpDef(name) {
    this->Input("a").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
    this->Input("b").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
    this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Output("c").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->AICore().SetTiling(optiling::TilingFunc).AddConfig("ascend910b");
  }
};
OP_ADD(MatmulCustom);
}  // namespace ops
