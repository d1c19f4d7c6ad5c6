// A prelu of our own in cann-ops' layout: x is cut into planes of one channel each (dim 1 of x;
// rows of x when there is one weight), the cores share the planes, a plane is walked in tiles.
#include "prelu_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
const uint32_t BLOCK_SIZE = 32;
const uint32_t UB_PARTS = 3;  // x, y and the negative part

static ge::graphStatus TilingFunc(gert::TilingContext* context) {
  PreluTilingData tiling;
  uint64_t ubSize = 0;
  auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
  ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
  auto coreNum = ascendcPlatform.GetCoreNumAiv();
  const auto& shape = context->GetInputShape(0)->GetStorageShape();
  const uint32_t total = shape.GetShapeSize();
  const uint32_t channels = context->GetInputShape(1)->GetStorageShape().GetShapeSize();
  uint32_t inner = total;
  if (shape.GetDimNum() >= 2) {
    inner = channels > 1 ? total / shape.GetDim(0) / shape.GetDim(1) : total / shape.GetDim(0);
  }
  const uint32_t planes = total / inner;
  const uint32_t cores = planes < coreNum ? planes : coreNum;
  const uint32_t perCore = (planes + cores - 1) / cores;
  const uint32_t ubTile = static_cast<uint32_t>(ubSize / UB_PARTS / BLOCK_SIZE * BLOCK_SIZE / sizeof(float));
  const uint32_t innerPad = (inner + 7) / 8 * 8;
  tiling.set_planes(planes);
  tiling.set_inner(inner);
  tiling.set_channels(channels);
  tiling.set_perCore(perCore);
  tiling.set_tile(innerPad < ubTile ? innerPad : ubTile);
  context->SetBlockDim((planes + perCore - 1) / perCore);
  tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
  context->GetWorkspaceSizes(1)[0] = 0;
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class Prelu : public OpDef {
 public:
  explicit Prelu(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Input("weight").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->AICore().SetTiling(optiling::TilingFunc).AddConfig("ascend910b");
  }
};
OP_ADD(Prelu);
}  // namespace ops
