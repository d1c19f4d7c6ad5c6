#include "log_softmax_tiling.h"
#include "graph/utils/type_utils.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {

constexpr uint32_t BLOCK_DIM = 40;     // @tune block_dim in [1, 48] step 1
constexpr uint32_t BUFFER_NUM = 2;     // the kernel's queue depth, for the UB budget
constexpr uint32_t MAX_ROWS = 255;     // @tune max_rows_per_tile in [1, 255] step 8

static ge::graphStatus TilingFunc(gert::TilingContext* context) {
  LogSoftmaxTilingData tiling;
  auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
  uint64_t ubSize = 0;
  platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
  uint32_t typeSize = 0;
  ge::TypeUtils::GetDataTypeLength(context->GetInputDesc(0)->GetDataType(), typeSize);
  if (typeSize == 0) return ge::GRAPH_FAILED;

  const auto& shape = context->GetInputShape(0)->GetStorageShape();
  const uint32_t dims = shape.GetDimNum();
  const uint32_t cols = static_cast<uint32_t>(shape.GetDim(dims - 1));
  const uint32_t rows = static_cast<uint32_t>(shape.GetShapeSize() / cols);
  const uint32_t colsPad = (cols + 32 / typeSize - 1) / (32 / typeSize) * (32 / typeSize);
  uint32_t blockDim = std::min({BLOCK_DIM, platform.GetCoreNumAiv(), rows});
  if (blockDim == 0) blockDim = 1;
  const uint32_t blockRows = rows / blockDim + (rows % blockDim ? 1 : 0);

  // Many rows per tile: the queued in/out tiles and two 32 B statistics per row fill the UB,
  // after LogSoftMax's scratch for one row pass.
  const uint32_t tmpBytes = AscendC::GetLogSoftMaxMinTmpSize(ge::Shape({1, static_cast<int64_t>(colsPad)}), typeSize, false);
  const uint64_t perRow = static_cast<uint64_t>(colsPad) * typeSize * BUFFER_NUM * 2 + 64;
  if (perRow + tmpBytes + 1024 > ubSize) return ge::GRAPH_FAILED;
  uint32_t rowsPerTile = static_cast<uint32_t>(std::min<uint64_t>((ubSize - tmpBytes - 1024) / perRow, MAX_ROWS));
  rowsPerTile = std::max(1u, std::min(rowsPerTile, blockRows));
  AscendC::LogSoftMaxTilingFunc(ge::Shape({static_cast<int64_t>(rowsPerTile), static_cast<int64_t>(colsPad)}), typeSize, tmpBytes,
                             tiling.softmaxTiling);

  tiling.set_rows(rows);
  tiling.set_cols(cols);
  tiling.set_formerNum(rows % blockDim);
  tiling.set_formerRows(rows / blockDim + 1);
  tiling.set_tailRows(rows / blockDim);
  tiling.set_rowsPerTile(rowsPerTile);
  tiling.set_tmpBytes(tmpBytes);
  context->SetBlockDim(blockDim);
  tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
  context->GetWorkspaceSizes(1)[0] = 0;
  return ge::GRAPH_SUCCESS;
}

}  // namespace optiling

namespace ops {
class LogSoftmax : public OpDef {
 public:
  explicit LogSoftmax(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(LogSoftmax);
}  // namespace ops
