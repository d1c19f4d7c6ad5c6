#include "max_syncall_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "graph/utils/type_utils.h"
#include "tiling/tiling_api.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
  MaxSyncallTilingData tiling;
  uint32_t totalLength = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
  auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
  uint32_t coreNum = platform.GetCoreNumAiv();
  uint32_t chunks = (totalLength + 63) / 64;
  uint32_t blockDim = chunks < coreNum ? chunks : coreNum;
  uint32_t offsets[65] = {};
  for (uint32_t b = 0; b <= blockDim; ++b) offsets[b] = (chunks * b / blockDim) * 64 < totalLength ? (chunks * b / blockDim) * 64 : totalLength;
  tiling.set_totalLength(totalLength);
  tiling.set_blockOffsets(offsets);
  size_t userWorkspace = 64 * 32;
  context->SetBlockDim(blockDim);
  tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
  size_t* currentWorkspace = context->GetWorkspaceSizes(1);
  currentWorkspace[0] = userWorkspace + platform_ascendc::PlatformAscendC(context->GetPlatformInfo()).GetLibApiWorkSpaceSize();
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class MaxSyncall : public OpDef {
 public:
  explicit MaxSyncall(const char* name) : OpDef(name)
  {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});


    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(MaxSyncall);
}  // namespace ops
