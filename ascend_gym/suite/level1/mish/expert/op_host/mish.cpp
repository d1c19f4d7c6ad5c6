#include "mish_tiling.h"
#include "graph/utils/type_utils.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {

// Element-wise streaming is bound by HBM, not by the cores: once enough cores pull data to
// saturate HBM, each further core only adds launch overhead. Launch the cores HBM needs (one
// core's MTE2 plateaus near 78 GiB/s), scaled up by how heavy the vector work is per byte.
constexpr uint32_t CORE_GBPS = 80;         // @tune core_gbps in [40, 160] step 8
constexpr uint32_t VEC_WEIGHT_PCT = 200;   // @tune vec_weight_pct in [100, 400] step 20
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
  const uint32_t wanted = hbmGbps == 0 ? platform.GetCoreNumAiv()
                                       : static_cast<uint32_t>((hbmGbps * VEC_WEIGHT_PCT / 100 + CORE_GBPS - 1) / CORE_GBPS);
  uint32_t blockDim = std::min({wanted, platform.GetCoreNumAiv(), units});
  if (blockDim == 0) blockDim = 1;

  const uint32_t maxTile = ubSize / ((UB_QUEUED * BUFFER_NUM + UB_TMP) * typeSize) / alignElems * alignElems;
  // The largest double-buffered tile the UB holds: fewer, longer copies amortise each DMA's start.
  tiling.set_totalLength(total);
  tiling.set_formerNum(units % blockDim);
  tiling.set_formerLength((units / blockDim + 1) * alignElems);
  tiling.set_tailLength(units / blockDim * alignElems);
  tiling.set_tileLength(std::max(alignElems, maxTile));

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
