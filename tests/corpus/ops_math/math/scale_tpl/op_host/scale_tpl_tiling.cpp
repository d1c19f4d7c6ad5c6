// The tiling picks the kernel instance with the template tiling key: GET_TPL_TILING_KEY(mode,
// negate), or a raw key when the raw_key attr asks for one (to reach a key with no instance).
#include "log/log.h"
#include "util/math_util.h"
#include "register/op_impl_registry.h"
#include "tiling/platform/platform_ascendc.h"
#include "../op_kernel/scale_tpl_tiling_data.h"
#include "../op_kernel/scale_tpl_tiling_key.h"

namespace optiling {
struct ScaleTplCompileInfo {};

static ge::graphStatus ScaleTplTiling(gert::TilingContext* context) {
  ScaleTplTilingData* tiling = context->GetTilingData<ScaleTplTilingData>();
  OP_CHECK_NULL_WITH_CONTEXT(context, tiling);
  OP_CHECK_IF(memset_s(tiling, sizeof(*tiling), 0, sizeof(*tiling)) != EOK, OP_LOGE(context, "memset_s"),
              return ge::GRAPH_FAILED);
  const uint32_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
  tiling->total = Ops::Base::CeilAlign(total, 8U);  // whole 32-byte blocks of float
  const gert::RuntimeAttrs* attrs = context->GetAttrs();
  const uint32_t mode = static_cast<uint32_t>(*attrs->GetInt(0));
  const bool negate = *attrs->GetBool(1);
  const int64_t rawKey = *attrs->GetInt(2);
  if (rawKey >= 0) {
    context->SetTilingKey(static_cast<uint64_t>(rawKey));
  } else {
    ASCENDC_TPL_SEL_PARAM(context, mode, negate);
  }
  context->SetBlockDim(1);
  context->GetWorkspaceSizes(1)[0] = 0;
  return ge::GRAPH_SUCCESS;
}

static ge::graphStatus ScaleTplParse(gert::TilingParseContext*) { return ge::GRAPH_SUCCESS; }

IMPL_OP_OPTILING(ScaleTpl).Tiling(ScaleTplTiling).TilingParse<ScaleTplCompileInfo>(ScaleTplParse);
}  // namespace optiling
