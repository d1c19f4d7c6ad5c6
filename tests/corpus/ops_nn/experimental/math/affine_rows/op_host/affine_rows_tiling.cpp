// One core; the tiling passes the element count and the two attributes.
#include "log/log.h"
#include "register/op_impl_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "../op_kernel/affine_rows_tiling_data.h"

namespace optiling {
struct AffineRowsCompileInfo {};

static ge::graphStatus AffineRowsTiling(gert::TilingContext* context) {
  AffineRowsTilingData* tiling = context->GetTilingData<AffineRowsTilingData>();
  OP_CHECK_NULL_WITH_CONTEXT(context, tiling);
  tiling->total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
  tiling->scale = *context->GetAttrs()->GetFloat(0);
  tiling->shift = *context->GetAttrs()->GetFloat(1);
  context->SetBlockDim(1);
  context->GetWorkspaceSizes(1)[0] = 0;
  return ge::GRAPH_SUCCESS;
}

static ge::graphStatus AffineRowsParse(gert::TilingParseContext*) { return ge::GRAPH_SUCCESS; }

IMPL_OP_OPTILING(AffineRows).Tiling(AffineRowsTiling).TilingParse<AffineRowsCompileInfo>(AffineRowsParse);
}  // namespace optiling
