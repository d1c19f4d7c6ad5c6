// Host tiling of anchor S1: one core, the stride and the number of reads.
#include "s1_scalar_walk_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {

static ge::graphStatus TilingFunc(gert::TilingContext* context) {
  const gert::RuntimeAttrs* attrs = context->GetAttrs();
  S1ScalarWalkTilingData t;
  t.set_stride(static_cast<uint32_t>(*attrs->GetInt(0)));
  t.set_reads(static_cast<uint32_t>(*attrs->GetInt(1)));
  context->SetBlockDim(1);
  t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(t.GetDataSize());
  context->GetWorkspaceSizes(1)[0] = 0;
  return ge::GRAPH_SUCCESS;
}

}  // namespace optiling

namespace ops {
class S1ScalarWalk : public OpDef {
 public:
  explicit S1ScalarWalk(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Output("z").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Attr("stride").Int(16);
    this->Attr("reads").Int(4096);
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(S1ScalarWalk);
}  // namespace ops
