#include "mul_tiling.h"
#include "graph/utils/type_utils.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {

// Huawei's Add ladder, applied to Mul (docs/ascendc.md hardware 5, anchor A1): ~32 KB copies (the MTE2 plateau),
// double-buffered queues, and a tile whose length in 32 B rows is 4 mod 8. Queue slots are laid
// out back to back, so x and y sit two tiles apart: 8 bank groups apart at such a length, which
// keeps the two sources of Mul off the same UB bank group (16384 halves would conflict).
//
// Streaming is HBM-bound: launch the cores whose GM ports carry the HBM roof with headroom. A
// core's port plateaus near 80 GB/s (docs/ascendc.md hardware 3) and carries reads and writes alike;
// every further core only adds launch overhead (~0.4 us each). Too few cores (ports saturated
// before HBM) is the opposite mistake, hence the headroom.
constexpr uint32_t CORE_GBPS = 80;        // @tune core_gbps in [40, 160] step 8
constexpr uint32_t HEADROOM_PCT = 125;    // @tune headroom_pct in [100, 300] step 25
constexpr uint32_t PORT_PCT = 150;      // bytes crossing a core's port per 100 read from HBM (x, y in, z out)
constexpr uint32_t TILE_ROWS = 1020;    // @tune tile_rows in [4, 1020] step 8
constexpr uint32_t BUFFER_NUM = 2;      // the kernel's queue depth, for the UB budget
constexpr uint32_t UB_TENSORS = 3;      // x, y, z
constexpr uint32_t BLOCK_BYTES = 32;

static ge::graphStatus TilingFunc(gert::TilingContext* context) {
  MulTilingData tiling;
  auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
  uint64_t ubSize = 0;
  platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
  uint32_t typeSize = 0;
  ge::TypeUtils::GetDataTypeLength(context->GetInputDesc(0)->GetDataType(), typeSize);
  if (typeSize == 0) return ge::GRAPH_FAILED;

  const uint32_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
  const uint32_t alignElems = BLOCK_BYTES / typeSize;
  const uint32_t units = (total + alignElems - 1) / alignElems;
  uint64_t hbmGbps = 0;
  platform.GetCoreMemBw(platform_ascendc::CoreMemType::HBM, hbmGbps);
  const uint64_t portGbps = hbmGbps * PORT_PCT / 100 * HEADROOM_PCT / 100;
  const uint32_t wanted = hbmGbps == 0 ? platform.GetCoreNumAiv() : static_cast<uint32_t>((portGbps + CORE_GBPS - 1) / CORE_GBPS);
  uint32_t blockDim = std::min({wanted, platform.GetCoreNumAiv(), units});
  if (blockDim == 0) blockDim = 1;

  const uint32_t fitRows = static_cast<uint32_t>(ubSize / (UB_TENSORS * BUFFER_NUM * BLOCK_BYTES));
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
class Mul : public OpDef {
 public:
  explicit Mul(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
    this->Input("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
    this->Output("z").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(Mul);
}  // namespace ops
