#include "wide_add_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus WideAddTiling(gert::TilingContext* context) {
  WideAddTilingData tiling;
  tiling.set_total(context->GetInputShape(0)->GetStorageShape().GetShapeSize());
  // An absent optional input has no shape, as the framework reports it.
  tiling.set_hasBias(context->GetOptionalInputShape(1) != nullptr ? 1 : 0);
  const ge::DataType dt = context->GetInputDesc(0)->GetDataType();
  if (ge::GetSizeByDataType(dt) <= 0) return ge::GRAPH_FAILED;
  context->SetTilingKey(dt == ge::DT_COMPLEX64 ? 1 : 0);
  context->SetBlockDim(1);
  tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
  context->GetWorkspaceSizes(1)[0] = 0;
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class WideAdd : public OpDef {
 public:
  explicit WideAdd(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_DOUBLE, ge::DT_COMPLEX64, ge::DT_INT64, ge::DT_UINT32, ge::DT_UINT64});
    this->Input("bias").ParamType(OPTIONAL).DataType({ge::DT_DOUBLE, ge::DT_COMPLEX64, ge::DT_INT64, ge::DT_UINT32, ge::DT_UINT64});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_DOUBLE, ge::DT_COMPLEX64, ge::DT_INT64, ge::DT_UINT32, ge::DT_UINT64});
    this->AICore().SetTiling(optiling::WideAddTiling).AddConfig("ascend910b");
  }
};
OP_ADD(WideAdd);
}  // namespace ops
