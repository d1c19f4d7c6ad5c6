#include "fill_alloc_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus FillTiling(gert::TilingContext* context)
{
  FillAllocTilingData tiling;
  const uint32_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
  const uint32_t align = 512 / ge::GetSizeByDataType(context->GetInputTensor(0)->GetDataType());  // 512 B per core step
  const uint32_t blocks = (total + align - 1) / align;
  const uint32_t cores = platform_ascendc::PlatformAscendC(context->GetPlatformInfo()).GetCoreNum();
  const uint32_t perCore = (blocks + cores - 1) / cores * align;
  tiling.set_totalLength(total);
  tiling.set_perCore(perCore);
  tiling.set_value(*context->GetAttrs()->GetAttrPointer<float>(0));
  context->SetBlockDim((total + perCore - 1) / perCore);
  tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
  context->GetWorkspaceSizes(1)[0] = 0;
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class FillAlloc : public OpDef {
 public:
  explicit FillAlloc(const char* name) : OpDef(name)
  {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_INT8, ge::DT_INT32});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_INT8, ge::DT_INT32});
    this->Attr("value").AttrType(REQUIRED).Float();
    this->AICore().SetTiling(optiling::FillTiling).AddConfig("ascend910b");
  }
};
OP_ADD(FillAlloc);
}  // namespace ops
