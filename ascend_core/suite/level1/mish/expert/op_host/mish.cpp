#include "mish_tiling.h"
#include "graph/utils/type_utils.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {

// The streaming recipe of Huawei's Add ladder (docs/ascendc.md hardware 5, anchor A1): ~32 KB copies
// (the MTE2 plateau), double-buffered queues, and a tile whose length in 32 B rows is 4 mod 8:
// queue slots are laid out back to back, so a source and the tile two slots on sit 8 bank groups
// apart and vector ops never read and write the same UB bank group.
//
// Streaming is HBM-bound: launch the cores whose GM ports carry the HBM roof with headroom. A
// core's port plateaus near 80 GB/s (docs/ascendc.md hardware 3) and carries reads and writes alike;
// every further core only adds launch overhead (~0.4 us each). The headroom is larger than for
// add or relu because the vector pipe here is nearly as busy as MTE2 and must keep pace too.
constexpr uint32_t CORE_GBPS = 80;        // @tune core_gbps in [40, 160] step 8
constexpr uint32_t HEADROOM_PCT = 150;    // @tune headroom_pct in [100, 300] step 25
constexpr uint32_t PORT_PCT = 200;      // bytes crossing a core's port per 100 read from HBM (x in, y out)
constexpr uint32_t TILE_ROWS = 1020;    // @tune tile_rows in [4, 1020] step 8
constexpr uint32_t BUFFER_NUM = 2;      // the kernel's queue depth, for the UB budget
constexpr uint32_t UB_QUEUED = 2;      // x, y: double-buffered queues
constexpr uint32_t UB_TMP = 2;         // single scratch tiles for intermediates

static ge::graphStatus TilingFunc(gert::TilingContext* context) {
  MishTilingData tiling;
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
  uint64_t hbmGbps = 0;
  platform.GetCoreMemBw(platform_ascendc::CoreMemType::HBM, hbmGbps);
  const uint64_t portGbps = hbmGbps * PORT_PCT / 100 * HEADROOM_PCT / 100;
  const uint32_t wanted = hbmGbps == 0 ? platform.GetCoreNumAiv() : static_cast<uint32_t>((portGbps + CORE_GBPS - 1) / CORE_GBPS);
  uint32_t blockDim = std::min({wanted, platform.GetCoreNumAiv(), units});
  if (blockDim == 0) blockDim = 1;

  const uint32_t fitRows = static_cast<uint32_t>(ubSize / ((UB_QUEUED * BUFFER_NUM + UB_TMP) * 32));
  uint32_t rows = std::min(TILE_ROWS, fitRows);
  if (rows > 4) rows -= (rows - 4) % 8;
  tiling.set_totalLength(total);
  tiling.set_formerNum(units % blockDim);
  tiling.set_formerLength((units / blockDim + 1) * alignElems);
  tiling.set_tailLength(units / blockDim * alignElems);
  tiling.set_tileLength(std::max(1u, rows) * alignElems);

  context->SetBlockDim(blockDim);
  tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
  context->GetWorkspaceSizes(1)[0] = 0;
  return ge::GRAPH_SUCCESS;
}

}  // namespace optiling

namespace ops {
class Mish : public OpDef {
 public:
  explicit Mish(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(Mish);
}  // namespace ops
