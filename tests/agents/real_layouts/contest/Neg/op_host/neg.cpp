// A neg of our own written as the competition operators write theirs: a fixed block dim and a
// fixed number of tiles per core, both named constants.
#include "neg_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
constexpr uint32_t BLOCK_DIM = 8;
constexpr uint32_t TILE_NUM = 4;

static ge::graphStatus TilingFunc(gert::TilingContext* context) {
  NegTilingData tiling;
  const uint32_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
  const uint32_t blocks = (total + 7) / 8;  // 32-byte blocks of float
  const uint32_t perCore = (blocks + BLOCK_DIM - 1) / BLOCK_DIM * 8;
  const uint32_t tileLength = (perCore / 8 + TILE_NUM - 1) / TILE_NUM * 8;
  tiling.set_total(total);
  tiling.set_perCore(perCore);
  tiling.set_tileLength(tileLength);
  context->SetBlockDim((total + perCore - 1) / perCore);
  tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
  context->GetWorkspaceSizes(1)[0] = 0;
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class Neg : public OpDef {
 public:
  explicit Neg(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->AICore().SetTiling(optiling::TilingFunc).AddConfig("ascend910b");
  }
};
OP_ADD(Neg);
}  // namespace ops
