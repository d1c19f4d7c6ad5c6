// Host tiling of anchor A4 (docs/ascendc.md hardware 5): one core, the length and the variant.
#include "a4_reduce_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {

static ge::graphStatus TilingFunc(gert::TilingContext* context) {
  A4ReduceTilingData t;
  t.set_length(static_cast<uint32_t>(context->GetInputShape(0)->GetStorageShape().GetShapeSize()));
  t.set_wholeOnly(static_cast<uint32_t>(*context->GetAttrs()->GetInt(0)));
  context->SetBlockDim(1);
  t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(t.GetDataSize());
  context->GetWorkspaceSizes(1)[0] = 0;
  return ge::GRAPH_SUCCESS;
}

}  // namespace optiling

namespace ops {
class A4Reduce : public OpDef {
 public:
  explicit A4Reduce(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Output("z").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Attr("whole_only").Int(0);
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(A4Reduce);
}  // namespace ops
