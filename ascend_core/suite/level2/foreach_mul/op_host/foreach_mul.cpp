#include "foreach_mul_tiling.h"
#include "graph/utils/type_utils.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {

constexpr uint32_t BLOCK_DIM = 40;      // @tune block_dim in [1, 48] step 1
constexpr uint32_t TILE_LENGTH = 4096;  // @tune tile_length in [256, 16384] pow2
constexpr uint32_t BUFFER_NUM = 2;      // the kernel's queue depth, for the UB budget
constexpr uint32_t UB_TENSORS = 3;      // x, other, y
constexpr uint32_t LIST_SIZE = 3;

static ge::graphStatus TilingFunc(gert::TilingContext* context) {
  ForeachMulTilingData tiling;
  auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
  uint64_t ubSize = 0;
  platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
  uint32_t typeSize = 0;
  ge::TypeUtils::GetDataTypeLength(context->GetInputDesc(0)->GetDataType(), typeSize);
  if (typeSize == 0) return ge::GRAPH_FAILED;

  // The list is split as one concatenated range, so every core gets the same share whatever the
  // tensors' sizes; a core's share may span the end of one tensor and the start of the next.
  uint32_t lengths[LIST_SIZE] = {};
  uint32_t total = 0;
  for (uint32_t i = 0; i < LIST_SIZE; ++i) {
    lengths[i] = static_cast<uint32_t>(context->GetInputShape(i)->GetStorageShape().GetShapeSize());
    if (context->GetInputShape(LIST_SIZE + i)->GetStorageShape().GetShapeSize() != lengths[i]) return ge::GRAPH_FAILED;
    total += lengths[i];
  }
  const uint32_t alignElems = 32 / typeSize;
  const uint32_t units = (total + alignElems - 1) / alignElems;
  uint32_t blockDim = std::min({BLOCK_DIM, platform.GetCoreNumAiv(), units});
  if (blockDim == 0) blockDim = 1;
  const uint32_t maxTile = ubSize / (UB_TENSORS * BUFFER_NUM * typeSize) / alignElems * alignElems;

  tiling.set_lengths(lengths);
  tiling.set_totalLength(total);
  tiling.set_formerNum(units % blockDim);
  tiling.set_formerLength((units / blockDim + 1) * alignElems);
  tiling.set_tailLength(units / blockDim * alignElems);
  tiling.set_tileLength(std::max(alignElems, std::min(TILE_LENGTH, maxTile) / alignElems * alignElems));
  context->SetBlockDim(blockDim);
  tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
  context->GetWorkspaceSizes(1)[0] = 0;
  return ge::GRAPH_SUCCESS;
}

}  // namespace optiling

namespace ops {
class ForeachMul : public OpDef {
 public:
  explicit ForeachMul(const char* name) : OpDef(name) {
    for (const char* arg : {"x0", "x1", "x2", "other0", "other1", "other2"}) {
      this->Input(arg).ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
    }
    for (const char* arg : {"y0", "y1", "y2"}) {
      this->Output(arg).ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
    }
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(ForeachMul);
}  // namespace ops
