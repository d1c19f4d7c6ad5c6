// A relu of our own written as cann-ops writes its tilings: the core count and the UB size come
// from the platform, the tile is a share of the UB and every core takes whole 32-byte blocks.
#include "relu_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
const uint32_t BLOCK_SIZE = 32;
const uint32_t UB_PARTS = 3;  // x, zeros and y tiles

static ge::graphStatus TilingFunc(gert::TilingContext* context) {
  ReluTilingData tiling;
  uint64_t ubSize = 0;
  auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
  ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
  auto coreNum = ascendcPlatform.GetCoreNumAiv();
  const uint32_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
  const uint32_t tile = static_cast<uint32_t>(ubSize / UB_PARTS / BLOCK_SIZE * BLOCK_SIZE / sizeof(float));
  const uint32_t blocks = (total + 7) / 8;
  const uint32_t cores = blocks < coreNum ? blocks : coreNum;
  const uint32_t perCore = (blocks + cores - 1) / cores * 8;
  tiling.set_total(total);
  tiling.set_perCore(perCore);
  tiling.set_tile(tile);
  context->SetBlockDim((total + perCore - 1) / perCore);
  tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
  context->GetWorkspaceSizes(1)[0] = 0;
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class Relu : public OpDef {
 public:
  explicit Relu(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->AICore().SetTiling(optiling::TilingFunc).AddConfig("ascend910b");
  }
};
OP_ADD(Relu);
}  // namespace ops
