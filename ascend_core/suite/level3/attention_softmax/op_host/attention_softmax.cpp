#include "attention_softmax_tiling.h"
#include "graph/utils/type_utils.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {

constexpr uint32_t BLOCK_DIM = 40;     // @tune block_dim in [1, 48] step 1
constexpr uint32_t BUFFER_NUM = 2;     // the kernel's queue depth, for the UB budget

static ge::graphStatus TilingFunc(gert::TilingContext* context) {
  AttentionSoftmaxTilingData tiling;
  auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
  uint64_t ubSize = 0;
  platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
  uint32_t typeSize = 0;
  ge::TypeUtils::GetDataTypeLength(context->GetInputDesc(0)->GetDataType(), typeSize);
  if (typeSize == 0) return ge::GRAPH_FAILED;

  const auto& shape = context->GetInputShape(0)->GetStorageShape();
  const auto& maskShape = context->GetInputShape(1)->GetStorageShape();
  const uint32_t dims = shape.GetDimNum();
  if (dims < 2 || maskShape.GetDimNum() != 2) return ge::GRAPH_FAILED;
  const uint32_t cols = static_cast<uint32_t>(shape.GetDim(dims - 1));
  const uint32_t rows = static_cast<uint32_t>(shape.GetShapeSize() / cols);
  const uint32_t maskRows = static_cast<uint32_t>(maskShape.GetDim(0));
  if (maskShape.GetDim(1) != cols || shape.GetDim(dims - 2) != maskRows) return ge::GRAPH_FAILED;

  // One row per tile: x, mask and y rows double-buffered, two fp32 rows of scratch, reduce scratch.
  const uint64_t alignElems = 32 / typeSize;
  const uint64_t colsPad = (cols + alignElems - 1) / alignElems * alignElems;  // the 32 B-padded UB row
  const uint64_t need = 3 * BUFFER_NUM * colsPad * typeSize + 2 * colsPad * sizeof(float) + colsPad * sizeof(float) + 64;
  if (need > ubSize) return ge::GRAPH_FAILED;
  uint32_t blockDim = std::min({BLOCK_DIM, platform.GetCoreNumAiv(), rows});
  if (blockDim == 0) blockDim = 1;

  const float* scale = context->GetAttrs()->GetFloat(0);
  tiling.set_rows(rows);
  tiling.set_cols(cols);
  tiling.set_maskRows(maskRows);
  tiling.set_formerNum(rows % blockDim);
  tiling.set_formerRows(rows / blockDim + 1);
  tiling.set_tailRows(rows / blockDim);
  tiling.set_rowsPerTile(1);
  tiling.set_scale(scale ? *scale : 0.125f);

  context->SetBlockDim(blockDim);
  tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
  context->GetWorkspaceSizes(1)[0] = 0;
  return ge::GRAPH_SUCCESS;
}

}  // namespace optiling

namespace ops {
class AttentionSoftmax : public OpDef {
 public:
  explicit AttentionSoftmax(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
    this->Input("mask").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
    this->Attr("scale").AttrType(OPTIONAL).Float(0.125f);
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(AttentionSoftmax);
}  // namespace ops
