#include "cross_entropy_loss_tiling.h"
#include "graph/utils/type_utils.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {

constexpr uint32_t BLOCK_DIM = 40;     // @tune block_dim in [1, 48] step 1
constexpr uint32_t OUT_CHUNK = 256;    // @tune out_chunk in [16, 1024] pow2
constexpr uint32_t BUFFER_NUM = 2;     // the kernel's queue depth, for the UB budget

static ge::graphStatus TilingFunc(gert::TilingContext* context) {
  CrossEntropyLossTilingData tiling;
  auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
  uint64_t ubSize = 0;
  platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
  uint32_t typeSize = 0;
  ge::TypeUtils::GetDataTypeLength(context->GetInputDesc(0)->GetDataType(), typeSize);
  if (typeSize == 0) return ge::GRAPH_FAILED;

  const auto& shape = context->GetInputShape(0)->GetStorageShape();
  if (shape.GetDimNum() != 2) return ge::GRAPH_FAILED;
  const uint32_t rows = static_cast<uint32_t>(shape.GetDim(0));
  const uint32_t classes = static_cast<uint32_t>(shape.GetDim(1));
  // UB: the row double-buffered in T, an fp32 copy and its reduce scratch, the loss chunk.
  const uint64_t rowPad = (classes + 15) / 16 * 16;
  const uint64_t need = BUFFER_NUM * rowPad * typeSize + 2 * rowPad * sizeof(float) + BUFFER_NUM * OUT_CHUNK * typeSize + 64;
  if (need > ubSize) return ge::GRAPH_FAILED;
  uint32_t blockDim = std::min({BLOCK_DIM, platform.GetCoreNumAiv(), rows});
  if (blockDim == 0) blockDim = 1;

  const int64_t* ignore = context->GetAttrs()->GetInt(0);
  tiling.set_classes(classes);
  tiling.set_formerNum(rows % blockDim);
  tiling.set_formerRows(rows / blockDim + 1);
  tiling.set_tailRows(rows / blockDim);
  tiling.set_outChunk(OUT_CHUNK);
  tiling.set_ignoreIndex(ignore ? static_cast<int32_t>(*ignore) : -1);

  context->SetBlockDim(blockDim);
  tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
  context->GetWorkspaceSizes(1)[0] = 0;
  return ge::GRAPH_SUCCESS;
}

}  // namespace optiling

namespace ops {
class CrossEntropyLoss : public OpDef {
 public:
  explicit CrossEntropyLoss(const char* name) : OpDef(name) {
    this->Input("logits").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
    this->Input("target").ParamType(REQUIRED).DataType({ge::DT_INT32, ge::DT_INT32}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
    this->Output("loss").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
    this->Attr("ignore_index").AttrType(OPTIONAL).Int(-1);
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(CrossEntropyLoss);
}  // namespace ops
