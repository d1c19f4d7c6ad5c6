#include "keyed_tiling_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus KeyedTilingFunc(gert::TilingContext* context)
{
  const uint32_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
  const float scale = *context->GetAttrs()->GetAttrPointer<float>(0);
  auto* raw = context->GetRawTilingData();
  if (scale == 1.0f) {
    KeyedTilingData tiling;
    tiling.set_total(total);
    tiling.SaveToBuffer(raw->GetData(), raw->GetCapacity());
    raw->SetDataSize(tiling.GetDataSize());
    context->SetTilingKey(1);
  } else {
    KeyedScaleTilingData tiling;
    tiling.set_scale(scale);
    tiling.set_total(total);
    tiling.SaveToBuffer(raw->GetData(), raw->GetCapacity());
    raw->SetDataSize(tiling.GetDataSize());
    context->SetTilingKey(2);
  }
  context->SetBlockDim(1);
  context->GetWorkspaceSizes(1)[0] = 0;
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class KeyedTiling : public OpDef {
 public:
  explicit KeyedTiling(const char* name) : OpDef(name)
  {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16});
    this->Attr("scale").AttrType(OPTIONAL).Float(1.0);
    this->AICore().SetTiling(optiling::KeyedTilingFunc).AddConfig("ascend910b");
  }
};
OP_ADD(KeyedTiling);
}  // namespace ops
