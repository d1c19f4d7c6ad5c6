#include "orig_dtype_branch_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus BranchTiling(gert::TilingContext* context)
{
  OrigDtypeBranchTilingData tiling;
  tiling.set_total(context->GetInputShape(0)->GetStorageShape().GetShapeSize());
  context->SetBlockDim(1);
  tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
  context->GetWorkspaceSizes(1)[0] = 0;
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class OrigDtypeBranch : public OpDef {
 public:
  explicit OrigDtypeBranch(const char* name) : OpDef(name)
  {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_BF16});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT, ge::DT_BF16});
    this->AICore().SetTiling(optiling::BranchTiling).AddConfig("ascend910b");
  }
};
OP_ADD(OrigDtypeBranch);
}  // namespace ops
