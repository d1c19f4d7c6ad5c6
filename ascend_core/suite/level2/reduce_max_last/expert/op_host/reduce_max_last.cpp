#include "reduce_max_last_tiling.h"
#include "graph/utils/type_utils.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "tiling/tiling_api.h"

namespace optiling {

constexpr uint32_t BLOCK_DIM = 40;     // @tune block_dim in [1, 48] step 1
constexpr uint32_t BUFFER_NUM = 2;     // the kernel's queue depth, for the UB budget
constexpr uint32_t MAX_ROWS = 1024;    // @tune max_rows_per_tile in [8, 4088] step 8

static ge::graphStatus TilingFunc(gert::TilingContext* context) {
  ReduceMaxLastTilingData tiling;
  auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
  uint64_t ubSize = 0;
  platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
  uint32_t typeSize = 0;
  const ge::DataType dtype = context->GetInputDesc(0)->GetDataType();
  ge::TypeUtils::GetDataTypeLength(dtype, typeSize);
  if (typeSize == 0) return ge::GRAPH_FAILED;

  const auto& shape = context->GetInputShape(0)->GetStorageShape();
  const uint32_t cols = static_cast<uint32_t>(shape.GetDim(shape.GetDimNum() - 1));
  const uint32_t rows = static_cast<uint32_t>(shape.GetShapeSize() / cols);
  const uint32_t colsPad = (cols + 32 / typeSize - 1) / (32 / typeSize) * (32 / typeSize);
  uint32_t blockDim = std::min({BLOCK_DIM, platform.GetCoreNumAiv(), rows});
  if (blockDim == 0) blockDim = 1;
  const uint32_t blockRows = rows / blockDim + (rows % blockDim ? 1 : 0);

  // Many rows per tile: queued input tiles, their queued results and ReduceMax's scratch fill the UB;
  // a multiple of 8 rows keeps every output copy 32 B aligned in the UB. ReduceMax over [rows, cols]
  // needs its helper's size for those rows (a block or a repeat a row: linear in the rows).
  uint32_t tmpMax = 0, tmpMin = 0;
  AscendC::GetReduceMaxMaxMinTmpSize(ge::Shape({1, static_cast<int64_t>(cols)}), dtype, AscendC::ReducePattern::AR,
                                     true, false, tmpMax, tmpMin);
  const uint64_t perRow = (static_cast<uint64_t>(colsPad) + 1) * typeSize * BUFFER_NUM + tmpMin;
  if (1024 + perRow * 8 > ubSize) return ge::GRAPH_FAILED;
  uint32_t rowsPerTile = static_cast<uint32_t>(std::min<uint64_t>((ubSize - 1024) / perRow, MAX_ROWS)) / 8 * 8;
  rowsPerTile = std::max(8u, std::min(rowsPerTile, (blockRows + 7) / 8 * 8));
  AscendC::GetReduceMaxMaxMinTmpSize(ge::Shape({static_cast<int64_t>(rowsPerTile), static_cast<int64_t>(cols)}), dtype,
                                     AscendC::ReducePattern::AR, true, false, tmpMax, tmpMin);

  tiling.set_rows(rows);
  tiling.set_cols(cols);
  tiling.set_formerNum(rows % blockDim);
  tiling.set_formerRows(rows / blockDim + 1);
  tiling.set_tailRows(rows / blockDim);
  tiling.set_rowsPerTile(rowsPerTile);
  tiling.set_tmpBytes(std::max(tmpMin, 32u));  // rows of a block or less need none: one block's TBuf
  context->SetBlockDim(blockDim);
  tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
  context->GetWorkspaceSizes(1)[0] = 0;
  return ge::GRAPH_SUCCESS;
}

}  // namespace optiling

namespace ops {
class ReduceMaxLast : public OpDef {
 public:
  explicit ReduceMaxLast(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(ReduceMaxLast);
}  // namespace ops
