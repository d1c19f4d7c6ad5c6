#include <cstring>

#include "expand_rows_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static RowSplit Split(uint32_t rows, uint32_t coreNum)
{
  const uint32_t perCore = (rows + coreNum - 1) / coreNum;
  return RowSplit{perCore, (rows + perCore - 1) / perCore};
}

static ge::graphStatus ExpandRowsTilingFunc(gert::TilingContext* context)
{
  const gert::Shape& shape = context->GetInputShape(0)->GetStorageShape();
  if (shape.GetDimNum() > MAX_DIMS) return ge::GRAPH_FAILED;
  const uint32_t cols = shape.GetDim(shape.GetDimNum() - 1);
  const uint32_t rows = shape.GetShapeSize() / cols;
  const RowSplit split = Split(rows, platform_ascendc::PlatformAscendC(context->GetPlatformInfo()).GetCoreNumAiv());
  ExpandRowsTiling tiling{rows, cols, split.rowsPerCore};
  std::memcpy(context->GetRawTilingData()->GetData(), &tiling, sizeof(tiling));
  context->GetRawTilingData()->SetDataSize(sizeof(tiling));
  context->SetBlockDim(split.cores);
  context->GetWorkspaceSizes(1)[0] = 0;
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class ExpandRows : public OpDef {
 public:
  explicit ExpandRows(const char* name) : OpDef(name)
  {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT});
    this->Input("b").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT});
    this->AICore().SetTiling(optiling::ExpandRowsTilingFunc).AddConfig("ascend910b");
  }
};
OP_ADD(ExpandRows);
}  // namespace ops
