#include "softsign_struct_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus SoftsignTiling(gert::TilingContext* context)
{
  SoftsignStructTilingData* t = context->GetTilingData<SoftsignStructTilingData>();
  const uint32_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
  const uint32_t align = 32 / ge::GetSizeByDataType(context->GetInputDesc(0)->GetDataType());
  const uint32_t cores = platform_ascendc::PlatformAscendC(context->GetPlatformInfo()).GetCoreNumAiv();
  const uint32_t blocks = (total + align - 1) / align;
  t->total = total;
  t->perCore = (blocks + cores - 1) / cores * align;
  t->tile = 2048;
  context->GetRawTilingData()->SetDataSize(sizeof(SoftsignStructTilingData));
  context->SetBlockDim((total + t->perCore - 1) / t->perCore);
  context->GetWorkspaceSizes(1)[0] = 0;
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class SoftsignStruct : public OpDef {
 public:
  explicit SoftsignStruct(const char* name) : OpDef(name)
  {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT});
    this->AICore().SetTiling(optiling::SoftsignTiling).AddConfig("ascend910b");
  }
};
OP_ADD(SoftsignStruct);
}  // namespace ops
