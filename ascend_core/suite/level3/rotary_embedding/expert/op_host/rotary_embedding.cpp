#include "rotary_embedding_tiling.h"
#include "graph/utils/type_utils.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {

constexpr uint32_t BLOCK_DIM = 40;     // @tune block_dim in [1, 48] step 1
constexpr uint32_t BUFFER_NUM = 2;     // the kernel's queue depth, for the UB budget

static ge::graphStatus TilingFunc(gert::TilingContext* context) {
  RotaryEmbeddingTilingData tiling;
  auto platform = platform_ascendc::PlatformAscendC(context->GetPlatformInfo());
  uint64_t ubSize = 0;
  platform.GetCoreMemSize(platform_ascendc::CoreMemType::UB, ubSize);
  uint32_t typeSize = 0;
  ge::TypeUtils::GetDataTypeLength(context->GetInputDesc(0)->GetDataType(), typeSize);
  if (typeSize == 0) return ge::GRAPH_FAILED;

  const auto& shape = context->GetInputShape(0)->GetStorageShape();
  if (shape.GetDimNum() != 3 || shape.GetDim(2) % 2 != 0) return ge::GRAPH_FAILED;
  const uint32_t tokens = static_cast<uint32_t>(shape.GetDim(0));
  const uint32_t heads = static_cast<uint32_t>(shape.GetDim(1));
  const uint32_t half = static_cast<uint32_t>(shape.GetDim(2) / 2);
  // Each half of a row lands on its own 32 B-aligned UB row, so the two halves can be swapped by
  // addressing alone. x, cos, sin and y double-buffered in T, three fp32 rows of scratch.
  const uint64_t alignElems = 32 / typeSize;
  const uint64_t halfPad = (half + alignElems - 1) / alignElems * alignElems;
  // All heads of a token move in one multi-burst DataCopyPad (2 * heads bursts) instead of one
  // small copy per head: x and y double-buffered per token, cos|sin once, fp32 x, y and scratch.
  const uint64_t tokenBytes = 2 * BUFFER_NUM * heads * 2 * halfPad * typeSize + 3 * heads * 2 * halfPad * sizeof(float);
  const uint64_t angleBytes = BUFFER_NUM * 2 * 2 * halfPad * typeSize + 2 * 2 * halfPad * sizeof(float);
  if (tokenBytes + angleBytes > ubSize || 2 * heads > 4095) return ge::GRAPH_FAILED;
  uint32_t blockDim = std::min({BLOCK_DIM, platform.GetCoreNumAiv(), tokens});
  if (blockDim == 0) blockDim = 1;

  tiling.set_heads(heads);
  tiling.set_half(half);
  tiling.set_formerNum(tokens % blockDim);
  tiling.set_formerTokens(tokens / blockDim + 1);
  tiling.set_tailTokens(tokens / blockDim);
  tiling.set_tokensPerTile(1);

  context->SetBlockDim(blockDim);
  tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
  context->GetWorkspaceSizes(1)[0] = 0;
  return ge::GRAPH_SUCCESS;
}

}  // namespace optiling

namespace ops {
class RotaryEmbedding : public OpDef {
 public:
  explicit RotaryEmbedding(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
    this->Input("cos").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
    this->Input("sin").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16, ge::DT_FLOAT}).Format({ge::FORMAT_ND, ge::FORMAT_ND});
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(RotaryEmbedding);
}  // namespace ops
