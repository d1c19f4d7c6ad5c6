// Host tiling of anchor A3 (docs/ascendc.md hardware 5): one core, the variant and the Add count.
#include "a3_bank_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {

static ge::graphStatus TilingFunc(gert::TilingContext* context) {
  const gert::RuntimeAttrs* attrs = context->GetAttrs();
  A3BankTilingData t;
  t.set_length(static_cast<uint32_t>(context->GetInputShape(0)->GetStorageShape().GetShapeSize()));
  t.set_variant(static_cast<uint32_t>(*attrs->GetInt(0)));
  t.set_adds(static_cast<uint32_t>(*attrs->GetInt(1)));
  context->SetBlockDim(1);
  t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(t.GetDataSize());
  context->GetWorkspaceSizes(1)[0] = 0;
  return ge::GRAPH_SUCCESS;
}

}  // namespace optiling

namespace ops {
class A3Bank : public OpDef {
 public:
  explicit A3Bank(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Output("z").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Attr("variant").Int(0);
    this->Attr("adds").Int(1000);
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(A3Bank);
}  // namespace ops
