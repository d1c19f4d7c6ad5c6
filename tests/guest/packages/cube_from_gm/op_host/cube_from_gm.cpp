#include "cube_from_gm_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
  CubeFromGmTilingData tiling;
  tiling.set_size(32);
  context->SetBlockDim(1);
  tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
  context->GetWorkspaceSizes(1)[0] = 0;
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class CubeFromGm : public OpDef {
 public:
  explicit CubeFromGm(const char* name) : OpDef(name) {
    this->Input("a").ParamType(REQUIRED).DataType({ge::DT_FLOAT16});
    this->Input("b").ParamType(REQUIRED).DataType({ge::DT_FLOAT16});
    this->Output("c").ParamType(REQUIRED).DataType({ge::DT_FLOAT});
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(CubeFromGm);
}  // namespace ops
