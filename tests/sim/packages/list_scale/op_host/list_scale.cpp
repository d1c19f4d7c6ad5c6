// The members of a dynamic input are instances of one IR input: their count and shapes come from
// the instance info; a plain input after the list keeps its IR index (1) but is instance 3.
#include "list_scale_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus ListScaleTiling(gert::TilingContext* context) {
  const gert::AnchorInstanceInfo* xs = context->GetIrInputInstanceInfo(0);
  const gert::AnchorInstanceInfo* ys = context->GetIrOutputInstanceInfo(0);
  if (xs == nullptr || ys == nullptr || xs->GetInstanceNum() != ys->GetInstanceNum() || xs->GetInstanceNum() > 8)
    return ge::GRAPH_FAILED;
  const uint32_t count = static_cast<uint32_t>(xs->GetInstanceNum());
  if (context->GetComputeNodeInputNum() != count + 1 || context->GetComputeNodeOutputNum() != count) return ge::GRAPH_FAILED;
  const gert::StorageShape* offset = context->GetRequiredInputShape(1);
  if (offset == nullptr || offset != context->GetInputShape(count) || offset->GetStorageShape().GetShapeSize() != 8)
    return ge::GRAPH_FAILED;
  if (context->GetDynamicInputShape(0, count) != nullptr) return ge::GRAPH_FAILED;  // past the list
  ListScaleTilingData tiling;
  uint32_t lengths[8] = {};
  for (uint32_t i = 0; i < count; ++i) {
    const gert::CompileTimeTensorDesc* desc = context->GetDynamicInputDesc(0, i);
    if (desc == nullptr || desc->GetDataType() != ge::DT_FLOAT) return ge::GRAPH_FAILED;
    lengths[i] = static_cast<uint32_t>(context->GetDynamicInputShape(0, i)->GetStorageShape().GetShapeSize());
  }
  tiling.set_count(count);
  tiling.set_lengths(lengths);
  context->SetBlockDim(1);
  tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
  context->GetWorkspaceSizes(1)[0] = 0;
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class ListScale : public OpDef {
 public:
  explicit ListScale(const char* name) : OpDef(name) {
    this->Input("xs").ParamType(DYNAMIC).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Input("offset").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Output("ys").ParamType(DYNAMIC).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->AICore().SetTiling(optiling::ListScaleTiling).AddConfig("ascend910b");
  }
};
OP_ADD(ListScale);
}  // namespace ops
