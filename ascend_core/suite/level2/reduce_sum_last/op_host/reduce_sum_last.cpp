#include "reduce_sum_last_tiling.h"
#include "graph/utils/type_utils.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {

constexpr uint32_t BLOCK_DIM = 40;     // @tune block_dim in [1, 48] step 1
constexpr uint32_t BUFFER_NUM = 2;     // the kernel's queue depth, for the UB budget
constexpr uint32_t OUT_CHUNK = 1024;   // @tune out_chunk in [16, 4096] pow2

static ge::graphStatus TilingFunc(gert::TilingContext* context) {
  ReduceSumLastTilingData tiling;
  auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
  uint64_t ubSize = 0;
  platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
  uint32_t typeSize = 0;
  ge::TypeUtils::GetDataTypeLength(context->GetInputDesc(0)->GetDataType(), typeSize);
  if (typeSize == 0) return ge::GRAPH_FAILED;

  const auto& shape = context->GetInputShape(0)->GetStorageShape();
  const uint32_t cols = static_cast<uint32_t>(shape.GetDim(shape.GetDimNum() - 1));
  const uint32_t rows = static_cast<uint32_t>(shape.GetShapeSize() / cols);
  const uint32_t colsPad = (cols + 32 / typeSize - 1) / (32 / typeSize) * (32 / typeSize);
  const uint32_t colsPadF = (cols + 7) / 8 * 8;
  // One row per tile: queued input rows, a float row and its scratch, and the queued results.
  const uint64_t need = static_cast<uint64_t>(colsPad) * typeSize * BUFFER_NUM + static_cast<uint64_t>(colsPadF) * 4 * 2 +
                        static_cast<uint64_t>(OUT_CHUNK) * typeSize * BUFFER_NUM + 1024;
  if (need > ubSize) return ge::GRAPH_FAILED;
  uint32_t blockDim = std::min({BLOCK_DIM, platform.GetCoreNumAiv(), rows});
  if (blockDim == 0) blockDim = 1;

  // Whole rows per block; the first rows % blockDim blocks take one row more.
  tiling.set_rows(rows);
  tiling.set_cols(cols);
  tiling.set_formerNum(rows % blockDim);
  tiling.set_formerRows(rows / blockDim + 1);
  tiling.set_tailRows(rows / blockDim);
  tiling.set_outChunk(OUT_CHUNK);
  context->SetBlockDim(blockDim);
  tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
  context->GetWorkspaceSizes(1)[0] = 0;
  return ge::GRAPH_SUCCESS;
}

}  // namespace optiling

namespace ops {
class ReduceSumLast : public OpDef {
 public:
  explicit ReduceSumLast(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(ReduceSumLast);
}  // namespace ops
