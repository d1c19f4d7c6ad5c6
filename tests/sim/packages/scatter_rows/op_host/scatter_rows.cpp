#include "scatter_rows_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus ScatterRowsTiling(gert::TilingContext* context) {
  ScatterRowsTilingData tiling;
  const gert::Shape& var = context->GetInputShape(0)->GetStorageShape();
  tiling.set_rows(var.GetDim(0));
  tiling.set_cols(var.GetDim(1));
  tiling.set_updates(context->GetInputShape(1)->GetStorageShape().GetDim(0));
  context->SetBlockDim(1);
  tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
  context->GetWorkspaceSizes(1)[0] = 0;
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class ScatterRows : public OpDef {
 public:
  explicit ScatterRows(const char* name) : OpDef(name) {
    this->Input("var").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
    this->Input("indices").ParamType(REQUIRED).DataType({ge::DT_INT32});
    this->Input("updates").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
    this->Output("var").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
    this->AICore().SetTiling(optiling::ScatterRowsTiling).AddConfig("ascend910b");
  }
};
OP_ADD(ScatterRows);
}  // namespace ops
