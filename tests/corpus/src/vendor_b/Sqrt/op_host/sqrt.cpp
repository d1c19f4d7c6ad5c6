// A sqrt of our own whose kernel does not compile (an undeclared helper): counted as a COMPILE_ERROR.
#include "sqrt_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
static ge::graphStatus SqrtTiling(gert::TilingContext* context) {
  SqrtTilingData tiling;
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
class Sqrt : public OpDef {
 public:
  explicit Sqrt(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->AICore().SetTiling(optiling::SqrtTiling).AddConfig("ascend910b");
  }
};
OP_ADD(Sqrt);
}  // namespace ops
