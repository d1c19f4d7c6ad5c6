// Host tiling of anchor A1 (docs/ascendc.md hardware 5): every rung of the Add ladder is a case whose
// attrs pick the core count, tile length, buffering, L2 hint and scalar/vector compute.
#include "a1_add_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {

static ge::graphStatus TilingFunc(gert::TilingContext* context) {
  const gert::RuntimeAttrs* attrs = context->GetAttrs();
  const uint32_t scalarLoop = static_cast<uint32_t>(*attrs->GetInt(0));
  const uint32_t cores = static_cast<uint32_t>(*attrs->GetInt(1));
  const uint32_t tile = static_cast<uint32_t>(*attrs->GetInt(2));
  const uint32_t doubleBuffer = static_cast<uint32_t>(*attrs->GetInt(3));
  const uint32_t l2Bypass = static_cast<uint32_t>(*attrs->GetInt(4));
  const uint32_t total = context->GetInputShape(0)->GetStorageShape().GetShapeSize();
  A1AddTilingData t;
  t.set_scalarLoop(scalarLoop);
  t.set_totalLength(total);
  t.set_blockLength(total / cores / 16 * 16);  // whole 32 B blocks of half
  t.set_tileLength(tile);
  t.set_doubleBuffer(doubleBuffer);
  t.set_l2Bypass(l2Bypass);
  context->SetBlockDim(cores);
  t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(t.GetDataSize());
  context->GetWorkspaceSizes(1)[0] = 0;
  return ge::GRAPH_SUCCESS;
}

}  // namespace optiling

namespace ops {
class A1Add : public OpDef {
 public:
  explicit A1Add(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
    this->Input("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
    this->Output("z").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
    this->Attr("scalar_loop").Int(0);
    this->Attr("cores").Int(48);
    this->Attr("tile").Int(16384);
    this->Attr("double_buffer").Int(0);
    this->Attr("l2_bypass").Int(0);
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(A1Add);
}  // namespace ops
