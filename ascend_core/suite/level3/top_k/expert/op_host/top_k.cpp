#include "top_k_tiling.h"
#include "graph/utils/type_utils.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {

constexpr uint32_t BLOCK_DIM = 40;     // @tune block_dim in [1, 48] step 1
constexpr uint32_t BUFFER_NUM = 2;     // the kernel's queue depth, for the UB budget
constexpr uint32_t MAX_ROWS = 64;      // @tune max_rows_per_tile in [1, 64] step 1

static ge::graphStatus TilingFunc(gert::TilingContext* context) {
  TopKTilingData tiling;
  auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
  uint64_t ubSize = 0;
  platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
  uint32_t typeSize = 0;
  ge::TypeUtils::GetDataTypeLength(context->GetInputDesc(0)->GetDataType(), typeSize);
  if (typeSize == 0) return ge::GRAPH_FAILED;

  const auto& shape = context->GetInputShape(0)->GetStorageShape();
  const uint32_t cols = static_cast<uint32_t>(shape.GetDim(shape.GetDimNum() - 1));
  const uint32_t rows = static_cast<uint32_t>(shape.GetShapeSize() / cols);
  const int64_t* kAttr = context->GetAttrs()->GetInt(0);
  const uint32_t k = kAttr ? static_cast<uint32_t>(*kAttr) : 8;
  // Indices come back in an element of the data's width: half rows must stay below 65536.
  if (k == 0 || k > cols || (typeSize == 2 && cols > 65535)) return ge::GRAPH_FAILED;
  // Many rows per tile, selected side by side: each round runs ReduceMax on every row of the tile
  // and reads the winners back together, so the vector <-> scalar round trips are k per tile, not
  // k per row. Per row: the row, values and indices double-buffered, a 32 B result slot.
  const uint64_t alignElems = 32 / typeSize;
  const uint64_t colsPad = (cols + alignElems - 1) / alignElems * alignElems;
  const uint64_t kPad = (k + alignElems - 1) / alignElems * alignElems;
  const uint64_t rowBytes = BUFFER_NUM * (colsPad * typeSize + kPad * typeSize + (k + 7) / 8 * 8 * sizeof(int32_t)) + 32;
  const uint64_t fixedBytes = colsPad * typeSize + 32;
  if (fixedBytes + rowBytes > ubSize) return ge::GRAPH_FAILED;
  uint32_t blockDim = std::min({BLOCK_DIM, platform.GetCoreNumAiv(), rows});
  if (blockDim == 0) blockDim = 1;
  const uint32_t perCore = (rows + blockDim - 1) / blockDim;
  uint32_t rowsPerTile = static_cast<uint32_t>(std::min<uint64_t>((ubSize - fixedBytes) / rowBytes, MAX_ROWS));
  rowsPerTile = std::max(1u, std::min(rowsPerTile, perCore));

  tiling.set_cols(cols);
  tiling.set_k(k);
  tiling.set_formerNum(rows % blockDim);
  tiling.set_formerRows(rows / blockDim + 1);
  tiling.set_tailRows(rows / blockDim);
  tiling.set_rowsPerTile(rowsPerTile);

  context->SetBlockDim(blockDim);
  tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
  context->GetWorkspaceSizes(1)[0] = 0;
  return ge::GRAPH_SUCCESS;
}

}  // namespace optiling

namespace ops {
class TopK : public OpDef {
 public:
  explicit TopK(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
    this->Output("values").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
    this->Output("indices").ParamType(REQUIRED).DataType({ge::DT_INT32, ge::DT_INT32}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
    this->Attr("k").AttrType(OPTIONAL).Int(8);
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(TopK);
}  // namespace ops
