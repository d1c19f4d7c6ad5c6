#include "group_norm_tiling.h"
#include "graph/utils/type_utils.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {

constexpr uint32_t BLOCK_DIM = 40;      // @tune block_dim in [1, 48] step 1
constexpr uint32_t TILE_LENGTH = 4096;  // @tune tile_length in [256, 16384] pow2
constexpr uint32_t BUFFER_NUM = 2;      // the kernel's queue depth, for the UB budget

static ge::graphStatus TilingFunc(gert::TilingContext* context) {
  GroupNormTilingData tiling;
  auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
  uint64_t ubSize = 0;
  platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
  uint32_t typeSize = 0;
  ge::TypeUtils::GetDataTypeLength(context->GetInputDesc(0)->GetDataType(), typeSize);
  if (typeSize == 0) return ge::GRAPH_FAILED;

  const auto& shape = context->GetInputShape(0)->GetStorageShape();
  if (shape.GetDimNum() < 2) return ge::GRAPH_FAILED;
  const uint32_t batch = static_cast<uint32_t>(shape.GetDim(0));
  const uint32_t channels = static_cast<uint32_t>(shape.GetDim(1));
  const uint32_t spatial = static_cast<uint32_t>(shape.GetShapeSize() / (static_cast<int64_t>(batch) * channels));
  const int64_t* groupsAttr = context->GetAttrs()->GetInt(0);
  const float* epsAttr = context->GetAttrs()->GetFloat(1);
  const uint32_t numGroups = groupsAttr ? static_cast<uint32_t>(*groupsAttr) : 32;
  if (numGroups == 0 || channels % numGroups != 0) return ge::GRAPH_FAILED;

  const uint32_t groups = batch * numGroups;
  uint32_t blockDim = std::min({BLOCK_DIM, platform.GetCoreNumAiv(), groups});
  if (blockDim == 0) blockDim = 1;
  // UB: x in and y out double-buffered in T, two fp32 scratch tiles, one for the reductions.
  const uint32_t perElem = 2 * BUFFER_NUM * typeSize + 3 * sizeof(float);
  const uint32_t maxTile = static_cast<uint32_t>((ubSize - 64) / perElem) / 8 * 8;
  tiling.set_channels(channels);
  tiling.set_spatial(spatial);
  tiling.set_groupChannels(channels / numGroups);
  tiling.set_numGroups(numGroups);
  tiling.set_formerNum(groups % blockDim);
  tiling.set_formerGroups(groups / blockDim + 1);
  tiling.set_tailGroups(groups / blockDim);
  tiling.set_tileLength(std::max(8u, std::min(TILE_LENGTH, maxTile) / 8 * 8));
  tiling.set_eps(epsAttr ? *epsAttr : 1e-5f);

  context->SetBlockDim(blockDim);
  tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
  context->GetWorkspaceSizes(1)[0] = 0;
  return ge::GRAPH_SUCCESS;
}

}  // namespace optiling

namespace ops {
class GroupNorm : public OpDef {
 public:
  explicit GroupNorm(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
    this->Input("gamma").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
    this->Input("beta").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
    this->Attr("num_groups").AttrType(OPTIONAL).Int(32);
    this->Attr("eps").AttrType(OPTIONAL).Float(1e-5f);
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(GroupNorm);
}  // namespace ops
