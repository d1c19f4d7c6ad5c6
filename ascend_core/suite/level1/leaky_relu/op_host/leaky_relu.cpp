#include "leaky_relu_tiling.h"
#include "graph/utils/type_utils.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {

constexpr uint32_t BLOCK_DIM = 40;      // @tune block_dim in [1, 48] step 1
constexpr uint32_t TILE_LENGTH = 4096;  // @tune tile_length in [256, 16384] pow2
constexpr uint32_t BUFFER_NUM = 2;      // the kernel's queue depth, for the UB budget
constexpr uint32_t UB_QUEUED = 2;      // x, y: double-buffered queues
constexpr uint32_t UB_TMP = 0;         // single scratch tiles for intermediates

static ge::graphStatus TilingFunc(gert::TilingContext* context) {
  LeakyReluTilingData tiling;
  auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
  uint64_t ubSize = 0;
  platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
  uint32_t typeSize = 0;
  ge::TypeUtils::GetDataTypeLength(context->GetInputDesc(0)->GetDataType(), typeSize);
  if (typeSize == 0) return ge::GRAPH_FAILED;

  // Split the flat tensor over the cores in 32 B units so every block starts aligned.
  const uint32_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
  const uint32_t alignElems = 32 / typeSize;
  const uint32_t units = (total + alignElems - 1) / alignElems;
  uint32_t blockDim = std::min({BLOCK_DIM, platform.GetCoreNumAiv(), units});
  if (blockDim == 0) blockDim = 1;

  const uint32_t maxTile = ubSize / ((UB_QUEUED * BUFFER_NUM + UB_TMP) * typeSize) / alignElems * alignElems;
  tiling.set_totalLength(total);
  tiling.set_formerNum(units % blockDim);
  tiling.set_formerLength((units / blockDim + 1) * alignElems);
  tiling.set_tailLength(units / blockDim * alignElems);
  tiling.set_tileLength(std::max(alignElems, std::min(TILE_LENGTH, maxTile) / alignElems * alignElems));
  const float* negative_slope = context->GetAttrs()->GetFloat(0);
  tiling.set_negative_slope(negative_slope ? *negative_slope : 0.01f);

  context->SetBlockDim(blockDim);
  tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
  context->GetWorkspaceSizes(1)[0] = 0;
  return ge::GRAPH_SUCCESS;
}

}  // namespace optiling

namespace ops {
class LeakyRelu : public OpDef {
 public:
  explicit LeakyRelu(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
    this->Attr("negative_slope").AttrType(OPTIONAL).Float(0.01f);
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(LeakyRelu);
}  // namespace ops
