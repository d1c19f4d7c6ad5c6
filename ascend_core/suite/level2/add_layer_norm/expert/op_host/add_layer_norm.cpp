#include "add_layer_norm_tiling.h"
#include "graph/utils/type_utils.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {

constexpr uint32_t BLOCK_DIM = 40;     // @tune block_dim in [1, 48] step 1
constexpr uint32_t BUFFER_NUM = 2;     // the kernel's queue depth, for the UB budget
constexpr uint32_t MAX_ROWS = 255;     // @tune max_rows_per_tile in [1, 255] step 8

static ge::graphStatus TilingFunc(gert::TilingContext* context) {
  AddLayerNormTilingData tiling;
  auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
  uint64_t ubSize = 0;
  platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
  uint32_t typeSize = 0;
  ge::TypeUtils::GetDataTypeLength(context->GetInputDesc(0)->GetDataType(), typeSize);
  if (typeSize == 0) return ge::GRAPH_FAILED;

  const auto& shape = context->GetInputShape(0)->GetStorageShape();
  const uint32_t cols = static_cast<uint32_t>(shape.GetDim(shape.GetDimNum() - 1));
  const uint32_t rows = static_cast<uint32_t>(shape.GetShapeSize() / cols);
  if (context->GetInputShape(1)->GetStorageShape().GetShapeSize() != shape.GetShapeSize() ||
      context->GetInputShape(2)->GetStorageShape().GetShapeSize() != cols ||
      context->GetInputShape(3)->GetStorageShape().GetShapeSize() != cols) {
    return ge::GRAPH_FAILED;
  }
  const uint32_t colsPad = (cols + 32 / typeSize - 1) / (32 / typeSize) * (32 / typeSize);
  uint32_t blockDim = std::min({BLOCK_DIM, platform.GetCoreNumAiv(), rows});
  if (blockDim == 0) blockDim = 1;
  const uint32_t blockRows = rows / blockDim + (rows % blockDim ? 1 : 0);

  // Many rows per tile: queued [x1 | x2] and [y | x] tiles and per-row mean/variance fill the UB
  // left after gamma | beta and LayerNorm's scratch. fp16 tiles are normalised in float (as the
  // fused op does), which takes two float tiles and float gamma | beta.
  const uint32_t calcSize = 4;  // LayerNorm runs on float rows
  const uint32_t floatTiles = typeSize == calcSize ? 0 : 2;
  uint32_t tmpMax = 0, tmpMin = 0;
  AscendC::GetLayerNormMaxMinTmpSize(ge::Shape({1, 1, static_cast<int64_t>(colsPad)}), calcSize, false, tmpMax, tmpMin);
  const uint64_t fixed = static_cast<uint64_t>(colsPad) * (typeSize * 2 + (floatTiles ? calcSize * 2 : 0)) + tmpMin + 1024;
  const uint64_t perRow = static_cast<uint64_t>(colsPad) * (typeSize * BUFFER_NUM * 4 + calcSize * floatTiles) + 2 * calcSize;
  if (fixed + perRow > ubSize) return ge::GRAPH_FAILED;
  uint32_t rowsPerTile = static_cast<uint32_t>(std::min<uint64_t>((ubSize - fixed) / perRow, MAX_ROWS));
  rowsPerTile = std::max(1u, std::min(rowsPerTile, blockRows));
  AscendC::GetLayerNormNDTilingInfo(ge::Shape({1, static_cast<int64_t>(rowsPerTile), static_cast<int64_t>(colsPad)}), tmpMin, calcSize,
                                    false, tiling.layerNormTiling);
  tiling.layerNormTiling.set_originalHLength(cols);  // padded lanes take no part in the statistics
  const float* eps = context->GetAttrs()->GetFloat(0);

  tiling.set_rows(rows);
  tiling.set_cols(cols);
  tiling.set_formerNum(rows % blockDim);
  tiling.set_formerRows(rows / blockDim + 1);
  tiling.set_tailRows(rows / blockDim);
  tiling.set_eps(eps ? *eps : 1e-5f);
  tiling.set_rowsPerTile(rowsPerTile);
  tiling.set_tmpBytes(tmpMin);
  context->SetBlockDim(blockDim);
  tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
  context->GetWorkspaceSizes(1)[0] = 0;
  return ge::GRAPH_SUCCESS;
}

}  // namespace optiling

namespace ops {
class AddLayerNorm : public OpDef {
 public:
  explicit AddLayerNorm(const char* name) : OpDef(name) {
    this->Input("x1").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
    this->Input("x2").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
    this->Input("gamma").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
    this->Input("beta").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
    this->Output("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
    this->Attr("eps").AttrType(OPTIONAL).Float(1e-5f);
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(AddLayerNorm);
}  // namespace ops
