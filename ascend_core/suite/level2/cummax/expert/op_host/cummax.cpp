#include "cummax_tiling.h"
#include "graph/utils/type_utils.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {

constexpr uint32_t BLOCK_DIM = 40;     // @tune block_dim in [1, 48] step 1
constexpr uint32_t BUFFER_NUM = 2;
constexpr uint32_t MAX_CHUNK = 255;    // @tune max_chunk_rows in [1, 255] step 8
constexpr uint32_t IO_TILES = 2;       // queued chunk buffers: input and output

static ge::graphStatus TilingFunc(gert::TilingContext* context) {
  CummaxTilingData tiling;
  auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
  uint64_t ubSize = 0;
  platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
  uint32_t typeSize = 0;
  ge::TypeUtils::GetDataTypeLength(context->GetInputDesc(0)->GetDataType(), typeSize);
  if (typeSize == 0) return ge::GRAPH_FAILED;

  // x is [A, R, B]: B is contiguous; every (a) slice is independent, so blocks take whole slices.
  const auto& shape = context->GetInputShape(0)->GetStorageShape();
  if (shape.GetDimNum() != 3) return ge::GRAPH_FAILED;
  const uint32_t outer = shape.GetDim(0), reduceLen = shape.GetDim(1), inner = shape.GetDim(2);
  const uint32_t alignElems = 32 / typeSize;
  const uint32_t innerPad = (inner + alignElems - 1) / alignElems * alignElems;
  if (static_cast<uint64_t>(innerPad) * typeSize * 6 + 1024 > ubSize) return ge::GRAPH_FAILED;
  uint32_t blockDim = std::min({BLOCK_DIM, platform.GetCoreNumAiv(), outer});
  if (blockDim == 0) blockDim = 1;
  // Rows of one slice are contiguous in GM: load many per DMA instead of one DMA per row.
  const uint64_t perRow = static_cast<uint64_t>(innerPad) * typeSize * BUFFER_NUM * IO_TILES;
  uint32_t chunkRows = static_cast<uint32_t>(std::min<uint64_t>((ubSize - 2 * innerPad * typeSize - 1024) / perRow, MAX_CHUNK));
  chunkRows = std::max(1u, std::min(chunkRows, reduceLen));

  tiling.set_outer(outer);
  tiling.set_reduceLen(reduceLen);
  tiling.set_inner(inner);
  tiling.set_formerNum(outer % blockDim);
  tiling.set_formerSlices(outer / blockDim + 1);
  tiling.set_tailSlices(outer / blockDim);
  tiling.set_chunkRows(chunkRows);
  context->SetBlockDim(blockDim);
  tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
  context->GetWorkspaceSizes(1)[0] = 0;
  return ge::GRAPH_SUCCESS;
}

}  // namespace optiling

namespace ops {
class Cummax : public OpDef {
 public:
  explicit Cummax(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(Cummax);
}  // namespace ops
