// A small operator of our own in the hicann ops-* layout: y = x * scale + offset.
#include "register/op_def_registry.h"

namespace ops {
class OffsetRows : public OpDef {
 public:
  explicit OffsetRows(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Output("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Attr("scale").AttrType(OPTIONAL).Float(1.0f);
    this->Attr("offset").AttrType(OPTIONAL).Float(0.0f);
    this->AICore().AddConfig("ascend910b");
  }
};
OP_ADD(OffsetRows);
}  // namespace ops
