#include "expm1_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus Expm1Tiling(gert::TilingContext* context)
{
  Expm1TilingData tiling;
  const uint32_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
  const uint32_t typeSize = GetSizeByDataType(context->GetInputDesc(0)->GetDataType());
  auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
  const uint32_t align = 32 / typeSize;
  const uint32_t blocks = (total + align - 1) / align;
  const uint32_t coreNum = platform.GetCoreNumAiv();
  const uint32_t used = blocks < coreNum ? blocks : coreNum;
  const uint32_t perCore = (blocks + used - 1) / used * align;
  tiling.set_totalLength(total);
  tiling.set_perCore(perCore);
  tiling.set_tileLength(4096);  // two in + two out slots of 4096, plus float scratch for bf16
  context->SetBlockDim((total + perCore - 1) / perCore);
  tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
  context->GetWorkspaceSizes(1)[0] = platform.GetLibApiWorkSpaceSize();
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class Expm1 : public OpDef {
 public:
  explicit Expm1(const char* name) : OpDef(name)
  {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_BF16}).Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_BF16}).Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
    this->AICore().SetTiling(optiling::Expm1Tiling).AddConfig("ascend910b");
  }
};
OP_ADD(Expm1);
}  // namespace ops
