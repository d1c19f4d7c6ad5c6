// y = x * scale.
#include "scale_rows_split.h"
#include "scale_rows_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus ScaleRowsTiling(gert::TilingContext* context) {
  ScaleRowsTilingData tiling;
  const uint32_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
  const uint32_t perCore =
      ScaleRowsPerCore(total, platform_ascendc::PlatformAscendC(context->GetPlatformInfo()).GetCoreNumAiv());
  tiling.set_total(total);
  tiling.set_perCore(perCore);
  tiling.set_scale(*context->GetAttrs()->GetFloat(0));
  context->SetBlockDim((total + perCore - 1) / perCore);
  tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
  context->GetWorkspaceSizes(1)[0] = 0;
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class ScaleRows : public OpDef {
 public:
  explicit ScaleRows(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Attr("scale").AttrType(OPTIONAL).Float(1.0f);
    this->AICore().SetTiling(optiling::ScaleRowsTiling).AddConfig("ascend910b");
  }
};
OP_ADD(ScaleRows);
}  // namespace ops
