#include "prefix_double_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus PrefixDoubleTiling(gert::TilingContext* context) {
  PrefixDoubleTilingData tiling;
  tiling.set_count(static_cast<uint32_t>(*context->GetAttrs()->GetInt(0)));
  context->SetBlockDim(1);
  tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
  context->GetWorkspaceSizes(1)[0] = 0;
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class PrefixDouble : public OpDef {
 public:
  explicit PrefixDouble(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
    this->Attr("count").AttrType(OPTIONAL).Int(0);
    this->AICore().SetTiling(optiling::PrefixDoubleTiling).AddConfig("ascend910b");
  }
};
OP_ADD(PrefixDouble);
}  // namespace ops
