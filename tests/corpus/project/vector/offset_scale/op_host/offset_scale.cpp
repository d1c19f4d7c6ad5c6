// y = x * scale + offset; the split comes from the project's common/include.
#include "common/row_split.h"
#include "offset_scale_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus OffsetScaleTiling(gert::TilingContext* context) {
  OffsetScaleTilingData tiling;
  const uint32_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
  const uint32_t perCore =
      RowSplitPerCore(total, platform_ascendc::PlatformAscendC(context->GetPlatformInfo()).GetCoreNumAiv());
  tiling.set_total(total);
  tiling.set_perCore(perCore);
  tiling.set_scale(*context->GetAttrs()->GetFloat(0));
  tiling.set_offset(*context->GetAttrs()->GetFloat(1));
  context->SetBlockDim((total + perCore - 1) / perCore);
  tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
  context->GetWorkspaceSizes(1)[0] = 0;
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class OffsetScale : public OpDef {
 public:
  explicit OffsetScale(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Attr("scale").AttrType(OPTIONAL).Float(1.0f);
    this->Attr("offset").AttrType(OPTIONAL).Float(0.0f);
    this->AICore().SetTiling(optiling::OffsetScaleTiling).AddConfig("ascend910b");
  }
};
OP_ADD(OffsetScale);
}  // namespace ops
