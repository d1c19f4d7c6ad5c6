// Host tiling: the tile's M, N and K on one cube core.
#include "cce_matmul_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context) {
  const gert::Shape& a = context->GetInputShape(0)->GetStorageShape();
  const gert::Shape& b = context->GetInputShape(1)->GetStorageShape();
  CceMatmulTilingData t;
  t.set_m(static_cast<uint32_t>(a.GetDim(0)));
  t.set_k(static_cast<uint32_t>(a.GetDim(1)));
  t.set_n(static_cast<uint32_t>(b.GetDim(1)));
  context->SetBlockDim(1);
  t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(t.GetDataSize());
  context->GetWorkspaceSizes(1)[0] = 0;
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class CceMatmul : public OpDef {
 public:
  explicit CceMatmul(const char* name) : OpDef(name) {
    this->Input("a").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
    this->Input("b").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
    this->Output("c").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(CceMatmul);
}  // namespace ops
