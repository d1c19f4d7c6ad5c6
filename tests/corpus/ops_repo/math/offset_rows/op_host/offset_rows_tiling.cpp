// The split comes from the repository's common/inc, found through its include directory.
#include "common/demo_split.h"
#include "register/op_impl_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "../op_kernel/offset_rows_tiling_data.h"

namespace optiling {
struct OffsetRowsCompileInfo {};

static ge::graphStatus OffsetRowsTiling(gert::TilingContext* context) {
  OffsetRowsTilingData* tiling = context->GetTilingData<OffsetRowsTilingData>();
  const uint32_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
  const uint32_t cores = platform_ascendc::PlatformAscendC(context->GetPlatformInfo()).GetCoreNumAiv();
  tiling->total = total;
  tiling->perCore = DemoSplitPerCore(total, cores);
  tiling->scale = *context->GetAttrs()->GetFloat(0);
  tiling->offset = *context->GetAttrs()->GetFloat(1);
  context->SetBlockDim((total + tiling->perCore - 1) / tiling->perCore);
  context->GetWorkspaceSizes(1)[0] = 0;
  return ge::GRAPH_SUCCESS;
}

static ge::graphStatus OffsetRowsParse(gert::TilingParseContext*) { return ge::GRAPH_SUCCESS; }

IMPL_OP_OPTILING(OffsetRows).Tiling(OffsetRowsTiling).TilingParse<OffsetRowsCompileInfo>(OffsetRowsParse);
}  // namespace optiling
