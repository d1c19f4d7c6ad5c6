// y = x * scale + offset: the tiling, in a host file not named after the operator.
#include "../op_kernel/offset_blend_tiling.h"
#include "register/op_def_registry.h"
#include "row_share.h"
#include "tiling/platform/platform_ascendc.h"

// Definitions the build files give the tiling target, one of its own, one of a library it links.
#ifndef BLEND_FROM_BUILD
#error "the tiling target's compile definitions did not reach the compile"
#endif
static_assert(sizeof(BLEND_LOG_NAME) == sizeof("OP_TILING") && sizeof(BLEND_LOG_PACKAGE) == 1);

namespace optiling {
static ge::graphStatus OffsetBlendTiling(gert::TilingContext* context) {
  auto* t = context->GetTilingData<::OffsetBlendTiling>();
  t->total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
  t->perCore = RowShare(t->total, platform_ascendc::PlatformAscendC(context->GetPlatformInfo()).GetCoreNumAiv());
  t->scale = *context->GetAttrs()->GetFloat(0);
  t->offset = *context->GetAttrs()->GetFloat(1);
  context->SetBlockDim((t->total + t->perCore - 1) / t->perCore);
  context->GetWorkspaceSizes(1)[0] = 0;
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling

namespace ops {
class OffsetBlend : public OpDef {
 public:
  explicit OffsetBlend(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Attr("scale").AttrType(OPTIONAL).Float(1.0f);
    this->Attr("offset").AttrType(OPTIONAL).Float(0.0f);
    this->AICore().SetTiling(optiling::OffsetBlendTiling).AddConfig("ascend910b");
  }
};
OP_ADD(OffsetBlend);
}  // namespace ops
