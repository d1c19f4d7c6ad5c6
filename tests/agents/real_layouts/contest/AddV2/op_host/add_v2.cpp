// An add of our own tiled as the competition operators tile theirs: a fixed block dim and a fixed
// number of tiles per core, in elements rounded to 16 (32 bytes of the narrowest dtype).
#include "add_v2_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
constexpr uint32_t BLOCK_DIM = 8;
constexpr uint32_t TILE_NUM = 4;

static ge::graphStatus TilingFunc(gert::TilingContext* context) {
  AddV2TilingData tiling;
  const uint32_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
  const uint32_t perCore = ((total + BLOCK_DIM - 1) / BLOCK_DIM + 15) / 16 * 16;
  const uint32_t tileLength = ((perCore + TILE_NUM - 1) / TILE_NUM + 15) / 16 * 16;
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
class AddV2 : public OpDef {
 public:
  explicit AddV2(const char* name) : OpDef(name) {
    this->Input("x1").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_INT32, ge::DT_INT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
    this->Input("x2").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_INT32, ge::DT_INT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT, ge::DT_FLOAT16, ge::DT_INT32, ge::DT_INT16}).Format({ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND, ge::FORMAT_ND});
    this->AICore().SetTiling(optiling::TilingFunc).AddConfig("ascend910b");
  }
};
OP_ADD(AddV2);
}  // namespace ops
