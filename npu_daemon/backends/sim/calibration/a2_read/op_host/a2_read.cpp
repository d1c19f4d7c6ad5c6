// Host tiling of anchor A2 (docs/ascendc.md hardware 5): GM -> UB reads of a half matrix in tiles.
#include "a2_read_tiling.h"
#include "register/op_def_registry.h"

namespace optiling {

static ge::graphStatus TilingFunc(gert::TilingContext* context) {
  const gert::RuntimeAttrs* attrs = context->GetAttrs();
  const gert::Shape& shape = context->GetInputShape(0)->GetStorageShape();
  A2ReadTilingData t;
  t.set_rows(static_cast<uint32_t>(shape.GetDim(0)));
  t.set_cols(static_cast<uint32_t>(shape.GetDim(1)));
  t.set_tileRows(static_cast<uint32_t>(*attrs->GetInt(0)));
  t.set_tileCols(static_cast<uint32_t>(*attrs->GetInt(1)));
  t.set_shared(static_cast<uint32_t>(*attrs->GetInt(2)));
  t.set_staggered(static_cast<uint32_t>(*attrs->GetInt(3)));
  t.set_queued(static_cast<uint32_t>(*attrs->GetInt(4)));
  context->SetBlockDim(static_cast<uint32_t>(*attrs->GetInt(5)));
  t.SaveToBuffer(context->GetRawTilingData()->GetData(), context->GetRawTilingData()->GetCapacity());
  context->GetRawTilingData()->SetDataSize(t.GetDataSize());
  context->GetWorkspaceSizes(1)[0] = 0;
  return ge::GRAPH_SUCCESS;
}

}  // namespace optiling

namespace ops {
class A2Read : public OpDef {
 public:
  explicit A2Read(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT16}).Format({ge::FORMAT_ND});
    this->Attr("tile_rows").Int(64);
    this->Attr("tile_cols").Int(1024);
    this->Attr("shared").Int(0);
    this->Attr("staggered").Int(0);
    this->Attr("queued").Int(0);
    this->Attr("cores").Int(48);
    this->AICore().SetTiling(optiling::TilingFunc);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(A2Read);
}  // namespace ops
