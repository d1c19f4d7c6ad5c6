#include "fused_mlp_epilogue_tiling.h"
#include "graph/utils/type_utils.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {

constexpr uint32_t BLOCK_DIM = 40;     // @tune block_dim in [1, 48] step 1
constexpr uint32_t MAX_ROWS = 255;     // @tune max_rows_per_tile in [1, 255] step 8
constexpr uint32_t BUFFER_NUM = 2;     // the kernel's queue depth, for the UB budget
constexpr uint32_t IN_TILES = 1;       // queued input row buffers per row
constexpr uint32_t OUT_TILES = 1;
constexpr uint32_t TMP_TILES = 1;

static ge::graphStatus TilingFunc(gert::TilingContext* context) {
  FusedMlpEpilogueTilingData tiling;
  auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
  uint64_t ubSize = 0;
  platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
  uint32_t typeSize = 0;
  ge::TypeUtils::GetDataTypeLength(context->GetInputDesc(0)->GetDataType(), typeSize);
  if (typeSize == 0) return ge::GRAPH_FAILED;

  const auto& shape = context->GetInputShape(0)->GetStorageShape();
  const uint32_t dims = shape.GetDimNum();
  const uint32_t cols = static_cast<uint32_t>(shape.GetDim(dims - 1)) / IN_TILES;
  const uint32_t rows = static_cast<uint32_t>(shape.GetShapeSize() / shape.GetDim(dims - 1));
  const uint32_t alignElems = 32 / typeSize;
  const uint32_t colsPad = (cols + alignElems - 1) / alignElems * alignElems;
  uint32_t blockDim = std::min({BLOCK_DIM, platform.GetCoreNumAiv(), rows});
  if (blockDim == 0) blockDim = 1;
  const uint64_t vecBytes = (static_cast<uint64_t>(3) * colsPad) * typeSize;  // held for the whole block;
  // Many rows per tile: one multi-burst DataCopyPad replaces a DMA start (~150 cycles) per row.
  const uint64_t rowBytes = (static_cast<uint64_t>(IN_TILES) * colsPad * BUFFER_NUM + OUT_TILES * colsPad * BUFFER_NUM +
                             TMP_TILES * colsPad) * typeSize;
  const uint64_t fixedBytes = vecBytes + 1024;
  if (fixedBytes + rowBytes > ubSize) return ge::GRAPH_FAILED;  // one row must fit the UB
  const uint32_t perCore = (rows + blockDim - 1) / blockDim;
  uint32_t rowsPerTile = static_cast<uint32_t>(std::min<uint64_t>((ubSize - fixedBytes) / rowBytes, MAX_ROWS));
  rowsPerTile = std::max(1u, std::min(rowsPerTile, perCore));

  // Whole rows per block; the first rows % blockDim blocks take one row more.
  tiling.set_rows(rows);
  tiling.set_cols(cols);
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
class FusedMlpEpilogue : public OpDef {
 public:
  explicit FusedMlpEpilogue(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Input("bias").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Input("gamma").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Input("beta").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(FusedMlpEpilogue);
}  // namespace ops
