#include "register/op_def_registry.h"

namespace optiling {
ge::graphStatus InplaceAxpbyTiling(gert::TilingContext* context);
}

namespace ops {
class InplaceAxpby : public OpDef {
 public:
  explicit InplaceAxpby(const char* name) : OpDef(name) {
    this->Input("x").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Input("y").ParamType(REQUIRED).DataType({ge::DT_FLOAT}).Format({ge::FORMAT_ND});
    this->Attr("coefs").AttrType(OPTIONAL).ListFloat({1.0f, 1.0f});
    this->Attr("flags").AttrType(OPTIONAL).ListBool({false});
    this->AICore().SetTiling(optiling::InplaceAxpbyTiling).AddConfig("ascend910b");
  }
};
OP_ADD(InplaceAxpby);
}  // namespace ops
