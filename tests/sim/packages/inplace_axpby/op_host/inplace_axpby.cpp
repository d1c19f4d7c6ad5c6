// The tiling only; the OpDef is in inplace_axpby_def.cpp, as in projects that split them.
#include "inplace_axpby_tiling.h"
#include "register/op_def_registry.h"
#include "tiling/platform/platform_ascendc.h"

namespace optiling {
ge::graphStatus InplaceAxpbyTiling(gert::TilingContext* context) {
  InplaceAxpbyTilingData tiling;
  const uint32_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
  const gert::RuntimeAttrs* attrs = context->GetAttrs();
  const gert::TypedContinuousVector<float>* coefs = attrs->GetListFloat(0);
  const gert::TypedContinuousVector<bool>* flags = attrs->GetListBool(1);
  if (coefs == nullptr || coefs->GetSize() != 2 || flags == nullptr || flags->GetSize() != 1) return ge::GRAPH_FAILED;
  const float sign = flags->GetData()[0] ? -1.0f : 1.0f;
  tiling.set_a(sign * coefs->GetData()[0]);
  tiling.set_b(sign * coefs->GetData()[1]);
  const uint32_t blocks = (total + 63) / 64 < 8 ? (total + 63) / 64 : 8;  // 64-element chunks
  const uint32_t perCore = ((total + blocks - 1) / blocks + 7) / 8 * 8;
  tiling.set_perCore(perCore);
  tiling.set_total(total);
  context->SetBlockDim((total + perCore - 1) / perCore);
  tiling.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(tiling.GetDataSize());
  context->GetWorkspaceSizes(1)[0] = 0;
  return ge::GRAPH_SUCCESS;
}
}  // namespace optiling
