#include "square_scalar_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "graph/utils/type_utils.h"
#include "tiling/tiling_api.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
  SquareScalarTilingData tiling;
  uint32_t totalLength = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
  uint32_t typeLength = 0;
  ge::TypeUtils::GetDataTypeLength(context->GetInputDesc(0)->GetDataType(), typeLength);
  auto ascendcPlatform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
  uint32_t coreNum = ascendcPlatform.GetCoreNumAiv();
  uint64_t ubSize = 0;
  ascendcPlatform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
  // Each core stores with SetValue: its range whole 64 B data cache lines, as the device needs
  // (asc-devkit SetValue: cores' addresses at least a cache line apart).
  uint32_t alignNum = 64 / typeLength;
  uint32_t chunks = (totalLength + alignNum - 1) / alignNum;
  uint32_t blockDim = chunks < coreNum ? chunks : coreNum;
  uint32_t bigNum = chunks % blockDim;
  uint32_t smallLength = chunks / blockDim * alignNum;
  uint32_t bigLength = smallLength + alignNum;
  uint32_t tileLength = 2048;  // @tune tile in [256, 8192] pow2
  size_t userWorkspace = 0;
  tiling.set_totalLength(totalLength);
  tiling.set_bigNum(bigNum);
  tiling.set_bigLength(bigLength);
  tiling.set_smallLength(smallLength);
  tiling.set_tileLength(tileLength);
  context->SetBlockDim(blockDim);
  tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
  size_t* currentWorkspace = context->GetWorkspaceSizes(1);
  currentWorkspace[0] = userWorkspace + platform_ascendc::PlatformAscendC(context->GetPlatformInfo()).GetLibApiWorkSpaceSize();
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class SquareScalar : public OpDef {
 public:
  explicit SquareScalar(const char* name) : OpDef(name)
  {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND, ge::FORMAT_ND});


    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(SquareScalar);
}  // namespace ops
