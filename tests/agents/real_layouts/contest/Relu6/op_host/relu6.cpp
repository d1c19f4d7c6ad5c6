// A relu6 of our own written as the competition operators write row-wise kernels: a fixed block
// dim, the rows of x (its last dim) shared between the cores, a fixed number of rows per tile.
#include "relu6_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {
constexpr uint32_t BLOCK_DIM = 8;
constexpr uint32_t TILE_ROWS = 4;

static ge::graphStatus TilingFunc(gert::TilingContext* context) {
  Relu6TilingData tiling;
  const auto& shape = context->GetInputShape(0)->GetStorageShape();
  const uint32_t cols = shape.GetDim(shape.GetDimNum() - 1);
  const uint32_t rows = shape.GetShapeSize() / cols;
  const uint32_t rowsPerCore = (rows + BLOCK_DIM - 1) / BLOCK_DIM;
  tiling.set_rows(rows);
  tiling.set_cols(cols);
  tiling.set_rowsPerCore(rowsPerCore);
  tiling.set_tileRows(TILE_ROWS);
  context->SetBlockDim((rows + rowsPerCore - 1) / rowsPerCore);
  tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
  context->GetWorkspaceSizes(1)[0] = 0;
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class Relu6 : public OpDef {
 public:
  explicit Relu6(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->AICore().SetTiling(optiling::TilingFunc).AddConfig("ascend910b");
  }
};
OP_ADD(Relu6);
}  // namespace ops
