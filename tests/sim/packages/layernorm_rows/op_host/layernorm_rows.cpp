#include "layernorm_rows_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "graph/utils/type_utils.h"
#include "tiling/tiling_api.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
  LayernormRowsTilingData tiling;
  const gert::Shape& shape = context->GetInputShape(0)->GetStorageShape();
  uint32_t cols = static_cast<uint32_t>(shape.GetDim(shape.GetDimNum() - 1));
  uint32_t rows = static_cast<uint32_t>(shape.GetShapeSize() / cols);
  uint32_t typeLength = 0;
  ge::TypeUtils::GetDataTypeLength(context->GetInputDesc(0)->GetDataType(), typeLength);
  uint32_t align = 32 / typeLength;
  uint32_t colsPad = (cols + align - 1) / align * align;
  auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
  uint32_t coreNum = platform.GetCoreNum();
  uint32_t rowsPerCore = (rows + coreNum - 1) / coreNum;
  uint32_t blockDim = (rows + rowsPerCore - 1) / rowsPerCore;
  size_t userWorkspace = 0;
  tiling.set_rows(rows);
  tiling.set_cols(cols);
  tiling.set_colsPad(colsPad);
  tiling.set_rowsPerCore(rowsPerCore);
  context->SetBlockDim(blockDim);
  ge::Shape srcShape({1, 1, static_cast<int64_t>(colsPad)});
  uint32_t maxTmp = 0, minTmp = 0;
  AscendC::GetLayerNormMaxMinTmpSize(srcShape, typeLength, false, maxTmp, minTmp);
  AscendC::GetLayerNormNDTilingInfo(srcShape, minTmp, typeLength, false, tiling.lnTiling);
  tiling.lnTiling.set_originalHLength(cols);
  tiling.set_tmpBytes(minTmp);
  tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
  size_t* currentWorkspace = context->GetWorkspaceSizes(1);
  currentWorkspace[0] = userWorkspace + platform_ascendc::PlatformAscendC(context->GetPlatformInfo()).GetLibApiWorkSpaceSize();
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class LayernormRows : public OpDef {
 public:
  explicit LayernormRows(const char* name) : OpDef(name)
  {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
    this->Input("gamma").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
    this->Input("beta").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});


    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(LayernormRows);
}  // namespace ops
