// Host tiling of anchors S2 and S3: one core, the buffer's size, the number of offsets, whether to preload.
#include "s2_indirect_sum_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {

static ge::graphStatus TilingFunc(gert::TilingContext* context) {
  S2IndirectSumTilingData t;
  t.set_bytes(static_cast<uint32_t>(context->GetInputShape(0)->GetStorageShape().GetShapeSize()));
  t.set_count(static_cast<uint32_t>(context->GetInputShape(1)->GetStorageShape().GetShapeSize()));
  t.set_preload(static_cast<uint32_t>(*context->GetAttrs()->GetInt(0)));
  context->SetBlockDim(1);
  t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(t.GetDataSize());
  context->GetWorkspaceSizes(1)[0] = 0;
  return ge::GRAPH_SUCCESS;
}

}  // namespace optiling

namespace ops {
class S2IndirectSum : public OpDef {
 public:
  explicit S2IndirectSum(const char* name) : OpDef(name) {
    this->Input("data").ParamType(REQUIRED).DataType({ge::DT_UINT8}).Format({ge::FORMAT_ND});
    this->Input("indices").ParamType(REQUIRED).DataType({ge::DT_UINT32}).Format({ge::FORMAT_ND});
    this->Output("result").ParamType(REQUIRED).DataType({ge::DT_UINT32}).Format({ge::FORMAT_ND});
    this->Attr("preload").Int(0);
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(S2IndirectSum);
}  // namespace ops
