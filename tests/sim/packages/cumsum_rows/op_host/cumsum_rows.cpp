#include "cumsum_rows_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "graph/utils/type_utils.h"
#include "tiling/tiling_api.h"

namespace optiling {
static ge::graphStatus TilingFunc(gert::TilingContext* context)
{
  CumsumRowsTilingData tiling;
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
  // CumSum of one row along the last axis: its helper's minimum (the library works 16 rows at a time).
  uint32_t tmpMax = 0, tmpMin = 0;
  AscendC::GetCumSumMaxMinTmpSize(ge::Shape({1, static_cast<int64_t>(colsPad)}), typeLength, true, false, tmpMax, tmpMin);
  size_t userWorkspace = 0;
  tiling.set_rows(rows);
  tiling.set_cols(cols);
  tiling.set_colsPad(colsPad);
  tiling.set_rowsPerCore(rowsPerCore);
  tiling.set_tmpBytes(tmpMin);
  context->SetBlockDim(blockDim);
  tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
  size_t* currentWorkspace = context->GetWorkspaceSizes(1);
  currentWorkspace[0] = userWorkspace + platform_ascendc::PlatformAscendC(context->GetPlatformInfo()).GetLibApiWorkSpaceSize();
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class CumsumRows : public OpDef {
 public:
  explicit CumsumRows(const char* name) : OpDef(name)
  {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND}).UnknownShapeFormat({ge::FORMAT_ND});


    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(CumsumRows);
}  // namespace ops
