// A small neg of our own in the custom-op layout, its arguments named unlike our spec's (x, y):
// the corpus runner renames the spec's by position.
#include "neg_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus NegTiling(gert::TilingContext* context) {
  NegTilingData tiling;
  const uint32_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
  const uint32_t cores = platform_ascendc::PlatformAscendC(context->GetPlatformInfo()).GetCoreNumAiv();
  const uint32_t chunks = (total + 7) / 8;  // 32-byte chunks of float
  const uint32_t blocks = chunks < cores ? chunks : cores;
  const uint32_t perCore = (chunks + blocks - 1) / blocks * 8;
  tiling.set_total(total);
  tiling.set_perCore(perCore);
  context->SetBlockDim((total + perCore - 1) / perCore);
  tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
  context->GetWorkspaceSizes(1)[0] = 0;
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class Neg : public OpDef {
 public:
  explicit Neg(const char* name) : OpDef(name) {
    this->Input("input_x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Output("output_y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->AICore().SetTiling(optiling::NegTiling).AddConfig("ascend910b");
  }
};
OP_ADD(Neg);
}  // namespace ops
